package layout

import (
	"fmt"
	"image/color"
	"reflect"
	"strings"
)

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
//
// Every colour a layout or the app draws comes from here, so that a theme
// changes the whole frame: a colour written into a scene would be the
// same in both themes (TestDarkHasNoLightLeftovers in viz/scene looks for
// them).
type Theme struct {
	Scale float64
	// MinPx is the smallest text the frame allows, in pixels (0: no
	// floor): Font never returns a smaller size, whatever a layout asks
	// for. The frame sets it from the viewport and mode (viz/frame): 14
	// CSS px on a laptop or phone, 24 in presentation mode at 1280×720. A
	// layout that asked for less and no longer fits records the overflow,
	// as for any run; it must then choose a shorter form or show less.
	MinPx float64
	// Name is the theme's name (ThemeNames).
	Name string
	// ReducedMotion asks the scenes to draw nothing that turns or moves
	// by itself (the reader's prefers-reduced-motion; viz/a11y's
	// Motion): the spin-delay spinner is a still ring.
	ReducedMotion bool

	Background, Panel, PanelEdge, Text, Muted, Highlight, Accent color.RGBA
	Pinned, Dirty, Locked, IO, Free, Error, Good                 color.RGBA
	// UsageRamp[u] is the fill for usage count u (0..5): one hue, light to
	// dark on a light background (dark to light on a dark one), so the
	// order reads without colour vision. Its steps are spaced evenly in
	// CIEDE2000, at least 10 apart from each other, from Free and from
	// Pinned for normal vision, protanopia and deuteranopia (the heat map
	// shows them by colour alone: viz/scene's encoding tests).
	UsageRamp [6]color.RGBA

	// HighlightFill is the pale fill behind what the current event
	// changed (a header line, the backend that acted, the code's current
	// line); Hover the fill of a button or a choice under the pointer.
	HighlightFill, Hover color.RGBA
	// Scrim is laid over the screen behind a dialog (the keys' help).
	Scrim color.RGBA

	// Trail is how the scenes draw an operation's trail: what it went
	// through, kept on screen until the next operation begins.
	Trail TrailColors

	// SLRU is the SLRU scene's own fills.
	SLRU SLRUColors
	// FSM is the free space map scene's own fills.
	FSM FSMColors
}

// TrailColors are the colours of a trail, in every scene: Mark is the
// highlighter's yellow over what the operation passed (a descriptor a drop
// examined, the clock hand's path, a ring's member, a partition probed,
// an SLRU slot compared, an FSM node read or written), Edge the thin line
// beside it that keeps it apart from a light fill, Gone what crosses out
// a buffer whose page the operation threw out (invalidated, evicted) or a
// partition entry it changed. Yellow is the one hue at least ΔE00 20 from
// every heat map colour for normal vision, protanopia and deuteranopia in
// both themes; Gone is the theme's near-black or white.
type TrailColors struct {
	Mark, Edge, Gone color.RGBA
}

// SLRUColors are the fills of the SLRU scene: a slot holding a valid page,
// a slot whose page is being read or written, a slot a lookup compared
// and passed over, and the row behind a bank's slots.
type SLRUColors struct {
	Valid, IO, Compared, Row color.RGBA
}

// FSMColors are the fills of the free space map scene: a heap page's
// header and line pointers, its tuples and its free space; an FSM page or
// tree node that the search read, did not read, or wrote; a tree node, a
// stub for a subtree not drawn, a local map entry the backend may try;
// and the frame of the page or node the search is on.
type FSMColors struct {
	LinePointers, Tuples, FreeSpace color.RGBA
	Read, Skipped, Written          color.RGBA
	Node, Stub, Avail               color.RGBA
	Focus                           color.RGBA
}

// ThemeNames are the names NewTheme knows, the default first.
var ThemeNames = []string{"light", "dark"}

// NewTheme returns the theme called name at a scale, or an error that
// names the themes there are.
func NewTheme(name string, scale float64) (*Theme, error) {
	switch name {
	case "light":
		return Light(scale), nil
	case "dark":
		return Dark(scale), nil
	}
	return nil, fmt.Errorf("no theme %q: the themes are %s", name, strings.Join(ThemeNames, ", "))
}

// Light is the default theme: dark text on a light background, which also
// projects well.
func Light(scale float64) *Theme { return newTheme(scale, "light") }

// Dark is light text on a dark background, for a dark room or a reader
// who prefers it. It keeps the Okabe–Ito state colours that read on dark
// panels (orange, vermilion, purple, bluish green); black, which would
// vanish, becomes a light grey for Locked, and blue a sky blue for
// Accent. The pale tints of the light theme become deep ones of the same
// hues, so that light text reads on them. Text and Muted are at least
// 4.5:1 against Panel and Background (TestThemeContrast).
func Dark(scale float64) *Theme { return newTheme(scale, "dark") }

// newTheme is the theme called name ("light" or "dark") at a scale, from
// one palette: each role's light colour beside its dark one (ld), or one
// colour where both themes use it.
func newTheme(scale float64, name string) *Theme {
	dark := name == "dark"
	ld := func(light, darkc color.RGBA) color.RGBA {
		if dark {
			return darkc
		}
		return light
	}
	return &Theme{
		Scale:      scale,
		Name:       name,
		Background: ld(rgb(0xf7, 0xf7, 0xf4), rgb(0x15, 0x17, 0x1b)),
		Panel:      ld(rgb(0xff, 0xff, 0xff), rgb(0x1f, 0x22, 0x28)),
		PanelEdge:  ld(rgb(0xc8, 0xc8, 0xc0), rgb(0x4a, 0x4f, 0x59)),
		Text:       ld(rgb(0x1a, 0x1a, 0x1a), rgb(0xe8, 0xe8, 0xe3)),
		Muted:      ld(rgb(0x6b, 0x6b, 0x66), rgb(0xa4, 0xa6, 0xa4)),
		Highlight:  Orange,
		Accent:     ld(Blue, SkyBlue),
		Pinned:     Vermilion,
		Dirty:      Purple,
		Locked:     ld(Black, rgb(0xd6, 0xd6, 0xd0)),
		IO:         Green,
		Free:       ld(rgb(0xe4, 0xe4, 0xde), rgb(0x30, 0x34, 0x3b)),
		// Dark: vermilion, lighter: as text on the panel, and dark text
		// on it (TextOn).
		Error: ld(Vermilion, rgb(0xf5, 0x79, 0x3a)),
		Good:  Green,
		UsageRamp: [6]color.RGBA{
			ld(rgb(0xd1, 0xd9, 0xff), rgb(0x05, 0x30, 0x72)),
			ld(rgb(0xa2, 0xb3, 0xf1), rgb(0x23, 0x51, 0x9a)),
			ld(rgb(0x77, 0x8d, 0xd9), rgb(0x44, 0x75, 0xbe)),
			ld(rgb(0x4e, 0x6a, 0xba), rgb(0x6c, 0x9b, 0xdb)),
			ld(rgb(0x2a, 0x49, 0x94), rgb(0x9b, 0xc1, 0xf0)),
			ld(rgb(0x05, 0x2a, 0x68), rgb(0xd2, 0xe7, 0xff)),
		},
		HighlightFill: ld(rgb(0xfd, 0xf0, 0xd5), rgb(0x45, 0x36, 0x12)),
		Hover:         ld(rgb(0xea, 0xf2, 0xf8), rgb(0x2a, 0x36, 0x44)),
		Scrim:         ld(color.RGBA{0, 0, 0, 0x60}, color.RGBA{0, 0, 0, 0x90}),
		Trail: TrailColors{
			Mark: Yellow,
			Edge: ld(rgb(0x1a, 0x1a, 0x1a), rgb(0x15, 0x17, 0x1b)),
			Gone: ld(rgb(0x1a, 0x1a, 0x1a), rgb(0xff, 0xff, 0xff)),
		},
		SLRU: SLRUColors{
			Valid:    ld(rgb(0xff, 0xff, 0xff), rgb(0x2b, 0x2f, 0x37)),
			IO:       ld(rgb(0xcc, 0xec, 0xe1), rgb(0x12, 0x3d, 0x30)), // a light, a deep tint of the I/O green
			Compared: ld(rgb(0xfb, 0xe3, 0xb0), rgb(0x5a, 0x43, 0x0c)), // a light, a deep tint of the highlight orange
			Row:      ld(rgb(0xf0, 0xf0, 0xea), rgb(0x19, 0x1b, 0x20)),
		},
		FSM: FSMColors{
			LinePointers: ld(rgb(0xb8, 0xdc, 0xf2), rgb(0x1d, 0x4d, 0x6e)), // a light, a deep sky blue
			Tuples:       ld(Blue, rgb(0x3a, 0x8f, 0xd0)),
			FreeSpace:    ld(rgb(0xf4, 0xf4, 0xef), rgb(0x2b, 0x2f, 0x37)),
			Read:         ld(rgb(0xfb, 0xe3, 0xb0), rgb(0x5a, 0x43, 0x0c)), // tints of the highlight orange
			Skipped:      ld(rgb(0xee, 0xee, 0xea), rgb(0x24, 0x27, 0x2d)),
			Written:      ld(rgb(0xf2, 0xd7, 0xe6), rgb(0x55, 0x2c, 0x46)), // tints of the dirty purple
			Node:         ld(rgb(0xff, 0xff, 0xff), rgb(0x2b, 0x2f, 0x37)),
			Stub:         ld(rgb(0xee, 0xee, 0xe8), rgb(0x24, 0x27, 0x2d)),
			Avail:        ld(rgb(0xcc, 0xec, 0xe1), rgb(0x12, 0x3d, 0x30)), // tints of green
			Focus:        Orange,
		},
	}
}

// rgb is an opaque colour.
func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 0xff} }

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

// NamedColour is one colour a theme holds and where: "Panel",
// "UsageRamp[3]", "Encoding.Victim.Edge".
type NamedColour struct {
	Path   string
	Colour color.RGBA
}

// Colours lists every colour t holds, its fields, the nested ones and the
// arrays' steps, in field order: what the theme tests check (each set,
// none left from another theme).
func (t *Theme) Colours() []NamedColour {
	var out []NamedColour
	var walk func(path string, v reflect.Value)
	walk = func(path string, v reflect.Value) {
		if c, ok := v.Interface().(color.RGBA); ok {
			out = append(out, NamedColour{path, c})
			return
		}
		switch v.Kind() {
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(strings.TrimPrefix(path+"."+v.Type().Field(i).Name, "."), v.Field(i))
				}
			}
		case reflect.Array:
			for i := 0; i < v.Len(); i++ {
				walk(fmt.Sprintf("%s[%d]", path, i), v.Index(i))
			}
		}
	}
	walk("", reflect.ValueOf(*t))
	return out
}
