package scene

import (
	"fmt"
	"image/color"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/viz/fsmview"
	"bufferlab/viz/layout"
)

// --- The local map (small-skip) ---

// LayoutLocalMap lays out, for the small-skip variant, the focused
// backend's local map of relation rel (each block AVAIL or NOT_AVAIL, the
// entries fsm_local_search looked at, in order), each heap page the
// insert tried with its verdict, and the FSM pages not read because there
// is no map. The map's box for block b has the role "local blk b"; the
// tries that do not fit their line are recorded as overflows.
func LayoutLocalMap(l *layout.List, r layout.Rect, v *fsmview.View, rel uint32, th *layout.Theme) {
	h, _ := v.Heap(rel)
	focus, hasFocus := FSMFocus(v, rel)
	title := fmt.Sprintf("small-skip (PG 12 devel, reverted): no map while %s has ≤ %d pages; a backend-local map instead", h.Name, v.Threshold())
	in := LayoutPanel(l, r, title, th)
	face := th.Font(layout.Regular, 12)
	small := th.Font(layout.Regular, 10.5)
	bold := th.Font(layout.Bold, 12)
	lh := layout.LineHeight(face)
	y := in.Y + 2
	if !hasFocus {
		l.Text("local note", "no backend has worked on this heap yet", face, in.X, y, in.W, th.Muted, layout.Left)
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
	l.Text("local head", head, bold, in.X, y, in.W, th.Text, layout.Left)
	y += lh + 14
	checked := map[uint32]int{}
	for i, c := range s.LocalChecks {
		checked[c.Block] = i + 1
	}
	boxW := min(140, (in.W-8)/float64(max(n, 4))-8)
	boxH := 3*lh + 12
	for b := 0; b < n; b++ {
		role := fmt.Sprintf("local blk %d", b)
		box := layout.Rect{X: in.X + float64(b)*(boxW+8), Y: y, W: boxW, H: boxH}
		avail := b < len(lm.Entries) && lm.Entries[b] == 1
		fill, lbl := th.Panel, "NOT_AVAIL"
		if avail {
			fill, lbl = th.FSM.Avail, "AVAIL"
		}
		if lm.NBlocks == 0 && !building {
			fill, lbl = th.FSM.Skipped, "—"
		}
		l.Fill(role, box, fill)
		l.Stroke(role, box, 1, th.PanelEdge)
		l.Text(role, fmt.Sprintf("blk %d", b), bold, box.X+box.W/2, box.Y+3, box.W, th.Text, layout.Center)
		l.Text(role, lbl, small, box.X+box.W/2, box.Y+4+lh, box.W, th.Text, layout.Center)
		if k, ok := checked[uint32(b)]; ok {
			l.Stroke(role, box.Inset(-1), 3, th.FSM.Focus)
			layoutFSMBadge(l, role, box.X+box.W-26, box.Y-8, fmt.Sprintf("look %d", k), th.FSM.Focus, small, 0)
		}
	}
	y += boxH + 14
	// The pages tried, in order.
	triedBy := "pages tried by " + focus.Name + ":"
	l.Text("local tries", triedBy, bold, in.X, y, in.W, th.Text, layout.Left)
	x := in.X + layout.Width(triedBy, bold) + 10
	if len(s.Tries) == 0 {
		l.Text("local tries", "none yet", face, x, y, in.X+in.W-x, th.Muted, layout.Left)
	}
	for i, t := range s.Tries {
		lbl, c := fsmTryLabel(t, th)
		txt := fmt.Sprintf("%s: blk %d %s", ordinal(i+1), t.Block, lbl)
		if t.Free >= 0 {
			txt += fmt.Sprintf(" (%d B free, wants %d)", t.Free, t.Want)
		}
		w := layout.Width(txt, small) + 8
		if x+w > in.X+in.W {
			// The line is full: the tries left are recorded, not shown.
			l.Overflows = append(l.Overflows, layout.Overflow{Role: "local tries", Text: txt, Axis: "w", Need: w, Have: max(0, in.X+in.W-x)})
			for j := range s.Tries[i+1:] {
				l.Overflows = append(l.Overflows, layout.Overflow{Role: "local tries", Text: fmt.Sprintf("%s: blk %d", ordinal(i+2+j), s.Tries[i+1+j].Block), Axis: "w", Need: w, Have: 0})
			}
			break
		}
		l.Fill("local tries", layout.Rect{X: x, Y: y, W: w, H: lh}, c)
		l.Text("local tries", txt, small, x+4, y+1, 0, layout.TextOn(c), layout.Left)
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
	l.Text("local skipped", line, face, in.X, y, in.W, th.Text, layout.Left)
	y += lh + 4
	reads := s.Reads
	l.Text("local reads", fmt.Sprintf("this operation read %d heap, %d FSM and %d visibility map pages (buffer accesses)",
		reads[bufmgr.MainForkNum], reads[bufmgr.FSMForkNum], reads[bufmgr.VMForkNum]), face, in.X, y, in.W, th.Text, layout.Left)
	y += lh + 4
	note := "The patch was reverted before PostgreSQL 12 shipped: the map was per backend and reset after every successful lookup; a per-relation map in the relcache would have been better (Andres Freund)."
	if y+2*lh < in.Y+in.H {
		for i, s := range layout.Wrap(note, small, in.W-8) {
			ly := y + float64(i)*layout.LineHeight(small)
			fsmBelow(l, "local note", s, ly+layout.LineHeight(small), in)
			l.Text("local note", s, small, in.X, ly, in.W-8, th.Muted, layout.Left)
		}
	} else {
		l.Overflows = append(l.Overflows, layout.Overflow{Role: "local note", Text: note, Axis: "h", Need: y + 2*lh - in.Y, Have: in.H})
	}
}

// --- The focused operation, step by step ---

// LayoutFSMSteps writes the focused backend's operation on relation rel
// as a list of what it looked at: the cached target block
// (RelationGetTargetBlock), the FSM pages of its last map search (read or
// not), the local map entries, the heap pages tried with their free space
// and verdict (RelationGetBufferForTuple), the extension, the result and
// the pages it read. Lines cut with "…" and lines left out at the bottom
// are recorded as overflows.
func LayoutFSMSteps(l *layout.List, r layout.Rect, v *fsmview.View, rel uint32, th *layout.Theme) {
	focus, ok := FSMFocus(v, rel)
	title := "the operation, step by step"
	if ok {
		title = fmt.Sprintf("%s's %s, step by step", focus.Name, focus.Search.Op)
	}
	in := LayoutPanel(l, r, title, th)
	face := th.Font(layout.Regular, 11.5)
	bold := th.Font(layout.Bold, 11.5)
	lh := layout.LineHeight(face)
	if !ok {
		l.Text("steps", "no operation on this heap yet", face, in.X, in.Y, in.W, th.Muted, layout.Left)
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
	for i, ln := range lines {
		if y+lh > in.Y+in.H {
			// Out of room: a count of the lines left out (right-aligned
			// at the panel's left edge, as drawn since the scene was
			// written), each recorded.
			l.Text("steps more", fmt.Sprintf("… %d more", len(lines)-i), face, in.X, y-lh, 0, th.Muted, layout.Right)
			for _, left := range lines[i:] {
				l.Overflows = append(l.Overflows, layout.Overflow{Role: "steps", Text: left.txt, Axis: "h", Need: float64(len(lines)) * (lh + 1), Have: in.H})
			}
			break
		}
		f, x := face, in.X+10
		if ln.head {
			f, x = bold, in.X
		}
		l.FitText("steps", ln.txt, f, x, y, in.W-(x-in.X), ln.col, layout.Left)
		y += lh + 1
	}
}

// alignedTuple is MAXALIGN(len) on a 64-bit server: what
// RelationGetBufferForTuple adds the fillfactor reserve to.
func alignedTuple(n int) int { return (n + 7) &^ 7 }
