package scene

import (
	"fmt"

	"bufferlab/viz/layout"
)

// LayoutPanel lays out a titled panel frame in r and returns the rect
// inside it: the frame, the title in bold 12 at the top left, then 6 px of
// padding.
func LayoutPanel(l *layout.List, r layout.Rect, title string, th *layout.Theme) layout.Rect {
	l.Fill("panel", r, th.Panel)
	l.Stroke("panel", r, 1, th.PanelEdge)
	f := th.Font(layout.Bold, 12)
	l.Text("panel title", title, f, r.X+8, r.Y+4, r.W-8, th.Muted, layout.Left)
	_, inner := r.SplitTop(layout.LineHeight(f) + 8)
	return inner.Inset(6)
}

// LayoutCounterLine lays out counters on one line of text, each its number
// in bold and its label, for a pane too short for LayoutCounterRow's
// boxes; the counters that do not fit at the end are left out, and each
// one left out is recorded as an overflow.
func LayoutCounterLine(l *layout.List, r layout.Rect, items []Counter, th *layout.Theme) {
	f := th.Font(layout.Regular, 12)
	bold := th.Font(layout.Bold, 13)
	l.Fill("counters", r, th.Panel)
	l.Stroke("counters", r, 1, th.PanelEdge)
	x, y := r.X+6, r.Y+(r.H-layout.LineHeight(bold))/2
	for i, it := range items {
		v := fmt.Sprint(it.V)
		w := layout.Width(v, bold) + 4 + layout.Width(it.Label, f)
		if x+w > r.X+r.W-4 {
			for _, left := range items[i:] {
				l.Overflows = append(l.Overflows, layout.Overflow{Role: "counter " + left.Label, Text: fmt.Sprint(left.V) + " " + left.Label, Axis: "w", Need: w, Have: max(0, r.X+r.W-4-x)})
			}
			break
		}
		l.Text("counter "+it.Label, v, bold, x, y, 0, th.Text, layout.Left)
		l.Text("counter "+it.Label, it.Label, f, x+layout.Width(v, bold)+4, y+1, 0, th.Muted, layout.Left)
		x += w + 16
	}
}

// LayoutCounterRow lays out counters in a row of labelled boxes: each
// box its number in bold 14 at the top and its label in 10 at the bottom.
// A label wider than its box is recorded as an overflow.
func LayoutCounterRow(l *layout.List, r layout.Rect, items []Counter, th *layout.Theme) {
	if len(items) == 0 {
		return
	}
	w := r.W / float64(len(items))
	small := th.Font(layout.Regular, 10)
	big := th.Font(layout.Bold, 14)
	for i, it := range items {
		b := layout.Rect{X: r.X + float64(i)*w, Y: r.Y, W: w - 4, H: r.H}
		role := "counter " + it.Label
		l.Fill(role, b, th.Panel)
		l.Stroke(role, b, 1, th.PanelEdge)
		l.Text(role, fmt.Sprint(it.V), big, b.X+b.W/2, b.Y+2, b.W, th.Text, layout.Center)
		l.Text(role, it.Label, small, b.X+b.W/2, b.Y+b.H-layout.LineHeight(small)-2, b.W, th.Muted, layout.Center)
	}
}
