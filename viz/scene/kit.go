package scene

import (
	"fmt"
	"strings"

	"bufferlab/viz/layout"
)

// LayoutPanel lays out a titled panel frame in r and returns the rect
// inside it: the frame, the title in bold 12 at the top left, then 6 px of
// padding. A title too wide for the panel is shortened by its own
// structure (TitleForms): what comes before its last " · ", then before
// its first ": ", then before " (".
func LayoutPanel(l *layout.List, r layout.Rect, title string, th *layout.Theme) layout.Rect {
	return layoutPanel(l, r, title, 6, th)
}

// LayoutPanelCompact is LayoutPanel with 2 px of padding round the inside
// instead of 6: 8 px more height for what the panel holds, at the cost of
// a tighter look. It is for a panel whose content is cut in LayoutPanel's
// (three stacked code panes in an embed 320 px high, each a line).
func LayoutPanelCompact(l *layout.List, r layout.Rect, title string, th *layout.Theme) layout.Rect {
	return layoutPanel(l, r, title, 2, th)
}

func layoutPanel(l *layout.List, r layout.Rect, title string, pad float64, th *layout.Theme) layout.Rect {
	l.Fill("panel", r, th.Panel)
	l.Stroke("panel", r, 1, th.PanelEdge)
	f := th.Font(layout.Bold, 12)
	l.TextForms("panel title", TitleForms(title), f, layout.Rect{X: r.X + 8, Y: r.Y + 4, W: r.W - 16, H: layout.LineHeight(f)}, th.Muted, layout.Left)
	_, inner := r.SplitTop(layout.LineHeight(f) + 8)
	return inner.Inset(pad)
}

// TitleForms are a title's forms, longest first: the title, then its
// head before each " · " (from the last), then its head before its first
// ": ", then before its first " (". "Mapping table: 128 partitions" is
// also "Mapping table"; "fsm=small-skip (reverted)" "fsm=small-skip"; "FSM
// block 0 of t: a max-tree · the path lit" is also "FSM block 0 of t: a
// max-tree" and "FSM block 0 of t".
func TitleForms(title string) []string {
	forms := []string{title}
	t := title
	for {
		i := strings.LastIndex(t, " · ")
		if i <= 0 {
			break
		}
		t = t[:i]
		forms = append(forms, t)
	}
	if i := strings.Index(t, ": "); i > 0 {
		t = t[:i]
		forms = append(forms, t)
	}
	if i := strings.Index(t, " ("); i > 0 {
		forms = append(forms, t[:i])
	}
	return forms
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

// The counter boxes' type: the number in bold 14, the label in 10 (both
// at least the theme's floor).
func counterFonts(th *layout.Theme) (big, small layout.Font) {
	return th.Font(layout.Bold, 14), th.Font(layout.Regular, 10)
}

// counterBoxW is the width of a counter's box: its label or its number,
// whichever is wider, with padding.
func counterBoxW(it Counter, th *layout.Theme) float64 {
	big, small := counterFonts(th)
	return max(layout.Width(it.Label, small), layout.Width(fmt.Sprint(it.V), big)) + th.Px(12)
}

// counterRows groups items into rows of boxes that fit w (each row as
// many as fit, at least one).
func counterRows(items []Counter, w float64, th *layout.Theme) [][]Counter {
	var rows [][]Counter
	x := 0.0
	for _, it := range items {
		bw := counterBoxW(it, th) + 4
		if len(rows) == 0 || x+bw > w+0.5 && x > 0 {
			rows, x = append(rows, nil), 0
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], it)
		x += bw
	}
	return rows
}

// CounterRowHeight is the height LayoutCounterRow needs for items at
// width w: a row of boxes for as many as fit, then the next row.
func CounterRowHeight(items []Counter, w float64, th *layout.Theme) float64 {
	if len(items) == 0 {
		return 0
	}
	big, small := counterFonts(th)
	rowH := layout.LineHeight(big) + layout.LineHeight(small) + th.Px(6)
	return float64(max(1, len(counterRows(items, w, th)))) * (rowH + 4)
}

// FitCounters is the longest prefix of items whose rows fit h at width w
// (none when even the first does not fit): the counters of a row are
// listed most telling first, and a pane too small for all of them keeps
// those (all of them are in the JavaScript API's state, and in the frame
// of a larger window).
func FitCounters(items []Counter, w, h float64, th *layout.Theme) []Counter {
	for n := len(items); n > 0; n-- {
		if CounterRowHeight(items[:n], w, th) <= h {
			return items[:n]
		}
	}
	return nil
}

// LayoutCounterRow lays out counters in rows of labelled boxes: each box
// its number in bold 14 at the top and its label in 10 at the bottom, as
// wide as the wider of the two; the boxes of a row share its width, and
// the counters that do not fit a row go to the next (CounterRowHeight
// says how many rows). A label wider than its box, or rows taller than
// r, are recorded as overflows.
func LayoutCounterRow(l *layout.List, r layout.Rect, items []Counter, th *layout.Theme) {
	if len(items) == 0 {
		return
	}
	big, small := counterFonts(th)
	rows := counterRows(items, r.W, th)
	rowH := r.H/float64(len(rows)) - 4
	y := r.Y
	for _, row := range rows {
		need := 0.0
		for _, it := range row {
			need += counterBoxW(it, th) + 4
		}
		extra := max(0, r.W-need) / float64(len(row)) // spread the slack
		x := r.X
		for _, it := range row {
			b := layout.Rect{X: x, Y: y, W: counterBoxW(it, th) + extra, H: rowH}
			role := "counter " + it.Label
			l.Fill(role, b, th.Panel)
			l.Stroke(role, b, 1, th.PanelEdge)
			top := layout.Rect{X: b.X, Y: b.Y + 2, W: b.W, H: layout.LineHeight(big)}
			l.TextIn(role, fmt.Sprint(it.V), big, top, th.Text, layout.Center)
			bottom := layout.Rect{X: b.X, Y: b.Y + b.H - layout.LineHeight(small) - 2, W: b.W, H: layout.LineHeight(small)}
			if bottom.Y < top.Y+top.H {
				l.Overflows = append(l.Overflows, layout.Overflow{Role: role, Text: it.Label, Axis: "h", Need: top.H + bottom.H + 4, Have: b.H})
			}
			l.TextIn(role, it.Label, small, bottom, th.Muted, layout.Center)
			x += b.W + 4
		}
		y += rowH + 4
	}
}
