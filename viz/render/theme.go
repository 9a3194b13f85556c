package render

import (
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

var (
	faces   = map[layout.Font]*text.GoXFace{}
	fontOf  = map[*text.GoXFace]layout.Font{}
	facesMu sync.Mutex
)

// FontError reports a failure to load the embedded fonts (never expected).
func FontError() error {
	return layout.FontError()
}

// Face returns the face of a style at a size in points, scaled by the theme.
func (t *Theme) Face(s layout.Style, size float64) *text.GoXFace {
	return FaceOf(t.Font(s, size))
}

// FaceOf returns the face that paints a layout font: Ebitengine's GoXFace
// over layout.NewFace, so that what is drawn is what layout measured.
func FaceOf(lf layout.Font) *text.GoXFace {
	facesMu.Lock()
	defer facesMu.Unlock()
	f := faces[lf]
	if f == nil {
		xf, err := layout.NewFace(lf)
		if err != nil {
			xf, _ = layout.NewFace(layout.Font{Style: layout.Regular, Size: 13})
		}
		f = text.NewGoXFace(xf)
		faces[lf] = f
		fontOf[f] = lf
	}
	return f
}

// FontOfFace is the layout font of a face this package made (Face,
// FaceOf).
func FontOfFace(face *text.GoXFace) layout.Font {
	facesMu.Lock()
	defer facesMu.Unlock()
	if lf, ok := fontOf[face]; ok {
		return lf
	}
	return layout.Font{Style: layout.Regular, Size: 13}
}
