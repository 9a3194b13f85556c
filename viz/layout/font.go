package layout

import (
	"fmt"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"

	"bufferlab/assets"
)

// Style is a font style.
type Style uint8

// The styles of the embedded Go fonts.
const (
	Regular Style = iota
	Bold
	Mono
	Italic
)

var styleNames = [...]string{"regular", "bold", "mono", "italic"}

func (s Style) String() string {
	if int(s) < len(styleNames) {
		return styleNames[s]
	}
	return "?"
}

// TTF returns the embedded Go font of style s, without its hinting
// (assets).
func TTF(s Style) []byte {
	switch s {
	case Bold:
		return assets.GoBold
	case Mono:
		return assets.GoMono
	case Italic:
		return assets.GoItalic
	}
	return assets.GoRegular
}

// Font is a style at a size in pixels (already scaled by the theme).
type Font struct {
	Style Style
	Size  float64
}

// Align is a horizontal text alignment.
type Align uint8

// Alignments.
const (
	Left Align = iota
	Center
	Right
)

// fonts holds the parsed fonts and, per font and size, a face. A face
// is not safe for concurrent use, so measurement takes mu.
var fonts struct {
	once   sync.Once
	err    error
	fonts  [4]*sfnt.Font
	mu     sync.Mutex
	faces  map[Font]font.Face
	widths map[widthKey]float64
}

type widthKey struct {
	s string
	f Font
}

func loadFonts() {
	for i := range fonts.fonts {
		f, err := opentype.Parse(TTF(Style(i)))
		if err != nil {
			fonts.err = err
			return
		}
		fonts.fonts[i] = f
	}
	fonts.faces = map[Font]font.Face{}
	fonts.widths = map[widthKey]float64{}
}

// FontError reports a failure to parse the embedded fonts (never
// expected).
func FontError() error {
	fonts.once.Do(loadFonts)
	return fonts.err
}

// SFNT is the parsed Go font of style s, which render makes its faces
// from too (nil if the fonts failed to parse: FontError).
func SFNT(s Style) *sfnt.Font {
	fonts.once.Do(loadFonts)
	if int(s) >= len(fonts.fonts) {
		s = Regular
	}
	return fonts.fonts[s]
}

// NewFace is the face of f that both layout and render measure and draw
// with: the Go font at f.Size pixels (72 DPI), unhinted.
func NewFace(f Font) (font.Face, error) {
	sf := SFNT(f.Style)
	if sf == nil {
		return nil, fmt.Errorf("the embedded fonts did not parse: %v", FontError())
	}
	return opentype.NewFace(sf, &opentype.FaceOptions{Size: f.Size, DPI: 72, Hinting: font.HintingNone})
}

// face is f's face for measuring; fonts.mu must be held.
func face(f Font) font.Face {
	fc := fonts.faces[f]
	if fc == nil {
		var err error
		if fc, err = NewFace(f); err != nil {
			return nil
		}
		if len(fonts.faces) > 256 {
			clear(fonts.faces)
		}
		fonts.faces[f] = fc
	}
	return fc
}

// Width is the advance width of s in f: the glyphs' advances and the
// font's kerning, as Ebitengine's text.Advance computes it for a GoXFace
// of the face NewFace makes (font.MeasureString, in 26.6 fixed point).
func Width(s string, f Font) float64 {
	fonts.once.Do(loadFonts)
	if fonts.err != nil || s == "" || int(f.Style) >= len(fonts.fonts) || !(f.Size > 0) {
		return 0
	}
	fonts.mu.Lock()
	defer fonts.mu.Unlock()
	k := widthKey{s, f}
	if w, ok := fonts.widths[k]; ok {
		return w
	}
	fc := face(f)
	if fc == nil {
		return 0
	}
	w := float64(font.MeasureString(fc, s)) / (1 << 6)
	if len(fonts.widths) > 1<<16 {
		clear(fonts.widths)
	}
	fonts.widths[k] = w
	return w
}

// LineHeight is the distance between two baselines of f (the face's
// height: ascent, descent and line gap; plus 15% of the size), as render
// draws lines.
func LineHeight(f Font) float64 {
	fonts.once.Do(loadFonts)
	if fonts.err != nil || int(f.Style) >= len(fonts.fonts) || !(f.Size > 0) {
		return f.Size * 1.3
	}
	fonts.mu.Lock()
	defer fonts.mu.Unlock()
	fc := face(f)
	if fc == nil {
		return f.Size * 1.3
	}
	return float64(fc.Metrics().Height)/(1<<6) + f.Size*0.15
}

// Wrap breaks s into lines no wider than w, at spaces (a word wider than w
// stays whole on its line).
func Wrap(s string, f Font, w float64) []string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		words := strings.Fields(para)
		if len(words) == 0 {
			lines = append(lines, "")
			continue
		}
		cur := words[0]
		for _, wd := range words[1:] {
			if Width(cur+" "+wd, f) <= w {
				cur += " " + wd
			} else {
				lines = append(lines, cur)
				cur = wd
			}
		}
		lines = append(lines, cur)
	}
	return lines
}

// BreakWord cuts a word wider than w into pieces, each as long as fits,
// at the places where a reader still sees its parts: after '_', '-',
// '/', '.' or ',', or before a capital that follows a small letter
// (BM_PIN_COUNT_ | WAITER, DropRelFileNodes | AllBuffers). It never cuts
// elsewhere: a piece with no such place that fits stays whole (wider than
// w), and a word with none at all is returned whole. For an identifier in
// a narrow column, which would otherwise be cut at the column's edge.
func BreakWord(wd string, f Font, w float64) []string {
	rs := []rune(wd)
	var cuts []int // the places a piece may end, in order
	for i := 1; i < len(rs); i++ {
		if strings.ContainsRune("_-/.,", rs[i-1]) || unicode.IsUpper(rs[i]) && unicode.IsLower(rs[i-1]) {
			cuts = append(cuts, i)
		}
	}
	var out []string
	start := 0
	for k := 0; k < len(cuts); {
		// The last cut whose piece fits, or the first one if none does.
		end := -1
		for ; k < len(cuts) && (end < 0 || Width(string(rs[start:cuts[k]]), f) <= w); k++ {
			end = cuts[k]
		}
		if k < len(cuts) || Width(string(rs[start:]), f) > w {
			out = append(out, string(rs[start:end]))
			start = end
		} else {
			break
		}
	}
	return append(out, string(rs[start:]))
}

// Fit shortens s, a rune at a time, until it fits in width w with f,
// marking the cut with "…" (s itself when it fits; "…" alone at worst).
func Fit(s string, f Font, w float64) string {
	if Width(s, f) <= w {
		return s
	}
	rs := []rune(s)
	for len(rs) > 0 && Width(string(rs)+"…", f) > w {
		rs = rs[:len(rs)-1]
	}
	return string(rs) + "…"
}
