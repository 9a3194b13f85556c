package scene

import (
	"fmt"
	"image/color"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
	"bufferlab/viz/render"
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

// slruPerLine is the most slots drawn in one line of a bank; a bigger bank
// (slru=single) wraps.
const slruPerLine = 16

var (
	slruValidFill = color.RGBA{0xff, 0xff, 0xff, 0xff}
	slruIOFill    = color.RGBA{0xcc, 0xec, 0xe1, 0xff} // a light tint of the I/O green
	slruCompared  = color.RGBA{0xfb, 0xe3, 0xb0, 0xff} // a light tint of the highlight orange
	slruRowFill   = color.RGBA{0xf0, 0xf0, 0xea, 0xff}
)

// slruLookupActive reports whether a lookup is between its operation's
// start and its end.
func slruLookupActive(l slruview.Lookup) bool {
	return l.HasOp && l.Phase != slruview.PhaseDone && l.Phase != slruview.PhaseError && l.Phase != slruview.PhaseNone
}

// slotMark is what one backend's lookup says about one slot.
type slotMark struct {
	actor trace.Actor
	label string // "compares", "probe", "HIT", "VICTIM", …
	col   color.RGBA
}

// slruMarks collects, per slot, the marks of every active lookup, and per
// slot the compared flag, the candidate of the victim search in progress.
type slruMarks struct {
	marks     map[int][]slotMark
	compared  map[int]trace.Actor // compared in the current pass, not matching
	cands     map[int]slruview.Candidate
	victimWhy map[int]uint64
	banks     map[int][]trace.Actor // backends whose page hashes to the bank
	probes    map[int]slruview.Lane // bank → the backend probing its table
	victims   []slruview.Lane       // backends in a victim search
}

func collectSLRUMarks(v *slruview.View, th *render.Theme) slruMarks {
	m := slruMarks{marks: map[int][]slotMark{}, compared: map[int]trace.Actor{}, cands: map[int]slruview.Candidate{},
		victimWhy: map[int]uint64{}, banks: map[int][]trace.Actor{}, probes: map[int]slruview.Lane{}}
	add := func(slot int, a trace.Actor, label string, col color.RGBA) {
		if slot >= 0 && slot < v.NumSlots() {
			m.marks[slot] = append(m.marks[slot], slotMark{a, label, col})
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
			add(l.Examining, ln.Actor, lbl, th.Highlight)
		case slruview.PhaseProbe:
			m.probes[l.Bank] = ln
			if l.ProbeSlot >= 0 {
				add(l.ProbeSlot, ln.Actor, "probe", th.Highlight)
			}
		case slruview.PhaseFound:
			if l.Result == slruview.ResultMiss {
				add(l.Slot, ln.Actor, "read in", th.Good)
			} else {
				add(l.Slot, ln.Actor, "HIT", th.Good)
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
				add(l.Victim, ln.Actor, lbl, th.Error)
			} else if l.Examining >= 0 {
				add(l.Examining, ln.Actor, "weighs", th.Highlight)
			}
		case slruview.PhaseRead:
			add(l.Slot, ln.Actor, "MISS: reads", th.IO)
		case slruview.PhaseWrite:
			add(l.Slot, ln.Actor, "writes", th.IO)
		case slruview.PhaseWaitIO:
			add(l.Slot, ln.Actor, "waits I/O", th.Locked)
		}
	}
	return m
}

// DrawSLRUScene draws the SLRU of v into r: a header (variant, geometry, bank
// rule, latest_page_number), one row per bank (or more for a bank of more
// than 16 slots) with its lock and counter, a legend, and one line per
// backend with its lookup. Legible at 1280×800 for 2 to 8 banks of 16.
func DrawSLRUScene(dst *ebiten.Image, r render.Rect, v *slruview.View, th *render.Theme) {
	drawBanks(dst, r, v, true, th)
}

// DrawSLRUPane is DrawSLRUScene for one of several panes side by side: no
// header (the pane's title is SLRUPaneTitle), no legend (DrawSLRULegend
// draws it once for all of them) and no victim chart, so that the rows of
// slots keep their height.
func DrawSLRUPane(dst *ebiten.Image, r render.Rect, v *slruview.View, th *render.Theme) {
	drawBanks(dst, r, v, false, th)
}

// SLRUPaneTitle is the geometry DrawSLRUScene writes in its header, for a
// pane's title: the slots, the banks and the bank rule.
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

func drawBanks(dst *ebiten.Image, r render.Rect, v *slruview.View, full bool, th *render.Theme) {
	g := v.Geometry()
	face := th.Face(render.Regular, 12)
	bold := th.Face(render.Bold, 12)
	lh := render.LineHeight(face)

	// Header (a pane's title says it instead: PaneTitle).
	header, rest := r.SplitTop(lh + 6)
	if !full {
		header, rest = render.Rect{}, r
	}
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
	if full {
		render.Text(dst, title, bold, header.X+4, header.Y+2, th.Text, render.Left)
		latest := fmt.Sprintf("latest_page_number %d (never evicted)", v.LatestPage())
		if render.TextWidth(title, bold)+render.TextWidth(latest, face)+24 < header.W {
			render.Text(dst, latest, face, header.X+header.W-4, header.Y+2, th.Text, render.Right)
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
	llh := render.LineHeight(th.Face(render.Regular, slruLookupSize(len(lanes))))
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
		var nr render.Rect
		banks, nr = banks.SplitBottom(render.LineHeight(th.Face(render.Italic, 11)) + 2)
		render.Text(dst, render.Fit(note, th.Face(render.Italic, 11), nr.W-8), th.Face(render.Italic, 11), nr.X+4, nr.Y, th.Muted, render.Left)
	}
	drawSLRUBankRows(dst, banks, v, ws, marks, cur, hasCur, th)
	if full {
		DrawSLRULegend(dst, legend, th)
	}
	drawSLRULookups(dst, looks, v, lanes, cur, hasCur, full, th)
	if full && rest.H >= 110 && len(marks.victims) > 0 {
		// The search of the backend that acted last, if it is searching.
		show := marks.victims[0]
		for _, ln := range marks.victims {
			if hasCur && ln.Actor == cur.Actor {
				show = ln
			}
		}
		chart, _ := rest.Inset(4).SplitTop(280)
		drawVictimChart(dst, chart, v, show, th)
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

// slruLabelW is the width of a bank's label column (chips and label).
func slruLabelW(w float64) float64 { return 22 + min(170.0, max(120, w*0.13)) }

// slruRowsHeight is the height the bank rows take in a rect of width w
// with at most h for them: rows no taller than the cells' width allows
// (a cell is at most twice as tall as it is wide).
func slruRowsHeight(w, h float64, v *slruview.View, ws []bankWindow, note string, th *render.Theme) float64 {
	perLine := min(v.BankSize(), slruPerLine)
	cw := (w - slruLabelW(w)) / float64(perLine)
	total := 0.0
	for _, bw := range ws {
		total += float64(bw.lines())*min(cw*1.75, 150) + slruTableH(v) + 4
	}
	if note != "" {
		total += render.LineHeight(th.Face(render.Italic, 11)) + 2
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

func nameOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func drawSLRUBankRows(dst *ebiten.Image, r render.Rect, v *slruview.View, ws []bankWindow, m slruMarks, cur trace.Event, hasCur bool, th *render.Theme) {
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
		rowH := float64(lines)*lineH + tableH + 4
		row := render.Rect{X: r.X, Y: y, W: r.W, H: rowH - 4}
		y += rowH
		bk := v.Bank(b)
		render.Fill(dst, row, slruRowFill)
		// Backends whose page hashes to this bank: chips at the left.
		chips, body := row.SplitLeft(chipW)
		for i, a := range m.banks[b] {
			c := render.Rect{X: chips.X + 2, Y: chips.Y + 4 + float64(i)*(chipW+2), W: chipW - 4, H: chipW - 4}
			if c.Y+c.H > chips.Y+chips.H {
				break
			}
			drawActorChip(dst, c, v.LaneName(a), th.Highlight, th)
		}
		label, slots := body.SplitLeft(labelW)
		drawBankLabel(dst, label.Inset(2), v, bk, hasCur && cur.Class == trace.OBank && int(cur.Obj) == b, th)
		var table render.Rect
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
			cell := render.Rect{X: slots.X + float64(k%perLine)*cw, Y: slots.Y + float64(k/perLine)*ch, W: cw, H: ch}.Inset(2)
			cell.Y += 4 // room for the tabs above
			cell.H -= 4
			changed := hasCur && (cur.Class == trace.OSlot || cur.Class == trace.OSlotIO) && int(cur.Obj) == i
			drawSLRUSlot(dst, cell, v, i, m, maxAge, changed, th)
		}
		if tableH > 0 {
			drawBankTable(dst, table, v, b, m, th)
		}
	}
}

// drawActorChip draws a backend's name in a small filled box.
func drawActorChip(dst *ebiten.Image, c render.Rect, name string, fill color.RGBA, th *render.Theme) {
	render.Fill(dst, c, fill)
	f := th.Face(render.Bold, 11)
	render.Text(dst, name, f, c.X+c.W/2, c.Y+(c.H-render.LineHeight(f))/2, render.TextOn(fill), render.Center)
}

// drawBankLabel draws a bank's number, its lock (holders with their mode,
// waiters), and bank_cur_lru_count.
func drawBankLabel(dst *ebiten.Image, r render.Rect, v *slruview.View, bk slruview.Bank, changed bool, th *render.Theme) {
	face := th.Face(render.Regular, 11)
	bold := th.Face(render.Bold, 12)
	lh := render.LineHeight(face)
	render.Fill(dst, r, th.Panel)
	excl, shared := slruview.Holders(bk.Lock)
	lockName := "lock"
	name := fmt.Sprintf("bank %d", bk.ID)
	if v.Geometry().Variant == slru.Single {
		lockName, name = "ControlLock", "all slots"
	}
	var lock string
	switch {
	case excl != 0:
		render.Stroke(dst, r, 3, th.Locked)
		lock = fmt.Sprintf("%s: X %s", lockName, v.LaneName(excl))
	case len(shared) > 0:
		render.Stroke(dst, r, 2, th.Accent)
		var ns []string
		for _, a := range shared {
			ns = append(ns, v.LaneName(a))
		}
		lock = fmt.Sprintf("%s: S %s", lockName, strings.Join(ns, " "))
	default:
		render.Stroke(dst, r, 1, th.PanelEdge)
		lock = lockName + ": free"
	}
	if changed {
		render.Stroke(dst, r.Inset(-2), 2, th.Highlight)
	}
	y := r.Y + 3
	render.Text(dst, name, bold, r.X+6, y, th.Text, render.Left)
	if excl != 0 || len(shared) > 0 {
		drawPadlock(dst, r.X+r.W-16, y+2, excl != 0, th)
	}
	y += render.LineHeight(bold)
	lines := []struct {
		s string
		c color.RGBA
	}{{lock, th.Text}}
	if len(bk.Waiters) > 0 {
		var ws []string
		for _, w := range bk.Waiters {
			mode := "S"
			if w.Mode == slru.LWExclusive {
				mode = "X"
			}
			ws = append(ws, v.LaneName(w.Actor)+"("+mode+")")
		}
		lines = append(lines, struct {
			s string
			c color.RGBA
		}{"waiting: " + strings.Join(ws, " "), th.Error})
	}
	lines = append(lines, struct {
		s string
		c color.RGBA
	}{fmt.Sprintf("cur_lru_count %d", bk.CurCount), th.Muted})
	extra := fmt.Sprintf("slots #%d–#%d", bk.First, bk.End-1)
	if v.Geometry().HasTable() {
		extra += fmt.Sprintf(", table %d", len(v.TableEntries(bk.ID)))
	}
	lines = append(lines, struct {
		s string
		c color.RGBA
	}{extra, th.Muted})
	for _, l := range lines {
		if y+lh > r.Y+r.H {
			break
		}
		render.Text(dst, l.s, face, r.X+6, y, l.c, render.Left)
		y += lh
	}
}

// drawPadlock draws a small padlock: closed and filled for an exclusive
// holder, outlined for shared ones (the label says which as well).
func drawPadlock(dst *ebiten.Image, x, y float64, excl bool, th *render.Theme) {
	body := render.Rect{X: x, Y: y + 5, W: 11, H: 8}
	render.Stroke(dst, render.Rect{X: x + 2, Y: y, W: 7, H: 8}, 1.5, th.Locked)
	if excl {
		render.Fill(dst, body, th.Locked)
	} else {
		render.Fill(dst, body, th.Panel)
		render.Stroke(dst, body, 1.5, th.Accent)
	}
}

// slotStateLabel is how a slot's state is written in its cell.
func slotStateLabel(st slru.PageStatus) string {
	switch st {
	case slru.PageEmpty:
		return "EMPTY"
	case slru.PageReadInProgress:
		return "READ I/O"
	case slru.PageValid:
		return "VALID"
	case slru.PageWriteInProgress:
		return "WRITE I/O"
	}
	return st.String()
}

// slotStateShort is a slot's state in one short word, for small cells.
func slotStateShort(st slru.PageStatus) string {
	switch st {
	case slru.PageReadInProgress:
		return "READ"
	case slru.PageWriteInProgress:
		return "WRITE"
	}
	return slotStateLabel(st)
}

// drawSLRUSlot draws one slot: its number, page, state, LRU count and age
// (with a bar scaled to the oldest slot of the bank), the dirty and latest
// badges, its buffer lock; then what the lookups in progress do with it.
func drawSLRUSlot(dst *ebiten.Image, c render.Rect, v *slruview.View, i int, m slruMarks, maxAge int32, changed bool, th *render.Theme) {
	s := v.Slot(i)
	fill := slruValidFill
	switch {
	case s.Empty():
		fill = th.Free
	case s.InIO():
		fill = slruIOFill
	}
	if a, ok := m.compared[i]; ok && a != 0 {
		fill = slruCompared
	}
	render.Fill(dst, c, fill)
	fs := min(14, max(9, min(c.W/6, c.H/5.5)))
	face := th.Face(render.Regular, fs)
	bold := th.Face(render.Bold, fs+1)
	small := th.Face(render.Regular, fs-1)
	badge := th.Face(render.Bold, max(8, fs-3))
	lh := render.LineHeight(face)
	tc := render.TextOn(fill)

	// A short cell writes its state on the first line, beside its number,
	// and leaves out the buffer lock's badge (the lookup's tab above the
	// cell names the backend doing the I/O).
	compact := c.H < 2+3*render.LineHeight(small)+render.LineHeight(bold)+render.LineHeight(badge)
	// Line 1: the slot number, the buffer lock (or the state).
	y := c.Y + 2
	num := fmt.Sprintf("#%d", i)
	render.Text(dst, num, small, c.X+3, y, th.Muted, render.Left)
	if c.H < render.LineHeight(small)+render.LineHeight(bold)+1 {
		// Too short for two lines (stacked panes in a low window): the
		// page beside the number, the fill colour for the state.
		page := "—"
		if !s.Empty() {
			page = fmt.Sprintf("p%d", s.Page)
		}
		if render.TextWidth(num, small)+render.TextWidth(page, small)+8 <= c.W {
			render.Text(dst, page, small, c.X+c.W-3, y, tc, render.Right)
		}
		cd, weighed := m.cands[i]
		drawSlotMarks(dst, c, v, i, m, cd, weighed, true, changed, th)
		return
	}
	if compact {
		// The state after the number, in a letter when the word does not
		// fit beside it (the fill colour says it too).
		st := slotStateShort(s.Status)
		if render.TextWidth(num, small)+render.TextWidth(st, small)+8 > c.W {
			st = st[:1]
		}
		if render.TextWidth(num, small)+render.TextWidth(st, small)+8 <= c.W {
			render.Text(dst, st, small, c.X+c.W-3, y, tc, render.Right)
		}
	} else if s.IOLock != 0 {
		excl, shared := slruview.Holders(s.IOLock)
		lbl := "io "
		if excl != 0 {
			lbl += v.LaneName(excl)
		} else {
			var ns []string
			for _, a := range shared {
				ns = append(ns, v.LaneName(a))
			}
			lbl += strings.Join(ns, "")
		}
		w := render.TextWidth(lbl, badge) + 4
		br := render.Rect{X: c.X + c.W - w - 2, Y: y, W: w, H: render.LineHeight(badge)}
		render.Fill(dst, br, th.IO)
		render.Text(dst, lbl, badge, br.X+2, br.Y, render.TextOn(th.IO), render.Left)
	}
	y += render.LineHeight(small) - 1
	// Line 2: the page.
	page := "—"
	if !s.Empty() {
		page = fmt.Sprintf("p %d", s.Page)
	}
	render.Text(dst, page, bold, c.X+c.W/2, y, tc, render.Center)
	y += render.LineHeight(bold) - 1
	// Line 3: the state.
	if !compact && y+lh <= c.Y+c.H {
		render.Text(dst, slotStateLabel(s.Status), small, c.X+c.W/2, y, tc, render.Center)
		y += render.LineHeight(small)
	}
	// Line 4: LRU count and age, with the age bar.
	cd, weighed := m.cands[i]
	if !s.Empty() && y+render.LineHeight(small) <= c.Y+c.H-3 {
		// The age against bank_cur_lru_count; once a victim search has
		// weighed the slot, the age it computed against its cur_count
		// (one less: the search took cur_count = counter++).
		age := s.Age
		if weighed {
			age = cd.Age
		}
		txt := fmt.Sprintf("lru %d·age %d", s.LRUCount, age)
		if render.TextWidth(txt, small) > c.W-4 {
			txt = fmt.Sprintf("%d·a%d", s.LRUCount, age)
		}
		if compact && weighed {
			// No room for the verdict badge in the middle: the verdict
			// takes this line, on its colour.
			lbl, col := candidateLabel(cd, th)
			txt = fmt.Sprintf("%s a%d", lbl, cd.Age)
			if render.TextWidth(txt, small) > c.W-4 {
				txt = lbl
			}
			render.Fill(dst, render.Rect{X: c.X + 1, Y: y, W: c.W - 2, H: render.LineHeight(small)}, col)
			render.Text(dst, txt, small, c.X+c.W/2, y, render.TextOn(col), render.Center)
		} else {
			render.Text(dst, txt, small, c.X+c.W/2, y, tc, render.Center)
		}
		y += render.LineHeight(small)
	}
	if !s.Empty() {
		frac := float64(max(0, s.Age)) / float64(maxAge)
		render.Fill(dst, render.Rect{X: c.X + 2, Y: c.Y + c.H - 4, W: (c.W - 4) * frac, H: 3}, th.Accent)
	}
	// Badges along the bottom: DIRTY, LATEST.
	bx := c.X + 2
	by := c.Y + c.H - render.LineHeight(badge) - 5
	drawBadge := func(lbl string, col color.RGBA) {
		w := render.TextWidth(lbl, badge) + 4
		if bx+w > c.X+c.W && bx > c.X+2 {
			// No room beside the previous badge: above it.
			bx, by = c.X+2, by-render.LineHeight(badge)-1
		}
		if bx+w > c.X+c.W || by < y-2 {
			return
		}
		render.Fill(dst, render.Rect{X: bx, Y: by, W: w, H: render.LineHeight(badge)}, col)
		render.Text(dst, lbl, badge, bx+2, by, render.TextOn(col), render.Left)
		bx += w + 2
	}
	if s.Dirty {
		d := min(c.W, c.H) * 0.2
		render.Triangle(dst, c.X+c.W-d, c.Y+c.H, c.X+c.W, c.Y+c.H, c.X+c.W, c.Y+c.H-d, th.Dirty)
		drawBadge("DIRTY", th.Dirty)
	}
	if s.Latest {
		drawBadge("LATEST", th.Locked)
	}
	drawSlotMarks(dst, c, v, i, m, cd, weighed, compact, changed, th)
}

// drawSlotMarks draws what the lookups do with slot i over its cell c: the
// outline (compared, a victim candidate, the current event's), and tabs
// above the cell naming who does what there.
func drawSlotMarks(dst *ebiten.Image, c render.Rect, v *slruview.View, i int, m slruMarks, cd slruview.Candidate, weighed, compact, changed bool, th *render.Theme) {
	fs := min(14, max(9, min(c.W/6, c.H/5.5))) // as drawSLRUSlot sizes its type
	bold := th.Face(render.Bold, fs+1)
	badge := th.Face(render.Bold, max(8, fs-3))
	// Outline: the lookups' marks, else the default edge.
	render.Stroke(dst, c, 1, th.PanelEdge)
	if _, ok := m.compared[i]; ok {
		render.Stroke(dst, c, 2, th.Highlight)
		render.Text(dst, "≠", bold, c.X+c.W-4, c.Y+c.H-render.LineHeight(bold)-6, th.Highlight, render.Right)
	}
	if weighed {
		drawCandidate(dst, c, cd, m.victimWhy, !compact, th)
	}
	if changed && len(m.marks[i]) == 0 {
		render.Stroke(dst, c.Inset(-2), 2, th.Text)
	}
	// Tabs above the cell: who does what here.
	tx := c.X
	for _, mk := range m.marks[i] {
		lbl := v.LaneName(mk.actor) + " " + mk.label
		w := render.TextWidth(lbl, badge) + 6
		if tx+w > c.X+c.W+8 && tx > c.X {
			break
		}
		tab := render.Rect{X: tx, Y: c.Y - render.LineHeight(badge) + 1, W: w, H: render.LineHeight(badge)}
		render.Fill(dst, tab, mk.col)
		render.Text(dst, lbl, badge, tab.X+3, tab.Y, render.TextOn(mk.col), render.Left)
		render.Stroke(dst, c, 3, mk.col)
		tx += w + 2
	}
}

// candidateLabel is the verdict of the victim search on a slot, and its
// colour.
func candidateLabel(cd slruview.Candidate, th *render.Theme) (string, color.RGBA) {
	switch cd.Kind {
	case slruview.CandEmpty:
		return "empty: take", th.Good
	case slruview.CandLatest:
		return "skip: latest", th.Locked
	case slruview.CandBusy:
		return "busy I/O", th.IO
	}
	if cd.Best {
		return "oldest", th.Accent
	}
	return "weighed", th.Muted
}

// drawCandidate marks a slot the victim search weighed: its verdict as a
// label in the middle of the cell's right edge ("best", "latest: skip",
// "busy"), the victim outlined thickly.
func drawCandidate(dst *ebiten.Image, c render.Rect, cd slruview.Candidate, victim map[int]uint64, badge bool, th *render.Theme) {
	f := th.Face(render.Bold, 9)
	lbl, col := candidateLabel(cd, th)
	if _, ok := victim[cd.Slot]; ok {
		render.Stroke(dst, c.Inset(1), 3, th.Error)
	}
	if !badge {
		return
	}
	w := render.TextWidth(lbl, f) + 4
	br := render.Rect{X: c.X + (c.W-w)/2, Y: c.Y + c.H*0.5 - 2, W: w, H: render.LineHeight(f)}
	if w > c.W {
		br.X = c.X
	}
	render.Fill(dst, br, col)
	render.Text(dst, lbl, f, br.X+2, br.Y, render.TextOn(col), render.Left)
}

// drawBankTable draws a bank's page → slot table (banks+hash) and the
// probe in progress.
func drawBankTable(dst *ebiten.Image, r render.Rect, v *slruview.View, b int, m slruMarks, th *render.Theme) {
	f := th.Face(render.Mono, 9.5)
	x := r.X + 4
	y := r.Y
	lbl := "hash table:"
	col := th.Muted
	probe, probing := m.probes[b]
	render.Text(dst, lbl, f, x, y, col, render.Left)
	x += render.TextWidth(lbl, f) + 6
	entries := v.TableEntries(b)
	if len(entries) == 0 {
		render.Text(dst, "(empty)", f, x, y, th.Muted, render.Left)
		x += render.TextWidth("(empty)", f) + 10
	}
	for _, e := range entries {
		s := fmt.Sprintf("%d→#%d", e.Page, e.Slot)
		w := render.TextWidth(s, f)
		if x+w > r.X+r.W-4 {
			break
		}
		if probing && probe.Lookup.ProbeSlot == e.Slot {
			render.Fill(dst, render.Rect{X: x - 2, Y: y, W: w + 4, H: render.LineHeight(f)}, th.Highlight)
		}
		render.Text(dst, s, f, x, y, th.Text, render.Left)
		x += w + 10
	}
	if probing {
		l := probe.Lookup
		res := fmt.Sprintf("%s probes page %d: ", probe.Name, l.Page)
		if l.ProbeSlot >= 0 {
			res += fmt.Sprintf("→ #%d", l.ProbeSlot)
		} else {
			res += "not there"
		}
		res += fmt.Sprintf(" (%d compared)", l.ProbeEntries)
		bf := th.Face(render.Bold, 10)
		if w := render.TextWidth(res, bf); x+w < r.X+r.W {
			render.Text(dst, res, bf, r.X+r.W-4, y, th.Text, render.Right)
		}
	}
}

// DrawSLRULegend names every colour and mark the rows use.
func DrawSLRULegend(dst *ebiten.Image, r render.Rect, th *render.Theme) {
	face := th.Face(render.Regular, 11)
	x := r.X + 4
	y := r.Y + 4
	item := func(fill color.RGBA, edge color.RGBA, label string) {
		box := render.Rect{X: x, Y: y + 2, W: 12, H: 12}
		render.Fill(dst, box, fill)
		render.Stroke(dst, box, 1.5, edge)
		render.Text(dst, label, face, x+16, y, th.Text, render.Left)
		x += 16 + render.TextWidth(label, face) + 12
	}
	item(th.Free, th.PanelEdge, "EMPTY")
	item(slruValidFill, th.PanelEdge, "VALID")
	item(slruIOFill, th.PanelEdge, "READ / WRITE I/O")
	item(th.Dirty, th.Dirty, "DIRTY")
	item(slruCompared, th.Highlight, "compared (≠)")
	item(th.Panel, th.Highlight, "being compared")
	item(th.Panel, th.Error, "victim")
	render.Fill(dst, render.Rect{X: x, Y: y + 8, W: 18, H: 3}, th.Accent)
	render.Text(dst, "age (LRU distance)", face, x+22, y, th.Text, render.Left)
}

// drawSLRULookups writes one line per backend: its name, its operation,
// the path from xid to page to bank, and where its search is; a waiting
// backend says for which lock.
func drawSLRULookups(dst *ebiten.Image, r render.Rect, v *slruview.View, lanes []slruview.Lane, cur trace.Event, hasCur bool, heading bool, th *render.Theme) {
	size := slruLookupSize(len(lanes))
	face := th.Face(render.Regular, size)
	bold := th.Face(render.Bold, size)
	lh := render.LineHeight(face)
	y := r.Y + 2
	if heading {
		render.Text(dst, "lookups", th.Face(render.Bold, 11), r.X+4, r.Y+2, th.Muted, render.Left)
		y = r.Y + lh + 4
	}
	if len(lanes) == 0 {
		render.Text(dst, "no backend has run yet", face, r.X+30, y, th.Muted, render.Left)
		return
	}
	for i, ln := range lanes {
		if i == 8 {
			break
		}
		row := render.Rect{X: r.X, Y: y, W: r.W, H: lh + 2}
		if hasCur && cur.Actor == ln.Actor {
			render.Fill(dst, row, highlightFill)
		}
		chip := render.Rect{X: row.X + 4, Y: row.Y + 1, W: 22, H: lh}
		col := th.Muted
		if slruLookupActive(ln.Lookup) {
			col = th.Highlight
		}
		drawActorChip(dst, chip, ln.Name, col, th)
		x := chip.X + chip.W + 8
		l := ln.Lookup
		if !l.HasOp {
			render.Text(dst, "idle", face, x, row.Y, th.Muted, render.Left)
			y += lh + 3
			continue
		}
		op := slruview.OpText(l.Op, l.Operand)
		render.Text(dst, op, bold, x, row.Y, th.Text, render.Left)
		x += max(150, render.TextWidth(op, bold)+12)
		if path := v.Path(l); path != "" {
			render.Text(dst, path, face, x, row.Y, th.Text, render.Left)
			x += max(300, render.TextWidth(path, face)+12)
		}
		status := v.Status(ln)
		c := th.Text
		switch {
		case ln.Waiting:
			status = fmt.Sprintf("WAITING for %s (%s) · %s", v.LockName(ln.WaitingFor.Class, int(ln.WaitingFor.Obj)),
				slru.LWLockMode(ln.WaitingFor.Arg), status)
			c = th.Error
		case l.Phase == slruview.PhaseError:
			c = th.Error
		case l.Phase == slruview.PhaseDone:
			c = th.Muted
		}
		status = render.Fit(status, face, r.X+r.W-x-4)
		render.Text(dst, status, face, x, row.Y, c, render.Left)
		y += lh + 3
	}
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

// DrawSLRUCounters draws the SLRU scene's counters in a row of labelled
// boxes.
func DrawSLRUCounters(dst *ebiten.Image, r render.Rect, v *slruview.View, th *render.Theme) {
	DrawCounterRow(dst, r, SLRUCounters(v.Counters()), th)
}

// drawVictimChart draws one backend's victim search (SlruSelectLRUPage) as
// a bar chart: a bar per slot of the bank, as tall as the slot's age
// (cur_count − page_lru_count), labelled with the age and the verdict
// (skipped as the latest page, busy with I/O, the oldest so far, the
// victim); slots not weighed yet are outlined.
func drawVictimChart(dst *ebiten.Image, r render.Rect, v *slruview.View, ln slruview.Lane, th *render.Theme) {
	l := ln.Lookup
	if l.Bank < 0 || l.Bank >= v.NumBanks() {
		return
	}
	render.Fill(dst, r, th.Panel)
	render.Stroke(dst, r, 1, th.PanelEdge)
	bold := th.Face(render.Bold, 12)
	face := th.Face(render.Regular, 11)
	small := th.Face(render.Regular, 10)
	lh := render.LineHeight(face)
	title := fmt.Sprintf("%s chooses a victim in %s (SlruSelectLRUPage): cur_count = bank_cur_lru_count++ = %d, age = cur_count − page_lru_count",
		ln.Name, v.BankName(l.Bank), l.CurCount)
	render.Text(dst, title, bold, r.X+8, r.Y+4, th.Text, render.Left)
	rule := "An EMPTY slot is taken at once; else the oldest VALID slot that is not latest_page_number (ties: the older page); a dirty one is written first and the search starts over."
	render.Text(dst, rule, face, r.X+8, r.Y+4+render.LineHeight(bold), th.Muted, render.Left)
	chart := render.Rect{X: r.X + 8, Y: r.Y + 8 + render.LineHeight(bold) + lh, W: r.W - 16, H: r.H - 12 - render.LineHeight(bold) - lh}
	first, end := v.Geometry().BankSlots(l.Bank)
	n := end - first
	if n > 64 || chart.H < 3*lh {
		return
	}
	cands := map[int]slruview.Candidate{}
	maxAge := int32(1)
	lastBest := -1
	for _, c := range l.Candidates {
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
			maxAge = max(maxAge, l.CurCount-s.LRUCount)
		}
	}
	bw := chart.W / float64(n)
	barTop := chart.Y + lh + 2
	barBottom := chart.Y + chart.H - 2*render.LineHeight(small)
	for k := 0; k < n; k++ {
		slot := first + k
		x := chart.X + float64(k)*bw
		col := render.Rect{X: x + 3, W: bw - 6}
		under := fmt.Sprintf("#%d", slot)
		if s := v.Slot(slot); !s.Empty() {
			under += fmt.Sprintf(" p%d", s.Page)
		}
		render.Text(dst, under, small, x+bw/2, barBottom+2, th.Text, render.Center)
		c, ok := cands[slot]
		if !ok {
			h := 2.0
			if s := v.Slot(slot); !s.Empty() {
				h = max(h, (barBottom-barTop)*float64(max(0, l.CurCount-s.LRUCount))/float64(maxAge))
			}
			render.Stroke(dst, render.Rect{X: col.X, Y: barBottom - h, W: col.W, H: h}, 1, th.PanelEdge)
			render.Text(dst, "not yet", small, x+bw/2, barBottom+2+render.LineHeight(small), th.Muted, render.Center)
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
		case slot == l.Victim:
			fill, verdict = th.Error, "VICTIM"
			if l.VictimWhy == slru.VictimDirty {
				verdict = "VICTIM, dirty"
			}
		case slot == lastBest:
			fill, verdict = th.Highlight, "oldest so far"
		}
		render.Fill(dst, col, fill)
		if c.Kind != slruview.CandEmpty {
			render.Text(dst, fmt.Sprintf("age %d", c.Age), small, x+bw/2, col.Y-render.LineHeight(small), th.Text, render.Center)
		}
		if verdict != "" {
			vf := th.Face(render.Bold, 9.5)
			for render.TextWidth(verdict, vf) > bw-2 && strings.Contains(verdict, " ") {
				verdict = verdict[:strings.LastIndex(verdict, " ")]
			}
			render.Text(dst, verdict, vf, x+bw/2, barBottom+2+render.LineHeight(small), th.Text, render.Center)
		}
	}
	render.Line(dst, chart.X, barBottom, chart.X+chart.W, barBottom, 1, th.PanelEdge)
}
