package scene

import (
	"fmt"
	"image/color"

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
// The scene is a layout (LayoutSLRUScene, LayoutSLRUPane: pure, into a
// *layout.List) that scenedraw's DrawSLRUScene and DrawSLRUPane paint.
// The files: this one (the marks of the lookups, the frame of the scene),
// slru_window.go (which banks and slots fit), slru_banks.go (a bank's row,
// label and hash table), slru_slot.go (one slot and its marks),
// slru_lookups.go (the legend, the lookup lines, the victim chart).

// slruPerLine is the most slots drawn in one line of a bank; a bigger bank
// (slru=single) wraps.
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
	label string // "compares", "probe", "HIT", "VICTIM", …
	enc   layout.Encoding
}

// slruMarks collects, per slot, the marks of every active lookup, and per
// slot the compared flag, the candidate of the victim search in progress.
// Its maps are only ever read by key or reduced to a minimum, never
// iterated into the layout, so the layout does not depend on Go's map
// order.
type slruMarks struct {
	marks     map[int][]slotMark
	compared  map[int]trace.Actor // compared in the current pass, not matching
	cands     map[int]slruview.Candidate
	victimWhy map[int]uint64
	banks     map[int][]trace.Actor // backends whose page hashes to the bank
	probes    map[int]slruview.Lane // bank → the backend probing its table
	victims   []slruview.Lane       // backends in a victim search
}

func collectSLRUMarks(v *slruview.View, th *layout.Theme) slruMarks {
	m := slruMarks{marks: map[int][]slotMark{}, compared: map[int]trace.Actor{}, cands: map[int]slruview.Candidate{},
		victimWhy: map[int]uint64{}, banks: map[int][]trace.Actor{}, probes: map[int]slruview.Lane{}}
	enc := SLRUEncodings(th)
	add := func(slot int, a trace.Actor, label string, e layout.Encoding) {
		if slot >= 0 && slot < v.NumSlots() {
			m.marks[slot] = append(m.marks[slot], slotMark{a, label, e})
		}
	}
	for a := 1; a < v.NumLanes(); a++ {
		ln := v.Lane(trace.Actor(a))
		l := ln.Lookup
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
			lbl := "≠ " + fmt.Sprint(l.Page)
			if l.Match {
				lbl = "= " + fmt.Sprint(l.Page)
			}
			add(l.Examining, ln.Actor, lbl, enc.Comparing)
		case slruview.PhaseProbe:
			m.probes[l.Bank] = ln
			if l.ProbeSlot >= 0 {
				add(l.ProbeSlot, ln.Actor, "probe", enc.Comparing)
			}
		case slruview.PhaseFound:
			if l.Result == slruview.ResultMiss {
				add(l.Slot, ln.Actor, "read in", slotTab(th.Good))
			} else {
				add(l.Slot, ln.Actor, "HIT", slotTab(th.Good))
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
				lbl := "VICTIM"
				if l.VictimWhy == slru.VictimDirty {
					lbl = "VICTIM: write"
				}
				add(l.Victim, ln.Actor, lbl, enc.Victim)
			} else if l.Examining >= 0 {
				add(l.Examining, ln.Actor, "weighs", enc.Comparing)
			}
		case slruview.PhaseRead:
			add(l.Slot, ln.Actor, "MISS: reads", slotTab(th.IO))
		case slruview.PhaseWrite:
			add(l.Slot, ln.Actor, "writes", slotTab(th.IO))
		case slruview.PhaseWaitIO:
			add(l.Slot, ln.Actor, "waits I/O", slotTab(th.Locked))
		}
	}
	return m
}

// LayoutSLRUScene lays out the SLRU of v in r: a header (variant,
// geometry, bank rule, latest_page_number), one row per bank (or more for
// a bank of more than 16 slots) with its lock and counter, a legend, one
// line per backend with its lookup and, where there is room, the victim
// search in progress as a chart. Legible at 1280×800 for 2 to 8 banks of
// 16; a bigger SLRU shows a window of its banks (bankWindows).
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

// SLRUPaneTitle is the geometry LayoutSLRUScene writes in its header, for
// a pane's title: the slots, the banks and the bank rule.
func SLRUPaneTitle(v *slruview.View) string {
	g := v.Geometry()
	if g.Variant == slru.Single {
		return fmt.Sprintf("%d slots, one lock · latest page %d", g.Slots, v.LatestPage())
	}
	rule := fmt.Sprintf("pageno %% %d", v.NumBanks())
	if g.BankRule == slru.BankMask {
		rule = fmt.Sprintf("pageno & %d", v.NumBanks()-1)
	}
	return fmt.Sprintf("%d slots = %d banks × %d, bank = %s · latest page %d", g.Slots, v.NumBanks(), v.BankSize(), rule, v.LatestPage())
}

// slruTitle is the header's title: the SLRU's name, variant and geometry.
func slruTitle(v *slruview.View) string {
	g := v.Geometry()
	rule := fmt.Sprintf("bank = pageno %% %d", v.NumBanks())
	if g.BankRule == slru.BankMask {
		rule = fmt.Sprintf("bank = pageno & %d (PG 17.0–17.2)", v.NumBanks()-1)
	}
	variant := map[slru.Variant]string{slru.Banks: "banks (PG 17.3+)", slru.Single: "single (PG ≤ 16: one ControlLock, every slot searched)",
		slru.BanksHash: "banks + hash table (the 2023 patch)"}[g.Variant]
	title := fmt.Sprintf("%s SLRU · %s · %d slots", nameOr(g.Name, "transaction"), variant, g.Slots)
	if g.Variant != slru.Single {
		title += fmt.Sprintf(" = %d banks × %d · %s", v.NumBanks(), v.BankSize(), rule)
	}
	return title
}

// layoutBanks is the scene (full) or a pane (not full): it shares out r's
// height between the header, the bank rows, the legend, the lookup lines
// and the victim chart, and lays each out.
func layoutBanks(l *layout.List, r layout.Rect, v *slruview.View, full bool, th *layout.Theme) {
	face := th.Font(layout.Regular, 12)
	bold := th.Font(layout.Bold, 12)
	lh := layout.LineHeight(face)

	// Header (a pane's title says it instead: SLRUPaneTitle).
	header, rest := r.SplitTop(lh + 6)
	if !full {
		header, rest = layout.Rect{}, r
	}
	if full {
		title := slruTitle(v)
		textRoom(l, "slru title", title, bold, header.X+4, header.Y+2, header.W-8, th.Text, layout.Left)
		latest := fmt.Sprintf("latest_page_number %d (never evicted)", v.LatestPage())
		if layout.Width(title, bold)+layout.Width(latest, face)+24 < header.W {
			l.Text("slru latest", latest, face, header.X+header.W-4, header.Y+2, 0, th.Text, layout.Right)
		}
	}

	// Below the banks: the legend, one line per backend with its lookup,
	// and, where there is room, the victim search in progress as a chart.
	var lanes []slruview.Lane
	for a := 1; a < v.NumLanes(); a++ {
		if ln := v.Lane(trace.Actor(a)); ln.Lookup.HasOp || ln.HasLast {
			lanes = append(lanes, ln)
		}
	}
	legendH := lh + 6
	if !full {
		legendH = 0
	}
	cur, hasCur := v.Current()
	llh := layout.LineHeight(th.Font(layout.Regular, slruLookupSize(len(lanes))))
	lookH := float64(max(1, min(len(lanes), 8)))*(llh+3) + llh + 6
	marks := collectSLRUMarks(v, th)
	if !full {
		// A pane keeps its rows of slots whole and shows as many
		// lookups as fit below them: those in progress first, the
		// backend that acted last before the others.
		ws, note := bankWindows(v, marks, cur, hasCur, rest.H-(llh+7))
		ideal := slruRowsHeight(rest.W, rest.H-(llh+7), v, ws, note, th)
		fit := max(1, int((rest.H-ideal-4)/(llh+3)))
		lanes = paneLanes(lanes, fit, cur, hasCur)
		lookH = float64(max(1, len(lanes)))*(llh+3) + 4
	}
	ws, note := bankWindows(v, marks, cur, hasCur, rest.H-legendH-lookH)
	rowsH := slruRowsHeight(rest.W, rest.H-legendH-lookH, v, ws, note, th)
	banks, rest := rest.SplitTop(rowsH)
	legend, rest := rest.SplitTop(legendH)
	looks, rest := rest.SplitTop(lookH)
	if note != "" {
		var nr layout.Rect
		nf := th.Font(layout.Italic, 11)
		banks, nr = banks.SplitBottom(layout.LineHeight(nf) + 2)
		l.FitText("slru note", note, nf, nr.X+4, nr.Y, nr.W-8, th.Muted, layout.Left)
	}
	layoutSLRUBankRows(l, banks, v, ws, marks, cur, hasCur, th)
	if full {
		LayoutSLRULegend(l, legend, th)
	}
	layoutSLRULookups(l, looks, v, lanes, cur, hasCur, full, th)
	if full && rest.H >= 110 && len(marks.victims) > 0 {
		// The search of the backend that acted last, if it is searching.
		show := marks.victims[0]
		for _, ln := range marks.victims {
			if hasCur && ln.Actor == cur.Actor {
				show = ln
			}
		}
		chart, _ := rest.Inset(4).SplitTop(280)
		layoutVictimChart(l, chart, v, show, th)
	}
}

// paneLanes keeps at most n of lanes, in their order: lookups in progress
// first, then the lane of the backend that acted last, then the rest.
func paneLanes(lanes []slruview.Lane, n int, cur trace.Event, hasCur bool) []slruview.Lane {
	if len(lanes) <= n {
		return lanes
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
	keep := map[trace.Actor]bool{}
	for r := 0; r <= 3 && len(keep) < n; r++ {
		for _, ln := range lanes {
			if rank(ln) == r && len(keep) < n {
				keep[ln.Actor] = true
			}
		}
	}
	var out []slruview.Lane
	for _, ln := range lanes {
		if keep[ln.Actor] {
			out = append(out, ln)
		}
	}
	return out
}

// slruLookupSize is the type size of the lookup lines: smaller when there
// are many backends.
func slruLookupSize(n int) float64 {
	if n > 4 {
		return 11
	}
	return 12
}

func nameOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// SLRUCounters are the counters the SLRU scene shows.
func SLRUCounters(c slruview.Counters) []Counter {
	return []Counter{
		{"lookups", c.Lookups}, {"hits", c.Hits}, {"misses", c.Misses}, {"slots compared", c.SlotsCompared},
		{"hash probes", c.Probes}, {"victims", c.Victims}, {"dirty victims", c.DirtyVictims},
		{"writes", c.Writes}, {"lock waits", c.LockWaits}, {"I/O waits", c.IOWaits},
	}
}

// SLRUPaneCounters are the counters of one pane of the side-by-side SLRU
// scene, most telling first: the search (slots compared or hash probes)
// and the victim search (slots weighed), then the rest.
func SLRUPaneCounters(c slruview.Counters) []Counter {
	return []Counter{
		{"lookups", c.Lookups}, {"hits", c.Hits}, {"misses", c.Misses}, {"slots compared", c.SlotsCompared},
		{"hash probes", c.Probes}, {"slots weighed for a victim", c.VictimScans}, {"lock waits", c.LockWaits},
		{"writes", c.Writes}, {"I/O waits", c.IOWaits},
	}
}

// LayoutSLRUCounters lays out the SLRU scene's counters in a row of
// labelled boxes (LayoutCounterRow).
func LayoutSLRUCounters(l *layout.List, r layout.Rect, v *slruview.View, th *layout.Theme) {
	LayoutCounterRow(l, r, SLRUCounters(v.Counters()), th)
}

// textRoom adds a text run that must fit in room pixels, as l.Text does,
// except that no room at all (room ≤ 0, which l.Text reads as "no limit")
// is recorded as an overflow too. The run is drawn as it is either way.
func textRoom(l *layout.List, role, s string, f layout.Font, x, y, room float64, c color.RGBA, a layout.Align) {
	if room <= 0 && s != "" {
		l.Overflows = append(l.Overflows, layout.Overflow{Role: role, Text: s, Axis: "w", Need: layout.Width(s, f), Have: 0})
		room = 0
	}
	l.Text(role, s, f, x, y, room, c, a)
}
