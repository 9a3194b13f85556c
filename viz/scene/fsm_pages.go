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

// fsmPagesTitles are the FSM pages panel's title forms, longest first,
// which also serve as its one-line summary where the panel has no room.
func fsmPagesTitles(h fsmview.Heap) []string {
	if !h.FSMExists {
		return []string{fmt.Sprintf("free space map of %s: no fork", h.Name), "FSM: no fork", "no FSM"}
	}
	return []string{
		fmt.Sprintf("free space map of %s: %d pages (%d kB)", h.Name, h.FSMBlocks, h.FSMBlocks*fsm.BLCKSZ/1024),
		fmt.Sprintf("FSM of %s: %s", h.Name, fsmPlural(int(h.FSMBlocks), "page")),
		fmt.Sprintf("FSM: %d pages", h.FSMBlocks),
	}
}

// fsmPagesState is what the focused operation did to the FSM pages:
// each page it read or skipped, numbered in order (the last search's,
// when there was one), and the pages of each level to lay out (those in
// the fork, the ones the search skipped, and the first page of each
// level even when the fork does not reach it: where a small heap's map
// has its three pages).
type fsmPagesState struct {
	order   map[uint32]int
	skipped map[uint32]bool
	levels  [fsm.FSMTreeDepth][]fsmPg
}

type fsmPg struct {
	phys   uint32
	exists bool
}

func fsmPagesOf(v *fsmview.View, rel uint32) fsmPagesState {
	h, _ := v.Heap(rel)
	st := fsmPagesState{order: map[uint32]int{}, skipped: map[uint32]bool{}}
	if f, ok := FSMFocus(v, rel); ok {
		vis := f.Search.Visits
		if len(f.Search.Current()) > 0 {
			vis = f.Search.Current()
		}
		for i, vi := range vis {
			if _, seen := st.order[vi.Phys]; !seen {
				st.order[vi.Phys] = i + 1
			}
			if vi.Skipped {
				st.skipped[vi.Phys] = true
			}
		}
	}
	for _, p := range v.FSMPages(rel) {
		st.levels[p.Addr.Level] = append(st.levels[p.Addr.Level], fsmPg{p.Phys, true})
	}
	for phys := range st.skipped {
		if phys >= h.FSMBlocks {
			a := fsm.AddressOf(phys)
			st.levels[a.Level] = append(st.levels[a.Level], fsmPg{phys, false})
		}
	}
	for lv := 0; lv < fsm.FSMTreeDepth; lv++ {
		phys := fsm.Address{Level: lv}.Physical()
		if phys >= h.FSMBlocks && !st.skipped[phys] {
			st.levels[lv] = append(st.levels[lv], fsmPg{phys, false})
		}
		pages := st.levels[lv]
		for i := 1; i < len(pages); i++ {
			for j := i; j > 0 && pages[j].phys < pages[j-1].phys; j-- {
				pages[j], pages[j-1] = pages[j-1], pages[j]
			}
		}
	}
	return st
}

// fsmPagesLegend is the pages panel's legend: visited by the search, and,
// where a page is drawn that the fork does not have, its dashed box.
func fsmPagesLegend(st fsmPagesState, w float64, t *fsmType) fsmLegend {
	th := t.th
	// The frame marks each page the search asked fsm_readbuf for, read or
	// not (a page past the fork's end is NOT READ).
	items := []fsmLegendItem{{th.FSM.Read, th.FSM.Focus, []string{"visited by the search (#order)", "visited (#order)"}}}
	for _, pages := range st.levels {
		for _, p := range pages {
			if !p.exists {
				items = append(items, fsmLegendItem{th.FSM.Skipped, th.PanelEdge, []string{"dashed: no such page, not read", "no such page"}})
				return planFSMLegend(items, w, t)
			}
		}
	}
	return planFSMLegend(items, w, t)
}

// fsmPagesHeight is the least height the pages panel needs in width w
// (a line a level) and the height it would like (three lines a level).
func fsmPagesHeight(v *fsmview.View, rel uint32, w float64, t *fsmType) (least, pref float64) {
	lg := fsmPagesLegend(fsmPagesOf(v, rel), w-4*t.gap, t)
	fixed := t.chrome() + lg.h + t.gap
	return fixed + 3*(t.blh+2*t.gap), fixed + 3*(3*t.lh+2*t.gap)
}

// fsmPagesMinW is the least width of the pages panel: a level's name and
// one page box that holds "block 0000" (or "NOT READ") and its badge.
func fsmPagesMinW(t *fsmType) float64 {
	return 4*t.gap + layout.Width("level 1", t.bold) + 2*t.gap + max(layout.Width("block 0000", t.bold), layout.Width("NOT READ", t.bold)) + 3*t.gap + badgeW("#3", t.small)
}

// LayoutFSMPages lays out relation rel's FSM pages in their three levels
// (the root page, level 1, the leaf pages: fsm_get_location's addresses),
// each with its physical block, its root value and fp_next_slot, as many
// lines of each as the rows hold (their shorter forms where the boxes are
// narrow), and a count of the pages of a level past the boxes that fit;
// the pages the focused search visited, in order: read, or NOT READ (past
// the fork's end, where fsm_readbuf returns InvalidBuffer). Every item of
// FSM block b has the role "fsm page b".
func LayoutFSMPages(l *layout.List, r layout.Rect, v *fsmview.View, rel uint32, th *layout.Theme) {
	t := newFSMType(th)
	h, _ := v.Heap(rel)
	st := fsmPagesOf(v, rel)
	in := fsmPanel(l, r, fsmPagesTitles(h), t)
	lg := fsmPagesLegend(st, in.W, t)
	body, legendR := in.SplitBottom(lg.h + t.gap)
	lg.layout(l, "fsm legend", layout.Rect{X: legendR.X, Y: legendR.Y + t.gap, W: legendR.W, H: lg.h}, t)
	rowH := body.H / 3
	// The level's name, and under it its number where the row has a
	// second line (level 1's name is its number).
	sub := rowH-2*t.gap >= t.blh+t.slh
	labW := 0.0
	for _, s := range []string{"root", "level 1", "leaves"} {
		labW = max(labW, layout.Width(s, t.bold))
	}
	labW += 2 * t.gap
	bw := 0.0
	for row := 0; row < fsm.FSMTreeDepth; row++ {
		level := fsm.FSMRootLevel - row
		ry := body.Y + float64(row)*rowH
		name := []string{"leaves", "level 1", "root"}[level]
		lrole := fmt.Sprintf("fsm level %d", level)
		lines := 1.0
		if sub && level != 1 {
			lines = 2
		}
		ny := ry + (rowH-lines*t.blh)/2
		l.TextIn(lrole, name, t.bold, layout.Rect{X: body.X, Y: ny, W: labW, H: t.blh}, th.Text, layout.Left)
		if lines == 2 {
			l.TextIn(lrole, fmt.Sprintf("level %d", level), t.small, layout.Rect{X: body.X, Y: ny + t.blh, W: labW, H: t.slh}, th.Muted, layout.Left)
		}
		pages := st.levels[level]
		// As many boxes as hold "block N" beside its order badge; a
		// count of the others.
		boxMin := max(layout.Width("block 0000", t.bold), layout.Width("NOT READ", t.bold)) + badgeW("#3", t.small) + 2*t.gap
		room := body.W - labW
		cnt := min(len(pages), fsmPagesShown, max(1, int(room/(boxMin+t.gap))))
		more := ""
		if cnt < len(pages) {
			more = fmt.Sprintf("+%d", len(pages)-cnt)
			room -= layout.Width(more, t.face) + t.gap
			cnt = min(cnt, max(1, int(room/(boxMin+t.gap))))
			more = fmt.Sprintf("+%d", len(pages)-cnt)
		}
		bw = min(room/float64(max(cnt, 1))-t.gap, 12*t.lh)
		for i, p := range pages[:cnt] {
			role := fmt.Sprintf("fsm page %d", p.phys)
			// At most four lines high (three of text), centred in its row.
			bh := min(rowH-t.gap, 3*t.lh+2*t.gap)
			box := layout.Rect{X: body.X + labW + float64(i)*(bw+t.gap), Y: ry + (rowH-bh)/2, W: bw, H: bh}
			a := fsm.AddressOf(p.phys)
			k, read := st.order[p.phys]
			// The box's lines: as many as it holds.
			textR := layout.Rect{X: box.X + t.gap, Y: box.Y + t.gap/2, W: box.W - 2*t.gap, H: t.blh}
			if read {
				textR.W -= badgeW(fmt.Sprintf("#%d", k), t.small)
			}
			fits := int((box.H - t.gap) / t.lh)
			line := func(i int, f layout.Font, c color.RGBA, forms []string) {
				if i >= max(fits, 1) {
					return
				}
				rr := textR
				rr.Y += float64(i) * t.lh
				// A box shorter than its first line records it.
				rr.H = min(layout.LineHeight(f), box.Y+box.H-rr.Y)
				if i > 0 {
					rr.W = box.W - 2*t.gap
				}
				l.TextForms(role, forms, f, rr, c, layout.Left)
			}
			if !p.exists {
				l.Fill(role, box, th.FSM.Skipped)
				layoutFSMDashed(l, role, box, th)
				if st.skipped[p.phys] {
					// The search asked for it: NOT READ comes first, so
					// that a box of one line says it too.
					line(0, t.bold, th.Muted, []string{fmt.Sprintf("block %d (%s): NOT READ", p.phys, a), fmt.Sprintf("block %d: NOT READ", p.phys), "NOT READ"})
					line(1, t.face, th.Muted, []string{"no such page", ""})
				} else {
					line(0, t.face, th.Muted, []string{fmt.Sprintf("block %d (%s)", p.phys, a), fmt.Sprintf("block %d", p.phys)})
					// The dashed box and the legend say it.
					line(1, t.face, th.Muted, []string{"not in the fork", ""})
				}
			} else {
				fp, _ := v.FSMPage(rel, p.phys)
				fill := th.Panel
				if read && !st.skipped[p.phys] {
					fill = th.FSM.Read
				}
				l.Fill(role, box, fill)
				l.Stroke(role, box, 1, th.PanelEdge)
				line(0, t.bold, th.Text, []string{fmt.Sprintf("block %d · %s", p.phys, a), fmt.Sprintf("block %d", p.phys)})
				line(1, t.face, th.Text, []string{fmt.Sprintf("root %d  (≥ %d B)", fp.Root, fsm.CatToAvail(fp.Root)), fmt.Sprintf("root %d", fp.Root)})
				line(2, t.small, th.Muted, []string{fmt.Sprintf("fp_next_slot %d", fp.NextSlot), fmt.Sprintf("next slot %d", fp.NextSlot)})
			}
			if read {
				l.Stroke(role, box.Inset(-1), 3, th.FSM.Focus)
				lbl := fmt.Sprintf("#%d", k)
				layoutFSMBadge(l, role, box.X+box.W-badgeW(lbl, t.small), box.Y, lbl, th.FSM.Focus, t.small, 0)
			}
		}
		if more != "" {
			x := body.X + labW + float64(cnt)*(bw+t.gap)
			l.TextIn(lrole, more, t.face, layout.Rect{X: x, Y: ry + (rowH-t.lh)/2, W: layout.Width(more, t.face), H: t.lh}, th.Muted, layout.Left)
		}
		if len(pages) == 0 {
			l.TextIn(lrole, "—", t.face, layout.Rect{X: body.X + labW, Y: ry + (rowH-t.lh)/2, W: layout.Width("—", t.face), H: t.lh}, th.Muted, layout.Left)
		}
		// The link from each level to the next: the slots of a page
		// describe the pages below.
		if row < fsm.FSMTreeDepth-1 && len(pages) > 0 {
			x := body.X + labW + bw/2
			bh := min(rowH-t.gap, 3*t.lh+2*t.gap)
			l.Line(lrole, x, ry+(rowH+bh)/2, x, ry+rowH+(rowH-bh)/2, 1.5, th.PanelEdge)
		}
	}
}

// LayoutFSMPagesLine lays out the FSM pages as one line: the panel's
// title in the first form that fits (how many pages the fork has, or
// that it has none), where the scene has no room for the panel; the
// counters say how many the operation read.
func LayoutFSMPagesLine(l *layout.List, r layout.Rect, v *fsmview.View, rel uint32, th *layout.Theme) {
	t := newFSMType(th)
	h, _ := v.Heap(rel)
	l.TextForms("fsm summary", fsmPagesTitles(h), t.bold, layout.Rect{X: r.X, Y: r.Y, W: r.W, H: t.blh}, th.Text, layout.Left)
}
