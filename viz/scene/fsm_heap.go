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

// fsmHeapShown is the most heap pages the heap panel lays out; where
// fewer columns fit, it shows a window of pages around the one the
// focused operation is at, and its title says which.
const fsmHeapShown = 48

// fsmHeapPlan is what the heap panel shows in a width: the pages lo ..
// lo+shown-1 of n, the gutter at the left (the byte scale, the rows'
// names), the columns' width and whether their labels take their long
// forms ("blk 3", "cat 205") or the bare numbers under the gutter's row
// names; the rows of badges above the bars and the legend.
type fsmHeapPlan struct {
	n, lo, shown int
	gutterW      float64
	colMin       float64 // the least column: each page's shortest labels and badges
	long         bool
	// tryRow and targetRow: whether a shown page has a try badge, a
	// target badge (each a row above the bars).
	tryRow, targetRow bool
	legend            fsmLegend
	titles            []string
}

// fsmHeapFocus is the page the focused operation is at: the last page it
// tried, its result, the page VACUUM is at, else the last page.
func fsmHeapFocus(v *fsmview.View, rel uint32, n int) int {
	if f, ok := FSMFocus(v, rel); ok {
		s := f.Search
		switch {
		case len(s.Tries) > 0:
			return int(s.Tries[len(s.Tries)-1].Block)
		case s.Result != fsm.InvalidBlockNumber:
			return int(s.Result)
		case s.VacBlock != fsm.InvalidBlockNumber:
			return int(s.VacBlock)
		}
	}
	return n - 1
}

// fsmHeapLabels are a page's labels, longest form first: its number,
// its category and what the map records, and whether the map is stale.
func fsmHeapLabels(p fsmview.HeapPage, blk int) (num, cat, mapped []string, stale bool) {
	num = []string{fmt.Sprintf("blk %d", blk), fmt.Sprint(blk)}
	cat = []string{fmt.Sprintf("cat %d", p.Category), fmt.Sprint(p.Category)}
	mapped = []string{"map —", "—"}
	if p.HasLeaf {
		mapped = []string{fmt.Sprintf("map %d", p.Recorded), fmt.Sprint(p.Recorded)}
		if p.Recorded != p.Category && !p.Info.IsNew() {
			stale = true
			mapped = []string{fmt.Sprintf("map %d ≠", p.Recorded), fmt.Sprintf("%d ≠", p.Recorded)}
		}
	}
	return
}

// fsmTryForms are a heap page try's badge, longest first: its order and
// verdict ("1st fits", "#1 fits"), then the verdict alone (the steps
// panel and the lanes say the order).
func fsmTryForms(i int, t fsmview.Try, th *layout.Theme) ([]string, color.RGBA) {
	lbl, c := fsmTryLabel(t, th)
	return []string{fmt.Sprintf("%s %s", ordinal(i+1), lbl), fmt.Sprintf("#%d %s", i+1, lbl), lbl}, c
}

// fsmTargetForms are the badge of the backends whose cached target block
// a page is: "target A,B", "→A,B".
func fsmTargetForms(names []string) []string {
	return []string{"target " + strings.Join(names, ","), "→" + strings.Join(names, ",")}
}

// fsmHeapBadges are, by page, the focused insert's latest try of it and
// the backends whose target block it is.
func fsmHeapBadges(v *fsmview.View, rel uint32) (tries map[int]int, targets map[int][]string) {
	tries, targets = map[int]int{}, map[int][]string{}
	if f, ok := FSMFocus(v, rel); ok {
		for i, t := range f.Search.Tries {
			tries[int(t.Block)] = i
		}
	}
	for a := 1; a < v.NumLanes(); a++ {
		if b := v.TargetBlock(trace.Actor(a), rel); b != fsm.InvalidBlockNumber {
			targets[int(b)] = append(targets[int(b)], v.LaneName(trace.Actor(a)))
		}
	}
	return tries, targets
}

// planFSMHeap fits the heap panel to width w (the panel's, padding
// included): as many columns as hold each page's shortest labels and
// badges (at most fsmHeapShown), the long labels where every column
// holds them.
func planFSMHeap(v *fsmview.View, rel uint32, w float64, t *fsmType) fsmHeapPlan {
	th := t.th
	h, _ := v.Heap(rel)
	n := int(h.NBlocks)
	inW := w - 4*t.gap
	p := fsmHeapPlan{n: n}
	p.gutterW = max(layout.Width("map", t.small), layout.Width("8k", t.small)) + t.gap
	tries, targets := fsmHeapBadges(v, rel)
	focus, _ := FSMFocus(v, rel)
	shortW, longW := 0.0, 0.0
	anyNew, anyAV, anyTry := false, false, false
	// The widest labels: over the pages (the first 4096 of a larger heap,
	// and its last, whose number is the longest).
	for blk := 0; blk < n; blk++ {
		if blk == 4096 {
			blk = n - 1
		}
		pg := v.HeapPage(rel, uint32(blk))
		num, cat, mapped, _ := fsmHeapLabels(pg, blk)
		shortW = max(shortW, layout.Width(num[1], t.bold), layout.Width(cat[1], t.small), layout.Width(mapped[1], t.small))
		longW = max(longW, layout.Width(num[0], t.bold), layout.Width(cat[0], t.small), layout.Width(mapped[0], t.small))
		if i, ok := tries[blk]; ok {
			forms, _ := fsmTryForms(i, focus.Search.Tries[i], th)
			shortW = max(shortW, badgeW(forms[len(forms)-1], t.small))
			anyTry = true
		}
		if names, ok := targets[blk]; ok {
			forms := fsmTargetForms(names)
			shortW = max(shortW, badgeW(forms[len(forms)-1], t.small))
		}
		anyNew = anyNew || pg.Info.IsNew()
		anyAV = anyAV || pg.Info.AllVisible
	}
	p.colMin = shortW + 2*t.gap
	p.shown = min(n, fsmHeapShown, max(1, int((inW-p.gutterW)/p.colMin)))
	if n > p.shown {
		c := fsmHeapFocus(v, rel, n)
		p.lo = min(max(0, c-p.shown/2), n-p.shown)
	}
	p.long = longW+2*t.gap <= p.colW(inW-p.gutterW, t)
	for blk := p.lo; blk < p.lo+p.shown; blk++ {
		_, try := tries[blk]
		_, target := targets[blk]
		p.tryRow = p.tryRow || try
		p.targetRow = p.targetRow || target
	}
	// The legend: what the bars are made of, and the marks that are on.
	items := []fsmLegendItem{
		{th.FSM.LinePointers, th.PanelEdge, []string{"header + line pointers", "header"}},
		{th.FSM.FreeSpace, th.PanelEdge, []string{"free"}},
		{th.FSM.Tuples, th.FSM.Tuples, []string{"tuples"}},
	}
	if h.FillFactor > 0 && h.FillFactor < 100 {
		items = append(items, fsmLegendItem{th.Panel, th.Error, []string{"fillfactor line", "fillfactor"}})
	}
	if anyTry {
		items = append(items, fsmLegendItem{th.Panel, th.FSM.Focus, []string{"tried"}})
	}
	if anyNew {
		items = append(items, fsmLegendItem{th.Panel, th.PanelEdge, []string{"new page (zeroes)", "new page"}})
	}
	if anyAV {
		items = append(items, fsmLegendItem{th.Locked, th.Locked, []string{"AV: all-visible", "all-visible"}})
	}
	p.legend = planFSMLegend(items, inW, t)
	name := h.Name
	switch {
	case n == 0:
		p.titles = []string{fmt.Sprintf("heap %s: no pages", name), "heap " + name}
	case p.shown < n:
		p.titles = []string{
			fmt.Sprintf("heap %s: %s (%d–%d shown), fillfactor %d", name, fsmPlural(n, "page"), p.lo, p.lo+p.shown-1, h.FillFactor),
			fmt.Sprintf("heap %s: %s (%d–%d shown)", name, fsmPlural(n, "page"), p.lo, p.lo+p.shown-1),
			fmt.Sprintf("heap %s: %d–%d of %d", name, p.lo, p.lo+p.shown-1, n),
		}
	default:
		p.titles = []string{
			fmt.Sprintf("heap %s: %s, fillfactor %d", name, fsmPlural(n, "page"), h.FillFactor),
			fmt.Sprintf("heap %s: %s", name, fsmPlural(n, "page")),
			"heap " + name,
		}
	}
	if h.FillFactor == 0 && len(p.titles) == 3 {
		p.titles = p.titles[1:]
	}
	return p
}

// colW is the width of a column in bars w wide: the width shared by the
// pages shown, at most six lines (a page or two do not take the panel).
func (p fsmHeapPlan) colW(w float64, t *fsmType) float64 {
	return min(w/float64(max(p.shown, 1)), 6*t.lh)
}

// tabsH is the height of the rows of badges above the bars: a row for
// the tries and one for the targets, or, merged, one row where a page's
// try stands in for its target (the backend's line says where it put
// the tuple).
func (p fsmHeapPlan) tabsH(t *fsmType, merged bool) float64 {
	n := 0
	if p.tryRow {
		n++
	}
	if p.targetRow && (n == 0 || !merged) {
		n++
	}
	return float64(n) * (t.slh + t.gap)
}

// fsmHeapHeight is the least height the heap panel needs in width w (the
// badges on one row, the bars a small line tall) and the height it would
// like (the badges on their rows, the bars eight lines).
func fsmHeapHeight(v *fsmview.View, rel uint32, w float64, t *fsmType) (least, pref float64) {
	p := planFSMHeap(v, rel, w, t)
	fixed := t.chrome() + t.blh + 2*t.slh + t.gap + p.legend.h + t.gap
	return fixed + p.tabsH(t, true) + t.slh, fixed + p.tabsH(t, false) + 8*t.lh
}

// LayoutHeap lays out relation rel's heap pages as bars: each page from
// the top (header and line pointers), free space, tuples from the bottom,
// as a heap page lays them out (PageHeaderData's pd_lower and pd_upper),
// with its free space, category and what the map records for it, the
// fillfactor line, and the pages the focused insert tried (in order, with
// their verdict) and each backend's cached target block. Every item of
// column b has the role "heap blk b". Each label takes the longest of its
// forms that fits; the free bytes, the tuples and the AV badge are left
// out of a bar too small for them (the bar's segments and the legend say
// them).
func LayoutHeap(l *layout.List, r layout.Rect, v *fsmview.View, rel uint32, th *layout.Theme) {
	t := newFSMType(th)
	h, _ := v.Heap(rel)
	p := planFSMHeap(v, rel, r.W, t)
	in := fsmPanel(l, r, p.titles, t)
	body, legendR := in.SplitBottom(p.legend.h + t.gap)
	if p.n == 0 {
		layoutWrapped(l, "heap empty", "no pages yet: the first insert extends the heap", t.face, body, th.Muted)
		p.legend.layout(l, "heap legend", layout.Rect{X: legendR.X, Y: legendR.Y + t.gap, W: legendR.W, H: p.legend.h}, t)
		return
	}
	p.legend.layout(l, "heap legend", layout.Rect{X: legendR.X, Y: legendR.Y + t.gap, W: legendR.W, H: p.legend.h}, t)
	focus, hasFocus := FSMFocus(v, rel)
	tries, targets := fsmHeapBadges(v, rel)
	// The badges on their own rows, unless that leaves the bars less
	// than two small lines (one for the free space's label).
	labH := 2 * t.slh
	merged := body.H-p.tabsH(t, false)-t.blh-labH < 2*t.slh
	tabsH := p.tabsH(t, merged)
	bars := layout.Rect{X: body.X + p.gutterW, Y: body.Y + tabsH + t.blh, W: body.W - p.gutterW, H: body.H - tabsH - t.blh - labH}
	colW := p.colW(bars.W, t)
	barW := min(colW-2*t.gap, 5*t.lh)
	// The byte scale at the left: ticks, and their labels where the bars
	// are tall enough for three of them.
	for _, b := range []int{0, 4096, 8192} {
		y := bars.Y + bars.H*float64(b)/fsm.BLCKSZ
		l.Line("heap scale", bars.X-t.gap, y, bars.X, y, 1, th.Muted)
		if bars.H < 3*t.slh {
			continue
		}
		ly := min(max(y-t.slh/2, bars.Y), bars.Y+bars.H-t.slh)
		l.TextIn("heap scale", fmt.Sprintf("%dk", b/1024), t.small, layout.Rect{X: body.X, Y: ly, W: p.gutterW - 1.5*t.gap, H: t.slh}, th.Muted, layout.Right)
	}
	if !p.long {
		// The columns' bare numbers: the gutter names the rows.
		gx := layout.Rect{X: body.X, W: p.gutterW - t.gap, H: t.slh}
		gx.Y = bars.Y + bars.H
		l.TextIn("heap labels", "cat", t.small, gx, th.Muted, layout.Right)
		gx.Y += t.slh
		l.TextIn("heap labels", "map", t.small, gx, th.Muted, layout.Right)
	}
	save := 0
	if h.FillFactor > 0 {
		save = fsm.TargetPageFreeSpace(h.FillFactor)
	}
	form := 0 // the labels' form: long, or the bare number
	if !p.long {
		form = 1
	}
	for k := 0; k < p.shown; k++ {
		blk := p.lo + k
		role := fmt.Sprintf("heap blk %d", blk)
		pg := v.HeapPage(rel, uint32(blk))
		col := layout.Rect{X: bars.X + float64(k)*colW, Y: body.Y, W: colW, H: body.H}
		x := col.X + (colW-barW)/2
		bar := layout.Rect{X: x, Y: bars.Y, W: barW, H: bars.H}
		num, cat, mapped, stale := fsmHeapLabels(pg, blk)
		l.TextForms(role, num[form:], t.bold, layout.Rect{X: col.X, Y: bars.Y - t.blh, W: colW, H: t.blh}, th.Text, layout.Center)
		if pg.Info.IsNew() {
			l.Fill(role, bar, th.Panel)
			layoutFSMDashed(l, role, bar, th)
			mid := bar.Y + bar.H/2
			if bar.H >= 2*t.slh {
				l.TextForms(role, []string{"new", ""}, t.small, layout.Rect{X: bar.X, Y: mid - t.slh, W: bar.W, H: t.slh}, th.Muted, layout.Center)
				l.TextForms(role, []string{"(zeroes)", ""}, t.small, layout.Rect{X: bar.X, Y: mid, W: bar.W, H: t.slh}, th.Muted, layout.Center)
			}
		} else {
			yb := func(off int) float64 { return bar.Y + bar.H*float64(off)/fsm.BLCKSZ }
			lower, upper := int(pg.Info.Lower), int(pg.Info.Upper)
			l.Fill(role, layout.Rect{X: x, Y: bar.Y, W: barW, H: yb(lower) - bar.Y}, th.FSM.LinePointers)
			l.Fill(role, layout.Rect{X: x, Y: yb(lower), W: barW, H: yb(upper) - yb(lower)}, th.FSM.FreeSpace)
			l.Fill(role, layout.Rect{X: x, Y: yb(upper), W: barW, H: bar.Y + bar.H - yb(upper)}, th.FSM.Tuples)
			l.Stroke(role, bar, 1, th.PanelEdge)
			// The fillfactor line: tuples may not grow past it.
			if save > 0 && lower+save < upper+int(bar.H) {
				y := yb(min(lower+save, fsm.BLCKSZ))
				dash := th.Px(3)
				for xx := x; xx < x+barW; xx += 2 * dash {
					l.Line(role, xx, y, min(xx+dash, x+barW), y, 2, th.Error)
				}
			}
			top := bar.Y
			if pg.Info.AllVisible && badgeW("AV", t.small) <= barW-2 && bar.H >= 2*t.slh {
				layoutFSMBadge(l, role, x+1, bar.Y+1, "AV", th.Locked, t.small, 0)
				top = bar.Y + t.slh + 2
			}
			// Free space, written in the free area, or on the tuples
			// where the free area is shorter than a line.
			freeBox := layout.Rect{X: col.X, Y: (yb(lower)+yb(upper))/2 - t.slh/2, W: colW, H: t.slh}
			tc := th.Text
			if yb(upper)-yb(lower) < t.slh {
				freeBox.Y = max(yb(upper)+1, top)
				tc = layout.TextOn(th.FSM.Tuples)
			}
			freeBox.Y = max(freeBox.Y, top)
			if freeBox.Y+t.slh <= bar.Y+bar.H {
				l.TextForms(role, []string{fmt.Sprintf("%d B", pg.Free), fmt.Sprint(pg.Free), ""}, t.small, layoutInset(freeBox, bar), tc, layout.Center)
			}
			// Tuples: live (dead), where the tuples are tall enough
			// below the free space's label.
			if tupTop := max(yb(upper), freeBox.Y+t.slh); bar.Y+bar.H-tupTop >= t.slh+2 {
				tl := []string{fmt.Sprintf("%d tup", pg.Info.Live), ""}
				if pg.Info.Deleted > 0 {
					tl = []string{fmt.Sprintf("%d tup +%d dead", pg.Info.Live, pg.Info.Deleted), fmt.Sprintf("%d tup", pg.Info.Live), ""}
				}
				l.TextForms(role, tl, t.small, layout.Rect{X: x, Y: bar.Y + bar.H - t.slh - 2, W: barW, H: t.slh}, layout.TextOn(th.FSM.Tuples), layout.Center)
			}
		}
		// Below: the page's category and what the map says.
		mc := th.Muted
		if pg.HasLeaf {
			mc = th.Text
		}
		if stale {
			mc = th.Error
		}
		l.TextForms(role, cat[form:], t.small, layout.Rect{X: col.X, Y: bars.Y + bars.H, W: colW, H: t.slh}, th.Text, layout.Center)
		l.TextForms(role, mapped[form:], t.small, layout.Rect{X: col.X, Y: bars.Y + bars.H + t.slh, W: colW, H: t.slh}, mc, layout.Center)
		// Above: the focused insert's latest try of the page, then the
		// backends whose target it is.
		if i, ok := tries[blk]; ok && hasFocus {
			forms, c := fsmTryForms(i, focus.Search.Tries[i], th)
			badgeForms(l, role, col.X+colW/2, body.Y, forms, c, t.small, colW)
			l.Stroke(role, layout.Rect{X: x - 2, Y: bar.Y - 2, W: barW + 4, H: bar.H + 4}, 3, c)
		}
		if names, ok := targets[blk]; ok {
			_, tried := tries[blk]
			ty := body.Y
			if p.tryRow && !merged {
				ty += t.slh + t.gap
			}
			if !merged || !tried {
				badgeForms(l, role, col.X+colW/2, ty, fsmTargetForms(names), th.Accent, t.small, colW)
			}
		}
	}
}

// LayoutHeapLine lays out the heap as one line, where the scene gives
// the tree (or the local map) the room of the heap's bars: the first form
// that fits of its size, fillfactor and the pages' categories (what the
// map compares requests with), up to 12 pages.
func LayoutHeapLine(l *layout.List, r layout.Rect, v *fsmview.View, rel uint32, th *layout.Theme) {
	t := newFSMType(th)
	h, _ := v.Heap(rel)
	n := int(h.NBlocks)
	size := fmt.Sprintf("heap %s: %s", h.Name, fsmPlural(n, "page"))
	var forms []string
	if n > 0 && n <= 12 {
		cats := make([]string, n)
		for b := range cats {
			cats[b] = fmt.Sprint(v.HeapPage(rel, uint32(b)).Category)
		}
		list := strings.Join(cats, " ")
		forms = append(forms, fmt.Sprintf("%s, fillfactor %d; categories %s", size, h.FillFactor, list), fmt.Sprintf("%s; cat %s", size, list))
	}
	forms = append(forms, size)
	l.TextForms("heap summary", forms, t.bold, layout.Rect{X: r.X, Y: r.Y, W: r.W, H: t.blh}, th.Text, layout.Left)
}

// layoutInset is b narrowed to the bar's width plus a little, for text
// written on a bar.
func layoutInset(b, bar layout.Rect) layout.Rect {
	return layout.Rect{X: bar.X - 1, Y: b.Y, W: bar.W + 2, H: b.H}
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
