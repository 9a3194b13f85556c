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
// small shared pieces: legend, badges, dashed outlines).

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

// fsmNarrowW is the width (at scale 1) under which LayoutFSMScene lays
// itself out for a narrow area: one of two panes side by side at 1280
// pixels (about 400 wide), or the whole scene at 1280 in presentation
// mode's larger type.
const fsmNarrowW = 660

// LayoutFSMScene lays out the whole FSM scene of relation rel in r: the
// heap and the FSM pages side by side, then the tree of one FSM page (or,
// when the heap has no map, the local map), the searches and the
// counters. Legible at 1280×800. It costs one pass over the heap's pages
// (at most 48 drawn), the FSM pages and the 13 levels of one page's tree.
func LayoutFSMScene(l *layout.List, r layout.Rect, v *fsmview.View, rel uint32, th *layout.Theme) {
	h, ok := v.Heap(rel)
	if !ok {
		l.Text("scene", fmt.Sprintf("relation %d: no heap", rel), th.Font(layout.Regular, 14), r.X+8, r.Y+8, r.W-8, th.Muted, layout.Left)
		return
	}
	// A narrow area (one of two panes side by side) leaves out the
	// column of the insert's steps (the lanes and the heap's badges say
	// where it is) and lays its counters out on two rows.
	narrow := r.W < fsmNarrowW*th.Scale
	counterH := 74 * th.Scale
	if narrow {
		// Two rows of about six counters: each on one line where a box
		// has the room (LayoutFSMCounters decides by the height it gets),
		// else the number above its label.
		counterH = 84 * th.Scale
		if r.W/6 >= 85*th.Scale {
			counterH = 2 * (layout.LineHeight(th.Font(layout.Bold, 13)) + 8)
		}
	}
	rest, counters := r.SplitBottom(counterH)
	rest, lanes := rest.SplitBottom(fsmLanesHeight(v, th))
	focus, hasFocus := FSMFocus(v, rel)
	local := v.Variant() == fsm.SmallSkip && (!h.FSMExists || hasFocus && focus.LocalMap.NBlocks > 0 || hasFocus && len(focus.Search.LocalChecks) > 0)
	_, hasTree := FSMTreePage(v, rel)
	share := 0.42
	if narrow {
		share = 0.5 // the tree has the whole width: give the heap more height
	}
	if !local && !hasTree {
		share = 0.62 // no tree to lay out: the heap takes the room
	}
	top, bottom := rest.SplitTop(math.Floor(rest.H * share))
	heapShare := 0.56
	if narrow {
		heapShare = 0.48
	}
	heapR, pagesR := top.SplitLeft(math.Floor(top.W * heapShare))
	LayoutHeap(l, heapR.Inset(3), v, rel, th)
	LayoutFSMPages(l, pagesR.Inset(3), v, rel, th)
	left, steps := bottom.SplitLeft(math.Floor(bottom.W * 0.7))
	if narrow {
		left, steps = bottom, layout.Rect{}
	}
	if local {
		LayoutLocalMap(l, left.Inset(3), v, rel, th)
	} else if phys, ok := FSMTreePage(v, rel); ok {
		LayoutFSMTree(l, left.Inset(3), v, rel, phys, th)
	} else {
		in := LayoutPanel(l, left.Inset(3), "the map's trees", th)
		f := th.Font(layout.Regular, 13)
		for i, s := range layout.Wrap(fmt.Sprintf("%s has no free space map yet: it is made when something records free space (VACUUM, or an insert that finds its page full).", h.Name), f, in.W) {
			y := in.Y + 4 + float64(i)*18
			fsmBelow(l, "tree note", s, y+layout.LineHeight(f), in)
			l.Text("tree note", s, f, in.X, y, in.W, th.Muted, layout.Left)
		}
	}
	if !narrow {
		LayoutFSMSteps(l, steps.Inset(3), v, rel, th)
	}
	layoutFSMLanes(l, lanes.Inset(3), v, rel, th)
	LayoutFSMCounters(l, counters.Inset(3), v, rel, th)
}
