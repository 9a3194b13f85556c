package scene

import (
	"fmt"
	"image/color"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
	"bufferlab/viz/fsmview"
	"bufferlab/viz/layout"
)

// --- Searches and counters ---

// fsmLanesShown is the most backends the lanes list.
const fsmLanesShown = 4

// fsmLanesHeight is the height of the lanes: a title and one line for
// each backend that has acted (1 to 4).
func fsmLanesHeight(v *fsmview.View, th *layout.Theme) float64 {
	n := 0
	for a := 1; a < v.NumLanes(); a++ {
		if v.Lane(trace.Actor(a)).HasLast {
			n++
		}
	}
	return (float64(min(max(n, 1), fsmLanesShown))*17 + 22) * th.Scale
}

// layoutFSMLanes writes one line per backend (the first four that have
// acted): its name in a chip and its operation and where it is
// (fsmview's Text). The row of the backend that acted last is lit.
func layoutFSMLanes(l *layout.List, r layout.Rect, v *fsmview.View, rel uint32, th *layout.Theme) {
	face := th.Font(layout.Regular, 12)
	lh := layout.LineHeight(face)
	l.Text("lanes", "backends", th.Font(layout.Bold, 11), r.X+4, r.Y+2, r.W-4, th.Muted, layout.Left)
	y := r.Y + lh + 4
	cur, hasCur := v.Current()
	shown := 0
	for a := 1; a < v.NumLanes() && shown < fsmLanesShown; a++ {
		ln := v.Lane(trace.Actor(a))
		if !ln.HasLast {
			continue
		}
		shown++
		role := "lane " + ln.Name
		row := layout.Rect{X: r.X, Y: y, W: r.W, H: lh + 2}
		if hasCur && cur.Actor == ln.Actor {
			l.Fill(role, row, th.HighlightFill)
		}
		col := th.Muted
		if ln.Search.Active() {
			col = th.Highlight
		}
		layoutFSMChip(l, role, layout.Rect{X: row.X + 4, Y: row.Y + 1, W: 46, H: lh}, ln.Name, col, th)
		c := th.Text
		if ln.Search.Phase == fsmview.PhaseError {
			c = th.Error
		}
		l.Text(role, v.Text(ln.Search), face, row.X+58, row.Y, r.W-58, c, layout.Left)
		y += lh + 3
	}
	if shown == 0 {
		l.Text("lanes", "no backend has run yet", face, r.X+58, y, r.W-58, th.Muted, layout.Left)
	}
}

// layoutFSMChip lays out a backend's name in a small filled box.
func layoutFSMChip(l *layout.List, role string, c layout.Rect, name string, fill color.RGBA, th *layout.Theme) {
	l.Fill(role, c, fill)
	f := th.Font(layout.Bold, 11)
	l.Text(role, name, f, c.X+c.W/2, c.Y+(c.H-layout.LineHeight(f))/2, c.W, layout.TextOn(fill), layout.Center)
}

// LayoutFSMCounters lays out what reading pages cost: for the focused
// operation, the heap, FSM and visibility map pages it read; for all,
// the reads per insert, the pages tried, the extensions, the FSM pages
// skipped and the searches. Each box has the role "counter " and its
// short label; a label shortened or wrapped past two lines is recorded.
func LayoutFSMCounters(l *layout.List, r layout.Rect, v *fsmview.View, rel uint32, th *layout.Theme) {
	c := v.Counters()
	focus, hasFocus := FSMFocus(v, rel)
	var items []fsmCounter
	if hasFocus {
		s := focus.Search
		what := "this op"
		if s.Op == fsmview.OpInsert {
			what = "this insert"
		}
		items = append(items,
			fsmCounter{fmt.Sprint(s.Reads[bufmgr.FSMForkNum]), what + ": FSM pages", true, "now: FSM"},
			fsmCounter{fmt.Sprint(s.Reads[bufmgr.MainForkNum]), what + ": heap pages", true, "now: heap"},
			fsmCounter{fmt.Sprint(fullTries(s)), what + ": pages found full", true, "now: full"},
		)
	}
	per := func(n uint64) string {
		if c.Inserts == 0 {
			return "—"
		}
		return fmt.Sprintf("%.2f", float64(n)/float64(c.Inserts))
	}
	items = append(items,
		fsmCounter{fmt.Sprint(c.Inserts), "inserts", false, "inserts"},
		fsmCounter{per(c.FSMReads), "FSM reads / insert", false, "FSM/ins"},
		fsmCounter{per(c.HeapReads), "heap reads / insert", false, "heap/ins"},
		fsmCounter{fmt.Sprint(c.FSMReads), "FSM reads", false, "FSM reads"},
		fsmCounter{fmt.Sprint(c.HeapReads), "heap reads", false, "heap reads"},
		fsmCounter{fmt.Sprint(c.PagesTried), "pages found full", false, "found full"},
		fsmCounter{fmt.Sprint(c.HeapExtends), "heap extensions", false, "extends"},
		fsmCounter{fmt.Sprint(c.FSMSkipped), "FSM pages not read", false, "not read"},
	)
	// Two rows when the boxes would be too narrow for their labels: the
	// operation's counters and the first totals, then the other totals.
	perRow, rows := len(items), 1
	if r.W/float64(len(items)) < 70*th.Scale {
		perRow, rows = (len(items)+1)/2, 2
	}
	w := r.W / float64(perRow)
	rh := r.H / float64(rows)
	small := th.Font(layout.Regular, 10.5)
	slh := layout.LineHeight(small)
	big := th.Font(layout.Bold, 16)
	if rows > 1 {
		big = th.Font(layout.Bold, 13)
	}
	for i, it := range items {
		role := "counter " + it.short
		b := layout.Rect{X: r.X + float64(i%perRow)*w, Y: r.Y + float64(i/perRow)*rh, W: w - 4, H: rh - 2}
		fill := th.Panel
		if it.op {
			fill = th.HighlightFill
		}
		l.Fill(role, b, fill)
		l.Stroke(role, b, 1, th.PanelEdge)
		if rows > 1 && rh < layout.LineHeight(big)+slh+6 {
			// One line per box: the number, then the label.
			y := b.Y + (b.H-layout.LineHeight(big))/2
			vw := layout.Width(it.v, big)
			l.Text(role, it.v, big, b.X+4, y, b.W-8, th.Text, layout.Left)
			room := b.W - vw - 12
			if layout.Width(it.label, small) > room {
				l.FitText(role, it.short, small, b.X+vw+8, y+2, room, th.Muted, layout.Left)
			} else {
				l.Text(role, it.label, small, b.X+vw+8, y+2, room, th.Muted, layout.Left)
			}
			continue
		}
		if rows > 1 {
			l.Text(role, it.v, big, b.X+b.W/2, b.Y+2, b.W, th.Text, layout.Center)
			if layout.Width(it.label, small) > b.W-4 {
				l.FitText(role, it.short, small, b.X+b.W/2, b.Y+b.H-slh-1, b.W-4, th.Muted, layout.Center)
			} else {
				l.Text(role, it.label, small, b.X+b.W/2, b.Y+b.H-slh-1, b.W-4, th.Muted, layout.Center)
			}
			continue
		}
		l.Text(role, it.v, big, b.X+b.W/2, b.Y+4, b.W, th.Text, layout.Center)
		lines := layout.Wrap(it.label, small, b.W-4)
		if len(lines) > 2 {
			l.Overflows = append(l.Overflows, layout.Overflow{Role: role, Text: it.label, Axis: "h", Need: float64(len(lines)) * slh, Have: 2 * slh})
		}
		for j, s := range lines {
			if j == 2 {
				break
			}
			l.Text(role, s, small, b.X+b.W/2, b.Y+b.H-float64(2-j)*slh-3, b.W-4, th.Muted, layout.Center)
		}
	}
}

func fullTries(s fsmview.Search) int {
	n := 0
	for _, t := range s.Tries {
		if t.Verdict == fsmview.TryFull {
			n++
		}
	}
	return n
}

type fsmCounter struct {
	v, label string
	op       bool   // about the focused operation
	short    string // the label for a narrow box
}

// --- Small helpers ---

func fsmPlural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

type fsmLegendItem struct {
	fill, edge color.RGBA
	label      string
}

// layoutFSMLegend lays out a legend on one line: a swatch and a label
// each; the items that do not fit at the end are left out and each one
// recorded as an overflow.
func layoutFSMLegend(l *layout.List, role string, r layout.Rect, th *layout.Theme, items []fsmLegendItem) {
	f := th.Font(layout.Regular, 10.5)
	x := r.X + 2
	y := r.Y + 2
	for i, it := range items {
		w := 16 + layout.Width(it.label, f) + 12
		if x+w > r.X+r.W {
			for _, left := range items[i:] {
				l.Overflows = append(l.Overflows, layout.Overflow{Role: role, Text: left.label, Axis: "w", Need: 16 + layout.Width(left.label, f) + 12, Have: max(0, r.X+r.W-x)})
			}
			break
		}
		box := layout.Rect{X: x, Y: y + 2, W: 11, H: 11}
		l.Fill(role, box, it.fill)
		l.Stroke(role, box, 2, it.edge)
		l.Text(role, it.label, f, x+15, y, 0, th.Text, layout.Left)
		x += w
	}
}

// layoutFSMBadge lays out a small label on a filled box with its top-left
// at (x, y); a badge wider than maxW (0: no limit) is recorded.
func layoutFSMBadge(l *layout.List, role string, x, y float64, lbl string, c color.RGBA, f layout.Font, maxW float64) {
	w := layout.Width(lbl, f) + 6
	l.Fill(role, layout.Rect{X: x, Y: y, W: w, H: layout.LineHeight(f)}, c)
	if maxW > 0 {
		maxW = max(maxW-6, 1)
	}
	l.Text(role, lbl, f, x+3, y, maxW, layout.TextOn(c), layout.Left)
}

// layoutFSMBadgeCentered lays out a badge centred on cx.
func layoutFSMBadgeCentered(l *layout.List, role string, cx, y float64, lbl string, c color.RGBA, f layout.Font, maxW float64) {
	w := layout.Width(lbl, f) + 6
	layoutFSMBadge(l, role, cx-w/2, y, lbl, c, f, maxW)
}

// layoutFSMDashed lays out a dashed outline: dashes of 5 px, gaps of 4.
func layoutFSMDashed(l *layout.List, role string, r layout.Rect, c color.RGBA) {
	const dash, gap = 5.0, 4.0
	for x := r.X; x < r.X+r.W; x += dash + gap {
		e := min(x+dash, r.X+r.W)
		l.Line(role, x, r.Y, e, r.Y, 1.5, c)
		l.Line(role, x, r.Y+r.H, e, r.Y+r.H, 1.5, c)
	}
	for y := r.Y; y < r.Y+r.H; y += dash + gap {
		e := min(y+dash, r.Y+r.H)
		l.Line(role, r.X, y, r.X, e, 1.5, c)
		l.Line(role, r.X+r.W, y, r.X+r.W, e, 1.5, c)
	}
}

// fsmBelow records an overflow when a line of text ends (at bottom)
// below box.
func fsmBelow(l *layout.List, role, s string, bottom float64, box layout.Rect) {
	if bottom > box.Y+box.H+0.5 {
		l.Overflows = append(l.Overflows, layout.Overflow{Role: role, Text: s, Axis: "h", Need: bottom - box.Y, Have: box.H})
	}
}

// fsmOutside records an overflow when b is not inside box: "w" when it
// sticks out at a side (Need: the width box would need to hold it), "h"
// when it sticks out at the top or bottom.
func fsmOutside(l *layout.List, role, what string, b, box layout.Rect) {
	const eps = 0.5
	if b.X < box.X-eps || b.X+b.W > box.X+box.W+eps {
		need := max(b.X+b.W, box.X+box.W) - min(b.X, box.X)
		l.Overflows = append(l.Overflows, layout.Overflow{Role: role, Text: what, Axis: "w", Need: need, Have: box.W})
	}
	if b.Y < box.Y-eps || b.Y+b.H > box.Y+box.H+eps {
		need := max(b.Y+b.H, box.Y+box.H) - min(b.Y, box.Y)
		l.Overflows = append(l.Overflows, layout.Overflow{Role: role, Text: what, Axis: "h", Need: need, Have: box.H})
	}
}
