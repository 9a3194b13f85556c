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

// drawMechPanels draws the side panel of every registered mechanism that
// has one (mech.Mechanism.Panel) and whose track this run has, stacked at
// the top of r, and returns what is left of r. Nothing here names a
// mechanism: a new one's panel appears by registering.
func (a *App) drawMechPanels(dst *ebiten.Image, r render.Rect) render.Rect {
	for _, m := range mech.All() {
		if m.Panel == nil {
			continue
		}
		t := a.p.Track(m.Name)
		if t == nil {
			continue
		}
		var pr render.Rect
		pr, r = r.SplitTop(r.H * 0.45)
		inner := scenedraw.Panel(dst, pr.Inset(2), a.title(m.Name, t.State()), a.th)
		var l layout.List
		m.Panel(&l, inner, t.State(), a.th.Theme)
		render.Paint(clip(dst, inner), &l)
	}
	return r
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
