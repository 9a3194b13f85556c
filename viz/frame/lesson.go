package frame

import (
	"fmt"

	"bufferlab/engine/scenario"
	"bufferlab/viz/layout"
	"bufferlab/viz/mech"
	_ "bufferlab/viz/mech/all" // every mechanism's registration
	view "bufferlab/viz/poolview"
	"bufferlab/viz/scene"
)

// lesson lays out a lesson's frame: the top bar, the body by class, the
// timeline and the flash.
func (b *builder) lesson(full layout.Rect) {
	p, th, s := b.sc.Player, b.th, b.s
	if p.Step() != s.step {
		// A new step opens where the student should look: its text from
		// the start, on the lesson tab.
		s.step, s.narrScroll, s.Tab, s.autoQ = p.Step(), 0, TabLesson, true
	}
	if asked := p.Question() != nil; asked != s.asked {
		// The step's question is asked (the player reached its stop):
		// the lesson tab shows it, scrolled into view.
		if s.asked = asked; asked {
			s.Tab, s.autoQ = TabLesson, true
		}
	}
	r := full.Inset(th.Px(8))
	top, rest := r.SplitTop(b.buttonH() + th.Px(6))
	rest, bottom := rest.SplitBottom(b.timelineH())
	b.timeline(bottom.Inset(2))
	class := b.plan.Class
	if class == Tablet && b.short() {
		// A phone held sideways: the scene gets the whole width, a tab
		// away from the lesson and the code.
		class = Phone
	}
	if class != Phone && (class == Tablet || b.plan.Presentation) && !b.questionFits(rest.W*0.45, rest.H-b.captionH(rest.W)-b.buttonH()) {
		// An open question that the right column cannot show whole
		// takes the window, as on a phone: the scene is a tab away.
		class = Phone
	}
	// The caption bar; at a stop, on a phone, the stop box in its place
	// (elsewhere the stop box is at the foot of the right column: the
	// scene keeps its size).
	b.stopWide = class == Phone
	rest, capR := rest.SplitBottom(b.captionH(rest.W))
	b.captionBar(capR)
	tabs := []Tab{TabScene, TabLesson, TabCode}
	if class != Phone || !b.short() {
		b.topBar(top, nil)
	} else {
		b.topBar(top, tabs)
	}
	switch class {
	case Phone:
		body := rest
		if !b.short() {
			h := b.tabs(rest, tabs)
			_, body = rest.SplitTop(h)
		}
		switch s.Tab {
		case TabScene:
			b.sceneRegion(body)
		case TabCode:
			b.codeRegion(body)
		default:
			b.narration(body)
		}
	case Tablet:
		b.twoColumns(rest, 0.55)
	default:
		if b.plan.Presentation {
			// Presentation mode is two columns at any size: the scene,
			// and the lesson or the code at a size the back of the room
			// can read.
			b.twoColumns(rest, 0.55)
			break
		}
		frac := b.sceneShare()
		left, right := rest.SplitLeft(rest.W * frac)
		b.sceneRegion(left)
		right = b.stopColumn(right)
		narr, code := right.SplitTop(b.narrHeight(right))
		b.narration(narr)
		b.codeRegion(code)
	}
	b.flash(full, bottom.Y)
}

// twoColumns lays out the scene in the left frac of r and, on the right,
// the lesson or the code under their tabs.
func (b *builder) twoColumns(r layout.Rect, frac float64) {
	s := b.s
	left, right := r.SplitLeft(r.W * frac)
	b.sceneRegion(left)
	right = b.stopColumn(right)
	if s.Tab == TabScene {
		s.Tab = TabLesson
	}
	h := b.tabs(right, []Tab{TabLesson, TabCode})
	_, body := right.SplitTop(h)
	if s.Tab == TabCode {
		b.codeRegion(body)
	} else {
		b.narration(body)
	}
}

// sceneShare is the scene's share of a Desk's width: the registered
// split of a mechanism's scene, wider for side-by-side panes.
func (b *builder) sceneShare() float64 {
	p := b.sc.Player
	switch n := p.Panes(); {
	case n > 2:
		return 0.72
	case n > 1:
		return 0.64
	}
	if m, _ := b.mainScene(); m != nil {
		return m.Scene.Split
	}
	return 0.6
}

// narrShare is the lesson text's share of the right column over the code
// (side-by-side: the code panels, one a pane, take the rest).
func (b *builder) narrShare() float64 {
	p := b.sc.Player
	if n := p.Panes(); n > 1 {
		if m, ok := mech.Lookup(p.Variant.Key()); ok && m.Scene != nil && m.Scene.Panes != nil && m.Scene.Panes.Narr != 0 {
			return m.Scene.Panes.Narr
		}
		if n > 2 {
			return 0.46
		}
		return 0.52
	}
	return 0.58
}

// questionH is the height an open question (unanswered) needs in a
// lesson panel w wide, with its frame and a line of text above it; 0 when
// there is none.
func (b *builder) questionH(w float64) float64 {
	p := b.sc.Player
	q := p.Question()
	if _, revealed := p.Answered(); q == nil || revealed {
		return 0
	}
	th := b.th
	end, _ := b.prose().LayoutQuestion(&layout.List{}, layout.Rect{W: w - 2*(2+6) - 8, H: 1e6}, 0, q, -1, false, th, nil)
	title := layout.LineHeight(th.Font(layout.Bold, 12)) + 8 + 12 + 4
	return title + end + th.Px(8) + layout.LineHeight(th.Font(layout.Regular, 14))
}

// questionFits reports whether an open question fits a lesson panel w×h.
func (b *builder) questionFits(w, h float64) bool { return b.questionH(w) <= h }

// narrHeight is the lesson panel's height over the code in the right
// column r: its share, or, while a question is open, as much more (up to
// 85% of the column) as the question and a few lines of text above it
// need.
func (b *builder) narrHeight(r layout.Rect) float64 {
	h := r.H * b.narrShare()
	if q := b.questionH(r.W); q > 0 {
		h = max(h, min(q+2*layout.LineHeight(b.th.Font(layout.Regular, 14)), r.H*0.85))
	}
	return h
}

// title is the heading a mechanism's registration gives its scene.
func title(name string, state any) string {
	if m, ok := mech.Lookup(name); ok && m.Title != nil {
		return m.Title(state)
	}
	return name
}

// mainScene is the registered main scene of a one-pane run: that of the
// first mechanism (in the language's order) whose track the run has; nil
// for the pool's own scene.
func (b *builder) mainScene() (*mech.Mechanism, any) {
	for _, m := range mech.All() {
		if m.Scene == nil {
			continue
		}
		if t := b.sc.Player.Track(m.Name); t != nil {
			return m, t.State()
		}
	}
	return nil, nil
}

// panel lays out a titled panel and returns its inside.
func (b *builder) panel(r layout.Rect, title string) layout.Rect {
	return scene.LayoutPanel(b.l, r.Inset(2), title, b.th)
}

// clipped lays out f inside r with nothing drawn outside it.
func (b *builder) clipped(r layout.Rect, f func()) {
	b.l.Clip(r)
	f()
	b.l.Unclip()
}

// sceneRegion lays out the scene: the pool's own, a registered
// mechanism's, or the panes of a side-by-side run.
func (b *builder) sceneRegion(r layout.Rect) {
	p := b.sc.Player
	if p.Panes() > 1 {
		b.compare(r)
		return
	}
	if m, state := b.mainScene(); m != nil {
		b.mechScene(r, m, state)
		return
	}
	b.poolScene(r)
}

// pool lays out pane i's pool in r, its heat map texture named by pane
// (the painter keeps a texture a role).
func (b *builder) pool(r layout.Rect, i int, v *view.Pool) {
	if i >= len(b.s.Pools) {
		return
	}
	start := len(b.l.Items)
	b.clipped(r, func() { b.s.Pools[i].Layout(b.l, r, v, b.th) })
	for k := start; k < len(b.l.Items); k++ {
		if b.l.Items[k].Kind == layout.KImage {
			b.l.Items[k].Role = fmt.Sprintf("heat map %d", i)
		}
	}
	if i == 0 {
		b.s.poolRect = r
	}
	b.pools = append(b.pools, poolAt{i, v})
}

// poolScene lays out the pool's own scene: the descriptors over the last
// state word, the backends' lanes beside the mapping table's partitions,
// and the counters.
func (b *builder) poolScene(r layout.Rect) {
	p, th := b.sc.Player, b.th
	v := p.View()
	items := scene.FitCounters(scene.PoolCounters(v.Counters()), r.W-4, r.H*0.25, th)
	rest, counters := r.SplitBottom(scene.CounterRowHeight(items, r.W-4, th) + 4)
	// The lanes and the partitions share the lower part: 38%, or what
	// the backends' three lines need, up to half.
	lowerH := min(rest.H*0.5, max(rest.H*0.38, scene.LanesHeight(v, th)+layout.LineHeight(th.Font(layout.Bold, 12))+8+16))
	poolR, lower := rest.SplitTop(rest.H - lowerH)
	inner := b.panel(poolR, title("pool", v))
	// The last state word under the cells, where the panel has room for
	// both (a low window shows the cells alone: their tooltips give the
	// word).
	if wordH := layout.LineHeight(th.Font(layout.Regular, 11))*4.6 + 6; inner.H >= 2.5*wordH {
		var wordR layout.Rect
		inner, wordR = inner.SplitBottom(wordH)
		we, wok := scene.LastStateWordEvent(p.TL.Events(), p.Pos(), 4096)
		b.clipped(wordR, func() { scene.LayoutStateWord(b.l, wordR.Inset(1), we, wok, v, th) })
	}
	b.pool(inner, 0, v)
	lanesR, partsR := lower.SplitLeft(lower.W * 0.55)
	lr := b.panel(lanesR, "Backends")
	b.clipped(lr, func() { scene.LayoutLanes(b.l, lr, v, th) })
	pr := b.panel(partsR, "Mapping table: 128 partitions")
	b.from(v, func() { b.clipped(pr, func() { scene.LayoutPartitions(b.l, pr, v, th) }) })
	scene.LayoutCounterRow(b.l, counters.Inset(2), items, th)
}

// mechScene lays out a registered mechanism's main scene (the commit
// log's SLRU, the free space map) in a titled panel, with its counter
// row below when it has one.
//
// In a short frame (an embed 320 px high) the scene may not fit above
// its counters: then it is laid out again without them, as the scene is
// what the step is about (the status line still says each event).
func (b *builder) mechScene(r layout.Rect, m *mech.Mechanism, state any) {
	sc := m.Scene
	scenePanel := func(r layout.Rect) {
		sr := b.panel(r, title(m.Name, state))
		b.from(state, func() { b.clipped(sr, func() { sc.Layout(b.l, sr, state, b.th) }) })
	}
	if sc.Counters == nil {
		scenePanel(r)
		return
	}
	h := b.th.Px(44)
	if sc.CountersH != nil {
		h = sc.CountersH(state, b.th, r.W-4) + 4
	}
	mark, states := b.l.Here(), len(b.hitStates)
	above, counters := r.SplitBottom(h)
	scenePanel(above)
	if b.l.OverflowsSince(mark) {
		b.l.Rollback(mark)
		b.hitStates = b.hitStates[:states]
		scenePanel(r)
		return
	}
	sc.Counters(b.l, counters.Inset(2), state, b.th)
}

// codeRegion lays out the registered side panels (a one-pane run) over
// the code of the modelled function, a code panel a pane side by side.
func (b *builder) codeRegion(r layout.Rect) {
	p := b.sc.Player
	if n := p.Panes(); n > 1 {
		ch := r.H / float64(n)
		var pd *mech.Panes
		if m, ok := mech.Lookup(p.Variant.Key()); ok && m.Scene != nil {
			pd = m.Scene.Panes
		}
		for i := 0; i < n; i++ {
			c := layout.Rect{X: r.X, Y: r.Y + float64(i)*ch, W: r.W, H: ch}
			// A pane whose code is cut in the usual panel, or that shows
			// nothing in it (three panes in an embed 320 px high: a line
			// each, or less), is laid out again in a compact one, 8 px
			// more for the line, where that shows its line whole.
			name := "Code, " + p.PaneVariant(i).String()
			mark := b.l.Here()
			if b.paneCode(scene.LayoutPanel(b.l, c.Inset(2), name, b.th), i, pd, mark) {
				continue
			}
			b.l.Rollback(mark)
			if b.paneCode(scene.LayoutPanelCompact(b.l, c.Inset(2), name, b.th), i, pd, mark) {
				continue
			}
			b.l.Rollback(mark)
			b.paneCode(scene.LayoutPanel(b.l, c.Inset(2), name, b.th), i, pd, mark)
		}
		return
	}
	ms, heights := b.mechPanels(r.W, r.H)
	for i, m := range ms {
		var pr layout.Rect
		pr, r = r.SplitTop(heights[i])
		state := p.Track(m.Name).State()
		inner := b.panel(pr, title(m.Name, state))
		b.clipped(inner, func() { m.Panel(b.l, inner, state, b.th) })
	}
	cr := b.panel(r, "Code: the modelled PostgreSQL function")
	if m, state := b.mainScene(); m != nil {
		b.mechCode(cr, m, state)
		return
	}
	b.clipped(cr, func() { scene.LayoutCode(b.l, cr, p.View(), b.th) })
}

// paneCode lays out pane i's code in cr: its mechanism's (pd.OwnCode),
// else the pool's at that pane's position. It reports whether the pane
// shows its code whole: some text in cr, none of what was laid out since
// mark (its panel too) cut.
func (b *builder) paneCode(cr layout.Rect, i int, pd *mech.Panes, mark layout.Place) bool {
	p := b.sc.Player
	inside := len(b.l.Items)
	code := func() { b.clipped(cr, func() { scene.LayoutCode(b.l, cr, p.PaneView(i), b.th) }) }
	if pd != nil && pd.OwnCode {
		if m, _ := mech.Lookup(p.Variant.Key()); m != nil {
			if t := p.PaneTrack(i, m.Name); t != nil {
				code = func() { b.mechCode(cr, m, t.State()) }
			}
		}
	}
	code()
	shown := false
	for _, it := range b.l.Items[inside:] {
		shown = shown || it.Kind == layout.KText
	}
	return shown && !b.l.CutSince(mark)
}

// mechCode lays out the code of the modelled function at the event the
// mechanism's scene says, described with the scenario's names.
func (b *builder) mechCode(cr layout.Rect, m *mech.Mechanism, state any) {
	p := b.sc.Player
	e, ok := p.TL.Event()
	e, ok, desc := m.Scene.Code(state, mech.CodeContext{Event: e, HasEvent: ok, Actor: p.ActorName, RelName: p.View().RelName})
	b.clipped(cr, func() { scene.LayoutCodeFor(b.l, cr, e, ok, desc, b.th) })
}

// mechPanels are the registered mechanisms with a side panel whose track
// this run has, and the height each asks for in a column w wide (at most
// 45% of h together).
func (b *builder) mechPanels(w, h float64) (ms []*mech.Mechanism, heights []float64) {
	total := 0.0
	for _, m := range mech.All() {
		if m.Panel == nil || b.sc.Player.Track(m.Name) == nil {
			continue
		}
		ph := h * 0.3
		if m.PanelHeight != nil {
			ph = layout.LineHeight(b.th.Font(layout.Bold, 12)) + 8 + 12 + 4 + m.PanelHeight(b.th, w-16)
		}
		ms, heights = append(ms, m), append(heights, ph)
		total += ph
	}
	if limit := h * 0.45; total > limit {
		for i := range heights {
			heights[i] *= limit / total
		}
	}
	return ms, heights
}

// variantTitle names a variant for its pane: its long title, or its
// short one where the long does not fit (both registered by its
// mechanism).
func variantTitle(v scenario.Variant, f layout.Font, w float64) string {
	vi := v.Info()
	if layout.Width(vi.Long, f) <= w {
		return vi.Long
	}
	return vi.Short
}

// compare lays out the panes of a run that plays several variants on the
// same schedule: a registered mechanism's panes, or the pool's own (pin
// variants: each pool with its state word, lanes and counters; drop
// strategies: the rule `auto` follows over each strategy's pool).
func (b *builder) compare(r layout.Rect) {
	p, th := b.sc.Player, b.th
	n := p.Panes()
	if m, ok := mech.Lookup(p.Variant.Key()); ok && m.Scene != nil && m.Scene.Panes != nil {
		b.mechPanes(r, m, true)
		return
	}
	// Panes of a pool variant (pg=15,16) in a run that has a registered
	// mechanism's track (fsm=always): that mechanism's panes, as a
	// one-pane run shows its scene (mainScene). PostgreSQL 16's bulk
	// extension is in the heap and its free space map, not in the pool.
	for _, m := range mech.All() {
		if m.Scene != nil && m.Scene.Panes != nil && p.Track(m.Name) != nil {
			b.mechPanes(r, m, false)
			return
		}
	}
	drops := p.Variant.Key() == "drop"
	if drops {
		var top layout.Rect
		top, r = r.SplitTop(b.dropRuleH(r.W, r.H))
		b.dropRule(top.Inset(2), r.H+top.H)
	}
	small := th.Font(layout.Regular, 11)
	w := r.W / float64(n)
	// Panes too narrow for their words (a phone) are stacked instead,
	// where each still gets a few lines' height.
	stacked := drops && w < th.Px(200) && r.H/float64(n) >= 6*layout.LineHeight(small)
	// Three pools or more side by side on a phone are too narrow for a
	// state word or a lane: one at a time, a button a pane.
	panes := make([]int, n)
	for i := range panes {
		panes[i] = i
	}
	if !drops && n >= 3 && w < th.Px(170) {
		if st, ok := p.AtStop(); ok && b.s.paneStop != st.Pos+1 {
			b.s.Pane, b.s.paneStop = st.Pane, st.Pos+1 // the pane the stop is about
		}
		var one int
		r, one = b.paneChooser(r, n)
		panes, w = []int{one}, r.W
	}
	for k, i := range panes {
		pr := layout.Rect{X: r.X + float64(k)*w, Y: r.Y, W: w, H: r.H}
		if stacked {
			pr = layout.Rect{X: r.X, Y: r.Y + float64(i)*r.H/float64(n), W: r.W, H: r.H / float64(n)}
		}
		v := p.PaneView(i)
		inner := b.panel(pr, variantTitle(p.PaneVariant(i), th.Font(layout.Bold, 12), pr.W-20))
		if drops {
			b.dropPane(inner, i, v)
			continue
		}
		// The backends' lanes are what the pin race is about: they get
		// the height their three lines need; the pool what is left, at
		// least a fifth.
		counters := scene.PinCounters(v.Counters())
		if p.PaneVariant(i).Key() == "pg" {
			counters = scene.ReadCounters(v.Counters())
		}
		items := scene.FitCounters(counters, inner.W-2, inner.H*0.25, th)
		wordH := layout.LineHeight(small)*4.6 + 6
		countersH := scene.CounterRowHeight(items, inner.W-2, th) + 2
		lanesTitle := layout.LineHeight(th.Font(layout.Bold, 12)) + 8
		lanesH := scene.LanesHeight(v, th) + lanesTitle + 16
		// The pool keeps a fifth of the pane, unless the lanes would be
		// left without two lines (a projector's low pane): then the pool
		// gives up height down to a strip, as the lanes are what a
		// question about the backends (or PostgreSQL 18's I/O workers)
		// points at.
		floor := inner.H * 0.2
		minLanes := lanesTitle + 2*(layout.LineHeight(th.Font(layout.Regular, 12))+2) + 4
		if rest := inner.H - wordH - countersH; rest-floor < minLanes {
			// At least the pool's header line: a heat map lower than
			// that would be a strip, and the line says the pool's size
			// and clock instead (PoolScene.Layout).
			floor = max(inner.H*0.08, rest-minLanes, layout.LineHeight(th.Font(layout.Regular, 12)))
		}
		poolH := max(floor, inner.H-wordH-countersH-lanesH)
		poolR, below := inner.SplitTop(poolH)
		b.pool(poolR, i, v)
		wordR, below := below.SplitTop(wordH)
		we, wok := scene.LastStateWordEvent(p.PaneTimeline(i).Events(), p.Pos(), 4096)
		b.clipped(wordR, func() { scene.LayoutStateWord(b.l, wordR.Inset(1), we, wok, v, th) })
		lanesR, countersR := below.SplitBottom(countersH)
		lr := b.panel(lanesR, "Backends: the word each one holds")
		b.clipped(lr, func() { scene.LayoutLanes(b.l, lr, v, th) })
		scene.LayoutCounterRow(b.l, countersR.Inset(1), items, th)
	}
}

// mechPanes lays out the panes of a mechanism that registers them: its
// legend line, then a titled panel a pane, side by side or stacked, over
// each pane's counter line.
//
// In a short frame (an embed 320 or 360 px high, a question's answer
// under the scene) a pane's scene may not fit: then the panes are laid
// out again without their counter lines, then without the legend too,
// as the slots are what the step is about (each slot's tooltip says its
// state, the code panel what the step costs). Each try is a layout of
// the panes, taken back (layout.List Rollback) when text is cut.
//
// own is false when the panes vary another mechanism's key (a pool
// variant over the free space map's scene): each pane is then titled by
// the variant's short title alone, as its long one speaks of the pool.
func (b *builder) mechPanes(r layout.Rect, m *mech.Mechanism, own bool) {
	pd := m.Scene.Panes
	mark, states := b.l.Here(), len(b.hitStates)
	type parts struct{ counters, legend bool }
	tries := []parts{{true, true}}
	if pd.CounterLine != nil {
		tries = append(tries, parts{false, true})
	}
	if pd.Legend != nil {
		tries = append(tries, parts{false, false})
	}
	for k, t := range tries {
		if k > 0 {
			b.l.Rollback(mark)
			b.hitStates = b.hitStates[:states]
		}
		b.layoutPanes(r, m, own, t.counters, t.legend)
		if !b.l.CutSince(mark) {
			return
		}
	}
}

// layoutPanes is mechPanes with or without the panes' counter lines and
// the legend.
func (b *builder) layoutPanes(r layout.Rect, m *mech.Mechanism, own, withCounters, withLegend bool) {
	p, th := b.sc.Player, b.th
	pd := m.Scene.Panes
	n := p.Panes()
	if pd.Legend != nil && withLegend {
		var legend layout.Rect
		legend, r = r.SplitTop(pd.LegendH(th))
		pd.Legend(b.l, legend.Inset(2), th)
	}
	// Stacked panes lower than a few lines each (a phone held sideways, a
	// projector's left column) are shown one at a time, a button a pane
	// to choose which.
	shown := make([]int, n)
	for i := range shown {
		shown[i] = i
	}
	lines := layout.LineHeight(th.Font(layout.Regular, 12))
	if pd.Stacked && n > 1 && r.H/float64(n) < 8*lines {
		var one int
		r, one = b.paneChooser(r, n)
		shown, n = []int{one}, 1
	}
	for k, i := range shown {
		t := p.PaneTrack(i, m.Name)
		if t == nil {
			continue // cannot happen: every pane runs the variant's mechanism
		}
		state := t.State()
		pr := layout.Rect{X: r.X + float64(k)*r.W/float64(n), Y: r.Y, W: r.W / float64(n), H: r.H}
		if pd.Stacked {
			pr = layout.Rect{X: r.X, Y: r.Y + float64(k)*r.H/float64(n), W: r.W, H: r.H / float64(n)}
		}
		bold := th.Font(layout.Bold, 12)
		title := func(w float64) string {
			if !own {
				return p.PaneVariant(i).Info().Short
			}
			return variantTitle(p.PaneVariant(i), bold, w)
		}
		name := title(pr.W - 20)
		if pd.TitleSuffix != nil {
			suffix := pd.TitleSuffix(state)
			name = title(pr.W-20-layout.Width(suffix, bold)) + suffix
		}
		inner := b.panel(pr, name)
		if pd.CounterLine != nil && withCounters {
			var counters layout.Rect
			inner, counters = inner.SplitBottom(pd.CounterLineH(th))
			pd.CounterLine(b.l, counters.Inset(1), state, th)
		}
		b.from(state, func() { b.clipped(inner, func() { pd.Layout(b.l, inner, state, th) }) })
	}
}

// paneChooser lays out a row of buttons, one a pane, over r, for panes
// shown one at a time, and returns what is left of r and the pane chosen
// (frameState.Pane).
func (b *builder) paneChooser(r layout.Rect, n int) (layout.Rect, int) {
	p := b.sc.Player
	bh := b.buttonH()
	row, rest := r.SplitTop(bh + 4)
	b.s.Pane = min(b.s.Pane, n-1)
	x := row.X
	for i := range n {
		// The pane's name in the longest form that fits its button: its
		// short title, without its note, its value alone.
		short := p.PaneVariant(i).Info().Short
		forms := append(scene.TitleForms(short), p.PaneVariant(i).Name())
		lbl := forms[len(forms)-1]
		for _, f := range forms {
			if b.buttonW(f) <= row.W/float64(n)-4 {
				lbl = f
				break
			}
		}
		w := min(b.buttonW(lbl), row.W/float64(n)-4)
		b.button(fmt.Sprintf("pane %d", i+1), lbl, layout.Rect{X: x, Y: row.Y, W: w, H: bh}, i == b.s.Pane, func() { b.s.Pane = i })
		x += w + 4
	}
	return rest, b.s.Pane
}
