package scene

import (
	"fmt"
	"image/color"
	"strings"

	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
	"bufferlab/viz/layout"
	"bufferlab/viz/slruview"
)

// The rows of banks: each bank's row is the chips of the backends whose
// page hashes to it, its label (number, lock, bank_cur_lru_count), its
// slots (slru_slot.go) and, for slru=banks+hash, its page → slot table.

// layoutSLRUBankRows lays out the windows ws of the banks in r, each row
// as tall as its lines of slots (plus the table strip), shared out evenly.
// Roles: "bank N" (the row, its chips, its label and padlock), "bank N
// table", and the slots' (layoutSLRUSlot).
func layoutSLRUBankRows(l *layout.List, r layout.Rect, v *slruview.View, ws []bankWindow, m slruMarks, cur trace.Event, hasCur bool, th *layout.Theme) {
	perLine := min(v.BankSize(), slruPerLine)
	tableH := slruTableH(v)
	totalLines := 0
	for _, bw := range ws {
		totalLines += bw.lines()
	}
	// Each row as tall as its lines of slots (plus the table strip).
	lineH := (r.H - float64(len(ws))*(tableH+4)) / float64(max(1, totalLines))
	chipW := 22.0
	labelW := slruLabelW(r.W) - chipW
	y := r.Y
	for _, bw := range ws {
		b, lines := bw.bank, bw.lines()
		role := fmt.Sprintf("bank %d", b)
		rowH := float64(lines)*lineH + tableH + 4
		row := layout.Rect{X: r.X, Y: y, W: r.W, H: rowH - 4}
		y += rowH
		bk := v.Bank(b)
		l.Fill(role, row, th.SLRU.Row)
		// Backends whose page hashes to this bank: chips at the left.
		chips, body := row.SplitLeft(chipW)
		for i, a := range m.banks[b] {
			c := layout.Rect{X: chips.X + 2, Y: chips.Y + 4 + float64(i)*(chipW+2), W: chipW - 4, H: chipW - 4}
			if c.Y+c.H > chips.Y+chips.H {
				var left []string
				for _, a := range m.banks[b][i:] {
					left = append(left, v.LaneName(a))
				}
				l.Overflows = append(l.Overflows, layout.Overflow{Role: role + " chips", Text: strings.Join(left, " "), Axis: "h", Need: c.Y + c.H - chips.Y, Have: chips.H})
				break
			}
			layoutBackendChip(l, role+" chips", c, v.LaneName(a), th.Highlight, th)
		}
		label, slots := body.SplitLeft(labelW)
		layoutBankLabel(l, role, label.Inset(2), v, bk, hasCur && cur.Class == trace.OBank && int(cur.Obj) == b, th)
		var table layout.Rect
		if tableH > 0 {
			slots, table = slots.SplitBottom(tableH)
		}
		cw := slots.W / float64(perLine)
		ch := slots.H / float64(lines)
		maxAge := int32(1)
		for i := bk.First; i < bk.End; i++ {
			if s := v.Slot(i); !s.Empty() {
				maxAge = max(maxAge, s.Age)
			}
		}
		for i := bw.lo; i < bw.hi; i++ {
			k := i - bw.lo
			cell := layout.Rect{X: slots.X + float64(k%perLine)*cw, Y: slots.Y + float64(k/perLine)*ch, W: cw, H: ch}.Inset(2)
			cell.Y += 4 // room for the tabs above
			cell.H -= 4
			changed := hasCur && (cur.Class == trace.OSlot || cur.Class == trace.OSlotIO) && int(cur.Obj) == i
			layoutSLRUSlot(l, cell, v, i, m, maxAge, changed, th)
		}
		if tableH > 0 {
			layoutBankTable(l, role+" table", table, v, b, m, th)
		}
	}
}

// layoutBackendChip lays out a backend's name in a small filled box (the
// name centred on the fill's text colour; a name wider than the box is
// recorded as an overflow).
func layoutBackendChip(l *layout.List, role string, c layout.Rect, name string, fill color.RGBA, th *layout.Theme) {
	l.Fill(role, c, fill)
	f := th.Font(layout.Bold, 11)
	textRoom(l, role, name, f, c.X+c.W/2, c.Y+(c.H-layout.LineHeight(f))/2, c.W, layout.TextOn(fill), layout.Center)
}

// layoutBankLabel lays out a bank's number, its lock (holders with their
// mode, waiters), bank_cur_lru_count and its slots' range; the lines that
// do not fit the label's height are recorded as overflows.
func layoutBankLabel(l *layout.List, role string, r layout.Rect, v *slruview.View, bk slruview.Bank, changed bool, th *layout.Theme) {
	face := th.Font(layout.Regular, 11)
	bold := th.Font(layout.Bold, 12)
	lh := layout.LineHeight(face)
	l.Fill(role, r, th.Panel)
	excl, shared := slruview.Holders(bk.Lock)
	lockName := "lock"
	name := fmt.Sprintf("bank %d", bk.ID)
	if v.Geometry().Variant == slru.Single {
		lockName, name = "ControlLock", "all slots"
	}
	var lock string
	switch {
	case excl != 0:
		l.Stroke(role, r, 3, th.Locked)
		lock = fmt.Sprintf("%s: X %s", lockName, v.LaneName(excl))
	case len(shared) > 0:
		l.Stroke(role, r, 2, th.Accent)
		var ns []string
		for _, a := range shared {
			ns = append(ns, v.LaneName(a))
		}
		lock = fmt.Sprintf("%s: S %s", lockName, strings.Join(ns, " "))
	default:
		l.Stroke(role, r, 1, th.PanelEdge)
		lock = lockName + ": free"
	}
	if changed {
		l.Stroke(role, r.Inset(-2), 2, th.Highlight)
	}
	y := r.Y + 3
	textRoom(l, role, name, bold, r.X+6, y, r.W-6, th.Text, layout.Left)
	if excl != 0 || len(shared) > 0 {
		layoutPadlock(l, role, r.X+r.W-16, y+2, excl != 0, th)
	}
	y += layout.LineHeight(bold)
	type line struct {
		s string
		c color.RGBA
	}
	lines := []line{{lock, th.Text}}
	if len(bk.Waiters) > 0 {
		var ws []string
		for _, w := range bk.Waiters {
			mode := "S"
			if w.Mode == slru.LWExclusive {
				mode = "X"
			}
			ws = append(ws, v.LaneName(w.Actor)+"("+mode+")")
		}
		lines = append(lines, line{"waiting: " + strings.Join(ws, " "), th.Error})
	}
	lines = append(lines, line{fmt.Sprintf("cur_lru_count %d", bk.CurCount), th.Muted})
	extra := fmt.Sprintf("slots #%d–#%d", bk.First, bk.End-1)
	if v.Geometry().HasTable() {
		extra += fmt.Sprintf(", table %d", len(v.TableEntries(bk.ID)))
	}
	lines = append(lines, line{extra, th.Muted})
	for _, ln := range lines {
		if y+lh > r.Y+r.H {
			l.Overflows = append(l.Overflows, layout.Overflow{Role: role, Text: ln.s, Axis: "h", Need: y + lh - r.Y, Have: r.H})
			continue
		}
		textRoom(l, role, ln.s, face, r.X+6, y, r.W-6, ln.c, layout.Left)
		y += lh
	}
}

// layoutPadlock lays out a small padlock: closed and filled for an
// exclusive holder, outlined for shared ones (the label says which as
// well).
func layoutPadlock(l *layout.List, role string, x, y float64, excl bool, th *layout.Theme) {
	body := layout.Rect{X: x, Y: y + 5, W: 11, H: 8}
	l.Stroke(role, layout.Rect{X: x + 2, Y: y, W: 7, H: 8}, 1.5, th.Locked)
	if excl {
		l.Fill(role, body, th.Locked)
	} else {
		l.Fill(role, body, th.Panel)
		l.Stroke(role, body, 1.5, th.Accent)
	}
}

// layoutBankTable lays out a bank's page → slot table (banks+hash) and
// the probe in progress, on one line: the entries that do not fit and a
// probe's result that does not fit are recorded as overflows.
func layoutBankTable(l *layout.List, role string, r layout.Rect, v *slruview.View, b int, m slruMarks, th *layout.Theme) {
	f := th.Font(layout.Mono, 9.5)
	x := r.X + 4
	y := r.Y
	lbl := "hash table:"
	col := th.Muted
	probe, probing := m.probes[b]
	l.Text(role, lbl, f, x, y, 0, col, layout.Left)
	x += layout.Width(lbl, f) + 6
	entries := v.TableEntries(b)
	if len(entries) == 0 {
		l.Text(role, "(empty)", f, x, y, 0, th.Muted, layout.Left)
		x += layout.Width("(empty)", f) + 10
	}
	for i, e := range entries {
		s := fmt.Sprintf("%d→#%d", e.Page, e.Slot)
		w := layout.Width(s, f)
		if x+w > r.X+r.W-4 {
			var left []string
			for _, e := range entries[i:] {
				left = append(left, fmt.Sprintf("%d→#%d", e.Page, e.Slot))
			}
			rest := strings.Join(left, " ")
			l.Overflows = append(l.Overflows, layout.Overflow{Role: role, Text: rest, Axis: "w", Need: layout.Width(rest, f), Have: max(0, r.X+r.W-4-x)})
			break
		}
		if probing && probe.Lookup.ProbeSlot == e.Slot {
			l.Fill(role, layout.Rect{X: x - 2, Y: y, W: w + 4, H: layout.LineHeight(f)}, th.Highlight)
		}
		l.Text(role, s, f, x, y, 0, th.Text, layout.Left)
		x += w + 10
	}
	if probing {
		lk := probe.Lookup
		res := fmt.Sprintf("%s probes page %d: ", probe.Name, lk.Page)
		if lk.ProbeSlot >= 0 {
			res += fmt.Sprintf("→ #%d", lk.ProbeSlot)
		} else {
			res += "not there"
		}
		res += fmt.Sprintf(" (%d compared)", lk.ProbeEntries)
		bf := th.Font(layout.Bold, 10)
		if w := layout.Width(res, bf); x+w < r.X+r.W {
			l.Text(role, res, bf, r.X+r.W-4, y, 0, th.Text, layout.Right)
		} else {
			l.Overflows = append(l.Overflows, layout.Overflow{Role: role, Text: res, Axis: "w", Need: w, Have: max(0, r.X+r.W-x)})
		}
	}
}
