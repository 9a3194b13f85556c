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
	KClip                     // from here to the matching KUnclip, nothing is drawn outside Rect
	KUnclip                   // ends the innermost KClip
	KHatch                    // diagonal lines ("/"), Width wide and Spacing apart, over Rect and clipped to it
)

var kindNames = [...]string{KFill: "fill", KStroke: "stroke", KText: "text", KLine: "line", KTriangle: "tri", KImage: "image", KClip: "clip", KUnclip: "unclip", KHatch: "hatch"}

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
	// Axis is "w" (too wide) or "h" (too tall), or Scrolls (a region that
	// scrolls to keep what matters in view: the rest is out of view by
	// design, with a scroll bar or a "lines 6–14 of 20" note, not cut);
	// Need and Have the sizes.
	Axis       string
	Need, Have float64
}

// Scrolls is the Axis of a region laid out in part, by design.
const Scrolls = "s"

// Target is a region that acts when clicked or tapped: a button, a
// choice, a menu card. Role names it for tests; Label is what it says (or
// does, for an icon), for a screen reader and the help. Act runs on the
// UI goroutine that handles the click.
type Target struct {
	Role, Label string
	Rect        Rect
	Act         func()
}

// List is a scene's layout: what to draw, in order, what did not fit,
// what can be clicked (the last target added wins where targets overlap:
// it is drawn on top), and the regions a pointer can be over (Hits, for
// tooltips). Targets and Hits are not drawn and not in the golden form.
type List struct {
	Items     []Item
	Overflows []Overflow
	Targets   []Target
	Hits      []Hit
}

// Place is where a List stands: what Rollback goes back to.
type Place struct{ items, overflows, targets, hits int }

// Here records where l stands, to try a layout and take it back.
func (l *List) Here() Place {
	return Place{len(l.Items), len(l.Overflows), len(l.Targets), len(l.Hits)}
}

// Rollback removes everything added since m.
func (l *List) Rollback(m Place) {
	l.Items, l.Overflows, l.Targets, l.Hits = l.Items[:m.items], l.Overflows[:m.overflows], l.Targets[:m.targets], l.Hits[:m.hits]
}

// OverflowsSince reports whether anything added since m does not fit.
func (l *List) OverflowsSince(m Place) bool { return len(l.Overflows) > m.overflows }

// CutSince reports whether text added since m is cut: a run that did not
// fit its box (not a region that scrolls by design) or one cut by its
// clip (Clipped). It costs a pass over the list's items.
func (l *List) CutSince(m Place) bool {
	for _, o := range l.Overflows[m.overflows:] {
		if o.Axis != Scrolls {
			return true
		}
	}
	return len(l.clipped(m.items)) > 0
}

// Clip starts a clipped group: what is added until the matching Unclip is
// drawn only inside r (a panel's content cannot spill over its
// neighbours). Groups nest; the painter intersects them.
func (l *List) Clip(r Rect) { l.Items = append(l.Items, Item{Kind: KClip, Role: "clip", Rect: r}) }

// ClipScroll starts a clipped group whose content scrolls up and down (a
// lesson's text, the menu): a line at its top or bottom edge is scrolled,
// not cut (Clipped counts only runs cut at its sides), and it is shown
// whole or not at all (see Unclip).
func (l *List) ClipScroll(r Rect) {
	l.Items = append(l.Items, Item{Kind: KClip, Role: "clip scroll", Rect: r})
}

// Unclip ends the innermost clipped group. Where that group scrolls
// (ClipScroll), the text runs that its top or bottom edge would cut
// through are left out: half a line at a panel's foot reads as a fault in
// the drawing (the more so on a projector), and the scroll bar already
// says that there is more. Boxes and rules are clipped as before. It costs
// a pass back over the group's items. Leaving lines out moves the items
// after them, so a Place taken inside a scrolling group is no longer one
// to Rollback to once the group is closed (take it before ClipScroll).
func (l *List) Unclip() {
	depth := 0
	for i := len(l.Items) - 1; i >= 0; i-- {
		if k := l.Items[i].Kind; k == KUnclip {
			depth++
		} else if k == KClip && depth > 0 {
			depth--
		} else if k == KClip {
			if l.Items[i].Role == "clip scroll" {
				l.dropCutLines(i)
			}
			break
		}
	}
	l.Items = append(l.Items, Item{Kind: KUnclip, Role: "clip"})
}

// dropCutLines removes from the items after l.Items[at], a ClipScroll,
// each text run that reaches more than half a pixel past the group's top
// or bottom edge.
func (l *List) dropCutLines(at int) {
	r := l.Items[at].Rect
	kept := l.Items[:at+1]
	for _, it := range l.Items[at+1:] {
		if it.Kind == KText && (it.Rect.Y < r.Y-0.5 || it.Rect.Y+it.Rect.H > r.Y+r.H+0.5) {
			continue
		}
		kept = append(kept, it)
	}
	clear(l.Items[len(kept):])
	l.Items = kept
}

// Target adds a clickable region.
func (l *List) Target(role, label string, r Rect, act func()) {
	if r.Empty() {
		return
	}
	l.Targets = append(l.Targets, Target{Role: role, Label: label, Rect: r, Act: act})
}

// Hit returns the topmost target at (x, y).
func (l *List) Hit(x, y float64) (Target, bool) {
	return topmost(l.Targets, func(t *Target) Rect { return t.Rect }, x, y)
}

// topmost is the last of items whose rect contains (x, y): the one laid
// out last is drawn on top.
func topmost[T any](items []T, rect func(*T) Rect, x, y float64) (T, bool) {
	for i := len(items) - 1; i >= 0; i-- {
		if rect(&items[i]).Contains(x, y) {
			return items[i], true
		}
	}
	var none T
	return none, false
}

// Metrics summarise a frame for its tests and window.bufferlab.layout():
// how many text runs did not fit (a region that Scrolls does not count), the smallest text, and the smallest
// target's smaller side (0 when there is none).
type Metrics struct {
	Overflow    int     `json:"overflow"`
	MinTextPx   float64 `json:"min_text_px"`
	MinTargetPx float64 `json:"min_target_px"`
}

// Metrics measures l. A text run drawn partly outside its clipped group
// (a panel's content, Clip) is cut as surely as one that did not fit its
// box: it counts as an overflow too (Clipped lists them).
func (l *List) Metrics() Metrics {
	m := Metrics{MinTextPx: l.MinTextSize()}
	for _, o := range l.Overflows {
		if o.Axis != Scrolls {
			m.Overflow++
		}
	}
	m.Overflow += len(l.Clipped())
	for _, t := range l.Targets {
		if s := min(t.Rect.W, t.Rect.H); m.MinTargetPx == 0 || s < m.MinTargetPx {
			m.MinTargetPx = s
		}
	}
	return m
}

// Hit is a region of a layout that names what is drawn there, so that the
// app can say what is under the pointer from the last layout alone: Kind
// says what it is ("partition", "slru slot", "fsm node"), ID which one,
// and In what ID is numbered within where that is not the whole scene (an
// FSM node: the relation and the FSM block).
type Hit struct {
	Kind string
	ID   int
	In   [2]uint32
	Rect Rect
	// Text is the full text of an abbreviated run (Kind HitText): its
	// tooltip.
	Text string
}

// HitText is the kind of the hit region TextForms records where it drew a
// shorter form: the tooltip there is the full text.
const HitText = "text"

// AddHit records that r shows ID of kind (within in).
func (l *List) AddHit(kind string, id int, in [2]uint32, r Rect) {
	if r.Empty() {
		return
	}
	l.Hits = append(l.Hits, Hit{Kind: kind, ID: id, In: in, Rect: r})
}

// HitAt returns the region at (x, y): the last one recorded that contains
// the point, as the last drawn is on top.
func (l *List) HitAt(x, y float64) (Hit, bool) {
	return topmost(l.Hits, func(h *Hit) Rect { return h.Rect }, x, y)
}

// Clipped returns the text runs that stick out of their clipped group
// (by more than half a pixel): the painter cuts them. A run wholly
// outside its group (a line of a scrolled text above or below its panel)
// is not drawn at all and is not counted: the region scrolls.
func (l *List) Clipped() []Overflow { return l.clipped(0) }

// clipped is Clipped for the runs from item from on (the clips before it
// still count).
func (l *List) clipped(from int) []Overflow {
	var out []Overflow
	type group struct {
		r      Rect
		scroll bool
	}
	var clips []group
	for k, it := range l.Items {
		switch it.Kind {
		case KClip:
			g := group{it.Rect, it.Role == "clip scroll"}
			if len(clips) > 0 {
				top := clips[len(clips)-1]
				g.r, g.scroll = intersect(g.r, top.r), g.scroll || top.scroll
			}
			clips = append(clips, g)
		case KUnclip:
			if len(clips) > 0 {
				clips = clips[:len(clips)-1]
			}
		case KText:
			if len(clips) == 0 || k < from {
				continue
			}
			g, t := clips[len(clips)-1], it.Rect
			c := g.r
			if g.scroll {
				// Only the sides cut: the top and bottom edges scroll.
				c.Y, c.H = t.Y, t.H
			}
			inside := t.X >= c.X-0.5 && t.Y >= c.Y-0.5 && t.X+t.W <= c.X+c.W+0.5 && t.Y+t.H <= c.Y+c.H+0.5
			outside := t.X >= c.X+c.W || t.Y >= c.Y+c.H || t.X+t.W <= c.X || t.Y+t.H <= c.Y
			if !inside && !outside {
				out = append(out, Overflow{Role: it.Role, Text: it.Text, Axis: "clip", Need: t.W, Have: max(0, min(t.X+t.W, c.X+c.W)-max(t.X, c.X))})
			}
		}
	}
	return out
}

// intersect is the part of a inside b (empty when they do not meet).
func intersect(a, b Rect) Rect {
	x0, y0 := max(a.X, b.X), max(a.Y, b.Y)
	x1, y1 := min(a.X+a.W, b.X+b.W), min(a.Y+a.H, b.Y+b.H)
	if x1 <= x0 || y1 <= y0 {
		return Rect{X: x0, Y: y0}
	}
	return Rect{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
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
	x, y := l.inBox(role, s, f, box, a)
	if box.W <= 0 {
		// No room at all (Text reads a width of 0 as "no limit").
		l.Overflows = append(l.Overflows, Overflow{Role: role, Text: s, Axis: "w", Need: Width(s, f), Have: max(0, box.W)})
		l.Items = append(l.Items, Item{Kind: KText, Role: role, Rect: Rect{left(x, Width(s, f), a), y, Width(s, f), LineHeight(f)}, Text: s, Font: f, Align: a, Color: c})
		return
	}
	l.Text(role, s, f, x, y, box.W, c, a)
}

// inBox is where a run of s in f starts to sit in box by a, vertically
// centred; a run taller than the box is recorded.
func (l *List) inBox(role, s string, f Font, box Rect, a Align) (x, y float64) {
	lh := LineHeight(f)
	if lh > box.H+0.5 {
		l.Overflows = append(l.Overflows, Overflow{Role: role, Text: s, Axis: "h", Need: lh, Have: box.H})
	}
	x = box.X
	switch a {
	case Center:
		x = box.X + box.W/2
	case Right:
		x = box.X + box.W
	}
	return x, box.Y + max(0, (box.H-lh)/2)
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

// TextForms adds the first of forms that fits box, wide and high enough
// (aligned by a, vertically centred): the forms are the run's deliberate
// abbreviations, longest first, defined by the caller next to the text,
// so using a shorter one is no overflow: a hit region (HitText) keeps the
// full text there for the tooltip. A last form "" says the run may be left
// out (where a tooltip or a legend gives it). When none fits, the
// last is shortened with "…" and recorded (FitText). It returns the form
// drawn.
func (l *List) TextForms(role string, forms []string, f Font, box Rect, c color.RGBA, a Align) string {
	for i, s := range forms {
		if s == "" || Width(s, f) <= box.W+0.5 && LineHeight(f) <= box.H+0.5 {
			l.TextIn(role, s, f, box, c, a)
			if i > 0 && forms[0] != "" {
				// A shorter form: the full text is the tooltip there.
				l.Hits = append(l.Hits, Hit{Kind: HitText, Rect: box, Text: forms[0]})
			}
			return s
		}
	}
	if len(forms) == 0 {
		return ""
	}
	last := forms[len(forms)-1]
	x, y := l.inBox(role, last, f, box, a)
	l.FitText(role, last, f, x, y, box.W, c, a)
	return Fit(last, f, box.W)
}

// Append adds every item, overflow, target and hit region of o (a
// sub-layout) to l.
func (l *List) Append(o *List) {
	l.Items = append(l.Items, o.Items...)
	l.Overflows = append(l.Overflows, o.Overflows...)
	l.Targets = append(l.Targets, o.Targets...)
	l.Hits = append(l.Hits, o.Hits...)
}

// Reset empties l, keeping its storage.
func (l *List) Reset() {
	clear(l.Targets) // the closures
	l.Items, l.Overflows, l.Targets, l.Hits = l.Items[:0], l.Overflows[:0], l.Targets[:0], l.Hits[:0]
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
		if o.Axis == Scrolls {
			fmt.Fprintf(&b, "SCROLLS %s %q: needs %s px, has %s\n", o.Role, o.Text, n(o.Need), n(o.Have))
			continue
		}
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
	case KClip:
		return fmt.Sprintf("%s %-14s %s", k, it.Role, rect(it.Rect))
	case KUnclip:
		return k
	case KHatch:
		return fmt.Sprintf("%s %-14s %s w%s every %s %s", k, it.Role, rect(it.Rect), n(it.Width), n(it.Spacing), hex(it.Color))
	}
	return fmt.Sprintf("%s %-14s %s %s", k, it.Role, rect(it.Rect), hex(it.Color))
}
