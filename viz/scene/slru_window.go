package scene

import (
	"fmt"
	"strings"

	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
	"bufferlab/viz/layout"
	"bufferlab/viz/slruview"
)

// How the banks are drawn in the room there is, and which of them: the
// scene's type (slruFonts, from the theme: the frame sets its floor), the
// grid the rows of slots follow (slruGrid: slots per line, lines of text
// a cell holds, where a bank's label goes, all measured from that type),
// and, when not every bank fits, a window of them chosen from the view
// alone (never from map order), so the same view in the same rectangle
// always shows the same slots.

// slruFonts is the SLRU scene's type, asked of the theme (which scales it
// and holds it at or above the frame's floor): every length of the scene
// that holds text is measured from it, none is a fixed number of pixels.
type slruFonts struct {
	text, bold   layout.Font // the header and the lookup lines
	small, label layout.Font // a bank's label and the legend; the bank's name
	num, page    layout.Font // a slot's number, state and age; its page
	badge        layout.Font // the tabs above a slot, its badges
	mono         layout.Font // a bank's hash table
	note         layout.Font // what a window of the banks leaves out
	chart        layout.Font // the victim chart's labels
	pad          float64     // padding inside a cell, a label, a box
}

func slruFontsOf(th *layout.Theme) slruFonts {
	ft := slruFonts{
		text: th.Font(layout.Regular, 12), bold: th.Font(layout.Bold, 12),
		small: th.Font(layout.Regular, 11), label: th.Font(layout.Bold, 12),
		num: th.Font(layout.Regular, 10), page: th.Font(layout.Bold, 12),
		badge: th.Font(layout.Bold, 9), mono: th.Font(layout.Mono, 10),
		note: th.Font(layout.Italic, 11), chart: th.Font(layout.Regular, 10),
	}
	ft.pad = max(2, ft.num.Size*0.25)
	return ft
}

// lh is the line height of a font.
func lh(f layout.Font) float64 { return layout.LineHeight(f) }

// ageBarH is the height a cell keeps at its bottom for the age bar.
func (ft slruFonts) ageBarH() float64 { return max(3, ft.num.Size*0.2) + 2 }

// cellH is the height of a cell with n lines of text: number (with the
// state or the I/O lock beside it), page, state, LRU count and age,
// badges; one line is the number and the page side by side.
func (ft slruFonts) cellH(n int) float64 {
	h := ft.pad + ft.ageBarH()
	if n <= 1 {
		return h + max(lh(ft.num), lh(ft.page))
	}
	for i, x := range []float64{lh(ft.num), lh(ft.page), lh(ft.num), lh(ft.num), lh(ft.badge)} {
		if i < n {
			h += x
		}
	}
	return h
}

// slruTemplates are the widest slot number and page of v, as digits: a
// cell must hold them (digits are equally wide in the Go fonts).
func slruTemplates(v *slruview.View) (num, page string) {
	return "#" + zeros(v.NumSlots()-1), zeros(int(max(v.LatestPage(), 9)))
}

func zeros(n int) string { return strings.Repeat("0", len(fmt.Sprint(n))) }

// cellW is the least width of a cell with n lines of text: the number
// and the page side by side on one line, or above each other.
func (ft slruFonts) cellW(n int, num, page string) float64 {
	if n <= 1 {
		return layout.Width(num, ft.num) + layout.Width("p"+page, ft.page) + 3*ft.pad + 4
	}
	return max(layout.Width(num, ft.num), layout.Width("p "+page, ft.page)) + 2*ft.pad + 4
}

// slruGrid is how the rows of banks are drawn: the slots on a line of a
// bank, the lines of text in a cell, where a bank's label goes and the
// heights that follow.
type slruGrid struct {
	ft      slruFonts
	perLine int     // slots on a line of a bank
	text    int     // lines of text in a cell, 1 to 5 (cellH)
	tabs    bool    // a strip above each line of cells for the lookups' tabs
	labelW  float64 // the label column; 0: the label is a line above the slots
	labelH  float64 // that line (0 with a column)
	lineH   float64 // a line of cells, its tab strip included
	tableH  float64 // a bank's hash table strip (0 without a table)
	gap     float64 // below each bank
}

// lines is the number of lines n slots take.
func (g slruGrid) lines(n int) int { return (n + g.perLine - 1) / g.perLine }

// bankH is the height of a bank's row showing n slots.
func (g slruGrid) bankH(n int) float64 {
	return g.labelH + float64(g.lines(n))*g.lineH + g.tableH + g.gap
}

// slruLabelColW is the width of a bank's label as a column: its widest
// usual line (the lock when free, bank_cur_lru_count).
func slruLabelColW(v *slruview.View, ft slruFonts) float64 {
	lock := "lock: free"
	if v.Geometry().Variant == slru.Single {
		lock = "ControlLock: free"
	}
	return max(layout.Width(lock, ft.small), layout.Width("cur_lru_count 00", ft.small)) + 2*ft.labelInset()
}

// labelInset is the space between a bank's label column and its text, on
// each side: the column's margin and the text's padding.
func (ft slruFonts) labelInset() float64 { return 2 + ft.pad + 2 }

// slruGridFor chooses the grid for v's banks in w × h: of the grids
// whose cells are wide enough for their lines of text, with the label as
// a column at the left or as a line above each bank, the one that shows
// most (every bank whole, else the banks where something is going on, at
// least one, see bankWindows, else one line of slots; but with its hash
// table's strip, slru=banks+hash, before every bank), then with the most
// slots on a line (a bank is one row where it can be), a strip for the
// lookups' tabs, the most lines of text, and the label as a column, in
// that order (slruGrid.better). ok is false when not even one line of
// cells fits h.
func slruGridFor(v *slruview.View, ft slruFonts, busy int, w, h float64) (slruGrid, bool) {
	num, page := slruTemplates(v)
	lineSlots := min(v.BankSize(), slruPerLine)
	base := slruGrid{ft: ft, gap: 2 * ft.pad}
	col, top := base, base
	col.labelW = slruLabelColW(v, ft)
	top.labelH = max(lh(ft.label), lh(ft.small)) + ft.pad
	modes := []slruGrid{col, top}
	if v.Geometry().HasTable() {
		// With the table's strip under each bank, or, where that leaves
		// no line of slots, without (the label counts the entries, the
		// lookup line says what a probe found).
		for _, g := range []slruGrid{col, top} {
			g.tableH = lh(ft.mono) + ft.pad
			modes = append([]slruGrid{g}, modes...)
		}
	}
	var best slruGrid
	found := false
	for _, g := range modes {
		slotsW := w - g.labelW
		for p := lineSlots; p >= 1; p = p / 2 {
			for _, tabs := range []bool{true, false} {
				for n := 5; n >= 1; n-- {
					c := g
					c.perLine, c.text, c.tabs = p, n, tabs
					if slotsW/float64(p) < ft.cellW(n, num, page) {
						continue
					}
					c.lineH = ft.cellH(n) + ft.pad
					if tabs {
						c.lineH = ft.cellH(n) + lh(ft.badge)
					}
					if c.level(v, busy, h) >= 0 && (!found || c.better(best, v, busy, h, h)) {
						best, found = c, true
					}
				}
			}
		}
	}
	if !found {
		// Not one line: the lowest line there is, for the overflow.
		best = col
		best.perLine, best.text = 1, 1
		best.lineH = ft.cellH(1) + ft.pad
		return best, false
	}
	return best, true
}

// level is how much of v grid g shows in height h: 2, every bank whole;
// 1, the busy banks whole (at least one); 0, one line of slots; −1, not
// even that.
func (g slruGrid) level(v *slruview.View, busy int, h float64) int {
	nb, size := v.NumBanks(), v.BankSize()
	switch {
	case float64(nb)*g.bankH(size) <= h:
		return 2
	case float64(min(nb, max(1, busy)))*g.bankH(size) <= h:
		return 1
	case g.labelH+g.lineH+g.tableH <= h:
		return 0
	}
	return -1
}

// lineSlots is how many slots of one bank grid g shows in whole lines in
// height h.
func (g slruGrid) lineSlots(v *slruview.View, h float64) int {
	lines := int((h - g.labelH - g.tableH - g.gap + 0.5) / g.lineH)
	return max(0, min(lines*g.perLine, v.BankSize()))
}

// better reports whether grid g in height h shows v better than grid o in
// height oh: the banks that matter whole (level 1 or 2), else the table's
// strip (the point of slru=banks+hash: it is worth leaving the quiet
// banks out), else more of v (level; and of a window of lines, more
// slots), else more slots on a line, else the tabs' strip, else more
// lines of text, else the label as a column.
func (g slruGrid) better(o slruGrid, v *slruview.View, busy int, h, oh float64) bool {
	b2i := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	ga, gb := g.level(v, busy, h), o.level(v, busy, oh)
	// A window of lines (level 0): the more slots around the focus, the
	// more of the search it shows.
	sa, sb := 0, 0
	if ga == 0 && gb == 0 {
		sa, sb = g.lineSlots(v, h), o.lineSlots(v, oh)
	}
	a := [8]int{min(ga, 1), b2i(g.tableH > 0), ga, sa, g.perLine, b2i(g.tabs), g.text, b2i(g.labelW > 0)}
	b := [8]int{min(gb, 1), b2i(o.tableH > 0), gb, sb, o.perLine, b2i(o.tabs), o.text, b2i(o.labelW > 0)}
	for i := range a {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return false
}

// bankWindow is what one row of the bank drawing shows: bank's slots lo
// .. hi−1 (all of them unless the bank has more lines than fit).
type bankWindow struct{ bank, lo, hi int }

// slruBusyBanks are the banks where something is going on: a lookup (in
// progress or done), a hash probe, a lock held or waited for, the current
// event's bank or slot (focus, −1 for none: the current event's slot, else
// the first slot a lookup marks, else the slot the lookup of the backend
// that acted last found).
func slruBusyBanks(v *slruview.View, m slruMarks, cur trace.Event, hasCur bool) (busy map[int]bool, focus int) {
	nb, size := v.NumBanks(), v.BankSize()
	focus = -1
	if hasCur && (cur.Class == trace.OSlot || cur.Class == trace.OSlotIO) && int(cur.Obj) < v.NumSlots() {
		focus = int(cur.Obj)
	}
	if focus < 0 {
		for slot := range m.marks {
			if focus < 0 || slot < focus {
				focus = slot
			}
		}
	}
	if focus < 0 && hasCur && int(cur.Actor) < v.NumLanes() {
		// The slot the backend that acted last found, claimed or waited
		// for (its lookup done: what the step just showed).
		if l := v.Lane(cur.Actor).Lookup; l.HasOp && l.Slot >= 0 && l.Slot < v.NumSlots() {
			focus = l.Slot
		}
	}
	busy = map[int]bool{}
	for b := range m.banks {
		busy[b] = true
	}
	for b := range m.probes {
		busy[b] = true
	}
	if hasCur && cur.Class == trace.OBank && int(cur.Obj) < nb {
		busy[int(cur.Obj)] = true
	}
	if focus >= 0 {
		busy[focus/size] = true
	}
	for a := 1; a < v.NumLanes(); a++ {
		if l := v.Lane(trace.Actor(a)).Lookup; l.HasOp && l.Bank >= 0 && l.Bank < nb {
			busy[l.Bank] = true
		}
	}
	for b := 0; b < nb && len(busy) < nb; b++ {
		if bk := v.Bank(b); bk.Lock != 0 || len(bk.Waiters) > 0 {
			busy[b] = true
		}
	}
	return busy, focus
}

// bankWindows chooses what the bank rows of grid g show in height h.
// Every bank, whole, when they all fit. Otherwise (thousands of banks,
// one bank of thousands of slots as slru_buffers=131072 makes, or a
// small pane) only what fits below a line saying what is left out: the
// bank of the slot in focus, the other banks where something is going on
// (slruBusyBanks), then those that hold pages, then the others in order;
// and of a bank too tall to fit, the lines around the slot in focus. note is that line's forms, longest
// first, the last "" (the pane's title or the scene's header gives the
// geometry): nil when nothing is left out.
func bankWindows(v *slruview.View, g slruGrid, m slruMarks, cur trace.Event, hasCur bool, h float64) ([]bankWindow, []string) {
	nb, size := v.NumBanks(), v.BankSize()
	perBank := g.bankH(size)
	if float64(nb)*perBank <= h {
		ws := make([]bankWindow, nb)
		for b := range ws {
			bk := v.Bank(b)
			ws[b] = bankWindow{b, bk.First, bk.End}
		}
		return ws, nil
	}
	busy, focus := slruBusyBanks(v, m, cur, hasCur)
	// The note's line is taken from h where that costs no bank and no
	// line of slots (else the note is left out: the scene's header or the
	// pane's title says how many banks there are).
	fit := func(h float64) (banks, lines int) {
		return int((h + 0.5) / perBank), int((h - g.labelH - g.tableH - g.gap + 0.5) / g.lineH)
	}
	room := h
	nh := lh(g.ft.note) + g.ft.pad
	if k, n := fit(h); h-nh > 0 {
		if k2, n2 := fit(h - nh); k2 == k && (k > 0 && nb > 1 || n2 == n) {
			room = h - nh
		}
	}
	if perBank > room || nb == 1 {
		// One bank, a window of its lines around the focus: the focus
		// slot's bank, else the first busy one (in bank order: the same
		// bank every frame).
		b := 0
		if focus >= 0 {
			b = focus / size
		} else {
			for bb := 0; bb < nb; bb++ {
				if busy[bb] {
					b = bb
					break
				}
			}
		}
		bk := v.Bank(b)
		lines := g.lines(size)
		_, fit := fit(room)
		fit = max(1, fit)
		if fit >= lines {
			return []bankWindow{{b, bk.First, bk.End}}, []string{
				fmt.Sprintf("bank %d of %d shown (the one in focus)", b, nb), fmt.Sprintf("bank %d of %d", b, nb), ""}
		}
		f := focus
		if f < bk.First || f >= bk.End {
			f = bk.First
		}
		line := (f - bk.First) / g.perLine
		first := max(0, min(lines-fit, line-fit/2))
		lo := bk.First + first*g.perLine
		hi := min(bk.End, lo+fit*g.perLine)
		note := fmt.Sprintf("slots %d–%d of %d shown (around slot %d)", lo, hi-1, v.NumSlots(), f)
		short := fmt.Sprintf("slots %d–%d of %d", lo, hi-1, v.NumSlots())
		if nb > 1 {
			note = fmt.Sprintf("bank %d of %d, %s", b, nb, note)
			short = fmt.Sprintf("bank %d, %s", b, short)
		}
		return []bankWindow{{b, lo, hi}}, []string{note, short, ""}
	}
	k := max(1, int((room+0.5)/perBank))
	chosen := map[int]bool{}
	if focus >= 0 {
		chosen[focus/size] = true // the current event's bank first
	}
	for b := 0; b < nb && len(chosen) < k; b++ {
		if busy[b] {
			chosen[b] = true
		}
	}
	// Then the banks that hold pages, then the others, in order.
	for b := 0; b < nb && len(chosen) < k; b++ {
		bk := v.Bank(b)
		for i := bk.First; i < bk.End; i++ {
			if !v.Slot(i).Empty() {
				chosen[b] = true
				break
			}
		}
	}
	for b := 0; b < nb && len(chosen) < k; b++ {
		chosen[b] = true
	}
	var ws []bankWindow
	for b := 0; b < nb; b++ {
		if chosen[b] {
			bk := v.Bank(b)
			ws = append(ws, bankWindow{b, bk.First, bk.End})
		}
	}
	return ws, []string{
		fmt.Sprintf("%d of %d banks shown (those in use first); the others are not drawn", len(ws), nb),
		fmt.Sprintf("%d of %d banks shown", len(ws), nb), ""}
}

// rowsH is the height the windows ws take in grid g, with the note's line
// when there is one.
func (g slruGrid) rowsH(ws []bankWindow, note []string) float64 {
	h := 0.0
	for _, w := range ws {
		h += g.bankH(w.hi - w.lo)
	}
	if note != nil {
		h += lh(g.ft.note) + g.ft.pad
	}
	return h
}
