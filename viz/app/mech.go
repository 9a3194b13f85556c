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
