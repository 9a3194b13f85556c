package scene

import (
	"fmt"

	"bufferlab/engine/trace"
	"bufferlab/viz/layout"
	"bufferlab/viz/slruview"
)

// Which banks and slots of the SLRU the scene's rows show, and how tall
// they are: all of them when they fit, else a window chosen from the view
// alone (never from map order), so the same view in the same rectangle
// always shows the same slots.

// slruLabelW is the width of a bank's label column (chips and label).
func slruLabelW(w float64) float64 { return 22 + min(170.0, max(120, w*0.13)) }

// slruRowsHeight is the height the bank rows take in a rect of width w
// with at most h for them: rows no taller than the cells' width allows
// (a cell is at most twice as tall as it is wide).
func slruRowsHeight(w, h float64, v *slruview.View, ws []bankWindow, note string, th *layout.Theme) float64 {
	perLine := min(v.BankSize(), slruPerLine)
	cw := (w - slruLabelW(w)) / float64(perLine)
	total := 0.0
	for _, bw := range ws {
		total += float64(bw.lines())*min(cw*1.75, 150) + slruTableH(v) + 4
	}
	if note != "" {
		total += layout.LineHeight(th.Font(layout.Italic, 11)) + 2
	}
	return min(h, total)
}

// bankWindow is what one row of the bank drawing shows: bank's slots lo
// .. hi−1 (all of them unless the bank has more lines than fit).
type bankWindow struct{ bank, lo, hi int }

// lines is the number of lines of slots the window takes.
func (bw bankWindow) lines() int { return (bw.hi - bw.lo + slruPerLine - 1) / slruPerLine }

// slruMinLineH is the least height of a line of slots that stays legible.
const slruMinLineH = 26.0

// bankWindows chooses what the bank rows show in height h. Every bank,
// whole, when they all fit with lines of at least slruMinLineH. Otherwise
// (thousands of banks, or one bank of thousands of slots, as
// slru_buffers=131072 makes) only what fits: the banks where something is
// going on (a lookup, a lock held or waited for, the current event), then
// those that hold pages, then the others in order; and of a bank too tall to fit, the lines around the
// slot in focus (the current event's, else the first one a lookup marks).
// note says what is left out ("" when nothing is).
func bankWindows(v *slruview.View, m slruMarks, cur trace.Event, hasCur bool, h float64) ([]bankWindow, string) {
	nb, size := v.NumBanks(), v.BankSize()
	lines := (size + slruPerLine - 1) / slruPerLine
	extra := slruTableH(v) + 4
	perBank := float64(lines)*slruMinLineH + extra
	if float64(nb)*perBank <= h {
		ws := make([]bankWindow, nb)
		for b := range ws {
			bk := v.Bank(b)
			ws[b] = bankWindow{b, bk.First, bk.End}
		}
		return ws, ""
	}
	// The slot in focus and the busy banks.
	focus := -1
	if hasCur && (cur.Class == trace.OSlot || cur.Class == trace.OSlotIO) && int(cur.Obj) < v.NumSlots() {
		focus = int(cur.Obj)
	}
	if focus < 0 {
		// The first slot a lookup marks (examined, probed, a victim).
		for slot := range m.marks {
			if focus < 0 || slot < focus {
				focus = slot
			}
		}
	}
	busy := map[int]bool{}
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
		// Each backend's lookup, in progress or done: its bank.
		if l := v.Lane(trace.Actor(a)).Lookup; l.HasOp && l.Bank >= 0 && l.Bank < nb {
			busy[l.Bank] = true
		}
	}
	for b := 0; b < nb && len(busy) < nb; b++ {
		if bk := v.Bank(b); bk.Lock != 0 || len(bk.Waiters) > 0 {
			busy[b] = true
		}
	}
	noteFont := 16.0 // the note's line, taken from h
	room := max(h-noteFont, slruMinLineH+extra)
	if perBank > room || nb == 1 {
		// One bank, a window of its lines around the focus.
		// The focus slot's bank, else the first busy one (in bank
		// order: the same bank every frame).
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
		fit := max(1, int((room-extra)/slruMinLineH))
		if fit >= lines {
			return []bankWindow{{b, bk.First, bk.End}}, fmt.Sprintf("bank %d of %d shown (the one in focus)", b, nb)
		}
		f := focus
		if f < bk.First || f >= bk.End {
			f = bk.First
		}
		line := (f - bk.First) / slruPerLine
		first := max(0, min(lines-fit, line-fit/2))
		lo := bk.First + first*slruPerLine
		hi := min(bk.End, lo+fit*slruPerLine)
		note := fmt.Sprintf("slots %d–%d of %d shown (around slot %d)", lo, hi-1, v.NumSlots(), f)
		if nb > 1 {
			note = fmt.Sprintf("bank %d of %d, %s", b, nb, note)
		}
		return []bankWindow{{b, lo, hi}}, note
	}
	k := max(1, int(room/perBank))
	chosen := map[int]bool{}
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
	return ws, fmt.Sprintf("%d of %d banks shown (those in use first); the others are not drawn", len(ws), nb)
}

// slruTableH is the height of a bank's hash-table strip (0 without one).
func slruTableH(v *slruview.View) float64 {
	if !v.Geometry().HasTable() {
		return 0
	}
	return 15
}
