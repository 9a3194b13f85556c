package scene

import (
	"fmt"

	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
	"bufferlab/viz/layout"
	"bufferlab/viz/slruview"
)

// The SLRU scene: the banks of an SLRU cache (engine/slru, drawn from a
// *slruview.View) as rows of slots, each slot with its page number, state,
// dirty flag, LRU count and age (the LRU distance); each bank with its
// lock's holders and waiters, its bank_cur_lru_count and, for
// slru=banks+hash, its page → slot table. Over them, every backend's
// lookup in progress: the bank its page hashes to, the slot it compares
// (and the ones it already compared), its probe of the table, the victim
// search with each slot's age and verdict and the victim chosen. Below,
// one line per backend: the path from xid to page to bank, and what the
// search is doing. Every state has a label as well as a colour.
//
// No length is fixed: the frame sets the type (a floor under it, 14 px on
// a laptop, 24 and more on a projector), and the scene measures its rows,
// cells and lines from that type and the rectangle it gets. Where there is
// less room it shows less, by design: fewer slots on a line, fewer lines
// of text in a cell, a window of the banks that matter, and each text run
// in one of its deliberate forms (layout.List.TextForms), the shorter ones
// defined beside the long; what may be left out says so with a last form
// "" (a legend, the lookup lines or a tooltip says it). What still does
// not fit is recorded, never cut.
//
// The scene is a layout (LayoutSLRUScene, LayoutSLRUPane: pure, into a
// *layout.List) that scenedraw's DrawSLRUScene and DrawSLRUPane paint.
// The files: this one (the marks of the lookups, the frame of the scene,
// the counters), slru_window.go (the type, the grid of the rows and which
// banks and slots fit), slru_banks.go (a bank's row, label and hash
// table), slru_slot.go (one slot and its marks), slru_lookups.go (the
// legend, the lookup lines, the victim chart), slru_flow.go (runs of text
// that wrap and shorten).

// slruPerLine is the most slots drawn in one line of a bank; a bigger bank
// (slru=single) wraps, and a narrow rectangle puts fewer on a line
// (slruGridFor).
const slruPerLine = 16

// slruLookupActive reports whether a lookup is between its operation's
// start and its end.
func slruLookupActive(l slruview.Lookup) bool {
	return l.HasOp && l.Phase != slruview.PhaseDone && l.Phase != slruview.PhaseError && l.Phase != slruview.PhaseNone
}

// slotMark is what one backend's lookup says about one slot, and how the
// slot is marked for it (its outline and its tab's colour: the table's
// Comparing, Victim or a slotTab).
type slotMark struct {
	actor trace.Actor
	// labels are the mark's forms, longest first ("≠ 15", "≠"); its tab
	// ends with the backend's name alone.
	labels []string
	enc    layout.Encoding
}

// slruMarks collects, per slot, the marks of every active lookup, and per
// slot the compared flag, the candidate of the victim search in progress.
// Its maps are only ever read by key or reduced to a minimum, never
// iterated into the layout, so the layout does not depend on Go's map
// order.
type slruMarks struct {
	marks     map[int][]slotMark
	compared  map[int]trace.Actor // compared in the current pass, not matching
	trail     map[int]trace.Actor // on a trail shown: compared or probed by its operation
	cands     map[int]slruview.Candidate
	victimWhy map[int]uint64
	banks     map[int][]trace.Actor // backends whose page hashes to the bank
	probes    map[int]slruview.Lane // bank → the backend probing its table
	victims   []slruview.Lane       // backends in a victim search
}

func collectSLRUMarks(v *slruview.View, th *layout.Theme) slruMarks {
	m := slruMarks{marks: map[int][]slotMark{}, compared: map[int]trace.Actor{}, trail: map[int]trace.Actor{}, cands: map[int]slruview.Candidate{},
		victimWhy: map[int]uint64{}, banks: map[int][]trace.Actor{}, probes: map[int]slruview.Lane{}}
	enc := SLRUEncodings(th)
	add := func(slot int, a trace.Actor, e layout.Encoding, labels ...string) {
		if slot >= 0 && slot < v.NumSlots() {
			m.marks[slot] = append(m.marks[slot], slotMark{a, labels, e})
		}
	}
	for a := 1; a < v.NumLanes(); a++ {
		ln := v.Lane(trace.Actor(a))
		l := ln.Lookup
		if v.TrailShown(ln.Actor) {
			for _, r := range l.Trail {
				for s := max(r.From, 0); s <= r.To && s < v.NumSlots(); s++ {
					m.trail[s] = ln.Actor
				}
			}
		}
		if !slruLookupActive(l) {
			continue
		}
		if l.Bank >= 0 {
			m.banks[l.Bank] = append(m.banks[l.Bank], ln.Actor)
		}
		switch l.Phase {
		case slruview.PhaseScan:
			for s := l.ScanFrom; s >= 0 && s < l.Examining; s++ {
				m.compared[s] = ln.Actor
			}
			cmp := "≠"
			if l.Match {
				cmp = "="
			}
			add(l.Examining, ln.Actor, enc.Comparing, cmp+" "+fmt.Sprint(l.Page), cmp)
		case slruview.PhaseProbe:
			m.probes[l.Bank] = ln
			if l.ProbeSlot >= 0 {
				add(l.ProbeSlot, ln.Actor, enc.Comparing, "probe")
			}
		case slruview.PhaseFound:
			if l.Result == slruview.ResultMiss {
				add(l.Slot, ln.Actor, slotTab(th.Good), "read in")
			} else {
				add(l.Slot, ln.Actor, slotTab(th.Good), "HIT")
			}
		case slruview.PhaseVictim:
			// Only the best candidate so far keeps its "best" (an earlier
			// best was beaten by a later one).
			lastValid, lastBusy := -1, -1
			for i, c := range l.Candidates {
				if c.Best && c.Kind == slruview.CandValid {
					lastValid = i
				}
				if c.Best && c.Kind == slruview.CandBusy {
					lastBusy = i
				}
			}
			for i, c := range l.Candidates {
				c.Best = c.Best && (i == lastValid || i == lastBusy)
				m.cands[c.Slot] = c
			}
			m.victims = append(m.victims, ln)
			if l.Victim >= 0 {
				m.victimWhy[l.Victim] = l.VictimWhy
				if l.VictimWhy == slru.VictimDirty {
					add(l.Victim, ln.Actor, enc.Victim, "VICTIM: write", "VICTIM")
				} else {
					add(l.Victim, ln.Actor, enc.Victim, "VICTIM")
				}
			} else if l.Examining >= 0 {
				add(l.Examining, ln.Actor, enc.Comparing, "weighs")
			}
		case slruview.PhaseRead:
			add(l.Slot, ln.Actor, slotTab(th.IO), "MISS: reads", "reads")
		case slruview.PhaseWrite:
			add(l.Slot, ln.Actor, slotTab(th.IO), "writes")
		case slruview.PhaseWaitIO:
			add(l.Slot, ln.Actor, slotTab(th.Locked), "waits I/O", "waits")
		}
	}
	return m
}

// LayoutSLRUScene lays out the SLRU of v in r: a header (variant,
// geometry, bank rule, latest_page_number), the banks' rows of slots with
// their labels, a legend, the lookup lines and, where there is room, the
// victim search in progress as a chart. Every size comes from the
// theme's type (slruFonts) and r: the rows hold as many slots a line and
// lines of text a cell as fit (slruGridFor), and a bigger SLRU, or a
// smaller rectangle, shows a window of its banks (bankWindows).
func LayoutSLRUScene(l *layout.List, r layout.Rect, v *slruview.View, th *layout.Theme) {
	layoutBanks(l, r, v, true, th)
}

// LayoutSLRUPane is LayoutSLRUScene for one of several panes side by side:
// no header (the pane's title is SLRUPaneTitle), no legend
// (LayoutSLRULegend lays it out once for all of them) and no victim chart,
// so that the rows of slots keep their height.
func LayoutSLRUPane(l *layout.List, r layout.Rect, v *slruview.View, th *layout.Theme) {
	layoutBanks(l, r, v, false, th)
}

// SLRUPaneTitle is the geometry of v in a few words, for a pane's title
// after the variant's name ("2 banks × 16", "32 slots, one lock"): short
// enough for a phone's pane, whose title has no other form. The pane
// says the bank rule and latest_page_number where it has a line to spare
// (slruInfoForms).
func SLRUPaneTitle(v *slruview.View) string {
	g := v.Geometry()
	if g.Variant == slru.Single {
		return fmt.Sprintf("%d slots, one lock", g.Slots)
	}
	return fmt.Sprintf("%d banks × %d", v.NumBanks(), v.BankSize())
}

// slruInfoForms are the forms of a pane's line of what its title leaves
// out: the bank rule and latest_page_number, the last "" (the lookup
// lines show the rule at work).
func slruInfoForms(v *slruview.View) []string {
	latest := v.LatestPage()
	if v.Geometry().Variant == slru.Single {
		// The variant's title says the one lock and the search.
		return []string{
			fmt.Sprintf("latest_page_number %d (never evicted)", latest),
			fmt.Sprintf("latest_page_number %d", latest),
			fmt.Sprintf("latest page %d", latest), ""}
	}
	rule := "bank = " + slruRule(v)
	return []string{
		fmt.Sprintf("%s · latest_page_number %d (never evicted)", rule, latest),
		fmt.Sprintf("%s · latest_page_number %d", rule, latest),
		fmt.Sprintf("%s · latest page %d", rule, latest), ""}
}

// slruRule is the bank rule: "pageno % 2", or "pageno & 1" (PG 17.0–17.2).
func slruRule(v *slruview.View) string {
	if v.Geometry().BankRule == slru.BankMask {
		return fmt.Sprintf("pageno & %d", v.NumBanks()-1)
	}
	return fmt.Sprintf("pageno %% %d", v.NumBanks())
}

// slruTitleForms are the header's title in its forms, longest first: the
// SLRU's name, its variant, its geometry and its bank rule, then without
// the name (the panel's title says it), with the variant's short name,
// and the geometry alone.
func slruTitleForms(v *slruview.View) []string {
	g := v.Geometry()
	name := nameOr(g.Name, "transaction") + " SLRU"
	if g.Variant == slru.Single {
		geo := fmt.Sprintf("%d slots", g.Slots)
		return []string{
			name + " · single (PG ≤ 16: one ControlLock, every slot searched) · " + geo,
			"single (PG ≤ 16: one ControlLock, every slot searched) · " + geo,
			"single (PG ≤ 16) · " + geo + ", one ControlLock",
			geo + ", one ControlLock",
		}
	}
	long, short := "banks (PG 17.3+)", "banks (PG 17.3+)"
	rule := "bank = " + slruRule(v)
	switch {
	case g.Variant == slru.BanksHash:
		long, short = "banks + hash table (the 2023 patch)", "banks + hash"
		if g.BankRule == slru.BankMask {
			rule += " (PG 17.0–17.2)"
		}
	case g.BankRule == slru.BankMask:
		// 17.0 to 17.2 masked the page number (ffd9b81346 made it %).
		long, short = "banks (PG 17.0–17.2)", "banks (PG 17.0–17.2)"
	}
	geo := fmt.Sprintf("%d slots = %d banks × %d", g.Slots, v.NumBanks(), v.BankSize())
	return []string{
		fmt.Sprintf("%s · %s · %s · %s", name, long, geo, rule),
		fmt.Sprintf("%s · %s · %s", long, geo, rule),
		fmt.Sprintf("%s · %s · %s", short, geo, "bank = "+slruRule(v)),
		fmt.Sprintf("%s · %s", geo, "bank = "+slruRule(v)),
		fmt.Sprintf("%d banks × %d · bank = %s", v.NumBanks(), v.BankSize(), slruRule(v)),
	}
}

// layoutBanks is the scene (full) or a pane (not full). It measures what
// each part needs at r's width (the header and the legend their lines,
// the lookups a line or more a backend), gives the bank rows the rest
// (slruGridFor chooses how they are drawn in it, bankWindows what they
// show), the lookups what the rows leave, and the victim chart what is
// left after that, when it is enough.
func layoutBanks(l *layout.List, r layout.Rect, v *slruview.View, full bool, th *layout.Theme) {
	ft := slruFontsOf(th)
	var lanes []slruview.Lane
	for a := 1; a < v.NumLanes(); a++ {
		if ln := v.Lane(trace.Actor(a)); ln.Lookup.HasOp || ln.HasLast {
			lanes = append(lanes, ln)
		}
	}
	cur, hasCur := v.Current()
	marks := collectSLRUMarks(v, th)
	busy, _ := slruBusyBanks(v, marks, cur, hasCur)

	// What the parts around the rows take: as they would like (the
	// header two lines, the legend three, the lookups a line or more a
	// backend), or, where that lets the rows show more of the SLRU, the
	// least (a line each).
	hf := slruFlow{gap: ft.text.Size, lh: lh(ft.bold)}
	hf.runs = []slruRun{
		{role: "slru title", forms: slruTitleForms(v), font: ft.bold, col: th.Text},
		{role: "slru latest", forms: []string{
			fmt.Sprintf("latest_page_number %d (never evicted)", v.LatestPage()),
			fmt.Sprintf("latest_page_number %d", v.LatestPage()),
			fmt.Sprintf("latest page %d", v.LatestPage()), ""}, font: ft.text, col: th.Text},
	}
	lf := slruLegendFlow(ft, th)
	type around struct{ header, legend, look float64 }
	lookMin, lookWant := slruLookupsH(v, lanes, r.W, full, ft, th)
	want, least := around{look: lookWant}, around{look: lookMin}
	if full {
		want.header = float64(min(2, hf.lines(r.W-2*ft.pad)))*hf.lh + ft.pad
		want.legend = float64(min(3, lf.lines(r.W-2*ft.pad)))*lf.lh + ft.pad
		least.header, least.legend = hf.lh+ft.pad, lf.lh+ft.pad
	}
	sum := func(a around) float64 { return a.header + a.legend + a.look }
	parts := want
	rowsRoom := r.H - sum(want)
	g, ok := slruGridFor(v, ft, len(busy), r.W, rowsRoom)
	if g2, ok2 := slruGridFor(v, ft, len(busy), r.W, r.H-sum(least)); ok2 && (!ok || g2.better(g, v, len(busy), r.H-sum(least), rowsRoom)) {
		g, ok, rowsRoom, parts = g2, ok2, r.H-sum(least), least
	}
	if !ok {
		// Not one line of slots fits: nothing is drawn, and that is
		// recorded, once (the frame gave the scene too little room).
		need := g.labelH + g.lineH + g.tableH + sum(least)
		l.Overflows = append(l.Overflows, layout.Overflow{Role: "slru banks", Text: SLRUPaneTitle(v), Axis: "h", Need: need, Have: r.H})
		return
	}
	rest := r
	if full {
		var header layout.Rect
		header, rest = rest.SplitTop(parts.header)
		hf.layout(l, layout.Rect{X: header.X + ft.pad, Y: header.Y + ft.pad/2, W: header.W - 2*ft.pad, H: header.H - ft.pad/2})
	}
	legendH := parts.legend
	ws, note := bankWindows(v, g, marks, cur, hasCur, rowsRoom)
	rowsH := min(rowsRoom, g.rowsH(ws, note))
	if !full && rest.H-rowsH-lookWant >= lh(ft.text) {
		// A line to spare: what the pane's title leaves out.
		var info layout.Rect
		info, rest = rest.SplitTop(lh(ft.text))
		l.TextForms("slru info", slruInfoForms(v), ft.text, layout.Rect{X: info.X + ft.pad, Y: info.Y, W: info.W - 2*ft.pad, H: info.H}, th.Muted, layout.Left)
	}
	banks, rest := rest.SplitTop(rowsH)
	legend, rest := rest.SplitTop(legendH)
	// The lookups as they would like where the rows left the room.
	lookH := min(rest.H, lookWant)
	looks, rest := rest.SplitTop(lookH)
	if note != nil {
		var nr layout.Rect
		banks, nr = banks.SplitBottom(min(banks.H-g.rowsH(ws, nil), lh(ft.note)+ft.pad))
		l.TextForms("slru note", note, ft.note, layout.Rect{X: nr.X + ft.pad, Y: nr.Y, W: nr.W - 2*ft.pad, H: nr.H}, th.Muted, layout.Left)
	}
	layoutSLRUBankRows(l, banks, v, g, ws, marks, cur, hasCur, th)
	if full {
		LayoutSLRULegend(l, legend, th)
	}
	layoutSLRULookups(l, looks, v, lanes, cur, hasCur, full, ft, th)
	if full && len(marks.victims) > 0 && rest.H >= slruChartMinH(ft) {
		// The search of the backend that acted last, if it is searching.
		show := marks.victims[0]
		for _, ln := range marks.victims {
			if hasCur && ln.Actor == cur.Actor {
				show = ln
			}
		}
		chart, _ := rest.Inset(ft.pad).SplitTop(max(slruChartMinH(ft), min(rest.H, 20*lh(ft.chart))))
		layoutVictimChart(l, chart, v, show, ft, th)
	}
}

func nameOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// slruCounter is one of the SLRU's counters: its value, its label's
// forms, longest first, and its rank: where a row has no room for every
// counter, the lowest ranks stay (0 first).
type slruCounter struct {
	v     uint64
	forms []string
	rank  int
}

// slruCounters are the counters of the SLRU scene, in the order they are
// shown: what the lookups found, what their searches compared, what their
// victim searches chose and wrote, and who waited. The hash probes are
// counted by slru=banks+hash only, which alone shows them.
func slruCounters(v *slruview.View) []slruCounter {
	c := v.Counters()
	out := []slruCounter{
		{c.Lookups, []string{"lookups"}, 1}, {c.Hits, []string{"hits"}, 0}, {c.Misses, []string{"misses"}, 0},
		{c.SlotsCompared, []string{"slots compared", "compared"}, 0},
	}
	if v.Geometry().HasTable() {
		out = append(out, slruCounter{c.Probes, []string{"hash probes", "probes"}, 0})
	}
	return append(out,
		slruCounter{c.Victims, []string{"victims"}, 1}, slruCounter{c.DirtyVictims, []string{"dirty victims"}, 2},
		slruCounter{c.Writes, []string{"writes"}, 2}, slruCounter{c.LockWaits, []string{"lock waits"}, 1},
		slruCounter{c.IOWaits, []string{"I/O waits"}, 2})
}

// slruPaneCounters are the counters of one pane of the side-by-side SLRU
// scene, in the order they are shown, the most telling ranked first: the
// search (slots compared, hash probes: 0 in the panes without a table, to
// compare with the one that has it), the victim search (slots weighed)
// and the lock waits; then the misses; then the rest.
func slruPaneCounters(v *slruview.View) []slruCounter {
	c := v.Counters()
	return []slruCounter{
		{c.Lookups, []string{"lookups"}, 2}, {c.Hits, []string{"hits"}, 2}, {c.Misses, []string{"misses"}, 1},
		{c.SlotsCompared, []string{"slots compared", "compared"}, 0}, {c.Probes, []string{"hash probes", "probes"}, 0},
		{c.VictimScans, []string{"slots weighed for a victim", "slots weighed", "weighed"}, 0},
		{c.LockWaits, []string{"lock waits"}, 0}, {c.Writes, []string{"writes"}, 2}, {c.IOWaits, []string{"I/O waits"}, 2},
	}
}

// slruFitCounters chooses which counters to show and each one's form:
// every counter where fits says they fit in their longest forms, else
// with the widest label shortened, one form at a time, else without the
// counters of the highest rank left (the last first), and so on. It
// returns the counters shown, in their order, and each one's level (its
// form); with one counter left that does not fit, that one (its overflow
// is recorded where it is laid out).
func slruFitCounters(items []slruCounter, fits func(shown []slruCounter, lv []int) bool, width func(c slruCounter, k int) float64) ([]slruCounter, []int) {
	shown := append([]slruCounter(nil), items...)
	for {
		lv := make([]int, len(shown))
		for {
			if fits(shown, lv) {
				return shown, lv
			}
			best, bw := -1, 0.0
			for i, c := range shown {
				if lv[i]+1 < len(c.forms) {
					if w := width(c, lv[i]); best < 0 || w > bw {
						best, bw = i, w
					}
				}
			}
			if best < 0 {
				break
			}
			lv[best]++
		}
		if len(shown) == 1 {
			return shown, lv
		}
		// Leave out the last counter of the highest rank.
		drop := len(shown) - 1
		for i := len(shown) - 1; i >= 0; i-- {
			if shown[i].rank > shown[drop].rank {
				drop = i
			}
		}
		shown = append(shown[:drop:drop], shown[drop+1:]...)
	}
}

// LayoutSLRUCounters lays out the SLRU scene's counters (slruCounters) in
// a row of boxes in r, each its number in bold at the top and its label
// below (role "counter LABEL"): as many as fit with their labels, in one
// of their forms (slruFitCounters).
func LayoutSLRUCounters(l *layout.List, r layout.Rect, v *slruview.View, th *layout.Theme) {
	big := th.Font(layout.Bold, 14)
	small := th.Font(layout.Regular, 10)
	pad := max(2, small.Size*0.25)
	width := func(c slruCounter, k int) float64 { return layout.Width(c.forms[k], small) }
	shown, lv := slruFitCounters(slruCounters(v), func(shown []slruCounter, lv []int) bool {
		w := r.W/float64(len(shown)) - 4 - 2*pad
		for i, c := range shown {
			if width(c, lv[i]) > w || layout.Width(fmt.Sprint(c.v), big) > w {
				return false
			}
		}
		return true
	}, width)
	w := r.W / float64(len(shown))
	for i, c := range shown {
		b := layout.Rect{X: r.X + float64(i)*w, Y: r.Y, W: w - 4, H: r.H}
		role := "counter " + c.forms[0]
		l.Fill(role, b, th.Panel)
		l.Stroke(role, b, 1, th.PanelEdge)
		in := layout.Rect{X: b.X + pad, Y: b.Y + pad/2, W: b.W - 2*pad, H: b.H - pad}
		top, bottom := in.SplitTop(min(lh(big), in.H/2))
		l.TextIn(role, fmt.Sprint(c.v), big, top, th.Text, layout.Center)
		l.TextForms(role, c.forms[lv[i]:], small, layout.Rect{X: bottom.X, Y: bottom.Y + bottom.H - min(bottom.H, lh(small)), W: bottom.W, H: min(bottom.H, lh(small))}, th.Muted, layout.Center)
	}
}

// LayoutSLRUPaneCounters lays out a pane's counters (slruPaneCounters) on
// one line of text in r, each its number in bold and its label (role
// "counter LABEL"): as many as fit, in one of their forms
// (slruFitCounters).
func LayoutSLRUPaneCounters(l *layout.List, r layout.Rect, v *slruview.View, th *layout.Theme) {
	f := th.Font(layout.Regular, 12)
	bold := th.Font(layout.Bold, 13)
	l.Fill("counters", r, th.Panel)
	l.Stroke("counters", r, 1, th.PanelEdge)
	pad := max(2, f.Size*0.4)
	sp, gap := layout.Width(" ", f), f.Size
	item := func(c slruCounter, k int) float64 {
		return layout.Width(fmt.Sprint(c.v), bold) + sp + layout.Width(c.forms[k], f)
	}
	avail := r.W - 2*pad
	shown, lv := slruFitCounters(slruPaneCounters(v), func(shown []slruCounter, lv []int) bool {
		w := -gap
		for i, c := range shown {
			w += item(c, lv[i]) + gap
		}
		return w <= avail+0.5
	}, func(c slruCounter, k int) float64 { return layout.Width(c.forms[k], f) })
	x, right := r.X+pad, r.X+r.W-pad
	line := max(lh(bold), lh(f))
	y := r.Y + max(0, (r.H-line)/2)
	h := min(line, r.H)
	for i, c := range shown {
		role := "counter " + c.forms[0]
		n := fmt.Sprint(c.v)
		nw := layout.Width(n, bold)
		l.TextIn(role, n, bold, layout.Rect{X: x, Y: y, W: max(0, min(nw, right-x)), H: h}, th.Text, layout.Left)
		x += nw + sp
		l.TextForms(role, c.forms[lv[i]:], f, layout.Rect{X: x, Y: y, W: max(0, right-x), H: h}, th.Muted, layout.Left)
		x += layout.Width(c.forms[lv[i]], f) + gap
	}
}
