package scene

import (
	"fmt"
	"math/bits"
	"strings"

	"bufferlab/engine/fsm"
	"bufferlab/engine/runs"
	"bufferlab/engine/trace"
	"bufferlab/viz/fsmview"
	"bufferlab/viz/layout"
)

// fsmTreeDepths is the number of depths of an FSM page's tree: 0 (the
// root) to 12 (the leaves), fsmpage.c's 8164 nodes.
const fsmTreeDepths = 13

// FSMTreeDepthRole is the role of the node boxes (and their values and
// badges) at depth d (0 the root, 12 the leaves) of LayoutFSMTree.
func FSMTreeDepthRole(d int) string { return fmt.Sprintf("tree depth %d", d) }

// FSMTreeElidedRole is the role of the row that stands for the depths
// LayoutFSMTree does not draw, where its panel is shorter than 13 rows.
const FSMTreeElidedRole = "tree elided"

// fsmTreeRowMin is the least height of a row of the tree: a node box a
// line of its values high, and a gap for the links.
func fsmTreeRowMin(t *fsmType) float64 { return t.slh + t.gap }

// fsmTreeRowMax is the most height of a row: a node box half as high
// again as its value, and a gap above and below.
func fsmTreeRowMax(t *fsmType) float64 { return 1.5*t.slh + 2*t.gap }

// fsmTreeHeight is the least height the tree panel needs in width w (the
// root, the row that stands for the depths not drawn, the leaves and
// their parents: four rows) and the height it would like (13 rows a
// little taller than the least).
func fsmTreeHeight(v *fsmview.View, rel, phys uint32, w float64, t *fsmType) (least, pref float64) {
	lg := planFSMLegend(fsmTreeLegendItems(fsmTreePath(v, rel, phys), len(fsmTrailNodes(v, rel, phys)) > 0, t), w-4*t.gap, t)
	fixed := t.chrome() + lg.h + t.gap + t.slh + t.gap
	return fixed + 4*fsmTreeRowMin(t), fixed + fsmTreeDepths*fsmTreeRowMax(t)
}

// fsmTreePath is the path the tree of FSM block phys lights: the focused
// search's, when it is on that page.
func fsmTreePath(v *fsmview.View, rel, phys uint32) []fsmview.Step {
	if f, ok := FSMFocus(v, rel); ok && f.Search.HasPath && f.Search.PathRel == rel && f.Search.PathPage == phys {
		return f.Search.Path
	}
	return nil
}

// fsmTrailNodes are the nodes of FSM block phys of rel on a trail shown
// (fsmview.View.TrailShown): every node the operation read or wrote, in
// every path, whoever's. Cost: a walk of each shown trail (256 nodes at
// most each).
func fsmTrailNodes(v *fsmview.View, rel, phys uint32) map[int]bool {
	out := map[int]bool{}
	for a := 1; a < v.NumLanes(); a++ {
		if !v.TrailShown(trace.Actor(a)) {
			continue
		}
		for tn := v.Lane(trace.Actor(a)).Search.Trail; tn != nil; tn = tn.Prev {
			if tn.Rel == rel && tn.Page == phys {
				out[tn.Node] = true
			}
		}
	}
	return out
}

// fsmTreeLegendItems are the marks the tree's legend explains: the path's
// nodes by what happened to them (only those on the path), the trail's
// frame when the page has nodes on a trail, and the other children beside
// the chain.
func fsmTreeLegendItems(path []fsmview.Step, trail bool, t *fsmType) []fsmLegendItem {
	th := t.th
	var read, short, written bool
	for _, st := range path {
		switch {
		case st.Write:
			written = true
		case st.Qualifies():
			read = true
		default:
			short = true
		}
	}
	var items []fsmLegendItem
	if read {
		items = append(items, fsmLegendItem{th.FSM.Read, th.Good, []string{"read: enough", "enough"}})
	}
	if short {
		items = append(items, fsmLegendItem{th.FSM.Read, th.Error, []string{"read: too little", "too little"}})
	}
	if written {
		items = append(items, fsmLegendItem{th.FSM.Written, th.Dirty, []string{"written (#order)", "written"}})
	}
	if trail {
		items = append(items, fsmLegendItem{th.FSM.Node, th.Trail.Mark, []string{"trail"}})
	}
	return append(items, fsmLegendItem{th.FSM.Stub, th.PanelEdge, []string{"the other slots (their max)", "other slots (max)"}})
}

// fsmTreeTitles are the tree panel's title forms, longest first.
func fsmTreeTitles(phys uint32, a fsm.Address, heap string, path []fsmview.Step) []string {
	lit, litShort := "", ""
	if len(path) > 0 {
		if path[0].Write {
			lit, litShort = " · fsm_set_avail's path lit", " · fsm_set_avail lit"
		} else {
			lit = fmt.Sprintf(" · search for category ≥ %d lit", path[0].Want)
			litShort = fmt.Sprintf(" · search for ≥ %d", path[0].Want)
		}
	}
	page := fmt.Sprintf("FSM block %d (%s)", phys, a)
	return []string{
		fmt.Sprintf("%s of %s: a binary max-tree of 8164 one-byte nodes in 13 levels%s", page, heap, lit),
		fmt.Sprintf("%s: a max-tree of 8164 nodes in 13 levels%s", page, litShort),
		page + ": 13-level max-tree" + litShort,
		page + litShort,
		page,
		fmt.Sprintf("FSM block %d", phys),
	}
}

// fsmRanges writes sorted numbers as ranges: "3–5, 9".
func fsmRanges(ns []int) string {
	var parts []string
	for i, j := range runs.Of(len(ns), func(k int) bool { return ns[k] == ns[k-1]+1 }) {
		if j > i {
			parts = append(parts, fmt.Sprintf("%d–%d", ns[i], ns[j]))
		} else {
			parts = append(parts, fmt.Sprint(ns[i]))
		}
	}
	return strings.Join(parts, ", ")
}

// LayoutFSMTree lays out FSM block phys of relation rel as its binary
// tree (fsmpage.c's FSMPageData.fp_nodes): 13 levels of 8164 nodes cannot
// all be shown, so it lays out the root and, level by level, the chain of
// nodes down to a window of leaves (2 to 32, as many as the width holds)
// around the slots in use and the search path, whole; each chain node's
// other child stands for the slots it covers, with their maximum. The
// focused search's path (fsm_search_avail, fsm_set_avail) is lit in
// order: nodes read (≥ the category wanted, or below it), nodes written,
// each with its step's number; fp_next_slot is marked. Every node drawn
// that a trail shown holds (read or written by the operation, on this
// path or an earlier one) is framed in yellow.
//
// Where the panel has fewer rows than 13 (a row holds a node's value),
// the depths under the root down to the window's parents are not drawn:
// one row, of role FSMTreeElidedRole, stands for them and says which
// steps of the path are there. The path as words is laid out beside the
// chain when it fits there whole; else the steps' numbers on the nodes
// carry the order.
//
// Invariant: every depth 0..12 has node boxes of role FSMTreeDepthRole(d)
// or is named by the elided row; a node box that falls outside the panel
// is recorded as an overflow of its depth's role.
func LayoutFSMTree(l *layout.List, r layout.Rect, v *fsmview.View, rel, phys uint32, th *layout.Theme) {
	t := newFSMType(th)
	h, _ := v.Heap(rel)
	fp, ok := v.FSMPage(rel, phys)
	a := fsm.AddressOf(phys)
	focus, _ := FSMFocus(v, rel)
	path := fsmTreePath(v, rel, phys)
	trail := fsmTrailNodes(v, rel, phys)
	in := fsmPanel(l, r, fsmTreeTitles(phys, a, h.Name, path), t)
	if !ok {
		layoutWrapped(l, "tree note", "the fork does not reach this page", t.face, in, th.Muted)
		return
	}
	nodes, _ := v.Nodes(rel, phys)
	small := t.small
	slh := t.slh
	lg := planFSMLegend(fsmTreeLegendItems(path, len(trail) > 0, t), in.W, t)
	body, legendR := in.SplitBottom(lg.h + t.gap)

	slotH := slh + t.gap // the slot labels under the leaves
	// The epsilon keeps a body planned at exactly n rows from counting
	// n-1 when the division rounds down (fsmTreeHeight's least height).
	rows := int((body.H-slotH)/fsmTreeRowMin(t) + 1e-9)
	if rows < 4 {
		// Too short for the root, the elided row and two depths: nothing
		// of the tree is drawn, and that is recorded.
		l.Overflows = append(l.Overflows, layout.Overflow{Role: FSMTreeElidedRole, Text: "13 levels", Axis: "h", Need: 4*fsmTreeRowMin(t) + slotH, Have: body.H})
		return
	}
	// The depths drawn: all 13, or the root and the bottom rows-2 (the
	// elided row between them).
	bottom := min(rows, fsmTreeDepths)
	firstBottom := 0
	if rows < fsmTreeDepths {
		bottom = rows - 2
		firstBottom = fsmTreeDepths - bottom
	}
	drawn := func(d int) bool { return d == 0 || d >= firstBottom }
	rowH := min((body.H-slotH)/float64(rows), fsmTreeRowMax(t))
	nodeH := max(slh, rowH-2*t.gap)
	rowY := func(i int) float64 { return body.Y + float64(i)*rowH + (rowH-nodeH)/2 }
	yOf := func(d int) float64 {
		if firstBottom == 0 {
			return rowY(d)
		}
		if d == 0 {
			return rowY(0)
		}
		return rowY(2 + d - firstBottom)
	}

	// Widths: a node holds a value ("254", "0→254" where it can), with
	// its step's badge to its right; the rows' names at the left where
	// the panel is wide enough.
	nodeMin := layout.Width("254", small) + 2*t.gap
	bw := 0.0
	if len(path) > 0 {
		bw = badgeW(fmt.Sprint(len(path)), t.badge) + t.gap/2
	}
	leafMin := nodeMin + bw + t.gap
	labW := 0.0
	for _, s := range []string{"root", "depth 12", "leaves", "…"} {
		labW = max(labW, layout.Width(s, small))
	}
	labW += t.gap
	if body.W-labW < 4*leafMin {
		labW = 0 // the title says 13 levels; the shape shows root and leaves
	}
	area := layout.Rect{X: body.X + labW, Y: body.Y, W: body.W - labW, H: body.H - slotH}

	// The window: the smallest aligned run of leaves holding the slots in
	// use, fp_next_slot and the path's leaves (at most as many as the
	// width and the rows below the chain hold); with more in use, the run
	// around the path's end (or fp_next_slot).
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
	kMax := 1
	for kMax < 5 && float64(int(1)<<(kMax+1))*leafMin <= area.W && kMax+2 <= bottom {
		kMax++
	}
	k := 2
	for 1<<k <= hi && k < 5 {
		k++
	}
	k = min(k, kMax)
	lo := 0
	if hi >= 1<<k {
		centre := used[len(used)-1]
		if len(path) > 0 && path[len(path)-1].Node >= fsm.NonLeafNodesPerPage {
			centre = path[len(path)-1].Node - fsm.NonLeafNodesPerPage
		}
		lo = centre &^ (1<<k - 1)
	}
	leaves := 1 << k
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
	chainX := area.X + area.W/2
	winW := min(area.W, float64(leaves)*max(leafMin, 5*t.lh))
	winL := chainX - winW/2
	winLeafW := winW / float64(leaves)
	// Wide enough for a write's old and new values where the window's
	// leaves are.
	nodeW := nodeMin
	for _, st := range path {
		if !st.Write {
			continue
		}
		if w := layout.Width(fmt.Sprintf("%d→%d", st.Old, st.Value), small) + 2*t.gap; w+bw+t.gap <= winLeafW {
			nodeW = max(nodeW, w)
		}
	}
	winX := func(d, i int) float64 { // the centre of node i (0-based in the window) at level d
		w := winW / float64(int(1)<<(d-winLevel))
		return winL + (float64(i)+0.5)*w
	}

	// The rows' names.
	if labW > 0 {
		lbl := func(s string, y float64) {
			l.TextIn("tree labels", s, small, layout.Rect{X: body.X, Y: y, W: labW, H: slh}, th.Muted, layout.Left)
		}
		for d := 0; d < fsmTreeDepths; d++ {
			if !drawn(d) {
				continue
			}
			s := fmt.Sprintf("depth %d", d)
			switch d {
			case 0:
				s = "root"
			case 12:
				s = "leaves"
			}
			lbl(s, yOf(d))
		}
		if firstBottom > 0 {
			lbl("…", rowY(1))
		}
	}
	// node lays out node n centred on cx at y, w wide, with its step's
	// badge at its left (badgeLeft) or right.
	node := func(n int, cx, y float64, w float64, stub, badgeLeft bool) {
		depth := bits.Len(uint(n+1)) - 1
		role := FSMTreeDepthRole(depth)
		box := layout.Rect{X: cx - w/2, Y: y, W: w, H: nodeH}
		fsmOutside(l, role, fmt.Sprintf("node %d", n), box, in)
		if n >= fsm.NodesPerPage {
			// Past the page's last node: the tree's shape has the
			// place, the page has no byte for it.
			layoutFSMDashed(l, role, box, th)
			l.TextIn(role, "—", small, box, th.Muted, layout.Center)
			return
		}
		l.AddHit(HitFSMNode, n, [2]uint32{rel, phys}, box) // its tooltip
		fill, edge, ew := th.FSM.Node, th.PanelEdge, 1.0
		if stub {
			fill = th.FSM.Stub
		}
		i, lit := stepOf[n]
		if lit {
			st := path[i]
			switch {
			case st.Write:
				fill, edge, ew = th.FSM.Written, th.Dirty, 2.5
			case st.Qualifies():
				fill, edge, ew = th.FSM.Read, th.Good, 2.5
			default:
				fill, edge, ew = th.FSM.Read, th.Error, 2.5
			}
		}
		l.Fill(role, box, fill)
		l.Stroke(role, box, ew, edge)
		if trail[n] {
			// On the trail: a yellow frame around the box, on a thin
			// dark line, as the pool's cells and the SLRU's slots show
			// theirs.
			l.Stroke(role+" trail", box.Inset(-ew/2-1.5), 2.5, th.Trail.Mark)
			l.Stroke(role+" trail", box.Inset(-ew/2-3.25), 1, th.Trail.Edge)
		}
		forms := []string{fmt.Sprint(nodes[n])}
		if lit && path[i].Write {
			// The old value where the box holds it; the fill says written.
			forms = []string{fmt.Sprintf("%d→%d", path[i].Old, path[i].Value), fmt.Sprint(path[i].Value)}
		}
		l.TextForms(role, forms, small, box, layout.TextOn(fill), layout.Center)
		if lit {
			lbl := fmt.Sprint(i + 1)
			bx := box.X + box.W + t.gap/2
			if badgeLeft {
				bx = box.X - t.gap/2 - badgeW(lbl, t.badge)
			}
			layoutFSMBadge(l, role, bx, y+(nodeH-t.badgeH)/2, lbl, edge, t.badge, 0)
		}
	}
	// The chain (levels 0 .. winLevel-1 that are drawn) with the other
	// child of each, to the side (left of the chain when the chain goes
	// right), clear of the chain's nodes, with room beyond it for its
	// badge and, where the panel is wide, its slot range. A chain node's
	// badge is on the side away from its sibling, a child's on the side
	// away from the chain.
	side := min(8*t.lh, max(nodeW+2*t.gap, area.W/2-nodeW/2-bw-t.gap-layout.Width("2048–4068", small)))
	side = min(side, area.W/2-nodeW/2-bw)
	type slotLabel struct {
		forms []string
		box   layout.Rect
		al    layout.Align
	}
	var slotLabels []slotLabel
	sibLeft := func(d int) bool { // the chain node at depth d has its sibling at its left
		return d > 0 && chain[d] == 2*chain[d-1]+2
	}
	for d := 0; d < winLevel; d++ {
		if !drawn(d) {
			continue
		}
		n := chain[d]
		next := chain[d+1]
		y := yOf(d)
		if drawn(d + 1) {
			l.Line("tree links", chainX, y+nodeH, chainX, yOf(d+1), 1.5, th.PanelEdge)
		} else {
			// Down through the depths not drawn: dashed.
			y1 := yOf(firstBottom)
			for yy := y + nodeH; yy < y1; yy += th.Px(8) {
				l.Line(FSMTreeElidedRole, chainX, yy, chainX, min(yy+th.Px(4), y1), 1.5, th.PanelEdge)
			}
		}
		node(n, chainX, y, nodeW, false, !sibLeft(d) && d > 0)
		if !drawn(d + 1) {
			continue
		}
		// The other child: the slots it covers, and their maximum.
		other := 2*n + 1
		if next == other {
			other = 2*n + 2
		}
		ox := chainX + side
		if other < next {
			ox = chainX - side
		}
		l.Line("tree links", chainX, y+nodeH/2, ox, yOf(d+1)+nodeH/2, 1, th.PanelEdge)
		node(other, ox, yOf(d+1), nodeW, true, other < next)
		span := 1 << (12 - (d + 1))
		firstSlot := (other - first(d+1)) * span
		lastSlot := min(firstSlot+span, fsm.SlotsPerFSMPage) - 1
		if firstSlot < fsm.SlotsPerFSMPage {
			// Beside the child, past its badge: the legend says what
			// the range is where it does not fit.
			forms := []string{fmt.Sprintf("slots %d–%d", firstSlot, lastSlot), fmt.Sprintf("%d–%d", firstSlot, lastSlot), ""}
			x0 := ox + nodeW/2 + bw + t.gap
			box := layout.Rect{X: x0, Y: yOf(d + 1), W: area.X + area.W - x0, H: slh}
			al := layout.Left
			if other < next {
				x1 := ox - nodeW/2 - bw - t.gap
				box, al = layout.Rect{X: area.X, Y: yOf(d + 1), W: x1 - area.X, H: slh}, layout.Right
			}
			slotLabels = append(slotLabels, slotLabel{forms, box, al})
		}
	}
	// The ranges in one form, the longest that every one fits.
	for k := 0; k < 3 && len(slotLabels) > 0; k++ {
		fit := true
		for _, sl := range slotLabels {
			fit = fit && layout.Width(sl.forms[k], small) <= sl.box.W+0.5
		}
		if !fit {
			continue
		}
		for _, sl := range slotLabels {
			if sl.forms[k] != "" {
				l.TextIn("tree slots", sl.forms[k], small, sl.box, th.Muted, sl.al)
			}
		}
		break
	}
	// The window, whole.
	for d := winLevel; d <= 12; d++ {
		cnt := 1 << (d - winLevel)
		w := min(nodeW, winW/float64(cnt)-bw-t.gap)
		for i := 0; i < cnt; i++ {
			n := first(d) + (winRoot-first(winLevel))<<(d-winLevel) + i
			cx := winX(d, i)
			if d < 12 {
				for c := 0; c < 2; c++ {
					l.Line("tree links", cx, yOf(d)+nodeH, winX(d+1, 2*i+c), yOf(d+1), 1, th.PanelEdge)
				}
			}
			node(n, cx, yOf(d), w, false, d == winLevel && !sibLeft(d))
		}
	}
	// Under the leaves: slot numbers and what they stand for; fp_next_slot
	// (where the next search starts) as a badge; then the legend, at the
	// panel's foot at most.
	leafY := yOf(12) + nodeH + t.gap/2
	lg.layout(l, "tree legend", layout.Rect{X: legendR.X, Y: min(legendR.Y, leafY+slh) + t.gap, W: legendR.W, H: lg.h}, t)
	for i := 0; i < leaves; i++ {
		slot := lo + i
		cx := winX(12, i)
		forms := []string{fmt.Sprintf("s%d", slot), fmt.Sprint(slot)}
		if a.Level == fsm.FSMBottomLevel && slot < fsm.SlotsPerFSMPage {
			b := fsm.HeapBlock(a, uint16(slot))
			forms = []string{fmt.Sprintf("blk %d", b), fmt.Sprint(b)}
		} else if slot < fsm.SlotsPerFSMPage {
			c := a.Child(uint16(slot)).Physical()
			forms = []string{fmt.Sprintf("pg %d", c), fmt.Sprint(c)}
		}
		box := layout.Rect{X: cx - winLeafW/2, Y: leafY, W: winLeafW, H: slh}
		if slot == int(fp.NextSlot) {
			// Under its leaf, "next" alone says which.
			badgeForms(l, "tree next", cx, leafY, []string{"next: " + forms[0], "next"}, th.Accent, small, winLeafW)
			continue
		}
		l.TextForms("tree slot", forms, small, box, th.Muted, layout.Center)
	}
	// The sides of the chain with no other child drawn: the path's words
	// go on one, the elided row's words on the other.
	left, right := 0, 0
	for d := 0; d < winLevel; d++ {
		if !drawn(d) || !drawn(d+1) {
			continue
		}
		if chain[d+1] == 2*chain[d]+1 {
			right++
		} else {
			left++
		}
	}
	wordsSide := 0 // -1 left, 1 right, 0 none
	switch {
	case len(path) == 0:
	case left == 0:
		wordsSide = -1
	case right == 0:
		wordsSide = 1
	}
	leftBox := layout.Rect{X: area.X, W: chainX - nodeW/2 - bw - 2*t.gap - area.X}
	x0 := chainX + nodeW/2 + bw + 2*t.gap
	rightBox := layout.Rect{X: x0, W: area.X + area.W - x0}
	// The row that stands for the depths not drawn, beside the dashed
	// chain: which depths, and the path's steps there.
	if firstBottom > 0 {
		var steps []int
		for i, st := range path {
			if d := bits.Len(uint(st.Node+1)) - 1; d > 0 && d < firstBottom {
				steps = append(steps, i+1)
			}
		}
		span := fmt.Sprintf("depths 1–%d", firstBottom-1)
		forms := []string{span + " not drawn", span, fmt.Sprintf("1–%d", firstBottom-1)}
		if len(steps) > 0 {
			forms = append([]string{fmt.Sprintf("%s not drawn (path steps %s)", span, fsmRanges(steps))}, forms...)
		}
		// No node on this row: the words may come up to the dashed line.
		box := layout.Rect{X: chainX + t.gap, W: area.X + area.W - chainX - t.gap}
		al := layout.Left
		if wordsSide == 1 || wordsSide == 0 && chainX-area.X > box.W {
			box, al = layout.Rect{X: area.X, W: chainX - t.gap - area.X}, layout.Right
		}
		box.Y, box.H = rowY(1), slh
		l.TextForms(FSMTreeElidedRole, forms, small, box, th.Muted, al)
	}
	if wordsSide != 0 {
		box := leftBox
		if wordsSide == 1 {
			box = rightBox
		}
		// From the root's row: the elided row's words are on the other
		// side.
		box.Y, box.H = area.Y, yOf(winLevel)-area.Y-t.gap
		layoutFSMPathWords(l, t, path, focus.Search, box)
	}
}

// layoutFSMPathWords writes the path as words (step, node, value and
// comparison) in box, beside the chain on a side with no other child
// drawn, above the window: in columns, all steps in the longest forms
// that fit, or none (the steps' numbers on the nodes, their fills and
// values say the same, less the node numbers).
func layoutFSMPathWords(l *layout.List, t *fsmType, path []fsmview.Step, s fsmview.Search, box layout.Rect) {
	var forms [3][]string
	for i, st := range path {
		what := st.Site.String()
		if j := strings.IndexByte(what, '.'); j >= 0 {
			what = what[j+1:]
		}
		if st.Write {
			forms[0] = append(forms[0], fmt.Sprintf("%d. %s: node %d %d → %d", i+1, what, st.Node, st.Old, st.Value))
			forms[1] = append(forms[1], fmt.Sprintf("%d. node %d: %d→%d", i+1, st.Node, st.Old, st.Value))
			forms[2] = append(forms[2], fmt.Sprintf("%d. %d→%d", i+1, st.Old, st.Value))
			continue
		}
		op := "<"
		if st.Qualifies() {
			op = "≥"
		}
		forms[0] = append(forms[0], fmt.Sprintf("%d. %s: node %d = %d %s %d", i+1, what, st.Node, st.Value, op, st.Want))
		forms[1] = append(forms[1], fmt.Sprintf("%d. node %d: %d %s %d", i+1, st.Node, st.Value, op, st.Want))
		forms[2] = append(forms[2], fmt.Sprintf("%d. %d %s %d", i+1, st.Value, op, st.Want))
	}
	if s.NextMoved {
		forms[0] = append(forms[0], fmt.Sprintf("fp_next_slot %d → %d", s.NextFrom, s.NextTo))
		forms[1] = append(forms[1], fmt.Sprintf("next slot %d → %d", s.NextFrom, s.NextTo))
		forms[2] = append(forms[2], fmt.Sprintf("next %d→%d", s.NextFrom, s.NextTo))
	}
	perCol := int(box.H / t.slh)
	if perCol < 1 || box.W <= 0 {
		return
	}
	for _, lines := range forms {
		colW := 0.0
		for _, s := range lines {
			colW = max(colW, layout.Width(s, t.small))
		}
		colW += 2 * t.gap
		cols := int(box.W / colW)
		if cols*perCol < len(lines) {
			continue
		}
		for i, s := range lines {
			c, row := i/perCol, i%perCol
			l.TextIn("tree path", s, t.small, layout.Rect{X: box.X + float64(c)*colW, Y: box.Y + float64(row)*t.slh, W: colW, H: t.slh}, t.th.Text, layout.Left)
		}
		return
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
