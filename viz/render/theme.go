package render

import (
	"bytes"
	"image/color"
	"sync"

	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"bufferlab/viz/layout"
)

// Theme is the colours and type scale (a *layout.Theme, which layouts
// read without Ebitengine) with the Ebitengine faces that paint them.
type Theme struct{ *layout.Theme }

// Light is the default theme: dark text on a light background, which also
// projects well.
func Light(scale float64) *Theme { return &Theme{layout.Light(scale)} }

// Dark is light text on a dark background (layout.Dark).
func Dark(scale float64) *Theme { return &Theme{layout.Dark(scale)} }

// NewTheme returns the theme called name (one of layout.ThemeNames) at a
// scale, or an error that names the themes there are.
func NewTheme(name string, scale float64) (*Theme, error) {
	t, err := layout.NewTheme(name, scale)
	if err != nil {
		return nil, err
	}
	return &Theme{t}, nil
}

// TextOn returns a readable text colour for a fill.
func TextOn(fill color.RGBA) color.RGBA { return layout.TextOn(fill) }

// Style is a font style.
type Style = layout.Style

// The styles of the embedded Go fonts.
const (
	Regular = layout.Regular
	Bold    = layout.Bold
	Mono    = layout.Mono
	Italic  = layout.Italic
)

var (
	fontOnce    sync.Once
	fontSources [4]*text.GoTextFaceSource
	fontErr     error
	faces       = map[faceKey]*text.GoTextFace{}
	facesMu     sync.Mutex
)

type faceKey struct {
	style Style
	size  float64
}

func loadFonts() {
	for i := range fontSources {
		src, err := text.NewGoTextFaceSource(bytes.NewReader(layout.TTF(Style(i))))
		if err != nil {
			fontErr = err
			return
		}
		fontSources[i] = src
	}
}

// FontError reports a failure to load the embedded fonts (never expected).
func FontError() error {
	fontOnce.Do(loadFonts)
	return fontErr
}

// Face returns the face of a style at a size in points, scaled by the theme.
func (t *Theme) Face(s Style, size float64) *text.GoTextFace {
	return FaceOf(t.Font(s, size))
}

// FaceOf returns the face that paints a layout font.
func FaceOf(lf layout.Font) *text.GoTextFace {
	fontOnce.Do(loadFonts)
	s, size := lf.Style, lf.Size
	k := faceKey{s, size}
	facesMu.Lock()
	defer facesMu.Unlock()
	f := faces[k]
	if f == nil {
		f = &text.GoTextFace{Source: fontSources[s], Size: size}
		faces[k] = f
	}
	return f
}

// FontOfFace is the layout font of a face this package made (Face,
// FaceOf): its style by its source, and its size.
func FontOfFace(face *text.GoTextFace) layout.Font {
	fontOnce.Do(loadFonts)
	for i, src := range fontSources {
		if face.Source == src {
			return layout.Font{Style: Style(i), Size: face.Size}
		}
	}
	return layout.Font{Style: Regular, Size: face.Size}
}
