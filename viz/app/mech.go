package app

import (
	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/viz/layout"
	"bufferlab/viz/mech"
	_ "bufferlab/viz/mech/all" // every mechanism's registration
	"bufferlab/viz/render"
	"bufferlab/viz/scenedraw"
)

// title is the heading a mechanism's registration gives its scene for a
// view (the mechanism's name when it registers none).
func (a *App) title(name string, state any) string {
	if m, ok := mech.Lookup(name); ok && m.Title != nil {
		return m.Title(state)
	}
	return name
}

// mechPanels are the registered mechanisms with a side panel
// (mech.Mechanism.Panel) whose track this run has, and the height each
// asks for in a column w wide (its frame and title, and its content's own
// height, or 30% of the column height h when it does not say). Nothing here
// names a mechanism: a new one's panel appears by registering.
func (a *App) mechPanels(w, h float64) (ms []*mech.Mechanism, heights []float64) {
	for _, m := range mech.All() {
		if m.Panel == nil || a.p.Track(m.Name) == nil {
			continue
		}
		ph := h * 0.3
		if m.PanelHeight != nil {
			title := render.LineHeight(a.th.Face(render.Bold, 12)) + 8
			ph = title + 12 + 4 + m.PanelHeight(a.th.Theme, w-16)
		}
		ms, heights = append(ms, m), append(heights, ph)
	}
	return ms, heights
}

// splitRight divides the right column of a one-pane scene: the lesson
// text over the side panels over the code, the panels at the height they
// ask for (at most 45% of the column together), the lesson and the code
// sharing the rest 58:42 as they do without panels.
func (a *App) splitRight(right render.Rect) (narr, panels, code render.Rect, ms []*mech.Mechanism, heights []float64) {
	ms, heights = a.mechPanels(right.W, right.H)
	total := 0.0
	for _, h := range heights {
		total += h
	}
	if limit := right.H * 0.45; total > limit {
		for i := range heights {
			heights[i] *= limit / total
		}
		total = limit
	}
	narr, rest := right.SplitTop((right.H - total) * 0.58)
	panels, code = rest.SplitTop(total)
	return narr, panels, code, ms, heights
}

// drawMechPanels draws the side panels ms, heights[i] each, stacked in r.
func (a *App) drawMechPanels(dst *ebiten.Image, r render.Rect, ms []*mech.Mechanism, heights []float64) {
	for i, m := range ms {
		var pr render.Rect
		pr, r = r.SplitTop(heights[i])
		state := a.p.Track(m.Name).State()
		inner := scenedraw.Panel(dst, pr.Inset(2), a.title(m.Name, state), a.th)
		var l layout.List
		m.Panel(&l, inner, state, a.th.Theme)
		render.Paint(clip(dst, inner), &l)
	}
}

// mainScene is the registered main scene of a one-pane run: that of the
// first mechanism (in the language's order) whose track the run has; nil
// for the pool's own scene.
func (a *App) mainScene() (*mech.Mechanism, any) {
	for _, m := range mech.All() {
		if m.Scene == nil {
			continue
		}
		if t := a.p.Track(m.Name); t != nil {
			return m, t.State()
		}
	}
	return nil, nil
}

// drawMechScene draws a lesson or scenario whose main mechanism registers
// a scene (the commit log's SLRU: its banks, lookups and victim choice;
// the free space map: heap pages, FSM pages, a page's tree and the
// searches): the scene in a titled panel on the left, the lesson text
// over the code of the modelled function on the right, the mechanism's
// counter row below when it has one.
func (a *App) drawMechScene(dst *ebiten.Image, rest, bottom render.Rect, m *mech.Mechanism, state any) {
	th := a.th
	sc := m.Scene
	var counters render.Rect
	if sc.Counters != nil {
		rest, counters = rest.SplitBottom(44 * th.Scale)
	}
	left, right := rest.SplitLeft(rest.W * sc.Split)
	sr := scenedraw.Panel(dst, left.Inset(2), a.title(m.Name, state), th)
	var l layout.List
	sc.Layout(&l, sr, state, th.Theme)
	render.Paint(clip(dst, sr), &l)
	narrR, codeR := right.SplitTop(right.H * 0.58)
	nr := scenedraw.Panel(dst, narrR.Inset(2), "Lesson", th)
	a.drawNarration(clip(dst, nr), nr)
	cr := scenedraw.Panel(dst, codeR.Inset(2), "Code: the modelled PostgreSQL function", th)
	a.drawMechCode(dst, cr, m, state)
	if sc.Counters != nil {
		var cl layout.List
		sc.Counters(&cl, counters.Inset(2), state, th.Theme)
		render.Paint(dst, &cl)
	}
	a.drawTimeline(dst, bottom.Inset(2))
	a.drawFlash(dst, bottom)
}

// drawMechCode draws the code of the modelled function at the event the
// mechanism's scene says (its view's, or the player's), described with
// the scenario's names.
func (a *App) drawMechCode(dst *ebiten.Image, cr render.Rect, m *mech.Mechanism, state any) {
	p := a.p
	e, ok := p.TL.Event()
	e, ok, desc := m.Scene.Code(state, mech.CodeContext{Event: e, HasEvent: ok, Actor: p.ActorName, RelName: p.View().RelName})
	scenedraw.DrawCodeFor(clip(dst, cr), cr, e, ok, desc, a.th)
}

// drawMechPanes draws the variants of a mechanism that registers its
// panes (mech.Panes): a titled panel a pane, side by side or stacked,
// under the mechanism's legend line and over each pane's counter line;
// on the right the lesson and a code panel a pane. Nothing here names a
// mechanism.
func (a *App) drawMechPanes(dst *ebiten.Image, panes, right, bottom render.Rect, m *mech.Mechanism) {
	th, p := a.th, a.p
	pd := m.Scene.Panes
	n := p.Panes()
	if pd.Legend != nil {
		var legend render.Rect
		legend, panes = panes.SplitTop(pd.LegendH(th.Theme))
		var l layout.List
		pd.Legend(&l, legend.Inset(2), th.Theme)
		render.Paint(dst, &l)
	}
	states := make([]any, n)
	for i := range n {
		t := p.PaneTrack(i, m.Name)
		if t == nil {
			continue // cannot happen: every pane runs the variant's mechanism
		}
		states[i] = t.State()
		r := render.Rect{X: panes.X + float64(i)*panes.W/float64(n), Y: panes.Y, W: panes.W / float64(n), H: panes.H}
		if pd.Stacked {
			r = render.Rect{X: panes.X, Y: panes.Y + float64(i)*panes.H/float64(n), W: panes.W, H: panes.H / float64(n)}
		}
		bold := th.Face(render.Bold, 12)
		title := variantTitle(p.PaneVariant(i), bold, r.W-20)
		if pd.TitleSuffix != nil {
			suffix := pd.TitleSuffix(states[i])
			title = render.Fit(variantTitle(p.PaneVariant(i), bold, r.W-20-render.TextWidth(suffix, bold))+suffix, bold, r.W-20)
		}
		inner := scenedraw.Panel(dst, r.Inset(2), title, th)
		if pd.CounterLine != nil {
			var counters render.Rect
			inner, counters = inner.SplitBottom(pd.CounterLineH(th.Theme))
			var l layout.List
			pd.CounterLine(&l, counters.Inset(1), states[i], th.Theme)
			render.Paint(dst, &l)
		}
		var l layout.List
		pd.Layout(&l, inner, states[i], th.Theme)
		render.Paint(clip(dst, inner), &l)
	}
	narr := pd.Narr
	if narr == 0 {
		narr = compareNarr(n)
	}
	a.drawCompareText(dst, right, bottom, narr, func(i int, cr render.Rect) {
		if pd.OwnCode && states[i] != nil {
			a.drawMechCode(dst, cr, m, states[i])
			return
		}
		scenedraw.DrawCode(clip(dst, cr), cr, p.PaneView(i), th)
	})
}
