package scene

import (
	"fmt"
	"image/color"
	"sort"

	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
	"bufferlab/viz/layout"
	"bufferlab/viz/slruview"
)

// Below the banks: the legend, one line (or more) per backend's lookup
// and the victim search (SlruSelectLRUPage) as a bar chart.

// slruLegendFlow is the legend as a flow: each colour and mark the rows
// use, with its swatch, in its forms. The states come first and stay; the
// marks of the lookups may be left out last (the lookup lines and the
// cells' tooltips say what a backend does with a slot).
func slruLegendFlow(ft slruFonts, th *layout.Theme) slruFlow {
	f := slruFlow{gap: ft.small.Size * 0.8, lh: lh(ft.small)}
	sw := lh(ft.small) * 0.65
	enc := SLRUEncodings(th)
	// Each swatch is drawn from the scene's table: an overlay over a
	// VALID slot, as it is seen.
	swatch := func(e layout.Encoding) func(*layout.List, layout.Rect) {
		return func(l *layout.List, r layout.Rect) {
			box := layout.Rect{X: r.X, Y: r.Y + (r.H-sw)/2, W: sw, H: sw}
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
				d := sw * 0.6
				l.Triangle("legend", layout.Point{X: box.X + box.W - d, Y: box.Y + box.H}, layout.Point{X: box.X + box.W, Y: box.Y + box.H}, layout.Point{X: box.X + box.W, Y: box.Y + box.H - d}, e.MarkColor)
			}
		}
	}
	item := func(e layout.Encoding, forms ...string) {
		f.runs = append(f.runs, slruRun{role: "legend", forms: forms, font: ft.small, col: th.Text, markW: sw, mark: swatch(e)})
	}
	item(enc.Empty, "EMPTY")
	item(enc.Valid, "VALID")
	item(enc.IO, "READ / WRITE I/O", "I/O")
	item(enc.Dirty, "DIRTY")
	item(enc.Compared, "compared (≠)", "≠", "")
	item(enc.Comparing, "being compared", "comparing", "")
	item(enc.Victim, "victim", "")
	item(enc.Trail, "trail (the last operation's compares)", "trail", "")
	bw, bh := sw*1.4, max(3, sw*0.25)
	f.runs = append(f.runs, slruRun{role: "legend", forms: []string{"age (LRU distance)", "age", ""}, font: ft.small, col: th.Text, markW: bw,
		mark: func(l *layout.List, r layout.Rect) {
			l.Fill("legend", layout.Rect{X: r.X, Y: r.Y + (r.H-bh)/2, W: bw, H: bh}, th.Accent)
		}})
	return f
}

// LayoutSLRULegend names every colour and mark the rows use (role
// "legend"), in as many lines as r holds: wrapped where there are lines
// to spare, shortened, then without the lookups' marks where there are
// not (slruLegendFlow).
func LayoutSLRULegend(l *layout.List, r layout.Rect, th *layout.Theme) {
	ft := slruFontsOf(th)
	f := slruLegendFlow(ft, th)
	w := r.W - 2*ft.pad
	_, lines, _ := f.fit(w, max(1, int((r.H+0.5)/f.lh)))
	// Centred in r's height: the frame gives a pane's legend a line and
	// a little more.
	y := r.Y + max(0, (r.H-float64(lines)*f.lh)/2)
	f.layout(l, layout.Rect{X: r.X + ft.pad, Y: y, W: w, H: r.Y + r.H - y})
}

// slruStatusForms are the forms of where a backend's lookup is, longest
// first: the view's sentence (slruview.Status), then shorter ones made of
// the same facts; a waiting backend says for which lock first.
func slruStatusForms(v *slruview.View, ln slruview.Lane) []string {
	l := ln.Lookup
	full := v.Status(ln)
	var short []string
	switch l.Phase {
	case slruview.PhaseStart:
		switch {
		case l.Op == slru.OpWriteAll:
			short = []string{"checkpoint"}
		case l.Bank >= 0 && v.HeldBy(l.Bank, ln.Actor) != 0:
			short = []string{fmt.Sprintf("holds %s (%s)", v.LockName(trace.OBank, l.Bank), v.HeldBy(l.Bank, ln.Actor)), "holds the lock"}
		case l.Bank >= 0:
			short = []string{"taking the lock"}
		}
	case slruview.PhaseScan:
		p, st, _ := slru.UnpackSlotWord(l.ScanWord)
		what := "EMPTY"
		if st != slru.PageEmpty {
			what = fmt.Sprint(p)
		}
		cmp := "≠"
		if l.Match {
			cmp = "="
		}
		n := l.Examining - l.ScanFrom + 1
		short = []string{
			fmt.Sprintf("slot %d: %s %s %d (%d of %d)", l.Examining, what, cmp, l.Page, n, v.BankSize()),
			fmt.Sprintf("slot %d: %s %s %d", l.Examining, what, cmp, l.Page),
		}
	case slruview.PhaseProbe:
		if l.ProbeSlot < 0 {
			short = []string{fmt.Sprintf("probe: page %d not there", l.Page), "not in the table"}
		} else {
			short = []string{fmt.Sprintf("probe: page %d → slot %d", l.Page, l.ProbeSlot), fmt.Sprintf("→ slot %d", l.ProbeSlot)}
		}
	case slruview.PhaseRelock:
		short = []string{"not found: relock exclusively", "relock (X)"}
	case slruview.PhaseFound:
		if l.Result == slruview.ResultMiss {
			short = []string{fmt.Sprintf("read in: slot %d", l.Slot)}
		} else {
			short = []string{fmt.Sprintf("hit: slot %d", l.Slot)}
		}
	case slruview.PhaseVictim:
		switch {
		case l.Victim >= 0 && l.VictimWhy == slru.VictimDirty:
			short = []string{fmt.Sprintf("victim: slot %d, dirty: write it first", l.Victim), fmt.Sprintf("victim: slot %d (dirty)", l.Victim)}
		case l.Victim >= 0:
			short = []string{fmt.Sprintf("victim: slot %d", l.Victim)}
		default:
			short = []string{fmt.Sprintf("choosing a victim: %d of %d weighed", len(l.Candidates), v.BankSize()), "choosing a victim"}
		}
	case slruview.PhaseRead:
		short = []string{fmt.Sprintf("miss: reading into slot %d", l.Slot), "miss: reading"}
	case slruview.PhaseWrite:
		short = []string{fmt.Sprintf("writing slot %d", l.Slot), "writing"}
	case slruview.PhaseWaitIO:
		short = []string{fmt.Sprintf("waits for slot %d's I/O", l.Slot), "waits for I/O"}
	}
	forms := append([]string{full}, short...)
	if ln.Waiting {
		lock := v.LockName(ln.WaitingFor.Class, int(ln.WaitingFor.Obj))
		mode := slru.LWLockMode(ln.WaitingFor.Arg)
		out := []string{fmt.Sprintf("WAITING for %s (%s) · %s", lock, mode, full)}
		for _, s := range short {
			out = append(out, fmt.Sprintf("WAITING for %s (%s) · %s", lock, mode, s))
		}
		return append(out, fmt.Sprintf("WAITING for %s (%s)", lock, mode), fmt.Sprintf("WAITING (%s)", mode))
	}
	return forms
}

// slruPathForms are the forms of the path from the operation to its bank,
// longest first: the view's (slruview.Path: xid → page → bank, with the
// arithmetic), then page → bank with the rule, then without it; it may
// be left out last (the bank's label has the backend's chip).
func slruPathForms(v *slruview.View, lk slruview.Lookup) []string {
	path := v.Path(lk)
	if path == "" {
		return nil
	}
	if v.Geometry().Variant == slru.Single {
		return []string{path, fmt.Sprintf("page %d → the ControlLock", lk.Page), ""}
	}
	b := v.Geometry().BankOf(lk.Page)
	return []string{path, fmt.Sprintf("page %d → bank %d (%d %s)", lk.Page, b, lk.Page, slruRule(v)[len("pageno "):]),
		fmt.Sprintf("page %d → bank %d", lk.Page, b), ""}
}

// slruLaneRuns are a backend's lookup as runs of a flow (role "lookup
// NAME"): its chip, its operation, its path to the bank and where its
// search is. A lookup that may be left out (done, or an idle backend:
// the banks show what it did) has every run end in ""; on a line shared
// with other lookups (shared), the operation may be left out too.
func slruLaneRuns(v *slruview.View, ln slruview.Lane, optional, shared bool, ft slruFonts, th *layout.Theme) []slruRun {
	role := "lookup " + ln.Name
	opt := func(forms ...string) []string {
		if optional && forms[len(forms)-1] != "" {
			return append(forms, "")
		}
		return forms
	}
	chip := th.Muted
	if slruLookupActive(ln.Lookup) {
		chip = th.Highlight
	}
	runs := []slruRun{{role: role, forms: opt(ln.Name), font: ft.bold, col: layout.TextOn(chip), fill: chip, newLine: true}}
	lk := ln.Lookup
	if !lk.HasOp {
		return append(runs, slruRun{role: role, forms: opt("idle"), font: ft.text, col: th.Muted})
	}
	op := slruview.OpText(lk.Op, lk.Operand)
	ops := []string{op, fmt.Sprintf("%s %d", slru.OpName(lk.Op), lk.Operand)}
	if lk.Op == slru.OpWriteAll {
		ops = []string{op}
	}
	if shared {
		ops = append(ops, "") // the chip and the status say who does what
	}
	runs = append(runs, slruRun{role: role, forms: opt(ops...), font: ft.bold, col: th.Text})
	if path := slruPathForms(v, lk); path != nil {
		runs = append(runs, slruRun{role: role, forms: path, font: ft.text, col: th.Text})
	}
	c := th.Text
	switch {
	case ln.Waiting, lk.Phase == slruview.PhaseError:
		c = th.Error
	case lk.Phase == slruview.PhaseDone:
		c = th.Muted
	}
	return append(runs, slruRun{role: role, forms: opt(slruStatusForms(v, ln)...), font: ft.text, col: c})
}

// slruLaneFlow is a backend's lookup line as a flow (slruLaneRuns).
func slruLaneFlow(v *slruview.View, ln slruview.Lane, ft slruFonts, th *layout.Theme) slruFlow {
	return slruFlow{gap: ft.text.Size * 0.7, lh: lh(ft.bold), runs: slruLaneRuns(v, ln, false, false, ft, th)}
}

// slruLookupsH is the height the lookup lines need at width w: at least
// one line (all the lookups in progress share it where they must); as
// they would like, their lines in full (three a backend at most) under a
// heading in the full scene.
func slruLookupsH(v *slruview.View, lanes []slruview.Lane, w float64, heading bool, ft slruFonts, th *layout.Theme) (least, want float64) {
	lineH := lh(ft.bold)
	lines := 0
	for _, ln := range lanes {
		f := slruLaneFlow(v, ln, ft, th)
		lines += min(3, f.lines(w-2*ft.pad))
	}
	if heading {
		lines++
	}
	return lineH + ft.pad, float64(max(1, lines))*lineH + ft.pad
}

// layoutSLRULookups lays out the backends' lookup lines in r (role
// "lookup NAME"), under a heading where there is a line to spare. Where
// every lookup in progress has a line: each backend a line, in order of
// importance (its lookup in progress, the backend that acted last, a
// lookup done, idle) while lines are left, then more lines to those that
// wrap; a lookup done, or an idle backend, left without a line is left
// out (the banks show what it did). Where there are fewer lines than
// lookups in progress, they alone share the lines as one flow, each in
// its shortest forms if need be.
func layoutSLRULookups(l *layout.List, r layout.Rect, v *slruview.View, lanes []slruview.Lane, cur trace.Event, hasCur bool, heading bool, ft slruFonts, th *layout.Theme) {
	lineH := lh(ft.bold)
	in := layout.Rect{X: r.X + ft.pad, Y: r.Y + ft.pad/2, W: r.W - 2*ft.pad, H: r.H - ft.pad/2}
	total := int((in.H + 0.5) / lineH)
	if len(lanes) == 0 {
		l.TextForms("lookups", []string{"no backend has run yet", ""}, ft.text, layout.Rect{X: in.X, Y: in.Y, W: in.W, H: min(lineH, in.H)}, th.Muted, layout.Left)
		return
	}
	flows := make([]slruFlow, len(lanes))
	want := make([]int, len(lanes))
	sum, active := 0, 0
	for i, ln := range lanes {
		flows[i] = slruLaneFlow(v, ln, ft, th)
		want[i] = min(3, flows[i].lines(in.W))
		sum += want[i]
		if slruLookupActive(ln.Lookup) {
			active++
		}
	}
	if active > total {
		f := slruFlow{gap: ft.text.Size * 0.7, lh: lineH}
		for _, ln := range lanes {
			if slruLookupActive(ln.Lookup) {
				f.runs = append(f.runs, slruLaneRuns(v, ln, false, true, ft, th)...)
			}
		}
		f.layout(l, in)
		return
	}
	if heading && total > sum {
		l.Text("lookups", "lookups", th.Font(layout.Bold, 11), in.X, in.Y, in.W, th.Muted, layout.Left)
		in.Y += lineH
		total--
	}
	rank := func(ln slruview.Lane) int {
		switch {
		case slruLookupActive(ln.Lookup):
			return 0
		case hasCur && ln.Actor == cur.Actor:
			return 1
		case ln.Lookup.HasOp:
			return 2
		}
		return 3
	}
	order := make([]int, len(lanes))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rank(lanes[order[a]]) < rank(lanes[order[b]]) })
	got := make([]int, len(lanes))
	left := total
	for _, i := range order {
		if left > 0 {
			got[i], left = 1, left-1
		}
	}
	for _, i := range order {
		extra := min(left, want[i]-got[i])
		if got[i] > 0 && extra > 0 {
			got[i] += extra
			left -= extra
		}
	}
	y := in.Y
	for i, ln := range lanes {
		if got[i] == 0 {
			continue // done or idle: may be left out
		}
		row := layout.Rect{X: in.X, Y: y, W: in.W, H: float64(got[i]) * lineH}
		if hasCur && cur.Actor == ln.Actor {
			l.Fill("lookup "+ln.Name, layout.Rect{X: r.X, Y: y, W: r.W, H: row.H}, th.HighlightFill)
		}
		flows[i].layout(l, row)
		y += row.H
	}
}

// slruChartMinH is the least height of the victim chart: its title and
// rule, and bars between their age labels and two lines of labels below.
func slruChartMinH(ft slruFonts) float64 {
	return lh(ft.bold) + 7*lh(ft.chart) + 3*ft.pad
}

// layoutVictimChart lays out one backend's victim search
// (SlruSelectLRUPage) as a bar chart (role "victim chart", the bars
// "victim slot N"): a bar per slot of the bank, as tall as the slot's age
// (cur_count − page_lru_count), labelled with the slot and the age, and
// with the verdict (skipped as the latest page, busy with I/O, the oldest
// so far, the victim) under it, or, where a bar is too narrow for one,
// on a line under the chart with the slot it is about; slots not weighed
// yet are outlined. A bank whose bars would be narrower than a slot's number gets
// only the title and the rule.
func layoutVictimChart(l *layout.List, r layout.Rect, v *slruview.View, ln slruview.Lane, ft slruFonts, th *layout.Theme) {
	lk := ln.Lookup
	if lk.Bank < 0 || lk.Bank >= v.NumBanks() {
		return
	}
	const role = "victim chart"
	l.Fill(role, r, th.Panel)
	l.Stroke(role, r, 1, th.PanelEdge)
	in := r.Inset(ft.pad * 2)
	f := ft.chart
	y := in.Y
	title := []string{
		fmt.Sprintf("%s chooses a victim in %s (SlruSelectLRUPage): cur_count = bank_cur_lru_count++ = %d, age = cur_count − page_lru_count", ln.Name, v.BankName(lk.Bank), lk.CurCount),
		fmt.Sprintf("%s chooses a victim in %s (SlruSelectLRUPage): cur_count %d, age = cur_count − page_lru_count", ln.Name, v.BankName(lk.Bank), lk.CurCount),
		fmt.Sprintf("%s chooses a victim in %s: age = cur_count − page_lru_count", ln.Name, v.BankName(lk.Bank)),
		fmt.Sprintf("%s chooses a victim in %s", ln.Name, v.BankName(lk.Bank)),
	}
	l.TextForms(role, title, ft.bold, layout.Rect{X: in.X, Y: y, W: in.W, H: lh(ft.bold)}, th.Text, layout.Left)
	y += lh(ft.bold)
	rule := []string{
		"An EMPTY slot is taken at once; else the oldest VALID slot that is not latest_page_number (ties: the older page); a dirty one is written first and the search starts over.",
		"EMPTY: taken at once; else the oldest VALID slot but latest_page_number; dirty: written first, then search again.",
		"else the oldest VALID slot, never latest_page_number",
		"",
	}
	l.TextForms(role, rule, f, layout.Rect{X: in.X, Y: y, W: in.W, H: lh(f)}, th.Muted, layout.Left)
	y += lh(f) + ft.pad
	chart := layout.Rect{X: in.X, Y: y, W: in.W, H: in.Y + in.H - y}
	first, end := v.Geometry().BankSlots(lk.Bank)
	n := end - first
	num, _ := slruTemplates(v)
	bw := chart.W / float64(n)
	if bw < layout.Width(num, f)+ft.pad || chart.H < 5*lh(f) {
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
	barTop := chart.Y + lh(f)
	barBottom := chart.Y + chart.H - 2*lh(f)
	// The labels under the bars and over them take one form in every bar
	// (the chart reads evenly): the widest there is decides.
	// A label keeps a gap to its neighbours: its box is the bar's width
	// less a pad.
	lw := bw - ft.pad
	underLv, ageLv := 0, 0
	for k := 0; k < n; k++ {
		if s := v.Slot(first + k); !s.Empty() && layout.Width(fmt.Sprintf("#%d p%d", first+k, s.Page), f) > lw {
			underLv = 1
		}
		if c, ok := cands[first+k]; ok && layout.Width(fmt.Sprintf("age %d", c.Age), f) > lw {
			ageLv = 1
		}
	}
	type verdict struct {
		slot  int
		forms []string
		col   color.RGBA
	}
	var verdicts []verdict
	for k := 0; k < n; k++ {
		slot := first + k
		bar := fmt.Sprintf("victim slot %d", slot)
		x := chart.X + float64(k)*bw
		col := layout.Rect{X: x + bw*0.1, W: bw * 0.8}
		below := func(line int, forms []string, c color.RGBA, font layout.Font) {
			l.TextForms(bar, forms, font, layout.Rect{X: x + ft.pad/2, Y: barBottom + float64(line)*lh(f), W: lw, H: lh(f)}, c, layout.Center)
		}
		under := []string{fmt.Sprintf("#%d", slot)}
		if s := v.Slot(slot); !s.Empty() {
			under = []string{fmt.Sprintf("#%d p%d", slot, s.Page), fmt.Sprintf("#%d", slot)}[underLv:]
		}
		below(0, under, th.Text, f)
		c, ok := cands[slot]
		if !ok {
			h := 2.0
			if s := v.Slot(slot); !s.Empty() {
				h = max(h, (barBottom-barTop)*float64(max(0, lk.CurCount-s.LRUCount))/float64(maxAge))
			}
			l.Stroke(bar, layout.Rect{X: col.X, Y: barBottom - h, W: col.W, H: h}, 1, th.PanelEdge)
			below(1, []string{"not yet", ""}, th.Muted, f)
			continue
		}
		h := (barBottom - barTop) * float64(max(0, c.Age)) / float64(maxAge)
		col.Y, col.H = barBottom-max(h, 2), max(h, 2)
		fill, what := th.Accent, ""
		switch {
		case c.Kind == slruview.CandEmpty:
			fill, what = th.Good, "EMPTY: take"
		case c.Kind == slruview.CandLatest:
			fill, what = th.Locked, "latest: skip"
		case c.Kind == slruview.CandBusy:
			fill, what = th.IO, "busy (I/O)"
		case slot == lk.Victim && lk.VictimWhy == slru.VictimDirty:
			fill, what = th.Error, "VICTIM, dirty"
		case slot == lk.Victim:
			fill, what = th.Error, "VICTIM"
		case slot == lastBest:
			fill, what = th.Highlight, "oldest so far"
		}
		l.Fill(bar, col, fill)
		if c.Kind != slruview.CandEmpty {
			l.TextForms(bar, []string{fmt.Sprintf("age %d", c.Age), fmt.Sprint(c.Age)}[ageLv:], f, layout.Rect{X: x + ft.pad/2, Y: col.Y - lh(f), W: lw, H: lh(f)}, th.Text, layout.Center)
		}
		if what != "" {
			verdicts = append(verdicts, verdict{slot, []string{what}, fill})
		}
	}
	// The verdicts under their bars where every one fits, else on the
	// line under the chart, each with the slot it is about.
	vf := th.Font(layout.Bold, 9.5)
	fit := true
	for _, vd := range verdicts {
		fit = fit && layout.Width(vd.forms[0], vf) <= lw
	}
	if fit {
		for _, vd := range verdicts {
			x := chart.X + float64(vd.slot-first)*bw
			l.TextIn(fmt.Sprintf("victim slot %d", vd.slot), vd.forms[0], vf, layout.Rect{X: x + ft.pad/2, Y: barBottom + lh(f), W: lw, H: lh(f)}, th.Text, layout.Center)
		}
	} else {
		fl := slruFlow{gap: vf.Size, lh: lh(f)}
		for _, vd := range verdicts {
			sw := lh(f) * 0.6
			fill := vd.col
			fl.runs = append(fl.runs, slruRun{role: fmt.Sprintf("victim slot %d", vd.slot), forms: []string{fmt.Sprintf("#%d %s", vd.slot, vd.forms[0])}, font: vf, col: th.Text, markW: sw,
				mark: func(l *layout.List, r layout.Rect) {
					l.Fill(role, layout.Rect{X: r.X, Y: r.Y + (r.H-sw)/2, W: sw, H: sw}, fill)
				}})
		}
		fl.layout(l, layout.Rect{X: chart.X, Y: barBottom + lh(f), W: chart.W, H: lh(f)})
	}
	l.Line(role, chart.X, barBottom, chart.X+chart.W, barBottom, 1, th.PanelEdge)
}
