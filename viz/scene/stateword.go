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
func LastStateWordEvent(events []trace.Event, pos, limit int) (trace.Event, bool) {
	for i := pos - 1; i >= 0 && i >= pos-limit; i-- {
		if IsStateWordEvent(events[i]) {
			return events[i], true
		}
	}
	return trace.Event{}, false
}

// flagLabels names bits 22–31, high bit first, short enough for a cell,
// with three-letter names for narrow strips.
var flagLabels = []struct {
	bit          uint32
	label, short string
}{
	{bufmgr.BmPermanent, "PERM", "PRM"}, {bufmgr.BmCheckpointNeeded, "CKPT", "CKP"}, {bufmgr.BmPinCountWaiter, "PINW", "PNW"},
	{bufmgr.BmJustDirtied, "JDIR", "JDR"}, {bufmgr.BmIOError, "IOER", "IOE"}, {bufmgr.BmIOInProgress, "IO", "IO"},
	{bufmgr.BmTagValid, "TAGV", "TGV"}, {bufmgr.BmValid, "VALID", "VAL"}, {bufmgr.BmDirty, "DIRTY", "DRT"}, {bufmgr.BmLocked, "LOCK", "LCK"},
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
		l.Text("state word", "The state word of the buffer the current event reads or writes appears here.", face, r.X, r.Y, r.W, th.Muted, layout.Left)
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
	l.Text("state word title", title, bold, r.X, r.Y, r.W, th.Text, layout.Left)
	labelW := layout.Width("expected ", face)
	// Not to scale: the ten flags get room for their names. A narrow strip
	// (a pane of the side-by-side scene) gives them more and writes the
	// counts short.
	avail := r.W - labelW
	flagFrac, usageFrac, rcFrac := 0.44, 0.16, 0.40
	usageFmt, rcFmt := "usage %d (21–18)", "refcount %d   (bits 17–0)"
	if avail < 640 {
		flagFrac, usageFrac, rcFrac = 0.64, 0.14, 0.22
		usageFmt, rcFmt = "u %d", "rc %d"
	}
	cellW := avail * flagFrac / 10
	rowH := min((r.H-lh-2)/float64(len(rows)), lh*1.6)
	y := r.Y + lh + 2
	var other uint32
	if len(rows) == 2 {
		other = rows[0].word ^ rows[1].word
	}
	// Every flag's name in the same face: the full names if they all fit,
	// else three letters, in a smaller face if need be.
	lf, short := th.Font(layout.Regular, 8.5), false
	fits := func() bool {
		for _, f := range flagLabels {
			l := f.label
			if short {
				l = f.short
			}
			if layout.Width(l, lf) > cellW-3 {
				return false
			}
		}
		return true
	}
	if !fits() {
		short = true
		if !fits() {
			lf = th.Font(layout.Regular, 7)
		}
	}
	for ri, row := range rows {
		role := "word " + row.label
		l.Text(role, row.label, face, r.X, y+(rowH-lh)/2, labelW, th.Text, layout.Left)
		x0 := r.X + labelW
		// Flags: bits 31..22.
		for i, f := range flagLabels {
			c := layout.Rect{X: x0 + float64(i)*cellW, Y: y, W: cellW - 1, H: rowH - 2}
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
			lbl := f.label
			if short {
				lbl = f.short
			}
			col := th.Muted
			if set {
				col = layout.TextOn(fill)
			}
			l.Text(role, lbl, lf, c.X+c.W/2, c.Y+(c.H-layout.LineHeight(lf))/2, c.W, col, layout.Center)
			tallOverflow(l, role, lbl, lf, c.H)
		}
		// Usage count: bits 21..18, one field.
		uc := bufmgr.StateUsagecount(row.word)
		u := layout.Rect{X: x0 + 10*cellW, Y: y, W: avail*usageFrac - 1, H: rowH - 2}
		l.Fill(role+" usage", u, th.UsageRamp[min(uc, 5)])
		if ri == len(rows)-1 && other&bufmgr.BufUsagecountMask != 0 {
			l.Stroke("changed", u, 2, th.Highlight)
		}
		l.Text(role+" usage", fmt.Sprintf(usageFmt, uc), face, u.X+u.W/2, u.Y+(u.H-lh)/2, u.W, layout.TextOn(th.UsageRamp[min(uc, 5)]), layout.Center)
		tallOverflow(l, role+" usage", fmt.Sprintf(usageFmt, uc), face, u.H)
		// Refcount: bits 17..0, one field.
		rc := layout.Rect{X: u.X + u.W + 1, Y: y, W: avail*rcFrac - 1, H: rowH - 2}
		fill := th.Free
		if bufmgr.StateRefcount(row.word) > 0 {
			fill = th.Pinned
		}
		l.Fill(role+" refcount", rc, fill)
		if ri == len(rows)-1 && other&bufmgr.BufRefcountMask != 0 {
			l.Stroke("changed", rc, 2, th.Highlight)
		}
		l.Text(role+" refcount", fmt.Sprintf(rcFmt, bufmgr.StateRefcount(row.word)), face, rc.X+rc.W/2, rc.Y+(rc.H-lh)/2, rc.W, layout.TextOn(fill), layout.Center)
		tallOverflow(l, role+" refcount", fmt.Sprintf(rcFmt, bufmgr.StateRefcount(row.word)), face, rc.H)
		y += rowH
	}
}
