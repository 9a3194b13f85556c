package scene

import (
	"fmt"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
	"bufferlab/viz/layout"
	view "bufferlab/viz/poolview"
)

// stateWordKinds are the events that read or write a buffer's state word.
var stateWordKinds = map[trace.Kind]bool{
	trace.KLoad: true, trace.KCAS: true, trace.KCASFail: true, trace.KLockHdr: true,
	trace.KUnlockHdr: true, trace.KSpin: true, trace.KDirty: true, trace.KUsageDown: true,
}

// IsStateWordEvent reports whether e reads or writes a buffer's state word.
func IsStateWordEvent(e trace.Event) bool {
	return e.Class == trace.OBuffer && stateWordKinds[e.Kind]
}

// LastStateWordEvent finds the last state-word event among the first pos
// events, looking back at most limit events.
func LastStateWordEvent(events trace.Events, pos, limit int) (trace.Event, bool) {
	for i := pos - 1; i >= 0 && i >= pos-limit; i-- {
		if e := events.At(i); IsStateWordEvent(e) {
			return e, true
		}
	}
	return trace.Event{}, false
}

// flagLabels names bits 22–31, high bit first, short enough for a cell,
// with three-letter names for narrow strips.
var flagLabels = []struct {
	bit                  uint32
	label, short, letter string
}{
	{bufmgr.BmPermanent, "PERM", "PRM", "P"}, {bufmgr.BmCheckpointNeeded, "CKPT", "CKP", "C"}, {bufmgr.BmPinCountWaiter, "PINW", "PNW", "W"},
	{bufmgr.BmJustDirtied, "JDIR", "JDR", "J"}, {bufmgr.BmIOError, "IOER", "IOE", "E"}, {bufmgr.BmIOInProgress, "IO", "IO", "I"},
	{bufmgr.BmTagValid, "TAGV", "TGV", "T"}, {bufmgr.BmValid, "VALID", "VAL", "V"}, {bufmgr.BmDirty, "DIRTY", "DRT", "D"}, {bufmgr.BmLocked, "LOCK", "LCK", "L"},
}

// flagForm is a flag's label in one of its forms: 0 the full name, 1
// three letters, 2 one letter (the legend spells them out).
func flagForm(i, form int) string {
	f := flagLabels[i]
	return [...]string{f.label, f.short, f.letter}[form]
}

// LayoutStateWord lays out the 32-bit state word of the buffer the
// current event touched, as PostgreSQL packs it (buf_internals.h): the ten
// flags (bits 31–22, each a labelled cell, set ones filled and marked), the
// usage count (bits 21–18) and the refcount (bits 17–0) with their values.
// For a compare-and-swap it shows the word before and after; for a failed
// one the value the backend expected and the value it found. Changed bits
// are outlined. Labels wider than their cells are recorded as overflows.
//
// e is the state-word event to show: the current event when it is one,
// else the last one before it (LastStateWordEvent); ok false shows a hint.
func LayoutStateWord(l *layout.List, r layout.Rect, e trace.Event, ok bool, p *view.Pool, th *layout.Theme) {
	face := th.Font(layout.Regular, 11)
	lh := layout.LineHeight(face)
	if !ok || !IsStateWordEvent(e) {
		hint := []string{"The state word of the buffer the current event reads or writes appears here.",
			"The state word of the buffer in use appears here.", "State word: none yet", ""}
		l.TextForms("state word", hint, face, layout.Rect{X: r.X, Y: r.Y, W: r.W, H: lh}, th.Muted, layout.Left)
		return
	}
	who := p.Lane(e.Actor).Name
	// The words to draw, one row each.
	type wordRow struct {
		label string
		word  uint32
	}
	var rows []wordRow
	switch e.Kind {
	case trace.KLoad:
		rows = []wordRow{{"loaded", uint32(e.After)}}
	case trace.KCASFail:
		rows = []wordRow{{"expected", uint32(e.Before)}, {"found", uint32(e.After)}}
	case trace.KSpin:
		rows = []wordRow{{"locked", uint32(e.After)}}
	default:
		rows = []wordRow{{"before", uint32(e.Before)}, {"after", uint32(e.After)}}
	}
	title := fmt.Sprintf("buffer %d state word, %s by %s (event %d)", e.Obj, e.Kind, who, e.Seq)
	bold := th.Font(layout.Bold, 11)
	if e.Kind == trace.KCASFail {
		if long := title + ": the word changed since it was read, so the CAS fails and the loop retries"; layout.Width(long, bold) <= r.W {
			title = long
		} else {
			title = fmt.Sprintf("buffer %d: %s's CAS fails (the word changed), retry", e.Obj, who)
		}
	}
	if e.Kind == trace.KSpin && layout.Width(title+": BM_LOCKED is set, spin", bold) <= r.W {
		title += ": BM_LOCKED is set, spin"
	}
	// The title's shorter forms: who did what to which buffer, then the
	// buffer alone.
	l.TextForms("state word title", []string{title, fmt.Sprintf("buffer %d: %s by %s", e.Obj, e.Kind, who), fmt.Sprintf("buffer %d", e.Obj)},
		bold, layout.Rect{X: r.X, Y: r.Y, W: r.W, H: layout.LineHeight(bold)}, th.Text, layout.Left)
	labelW := layout.Width("expected ", face)
	// Not to scale: the ten flags get room for their names. The widest
	// layout that fits is used: the flags' full names and the counts
	// spelt out; then three-letter names; then the counts written short
	// (a pane of the side-by-side scene, or large type).
	avail := r.W - labelW
	lf := th.Font(layout.Regular, 8.5)
	cellFor := func(form int) float64 {
		w := 0.0
		for i := range flagLabels {
			w = max(w, layout.Width(flagForm(i, form), lf))
		}
		return w + th.Px(4)
	}
	usageFmt, rcFmt := "usage %d (21–18)", "refcount %d   (bits 17–0)"
	countsW := func(u, rc string) float64 {
		return layout.Width(fmt.Sprintf(u, 5), face) + layout.Width(fmt.Sprintf(rc, 99), face) + th.Px(16)
	}
	form := 0
	switch {
	case 10*cellFor(0)+countsW(usageFmt, rcFmt) <= avail:
	case 10*cellFor(1)+countsW(usageFmt, rcFmt) <= avail:
		form = 1
	case 10*cellFor(1)+countsW("u %d", "rc %d") <= avail:
		form, usageFmt, rcFmt = 1, "u %d", "rc %d"
	default:
		form, usageFmt, rcFmt = 2, "u %d", "rc %d"
	}
	// The slack is shared: the flags' cells grow to 44% of the strip, the
	// counts take the rest in the proportion 16:40.
	cellW := max(cellFor(form), avail*0.44/10)
	if 10*cellFor(2)+countsW(usageFmt, rcFmt) > avail {
		// Too narrow for the flags even as letters: the counts alone
		// (the lanes and the cells' tooltips name the flags).
		cellW = 0
	}
	rest := avail - 10*cellW
	usageNeed := layout.Width(fmt.Sprintf(usageFmt, 5), face) + th.Px(8)
	usageW := max(usageNeed, min(rest*16/56, rest-(countsW(usageFmt, rcFmt)-usageNeed)))
	rowH := min((r.H-lh-2)/float64(len(rows)), lh*1.6)
	y := r.Y + lh + 2
	var other uint32
	if len(rows) == 2 {
		other = rows[0].word ^ rows[1].word
	}
	for ri, row := range rows {
		role := "word " + row.label
		l.Text(role, row.label, face, r.X, y+(rowH-lh)/2, labelW, th.Text, layout.Left)
		x0 := r.X + labelW
		// Flags: bits 31..22.
		for i, f := range flagLabels {
			if cellW == 0 {
				break
			}
			c := layout.Rect{X: x0 + float64(i)*cellW, Y: y, W: cellW - 1, H: rowH - 2}
			lbl := flagForm(i, form)
			set := row.word&f.bit != 0
			fill := th.Free
			if set {
				fill = th.Accent
			}
			l.Fill(role, c, fill)
			if ri == len(rows)-1 && other&f.bit != 0 {
				l.Stroke("changed", c, 2, th.Highlight)
			}
			// A set flag is filled and its name drawn in full contrast; a
			// clear one keeps its name, muted, so no state is colour alone.
			col := th.Muted
			if set {
				col = layout.TextOn(fill)
			}
			l.TextIn(role, lbl, lf, c, col, layout.Center)
		}
		// Usage count: bits 21..18, one field.
		uc := bufmgr.StateUsagecount(row.word)
		u := layout.Rect{X: x0 + 10*cellW, Y: y, W: usageW - 1, H: rowH - 2}
		l.Fill(role+" usage", u, th.UsageRamp[min(uc, 5)])
		if ri == len(rows)-1 && other&bufmgr.BufUsagecountMask != 0 {
			l.Stroke("changed", u, 2, th.Highlight)
		}
		l.TextIn(role+" usage", fmt.Sprintf(usageFmt, uc), face, u, layout.TextOn(th.UsageRamp[min(uc, 5)]), layout.Center)
		// Refcount: bits 17..0, one field.
		rc := layout.Rect{X: u.X + u.W + 1, Y: y, W: rest - usageW - 1, H: rowH - 2}
		fill := th.Free
		if bufmgr.StateRefcount(row.word) > 0 {
			fill = th.Pinned
		}
		l.Fill(role+" refcount", rc, fill)
		if ri == len(rows)-1 && other&bufmgr.BufRefcountMask != 0 {
			l.Stroke("changed", rc, 2, th.Highlight)
		}
		l.TextIn(role+" refcount", fmt.Sprintf(rcFmt, bufmgr.StateRefcount(row.word)), face, rc, layout.TextOn(fill), layout.Center)
		y += rowH
	}
}
