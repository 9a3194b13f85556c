package scene

import (
	"fmt"
	"strings"

	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
	"bufferlab/viz/layout"
	"bufferlab/viz/slruview"
)

// Below the banks: the legend, one line per backend's lookup and the
// victim search (SlruSelectLRUPage) as a bar chart.

// LayoutSLRULegend names every colour and mark the rows use, on one line
// (role "legend"); an entry that runs past r's right edge is recorded as
// an overflow.
func LayoutSLRULegend(l *layout.List, r layout.Rect, th *layout.Theme) {
	face := th.Font(layout.Regular, 11)
	x := r.X + 4
	y := r.Y + 4
	right := r.X + r.W
	enc := SLRUEncodings(th)
	// Each swatch is drawn from the scene's table: an overlay over a
	// VALID slot, as it is seen.
	item := func(e layout.Encoding, label string) {
		box := layout.Rect{X: x, Y: y + 2, W: 12, H: 12}
		base := enc.Valid
		if e.Fill.A != 0 {
			base.Fill = e.Fill
		}
		l.Fill("legend", box, base.Fill)
		l.PatternOver("legend", box, e)
		if e.EdgeWidth == 0 {
			l.Outline("legend", box, base)
		}
		l.Outline("legend", box, e)
		if e.Marks&layout.MarkCorner != 0 {
			l.Triangle("legend", layout.Point{X: box.X + 5, Y: box.Y + box.H}, layout.Point{X: box.X + box.W, Y: box.Y + box.H}, layout.Point{X: box.X + box.W, Y: box.Y + 5}, e.MarkColor)
		}
		textRoom(l, "legend", label, face, x+16, y, right-x-16, th.Text, layout.Left)
		x += 16 + layout.Width(label, face) + 12
	}
	item(enc.Empty, "EMPTY")
	item(enc.Valid, "VALID")
	item(enc.IO, "READ / WRITE I/O")
	item(enc.Dirty, "DIRTY")
	item(enc.Compared, "compared (≠)")
	item(enc.Comparing, "being compared")
	item(enc.Victim, "victim")
	l.Fill("legend", layout.Rect{X: x, Y: y + 8, W: 18, H: 3}, th.Accent)
	textRoom(l, "legend", "age (LRU distance)", face, x+22, y, right-x-22, th.Text, layout.Left)
}

// layoutSLRULookups lays out one line per backend (role "lookup NAME"):
// its name, its operation, the path from xid to page to bank, and where
// its search is; a waiting backend says for which lock. At most 8 lines;
// the backends left out, and a status shortened with "…", are recorded
// as overflows.
func layoutSLRULookups(l *layout.List, r layout.Rect, v *slruview.View, lanes []slruview.Lane, cur trace.Event, hasCur bool, heading bool, th *layout.Theme) {
	size := slruLookupSize(len(lanes))
	face := th.Font(layout.Regular, size)
	bold := th.Font(layout.Bold, size)
	lh := layout.LineHeight(face)
	y := r.Y + 2
	if heading {
		l.Text("lookups", "lookups", th.Font(layout.Bold, 11), r.X+4, r.Y+2, 0, th.Muted, layout.Left)
		y = r.Y + lh + 4
	}
	if len(lanes) == 0 {
		textRoom(l, "lookups", "no backend has run yet", face, r.X+30, y, r.W-30, th.Muted, layout.Left)
		return
	}
	for i, ln := range lanes {
		role := "lookup " + ln.Name
		if i == 8 {
			for _, ln := range lanes[8:] {
				l.Overflows = append(l.Overflows, layout.Overflow{Role: "lookup " + ln.Name, Text: ln.Name, Axis: "h", Need: 9 * (lh + 3), Have: 8 * (lh + 3)})
			}
			break
		}
		row := layout.Rect{X: r.X, Y: y, W: r.W, H: lh + 2}
		if hasCur && cur.Actor == ln.Actor {
			l.Fill(role, row, th.HighlightFill)
		}
		chip := layout.Rect{X: row.X + 4, Y: row.Y + 1, W: 22, H: lh}
		col := th.Muted
		if slruLookupActive(ln.Lookup) {
			col = th.Highlight
		}
		layoutBackendChip(l, role, chip, ln.Name, col, th)
		x := chip.X + chip.W + 8
		lk := ln.Lookup
		if !lk.HasOp {
			l.Text(role, "idle", face, x, row.Y, 0, th.Muted, layout.Left)
			y += lh + 3
			continue
		}
		op := slruview.OpText(lk.Op, lk.Operand)
		textRoom(l, role, op, bold, x, row.Y, r.X+r.W-x-4, th.Text, layout.Left)
		x += max(150, layout.Width(op, bold)+12)
		if path := v.Path(lk); path != "" {
			textRoom(l, role, path, face, x, row.Y, r.X+r.W-x-4, th.Text, layout.Left)
			x += max(300, layout.Width(path, face)+12)
		}
		status := v.Status(ln)
		c := th.Text
		switch {
		case ln.Waiting:
			status = fmt.Sprintf("WAITING for %s (%s) · %s", v.LockName(ln.WaitingFor.Class, int(ln.WaitingFor.Obj)),
				slru.LWLockMode(ln.WaitingFor.Arg), status)
			c = th.Error
		case lk.Phase == slruview.PhaseError:
			c = th.Error
		case lk.Phase == slruview.PhaseDone:
			c = th.Muted
		}
		l.FitText(role, status, face, x, row.Y, max(0, r.X+r.W-x-4), c, layout.Left)
		y += lh + 3
	}
}

// layoutVictimChart lays out one backend's victim search
// (SlruSelectLRUPage) as a bar chart (role "victim chart", the bars
// "victim slot N"): a bar per slot of the bank, as tall as the slot's age
// (cur_count − page_lru_count), labelled with the age and the verdict
// (skipped as the latest page, busy with I/O, the oldest so far, the
// victim); slots not weighed yet are outlined. A bank of more than 64
// slots, or a chart too short for its bars, gets only the title and the
// rule.
func layoutVictimChart(l *layout.List, r layout.Rect, v *slruview.View, ln slruview.Lane, th *layout.Theme) {
	lk := ln.Lookup
	if lk.Bank < 0 || lk.Bank >= v.NumBanks() {
		return
	}
	const role = "victim chart"
	l.Fill(role, r, th.Panel)
	l.Stroke(role, r, 1, th.PanelEdge)
	bold := th.Font(layout.Bold, 12)
	face := th.Font(layout.Regular, 11)
	small := th.Font(layout.Regular, 10)
	lh := layout.LineHeight(face)
	title := fmt.Sprintf("%s chooses a victim in %s (SlruSelectLRUPage): cur_count = bank_cur_lru_count++ = %d, age = cur_count − page_lru_count",
		ln.Name, v.BankName(lk.Bank), lk.CurCount)
	textRoom(l, role, title, bold, r.X+8, r.Y+4, r.W-16, th.Text, layout.Left)
	rule := "An EMPTY slot is taken at once; else the oldest VALID slot that is not latest_page_number (ties: the older page); a dirty one is written first and the search starts over."
	textRoom(l, role, rule, face, r.X+8, r.Y+4+layout.LineHeight(bold), r.W-16, th.Muted, layout.Left)
	chart := layout.Rect{X: r.X + 8, Y: r.Y + 8 + layout.LineHeight(bold) + lh, W: r.W - 16, H: r.H - 12 - layout.LineHeight(bold) - lh}
	first, end := v.Geometry().BankSlots(lk.Bank)
	n := end - first
	if n > 64 || chart.H < 3*lh {
		return
	}
	cands := map[int]slruview.Candidate{}
	maxAge := int32(1)
	lastBest := -1
	for _, c := range lk.Candidates {
		cands[c.Slot] = c
		maxAge = max(maxAge, c.Age)
		if c.Best && c.Kind == slruview.CandValid {
			lastBest = c.Slot
		}
	}
	// The slots not weighed yet will have age cur_count − page_lru_count
	// (nobody moves the counts while the bank is locked exclusively): the
	// scale covers them too, so bars do not change size as the search goes.
	for slot := first; slot < end; slot++ {
		if s := v.Slot(slot); !s.Empty() {
			maxAge = max(maxAge, lk.CurCount-s.LRUCount)
		}
	}
	bw := chart.W / float64(n)
	barTop := chart.Y + lh + 2
	barBottom := chart.Y + chart.H - 2*layout.LineHeight(small)
	for k := 0; k < n; k++ {
		slot := first + k
		bar := fmt.Sprintf("victim slot %d", slot)
		x := chart.X + float64(k)*bw
		col := layout.Rect{X: x + 3, W: bw - 6}
		under := fmt.Sprintf("#%d", slot)
		if s := v.Slot(slot); !s.Empty() {
			under += fmt.Sprintf(" p%d", s.Page)
		}
		textRoom(l, bar, under, small, x+bw/2, barBottom+2, bw, th.Text, layout.Center)
		c, ok := cands[slot]
		if !ok {
			h := 2.0
			if s := v.Slot(slot); !s.Empty() {
				h = max(h, (barBottom-barTop)*float64(max(0, lk.CurCount-s.LRUCount))/float64(maxAge))
			}
			l.Stroke(bar, layout.Rect{X: col.X, Y: barBottom - h, W: col.W, H: h}, 1, th.PanelEdge)
			textRoom(l, bar, "not yet", small, x+bw/2, barBottom+2+layout.LineHeight(small), bw, th.Muted, layout.Center)
			continue
		}
		h := (barBottom - barTop) * float64(max(0, c.Age)) / float64(maxAge)
		col.Y, col.H = barBottom-max(h, 2), max(h, 2)
		fill, verdict := th.Accent, ""
		switch {
		case c.Kind == slruview.CandEmpty:
			fill, verdict = th.Good, "EMPTY: take"
		case c.Kind == slruview.CandLatest:
			fill, verdict = th.Locked, "latest: skip"
		case c.Kind == slruview.CandBusy:
			fill, verdict = th.IO, "busy (I/O)"
		case slot == lk.Victim:
			fill, verdict = th.Error, "VICTIM"
			if lk.VictimWhy == slru.VictimDirty {
				verdict = "VICTIM, dirty"
			}
		case slot == lastBest:
			fill, verdict = th.Highlight, "oldest so far"
		}
		l.Fill(bar, col, fill)
		if c.Kind != slruview.CandEmpty {
			textRoom(l, bar, fmt.Sprintf("age %d", c.Age), small, x+bw/2, col.Y-layout.LineHeight(small), bw, th.Text, layout.Center)
		}
		if verdict != "" {
			// Shortened a word at a time to fit the bar (the colour says
			// the verdict too); a single word wider than it is recorded.
			vf := th.Font(layout.Bold, 9.5)
			for layout.Width(verdict, vf) > bw-2 && strings.Contains(verdict, " ") {
				verdict = verdict[:strings.LastIndex(verdict, " ")]
			}
			textRoom(l, bar, verdict, vf, x+bw/2, barBottom+2+layout.LineHeight(small), bw-2, th.Text, layout.Center)
		}
	}
	l.Line(role, chart.X, barBottom, chart.X+chart.W, barBottom, 1, th.PanelEdge)
}
