package scene

import (
	"fmt"
	"strings"

	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
	"bufferlab/viz/layout"
	"bufferlab/viz/slruview"
)

// The rows of banks: each bank's label (its number, the backends whose
// page hashes to it, its lock, bank_cur_lru_count, its slots), its lines
// of slots (slru_slot.go) and, for slru=banks+hash, its page → slot
// table, laid out on the grid slruGridFor chose.

// layoutSLRUBankRows lays out the windows ws of the banks in r on grid g.
// Roles: "bank N" (the row, its label, its padlock), "bank N chips",
// "bank N table", and the slots' (layoutSLRUSlot).
func layoutSLRUBankRows(l *layout.List, r layout.Rect, v *slruview.View, g slruGrid, ws []bankWindow, m slruMarks, cur trace.Event, hasCur bool, th *layout.Theme) {
	y := r.Y
	for _, bw := range ws {
		b := bw.bank
		role := fmt.Sprintf("bank %d", b)
		rowH := g.bankH(bw.hi - bw.lo)
		row := layout.Rect{X: r.X, Y: y, W: r.W, H: rowH - g.gap}
		y += rowH
		bk := v.Bank(b)
		l.Fill(role, row, th.SLRU.Row)
		var label, slots layout.Rect
		if g.labelW > 0 {
			label, slots = row.SplitLeft(g.labelW)
			label = label.Inset(2)
		} else {
			label, slots = row.SplitTop(g.labelH)
		}
		layoutBankLabel(l, role, label, v, bk, m.banks[b], g.labelW > 0, hasCur && cur.Class == trace.OBank && int(cur.Obj) == b, g.ft, th)
		var table layout.Rect
		if g.tableH > 0 {
			slots, table = slots.SplitBottom(g.tableH)
		}
		cw := slots.W / float64(g.perLine)
		maxAge, maxCount := int32(1), int32(0)
		for i := bk.First; i < bk.End; i++ {
			if s := v.Slot(i); !s.Empty() {
				maxAge, maxCount = max(maxAge, s.Age), max(maxCount, s.LRUCount)
			}
		}
		shownAge := maxAge // the widest age a cell writes: a victim search's too
		for _, c := range m.cands {
			shownAge = max(shownAge, c.Age)
		}
		lv := slotFormsFor(v, g, cw-4, maxCount, shownAge)
		top := g.ft.pad // above a line of cells: the tabs' strip or a gap
		if g.tabs {
			top = lh(g.ft.badge)
		}
		for i := bw.lo; i < bw.hi; i++ {
			k := i - bw.lo
			cell := layout.Rect{X: slots.X + float64(k%g.perLine)*cw + 2, Y: slots.Y + float64(k/g.perLine)*g.lineH + top, W: cw - 4, H: g.lineH - top}
			changed := hasCur && (cur.Class == trace.OSlot || cur.Class == trace.OSlotIO) && int(cur.Obj) == i
			layoutSLRUSlot(l, cell, v, i, m, maxAge, lv, changed, g, th)
		}
		if g.tableH > 0 {
			layoutBankTable(l, role+" table", table, v, b, m, g.ft, th)
		}
	}
}

// layoutBankLabel lays out a bank's label in r as a flow (column: r is
// the label's box, lines as it holds; else one line over the slots): the
// bank's number in bold, the chips of the backends whose page hashes to
// it (lookups: the backends in progress), the lock (a padlock when held,
// holders with their mode), its waiters, then bank_cur_lru_count and its
// slots' range (with its table's entries), which may be left out (the
// slots and the tooltips say them), as may the chips and the waiters
// (the lookup lines say them).
func layoutBankLabel(l *layout.List, role string, r layout.Rect, v *slruview.View, bk slruview.Bank, lookups []trace.Actor, column, changed bool, ft slruFonts, th *layout.Theme) {
	excl, shared := slruview.Holders(bk.Lock)
	lockName := "lock"
	name := []string{fmt.Sprintf("bank %d", bk.ID)}
	if v.Geometry().Variant == slru.Single {
		// The one "bank": the pane's title says so where its label has
		// no room to.
		lockName, name = "ControlLock", []string{"all slots", ""}
	}
	box := r
	if column {
		l.Fill(role, r, th.Panel)
		switch {
		case excl != 0:
			l.Stroke(role, r, 3, th.Locked)
		case len(shared) > 0:
			l.Stroke(role, r, 2, th.Accent)
		default:
			l.Stroke(role, r, 1, th.PanelEdge)
		}
		in := ft.labelInset() - 2 // r is the column less its margin
		box = layout.Rect{X: r.X + in, Y: r.Y + ft.pad/2, W: r.W - 2*in, H: r.H - ft.pad}
	}
	if changed {
		l.Stroke(role, r.Inset(-2), 2, th.Highlight)
	}
	f := slruFlow{gap: ft.small.Size * 0.5, lh: max(lh(ft.label), lh(ft.small))}
	f.runs = append(f.runs, slruRun{role: role, forms: name, font: ft.label, col: th.Text})
	for _, a := range lookups {
		// A chip may be left out: the backend's lookup line names its
		// bank.
		f.runs = append(f.runs, slruRun{role: role + " chips", forms: []string{v.LaneName(a), ""}, font: ft.badge, col: layout.TextOn(th.Highlight), fill: th.Highlight})
	}
	var lock []string
	switch {
	case excl != 0:
		who := "X " + v.LaneName(excl)
		lock = []string{lockName + ": " + who, who}
	case len(shared) > 0:
		var ns []string
		for _, a := range shared {
			ns = append(ns, v.LaneName(a))
		}
		who := "S " + strings.Join(ns, " ")
		lock = []string{lockName + ": " + who, who}
	default:
		lock = []string{lockName + ": free", "free"}
	}
	lockRun := slruRun{role: role, forms: lock, font: ft.small, col: th.Text, newLine: column}
	if excl != 0 || len(shared) > 0 {
		// The padlock before the lock's holders.
		pw := f.lh * 0.75
		lockRun.markW, lockRun.mark = pw, func(l *layout.List, c layout.Rect) {
			layoutPadlock(l, role, layout.Rect{X: c.X, Y: c.Y + (c.H-pw)/2, W: pw, H: pw}, excl != 0, th)
		}
	}
	f.runs = append(f.runs, lockRun)
	if len(bk.Waiters) > 0 {
		var ws []string
		for _, w := range bk.Waiters {
			mode := "S"
			if w.Mode == slru.LWExclusive {
				mode = "X"
			}
			ws = append(ws, v.LaneName(w.Actor)+"("+mode+")")
		}
		// May be left out: each waiter's lookup line says WAITING, for
		// which lock and in which mode.
		f.runs = append(f.runs, slruRun{role: role, forms: []string{"waiting: " + strings.Join(ws, " "), ""}, font: ft.small, col: th.Error, newLine: column})
	}
	count := fmt.Sprintf("cur_lru_count %d", bk.CurCount)
	f.runs = append(f.runs, slruRun{role: role, forms: []string{count, ""}, font: ft.small, col: th.Muted, newLine: column})
	slots := fmt.Sprintf("#%d–#%d", bk.First, bk.End-1)
	f.runs = append(f.runs, slruRun{role: role, forms: []string{"slots " + slots, slots, ""}, font: ft.small, col: th.Muted, newLine: column})
	if v.Geometry().HasTable() {
		n := len(v.TableEntries(bk.ID))
		f.runs = append(f.runs, slruRun{role: role, forms: []string{fmt.Sprintf("table: %d entries", n), ""}, font: ft.small, col: th.Muted})
	}
	f.layout(l, box)
}

// layoutPadlock lays out a padlock in r (square): closed and filled for
// an exclusive holder, outlined for shared ones (the label says which as
// well).
func layoutPadlock(l *layout.List, role string, r layout.Rect, excl bool, th *layout.Theme) {
	w := max(1.5, r.W/8)
	body := layout.Rect{X: r.X, Y: r.Y + r.H*0.4, W: r.W, H: r.H * 0.6}
	l.Stroke(role, layout.Rect{X: r.X + r.W*0.2, Y: r.Y, W: r.W * 0.6, H: r.H * 0.6}, w, th.Locked)
	if excl {
		l.Fill(role, body, th.Locked)
	} else {
		l.Fill(role, body, th.Panel)
		l.Stroke(role, body, w, th.Accent)
	}
}

// layoutBankTable lays out a bank's page → slot table (banks+hash) on one
// line in r: a backend's probe in progress and what it found first, then
// the entries that fit, the probed one among them, then how many are not
// shown ("+3 more": a hash table's order means nothing, so which ones
// fit is no loss), then the label "hash table:" where it fits.
func layoutBankTable(l *layout.List, role string, r layout.Rect, v *slruview.View, b int, m slruMarks, ft slruFonts, th *layout.Theme) {
	f := ft.mono
	gap := layout.Width(" ", f)
	x, right := r.X+ft.pad, r.X+r.W-ft.pad
	line := layout.Rect{X: x, Y: r.Y, W: right - x, H: lh(f)}
	probe, probing := m.probes[b]
	if probing {
		lk := probe.Lookup
		res := "not there"
		if lk.ProbeSlot >= 0 {
			res = fmt.Sprintf("→ #%d", lk.ProbeSlot)
		}
		forms := []string{
			fmt.Sprintf("%s probes page %d: %s (%s compared)", probe.Name, lk.Page, res, slruPlural(lk.ProbeEntries, "entry", "entries")),
			fmt.Sprintf("%s: %d %s (%d compared)", probe.Name, lk.Page, res, lk.ProbeEntries),
			fmt.Sprintf("%s: %d %s", probe.Name, lk.Page, res),
		}
		// The longest form that leaves room for the probed entry and
		// "+N more" after it.
		bf := th.Font(layout.Bold, 10)
		n := len(v.TableEntries(b))
		room := layout.Width(fmt.Sprintf("%d→#%d", lk.Page, max(0, lk.ProbeSlot)), f) + 2*gap + layout.Width(fmt.Sprintf("+%d more", n), f)
		k := len(forms) - 1
		for i, s := range forms {
			if layout.Width(s, bf)+2*gap+room <= line.W {
				k = i
				break
			}
		}
		s := l.TextForms(role, forms[k:], bf, line, th.Text, layout.Left)
		x += layout.Width(s, bf) + 2*gap
	}
	entries := v.TableEntries(b)
	if len(entries) == 0 {
		l.TextForms(role, []string{"hash table: (empty)", "(empty)", ""}, f, layout.Rect{X: x, Y: r.Y, W: max(0, right-x), H: lh(f)}, th.Muted, layout.Left)
		return
	}
	text := func(e slruview.Entry) string { return fmt.Sprintf("%d→#%d", e.Page, e.Slot) }
	// How many entries fit with the label, or without it, leaving room
	// for "+N more" when some are left out; the probed one is shown first
	// among them when it would not be.
	label := "hash table:"
	more := func(n int) string { return fmt.Sprintf("+%d more", n) }
	fits := func(x float64) int {
		w, n := 0.0, 0
		for i, e := range entries {
			w += layout.Width(text(e), f) + 2*gap
			tail := 0.0
			if i+1 < len(entries) {
				tail = layout.Width(more(len(entries)-i-1), f)
			}
			if x+w-2*gap+tail > right {
				break
			}
			n++
		}
		return n
	}
	withLabel := x + layout.Width(label, f) + 2*gap
	n := fits(withLabel)
	if n == len(entries) {
		l.Text(role, label, f, x, r.Y, 0, th.Muted, layout.Left)
		x = withLabel
	} else {
		n = fits(x)
	}
	shown := entries[:n]
	if probing && probe.Lookup.ProbeSlot >= 0 && n > 0 {
		in := false
		for _, e := range shown {
			in = in || e.Slot == probe.Lookup.ProbeSlot
		}
		if !in {
			for _, e := range entries {
				if e.Slot == probe.Lookup.ProbeSlot {
					shown = append([]slruview.Entry{e}, entries[:n-1]...)
				}
			}
		}
	}
	for _, e := range shown {
		s := text(e)
		w := layout.Width(s, f)
		if probing && probe.Lookup.ProbeSlot == e.Slot {
			l.Fill(role, layout.Rect{X: x - gap/2, Y: r.Y, W: w + gap, H: lh(f)}, th.Highlight)
		}
		l.TextIn(role, s, f, layout.Rect{X: x, Y: r.Y, W: w, H: lh(f)}, th.Text, layout.Left)
		x += w + 2*gap
	}
	if left := len(entries) - len(shown); left > 0 {
		// "+N more" is the deliberate form of the entries left out; "+N",
		// and none (the label counts the table's entries), where even
		// that does not fit.
		l.TextForms(role, []string{more(left), fmt.Sprintf("+%d", left), ""}, f, layout.Rect{X: x, Y: r.Y, W: max(0, right-x), H: lh(f)}, th.Muted, layout.Left)
	}
}

// slruPlural is "1 entry" or "3 entries".
func slruPlural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
