package scene

import (
	"fmt"
	"image/color"
	"strings"

	"bufferlab/engine/fsm"
	"bufferlab/engine/trace"
	"bufferlab/viz/fsmview"
	"bufferlab/viz/layout"
)

// fsmHeapShown is the most heap pages the heap panel lays out; the rest
// are counted ("… N more pages").
const fsmHeapShown = 48

// LayoutHeap lays out relation rel's heap pages as bars: each page from
// the top (header and line pointers), free space, tuples from the bottom,
// as a heap page lays them out (PageHeaderData's pd_lower and pd_upper),
// with its free space, category and what the map records for it, the
// fillfactor line, and the pages the focused insert tried (in order, with
// their verdict) and each backend's cached target block. Every item of
// column b has the role "heap blk b".
func LayoutHeap(l *layout.List, r layout.Rect, v *fsmview.View, rel uint32, th *layout.Theme) {
	h, _ := v.Heap(rel)
	title := fmt.Sprintf("heap %s: %s, fillfactor %d", h.Name, fsmPlural(int(h.NBlocks), "page"), h.FillFactor)
	if h.FillFactor == 0 {
		title = fmt.Sprintf("heap %s: %s", h.Name, fsmPlural(int(h.NBlocks), "page"))
	}
	in := LayoutPanel(l, r, title, th)
	face := th.Font(layout.Regular, 11)
	small := th.Font(layout.Regular, 10)
	bold := th.Font(layout.Bold, 11)
	lh := layout.LineHeight(face)
	slh := layout.LineHeight(small)
	focus, hasFocus := FSMFocus(v, rel)
	// The legend on the last line.
	body, legend := in.SplitBottom(lh + 4)
	layoutFSMLegend(l, "heap legend", legend, th, []fsmLegendItem{
		{th.FSM.LinePointers, th.PanelEdge, "header + line pointers"}, {th.FSM.FreeSpace, th.PanelEdge, "free"},
		{th.FSM.Tuples, th.FSM.Tuples, "tuples"}, {th.Panel, th.Error, "fillfactor line"},
		{th.Panel, th.FSM.Focus, "tried"},
	})
	n := int(h.NBlocks)
	if n == 0 {
		l.Text("heap empty", "no pages yet: the first insert extends the heap", face, body.X+4, body.Y+8, body.W-4, th.Muted, layout.Left)
		return
	}
	shown := min(n, fsmHeapShown)
	// Room above the bars for the tabs (tries, targets), below for labels.
	tabsH := 2 * (slh + 1)
	labH := 2*lh + 2
	bars := layout.Rect{X: body.X + 30, Y: body.Y + tabsH + lh, W: body.W - 34, H: body.H - tabsH - lh - labH}
	colW := bars.W / float64(max(shown, 4))
	barW := min(colW*0.72, 70)
	// The byte scale at the left.
	for _, b := range []int{0, 4096, 8192} {
		y := bars.Y + bars.H*float64(b)/fsm.BLCKSZ
		l.Line("heap scale", bars.X-4, y, bars.X, y, 1, th.Muted)
		l.Text("heap scale", fmt.Sprintf("%dk", b/1024), small, bars.X-6, y-slh/2, bars.X-6-body.X, th.Muted, layout.Right)
	}
	tries := map[uint32][]int{} // block → indexes in focus.Search.Tries
	if hasFocus {
		for i, t := range focus.Search.Tries {
			tries[t.Block] = append(tries[t.Block], i)
		}
	}
	save := 0
	if h.FillFactor > 0 {
		save = fsm.TargetPageFreeSpace(h.FillFactor)
	}
	for blk := 0; blk < shown; blk++ {
		role := fmt.Sprintf("heap blk %d", blk)
		p := v.HeapPage(rel, uint32(blk))
		x := bars.X + float64(blk)*colW + (colW-barW)/2
		bar := layout.Rect{X: x, Y: bars.Y, W: barW, H: bars.H}
		cx := x + barW/2
		// The block number: "blk 3", or the bare number in narrow
		// columns (every other one when even that does not fit).
		switch bl := fmt.Sprintf("blk %d", blk); {
		case layout.Width(bl, bold)+4 <= colW:
			l.Text(role, bl, bold, cx, bars.Y-lh, colW, th.Text, layout.Center)
		case layout.Width(fmt.Sprint(blk), small)+2 <= colW || blk%2 == 0:
			l.Text(role, fmt.Sprint(blk), small, cx, bars.Y-lh, colW, th.Text, layout.Center)
		}
		if p.Info.IsNew() {
			l.Fill(role, bar, th.Panel)
			layoutFSMDashed(l, role, bar, th.PanelEdge)
			l.Text(role, "new", face, cx, bar.Y+bar.H/2-lh, colW, th.Muted, layout.Center)
			l.Text(role, "(zeroes)", small, cx, bar.Y+bar.H/2, colW, th.Muted, layout.Center)
		} else {
			yb := func(off int) float64 { return bar.Y + bar.H*float64(off)/fsm.BLCKSZ }
			lower, upper := int(p.Info.Lower), int(p.Info.Upper)
			l.Fill(role, layout.Rect{X: x, Y: bar.Y, W: barW, H: yb(lower) - bar.Y}, th.FSM.LinePointers)
			l.Fill(role, layout.Rect{X: x, Y: yb(lower), W: barW, H: yb(upper) - yb(lower)}, th.FSM.FreeSpace)
			l.Fill(role, layout.Rect{X: x, Y: yb(upper), W: barW, H: bar.Y + bar.H - yb(upper)}, th.FSM.Tuples)
			l.Stroke(role, bar, 1, th.PanelEdge)
			// The fillfactor line: tuples may not grow past it.
			if save > 0 && lower+save < upper+int(bar.H) {
				y := yb(min(lower+save, fsm.BLCKSZ))
				for xx := x; xx < x+barW; xx += 6 {
					l.Line(role, xx, y, min(xx+3, x+barW), y, 2, th.Error)
				}
			}
			// Free space, written in the free area (or on the tuples).
			free := fmt.Sprintf("%d B", p.Free)
			fy := (yb(lower) + yb(upper)) / 2
			if yb(upper)-yb(lower) < lh {
				fy = yb(upper) + slh/2 + 2
				if p.Info.AllVisible {
					fy = max(fy, bar.Y+2*slh+2) // below the AV badge
				}
			}
			if layout.Width(free, small) > barW {
				free = fmt.Sprint(p.Free)
			}
			if layout.Width(free, small) > barW+2 {
				free = ""
				l.Overflows = append(l.Overflows, layout.Overflow{Role: role, Text: fmt.Sprint(p.Free), Axis: "w", Need: layout.Width(fmt.Sprint(p.Free), small), Have: barW + 2})
			}
			tc := th.Text
			if yb(upper)-yb(lower) < lh {
				tc = layout.TextOn(th.FSM.Tuples)
			}
			l.Text(role, free, small, cx, fy-slh/2, barW+2, tc, layout.Center)
			// Tuples: live (dead).
			tl := fmt.Sprintf("%d tup", p.Info.Live)
			if p.Info.Deleted > 0 {
				tl += fmt.Sprintf(" +%d dead", p.Info.Deleted)
			}
			if bar.Y+bar.H-yb(upper) > 2*slh && layout.Width(tl, small) < barW {
				l.Text(role, tl, small, cx, bar.Y+bar.H-slh-2, barW, layout.TextOn(th.FSM.Tuples), layout.Center)
			}
			if p.Info.AllVisible {
				layoutFSMBadge(l, role, x+1, bar.Y+1, "AV", th.Locked, small, 0)
			}
		}
		// Below: the page's category and what the map says.
		cat := fmt.Sprintf("cat %d", p.Category)
		mapTxt := "map —"
		col := th.Muted
		if p.HasLeaf {
			mapTxt = fmt.Sprintf("map %d", p.Recorded)
			col = th.Text
			if p.Recorded != p.Category && !p.Info.IsNew() {
				mapTxt += " ≠"
				col = th.Error
			}
		}
		if colW < 46 {
			cat, mapTxt = fmt.Sprint(p.Category), strings.TrimPrefix(mapTxt, "map ")
			if blk == 0 {
				// The first column says what the numbers are.
				l.Text("heap labels", "cat", small, bars.X-6, bars.Y+bars.H+2, bars.X-6-body.X, th.Muted, layout.Right)
				l.Text("heap labels", "map", small, bars.X-6, bars.Y+bars.H+2+slh, bars.X-6-body.X, th.Muted, layout.Right)
			}
		}
		if layout.Width(cat, small) > colW && blk%2 == 1 {
			cat, mapTxt = "", ""
		}
		l.Text(role, cat, small, cx, bars.Y+bars.H+2, colW, th.Text, layout.Center)
		l.Text(role, mapTxt, small, cx, bars.Y+bars.H+2+slh, colW, col, layout.Center)
		// Tabs above: the focused insert's tries, then targets.
		ty := body.Y
		for _, i := range tries[uint32(blk)] {
			t := focus.Search.Tries[i]
			lbl, c := fsmTryLabel(t, th)
			lbl = fmt.Sprintf("%s %s", ordinal(i+1), lbl)
			if layout.Width(lbl, small)+4 > colW {
				lbl = fmt.Sprintf("#%d %s", i+1, strings.Fields(lbl)[1])
			}
			layoutFSMBadgeCentered(l, role, cx, ty, lbl, c, small, colW)
			l.Stroke(role, layout.Rect{X: x - 2, Y: bar.Y - 2, W: barW + 4, H: bar.H + 4}, 3, c)
			ty += slh + 1
			break // the latest try of the block is enough
		}
		var targets []string
		for a := 1; a < v.NumLanes(); a++ {
			if v.TargetBlock(trace.Actor(a), rel) == uint32(blk) {
				targets = append(targets, v.LaneName(trace.Actor(a)))
			}
		}
		if len(targets) > 0 {
			lbl := "target " + strings.Join(targets, ",")
			if layout.Width(lbl, small)+4 > colW {
				lbl = "→" + strings.Join(targets, ",")
			}
			layoutFSMBadgeCentered(l, role, cx, ty, lbl, th.Accent, small, colW)
		}
	}
	if n > shown {
		l.Text("heap more", fmt.Sprintf("… %d more pages", n-shown), face, body.X+body.W-4, body.Y, body.W-4, th.Muted, layout.Right)
	}
}

// fsmTryLabel is a heap page try's verdict in a word and its colour.
func fsmTryLabel(t fsmview.Try, th *layout.Theme) (string, color.RGBA) {
	switch t.Verdict {
	case fsmview.TryFull:
		return "full", th.Error
	case fsmview.TryUsed:
		return "fits", th.Good
	}
	return "try", th.FSM.Focus
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", n)
}
