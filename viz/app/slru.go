package app

import (
	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/viz/mech"
	"bufferlab/viz/render"
	"bufferlab/viz/scene"
	"bufferlab/viz/scenedraw"
)

// drawSLRUPanes draws a scenario that runs several SLRU variants side by
// side (config slru=single,banks,banks+hash): the panes are stacked, since
// a bank is a wide row of slots, each with its banks, lookups and
// counters; on the right the lesson text and each pane's code.
func (a *App) drawSLRUPanes(dst *ebiten.Image, panes, right, bottom render.Rect) {
	th, p := a.th, a.p
	slruMech, _ := mech.Lookup("slru")
	n := p.Panes()
	legend, panes := panes.SplitTop(render.LineHeight(th.Face(render.Regular, 12)) + 8)
	scenedraw.DrawSLRULegend(dst, legend.Inset(2), th)
	h := panes.H / float64(n)
	for i := 0; i < n; i++ {
		r := render.Rect{X: panes.X, Y: panes.Y + float64(i)*h, W: panes.W, H: h}
		v := p.PaneSLRUView(i)
		geo := " · " + scene.SLRUPaneTitle(v)
		bold := th.Face(render.Bold, 12)
		title := variantTitle(p.PaneVariant(i), bold, r.W-20-render.TextWidth(geo, bold)) + geo
		inner := scenedraw.Panel(dst, r.Inset(2), render.Fit(title, bold, r.W-20), th)
		banks, counters := inner.SplitBottom(render.LineHeight(th.Face(render.Bold, 13)) + 8)
		scenedraw.DrawSLRUPane(clip(dst, banks), banks, v, th)
		scenedraw.DrawCounterLine(dst, counters.Inset(1), scene.SLRUPaneCounters(v.Counters()), th)
	}
	a.drawCompareText(dst, right, bottom, 0.46, func(i int, cr render.Rect) {
		a.drawMechCode(dst, cr, slruMech, p.PaneSLRUView(i))
	})
}
