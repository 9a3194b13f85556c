package frame

import (
	"fmt"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
	"bufferlab/viz/layout"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/scene"
)

// The drop race's panes (config drop=...): each strategy's pool and costs, and
// the rule DropRelFileNodeBuffers follows above them.

// dropPane lays out one drop strategy's pane: where the strategy is, its
// pool (a heat map when large), the mapping table's partitions its
// lookups hop through, and what the drop cost.
func (b *builder) dropPane(r layout.Rect, i int, v *view.Pool) {
	th := b.th
	f := th.Font(layout.Bold, 12)
	it := th.Font(layout.Italic, 11)
	status, rest := r.SplitTop(layout.LineHeight(f) + layout.LineHeight(it) + 6)
	wide := r.W > 1.6*r.H // a low pane (stacked on a phone)
	var poolR, below layout.Rect
	if wide {
		// The pool on the left, the counters on the right; the mapping
		// table is left out (the lookups' cost is in the counters).
		poolR, below = rest.SplitLeft(rest.W * 0.55)
	} else {
		poolR, below = rest.SplitTop(rest.H * 0.58)
	}
	b.pool(poolR, i, v)
	// Where the strategy is, in the longest form that fits.
	line1, line2 := []string{"no drop yet", "not yet"}, ""
	col := th.Muted
	if l, ok := LastDrop(v); ok {
		if l.OpDone {
			line1, col = []string{fmt.Sprintf("finished at event %d", l.Last.Seq), "finished"}, th.Good
		} else {
			line1, col = []string{fmt.Sprintf("at %s (event %d)", l.Last.Site, l.Last.Seq), fmt.Sprintf("at %s", l.Last.Site), "running"}, th.Text
		}
	}
	if cur, ok := v.Current(); ok && cur.Kind == trace.KNone {
		line2 = "idle until the others finish the step"
	}
	b.l.TextForms("drop status", line1, f, layout.Rect{X: status.X, Y: status.Y, W: status.W, H: layout.LineHeight(f)}, col, layout.Left)
	b.l.TextForms("drop idle", []string{line2, "idle"}, it, layout.Rect{X: status.X, Y: status.Y + layout.LineHeight(f), W: status.W, H: layout.LineHeight(it)}, th.Muted, layout.Left)
	if wide {
		items := scene.FitCounters(ownCostFirst(scene.DropCounters(v.Counters()), b.sc.Player.PaneVariant(i).Name()), below.W-6, below.H-4, th)
		cr := layout.Rect{X: below.X + 4, Y: below.Y, W: below.W - 4, H: min(below.H, scene.CounterRowHeight(items, below.W-6, th))}
		scene.LayoutCounterRow(b.l, cr, items, th)
		return
	}
	// The counters (what the drop cost) before the mapping table: the
	// table where there is room for it after them.
	all := ownCostFirst(scene.DropCounters(v.Counters()), b.sc.Player.PaneVariant(i).Name())
	items := scene.FitCounters(all, below.W-2, below.H*0.4, th)
	if len(items) < 2 {
		items = scene.FitCounters(all, below.W-2, below.H, th)
	}
	partsR, countersR := below.SplitBottom(scene.CounterRowHeight(items, below.W-2, th) + 2)
	if partsR.H >= 5*layout.LineHeight(th.Font(layout.Regular, 12)) {
		pr := b.panel(partsR, "Mapping table: 128 partitions")
		b.from(v, func() { b.clipped(pr, func() { scene.LayoutPartitions(b.l, pr, v, th) }) })
	}
	scene.LayoutCounterRow(b.l, countersR.Inset(1), items, th)
}

// ownCostFirst moves a drop strategy's own cost to the front of its
// counters (the full scan's descriptors, the lookup's probes, the list's
// hops), so that a pane with room for one shows that one.
func ownCostFirst(items []scene.Counter, strategy string) []scene.Counter {
	own := map[string]string{"scan": "descriptors", "lookup": "lookups", "dlist": "list hops"}[strategy]
	out := make([]scene.Counter, 0, len(items))
	for _, it := range items {
		if it.Label == own {
			out = append([]scene.Counter{it}, out...)
		} else {
			out = append(out, it)
		}
	}
	return out
}

var siteDropBegin, siteDropAllBegin = trace.SiteOf("drop.begin"), trace.SiteOf("dropall.begin")

// LastDrop is the lane of the backend whose drop operation began last
// (drop.begin or dropall.begin), from the view's lanes: no search of the
// events.
func LastDrop(v *view.Pool) (view.Lane, bool) {
	var best view.Lane
	found := false
	for a := 1; a < v.NumLanes(); a++ {
		l := v.Lane(trace.Actor(a))
		if l.HasOp && (l.Op.Site == siteDropBegin || l.Op.Site == siteDropAllBegin) && (!found || l.Op.Seq > best.Op.Seq) {
			best, found = l, true
		}
	}
	return best, found
}

// dropRuleH is the height of the drop rule's box at width w over a scene
// h high.
func (b *builder) dropRuleH(w, h float64) float64 {
	lines := len(b.dropRuleLines(w, h))
	return layout.LineHeight(b.th.Font(layout.Regular, 12))*float64(lines) + b.buttonH() + b.th.Px(14)
}

// dropRuleLines are the rule's two sentences wrapped to w: in full where
// they take four lines at most and a sixth of the scene's height h, else
// in their short form.
func (b *builder) dropRuleLines(w, h float64) []string {
	p, th := b.sc.Player, b.th
	f := th.Font(layout.Regular, 12)
	nbuf := p.View().NBuffers()
	thr := bufmgr.BufDropFullScanThreshold(nbuf)
	rec := p.Config != nil && p.Config.InRecovery
	blocks := uint64(0)
	if l, ok := LastDrop(p.View()); ok {
		blocks = l.Op.Arg
	}
	if b.s.DropProbe == 0 {
		b.s.DropProbe = blocks
	}
	probe := b.s.DropProbe
	choice, why := "the full scan", ""
	switch {
	case !rec:
		why = "not in recovery: sizes are not cached"
	case probe == uint64(bufmgr.InvalidBlockNumber):
		why = "a size is not cached"
	case probe < thr:
		choice, why = "the per-block lookup", fmt.Sprintf("%d < NBuffers/32 = %d", probe, thr)
	default:
		why = fmt.Sprintf("%d ≥ NBuffers/32 = %d", probe, thr)
	}
	toDrop := fmt.Sprintf("%d blocks", probe)
	if probe == 1 {
		toDrop = "1 block"
	}
	text1 := fmt.Sprintf("auto (PG 15): %s to drop, NBuffers = %d, in recovery: %s  →  %s (%s)", toDrop, nbuf, yesNo(rec), choice, why)
	pace := "Paced by events (T: by time): every pane takes one event per tick, so a pane that finishes early idles."
	short := fmt.Sprintf("auto: %s → %s (%s)", toDrop, choice, why)
	shortPace := "Paced by events (T: by time)."
	if p.Pacing() == "time" && b.sc.PacingLine != "" {
		pace = "Paced by native times (T: by events): " + b.sc.PacingLine + "."
		shortPace = "Paced by native times (T: by events)."
	}
	// The rule in full when it fits four lines, else its short form (the
	// lesson's text says the rest).
	w -= b.th.Px(16)
	lines := append(layout.Wrap(text1, f, w), layout.Wrap(pace, f, w)...)
	if len(lines) > 4 || float64(len(lines))*layout.LineHeight(f) > h/6 {
		lines = append(layout.Wrap(short, f, w), layout.Wrap(shortPace, f, w)...)
	}
	return lines
}

// dropRule lays out the rule `auto` follows (DropRelFileNodeBuffers):
// the per-block lookup only when every fork's size is cached (in
// recovery) and the blocks to drop are fewer than NBuffers/32, with the
// last drop's numbers; the ÷2/×2/= buttons that try other sizes, and T,
// how the panes are paced.
func (b *builder) dropRule(r layout.Rect, h float64) {
	p, th := b.sc.Player, b.th
	f := th.Font(layout.Regular, 12)
	lh := layout.LineHeight(f)
	b.l.Fill("drop rule", r, th.Panel)
	b.l.Stroke("drop rule", r, 1, th.PanelEdge)
	lines := b.dropRuleLines(r.W, h)
	for i, ln := range lines {
		b.l.Text("drop rule", ln, f, r.X+th.Px(8), r.Y+th.Px(4)+lh*float64(i), r.W-th.Px(16), th.Text, layout.Left)
	}
	nbuf := uint64(p.View().NBuffers())
	blocks := uint64(0)
	if l, ok := LastDrop(p.View()); ok {
		blocks = l.Op.Arg
	}
	y := r.Y + th.Px(8) + lh*float64(len(lines))
	x := r.X + th.Px(8)
	for _, bt := range []struct {
		label string
		act   func()
		on    bool
	}{
		{"÷2", func() { b.s.DropProbe = max(1, b.s.DropProbe/2) }, false},
		{"×2", func() { b.s.DropProbe = min(nbuf, max(1, b.s.DropProbe*2)) }, false},
		{"=", func() { b.s.DropProbe = blocks }, false},
		{"T", b.h.Pacing, p.Pacing() == "time"},
	} {
		w := b.buttonW(bt.label)
		b.button("button "+bt.label, bt.label, layout.Rect{X: x, Y: y, W: w, H: b.buttonH()}, bt.on, bt.act)
		x += w + th.Px(6)
	}
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}
