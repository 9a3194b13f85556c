package layout

import "image/color"

// The Okabe–Ito palette: distinguishable with every common form of colour
// blindness.
var (
	Black     = color.RGBA{0x00, 0x00, 0x00, 0xff}
	Orange    = color.RGBA{0xE6, 0x9F, 0x00, 0xff}
	SkyBlue   = color.RGBA{0x56, 0xB4, 0xE9, 0xff}
	Green     = color.RGBA{0x00, 0x9E, 0x73, 0xff}
	Yellow    = color.RGBA{0xF0, 0xE4, 0x42, 0xff}
	Blue      = color.RGBA{0x00, 0x72, 0xB2, 0xff}
	Vermilion = color.RGBA{0xD5, 0x5E, 0x00, 0xff}
	Purple    = color.RGBA{0xCC, 0x79, 0xA7, 0xff}
)

// Theme is the colours and type scale in use. Scale is 1 normally and
// larger in presentation mode (for a projector); every size a layout asks
// for (Font, Px) is multiplied by it.
type Theme struct {
	Scale float64
	// MinPx is the smallest text the frame allows, in pixels (0: no
	// floor): Font never returns a smaller size, whatever a layout asks
	// for. The frame sets it from the viewport and mode (viz/frame): 14
	// CSS px on a laptop or phone, 24 in presentation mode at 1280×720. A
	// layout that asked for less and no longer fits records the overflow,
	// as for any run; it must then choose a shorter form or show less.
	MinPx float64

	Background, Panel, PanelEdge, Text, Muted, Highlight, Accent color.RGBA
	Pinned, Dirty, Locked, IO, Free, Error, Good                 color.RGBA
	// UsageRamp[u] is the fill for usage count u (0..5): one hue, light to
	// dark, so the order reads without colour vision.
	UsageRamp [6]color.RGBA
}

// Light is the default theme: dark text on a light background, which also
// projects well.
func Light(scale float64) *Theme {
	return &Theme{
		Scale:      scale,
		Background: color.RGBA{0xf7, 0xf7, 0xf4, 0xff},
		Panel:      color.RGBA{0xff, 0xff, 0xff, 0xff},
		PanelEdge:  color.RGBA{0xc8, 0xc8, 0xc0, 0xff},
		Text:       color.RGBA{0x1a, 0x1a, 0x1a, 0xff},
		Muted:      color.RGBA{0x6b, 0x6b, 0x66, 0xff},
		Highlight:  Orange,
		Accent:     Blue,
		Pinned:     Vermilion,
		Dirty:      Purple,
		Locked:     Black,
		IO:         Green,
		Free:       color.RGBA{0xe4, 0xe4, 0xde, 0xff},
		Error:      Vermilion,
		Good:       Green,
		UsageRamp: [6]color.RGBA{
			{0xf2, 0xf7, 0xfb, 0xff}, {0xc6, 0xdb, 0xef, 0xff}, {0x9e, 0xca, 0xe1, 0xff},
			{0x6b, 0xae, 0xd6, 0xff}, {0x31, 0x82, 0xbd, 0xff}, {0x08, 0x51, 0x9c, 0xff},
		},
	}
}

// Font returns the font of a style at a size in points, scaled by the
// theme.
func (t *Theme) Font(s Style, size float64) Font {
	return Font{Style: s, Size: max(size*t.Scale, t.MinPx)}
}

// Px scales a length in unscaled pixels by the theme.
func (t *Theme) Px(v float64) float64 { return v * t.Scale }

// TextOn returns a readable text colour for a fill.
func TextOn(fill color.RGBA) color.RGBA {
	// Relative luminance, roughly.
	l := 0.2126*float64(fill.R) + 0.7152*float64(fill.G) + 0.0722*float64(fill.B)
	if l < 140 {
		return color.RGBA{0xff, 0xff, 0xff, 0xff}
	}
	return color.RGBA{0x1a, 0x1a, 0x1a, 0xff}
}
