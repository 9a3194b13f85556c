package layout

import (
	"bytes"
	"strings"
	"sync"
	"unicode"

	"github.com/go-text/typesetting/di"
	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/language"
	"github.com/go-text/typesetting/shaping"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/math/fixed"
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

// TTF returns the embedded Go font of style s (the one render loads too).
func TTF(s Style) []byte {
	switch s {
	case Bold:
		return gobold.TTF
	case Mono:
		return gomono.TTF
	case Italic:
		return goitalic.TTF
	}
	return goregular.TTF
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

// fonts holds the parsed faces and a shaper. Shaping is not safe for
// concurrent use, so measurement takes mu.
var fonts struct {
	once   sync.Once
	err    error
	faces  [4]*font.Face
	mu     sync.Mutex
	shaper shaping.HarfbuzzShaper
	widths map[widthKey]float64
}

type widthKey struct {
	s string
	f Font
}

func loadFonts() {
	for i := range fonts.faces {
		f, err := font.ParseTTF(bytes.NewReader(TTF(Style(i))))
		if err != nil {
			fonts.err = err
			return
		}
		fonts.faces[i] = f
	}
	fonts.widths = map[widthKey]float64{}
}

// FontError reports a failure to parse the embedded fonts (never
// expected).
func FontError() error {
	fonts.once.Do(loadFonts)
	return fonts.err
}

// Width is the advance width of s in f: the sum of the shaped glyphs'
// advances, as Ebitengine's text.Advance computes it for a GoTextFace of
// the same font and size.
func Width(s string, f Font) float64 {
	fonts.once.Do(loadFonts)
	if fonts.err != nil || s == "" || int(f.Style) >= len(fonts.faces) {
		return 0
	}
	fonts.mu.Lock()
	defer fonts.mu.Unlock()
	k := widthKey{s, f}
	if w, ok := fonts.widths[k]; ok {
		return w
	}
	rs := []rune(s)
	in := shaping.Input{
		Text: rs, RunStart: 0, RunEnd: len(rs),
		Direction: di.DirectionLTR,
		Face:      fonts.faces[f.Style],
		Size:      fixed.Int26_6(f.Size * (1 << 6)),
		Script:    language.Latin,
		Language:  language.Language("und"),
	}
	var seg shaping.Segmenter
	var a fixed.Int26_6
	for _, run := range seg.Split(in, singleFace{fonts.faces[f.Style]}) {
		a += fonts.shaper.Shape(run).Advance
	}
	w := float64(a) / (1 << 6)
	if len(fonts.widths) > 1<<16 {
		clear(fonts.widths)
	}
	fonts.widths[k] = w
	return w
}

type singleFace struct{ f *font.Face }

func (s singleFace) ResolveFace(rune) *font.Face { return s.f }

// LineHeight is the distance between two baselines of f (ascent, descent
// and line gap, plus 15% of the size), as render draws lines.
func LineHeight(f Font) float64 {
	fonts.once.Do(loadFonts)
	if fonts.err != nil || int(f.Style) >= len(fonts.faces) {
		return f.Size * 1.3
	}
	face := fonts.faces[f.Style]
	scale := f.Size / float64(face.Upem())
	h, _ := face.FontHExtents()
	asc, desc, gap := float64(h.Ascender)*scale, float64(-h.Descender)*scale, float64(h.LineGap)*scale
	return asc + desc + gap + f.Size*0.15
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
