package app

import (
	"errors"
	"fmt"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
	"bufferlab/fastmode/exp/drop"
	"bufferlab/viz/mech"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/render"
	"bufferlab/viz/scene"
	"bufferlab/viz/scenedraw"
)

// variantTitle names a variant for its pane, shorter when the pane is
// narrow.
func variantTitle(v scenario.Variant, face *text.GoTextFace, w float64) string {
	vi := v.Info() // the titles its mechanism registered
	if render.TextWidth(vi.Long, face) <= w {
		return vi.Long
	}
	return vi.Short
}

// drawCompare draws the side-by-side scene of a lesson or scenario that
// runs several variants on the same schedule: a pane per variant and, on
// the right, the lesson text and the code each pane is executing. Pin
// variants show the state word and each backend's copy of it; drop
// variants show how far each strategy has got and what it cost, with the
// rule `auto` follows.
func (a *App) drawCompare(dst *ebiten.Image, rest, bottom render.Rect) {
	th, p := a.th, a.p
	n := p.Panes()
	frac := 0.64
	if n > 2 {
		frac = 0.72
	}
	panes, right := rest.SplitLeft(rest.W * frac)
	if m, ok := mech.Lookup(p.Variant.Key()); ok && m.Scene != nil && m.Scene.Panes != nil {
		a.drawMechPanes(dst, panes, right, bottom, m)
		return
	}
	drops := p.Variant.Key() == "drop"
	if drops {
		var top render.Rect
		top, panes = panes.SplitTop(render.LineHeight(th.Face(render.Regular, 12))*2 + 14)
		a.drawDropRule(dst, top.Inset(2))
	}
	small := th.Face(render.Regular, 11)
	w := panes.W / float64(n)
	for i := 0; i < n; i++ {
		r := render.Rect{X: panes.X + float64(i)*w, Y: panes.Y, W: w, H: panes.H}
		v := p.PaneView(i)
		pool := &a.pool
		if i > 0 {
			pool = &a.altPools[i-1]
		}
		inner := scenedraw.Panel(dst, r.Inset(2), variantTitle(p.PaneVariant(i), th.Face(render.Bold, 12), r.W-20), th)
		if drops {
			a.drawDropPane(dst, inner, i, v, pool)
			continue
		}
		poolR, below := inner.SplitTop(inner.H * 0.30)
		pool.Draw(clip(dst, poolR), poolR, v, th)
		if i == 0 {
			a.ui.pool = poolR
		}
		wordR, below := below.SplitTop(render.LineHeight(small)*4.6 + 6)
		we, wok := scene.LastStateWordEvent(p.PaneTimeline(i).Events(), p.Pos(), 4096)
		scenedraw.DrawStateWord(clip(dst, wordR), wordR.Inset(1), we, wok, v, th)
		lanesR, countersR := below.SplitBottom(44 * th.Scale)
		lr := scenedraw.Panel(dst, lanesR.Inset(1), "Backends: the word each one holds", th)
		scenedraw.DrawLanes(clip(dst, lr), lr, v, th)
		scenedraw.DrawCounterRow(dst, countersR.Inset(1), scene.PinCounters(v.Counters()), th)
	}
	a.drawCompareText(dst, right, bottom, compareNarr(n), func(i int, cr render.Rect) {
		scenedraw.DrawCode(clip(dst, cr), cr, p.PaneView(i), th)
	})
}

// drawCompareText draws what a side-by-side scene shows beside and below
// its panes: on the right the lesson text (the top narr of right) and
// under it a code panel per pane, titled with its variant, whose inside
// cr code draws for pane i; then the timeline and the flash in bottom.
func (a *App) drawCompareText(dst *ebiten.Image, right, bottom render.Rect, narr float64, code func(i int, cr render.Rect)) {
	th, p := a.th, a.p
	n := p.Panes()
	narrR, codeR := right.SplitTop(right.H * narr)
	nr := scenedraw.Panel(dst, narrR.Inset(2), "Lesson", th)
	a.drawNarration(clip(dst, nr), nr)
	ch := codeR.H / float64(n)
	for i := 0; i < n; i++ {
		c := render.Rect{X: codeR.X, Y: codeR.Y + float64(i)*ch, W: codeR.W, H: ch}
		cr := scenedraw.Panel(dst, c.Inset(2), "Code, "+p.PaneVariant(i).String(), th)
		code(i, cr)
	}
	a.drawTimeline(dst, bottom.Inset(2))
	a.drawFlash(dst, bottom)
}

// drawDropPane draws one strategy's pane: the pool (a heat map when large)
// with the descriptor or mapping entry the drop is at, what the drop has
// done so far, and whether this strategy has finished.
func (a *App) drawDropPane(dst *ebiten.Image, r render.Rect, i int, v *view.Pool, pool *scenedraw.PoolScene) {
	th := a.th
	face := th.Face(render.Regular, 12)
	lh := render.LineHeight(face)
	status, rest := r.SplitTop(lh*2 + 6)
	poolR, below := rest.SplitTop(rest.H * 0.58)
	pool.Draw(clip(dst, poolR), poolR, v, th)
	if i == 0 {
		a.ui.pool = poolR
	}
	// Where this strategy is: the dropping backend's lane (its last drop
	// operation and its last event).
	line1, line2 := "no drop yet", ""
	col := th.Muted
	if l, ok := lastDrop(v); ok {
		if l.OpDone {
			line1, col = fmt.Sprintf("finished at event %d", l.Last.Seq), th.Good
		} else {
			line1, col = fmt.Sprintf("at %s (event %d)", l.Last.Site, l.Last.Seq), th.Text
		}
	}
	if cur, ok := v.Current(); ok && cur.Kind == trace.KNone {
		line2 = "idle until the others finish the step"
	}
	render.Text(dst, line1, th.Face(render.Bold, 12), status.X, status.Y, col, render.Left)
	render.Text(dst, line2, th.Face(render.Italic, 11), status.X, status.Y+lh, th.Muted, render.Left)
	// The mapping table: the lookups hop through its partitions (each
	// lookup takes one partition's lock, shown with the holder).
	partsR, countersR := below.SplitBottom(44 * th.Scale)
	pr := scenedraw.Panel(dst, partsR.Inset(1), "Mapping table: 128 partitions", th)
	scenedraw.DrawPartitions(clip(dst, pr), pr, v, th)
	scenedraw.DrawCounterRow(dst, countersR.Inset(1), scene.DropCounters(v.Counters()), th)
}

var siteDropBegin, siteDropAllBegin = trace.SiteOf("drop.begin"), trace.SiteOf("dropall.begin")

// lastDrop is the lane of the backend whose drop operation began last
// (drop.begin or dropall.begin), from the view's lanes: no search of the
// events.
func lastDrop(v *view.Pool) (view.Lane, bool) {
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

// drawDropRule draws the rule `auto` follows (DropRelFileNodeBuffers): the
// per-block lookup only when every fork's size is cached (in recovery) and
// the blocks to drop are fewer than NBuffers/32, with the last drop's
// numbers, and a control to try other sizes; and how the panes are paced.
func (a *App) drawDropRule(dst *ebiten.Image, r render.Rect) {
	th, p := a.th, a.p
	face := th.Face(render.Regular, 12)
	lh := render.LineHeight(face)
	nbuf := p.View().NBuffers()
	thr := bufmgr.BufDropFullScanThreshold(nbuf)
	rec := p.Config != nil && p.Config.InRecovery
	// The last drop's size, as the first pane's drop.begin recorded it.
	blocks := uint64(0)
	if l, ok := lastDrop(p.View()); ok {
		blocks = l.Op.Arg
	}
	if a.dropProbe == 0 {
		a.dropProbe = blocks
	}
	probe := a.dropProbe
	choice := "the full scan"
	why := ""
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
	render.Fill(dst, r, th.Panel)
	render.Stroke(dst, r, 1, th.PanelEdge)
	text1 := fmt.Sprintf("auto (PG 15): %d blocks to drop, NBuffers = %d, in recovery: %s  →  %s (%s)", probe, nbuf, yesNo(rec), choice, why)
	render.Text(dst, text1, face, r.X+8, r.Y+4, th.Text, render.Left)
	pace := "Paced by events (T: by time): every pane takes one event per tick, so a pane that finishes early idles."
	if p.Pacing() == "time" && a.dropCosts != nil {
		pace = "Paced by native times (T: by events): " + a.dropCosts.String() + "."
	}
	render.Text(dst, pace, th.Face(render.Italic, 11), r.X+8, r.Y+4+lh, th.Muted, render.Left)
	bw := 34 * th.Scale
	bx := r.X + r.W - 4*bw - 20
	pb := render.Rect{X: bx + 3*(bw+4), Y: r.Y + 3, W: bw, H: lh + 4}
	pbtn := render.Button{Rect: pb, Label: "T", Active: p.Pacing() == "time", Enabled: true}
	pbtn.Draw(dst, th, a.ui.hover(pb))
	a.ui.add(pb, func() { a.togglePacing() })
	for k, b := range []struct {
		label string
		f     func()
	}{
		{"÷2", func() { a.dropProbe = max(1, a.dropProbe/2) }},
		{"×2", func() { a.dropProbe = min(uint64(nbuf), max(1, a.dropProbe*2)) }},
		{"=", func() { a.dropProbe = blocks }},
	} {
		br := render.Rect{X: bx + float64(k)*(bw+4), Y: r.Y + 3, W: bw, H: lh + 4}
		btn := render.Button{Rect: br, Label: b.label, Enabled: true}
		btn.Draw(dst, th, a.ui.hover(br))
		a.ui.add(br, b.f)
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// togglePacing switches a drop race between pacing by events and by the
// native times of the strategies, measured on this machine the first time
// (MeasureDropCosts, a fraction of a second).
func (a *App) togglePacing() {
	if err := a.setPacing(map[string]string{"events": "time", "time": "events"}[a.p.Pacing()]); err != nil {
		a.showError(err.Error())
	}
}

// setPacing sets the drop race's pacing: "events" or "time".
func (a *App) setPacing(mode string) error {
	p := a.p
	if p == nil || p.Panes() < 2 || p.Variant.Key() != "drop" {
		return errors.New("pacing: only a drop race (config drop=…) can be paced by time")
	}
	switch mode {
	case "events":
		p.PaceByEvents()
		return nil
	case "time":
	default:
		return fmt.Errorf("pacing: expected events or time, found %q", mode)
	}
	if a.dropCosts == nil || a.dropCosts.NBuffers != p.View().NBuffers() {
		c, err := drop.MeasureDropCosts(p.View().NBuffers())
		if err != nil {
			return err
		}
		a.dropCosts = &c
	}
	c := *a.dropCosts
	return p.PaceByCost(func(_ int, e trace.Event) float64 { return dropEventNs(c, e) }, c.DescriptorNs)
}

// dropEventNs is the native time of one event of a drop race: a
// descriptor of the scan, a lookup (with its invalidation) or a list hop
// as measured; any other event costs nothing extra (each still takes one
// position).
func dropEventNs(c drop.DropCosts, e trace.Event) float64 {
	switch e.Site.String() {
	case "drop.precheck", "dropall.precheck-linear", "dropall.precheck-bsearch":
		return c.DescriptorNs
	case "lookup.lookup":
		if e.Kind == trace.KMapLookup {
			return c.LookupNs
		}
	case "dlist.head", "dlist.next":
		return c.HopNs
	}
	return 0
}

// SetPacing is setPacing for the JavaScript API and tests.
func (a *App) SetPacing(mode string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.setPacing(mode)
}

// compareNarr is the lesson's share of the right column beside n panes
// (the code panels, one a pane, take the rest).
func compareNarr(n int) float64 {
	if n > 2 {
		return 0.46
	}
	return 0.52
}
