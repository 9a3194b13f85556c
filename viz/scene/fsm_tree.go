package scene

import (
	"fmt"
	"math/bits"
	"strings"

	"bufferlab/engine/fsm"
	"bufferlab/viz/fsmview"
	"bufferlab/viz/layout"
)

// fsmTreeLeaves is the most leaves the zoomed window of a tree shows.
const fsmTreeLeaves = 32

// FSMTreeDepthRole is the role of the node boxes (and their values and
// badges) at depth d (0 the root, 12 the leaves) of LayoutFSMTree.
func FSMTreeDepthRole(d int) string { return fmt.Sprintf("tree depth %d", d) }

// LayoutFSMTree lays out FSM block phys of relation rel as its binary
// tree (fsmpage.c's FSMPageData.fp_nodes): 13 levels of 8164 nodes cannot
// all be shown, so it lays out the root and, level by level, the chain of
// nodes down to a window of at most 32 leaves around the slots in use and
// the search path, whole; each chain node's other child stands for the
// slots it covers, with their maximum. The focused search's path
// (fsm_search_avail, fsm_set_avail) is lit in order: nodes read (≥ the
// category wanted, or below it), nodes written; fp_next_slot is marked.
//
// Invariant: every depth 0..12 has node boxes of role FSMTreeDepthRole(d);
// a box that falls outside the panel, or is shorter than a line of its
// smallest type (the rows overlap), is recorded as an overflow of that
// role, as is each step of the path that the words beside the chain
// leave out. Each node box is recorded as a hit region (HitFSMNode, In:
// rel and phys) for FSMNodeTooltip.
func LayoutFSMTree(l *layout.List, r layout.Rect, v *fsmview.View, rel, phys uint32, th *layout.Theme) {
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
	in := LayoutPanel(l, r, title, th)
	if !ok {
		l.Text("tree note", "the fork does not reach this page", th.Font(layout.Regular, 12), in.X, in.Y, in.W, th.Muted, layout.Left)
		return
	}
	nodes, _ := v.Nodes(rel, phys)
	small := th.Font(layout.Regular, 10)
	face := th.Font(layout.Regular, 11)
	slh := layout.LineHeight(small)
	lh := layout.LineHeight(face)
	body, legend := in.SplitBottom(lh + 4)
	layoutFSMLegend(l, "tree legend", legend, th, []fsmLegendItem{
		{th.FSM.Read, th.Good, "read: enough"}, {th.FSM.Read, th.Error, "read: too little"},
		{th.FSM.Written, th.Dirty, "written"}, {th.FSM.Stub, th.PanelEdge, "the other slots (their max)"},
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
	slotH := slh + 2 // the slot labels under the leaves
	rowH := (body.H - slotH) / 13
	nodeH := min(rowH-4, 22)
	area := layout.Rect{X: body.X + labW, Y: body.Y, W: body.W - labW - 4, H: body.H - slotH}
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
	if rowH < slh {
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
			l.Text("tree labels", what, small, body.X+2, yOf(d)+nodeH, labW-2, th.Muted, layout.Left)
		}
		l.Text("tree labels", lbl, small, body.X+2, yOf(d)+(nodeH-slh)/2, labW-2, th.Muted, layout.Left)
	}
	short := map[int]bool{} // the depths recorded as too short
	node := func(n int, cx, y float64, w float64, stub bool) {
		depth := bits.Len(uint(n+1)) - 1
		role := FSMTreeDepthRole(depth)
		box := layout.Rect{X: cx - w/2, Y: y, W: w, H: nodeH}
		l.AddHit(HitFSMNode, n, [2]uint32{rel, phys}, box)
		fsmOutside(l, role, fmt.Sprintf("node %d", n), box, in)
		if nodeH < slh-0.5 && !short[depth] {
			// Rows too short for a node's value: the levels overlap
			// (recorded once a depth).
			short[depth] = true
			l.Overflows = append(l.Overflows, layout.Overflow{Role: role, Text: fmt.Sprintf("node %d", n), Axis: "h", Need: slh, Have: nodeH})
		}
		if n >= fsm.NodesPerPage {
			layoutFSMDashed(l, role, box, th.PanelEdge)
			l.Text(role, "—", small, cx, y+(nodeH-slh)/2, w, th.Muted, layout.Center)
			return
		}
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
		txt := fmt.Sprint(nodes[n])
		if lit && path[i].Write && w > 40 {
			txt = fmt.Sprintf("%d→%d", path[i].Old, path[i].Value)
		}
		f := face
		if layout.Width(txt, f) > w-2 {
			f = small
		}
		l.Text(role, txt, f, cx, y+(nodeH-layout.LineHeight(f))/2, w, layout.TextOn(fill), layout.Center)
		if lit {
			layoutFSMBadge(l, role, box.X+box.W-4, box.Y-5, fmt.Sprint(i+1), edge, th.Font(layout.Bold, 8.5), 0)
		}
	}
	// The chain (levels 0 .. winLevel-1) with the other child of each,
	// 150 px to the side, or less where the area is narrow (a pane), so
	// that the child and its slot range stay inside.
	side := min(150, max(nodeW+4, area.W/2-nodeW/2-8-layout.Width("slots 2048–4068", small)))
	for d := 0; d < winLevel; d++ {
		n := chain[d]
		next := chain[d+1]
		other := 2*n + 1
		if next == other {
			other = 2*n + 2
		}
		y := yOf(d)
		l.Line("tree links", chainX, y+nodeH, chainX, yOf(d+1), 1.5, th.PanelEdge)
		ox := chainX + side
		if other < next {
			ox = chainX - side
		}
		l.Line("tree links", chainX, y+nodeH/2, ox, yOf(d+1)+nodeH/2, 1, th.PanelEdge)
		node(n, chainX, y, nodeW, false)
		// The other child: the slots it covers, and their maximum.
		span := 1 << (12 - (d + 1))
		firstSlot := (other - first(d+1)) * span
		lastSlot := min(firstSlot+span, fsm.SlotsPerFSMPage) - 1
		sx := ox
		node(other, sx, yOf(d+1), nodeW, true)
		if firstSlot < fsm.SlotsPerFSMPage {
			lbl := fmt.Sprintf("slots %d–%d", firstSlot, lastSlot)
			al, lx, room := layout.Left, sx+nodeW/2+4, in.X+in.W-(sx+nodeW/2+4)
			if other < next {
				al, lx, room = layout.Right, sx-nodeW/2-4, sx-nodeW/2-4-in.X
			}
			l.Text("tree slots", lbl, small, lx, yOf(d+1)+(nodeH-slh)/2, max(room, 1), th.Muted, al)
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
					l.Line("tree links", cx, yOf(d)+nodeH, ccx, yOf(d+1), 1, th.PanelEdge)
				}
			}
			node(n, cx, yOf(d), w, false)
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
		if layout.Width(lbl, small) > winLeafW {
			lbl = fmt.Sprint(slot)
		}
		if slot == int(fp.NextSlot) {
			// fp_next_slot: where the next search starts, under the leaf.
			lbl = "next: " + lbl
			if layout.Width(lbl, small) > winLeafW {
				lbl = "next"
			}
			layoutFSMBadgeCentered(l, "tree next", cx, leafY, lbl, th.Accent, small, 0)
			continue
		}
		l.Text("tree slot", lbl, small, cx, leafY, winLeafW, th.Muted, layout.Center)
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
		box := layout.Rect{X: area.X + 4, Y: area.Y, W: chainX - nodeW/2 - 16 - area.X, H: yOf(winLevel) - area.Y - 4}
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
		cols := max(1, int(box.W/150))
		colW := box.W / float64(cols)
		perCol := max(1, int(box.H/slh))
		for i, s := range steps {
			c, row := i/perCol, i%perCol
			if c >= cols {
				// No room for the rest: recorded, not shown.
				for _, left := range steps[i:] {
					l.Overflows = append(l.Overflows, layout.Overflow{Role: "tree path", Text: left, Axis: "h", Need: float64(len(steps)) * slh / float64(cols), Have: box.H})
				}
				break
			}
			l.Text("tree path", s, small, box.X+float64(c)*colW, box.Y+float64(row)*slh, colW, th.Text, layout.Left)
		}
	}
}
