package scene

import (
	"fmt"
	"image/color"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/runs"
	"bufferlab/viz/fsmview"
	"bufferlab/viz/layout"
)

// --- The local map (small-skip) ---

// fsmLocalNote is why the patch was reverted (the lesson's last step says
// it too): laid out under the local map where there is room.
const fsmLocalNote = "The patch was reverted before PostgreSQL 12 shipped: the map was per backend and reset after every successful lookup; a per-relation map in the relcache would have been better (Andres Freund)."

// fsmLocal is what the local map panel says, each part in its forms
// (longest first) for a width: the map's heading, the tries, the FSM
// pages not read and the pages read.
type fsmLocal struct {
	name     string
	has      bool // a backend worked on the heap
	head     []string
	n        int // boxes: the blocks of the map (or of the heap, greyed)
	building bool
	tries    [][]string
	tryCols  []color.RGBA
	skipped  []string
	reads    []string
}

func fsmLocalOf(v *fsmview.View, rel uint32, th *layout.Theme) fsmLocal {
	h, _ := v.Heap(rel)
	focus, ok := FSMFocus(v, rel)
	out := fsmLocal{name: h.Name, has: ok}
	if !ok {
		return out
	}
	s, lm := focus.Search, focus.LocalMap
	out.n = int(lm.NBlocks)
	out.building = out.n == 0 && len(lm.Entries) > 0
	head := fmt.Sprintf("local map of %s", focus.Name)
	switch {
	case out.building:
		out.head = []string{head + ": being built (fsm_local_set): every other block from the last is AVAIL", head + ": being built"}
		out.n = int(min(h.NBlocks, uint32(v.Threshold())))
	case out.n == 0:
		out.head = []string{head + ": not set (it is cleared as soon as a page is found, after an extension, on abort)", head + ": not set"}
		out.n = int(min(h.NBlocks, uint32(v.Threshold())))
	default:
		out.head = []string{head + fmt.Sprintf(" for %s: every other block from the last is AVAIL (worth trying)", fsmPlural(out.n, "block")),
			head + fmt.Sprintf(" for %s", fsmPlural(out.n, "block"))}
	}
	for i, t := range s.Tries {
		lbl, c := fsmTryLabel(t, th)
		long := fmt.Sprintf("%s: blk %d %s", ordinal(i+1), t.Block, lbl)
		forms := []string{long}
		if t.Free >= 0 {
			forms = []string{long + fmt.Sprintf(" (%d B free, wants %d)", t.Free, t.Want), long}
		}
		out.tries = append(out.tries, append(forms, fmt.Sprintf("blk %d %s", t.Block, lbl)))
		out.tryCols = append(out.tryCols, c)
	}
	var skipped, short []string
	for _, vi := range s.Visits {
		if vi.Skipped {
			skipped = append(skipped, fmt.Sprintf("block %d (%s)", vi.Phys, vi.Addr()))
			short = append(short, fmt.Sprint(vi.Phys))
		}
	}
	out.skipped = []string{"FSM pages not read by this operation: none", "FSM pages not read: none"}
	if len(skipped) > 0 {
		out.skipped = []string{fmt.Sprintf("FSM pages not read by this operation (no fork): %s", strings.Join(skipped, ", ")),
			fmt.Sprintf("FSM pages not read (no fork): %s", strings.Join(short, ", "))}
	}
	r := s.Reads
	out.reads = []string{
		fmt.Sprintf("this operation read %d heap, %d FSM and %d visibility map pages (buffer accesses)", r[bufmgr.MainForkNum], r[bufmgr.FSMForkNum], r[bufmgr.VMForkNum]),
		fmt.Sprintf("read: %d heap, %d FSM, %d VM pages", r[bufmgr.MainForkNum], r[bufmgr.FSMForkNum], r[bufmgr.VMForkNum]),
	}
	return out
}

// fsmLocalTitles are the local map panel's title forms.
func fsmLocalTitles(name string, threshold int) []string {
	return []string{
		fmt.Sprintf("small-skip (PG 12 devel, reverted): no map while %s has ≤ %d pages; a backend-local map instead", name, threshold),
		fmt.Sprintf("small-skip: no map while %s has ≤ %d pages", name, threshold),
		"small-skip: a backend-local map",
		"local map",
	}
}

// fsmLocalPlan is which forms the local map panel uses, from the
// longest (level 0) down: the note goes first, then the parts take their
// short forms, then the pages read and not read go (the counters say
// them), then the tries (the heap's badges say them).
type fsmLocalPlan struct {
	level int
	h     float64
}

// fsmLocalLevels is the number of levels planFSMLocal chooses from.
const fsmLocalLevels = 6

// localBoxes is the grid of the map's boxes in width w: columns, rows,
// and a box's width and height (a line for the block, one for its entry,
// one for the look badge).
//
// Where only one such box fits a line, each box is a line: the block,
// its entry and its look badge side by side (list).
func (lc fsmLocal) localBoxes(w float64, t *fsmType) (cols, rows int, bw, bh float64, list bool) {
	boxMin := max(layout.Width("blk 0", t.bold), layout.Width("NOT_AVAIL", t.small), badgeW("look 4", t.small)) + 2*t.gap
	n := max(lc.n, 1)
	cols = min(n, max(1, int((w+t.gap)/(boxMin+t.gap))))
	rows = (n + cols - 1) / cols
	bw = min(8*t.lh, (w-float64(cols-1)*t.gap)/float64(cols))
	bh = t.blh + 2*t.slh + 2*t.gap
	if cols == 1 && n > 1 {
		list, bw, bh = true, w, t.blh+t.gap
	}
	return
}

// localRowW is the width of a list row's block and entry (localBoxes);
// the look badge takes "look 1" or "#1", whichever fits after them.
func localRowW(t *fsmType) (blk, entry float64) {
	return layout.Width("blk 0", t.bold) + 2*t.gap, layout.Width("NOT_AVAIL", t.small) + t.gap
}

// triesLines flows the tries' badges into lines w wide, each badge the
// longest of its forms (up to level k's) that fits a line.
func (lc fsmLocal) triesLines(w float64, short bool, t *fsmType) (lines [][]int, forms []string) {
	x := 0.0
	for i, fs := range lc.tries {
		if short {
			fs = fs[len(fs)-1:]
		}
		s := fs[len(fs)-1]
		for _, f := range fs {
			if badgeW(f, t.small) <= w {
				s = f
				break
			}
		}
		forms = append(forms, s)
		bw := badgeW(s, t.small) + t.gap
		if len(lines) == 0 || x+bw > w {
			lines = append(lines, nil)
			x = 0
		}
		lines[len(lines)-1] = append(lines[len(lines)-1], i)
		x += bw
	}
	return
}

// heightAt is the height of the panel's inside at level k in width w.
func (lc fsmLocal) heightAt(k int, w float64, t *fsmType) float64 {
	if !lc.has {
		return t.lh
	}
	form := func(fs []string, short bool) string {
		if short {
			return fs[len(fs)-1]
		}
		return fs[0]
	}
	h := wrappedH(form(lc.head, k >= 3), t.bold, w) + t.gap
	_, rows, _, bh, _ := lc.localBoxes(w, t)
	h += float64(rows)*(bh+t.gap) + t.gap
	if k < 5 {
		lines, _ := lc.triesLines(w-layout.Width("tried:", t.bold)-t.gap, k >= 3, t)
		h += float64(max(len(lines), 1))*(t.slh+t.gap) + t.gap
	}
	if k < 4 {
		h += wrappedH(form(lc.skipped, k >= 2), t.face, w) + wrappedH(form(lc.reads, k >= 2), t.face, w) + t.gap
	}
	if k == 0 {
		h += wrappedH(fsmLocalNote, t.small, w)
	}
	return h
}

// planFSMLocal chooses the longest level whose parts fit height h (the
// panel's, title included) in width w; the last when none does.
func planFSMLocal(lc fsmLocal, w, h float64, t *fsmType) fsmLocalPlan {
	in := w - 4*t.gap
	for k := 0; k < fsmLocalLevels; k++ {
		if need := t.chrome() + lc.heightAt(k, in, t); need <= h || k == fsmLocalLevels-1 {
			return fsmLocalPlan{level: k, h: need}
		}
	}
	return fsmLocalPlan{}
}

// fsmLocalHeight is the least height of the local map panel in width w
// (its last level) and the height it would like (all of it).
func fsmLocalHeight(v *fsmview.View, rel uint32, w float64, t *fsmType) (least, pref float64) {
	lc := fsmLocalOf(v, rel, t.th)
	in := w - 4*t.gap
	return t.chrome() + lc.heightAt(fsmLocalLevels-1, in, t), t.chrome() + lc.heightAt(0, in, t)
}

// LayoutLocalMap lays out, for the small-skip variant, the focused
// backend's local map of relation rel (each block AVAIL or NOT_AVAIL, the
// entries fsm_local_search looked at, in order), each heap page the
// insert tried with its verdict, the FSM pages not read because there is
// no map and the pages read. The map's box for block b has the role
// "local blk b". Where the panel is short, the parts take shorter forms
// or go, in the order fsmLocalPlan gives; what still does not fit is
// recorded.
func LayoutLocalMap(l *layout.List, r layout.Rect, v *fsmview.View, rel uint32, th *layout.Theme) {
	t := newFSMType(th)
	lc := fsmLocalOf(v, rel, th)
	in := fsmPanel(l, r, fsmLocalTitles(lc.name, v.Threshold()), t)
	if !lc.has {
		l.TextForms("local note", []string{"no backend has worked on this heap yet", "no backend yet"}, t.face, layout.Rect{X: in.X, Y: in.Y, W: in.W, H: t.lh}, th.Muted, layout.Left)
		return
	}
	p := planFSMLocal(lc, r.W, r.H, t)
	k := p.level
	focus, _ := FSMFocus(v, rel)
	s, lm := focus.Search, focus.LocalMap
	bottom := in.Y + in.H
	y := in.Y
	para := func(role string, forms []string, short bool, f layout.Font, c color.RGBA) {
		s := forms[0]
		if short {
			s = forms[len(forms)-1]
		}
		lines := layout.Wrap(s, f, in.W)
		lh := layout.LineHeight(f)
		for _, ln := range lines {
			fsmBelow(l, role, ln, y+lh, in)
			l.TextIn(role, ln, f, layout.Rect{X: in.X, Y: y, W: in.W, H: lh}, c, layout.Left)
			y += lh
		}
	}
	para("local head", lc.head, k >= 3, t.bold, th.Text)
	y += t.gap
	// The map: a box a block, in as many columns as hold "NOT_AVAIL".
	checked := map[uint32]int{}
	for i, c := range s.LocalChecks {
		checked[c.Block] = i + 1
	}
	cols, _, bw, bh, list := lc.localBoxes(in.W, t)
	// entry is block b's fill and word.
	entry := func(b int) (color.RGBA, string) {
		switch {
		case lm.NBlocks == 0 && !lc.building:
			return th.FSM.Skipped, "—"
		case b < len(lm.Entries) && lm.Entries[b] == 1:
			return th.FSM.Avail, "AVAIL"
		}
		return th.Panel, "NOT_AVAIL"
	}
	// A list row gives the block's number alone where "blk N" would cut a
	// row's word (a phone's narrow pane, a badge "#7" at its right): the
	// word is the one the code panel and the lesson use, kept whole.
	rowBlk, rowEntry := localRowW(t)
	blkForm := "blk %d"
	for b := 0; list && b < lc.n; b++ {
		room := bw - t.gap/2 - t.gap - rowBlk
		if n, ok := checked[uint32(b)]; ok {
			room -= badgeW(fmt.Sprintf("#%d", n), t.small)
		}
		if _, lbl := entry(b); layout.Width(lbl, t.small) > room+0.5 {
			blkForm, rowBlk = "%d", layout.Width(fmt.Sprint(lc.n-1), t.bold)+2*t.gap
			break
		}
	}
	for b := 0; b < lc.n; b++ {
		role := fmt.Sprintf("local blk %d", b)
		box := layout.Rect{X: in.X + float64(b%cols)*(bw+t.gap), Y: y + float64(b/cols)*(bh+t.gap), W: bw, H: bh}
		fsmOutside(l, role, fmt.Sprintf("blk %d", b), box, in)
		fill, lbl := entry(b)
		l.Fill(role, box, fill)
		l.Stroke(role, box, 1, th.PanelEdge)
		n, looked := checked[uint32(b)]
		if looked {
			l.Stroke(role, box.Inset(-1), 3, th.FSM.Focus)
		}
		look := []string{fmt.Sprintf("look %d", n), fmt.Sprintf("#%d", n)}
		if list {
			// One line: the block, its entry, the look badge at the right.
			ew := rowEntry
			ib := layout.Rect{X: box.X + t.gap, Y: box.Y + t.gap/2, W: rowBlk, H: t.blh}
			l.TextIn(role, fmt.Sprintf(blkForm, b), t.bold, ib, th.Text, layout.Left)
			ib.X += rowBlk
			room := box.X + box.W - t.gap/2 - ib.X
			if looked {
				s := look[len(look)-1]
				for _, f := range look {
					if ew+badgeW(f, t.small) <= room {
						s = f
						break
					}
				}
				layoutFSMBadge(l, role, box.X+box.W-t.gap/2-badgeW(s, t.small), box.Y+t.gap/2, s, th.FSM.Focus, t.small, 0)
				room -= badgeW(s, t.small)
			}
			ib.W = room
			l.TextIn(role, lbl, t.small, ib, th.Text, layout.Left)
			continue
		}
		ib := layout.Rect{X: box.X + t.gap, Y: box.Y + t.gap/2, W: box.W - 2*t.gap, H: t.blh}
		l.TextIn(role, fmt.Sprintf("blk %d", b), t.bold, ib, th.Text, layout.Center)
		ib.Y, ib.H = ib.Y+t.blh, t.slh
		l.TextIn(role, lbl, t.small, ib, th.Text, layout.Center)
		if looked {
			badgeForms(l, role, box.X+box.W/2, ib.Y+t.slh, look, th.FSM.Focus, t.small, box.W)
		}
	}
	y += float64((lc.n+cols-1)/cols)*(bh+t.gap) + t.gap
	// The pages tried, in order.
	if k < 5 {
		lbl := "tried:"
		lw := layout.Width(lbl, t.bold) + t.gap
		l.TextIn("local tries", lbl, t.bold, layout.Rect{X: in.X, Y: y, W: lw, H: t.slh}, th.Text, layout.Left)
		x0 := in.X + lw
		lines, forms := lc.triesLines(in.X+in.W-x0, k >= 3, t)
		if len(lines) == 0 {
			l.TextIn("local tries", "none yet", t.small, layout.Rect{X: x0, Y: y, W: in.X + in.W - x0, H: t.slh}, th.Muted, layout.Left)
			lines = [][]int{nil}
		}
		for _, line := range lines {
			x := x0
			for _, i := range line {
				fsmBelow(l, "local tries", forms[i], y+t.slh, in)
				layoutFSMBadge(l, "local tries", x, y, forms[i], lc.tryCols[i], t.small, in.X+in.W-x)
				x += badgeW(forms[i], t.small) + t.gap
			}
			y += t.slh + t.gap
		}
		y += t.gap
	}
	if k < 4 {
		para("local skipped", lc.skipped, k >= 2, t.face, th.Text)
		para("local reads", lc.reads, k >= 2, t.face, th.Text)
		y += t.gap
	}
	if k == 0 && y < bottom {
		para("local note", []string{fsmLocalNote}, false, t.small, th.Muted)
	}
}

// --- The focused operation, step by step ---

// fsmStepsTitles are the step panel's title forms.
func fsmStepsTitles(focus fsmview.Lane, ok bool) []string {
	if !ok {
		return []string{"the operation, step by step", "step by step", "steps"}
	}
	return []string{fmt.Sprintf("%s's %s, step by step", focus.Name, focus.Search.Op), fmt.Sprintf("%s's %s", focus.Name, focus.Search.Op), "steps"}
}

// fsmStepsMinW is the least width of the step panel: about 12 lines'
// height, where its lines wrap to two or three.
func fsmStepsMinW(t *fsmType) float64 { return 12 * t.lh }

// LayoutFSMSteps writes the focused backend's operation on relation rel
// as a list of what it looked at: the cached target block
// (RelationGetTargetBlock), the FSM pages of its last map search (read or
// not), the local map entries, the heap pages tried with their free space
// and verdict (RelationGetBufferForTuple), the extension, the result and
// the pages it read. Long lines wrap. Where the panel is too short for
// all, the lines in the middle (the map's pages and the tries, which the
// FSM pages panel and the heap's badges show too) give way to a line
// that counts them: the request at the top and the outcome at the bottom
// stay.
func LayoutFSMSteps(l *layout.List, r layout.Rect, v *fsmview.View, rel uint32, th *layout.Theme) {
	t := newFSMType(th)
	focus, ok := FSMFocus(v, rel)
	in := fsmPanel(l, r, fsmStepsTitles(focus, ok), t)
	if !ok {
		layoutWrapped(l, "steps", "no operation on this heap yet", t.face, in, th.Muted)
		return
	}
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
	s := focus.Search
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
	keepTop := len(lines)
	searching := s.MinCat > 0
	if cur := s.Current(); !searching && len(cur) > 0 {
		// Not a search: the FSM pages read to record free space (VACUUM,
		// RecordPageWithFreeSpace), consecutive repeats counted.
		head("FSM pages read (to record free space):")
		for i, j := range runs.Of(len(cur), func(k int) bool { return cur[k] == cur[k-1] }) {
			vi := cur[i]
			txt := fmt.Sprintf("FSM block %d (%s)", vi.Phys, vi.Addr())
			if vi.Skipped {
				txt += ": NOT READ, no such page"
			}
			if j > i {
				txt += fmt.Sprintf(" ×%d", j-i+1)
			}
			add(th.Text, "%s", txt)
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
		for i, tr := range s.Tries {
			lbl, c := fsmTryLabel(tr, th)
			txt := fmt.Sprintf("%s: blk %d", ordinal(i+1), tr.Block)
			if tr.Free >= 0 {
				op := "<"
				if tr.Free >= tr.Want {
					op = "≥"
				}
				txt += fmt.Sprintf(" has %d B %s %d", tr.Free, op, tr.Want)
			}
			if tr.Init {
				txt += " (new page)"
			}
			add(c, "%s: %s", txt, lbl)
		}
	}
	keepBottom := len(lines)
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

	// Wrap each line (the entries indented under the headings).
	type row struct {
		txt    string
		col    color.RGBA
		f      layout.Font
		indent float64
		src    int      // the line it wraps (-1: the count of the lines left out)
		forms  []string // the count's forms
	}
	var rows []row
	for i, ln := range lines {
		f, ind := t.face, 2*t.gap
		if ln.head {
			f, ind = t.bold, 0
		}
		for _, w := range layout.Wrap(ln.txt, f, in.W-ind) {
			rows = append(rows, row{txt: w, col: ln.col, f: f, indent: ind, src: i})
		}
	}
	rh := t.lh + 1
	fit := int(in.H / rh)
	if len(rows) > fit && fit > 0 {
		// The middle gives way: the first rows of the request, a count,
		// then the last rows (the outcome). The rows before keepTop and
		// from keepBottom on are kept first.
		top, bot := 0, 0
		for top < len(rows) && rows[top].src < keepTop {
			top++
		}
		for bot < len(rows) && rows[len(rows)-1-bot].src >= keepBottom {
			bot++
		}
		room := fit - 1
		top = min(top, room)
		bot = min(bot, room-top)
		// What room is left goes to the rows just above the outcome.
		bot = min(len(rows)-top, bot+(room-top-bot))
		cut := len(rows) - top - bot
		more := row{col: th.Muted, f: t.face, src: -1, forms: []string{
			fmt.Sprintf("… %d more lines (the FSM pages and the heap's badges show its visits and tries)", cut),
			fmt.Sprintf("… %d more lines", cut),
			fmt.Sprintf("… %d more", cut),
		}}
		kept := append(append([]row{}, rows[:top]...), more)
		rows = append(kept, rows[len(rows)-bot:]...)
	}
	y := in.Y
	for _, rw := range rows {
		box := layout.Rect{X: in.X + rw.indent, Y: y, W: in.W - rw.indent, H: layout.LineHeight(rw.f)}
		role := "steps"
		if rw.src < 0 {
			role = "steps more"
			l.TextForms(role, rw.forms, rw.f, box, rw.col, layout.Left)
		} else {
			fsmBelow(l, role, rw.txt, y+box.H, in)
			l.TextIn(role, rw.txt, rw.f, box, rw.col, layout.Left)
		}
		y += rh
	}
}

// alignedTuple is MAXALIGN(len) on a 64-bit server: what
// RelationGetBufferForTuple adds the fillfactor reserve to.
func alignedTuple(n int) int { return (n + 7) &^ 7 }

// fsmBelow records an overflow when a line of text ends (at bottom)
// below box.
func fsmBelow(l *layout.List, role, s string, bottom float64, box layout.Rect) {
	if bottom > box.Y+box.H+0.5 {
		l.Overflows = append(l.Overflows, layout.Overflow{Role: role, Text: s, Axis: "h", Need: bottom - box.Y, Have: box.H})
	}
}
