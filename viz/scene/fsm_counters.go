package scene

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/trace"
	"bufferlab/viz/fsmview"
	"bufferlab/viz/layout"
)

// --- The type and the shared pieces ---

// fsmType is the type the FSM scene's parts lay out with: the sizes they
// ask the theme for (which scales them and never returns less than its
// floor, Theme.MinPx) and their line heights. Every length in the scene
// is a multiple of these lines or of the measured width of a text, so the
// layout follows the font it gets, not the pixels it was written for.
type fsmType struct {
	th *layout.Theme
	// face is the body text, small the labels, bold the emphasised
	// labels, title the panels' titles, big the counters' numbers, badge
	// the order badges.
	face, small, bold, title, big, badge layout.Font
	// Line heights of face, small, bold, title, big and badge.
	lh, slh, blh, tlh, biglh, badgeH float64
	// gap is the small gap between things: a fifth of a line.
	gap float64
}

func newFSMType(th *layout.Theme) *fsmType {
	t := &fsmType{th: th,
		face:  th.Font(layout.Regular, 11),
		small: th.Font(layout.Regular, 10),
		bold:  th.Font(layout.Bold, 11),
		title: th.Font(layout.Bold, 12),
		big:   th.Font(layout.Bold, 17),
		badge: th.Font(layout.Bold, 9),
	}
	t.lh, t.slh, t.blh = layout.LineHeight(t.face), layout.LineHeight(t.small), layout.LineHeight(t.bold)
	t.tlh, t.biglh, t.badgeH = layout.LineHeight(t.title), layout.LineHeight(t.big), layout.LineHeight(t.badge)
	t.gap = math.Round(t.lh / 5)
	return t
}

// chrome is the height a panel's title and padding take (fsmPanel).
func (t *fsmType) chrome() float64 { return t.tlh + 3*t.gap }

// fsmPanel lays out a panel in r titled by the first of titles that fits
// (the title's deliberate shorter forms, longest first, defined by the
// caller) and returns the rect inside it. The same frame as LayoutPanel,
// with padding that scales with the type.
func fsmPanel(l *layout.List, r layout.Rect, titles []string, t *fsmType) layout.Rect {
	th := t.th
	l.Fill("panel", r, th.Panel)
	l.Stroke("panel", r, 1, th.PanelEdge)
	p := t.gap
	tb := layout.Rect{X: r.X + 2*p, Y: r.Y + p, W: r.W - 4*p, H: t.tlh}
	l.TextForms("panel title", titles, t.title, tb, th.Muted, layout.Left)
	return layout.Rect{X: r.X + 2*p, Y: tb.Y + tb.H + p, W: r.W - 4*p, H: r.H - t.chrome()}
}

func fsmPlural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// fsmLegendItem is a swatch and its label's forms, longest first.
type fsmLegendItem struct {
	fill, edge color.RGBA
	forms      []string
}

// fsmLegend is a legend laid out to a width: the level of the labels'
// forms it uses and the items on each line.
type fsmLegend struct {
	items []fsmLegendItem
	level int
	lines [][]int
	h     float64
}

func legendLabel(it fsmLegendItem, k int) string { return it.forms[min(k, len(it.forms)-1)] }

// legendItemW is the width an item takes on a line: its swatch, the
// label and the space after it.
func legendItemW(it fsmLegendItem, k int, t *fsmType) float64 {
	return 0.7*t.slh + t.gap + layout.Width(legendLabel(it, k), t.small) + 2*t.gap
}

// planFSMLegend flows items into lines w wide: with the longest forms
// that need no more lines than the shortest, so that a legend shortens
// its labels before it wraps further.
func planFSMLegend(items []fsmLegendItem, w float64, t *fsmType) fsmLegend {
	flow := func(k int) [][]int {
		var lines [][]int
		x := 0.0
		for i, it := range items {
			iw := legendItemW(it, k, t)
			if len(lines) == 0 || x+iw-2*t.gap > w {
				lines = append(lines, nil)
				x = 0
			}
			lines[len(lines)-1] = append(lines[len(lines)-1], i)
			x += iw
		}
		return lines
	}
	levels := 1
	for _, it := range items {
		levels = max(levels, len(it.forms))
	}
	best := flow(levels - 1)
	lg := fsmLegend{items: items, level: levels - 1, lines: best}
	for k := 0; k < levels-1; k++ {
		if ls := flow(k); len(ls) <= len(best) {
			lg.level, lg.lines = k, ls
			break
		}
	}
	lg.h = float64(len(lg.lines)) * t.slh
	return lg
}

// layout lays the legend out from the top of r, one line of slh a row;
// a label too wide for r even in its shortest form is recorded (by
// TextForms).
func (lg fsmLegend) layout(l *layout.List, role string, r layout.Rect, t *fsmType) {
	sw := 0.7 * t.slh
	for row, line := range lg.lines {
		x, y := r.X, r.Y+float64(row)*t.slh
		for _, i := range line {
			it := lg.items[i]
			box := layout.Rect{X: x, Y: y + (t.slh-sw)/2, W: sw, H: sw}
			l.Fill(role, box, it.fill)
			l.Stroke(role, box, max(1, sw/6), it.edge)
			lx := x + sw + t.gap
			forms := it.forms[min(lg.level, len(it.forms)-1):]
			s := l.TextForms(role, forms, t.small, layout.Rect{X: lx, Y: y, W: r.X + r.W - lx, H: t.slh}, t.th.Text, layout.Left)
			x = lx + layout.Width(s, t.small) + 2*t.gap
		}
	}
}

// badgeW is the width of a badge of lbl in f (layoutFSMBadge).
func badgeW(lbl string, f layout.Font) float64 { return layout.Width(lbl, f) + f.Size*0.5 }

// layoutFSMBadge lays out a small label on a filled box with its top-left
// at (x, y); a badge wider than maxW (0: no limit) is recorded.
func layoutFSMBadge(l *layout.List, role string, x, y float64, lbl string, c color.RGBA, f layout.Font, maxW float64) {
	w := badgeW(lbl, f)
	l.Fill(role, layout.Rect{X: x, Y: y, W: w, H: layout.LineHeight(f)}, c)
	pad := f.Size * 0.25
	if maxW > 0 {
		maxW = max(maxW-2*pad, 1)
	}
	l.Text(role, lbl, f, x+pad, y, maxW, layout.TextOn(c), layout.Left)
}

// layoutFSMBadgeCentered lays out a badge centred on cx.
func layoutFSMBadgeCentered(l *layout.List, role string, cx, y float64, lbl string, c color.RGBA, f layout.Font, maxW float64) {
	layoutFSMBadge(l, role, cx-badgeW(lbl, f)/2, y, lbl, c, f, maxW)
}

// badgeForms lays out, centred on cx, the first of forms whose badge is
// at most maxW wide (else the last, recorded as too wide), and returns it.
func badgeForms(l *layout.List, role string, cx, y float64, forms []string, c color.RGBA, f layout.Font, maxW float64) string {
	for _, s := range forms {
		if badgeW(s, f) <= maxW+0.5 {
			layoutFSMBadgeCentered(l, role, cx, y, s, c, f, maxW)
			return s
		}
	}
	s := forms[len(forms)-1]
	layoutFSMBadgeCentered(l, role, cx, y, s, c, f, maxW)
	return s
}

// layoutFSMDashed lays out a dashed outline: dashes of 5 px, gaps of 4
// (at the theme's scale).
func layoutFSMDashed(l *layout.List, role string, r layout.Rect, th *layout.Theme) {
	dash, gap := th.Px(5), th.Px(4)
	c := th.PanelEdge
	for x := r.X; x < r.X+r.W; x += dash + gap {
		e := min(x+dash, r.X+r.W)
		l.Line(role, x, r.Y, e, r.Y, 1.5, c)
		l.Line(role, x, r.Y+r.H, e, r.Y+r.H, 1.5, c)
	}
	for y := r.Y; y < r.Y+r.H; y += dash + gap {
		e := min(y+dash, r.Y+r.H)
		l.Line(role, r.X, y, r.X, e, 1.5, c)
		l.Line(role, r.X+r.W, y, r.X+r.W, e, 1.5, c)
	}
}

// layoutWrapped lays out s wrapped to r's width, a line of f each line
// height, from r's top, as many lines as r holds; the lines left out are
// recorded.
func layoutWrapped(l *layout.List, role, s string, f layout.Font, r layout.Rect, c color.RGBA) {
	lines := layout.Wrap(s, f, r.W)
	lh := layout.LineHeight(f)
	for i, ln := range lines {
		y := r.Y + float64(i)*lh
		if y+lh > r.Y+r.H+0.5 {
			l.Overflows = append(l.Overflows, layout.Overflow{Role: role, Text: strings.Join(lines[i:], " "), Axis: "h", Need: float64(len(lines)) * lh, Have: r.H})
			return
		}
		l.TextIn(role, ln, f, layout.Rect{X: r.X, Y: y, W: r.W, H: lh}, c, layout.Left)
	}
}

// wrappedH is the height s takes wrapped to w in f.
func wrappedH(s string, f layout.Font, w float64) float64 {
	return float64(len(layout.Wrap(s, f, w))) * layout.LineHeight(f)
}

// --- Backends ---

// fsmLanesShown is the most backends the lanes list.
const fsmLanesShown = 4

// fsmActiveLanes are the first fsmLanesShown backends that have acted.
func fsmActiveLanes(v *fsmview.View) []fsmview.Lane {
	var out []fsmview.Lane
	for a := 1; a < v.NumLanes() && len(out) < fsmLanesShown; a++ {
		if ln := v.Lane(trace.Actor(a)); ln.HasLast {
			out = append(out, ln)
		}
	}
	return out
}

// fsmLanesHeight is the height of the lanes: a title and a line for each
// backend that has acted (1 to 4), or, short, one line (the backend that
// acted last, or the focused one).
func fsmLanesHeight(v *fsmview.View, t *fsmType, short bool) float64 {
	if short {
		return t.lh + t.gap
	}
	n := max(1, len(fsmActiveLanes(v)))
	return t.blh + float64(n)*(t.lh+t.gap) + t.gap
}

// layoutFSMLanes writes one line per backend (the first four that have
// acted): its name in a chip and what it is doing, in the first of the
// line's forms that fits (fsmLaneForms). The row of the backend that
// acted last is lit. Where r holds fewer lines than backends, the title
// goes, then the backends other than the one that acted last (or the
// focused one): they are on the lesson's prose and the code panel.
func layoutFSMLanes(l *layout.List, r layout.Rect, v *fsmview.View, rel uint32, t *fsmType) {
	th := t.th
	lanes := fsmActiveLanes(v)
	cur, hasCur := v.Current()
	row := t.lh + t.gap
	if len(lanes) == 0 {
		l.TextForms("lanes", []string{"no backend has run yet", "no backend yet", ""}, t.face, layout.Rect{X: r.X, Y: r.Y, W: r.W, H: t.lh}, th.Muted, layout.Left)
		return
	}
	y := r.Y
	if r.H >= t.blh+float64(len(lanes))*row {
		l.TextIn("lanes", "backends", t.bold, layout.Rect{X: r.X, Y: r.Y, W: layout.Width("backends", t.bold), H: t.blh}, th.Muted, layout.Left)
		y += t.blh
	}
	if fit := int((r.Y + r.H - y + t.gap/2) / row); fit < len(lanes) {
		// The backend that acted last, else the focused one.
		keep := lanes[len(lanes)-1]
		if f, ok := FSMFocus(v, rel); ok {
			keep = f
		}
		for _, ln := range lanes {
			if hasCur && ln.Actor == cur.Actor {
				keep = ln
			}
		}
		lanes = []fsmview.Lane{keep}
	}
	chipW := 0.0
	for _, ln := range lanes {
		chipW = max(chipW, layout.Width(ln.Name, t.bold)+2*t.gap)
	}
	chipW = max(chipW, 2*t.lh)
	for _, ln := range lanes {
		role := "lane " + ln.Name
		rr := layout.Rect{X: r.X, Y: y, W: r.W, H: t.lh}
		if hasCur && cur.Actor == ln.Actor {
			l.Fill(role, rr, th.HighlightFill)
		}
		col := th.Muted
		if ln.Search.Active() {
			col = th.Highlight
		}
		layoutFSMChip(l, role, layout.Rect{X: rr.X, Y: rr.Y, W: chipW, H: t.lh}, ln.Name, col, t)
		c := th.Text
		if ln.Search.Phase == fsmview.PhaseError {
			c = th.Error
		}
		tx := rr.X + chipW + 2*t.gap
		l.TextForms(role, fsmLaneForms(v, ln.Search), t.face, layout.Rect{X: tx, Y: rr.Y, W: rr.X + rr.W - tx, H: t.lh}, c, layout.Left)
		y += row
	}
}

// fsmLaneForms are a backend's line, longest first: fsmview's sentence
// (View.Text), then the same without the tuple's size and in shorter
// words, then the request's category and where the operation is, then
// where it is in a few words, then in one or two. The category (≥ 206)
// stays in all but the last two: it is what lesson 5's "not enough" is
// about.
func fsmLaneForms(v *fsmview.View, s fsmview.Search) []string {
	long := v.Text(s)
	if !s.HasOp {
		return []string{long}
	}
	h, _ := v.Heap(s.Rel)
	name := h.Name
	if name == "" {
		name = fmt.Sprint(s.Rel)
	}
	minCat := int(s.MinCat)
	if minCat == 0 && s.Want > 0 {
		if c, err := fsm.SpaceNeededToCat(s.Want); err == nil {
			minCat = int(c)
		}
	}
	// Where the operation is, in a few words, in fewer, and in one or
	// two.
	where, at, word := "", "", ""
	switch s.Phase {
	case fsmview.PhaseFSM:
		where, at, word = ": searching the map", "searching the map", "searching"
		if s.HasPath {
			where += fmt.Sprintf(" (FSM block %d)", s.PathPage)
		}
	case fsmview.PhaseLocal:
		where, at, word = ": local map", "local map", "local map"
	case fsmview.PhaseTry:
		if n := len(s.Tries); n > 0 {
			b := s.Tries[n-1].Block
			where, at, word = fmt.Sprintf(": tries block %d", b), fmt.Sprintf("tries block %d", b), fmt.Sprintf("tries %d", b)
		}
	case fsmview.PhaseExtend:
		where, at, word = ": extends the heap", "extends the heap", "extends"
	case fsmview.PhaseRecord:
		where, at, word = ": records free space", "records free space", "records"
	case fsmview.PhasePut:
		where, at, word = fmt.Sprintf(": put on block %d", s.Result), fmt.Sprintf("put on block %d", s.Result), fmt.Sprintf("put on %d", s.Result)
	case fsmview.PhaseVacuum:
		if s.VacBlock != fsm.InvalidBlockNumber {
			where, at, word = fmt.Sprintf(": block %d", s.VacBlock), fmt.Sprintf("block %d", s.VacBlock), fmt.Sprintf("block %d", s.VacBlock)
		}
	case fsmview.PhaseFSMVacuum:
		where, at, word = ": vacuums the map", "vacuums the map", "vacuums"
	case fsmview.PhaseDone:
		b := s.Result
		if b == fsm.InvalidBlockNumber {
			b = s.Found
		}
		if b != fsm.InvalidBlockNumber {
			where, at, word = fmt.Sprintf(" → block %d, done", b), fmt.Sprintf("→ block %d, done", b), fmt.Sprintf("→ %d, done", b)
		} else {
			where, at, word = ", done", "done", "done"
		}
	case fsmview.PhaseError:
		where, at, word = fmt.Sprintf(": ERROR %d", s.Err), fmt.Sprintf("ERROR %d", s.Err), "ERROR"
	}
	forms := []string{long}
	mid := fmt.Sprintf("%s %s", s.Op, name)
	short := fmt.Sprint(s.Op)
	if s.Want > 0 {
		mid += fmt.Sprintf(", wants %d B", s.Want)
	}
	if minCat > 0 {
		mid += fmt.Sprintf(" = cat ≥ %d", minCat)
		short = fmt.Sprintf("cat ≥ %d", minCat)
	}
	forms = append(forms, mid+where)
	if at != "" {
		return append(forms, short+fsmArrowJoin(at), at, word)
	}
	return append(forms, short)
}

// fsmArrowJoin joins where an operation is to the request before it:
// "→ block 3, done" after a space, anything else after a colon.
func fsmArrowJoin(at string) string {
	if strings.HasPrefix(at, "→") {
		return " " + at
	}
	return ": " + at
}

// layoutFSMChip lays out a backend's name in a small filled box.
func layoutFSMChip(l *layout.List, role string, c layout.Rect, name string, fill color.RGBA, t *fsmType) {
	l.Fill(role, c, fill)
	l.TextIn(role, name, t.bold, c, layout.TextOn(fill), layout.Center)
}

// --- Counters ---

// fsmCounter is one counter: its value, its label's forms (longest
// first), whether it is about the focused operation, and its rank (the
// order in which counters are kept when not all fit: 0 first).
type fsmCounter struct {
	v     string
	forms []string
	op    bool
	rank  int
}

// short is the label's shortest form, which names the counter's role.
func (c fsmCounter) short() string { return c.forms[len(c.forms)-1] }

// fsmCounters are the FSM scene's counters: for the focused operation,
// the FSM and heap pages it read and the pages it found full; for all,
// the inserts, the reads per insert, the reads, the pages found full,
// the extensions and the FSM pages not read. Where not all fit, they
// are kept by rank: the FSM pages read in all (what the small-table skip
// saves: lesson 6 compares them), this operation's FSM pages, the heap
// pages in all and this operation's, the FSM pages not read (small-skip's
// point), this operation's pages found full, the inserts, the extensions,
// the pages found full; the ratios go first.
func fsmCounters(v *fsmview.View, rel uint32) []fsmCounter {
	c := v.Counters()
	focus, hasFocus := FSMFocus(v, rel)
	var items []fsmCounter
	if hasFocus {
		s := focus.Search
		what := "this op"
		if s.Op == fsmview.OpInsert {
			what = "this insert"
		}
		items = append(items,
			fsmCounter{fmt.Sprint(s.Reads[bufmgr.FSMForkNum]), []string{what + ": FSM pages", "now: FSM"}, true, 1},
			fsmCounter{fmt.Sprint(s.Reads[bufmgr.MainForkNum]), []string{what + ": heap pages", "now: heap"}, true, 3},
			fsmCounter{fmt.Sprint(fullTries(s)), []string{what + ": pages found full", "now: full"}, true, 5},
		)
	}
	per := func(n uint64) string {
		if c.Inserts == 0 {
			return "—"
		}
		return fmt.Sprintf("%.2f", float64(n)/float64(c.Inserts))
	}
	items = append(items,
		fsmCounter{fmt.Sprint(c.Inserts), []string{"inserts"}, false, 6},
		fsmCounter{per(c.FSMReads), []string{"FSM reads / insert", "FSM/insert", "FSM/ins"}, false, 9},
		fsmCounter{per(c.HeapReads), []string{"heap reads / insert", "heap/insert", "heap/ins"}, false, 10},
		fsmCounter{fmt.Sprint(c.FSMReads), []string{"FSM reads"}, false, 0},
		fsmCounter{fmt.Sprint(c.HeapReads), []string{"heap reads"}, false, 2},
		fsmCounter{fmt.Sprint(c.PagesTried), []string{"pages found full", "found full"}, false, 8},
		extendCounter(c, v.ExtensionsFirst()),
		fsmCounter{fmt.Sprint(c.FSMSkipped), []string{"FSM pages not read", "not read"}, false, 4},
	)
	return items
}

// extendCounter is the heap's growth: its extensions, one page each at
// PostgreSQL 15; at 16 and later, where RelationAddBlocks extends by
// several pages at a time, the pages added and in how many extensions.
// It ranks first where the view asks for it (fsmview's ExtensionsFirst:
// bulk extension is the run's point), else seventh.
func extendCounter(c fsmview.Counters, first bool) fsmCounter {
	rank := 7
	if first {
		rank = -1
	}
	if c.HeapExtensions == c.HeapExtends {
		return fsmCounter{fmt.Sprint(c.HeapExtends), []string{"heap extensions", "extensions", "extends"}, false, rank}
	}
	n := c.HeapExtensions
	return fsmCounter{fmt.Sprint(c.HeapExtends), []string{
		fmt.Sprintf("heap pages added in %d extensions", n), fmt.Sprintf("pages in %d extensions", n),
		fmt.Sprintf("pages in %d ext.", n), fmt.Sprintf("in %d ext.", n)}, false, rank}
}

func fullTries(s fsmview.Search) int {
	n := 0
	for _, t := range s.Tries {
		if t.Verdict == fsmview.TryFull {
			n++
		}
	}
	return n
}

// fsmCounterPlan is how counters are laid out: the ones kept (indexes,
// in display order), in rows of perRow boxes, each its number above its
// label (stacked) or beside it.
type fsmCounterPlan struct {
	keep         []int
	rows, perRow int
	stacked      bool
	rowH         float64
}

// counterRowH is a row's height, stacked or not.
func (t *fsmType) counterRowH(stacked bool) float64 {
	if stacked {
		return t.biglh + t.slh + 2*t.gap
	}
	return max(t.biglh, t.slh) + t.gap
}

// planFSMCounters chooses how the counters fit w×h: all of them if it
// can (in one row of boxes with the number above the label, else two,
// else with the label beside the number on one or two rows), else the
// same with the lowest-ranked counter left out, and so on; at least the
// first. Each box must hold its number and the shortest form of its
// label.
func planFSMCounters(items []fsmCounter, w, h float64, t *fsmType) fsmCounterPlan {
	pad := t.gap
	byRank := make([]int, len(items))
	for i := range byRank {
		byRank[i] = i
	}
	for i := 1; i < len(byRank); i++ {
		for j := i; j > 0 && items[byRank[j]].rank < items[byRank[j-1]].rank; j-- {
			byRank[j], byRank[j-1] = byRank[j-1], byRank[j]
		}
	}
	for n := len(items); n >= 1; n-- {
		kept := map[int]bool{}
		for _, i := range byRank[:n] {
			kept[i] = true
		}
		var keep []int
		for i := range items {
			if kept[i] {
				keep = append(keep, i)
			}
		}
		for _, c := range []struct {
			rows    int
			stacked bool
		}{{1, true}, {2, true}, {1, false}, {2, false}, {3, false}} {
			if c.rows > n {
				continue
			}
			perRow := (n + c.rows - 1) / c.rows
			boxW := w/float64(perRow) - pad
			rowH := t.counterRowH(c.stacked)
			if float64(c.rows)*(rowH+pad) > h+0.5 {
				continue
			}
			ok := true
			for _, i := range keep {
				it := items[i]
				vw, lw := layout.Width(it.v, t.big), layout.Width(it.short(), t.small)
				if c.stacked && (max(vw, lw)+2*pad > boxW) || !c.stacked && vw+lw+3*pad > boxW {
					ok = false
					break
				}
			}
			if ok {
				return fsmCounterPlan{keep: keep, rows: c.rows, perRow: perRow, stacked: c.stacked, rowH: rowH}
			}
		}
	}
	return fsmCounterPlan{keep: []int{0}, rows: 1, perRow: 1, stacked: false, rowH: t.counterRowH(false)}
}

// fsmCountersHeight is the height the counters want in width w: that of
// the first plan that keeps all of them with no limit on the height
// (pref), the least that keeps all of them (compact: numbers beside
// labels, where that takes less), and the least they can take (one row,
// numbers beside labels).
func fsmCountersHeight(items []fsmCounter, w float64, t *fsmType) (pref, compact, least float64) {
	p := planFSMCounters(items, w, math.Inf(1), t)
	pref = float64(p.rows) * (p.rowH + t.gap)
	compact = pref
	for rows := 1; rows <= 3; rows++ {
		h := float64(rows) * (t.counterRowH(false) + t.gap)
		if q := planFSMCounters(items, w, h, t); len(q.keep) == len(items) {
			compact = min(pref, h)
			break
		}
	}
	return pref, compact, t.counterRowH(false) + t.gap
}

// LayoutFSMCounters lays out what reading pages cost (fsmCounters): each
// box has the role "counter " and its label's shortest form. The
// counters that do not fit are left out, lowest rank first (planFSMCounters);
// the label is the longest form that fits its box.
func LayoutFSMCounters(l *layout.List, r layout.Rect, v *fsmview.View, rel uint32, th *layout.Theme) {
	t := newFSMType(th)
	items := fsmCounters(v, rel)
	p := planFSMCounters(items, r.W, r.H, t)
	pad := t.gap
	w := r.W / float64(p.perRow)
	for k, i := range p.keep {
		it := items[i]
		role := "counter " + it.short()
		b := layout.Rect{X: r.X + float64(k%p.perRow)*w, Y: r.Y + float64(k/p.perRow)*(p.rowH+pad), W: w - pad, H: p.rowH}
		fill := th.Panel
		if it.op {
			fill = th.HighlightFill
		}
		l.Fill(role, b, fill)
		l.Stroke(role, b, 1, th.PanelEdge)
		in := layout.Rect{X: b.X + pad, Y: b.Y + pad/2, W: b.W - 2*pad, H: b.H - pad}
		if p.stacked {
			l.TextIn(role, it.v, t.big, layout.Rect{X: in.X, Y: in.Y, W: in.W, H: t.biglh}, th.Text, layout.Center)
			l.TextForms(role, it.forms, t.small, layout.Rect{X: in.X, Y: in.Y + t.biglh, W: in.W, H: t.slh}, th.Muted, layout.Center)
			continue
		}
		vw := layout.Width(it.v, t.big)
		l.TextIn(role, it.v, t.big, layout.Rect{X: in.X, Y: in.Y, W: vw, H: in.H}, th.Text, layout.Left)
		lx := in.X + vw + pad
		l.TextForms(role, it.forms, t.small, layout.Rect{X: lx, Y: in.Y, W: in.X + in.W - lx, H: in.H}, th.Muted, layout.Left)
	}
}
