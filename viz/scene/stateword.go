package scene

import (
	"fmt"

	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/render"
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

// DrawStateWord draws the 32-bit state word of the buffer the current
// event touched, as PostgreSQL packs it (buf_internals.h): the ten flags
// (bits 31–22, each a labelled cell, set ones filled and marked), the usage
// count (bits 21–18) and the refcount (bits 17–0) with their values. For a
// compare-and-swap it shows the word before and after; for a failed one the
// value the backend expected and the value it found. Changed bits are
// outlined.
//
// e is the state-word event to show: the current event when it is one,
// else the last one before it (LastStateWordEvent); ok false shows a hint.
func DrawStateWord(dst *ebiten.Image, r render.Rect, e trace.Event, ok bool, p *view.Pool, th *render.Theme) {
	face := th.Face(render.Regular, 11)
	lh := render.LineHeight(face)
	if !ok || !IsStateWordEvent(e) {
		render.Text(dst, "The state word of the buffer the current event reads or writes appears here.", face, r.X, r.Y, th.Muted, render.Left)
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
	bold := th.Face(render.Bold, 11)
	if e.Kind == trace.KCASFail {
		if long := title + ": the word changed since it was read, so the CAS fails and the loop retries"; render.TextWidth(long, bold) <= r.W {
			title = long
		} else {
			title = fmt.Sprintf("buffer %d: %s's CAS fails (the word changed), retry", e.Obj, who)
		}
	}
	if e.Kind == trace.KSpin && render.TextWidth(title+": BM_LOCKED is set, spin", bold) <= r.W {
		title += ": BM_LOCKED is set, spin"
	}
	render.Text(dst, title, bold, r.X, r.Y, th.Text, render.Left)
	labelW := render.TextWidth("expected ", face)
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
	lf, short := th.Face(render.Regular, 8.5), false
	fits := func() bool {
		for _, f := range flagLabels {
			l := f.label
			if short {
				l = f.short
			}
			if render.TextWidth(l, lf) > cellW-3 {
				return false
			}
		}
		return true
	}
	if !fits() {
		short = true
		if !fits() {
			lf = th.Face(render.Regular, 7)
		}
	}
	for ri, row := range rows {
		render.Text(dst, row.label, face, r.X, y+(rowH-lh)/2, th.Text, render.Left)
		x0 := r.X + labelW
		// Flags: bits 31..22.
		for i, f := range flagLabels {
			c := render.Rect{X: x0 + float64(i)*cellW, Y: y, W: cellW - 1, H: rowH - 2}
			set := row.word&f.bit != 0
			fill := th.Free
			if set {
				fill = th.Accent
			}
			render.Fill(dst, c, fill)
			if ri == len(rows)-1 && other&f.bit != 0 {
				render.Stroke(dst, c, 2, th.Highlight)
			}
			// A set flag is filled and its name drawn in full contrast; a
			// clear one keeps its name, muted, so no state is colour alone.
			lbl := f.label
			if short {
				lbl = f.short
			}
			col := th.Muted
			if set {
				col = render.TextOn(fill)
			}
			render.Text(dst, lbl, lf, c.X+c.W/2, c.Y+(c.H-render.LineHeight(lf))/2, col, render.Center)
		}
		// Usage count: bits 21..18, one field.
		u := render.Rect{X: x0 + 10*cellW, Y: y, W: avail*usageFrac - 1, H: rowH - 2}
		render.Fill(dst, u, th.UsageRamp[min(bufmgr.StateUsagecount(row.word), 5)])
		if ri == len(rows)-1 && other&bufmgr.BufUsagecountMask != 0 {
			render.Stroke(dst, u, 2, th.Highlight)
		}
		render.Text(dst, fmt.Sprintf(usageFmt, bufmgr.StateUsagecount(row.word)), face, u.X+u.W/2, u.Y+(u.H-lh)/2, render.TextOn(th.UsageRamp[min(bufmgr.StateUsagecount(row.word), 5)]), render.Center)
		// Refcount: bits 17..0, one field.
		rc := render.Rect{X: u.X + u.W + 1, Y: y, W: avail*rcFrac - 1, H: rowH - 2}
		fill := th.Free
		if bufmgr.StateRefcount(row.word) > 0 {
			fill = th.Pinned
		}
		render.Fill(dst, rc, fill)
		if ri == len(rows)-1 && other&bufmgr.BufRefcountMask != 0 {
			render.Stroke(dst, rc, 2, th.Highlight)
		}
		render.Text(dst, fmt.Sprintf(rcFmt, bufmgr.StateRefcount(row.word)), face, rc.X+rc.W/2, rc.Y+(rc.H-lh)/2, render.TextOn(fill), render.Center)
		y += rowH
	}
}
