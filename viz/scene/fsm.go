package scene

import (
	"fmt"
	"math"

	"bufferlab/engine/fsm"
	"bufferlab/engine/trace"
	"bufferlab/viz/fsmview"
	"bufferlab/viz/layout"
)

// The FSM scene: how an insert finds a page (engine/fsm, laid out from a
// *fsmview.View). The heap's pages as bars of used and free space, with
// their category and what the map records for them; the three levels of
// FSM pages, with the pages a search read (in order) and those it did not
// read because the fork is missing or short; one FSM page's binary tree,
// zoomed to the slots in use, with the search path lit; in small-skip,
// the backend's local map with each page tried; and the pages each
// operation read. Every state has a label as well as a colour.
//
// The scene is pure layout: LayoutFSMScene and its parts append to a
// *layout.List, and scenedraw.DrawFSMScene paints it. The parts live in
// fsm_heap.go (the heap's bars), fsm_pages.go (the FSM pages by level),
// fsm_tree.go (one FSM page's tree), fsm_ops.go (the local map and the
// operation step by step) and fsm_counters.go (lanes, counters and the
// small shared pieces: the type, panels, legends, badges, dashed
// outlines).
//
// The scene fits any rectangle the frame gives it, at the type the
// theme gives (which never goes below its floor, Theme.MinPx: 14 px on a
// laptop or a phone, 24 px and more on a projector). Every length is a
// multiple of a line of that type or a measured width (fsmType), never a
// fixed pixel count. Where there is less room it shows less, in defined
// ways: planFSMScene drops whole parts in a fixed order, and each part
// takes shorter forms of its words (layout.TextForms, the forms written
// next to the text), fewer columns (a window of heap pages, of tree
// leaves), fewer rows (tree depths elided, counters left out by rank) or
// wraps. What still does not fit is recorded as an overflow, never cut
// silently.

// FSMFocus is the backend whose search the scene lights for relation rel:
// the one that acted last if its operation is on rel, else the last
// backend (highest actor) with an operation on rel.
func FSMFocus(v *fsmview.View, rel uint32) (fsmview.Lane, bool) {
	if e, ok := v.Current(); ok {
		if ln := v.Lane(e.Actor); ln.Search.HasOp && ln.Search.Rel == rel {
			return ln, true
		}
	}
	for a := v.NumLanes() - 1; a >= 1; a-- {
		if ln := v.Lane(trace.Actor(a)); ln.Search.HasOp && ln.Search.Rel == rel {
			return ln, true
		}
	}
	return fsmview.Lane{}, false
}

// FSMTreePage is the FSM page the tree panel zooms into: the page whose
// tree the focused search lit last, else the leaf page of block 0.
func FSMTreePage(v *fsmview.View, rel uint32) (uint32, bool) {
	if ln, ok := FSMFocus(v, rel); ok && ln.Search.HasPath && ln.Search.PathRel == rel {
		return ln.Search.PathPage, true
	}
	a, _ := fsm.Location(0)
	if _, ok := v.FSMPage(rel, a.Physical()); ok {
		return a.Physical(), true
	}
	return 0, false
}

// fsmBottom is what the scene lays out under the heap and the FSM pages:
// the tree of one FSM page, the small-skip backend's local map, or a note
// that there is no map yet.
type fsmBottom uint8

const (
	fsmBottomTree fsmBottom = iota
	fsmBottomLocal
	fsmBottomNote
)

// fsmTop is how the scene lays out the heap and the FSM pages: side by
// side, one above the other, the heap over a line that sums the FSM
// pages up, or a line each.
type fsmTop uint8

const (
	fsmTopSide fsmTop = iota
	fsmTopStacked
	fsmTopLine
	fsmTopLines
)

// fsmNoteForms are the note in the tree's place before the fork exists.
func fsmNoteForms(heap string) []string {
	return []string{
		fmt.Sprintf("%s has no free space map yet: it is made when something records free space (VACUUM, or an insert that finds its page full).", heap),
		fmt.Sprintf("%s has no free space map yet.", heap),
	}
}

// fsmBottomLive reports whether the focused operation is in the bottom
// part: a path lit in the tree, or a local map set, being built or
// looked at.
func fsmBottomLive(v *fsmview.View, rel, phys uint32, bottom fsmBottom) bool {
	switch bottom {
	case fsmBottomTree:
		return len(fsmTreePath(v, rel, phys)) > 0
	case fsmBottomLocal:
		f, ok := FSMFocus(v, rel)
		return ok && (f.LocalMap.NBlocks > 0 || len(f.LocalMap.Entries) > 0 || len(f.Search.LocalChecks) > 0)
	}
	return false
}

// fsmResort is how far planFSMScene goes to fit a short scene: the usual
// plans, then the heap and the FSM pages as a line each, then without the
// counters and the backends' line.
type fsmResort uint8

const (
	fsmPlans fsmResort = iota
	fsmLastResort
	fsmBare
)

// fsmScene is the scene's plan: what it shows in its rectangle and the
// height of each band.
type fsmScene struct {
	top               fsmTop
	bottom            fsmBottom
	showBottom, steps bool
	// noCounters and noLanes: the counters, and the backends' lines, are
	// left out (the last plans, in a frame too short for the least).
	noCounters, noLanes         bool
	heapW                       float64 // the heap's width, side by side
	short                       float64 // how much higher the least plan is than the scene
	topH, bottomH, lanesH, cntH float64
}

// planFSMScene chooses what the scene shows in r, the first of these
// plans whose parts' least heights fit:
//
//  1. the heap and the FSM pages (side by side where both fit their
//     narrowest, else stacked; the pages as a line where even that is too
//     narrow), the tree (or the local map, or the note), every backend's
//     line and the counters in their preferred rows;
//  2. the same with only the backend that acted last (or the focused one);
//  3. and the counters on one row (those of highest rank that fit);
//  4. the FSM pages as one line;
//  5. where the operation is in the tree or the local map: the heap as a
//     line too, so that the tree keeps the room;
//  6. no tree, with 1–3 again, and the FSM pages as a line;
//  7. (resort ≥ fsmLastResort) the heap and the FSM pages as a line each;
//  8. (resort fsmBare) the same without the counters (the code panel and
//     the status line say what the step costs), then without the
//     backends' line either (the lesson's prose says who acts).
//
// The caller goes to a further resort only when the plans before it
// leave the scene short: a frame that fits is laid out as it always was.
//
// The room left goes first to two small lines of the heap's bars, then to
// the tree up to 13 comfortable rows (the counters giving up their boxes
// for rows of numbers beside their labels if the tree is still short),
// then to the heap's bars. A plan's short is how much it needs past r
// when none fits.
func planFSMScene(r layout.Rect, v *fsmview.View, rel, phys uint32, bottom fsmBottom, resort fsmResort, t *fsmType) fsmScene {
	items := fsmCounters(v, rel)
	cPref, cCompact, cLeast := fsmCountersHeight(items, r.W, t)
	lPref, lLeast := fsmLanesHeight(v, t, false), fsmLanesHeight(v, t, true)
	hp := planFSMHeap(v, rel, r.W, t)
	// Each part is a panel inset by half a gap in the scene: its heights
	// and widths here are the panel's, plus that margin.
	m := t.gap
	heapMinW := m + 4*t.gap + hp.gutterW + 4*hp.colMin
	pagesW := max(math.Floor(r.W*0.44), fsmPagesMinW(t)+m)
	heapW := r.W - pagesW
	natural := fsmTopSide
	switch {
	case r.W < fsmPagesMinW(t)+m:
		natural = fsmTopLine // too narrow for the pages panel at all
	case heapW < heapMinW:
		natural = fsmTopStacked
	}
	heapH := func(w float64) (float64, float64) {
		least, pref := fsmHeapHeight(v, rel, w-m, t)
		return least + m, pref + m
	}
	pagesH := func(w float64) (float64, float64) {
		least, pref := fsmPagesHeight(v, rel, w-m, t)
		return least + m, pref + m
	}
	topH := func(top fsmTop) (least, pref float64) {
		switch top {
		case fsmTopSide:
			hl, hpf := heapH(heapW)
			pl, ppf := pagesH(pagesW)
			return max(hl, pl), max(hpf, ppf)
		case fsmTopStacked:
			hl, hpf := heapH(r.W)
			pl, ppf := pagesH(r.W)
			return hl + pl, hpf + ppf
		}
		line := t.blh + 2*t.gap
		if top == fsmTopLines {
			return 2 * line, 2 * line
		}
		hl, hpf := heapH(r.W)
		return hl + line, hpf + line
	}
	steps := r.W*0.3 >= fsmStepsMinW(t)
	bw := r.W
	if steps {
		bw = math.Floor(r.W * 0.7)
	}
	var bLeast, bPref float64
	h, _ := v.Heap(rel)
	switch bw -= m; bottom {
	case fsmBottomTree:
		bLeast, bPref = fsmTreeHeight(v, rel, phys, bw, t)
	case fsmBottomLocal:
		bLeast, bPref = fsmLocalHeight(v, rel, bw, t)
	case fsmBottomNote:
		forms := fsmNoteForms(h.Name)
		bLeast = t.chrome() + wrappedH(forms[1], t.face, bw-4*t.gap)
		bPref = t.chrome() + wrappedH(forms[0], t.face, bw-4*t.gap)
	}
	bLeast, bPref = bLeast+m, bPref+m
	type cand struct {
		top                  fsmTop
		bottom, lanes, cpref bool
	}
	cands := []cand{
		{natural, true, true, true}, {natural, true, false, true}, {natural, true, false, false},
		{fsmTopLine, true, false, false},
	}
	if fsmBottomLive(v, rel, phys, bottom) {
		// Where the operation is in the tree (or the local map), that
		// is kept before the heap's bars: the lines say the heap's
		// categories and the map's size.
		cands = append(cands, cand{fsmTopLines, true, false, false})
	}
	cands = append(cands,
		cand{natural, false, true, true}, cand{natural, false, false, true}, cand{natural, false, false, false},
		cand{fsmTopLine, false, false, false},
	)
	if resort >= fsmLastResort {
		cands = append(cands, cand{top: fsmTopLines})
	}
	// The bare plans (8) are the last candidates, the counters left out
	// in the first, the backends' line too in the second.
	bare := len(cands)
	if resort >= fsmBare {
		cands = append(cands, cand{top: fsmTopLines}, cand{top: fsmTopLines})
	}
	for i, c := range cands {
		tl, tp := topH(c.top)
		sc := fsmScene{top: c.top, bottom: bottom, showBottom: c.bottom, heapW: heapW, topH: tl}
		sc.lanesH, sc.cntH = lLeast, cLeast
		if c.lanes {
			sc.lanesH = lPref
		}
		if c.cpref {
			sc.cntH = cPref
		}
		if i >= bare {
			sc.noCounters, sc.cntH = true, 0
		}
		if i > bare {
			sc.noLanes, sc.lanesH = true, 0
		}
		if c.bottom {
			sc.bottomH = bLeast
			sc.steps = steps
		}
		extra := r.H - (sc.topH + sc.bottomH + sc.lanesH + sc.cntH)
		if extra < 0 && i < len(cands)-1 {
			continue
		}
		if extra < -0.5 {
			// Not even the least fits: the parts are laid out as they
			// are, overlapping, and that is recorded.
			sc.short = -extra
		}
		extra = max(extra, 0)
		if !c.bottom && !sc.noCounters {
			// No tree to give the room to: every backend and the
			// counters' rows first, where they fit now.
			if g := lPref - sc.lanesH; g > 0 && g <= extra {
				sc.lanesH, extra = lPref, extra-g
			}
			for _, h := range []float64{cPref, cCompact} {
				if g := h - sc.cntH; g > 0 && g <= extra {
					sc.cntH, extra = h, extra-g
					break
				}
			}
		}
		if c.top == fsmTopLines {
			// Nothing of the top grows: the rest is the tree's.
			sc.bottomH += extra
			return sc
		}
		// First two small lines to the heap's bars (the byte scale's
		// labels), then the tree up to all it would like (the counters
		// giving up their boxes for rows of numbers beside labels where
		// the tree would still be short), then the bars.
		g := min(extra, 2*t.slh, max(0, tp-tl))
		sc.topH += g
		extra -= g
		if c.bottom {
			if c.cpref && extra < bPref-bLeast {
				sc.cntH = cCompact
				extra += cPref - cCompact
			}
			g := min(extra, max(0, bPref-bLeast))
			sc.bottomH += g
			extra -= g
		}
		sc.topH += extra
		return sc
	}
	return fsmScene{}
}

// LayoutFSMScene lays out the whole FSM scene of relation rel in r: the
// heap and the FSM pages, then the tree of one FSM page (or, when the
// heap has no map, the local map or a note), the step-by-step column
// where the scene is wide, the backends and the counters. What it shows
// follows from the room it has and the type it gets (planFSMScene); each
// part fits its own rectangle with shorter forms of its words, fewer
// columns or rows, or elided depths. It costs one pass over the heap's
// pages, the FSM pages and the 13 levels of one page's tree, a few times
// over to plan.
func LayoutFSMScene(l *layout.List, r layout.Rect, v *fsmview.View, rel uint32, th *layout.Theme) {
	t := newFSMType(th)
	h, ok := v.Heap(rel)
	if !ok {
		l.TextForms("scene", []string{fmt.Sprintf("relation %d: no heap", rel), "no heap"}, t.face, layout.Rect{X: r.X + t.gap, Y: r.Y + t.gap, W: r.W - 2*t.gap, H: t.lh}, th.Muted, layout.Left)
		return
	}
	focus, hasFocus := FSMFocus(v, rel)
	local := v.Variant() == fsm.SmallSkip && (!h.FSMExists || hasFocus && focus.LocalMap.NBlocks > 0 || hasFocus && len(focus.Search.LocalChecks) > 0)
	phys, hasTree := FSMTreePage(v, rel)
	bottom := fsmBottomNote
	switch {
	case local:
		bottom = fsmBottomLocal
	case hasTree:
		bottom = fsmBottomTree
	}
	// A short, wide area lays the parts out side by side; so does one too
	// short for them one above the other where they fit side by side;
	// else, last, the heap and the FSM pages are a line each.
	land := fsmLandscapeFits(r, v, rel, t)
	if land && r.H < 16*t.lh && r.W >= 36*t.lh {
		layoutFSMLandscape(l, r, v, rel, t)
		return
	}
	sc := planFSMScene(r, v, rel, phys, bottom, fsmPlans, t)
	if sc.short > 0 && land {
		layoutFSMLandscape(l, r, v, rel, t)
		return
	}
	for _, resort := range []fsmResort{fsmLastResort, fsmBare} {
		if sc.short > 0 {
			sc = planFSMScene(r, v, rel, phys, bottom, resort, t)
		}
	}
	if sc.short > 0 {
		l.Overflows = append(l.Overflows, layout.Overflow{Role: "scene", Text: "the heap, the FSM pages, the backends and the counters", Axis: "h", Need: r.H + sc.short, Have: r.H})
	}
	pad := t.gap / 2
	y := r.Y
	top := layout.Rect{X: r.X, Y: y, W: r.W, H: sc.topH}
	y += sc.topH
	switch sc.top {
	case fsmTopSide:
		heapR, pagesR := top.SplitLeft(sc.heapW)
		LayoutHeap(l, heapR.Inset(pad), v, rel, th)
		LayoutFSMPages(l, pagesR.Inset(pad), v, rel, th)
	case fsmTopStacked:
		// Each its least, and the rest in proportion.
		hl, _ := fsmHeapHeight(v, rel, r.W-t.gap, t)
		pl, _ := fsmPagesHeight(v, rel, r.W-t.gap, t)
		hl, pl = hl+t.gap, pl+t.gap
		heapR, pagesR := top.SplitTop(hl + math.Floor(max(0, top.H-hl-pl)*hl/(hl+pl)))
		LayoutHeap(l, heapR.Inset(pad), v, rel, th)
		LayoutFSMPages(l, pagesR.Inset(pad), v, rel, th)
	case fsmTopLine:
		heapR, line := top.SplitBottom(t.blh + 2*t.gap)
		LayoutHeap(l, heapR.Inset(pad), v, rel, th)
		LayoutFSMPagesLine(l, line.Inset(t.gap), v, rel, th)
	default:
		heapLine, line := top.SplitTop(t.blh + 2*t.gap)
		LayoutHeapLine(l, heapLine.Inset(t.gap), v, rel, th)
		LayoutFSMPagesLine(l, line.Inset(t.gap), v, rel, th)
	}
	if sc.showBottom {
		bottomR := layout.Rect{X: r.X, Y: y, W: r.W, H: sc.bottomH}
		y += sc.bottomH
		left, steps := bottomR, layout.Rect{}
		if sc.steps {
			left, steps = bottomR.SplitLeft(math.Floor(bottomR.W * 0.7))
		}
		switch sc.bottom {
		case fsmBottomLocal:
			LayoutLocalMap(l, left.Inset(pad), v, rel, th)
		case fsmBottomTree:
			LayoutFSMTree(l, left.Inset(pad), v, rel, phys, th)
		default:
			in := fsmPanel(l, left.Inset(pad), []string{"the map's trees", "trees"}, t)
			forms := fsmNoteForms(h.Name)
			s := forms[0]
			if wrappedH(s, t.face, in.W) > in.H {
				s = forms[1]
			}
			for i, ln := range layout.Wrap(s, t.face, in.W) {
				ly := in.Y + float64(i)*t.lh
				fsmBelow(l, "tree note", ln, ly+t.lh, in)
				l.TextIn("tree note", ln, t.face, layout.Rect{X: in.X, Y: ly, W: in.W, H: t.lh}, th.Muted, layout.Left)
			}
		}
		if sc.steps {
			LayoutFSMSteps(l, steps.Inset(pad), v, rel, th)
		}
	}
	if !sc.noLanes {
		lanes := layout.Rect{X: r.X, Y: y + pad, W: r.W, H: sc.lanesH - pad}
		layoutFSMLanes(l, lanes, v, rel, t)
	}
	if sc.noCounters {
		return
	}
	// The counters: their rows, and any room the plan left over (where
	// there is no tree), in which more of them fit.
	y += sc.lanesH
	cnt := layout.Rect{X: r.X, Y: y, W: r.W, H: r.Y + r.H - y}
	LayoutFSMCounters(l, cnt, v, rel, th)
}

// fsmLandscapeHeapW is the heap's width side by side: 40% of the scene,
// more (up to 60%) to hold four columns.
func fsmLandscapeHeapW(r layout.Rect, v *fsmview.View, rel uint32, t *fsmType) float64 {
	hp := planFSMHeap(v, rel, r.W, t)
	heapMinW := t.gap + 4*t.gap + hp.gutterW + 4*hp.colMin
	return math.Floor(max(r.W*0.4, min(heapMinW, r.W*0.6)))
}

// fsmLandscapeFits reports whether the side-by-side layout fits r: the
// heap four columns wide (or all its pages) and its least height, and
// beside it a column of ten lines' width for the FSM pages' line, a
// backend and a row of counters.
func fsmLandscapeFits(r layout.Rect, v *fsmview.View, rel uint32, t *fsmType) bool {
	hp := planFSMHeap(v, rel, r.W, t)
	heapW := fsmLandscapeHeapW(r, v, rel, t)
	hl, _ := fsmHeapHeight(v, rel, heapW-t.gap, t)
	colH := t.blh + 2*t.gap + fsmLanesHeight(v, t, true) + t.counterRowH(false) + 2*t.gap
	return heapW-5*t.gap-hp.gutterW >= float64(min(max(hp.n, 1), 4))*hp.colMin && hl+t.gap <= r.H &&
		r.W-heapW >= 10*t.lh && colH <= r.H
}

// layoutFSMLandscape lays out the scene in a short, wide area (a phone
// held sideways, a projector's scene tab): the heap, the FSM pages (a
// panel where a column holds it, else a line), and a column of the
// backends over the counters, side by side; no tree (there is no room
// for its rows).
func layoutFSMLandscape(l *layout.List, r layout.Rect, v *fsmview.View, rel uint32, t *fsmType) {
	th := t.th
	pad, m := t.gap/2, t.gap
	heapW := fsmLandscapeHeapW(r, v, rel, t)
	heapR, rest := r.SplitLeft(heapW)
	LayoutHeap(l, heapR.Inset(pad), v, rel, th)
	pagesW := max(fsmPagesMinW(t)+m, math.Floor(r.W*0.3))
	pl, _ := fsmPagesHeight(v, rel, pagesW-m, t)
	col := rest
	if rest.W-pagesW >= 12*t.lh && pl+m <= r.H {
		var pagesR layout.Rect
		pagesR, col = rest.SplitLeft(pagesW)
		LayoutFSMPages(l, pagesR.Inset(pad), v, rel, th)
	} else {
		var line layout.Rect
		line, col = rest.SplitTop(t.blh + 2*t.gap)
		LayoutFSMPagesLine(l, line.Inset(t.gap), v, rel, th)
	}
	col = col.Inset(pad)
	lh := fsmLanesHeight(v, t, false)
	if lh > col.H/2 {
		lh = fsmLanesHeight(v, t, true)
	}
	lanes, cnt := col.SplitTop(lh)
	layoutFSMLanes(l, lanes, v, rel, t)
	LayoutFSMCounters(l, cnt, v, rel, th)
}
