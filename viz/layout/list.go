package layout

import (
	"fmt"
	"image/color"
	"math"
	"strings"
)

// Kind is what a display list item draws.
type Kind uint8

// Item kinds.
const (
	KFill     Kind = iota + 1 // a filled rectangle
	KStroke                   // a rectangle's outline, Width wide
	KText                     // a text run: Text in Font at Rect's top-left (or centre, right) by Align
	KLine                     // a line from Pts[0] to Pts[1], Width wide
	KTriangle                 // a filled triangle Pts[0..2]
	KImage                    // an RGBA texture (Pixels, Cols×Rows) scaled into Rect
	KHatch                    // diagonal lines ("/"), Width wide and Spacing apart, over Rect and clipped to it
)

var kindNames = [...]string{KFill: "fill", KStroke: "stroke", KText: "text", KLine: "line", KTriangle: "tri", KImage: "image", KHatch: "hatch"}

// Item is one thing to draw. Role names it for tests and goldens ("cell
// 3", "counter hits"); items of one role share it.
type Item struct {
	Kind  Kind
	Role  string
	Rect  Rect
	Color color.RGBA
	Width float64 // stroke, line and hatch width
	// Dash, on a stroke, is its dash pattern: dashes Dash[0] long and
	// gaps about Dash[1] (DashSegments fits them to each side); zero: a
	// solid outline.
	Dash [2]float64
	// Spacing is a hatch's distance between lines, along its rect's
	// edges.
	Spacing float64
	Pts     [3]Point
	// Text runs: the text, its font and alignment. Rect is the run's own
	// box: its left edge (whatever the alignment), top, advance width and
	// line height.
	Text  string
	Font  Font
	Align Align
	// Images: the pixels (4 bytes a cell, row-major), Cols × Rows cells,
	// and Key, which changes when the pixels do (painters cache by it).
	Pixels     []byte
	Cols, Rows int
	Key        uint64
}

// Overflow records a text run that did not fit its box.
type Overflow struct {
	Role string
	Text string // as asked for (before any "…")
	// Axis is "w" (too wide) or "h" (too tall); Need and Have the sizes.
	Axis       string
	Need, Have float64
}

// List is a scene's layout: what to draw, in order, and what did not fit.
type List struct {
	Items     []Item
	Overflows []Overflow
}

// Fill adds a filled rectangle (nothing for an empty one).
func (l *List) Fill(role string, r Rect, c color.RGBA) {
	if r.Empty() {
		return
	}
	l.Items = append(l.Items, Item{Kind: KFill, Role: role, Rect: r, Color: c})
}

// Stroke adds a rectangle's outline.
func (l *List) Stroke(role string, r Rect, width float64, c color.RGBA) {
	if r.Empty() {
		return
	}
	l.Items = append(l.Items, Item{Kind: KStroke, Role: role, Rect: r, Width: width, Color: c})
}

// StrokeDashed adds a rectangle's dashed outline: dashes on long, gaps
// about off (see DashSegments).
func (l *List) StrokeDashed(role string, r Rect, width float64, c color.RGBA, on, off float64) {
	if r.Empty() {
		return
	}
	l.Items = append(l.Items, Item{Kind: KStroke, Role: role, Rect: r, Width: width, Color: c, Dash: [2]float64{on, off}})
}

// Hatch adds diagonal lines over r, width wide and spacing apart (see
// HatchLines): a pattern that says "in progress" without colour.
func (l *List) Hatch(role string, r Rect, width, spacing float64, c color.RGBA) {
	if r.Empty() || spacing <= 0 {
		return
	}
	l.Items = append(l.Items, Item{Kind: KHatch, Role: role, Rect: r, Width: width, Spacing: spacing, Color: c})
}

// Line adds a line segment.
func (l *List) Line(role string, x0, y0, x1, y1, width float64, c color.RGBA) {
	l.Items = append(l.Items, Item{Kind: KLine, Role: role, Pts: [3]Point{{x0, y0}, {x1, y1}}, Width: width, Color: c})
}

// Triangle adds a filled triangle.
func (l *List) Triangle(role string, a, b, c Point, col color.RGBA) {
	l.Items = append(l.Items, Item{Kind: KTriangle, Role: role, Pts: [3]Point{a, b, c}, Color: col})
}

// Image adds a texture of cols×rows cells scaled into r.
func (l *List) Image(role string, r Rect, pixels []byte, cols, rows int, key uint64) {
	l.Items = append(l.Items, Item{Kind: KImage, Role: role, Rect: r, Pixels: pixels, Cols: cols, Rows: rows, Key: key})
}

// Text adds a run of s in f at (x, y) (by a), which must fit in maxW
// pixels (0: no limit). A run wider than maxW is recorded in Overflows
// and drawn as it is (use FitText to shorten it).
func (l *List) Text(role, s string, f Font, x, y, maxW float64, c color.RGBA, a Align) {
	if s == "" {
		return
	}
	w := Width(s, f)
	if maxW > 0 && w > maxW+0.5 {
		l.Overflows = append(l.Overflows, Overflow{Role: role, Text: s, Axis: "w", Need: w, Have: maxW})
	}
	l.Items = append(l.Items, Item{Kind: KText, Role: role, Rect: Rect{left(x, w, a), y, w, LineHeight(f)}, Text: s, Font: f, Align: a, Color: c})
}

// left is the left edge of a run w wide placed at x by a.
func left(x, w float64, a Align) float64 {
	switch a {
	case Center:
		return x - w/2
	case Right:
		return x - w
	}
	return x
}

// TextIn adds a run of s in f inside box (aligned by a, vertically
// centred when the box is taller than a line), recording an overflow when
// it is wider or taller than the box.
func (l *List) TextIn(role, s string, f Font, box Rect, c color.RGBA, a Align) {
	if s == "" {
		return
	}
	lh := LineHeight(f)
	if lh > box.H+0.5 {
		l.Overflows = append(l.Overflows, Overflow{Role: role, Text: s, Axis: "h", Need: lh, Have: box.H})
	}
	x := box.X
	switch a {
	case Center:
		x = box.X + box.W/2
	case Right:
		x = box.X + box.W
	}
	l.Text(role, s, f, x, box.Y+max(0, (box.H-lh)/2), box.W, c, a)
}

// FitText adds s shortened with "…" to fit maxW, and records the
// overflow when it had to be shortened: the reader sees the cut, and the
// goldens say what was cut.
func (l *List) FitText(role, s string, f Font, x, y, maxW float64, c color.RGBA, a Align) {
	if s == "" {
		return
	}
	fit := Fit(s, f, maxW)
	if fit != s {
		l.Overflows = append(l.Overflows, Overflow{Role: role, Text: s, Axis: "w", Need: Width(s, f), Have: maxW})
	}
	w := Width(fit, f)
	l.Items = append(l.Items, Item{Kind: KText, Role: role, Rect: Rect{left(x, w, a), y, w, LineHeight(f)}, Text: fit, Font: f, Align: a, Color: c})
}

// Append adds every item and overflow of o (a sub-layout) to l.
func (l *List) Append(o *List) {
	l.Items = append(l.Items, o.Items...)
	l.Overflows = append(l.Overflows, o.Overflows...)
}

// Texts returns the text runs of a role ("" for all), in order.
func (l *List) Texts(role string) []Item {
	var out []Item
	for _, it := range l.Items {
		if it.Kind == KText && (role == "" || it.Role == role) {
			out = append(out, it)
		}
	}
	return out
}

// MinTextSize is the smallest font size (px) of any text run, 0 for none.
func (l *List) MinTextSize() float64 {
	m := 0.0
	for _, it := range l.Items {
		if it.Kind == KText && (m == 0 || it.Font.Size < m) {
			m = it.Font.Size
		}
	}
	return m
}

func n(v float64) string {
	r := math.Round(v)
	if math.Abs(v-r) < 0.05 {
		return fmt.Sprintf("%d", int(r))
	}
	return fmt.Sprintf("%.1f", v)
}

func rect(r Rect) string { return n(r.X) + "," + n(r.Y) + " " + n(r.W) + "x" + n(r.H) }

func hex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// String is the golden form: one line an item, in paint order, then one
// line an overflow. Coordinates are rounded to 0.1 px. Fills and strokes
// of the same role, colour and size that follow each other in a grid are
// printed one a line too: a golden shows the whole picture. A dashed
// stroke ends in "dash ON/OFF"; a hatch reads "hatch ROLE X,Y WxH wW
// every S #colour".
func (l *List) String() string {
	var b strings.Builder
	for _, it := range l.Items {
		b.WriteString(it.String())
		b.WriteByte('\n')
	}
	for _, o := range l.Overflows {
		fmt.Fprintf(&b, "OVERFLOW %s %q: needs %s px %s, has %s\n", o.Role, o.Text, n(o.Need), map[string]string{"w": "wide", "h": "tall"}[o.Axis], n(o.Have))
	}
	return b.String()
}

// String is an item's golden line.
func (it Item) String() string {
	k := "?"
	if int(it.Kind) < len(kindNames) && kindNames[it.Kind] != "" {
		k = kindNames[it.Kind]
	}
	switch it.Kind {
	case KText:
		a := [...]string{"left", "center", "right"}[min(int(it.Align), 2)]
		return fmt.Sprintf("%s %-14s %q %s %spx %s at %s,%s w%s", k, it.Role, it.Text, it.Font.Style, n(it.Font.Size), a, n(it.Rect.X), n(it.Rect.Y), n(it.Rect.W))
	case KLine:
		return fmt.Sprintf("%s %-14s %s,%s-%s,%s w%s %s", k, it.Role, n(it.Pts[0].X), n(it.Pts[0].Y), n(it.Pts[1].X), n(it.Pts[1].Y), n(it.Width), hex(it.Color))
	case KTriangle:
		return fmt.Sprintf("%s %-14s %s,%s %s,%s %s,%s %s", k, it.Role, n(it.Pts[0].X), n(it.Pts[0].Y), n(it.Pts[1].X), n(it.Pts[1].Y), n(it.Pts[2].X), n(it.Pts[2].Y), hex(it.Color))
	case KImage:
		return fmt.Sprintf("%s %-14s %s %dx%d cells", k, it.Role, rect(it.Rect), it.Cols, it.Rows)
	case KStroke:
		if it.Dash != [2]float64{} {
			return fmt.Sprintf("%s %-14s %s w%s %s dash %s/%s", k, it.Role, rect(it.Rect), n(it.Width), hex(it.Color), n(it.Dash[0]), n(it.Dash[1]))
		}
		return fmt.Sprintf("%s %-14s %s w%s %s", k, it.Role, rect(it.Rect), n(it.Width), hex(it.Color))
	case KHatch:
		return fmt.Sprintf("%s %-14s %s w%s every %s %s", k, it.Role, rect(it.Rect), n(it.Width), n(it.Spacing), hex(it.Color))
	}
	return fmt.Sprintf("%s %-14s %s %s", k, it.Role, rect(it.Rect), hex(it.Color))
}
