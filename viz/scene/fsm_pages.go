package scene

import (
	"fmt"
	"image/color"

	"bufferlab/engine/fsm"
	"bufferlab/viz/fsmview"
	"bufferlab/viz/layout"
)

// fsmPagesShown is the most FSM pages of one level the pages panel lays
// out; the rest are counted ("+N").
const fsmPagesShown = 5

// LayoutFSMPages lays out relation rel's FSM pages in their three levels
// (the root page, level 1, the leaf pages: fsm_get_location's addresses),
// each with its physical block, its root value and fp_next_slot; the
// pages the focused search read, in order, and those it skipped (not
// read: past the fork's end, where fsm_readbuf returns InvalidBuffer).
// Every item of FSM block b has the role "fsm page b".
func LayoutFSMPages(l *layout.List, r layout.Rect, v *fsmview.View, rel uint32, th *layout.Theme) {
	h, _ := v.Heap(rel)
	title := fmt.Sprintf("free space map of %s: %d pages (%d kB)", h.Name, h.FSMBlocks, h.FSMBlocks*fsm.BLCKSZ/1024)
	if !h.FSMExists {
		title = fmt.Sprintf("free space map of %s: no fork", h.Name)
	}
	in := LayoutPanel(l, r, title, th)
	face := th.Font(layout.Regular, 11)
	small := th.Font(layout.Regular, 10)
	bold := th.Font(layout.Bold, 12)
	lh := layout.LineHeight(face)
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
	layoutFSMLegend(l, "fsm legend", legend, th, []fsmLegendItem{
		{th.FSM.Read, th.FSM.Focus, "read by the search (order)"}, {th.FSM.Skipped, th.Muted, "not read: no such page"},
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
	// three pages, laid out even when the fork does not reach them.
	for lv := 0; lv < fsm.FSMTreeDepth; lv++ {
		phys := fsm.Address{Level: lv}.Physical()
		if phys >= h.FSMBlocks && !skipped[phys] {
			levels[lv] = append(levels[lv], pg{phys, false})
		}
	}
	rowH := body.H / 3
	labW := 74.0
	if body.W < 260 {
		labW = 52
	}
	for row := 0; row < fsm.FSMTreeDepth; row++ {
		level := fsm.FSMRootLevel - row
		ry := body.Y + float64(row)*rowH
		name := []string{"leaves", "level 1", "root"}[level]
		lrole := fmt.Sprintf("fsm level %d", level)
		l.Text(lrole, name, bold, body.X+2, ry+rowH/2-lh, labW-2, th.Text, layout.Left)
		l.Text(lrole, fmt.Sprintf("level %d", level), small, body.X+2, ry+rowH/2, labW-2, th.Muted, layout.Left)
		pages := levels[level]
		sortPg := func(i, j int) bool { return pages[i].phys < pages[j].phys }
		for i := 1; i < len(pages); i++ {
			for j := i; j > 0 && sortPg(j, j-1); j-- {
				pages[j], pages[j-1] = pages[j-1], pages[j]
			}
		}
		bw := min(150.0, (body.W-labW-8)/float64(min(max(len(pages), 1), fsmPagesShown))-8)
		for i, p := range pages {
			if i == fsmPagesShown {
				l.Text(lrole, fmt.Sprintf("+%d", len(pages)-fsmPagesShown), face, body.X+labW+float64(i)*(bw+8), ry+rowH/2-lh/2, 0, th.Muted, layout.Left)
				break
			}
			role := fmt.Sprintf("fsm page %d", p.phys)
			box := layout.Rect{X: body.X + labW + float64(i)*(bw+8), Y: ry + 4, W: bw, H: rowH - 10}
			a := fsm.AddressOf(p.phys)
			k, read := order[p.phys]
			switch {
			case !p.exists:
				l.Fill(role, box, th.FSM.Skipped)
				layoutFSMDashed(l, role, box, th.Muted)
				fsmFitFirst(l, role, face, box.X+6, box.Y+3, box.W-10, th.Muted, fmt.Sprintf("block %d (%s)", p.phys, a), fmt.Sprintf("block %d", p.phys))
				msg, short := "not in the fork", "no page"
				if skipped[p.phys] {
					msg, short = "NOT READ: skipped", "NOT READ"
				}
				if box.H >= 2*lh+4 {
					fsmFitFirst(l, role, bold, box.X+6, box.Y+3+lh, box.W-10, th.Muted, msg, short)
				}
			default:
				fp, _ := v.FSMPage(rel, p.phys)
				fill := th.Panel
				if read && !skipped[p.phys] {
					fill = th.FSM.Read
				}
				l.Fill(role, box, fill)
				l.Stroke(role, box, 1, th.PanelEdge)
				fsmFitFirst(l, role, bold, box.X+6, box.Y+3, box.W-10, th.Text, fmt.Sprintf("block %d · %s", p.phys, a), fmt.Sprintf("block %d", p.phys))
				if box.H >= 2*lh+4 {
					fsmFitFirst(l, role, face, box.X+6, box.Y+3+lh+1, box.W-10, th.Text, fmt.Sprintf("root %d  (≥ %d B)", fp.Root, fsm.CatToAvail(fp.Root)), fmt.Sprintf("root %d", fp.Root))
				}
				if box.H > 3*lh+4 {
					fsmFitFirst(l, role, small, box.X+6, box.Y+3+2*lh+1, box.W-10, th.Muted, fmt.Sprintf("fp_next_slot %d", fp.NextSlot), fmt.Sprintf("next %d", fp.NextSlot))
				}
			}
			if read {
				l.Stroke(role, box.Inset(-1), 3, th.FSM.Focus)
				layoutFSMBadge(l, role, box.X+box.W-22, box.Y-6, fmt.Sprintf("#%d", k), th.FSM.Focus, small, 0)
			}
		}
		if len(pages) == 0 {
			l.Text(lrole, "—", face, body.X+labW, ry+rowH/2-lh/2, 0, th.Muted, layout.Left)
		}
		// The link from each level to the next: the slots of a page
		// describe the pages below.
		if row < fsm.FSMTreeDepth-1 && len(pages) > 0 {
			x := body.X + labW + min(150.0, bw)/2
			l.Line(lrole, x, ry+rowH-6, x, ry+rowH+4, 1.5, th.PanelEdge)
		}
	}
}

// fsmFitFirst adds the first of texts that fits in w, else the last one
// cut with "…" (and recorded as an overflow).
func fsmFitFirst(l *layout.List, role string, f layout.Font, x, y, w float64, c color.RGBA, texts ...string) {
	for _, t := range texts {
		if layout.Width(t, f) <= w {
			l.Text(role, t, f, x, y, w, c, layout.Left)
			return
		}
	}
	l.FitText(role, texts[len(texts)-1], f, x, y, w, c, layout.Left)
}
