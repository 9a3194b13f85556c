package scene

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/trace"
	"bufferlab/viz/fsmview"
	"bufferlab/viz/render"
)

// The FSM scene: how an insert finds a page (engine/fsm, drawn from a
// *fsmview.View). The heap's pages as bars of used and free space, with
// their category and what the map records for them; the three levels of
// FSM pages, with the pages a search read (in order) and those it did not
// read because the fork is missing or short; one FSM page's binary tree,
// zoomed to the slots in use, with the search path lit; in small-skip,
// the backend's local map with each page tried; and the pages each
// operation read. Every state has a label as well as a colour.

var (
	fsmLPFill     = color.RGBA{0xb8, 0xdc, 0xf2, 0xff} // header and line pointers: a light sky blue
	fsmTupleFill  = render.Blue                        // tuples
	fsmFreeFill   = color.RGBA{0xf4, 0xf4, 0xef, 0xff} // free space
	fsmReadFill   = color.RGBA{0xfb, 0xe3, 0xb0, 0xff} // a page or node read: a tint of the highlight orange
	fsmSkipFill   = color.RGBA{0xee, 0xee, 0xea, 0xff} // a page not read
	fsmWriteFill  = color.RGBA{0xf2, 0xd7, 0xe6, 0xff} // a node written: a tint of the dirty purple
	fsmNodeFill   = color.RGBA{0xff, 0xff, 0xff, 0xff}
	fsmStubFill   = color.RGBA{0xee, 0xee, 0xe8, 0xff}
	fsmAvailFill  = color.RGBA{0xcc, 0xec, 0xe1, 0xff} // a local map entry AVAIL: a tint of green
	fsmFocusFrame = render.Orange
)

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

// DrawFSMScene draws the whole FSM scene of relation rel into r: the heap
// and the FSM pages side by side, then the tree of one FSM page (or, when
// the heap has no map, the local map), the searches and the counters.
// Legible at 1280×800.
// fsmNarrowW is the width (at scale 1) under which DrawFSMScene lays
// itself out for a narrow area: one of two panes side by side at 1280
// pixels (about 400 wide), or the whole scene at 1280 in presentation
// mode's larger type.
const fsmNarrowW = 660

func DrawFSMScene(dst *ebiten.Image, r render.Rect, v *fsmview.View, rel uint32, th *render.Theme) {
	h, ok := v.Heap(rel)
	if !ok {
		render.Text(dst, fmt.Sprintf("relation %d: no heap", rel), th.Face(render.Regular, 14), r.X+8, r.Y+8, th.Muted, render.Left)
		return
	}
	// A narrow area (one of two panes side by side) leaves out the
	// column of the insert's steps (the lanes and the heap's badges say
	// where it is) and draws its counters on two rows.
	narrow := r.W < fsmNarrowW*th.Scale
	counterH := 74 * th.Scale
	if narrow {
		// Two rows of about six counters: each on one line where a box
		// has the room (DrawFSMCounters decides by the height it gets),
		// else the number above its label.
		counterH = 84 * th.Scale
		if r.W/6 >= 85*th.Scale {
			counterH = 2 * (render.LineHeight(th.Face(render.Bold, 13)) + 8)
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
		share = 0.62 // no tree to draw: the heap takes the room
	}
	top, bottom := rest.SplitTop(math.Floor(rest.H * share))
	heapShare := 0.56
	if narrow {
		heapShare = 0.48
	}
	heapR, pagesR := top.SplitLeft(math.Floor(top.W * heapShare))
	DrawHeap(dst, heapR.Inset(3), v, rel, th)
	DrawFSMPages(dst, pagesR.Inset(3), v, rel, th)
	left, steps := bottom.SplitLeft(math.Floor(bottom.W * 0.7))
	if narrow {
		left, steps = bottom, render.Rect{}
	}
	if local {
		DrawLocalMap(dst, left.Inset(3), v, rel, th)
	} else if phys, ok := FSMTreePage(v, rel); ok {
		DrawFSMTree(dst, left.Inset(3), v, rel, phys, th)
	} else {
		in := Panel(dst, left.Inset(3), "the map's trees", th)
		for i, l := range render.Wrap(fmt.Sprintf("%s has no free space map yet: it is made when something records free space (VACUUM, or an insert that finds its page full).", h.Name),
			th.Face(render.Regular, 13), in.W) {
			render.Text(dst, l, th.Face(render.Regular, 13), in.X, in.Y+4+float64(i)*18, th.Muted, render.Left)
		}
	}
	if !narrow {
		DrawFSMSteps(dst, steps.Inset(3), v, rel, th)
	}
	drawFSMLanes(dst, lanes.Inset(3), v, rel, th)
	DrawFSMCounters(dst, counters.Inset(3), v, rel, th)
}

// --- The heap ---

// DrawHeap draws relation rel's heap pages as bars: each page from the
// top (header and line pointers), free space, tuples from the bottom, as
// a heap page lays them out, with its free space, category and what the
// map records for it, the fillfactor line, and the pages the focused
// insert tried (in order, with their verdict) and each backend's cached
// target block.
func DrawHeap(dst *ebiten.Image, r render.Rect, v *fsmview.View, rel uint32, th *render.Theme) {
	h, _ := v.Heap(rel)
	title := fmt.Sprintf("heap %s: %s, fillfactor %d", h.Name, fsmPlural(int(h.NBlocks), "page"), h.FillFactor)
	if h.FillFactor == 0 {
		title = fmt.Sprintf("heap %s: %s", h.Name, fsmPlural(int(h.NBlocks), "page"))
	}
	in := Panel(dst, r, title, th)
	face := th.Face(render.Regular, 11)
	small := th.Face(render.Regular, 10)
	bold := th.Face(render.Bold, 11)
	lh := render.LineHeight(face)
	focus, hasFocus := FSMFocus(v, rel)
	// The legend on the last line.
	body, legend := in.SplitBottom(lh + 4)
	drawFSMLegend(dst, legend, th, []fsmLegendItem{
		{fsmLPFill, th.PanelEdge, "header + line pointers"}, {fsmFreeFill, th.PanelEdge, "free"},
		{fsmTupleFill, fsmTupleFill, "tuples"}, {th.Panel, th.Error, "fillfactor line"},
		{th.Panel, fsmFocusFrame, "tried"},
	})
	n := int(h.NBlocks)
	if n == 0 {
		render.Text(dst, "no pages yet: the first insert extends the heap", face, body.X+4, body.Y+8, th.Muted, render.Left)
		return
	}
	shown := min(n, 48)
	// Room above the bars for the tabs (tries, targets), below for labels.
	tabsH := 2 * (render.LineHeight(small) + 1)
	labH := 2*lh + 2
	bars := render.Rect{X: body.X + 30, Y: body.Y + tabsH + lh, W: body.W - 34, H: body.H - tabsH - lh - labH}
	colW := bars.W / float64(max(shown, 4))
	barW := min(colW*0.72, 70)
	// The byte scale at the left.
	for _, b := range []int{0, 4096, 8192} {
		y := bars.Y + bars.H*float64(b)/fsm.BLCKSZ
		render.Line(dst, bars.X-4, y, bars.X, y, 1, th.Muted)
		render.Text(dst, fmt.Sprintf("%dk", b/1024), small, bars.X-6, y-render.LineHeight(small)/2, th.Muted, render.Right)
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
		p := v.HeapPage(rel, uint32(blk))
		x := bars.X + float64(blk)*colW + (colW-barW)/2
		bar := render.Rect{X: x, Y: bars.Y, W: barW, H: bars.H}
		cx := x + barW/2
		// The block number: "blk 3", or the bare number in narrow
		// columns (every other one when even that does not fit).
		switch bl := fmt.Sprintf("blk %d", blk); {
		case render.TextWidth(bl, bold)+4 <= colW:
			render.Text(dst, bl, bold, cx, bars.Y-lh, th.Text, render.Center)
		case render.TextWidth(fmt.Sprint(blk), small)+2 <= colW || blk%2 == 0:
			render.Text(dst, fmt.Sprint(blk), small, cx, bars.Y-lh, th.Text, render.Center)
		}
		if p.Info.IsNew() {
			render.Fill(dst, bar, th.Panel)
			fsmDashed(dst, bar, th.PanelEdge)
			render.Text(dst, "new", face, cx, bar.Y+bar.H/2-lh, th.Muted, render.Center)
			render.Text(dst, "(zeroes)", small, cx, bar.Y+bar.H/2, th.Muted, render.Center)
		} else {
			yb := func(off int) float64 { return bar.Y + bar.H*float64(off)/fsm.BLCKSZ }
			lower, upper := int(p.Info.Lower), int(p.Info.Upper)
			render.Fill(dst, render.Rect{X: x, Y: bar.Y, W: barW, H: yb(lower) - bar.Y}, fsmLPFill)
			render.Fill(dst, render.Rect{X: x, Y: yb(lower), W: barW, H: yb(upper) - yb(lower)}, fsmFreeFill)
			render.Fill(dst, render.Rect{X: x, Y: yb(upper), W: barW, H: bar.Y + bar.H - yb(upper)}, fsmTupleFill)
			render.Stroke(dst, bar, 1, th.PanelEdge)
			// The fillfactor line: tuples may not grow past it.
			if save > 0 && lower+save < upper+int(bar.H) {
				y := yb(min(lower+save, fsm.BLCKSZ))
				for xx := x; xx < x+barW; xx += 6 {
					render.Line(dst, xx, y, min(xx+3, x+barW), y, 2, th.Error)
				}
			}
			// Free space, written in the free area (or on the tuples).
			free := fmt.Sprintf("%d B", p.Free)
			fy := (yb(lower) + yb(upper)) / 2
			if yb(upper)-yb(lower) < lh {
				fy = yb(upper) + render.LineHeight(small)/2 + 2
				if p.Info.AllVisible {
					fy = max(fy, bar.Y+2*render.LineHeight(small)+2) // below the AV badge
				}
			}
			if render.TextWidth(free, small) > barW {
				free = fmt.Sprint(p.Free)
			}
			if render.TextWidth(free, small) > barW+2 {
				free = ""
			}
			tc := th.Text
			if yb(upper)-yb(lower) < lh {
				tc = render.TextOn(fsmTupleFill)
			}
			render.Text(dst, free, small, cx, fy-render.LineHeight(small)/2, tc, render.Center)
			// Tuples: live (dead).
			tl := fmt.Sprintf("%d tup", p.Info.Live)
			if p.Info.Deleted > 0 {
				tl += fmt.Sprintf(" +%d dead", p.Info.Deleted)
			}
			if bar.Y+bar.H-yb(upper) > 2*render.LineHeight(small) && render.TextWidth(tl, small) < barW {
				render.Text(dst, tl, small, cx, bar.Y+bar.H-render.LineHeight(small)-2, render.TextOn(fsmTupleFill), render.Center)
			}
			if p.Info.AllVisible {
				fsmBadge(dst, x+1, bar.Y+1, "AV", th.Locked, small)
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
				render.Text(dst, "cat", small, bars.X-6, bars.Y+bars.H+2, th.Muted, render.Right)
				render.Text(dst, "map", small, bars.X-6, bars.Y+bars.H+2+render.LineHeight(small), th.Muted, render.Right)
			}
		}
		if render.TextWidth(cat, small) > colW && blk%2 == 1 {
			cat, mapTxt = "", ""
		}
		render.Text(dst, cat, small, cx, bars.Y+bars.H+2, th.Text, render.Center)
		render.Text(dst, mapTxt, small, cx, bars.Y+bars.H+2+render.LineHeight(small), col, render.Center)
		// Tabs above: the focused insert's tries, then targets.
		ty := body.Y
		for _, i := range tries[uint32(blk)] {
			t := focus.Search.Tries[i]
			lbl, c := fsmTryLabel(t, th)
			lbl = fmt.Sprintf("%s %s", ordinal(i+1), lbl)
			if render.TextWidth(lbl, small)+4 > colW {
				lbl = fmt.Sprintf("#%d %s", i+1, strings.Fields(lbl)[1])
			}
			fsmBadgeCentered(dst, cx, ty, lbl, c, small)
			render.Stroke(dst, render.Rect{X: x - 2, Y: bar.Y - 2, W: barW + 4, H: bar.H + 4}, 3, c)
			ty += render.LineHeight(small) + 1
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
			if render.TextWidth(lbl, small)+4 > colW {
				lbl = "→" + strings.Join(targets, ",")
			}
			fsmBadgeCentered(dst, cx, ty, lbl, th.Accent, small)
		}
	}
	if n > shown {
		render.Text(dst, fmt.Sprintf("… %d more pages", n-shown), face, body.X+body.W-4, body.Y, th.Muted, render.Right)
	}
}

func fsmTryLabel(t fsmview.Try, th *render.Theme) (string, color.RGBA) {
	switch t.Verdict {
	case fsmview.TryFull:
		return "full", th.Error
	case fsmview.TryUsed:
		return "fits", th.Good
	}
	return "try", fsmFocusFrame
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

// --- The tree of FSM pages ---

// DrawFSMPages draws relation rel's FSM pages in their three levels (the
// root page, level 1, the leaf pages), each with its physical block, its
// root value and fp_next_slot; the pages the focused search read, in
// order, and those it skipped (not read: past the fork's end).
func DrawFSMPages(dst *ebiten.Image, r render.Rect, v *fsmview.View, rel uint32, th *render.Theme) {
	h, _ := v.Heap(rel)
	title := fmt.Sprintf("free space map of %s: %d pages (%d kB)", h.Name, h.FSMBlocks, h.FSMBlocks*fsm.BLCKSZ/1024)
	if !h.FSMExists {
		title = fmt.Sprintf("free space map of %s: no fork", h.Name)
	}
	in := Panel(dst, r, title, th)
	face := th.Face(render.Regular, 11)
	small := th.Face(render.Regular, 10)
	bold := th.Face(render.Bold, 12)
	lh := render.LineHeight(face)
	focus, hasFocus := FSMFocus(v, rel)
	// Which pages the focused operation read or skipped, numbered in order
	// (the last search's, when there was one).
	order := map[uint32]int{}
	skipped := map[uint32]bool{}
	if hasFocus {
		vis := focus.Search.Visits
		if len(focus.Search.Current()) > 0 {
			vis = focus.Search.Current()
		}
		for i, vi := range vis {
			if _, seen := order[vi.Phys]; !seen {
				order[vi.Phys] = i + 1
			}
			if vi.Skipped {
				skipped[vi.Phys] = true
			}
		}
	}
	body, legend := in.SplitBottom(lh + 4)
	drawFSMLegend(dst, legend, th, []fsmLegendItem{
		{fsmReadFill, fsmFocusFrame, "read by the search (order)"}, {fsmSkipFill, th.Muted, "not read: no such page"},
	})
	// The pages: those in the fork, and the ones the search skipped (which
	// the fork does not have), by level.
	type pg struct {
		phys   uint32
		exists bool
	}
	var levels [fsm.FSMTreeDepth][]pg
	for _, p := range v.FSMPages(rel) {
		levels[p.Addr.Level] = append(levels[p.Addr.Level], pg{p.Phys, true})
	}
	for phys := range skipped {
		if phys >= h.FSMBlocks {
			a := fsm.AddressOf(phys)
			levels[a.Level] = append(levels[a.Level], pg{phys, false})
		}
	}
	// The first page of each level, where a small heap's map has its
	// three pages, drawn even when the fork does not reach them.
	for l := 0; l < fsm.FSMTreeDepth; l++ {
		phys := fsm.Address{Level: l}.Physical()
		if phys >= h.FSMBlocks && !skipped[phys] {
			levels[l] = append(levels[l], pg{phys, false})
		}
	}
	rowH := body.H / 3
	labW := 74.0
	if body.W < 260 {
		labW = 52
	}
	// fit writes the first of the texts that fits the box, else the last
	// one cut.
	fit := func(w float64, face *text.GoTextFace, texts ...string) string {
		for _, t := range texts {
			if render.TextWidth(t, face) <= w {
				return t
			}
		}
		return render.Fit(texts[len(texts)-1], face, w)
	}
	for row := 0; row < fsm.FSMTreeDepth; row++ {
		level := fsm.FSMRootLevel - row
		ry := body.Y + float64(row)*rowH
		name := []string{"leaves", "level 1", "root"}[level]
		render.Text(dst, name, bold, body.X+2, ry+rowH/2-lh, th.Text, render.Left)
		render.Text(dst, fmt.Sprintf("level %d", level), small, body.X+2, ry+rowH/2, th.Muted, render.Left)
		pages := levels[level]
		sortPg := func(i, j int) bool { return pages[i].phys < pages[j].phys }
		for i := 1; i < len(pages); i++ {
			for j := i; j > 0 && sortPg(j, j-1); j-- {
				pages[j], pages[j-1] = pages[j-1], pages[j]
			}
		}
		maxShown := 5
		bw := min(150.0, (body.W-labW-8)/float64(min(max(len(pages), 1), maxShown))-8)
		for i, p := range pages {
			if i == maxShown {
				render.Text(dst, fmt.Sprintf("+%d", len(pages)-maxShown), face, body.X+labW+float64(i)*(bw+8), ry+rowH/2-lh/2, th.Muted, render.Left)
				break
			}
			box := render.Rect{X: body.X + labW + float64(i)*(bw+8), Y: ry + 4, W: bw, H: rowH - 10}
			a := fsm.AddressOf(p.phys)
			k, read := order[p.phys]
			switch {
			case !p.exists:
				render.Fill(dst, box, fsmSkipFill)
				fsmDashed(dst, box, th.Muted)
				render.Text(dst, fit(box.W-10, face, fmt.Sprintf("block %d (%s)", p.phys, a), fmt.Sprintf("block %d", p.phys)), face, box.X+6, box.Y+3, th.Muted, render.Left)
				msg, short := "not in the fork", "no page"
				if skipped[p.phys] {
					msg, short = "NOT READ: skipped", "NOT READ"
				}
				if box.H >= 2*lh+4 {
					render.Text(dst, fit(box.W-10, bold, msg, short), bold, box.X+6, box.Y+3+lh, th.Muted, render.Left)
				}
			default:
				fp, _ := v.FSMPage(rel, p.phys)
				fill := th.Panel
				if read && !skipped[p.phys] {
					fill = fsmReadFill
				}
				render.Fill(dst, box, fill)
				render.Stroke(dst, box, 1, th.PanelEdge)
				render.Text(dst, fit(box.W-10, bold, fmt.Sprintf("block %d · %s", p.phys, a), fmt.Sprintf("block %d", p.phys)), bold, box.X+6, box.Y+3, th.Text, render.Left)
				if box.H >= 2*lh+4 {
					render.Text(dst, fit(box.W-10, face, fmt.Sprintf("root %d  (≥ %d B)", fp.Root, fsm.CatToAvail(fp.Root)), fmt.Sprintf("root %d", fp.Root)), face, box.X+6, box.Y+3+lh+1, th.Text, render.Left)
				}
				if box.H > 3*lh+4 {
					render.Text(dst, fit(box.W-10, small, fmt.Sprintf("fp_next_slot %d", fp.NextSlot), fmt.Sprintf("next %d", fp.NextSlot)), small, box.X+6, box.Y+3+2*lh+1, th.Muted, render.Left)
				}
			}
			if read {
				render.Stroke(dst, box.Inset(-1), 3, fsmFocusFrame)
				fsmBadge(dst, box.X+box.W-22, box.Y-6, fmt.Sprintf("#%d", k), fsmFocusFrame, small)
			}
		}
		if len(pages) == 0 {
			render.Text(dst, "—", face, body.X+labW, ry+rowH/2-lh/2, th.Muted, render.Left)
		}
		// The link from each level to the next: the slots of a page
		// describe the pages below.
		if row < fsm.FSMTreeDepth-1 && len(pages) > 0 {
			x := body.X + labW + min(150.0, bw)/2
			render.Line(dst, x, ry+rowH-6, x, ry+rowH+4, 1.5, th.PanelEdge)
		}
	}
}

// --- One FSM page's tree ---

// fsmTreeLeaves is the most leaves the zoomed window of a tree shows.
const fsmTreeLeaves = 32

// DrawFSMTree draws FSM block phys of relation rel as its binary tree:
// 13 levels of 8164 nodes cannot all be drawn, so it draws the root and,
// level by level, the chain of nodes down to a window of at most 32
// leaves around the slots in use and the search path, whole; each chain
// node's other child stands for the slots it covers, with their maximum.
// The focused search's path is lit in order: nodes read (≥ the category
// wanted, or below it), nodes written; fp_next_slot is marked.
func DrawFSMTree(dst *ebiten.Image, r render.Rect, v *fsmview.View, rel, phys uint32, th *render.Theme) {
	h, _ := v.Heap(rel)
	fp, ok := v.FSMPage(rel, phys)
	a := fsm.AddressOf(phys)
	focus, hasFocus := FSMFocus(v, rel)
	var path []fsmview.Step
	if hasFocus && focus.Search.HasPath && focus.Search.PathRel == rel && focus.Search.PathPage == phys {
		path = focus.Search.Path
	}
	title := fmt.Sprintf("FSM block %d (%s) of %s: a binary max-tree of 8164 one-byte nodes in 13 levels", phys, a, h.Name)
	if len(path) > 0 {
		if path[0].Write {
			title += " · fsm_set_avail's path lit"
		} else {
			title += fmt.Sprintf(" · search for category ≥ %d lit", path[0].Want)
		}
	}
	in := Panel(dst, r, title, th)
	if !ok {
		render.Text(dst, "the fork does not reach this page", th.Face(render.Regular, 12), in.X, in.Y, th.Muted, render.Left)
		return
	}
	nodes, _ := v.Nodes(rel, phys)
	small := th.Face(render.Regular, 10)
	face := th.Face(render.Regular, 11)
	bold := th.Face(render.Bold, 11)
	lh := render.LineHeight(face)
	body, legend := in.SplitBottom(lh + 4)
	drawFSMLegend(dst, legend, th, []fsmLegendItem{
		{fsmReadFill, th.Good, "read: enough"}, {fsmReadFill, th.Error, "read: too little"},
		{fsmWriteFill, th.Dirty, "written"}, {fsmStubFill, th.PanelEdge, "the other slots (their max)"},
	})

	// The window: the smallest aligned run of leaves (2 to 32) holding
	// the slots in use, fp_next_slot and the path's leaves; with more in
	// use, the 32 around the path's end (or fp_next_slot).
	used := []int{int(max(fp.NextSlot, 0))}
	for _, st := range path {
		if st.Node >= fsm.NonLeafNodesPerPage {
			used = append(used, st.Node-fsm.NonLeafNodesPerPage)
		}
	}
	hi := 0
	for s := 0; s < fsm.SlotsPerFSMPage; s++ {
		if nodes[fsm.NonLeafNodesPerPage+s] != 0 {
			hi = max(hi, s)
		}
	}
	for _, u := range used {
		hi = max(hi, u)
	}
	// A leaf page's slots up to the heap's last block; an upper page's up
	// to its last child page.
	if a.Level == fsm.FSMBottomLevel {
		if first := uint64(a.LogPageNo) * fsm.SlotsPerFSMPage; uint64(h.NBlocks) > first {
			hi = max(hi, int(min(uint64(h.NBlocks)-1-first, fsm.SlotsPerFSMPage-1)))
		}
	}
	k := 2
	for 1<<k <= hi && k < 5 {
		k++
	}
	lo := 0
	if hi >= fsmTreeLeaves {
		centre := used[len(used)-1]
		if len(path) > 0 && path[len(path)-1].Node >= fsm.NonLeafNodesPerPage {
			centre = path[len(path)-1].Node - fsm.NonLeafNodesPerPage
		}
		lo = centre &^ (fsmTreeLeaves - 1)
	}
	winLevel := 12 - k // the level of the window's root
	first := func(d int) int { return 1<<d - 1 }
	winRoot := first(winLevel) + lo>>k
	// The chain from the root down to the window's root.
	chain := make([]int, winLevel+1)
	for d, n := winLevel, winRoot; d >= 0; d-- {
		chain[d] = n
		n = (n - 1) / 2
	}
	stepOf := map[int]int{} // node → index in path (the last visit)
	for i, st := range path {
		stepOf[st.Node] = i
	}

	labW := 66.0
	slotH := render.LineHeight(small) + 2 // the slot labels under the leaves
	rowH := (body.H - slotH) / 13
	nodeH := min(rowH-4, 22)
	area := render.Rect{X: body.X + labW, Y: body.Y, W: body.W - labW - 4, H: body.H - slotH}
	// The window: at most 64 px a leaf, centred under the chain.
	chainX := area.X + area.W/2
	winW := min(area.W, float64(int(1)<<k)*64)
	winL := chainX - winW/2
	winLeafW := winW / float64(int(1)<<k)
	nodeW := min(46, winLeafW-4)
	yOf := func(d int) float64 { return area.Y + float64(d)*rowH + (rowH-nodeH)/2 }
	// The chain runs down the middle; the other children to the side
	// (left of the chain when the chain goes right).
	winX := func(d, i int) float64 { // the centre of node i (0-based in the window) at level d
		w := winW / float64(int(1)<<(d-winLevel))
		return winL + (float64(i)+0.5)*w
	}
	// Where the rows are shorter than a label, only every second inner
	// depth is labelled (the root and the leaves always are).
	every := 1
	if rowH < render.LineHeight(small) {
		every = 2
	}
	for d := 0; d <= 12; d++ {
		if d%every != 0 && d != 12 {
			continue
		}
		lbl := fmt.Sprintf("depth %d", d)
		switch d {
		case 0:
			lbl = "root"
		case 12:
			lbl = "leaves"
			what := "(heap blocks)"
			if a.Level > fsm.FSMBottomLevel {
				what = "(child pages)"
			}
			render.Text(dst, what, small, body.X+2, yOf(d)+nodeH, th.Muted, render.Left)
		}
		render.Text(dst, lbl, small, body.X+2, yOf(d)+(nodeH-render.LineHeight(small))/2, th.Muted, render.Left)
	}
	drawNode := func(n int, cx, y float64, w float64, stub bool) {
		box := render.Rect{X: cx - w/2, Y: y, W: w, H: nodeH}
		if n >= fsm.NodesPerPage {
			fsmDashed(dst, box, th.PanelEdge)
			render.Text(dst, "—", small, cx, y+(nodeH-render.LineHeight(small))/2, th.Muted, render.Center)
			return
		}
		fill, edge, ew := fsmNodeFill, th.PanelEdge, 1.0
		if stub {
			fill = fsmStubFill
		}
		i, lit := stepOf[n]
		if lit {
			st := path[i]
			switch {
			case st.Write:
				fill, edge, ew = fsmWriteFill, th.Dirty, 2.5
			case st.Qualifies():
				fill, edge, ew = fsmReadFill, th.Good, 2.5
			default:
				fill, edge, ew = fsmReadFill, th.Error, 2.5
			}
		}
		render.Fill(dst, box, fill)
		render.Stroke(dst, box, ew, edge)
		txt := fmt.Sprint(nodes[n])
		if lit && path[i].Write && w > 40 {
			txt = fmt.Sprintf("%d→%d", path[i].Old, path[i].Value)
		}
		f := face
		if render.TextWidth(txt, f) > w-2 {
			f = small
		}
		render.Text(dst, txt, f, cx, y+(nodeH-render.LineHeight(f))/2, render.TextOn(fill), render.Center)
		if lit {
			fsmBadge(dst, box.X+box.W-4, box.Y-5, fmt.Sprint(i+1), edge, th.Face(render.Bold, 8.5))
		}
	}
	// The chain (levels 0 .. winLevel-1) with the other child of each,
	// 150 px to the side, or less where the area is narrow (a pane), so
	// that the child and its slot range stay inside.
	side := min(150, max(nodeW+4, area.W/2-nodeW/2-8-render.TextWidth("slots 2048–4068", small)))
	for d := 0; d < winLevel; d++ {
		n := chain[d]
		next := chain[d+1]
		other := 2*n + 1
		if next == other {
			other = 2*n + 2
		}
		y := yOf(d)
		render.Line(dst, chainX, y+nodeH, chainX, yOf(d+1), 1.5, th.PanelEdge)
		ox := chainX + side
		if other < next {
			ox = chainX - side
		}
		render.Line(dst, chainX, y+nodeH/2, ox, yOf(d+1)+nodeH/2, 1, th.PanelEdge)
		drawNode(n, chainX, y, nodeW, false)
		// The other child: the slots it covers, and their maximum.
		span := 1 << (12 - (d + 1))
		firstSlot := (other - first(d+1)) * span
		lastSlot := min(firstSlot+span, fsm.SlotsPerFSMPage) - 1
		sx := ox
		drawNode(other, sx, yOf(d+1), nodeW, true)
		if firstSlot < fsm.SlotsPerFSMPage {
			lbl := fmt.Sprintf("slots %d–%d", firstSlot, lastSlot)
			al, lx := render.Left, sx+nodeW/2+4
			if other < next {
				al, lx = render.Right, sx-nodeW/2-4
			}
			render.Text(dst, lbl, small, lx, yOf(d+1)+(nodeH-render.LineHeight(small))/2, th.Muted, al)
		}
	}
	// The window, whole.
	for d := winLevel; d <= 12; d++ {
		cnt := 1 << (d - winLevel)
		w := min(nodeW, area.W/float64(cnt)-4)
		for i := 0; i < cnt; i++ {
			n := first(d) + (winRoot-first(winLevel))<<(d-winLevel) + i
			cx := winX(d, i)
			if d < 12 {
				// Lines to the children.
				for c := 0; c < 2; c++ {
					ccx := winX(d+1, 2*i+c)
					render.Line(dst, cx, yOf(d)+nodeH, ccx, yOf(d+1), 1, th.PanelEdge)
				}
			}
			drawNode(n, cx, yOf(d), w, false)
		}
	}
	// Under the leaves: slot numbers and what they stand for.
	leafY := yOf(12) + nodeH + 1
	for i := 0; i < 1<<k; i++ {
		slot := lo + i
		cx := winX(12, i)
		lbl := fmt.Sprintf("s%d", slot)
		if a.Level == fsm.FSMBottomLevel && slot < fsm.SlotsPerFSMPage {
			lbl = fmt.Sprintf("blk %d", fsm.HeapBlock(a, uint16(slot)))
		} else if slot < fsm.SlotsPerFSMPage {
			lbl = fmt.Sprintf("pg %d", a.Child(uint16(slot)).Physical())
		}
		if render.TextWidth(lbl, small) > winLeafW {
			lbl = fmt.Sprint(slot)
		}
		if slot == int(fp.NextSlot) {
			// fp_next_slot: where the next search starts, under the leaf.
			lbl = "next: " + lbl
			if render.TextWidth(lbl, small) > winLeafW {
				lbl = "next"
			}
			fsmBadgeCentered(dst, cx, leafY, lbl, th.Accent, small)
			continue
		}
		render.Text(dst, lbl, small, cx, leafY, th.Muted, render.Center)
	}
	// The path as words, beside the chain on the side without the other
	// children's stubs, above the window.
	if len(path) > 0 {
		right := 0
		for d := 0; d < winLevel; d++ {
			if chain[d+1] == 2*chain[d]+1 {
				right++ // the other child is the right one
			}
		}
		box := render.Rect{X: area.X + 4, Y: area.Y, W: chainX - nodeW/2 - 16 - area.X, H: yOf(winLevel) - area.Y - 4}
		if right < winLevel-right {
			box.X = chainX + nodeW/2 + 16
			box.W = area.X + area.W - box.X
		}
		var steps []string
		for i, st := range path {
			what := st.Site.String()
			if j := strings.IndexByte(what, '.'); j >= 0 {
				what = what[j+1:]
			}
			if st.Write {
				steps = append(steps, fmt.Sprintf("%d. %s: node %d %d → %d", i+1, what, st.Node, st.Old, st.Value))
				continue
			}
			op := "<"
			if st.Qualifies() {
				op = "≥"
			}
			steps = append(steps, fmt.Sprintf("%d. %s: node %d = %d %s %d", i+1, what, st.Node, st.Value, op, st.Want))
		}
		if focus.Search.NextMoved {
			steps = append(steps, fmt.Sprintf("fp_next_slot %d → %d", focus.Search.NextFrom, focus.Search.NextTo))
		}
		slh := render.LineHeight(small)
		cols := max(1, int(box.W/150))
		colW := box.W / float64(cols)
		perCol := max(1, int(box.H/slh))
		for i, l := range steps {
			c, row := i/perCol, i%perCol
			if c >= cols {
				break
			}
			render.Text(dst, l, small, box.X+float64(c)*colW, box.Y+float64(row)*slh, th.Text, render.Left)
		}
		_ = bold
	}
}

// --- The local map (small-skip) ---

// DrawLocalMap draws, for the small-skip variant, the focused backend's
// local map of relation rel (each block AVAIL or NOT_AVAIL, the entries
// fsm_local_search looked at, in order), each heap page the insert tried
// with its verdict, and the FSM pages not read because there is no map.
func DrawLocalMap(dst *ebiten.Image, r render.Rect, v *fsmview.View, rel uint32, th *render.Theme) {
	h, _ := v.Heap(rel)
	focus, hasFocus := FSMFocus(v, rel)
	title := fmt.Sprintf("small-skip (PG 12 devel, reverted): no map while %s has ≤ %d pages; a backend-local map instead", h.Name, v.Threshold())
	in := Panel(dst, r, title, th)
	face := th.Face(render.Regular, 12)
	small := th.Face(render.Regular, 10.5)
	bold := th.Face(render.Bold, 12)
	lh := render.LineHeight(face)
	y := in.Y + 2
	if !hasFocus {
		render.Text(dst, "no backend has worked on this heap yet", face, in.X, y, th.Muted, render.Left)
		return
	}
	s := focus.Search
	lm := focus.LocalMap
	// The map: one box per block of the heap size it was built for (or
	// the heap's, greyed, when no map is set).
	n := int(lm.NBlocks)
	head := fmt.Sprintf("local map of %s", focus.Name)
	building := n == 0 && len(lm.Entries) > 0
	switch {
	case building:
		head += ": being built (fsm_local_set): every other block from the last is AVAIL"
		n = int(min(h.NBlocks, uint32(v.Threshold())))
	case n == 0:
		head += ": not set (it is cleared as soon as a page is found, after an extension, on abort)"
		n = int(min(h.NBlocks, uint32(v.Threshold())))
	default:
		head += fmt.Sprintf(" for %s: every other block from the last is AVAIL (worth trying)", fsmPlural(n, "block"))
	}
	render.Text(dst, head, bold, in.X, y, th.Text, render.Left)
	y += lh + 14
	checked := map[uint32]int{}
	for i, c := range s.LocalChecks {
		checked[c.Block] = i + 1
	}
	boxW := min(140, (in.W-8)/float64(max(n, 4))-8)
	boxH := 3*lh + 12
	for b := 0; b < n; b++ {
		box := render.Rect{X: in.X + float64(b)*(boxW+8), Y: y, W: boxW, H: boxH}
		avail := b < len(lm.Entries) && lm.Entries[b] == 1
		fill, lbl := th.Panel, "NOT_AVAIL"
		if avail {
			fill, lbl = fsmAvailFill, "AVAIL"
		}
		if lm.NBlocks == 0 && !building {
			fill, lbl = fsmSkipFill, "—"
		}
		render.Fill(dst, box, fill)
		render.Stroke(dst, box, 1, th.PanelEdge)
		render.Text(dst, fmt.Sprintf("blk %d", b), bold, box.X+box.W/2, box.Y+3, th.Text, render.Center)
		render.Text(dst, lbl, small, box.X+box.W/2, box.Y+4+lh, th.Text, render.Center)
		if k, ok := checked[uint32(b)]; ok {
			render.Stroke(dst, box.Inset(-1), 3, fsmFocusFrame)
			fsmBadge(dst, box.X+box.W-26, box.Y-8, fmt.Sprintf("look %d", k), fsmFocusFrame, small)
		}
	}
	y += boxH + 14
	// The pages tried, in order.
	render.Text(dst, "pages tried by "+focus.Name+":", bold, in.X, y, th.Text, render.Left)
	x := in.X + render.TextWidth("pages tried by "+focus.Name+":", bold) + 10
	if len(s.Tries) == 0 {
		render.Text(dst, "none yet", face, x, y, th.Muted, render.Left)
	}
	for i, t := range s.Tries {
		lbl, c := fsmTryLabel(t, th)
		txt := fmt.Sprintf("%s: blk %d %s", ordinal(i+1), t.Block, lbl)
		if t.Free >= 0 {
			txt += fmt.Sprintf(" (%d B free, wants %d)", t.Free, t.Want)
		}
		w := render.TextWidth(txt, small) + 8
		if x+w > in.X+in.W {
			break
		}
		render.Fill(dst, render.Rect{X: x, Y: y, W: w, H: lh}, c)
		render.Text(dst, txt, small, x+4, y+1, render.TextOn(c), render.Left)
		x += w + 6
	}
	y += lh + 12
	// The FSM pages not read.
	var skipped []string
	for _, vi := range s.Visits {
		if vi.Skipped {
			skipped = append(skipped, fmt.Sprintf("block %d (%s)", vi.Phys, vi.Addr()))
		}
	}
	line := "FSM pages not read by this operation: none"
	if len(skipped) > 0 {
		line = fmt.Sprintf("FSM pages not read by this operation (no fork): %s", strings.Join(skipped, ", "))
	}
	render.Text(dst, line, face, in.X, y, th.Text, render.Left)
	y += lh + 4
	reads := s.Reads
	render.Text(dst, fmt.Sprintf("this operation read %d heap, %d FSM and %d visibility map pages (buffer accesses)",
		reads[bufmgr.MainForkNum], reads[bufmgr.FSMForkNum], reads[bufmgr.VMForkNum]), face, in.X, y, th.Text, render.Left)
	y += lh + 4
	if y+2*lh < in.Y+in.H {
		for i, l := range render.Wrap("The patch was reverted before PostgreSQL 12 shipped: the map was per backend and reset after every successful lookup; a per-relation map in the relcache would have been better (Andres Freund).", small, in.W-8) {
			render.Text(dst, l, small, in.X, y+float64(i)*render.LineHeight(small), th.Muted, render.Left)
		}
	}
}

// --- The focused operation, step by step ---

// DrawFSMSteps writes the focused backend's operation on relation rel as
// a list of what it looked at: the cached target block, the FSM pages of
// its last map search (read or not), the local map entries, the heap
// pages tried with their free space and verdict, the extension, the
// result and the pages it read.
func DrawFSMSteps(dst *ebiten.Image, r render.Rect, v *fsmview.View, rel uint32, th *render.Theme) {
	focus, ok := FSMFocus(v, rel)
	title := "the operation, step by step"
	if ok {
		title = fmt.Sprintf("%s's %s, step by step", focus.Name, focus.Search.Op)
	}
	in := Panel(dst, r, title, th)
	face := th.Face(render.Regular, 11.5)
	bold := th.Face(render.Bold, 11.5)
	lh := render.LineHeight(face)
	if !ok {
		render.Text(dst, "no operation on this heap yet", face, in.X, in.Y, th.Muted, render.Left)
		return
	}
	s := focus.Search
	type line struct {
		txt  string
		col  color.RGBA
		head bool
	}
	var lines []line
	add := func(c color.RGBA, format string, args ...any) {
		lines = append(lines, line{fmt.Sprintf(format, args...), c, false})
	}
	head := func(format string, args ...any) {
		lines = append(lines, line{fmt.Sprintf(format, args...), th.Text, true})
	}
	if s.TupleLen > 0 {
		head("a %d B tuple", s.TupleLen)
	}
	if s.Want > 0 {
		// The request rounds up to a category (fsm_space_needed_to_cat), so
		// a page recorded one category lower does not qualify although it
		// has room for the row itself: the fillfactor reserve is the gap.
		if cat, err := fsm.SpaceNeededToCat(s.Want); err == nil {
			add(th.Text, "wants %d B = cat ≥ %d", s.Want, cat)
		} else {
			add(th.Text, "wants %d B free", s.Want)
		}
		// 8016 B is hio.c's nearlyEmptyFreeSpace, which replaces the
		// reserve when the tuple and the reserve together exceed it.
		if s.TupleLen > 0 && s.Want > alignedTuple(s.TupleLen) && s.Want != 8016 {
			add(th.Muted, "(the tuple + %d B fillfactor reserve)", s.Want-alignedTuple(s.TupleLen))
		}
	}
	if s.Op == fsmview.OpInsert || s.Op == fsmview.OpGetBuffer {
		if s.Cached == fsm.InvalidBlockNumber {
			add(th.Text, "cached target block: none")
		} else {
			add(th.Text, "cached target block: %d (no map search)", s.Cached)
		}
	}
	if s.Op == fsmview.OpVacuum && s.VacBlock != fsm.InvalidBlockNumber {
		add(th.Text, "heap block %d: prune, record its free space", s.VacBlock)
	}
	searching := s.MinCat > 0
	if cur := s.Current(); !searching && len(cur) > 0 {
		// Not a search: the FSM pages read to record free space (VACUUM,
		// RecordPageWithFreeSpace), consecutive repeats counted.
		head("FSM pages read (to record free space):")
		for i := 0; i < len(cur); {
			j := i
			for j < len(cur) && cur[j] == cur[i] {
				j++
			}
			vi := cur[i]
			txt := fmt.Sprintf("FSM block %d (%s)", vi.Phys, vi.Addr())
			if vi.Skipped {
				txt += ": NOT READ, no such page"
			}
			if j-i > 1 {
				txt += fmt.Sprintf(" ×%d", j-i)
			}
			add(th.Text, "%s", txt)
			i = j
		}
	}
	if cur := s.Current(); searching {
		head("the map, for category ≥ %d (%d B):", s.MinCat, fsm.CatToAvail(s.MinCat))
		for i, vi := range cur {
			switch {
			case vi.Skipped:
				add(th.Muted, "%d. FSM block %d (%s): NOT READ, no such page", i+1, vi.Phys, vi.Addr())
			case vi.Slot >= 0:
				add(th.Text, "%d. FSM block %d (%s): slot %d", i+1, vi.Phys, vi.Addr(), vi.Slot)
			case vi.Slot == -1:
				add(th.Error, "%d. FSM block %d (%s): nothing", i+1, vi.Phys, vi.Addr())
			default:
				add(th.Text, "%d. FSM block %d (%s): read", i+1, vi.Phys, vi.Addr())
			}
		}
		inProgress := len(cur) > 0 && cur[len(cur)-1].Slot == fsmview.NotSearched && !cur[len(cur)-1].Skipped ||
			len(cur) > 0 && cur[len(cur)-1].Slot >= 0 && cur[len(cur)-1].Addr().Level > fsm.FSMBottomLevel
		switch {
		case s.Found != fsm.InvalidBlockNumber:
			add(th.Good, "→ heap block %d", s.Found)
		case inProgress && s.Phase == fsmview.PhaseFSM:
			add(th.Muted, "… searching")
		case len(cur) > 0:
			add(th.Muted, "→ no block from the map")
		}
		if s.Restarts > 0 {
			add(th.Error, "%d restart(s): a stale upper slot fixed", s.Restarts)
		}
	}
	if len(s.LocalChecks) > 0 {
		head("the local map (no FSM):")
		for _, c := range s.LocalChecks {
			if c.Avail {
				add(th.Good, "blk %d AVAIL: try it", c.Block)
			} else {
				add(th.Muted, "blk %d NOT_AVAIL", c.Block)
			}
		}
	}
	if len(s.Tries) > 0 {
		head("heap pages tried:")
		for i, t := range s.Tries {
			lbl, c := fsmTryLabel(t, th)
			txt := fmt.Sprintf("%s: blk %d", ordinal(i+1), t.Block)
			if t.Free >= 0 {
				op := "<"
				if t.Free >= t.Want {
					op = "≥"
				}
				txt += fmt.Sprintf(" has %d B %s %d", t.Free, op, t.Want)
			}
			if t.Init {
				txt += " (new page)"
			}
			add(c, "%s: %s", txt, lbl)
		}
	}
	if s.Extended {
		add(th.Accent, "extended the heap by one page")
	}
	switch s.Phase {
	case fsmview.PhaseDone:
		if s.Result != fsm.InvalidBlockNumber {
			add(th.Good, "done: block %d", s.Result)
		} else {
			add(th.Muted, "done")
		}
	case fsmview.PhaseError:
		add(th.Error, "ERROR %d", s.Err)
	}
	head("read: %d heap, %d FSM, %d VM pages", s.Reads[bufmgr.MainForkNum], s.Reads[bufmgr.FSMForkNum], s.Reads[bufmgr.VMForkNum])
	y := in.Y
	for i, l := range lines {
		if y+lh > in.Y+in.H {
			render.Text(dst, fmt.Sprintf("… %d more", len(lines)-i), face, in.X, y-lh, th.Muted, render.Right)
			break
		}
		f, x := face, in.X+10
		if l.head {
			f, x = bold, in.X
		}
		txt := render.Fit(l.txt, f, in.W-(x-in.X))
		render.Text(dst, txt, f, x, y, l.col, render.Left)
		y += lh + 1
	}
}

// --- Searches and counters ---

func fsmLanesHeight(v *fsmview.View, th *render.Theme) float64 {
	n := 0
	for a := 1; a < v.NumLanes(); a++ {
		if v.Lane(trace.Actor(a)).HasLast {
			n++
		}
	}
	return (float64(min(max(n, 1), 4))*17 + 22) * th.Scale
}

// drawFSMLanes writes one line per backend: its operation and where it is.
func drawFSMLanes(dst *ebiten.Image, r render.Rect, v *fsmview.View, rel uint32, th *render.Theme) {
	face := th.Face(render.Regular, 12)
	lh := render.LineHeight(face)
	render.Text(dst, "backends", th.Face(render.Bold, 11), r.X+4, r.Y+2, th.Muted, render.Left)
	y := r.Y + lh + 4
	cur, hasCur := v.Current()
	shown := 0
	for a := 1; a < v.NumLanes() && shown < 4; a++ {
		ln := v.Lane(trace.Actor(a))
		if !ln.HasLast {
			continue
		}
		shown++
		row := render.Rect{X: r.X, Y: y, W: r.W, H: lh + 2}
		if hasCur && cur.Actor == ln.Actor {
			render.Fill(dst, row, highlightFill)
		}
		col := th.Muted
		if ln.Search.Active() {
			col = th.Highlight
		}
		drawActorChip(dst, render.Rect{X: row.X + 4, Y: row.Y + 1, W: 46, H: lh}, ln.Name, col, th)
		txt := v.Text(ln.Search)
		c := th.Text
		if ln.Search.Phase == fsmview.PhaseError {
			c = th.Error
		}
		render.Text(dst, txt, face, row.X+58, row.Y, c, render.Left)
		y += lh + 3
	}
	if shown == 0 {
		render.Text(dst, "no backend has run yet", face, r.X+58, y, th.Muted, render.Left)
	}
}

// DrawFSMCounters draws what reading pages cost: for the focused
// operation, the heap, FSM and visibility map pages it read; for all,
// the reads per insert, the pages tried, the extensions, the FSM pages
// skipped and the searches.
func DrawFSMCounters(dst *ebiten.Image, r render.Rect, v *fsmview.View, rel uint32, th *render.Theme) {
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
	small := th.Face(render.Regular, 10.5)
	big := th.Face(render.Bold, 16)
	if rows > 1 {
		big = th.Face(render.Bold, 13)
	}
	for i, it := range items {
		b := render.Rect{X: r.X + float64(i%perRow)*w, Y: r.Y + float64(i/perRow)*rh, W: w - 4, H: rh - 2}
		fill := th.Panel
		if it.op {
			fill = highlightFill
		}
		render.Fill(dst, b, fill)
		render.Stroke(dst, b, 1, th.PanelEdge)
		if rows > 1 && rh < render.LineHeight(big)+render.LineHeight(small)+6 {
			// One line per box: the number, then the label.
			y := b.Y + (b.H-render.LineHeight(big))/2
			vw := render.TextWidth(it.v, big)
			render.Text(dst, it.v, big, b.X+4, y, th.Text, render.Left)
			room := b.W - vw - 12
			lbl := it.label
			if render.TextWidth(lbl, small) > room {
				lbl = render.Fit(it.short, small, room)
			}
			render.Text(dst, lbl, small, b.X+vw+8, y+2, th.Muted, render.Left)
			continue
		}
		if rows > 1 {
			render.Text(dst, it.v, big, b.X+b.W/2, b.Y+2, th.Text, render.Center)
			lbl := it.label
			if render.TextWidth(lbl, small) > b.W-4 {
				lbl = render.Fit(it.short, small, b.W-4)
			}
			render.Text(dst, lbl, small, b.X+b.W/2, b.Y+b.H-render.LineHeight(small)-1, th.Muted, render.Center)
			continue
		}
		render.Text(dst, it.v, big, b.X+b.W/2, b.Y+4, th.Text, render.Center)
		for j, l := range render.Wrap(it.label, small, b.W-4) {
			if j == 2 {
				break
			}
			render.Text(dst, l, small, b.X+b.W/2, b.Y+b.H-float64(2-j)*render.LineHeight(small)-3, th.Muted, render.Center)
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

func drawFSMLegend(dst *ebiten.Image, r render.Rect, th *render.Theme, items []fsmLegendItem) {
	face := th.Face(render.Regular, 10.5)
	x := r.X + 2
	y := r.Y + 2
	for _, it := range items {
		w := 16 + render.TextWidth(it.label, face) + 12
		if x+w > r.X+r.W {
			break
		}
		box := render.Rect{X: x, Y: y + 2, W: 11, H: 11}
		render.Fill(dst, box, it.fill)
		render.Stroke(dst, box, 2, it.edge)
		render.Text(dst, it.label, face, x+15, y, th.Text, render.Left)
		x += w
	}
}

// fsmBadge draws a small label on a filled box with its top-left at (x, y).
func fsmBadge(dst *ebiten.Image, x, y float64, lbl string, c color.RGBA, face *text.GoTextFace) {
	w := render.TextWidth(lbl, face) + 6
	render.Fill(dst, render.Rect{X: x, Y: y, W: w, H: render.LineHeight(face)}, c)
	render.Text(dst, lbl, face, x+3, y, render.TextOn(c), render.Left)
}

// fsmBadgeCentered draws a badge centred on x.
func fsmBadgeCentered(dst *ebiten.Image, cx, y float64, lbl string, c color.RGBA, face *text.GoTextFace) {
	w := render.TextWidth(lbl, face) + 6
	fsmBadge(dst, cx-w/2, y, lbl, c, face)
}

// fsmDashed draws a dashed outline.
func fsmDashed(dst *ebiten.Image, r render.Rect, c color.RGBA) {
	const dash, gap = 5.0, 4.0
	for x := r.X; x < r.X+r.W; x += dash + gap {
		e := min(x+dash, r.X+r.W)
		render.Line(dst, x, r.Y, e, r.Y, 1.5, c)
		render.Line(dst, x, r.Y+r.H, e, r.Y+r.H, 1.5, c)
	}
	for y := r.Y; y < r.Y+r.H; y += dash + gap {
		e := min(y+dash, r.Y+r.H)
		render.Line(dst, r.X, y, r.X, e, 1.5, c)
		render.Line(dst, r.X+r.W, y, r.X+r.W, e, 1.5, c)
	}
}

// alignedTuple is MAXALIGN(len) on a 64-bit server: what
// RelationGetBufferForTuple adds the fillfactor reserve to.
func alignedTuple(n int) int { return (n + 7) &^ 7 }
