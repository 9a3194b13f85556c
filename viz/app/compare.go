package app

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"bufferlab/engine/trace"
	"bufferlab/viz/render"
	"bufferlab/viz/scene"
	"bufferlab/viz/view"
)

// variantTitle names a pin variant for its pane, shorter when the pane is
// narrow.
func variantTitle(pins string, face *text.GoTextFace, w float64) string {
	long, short := "pins="+pins, "pins="+pins
	switch pins {
	case "atomic":
		long, short = "pins=atomic: one CAS on the state word (PostgreSQL 9.6 to 18)", "pins=atomic: one CAS (PG 9.6+)"
	case "spinlock":
		long, short = "pins=spinlock: the buffer header spinlock (PostgreSQL 9.5 and older)", "pins=spinlock: header spinlock (PG ≤ 9.5)"
	}
	if render.TextWidth(long, face) <= w {
		return long
	}
	return short
}

// drawCompare draws the side-by-side scene of a lesson or scenario that
// runs two pin variants on the same schedule: a pane per variant (its
// pool, the state word its current event touched, its backends with the
// word each one holds, its counters), the lesson text, and the code each
// pane is executing, one above the other.
func (a *App) drawCompare(dst *ebiten.Image, rest, bottom render.Rect) {
	th, p := a.th, a.p
	panes, right := rest.SplitLeft(rest.W * 0.64)
	leftPane, rightPane := panes.SplitLeft(panes.W / 2)
	type pane struct {
		r      render.Rect
		v      *view.Pool
		events []trace.Event
		pins   string
		pool   *scene.PoolScene
	}
	ps := []pane{
		{leftPane, p.View(), p.TL.Events(), p.Pins, &a.pool},
		{rightPane, p.AltView(), p.Alt.Events(), p.AltPins, &a.altPool},
	}
	small := th.Face(render.Regular, 11)
	for i, pn := range ps {
		inner := scene.Panel(dst, pn.r.Inset(2), variantTitle(pn.pins, th.Face(render.Bold, 12), pn.r.W-20), th)
		poolR, below := inner.SplitTop(inner.H * 0.30)
		pn.pool.Draw(clip(dst, poolR), poolR, pn.v, th)
		if i == 0 {
			a.ui.pool = poolR
		}
		wordR, below := below.SplitTop(render.LineHeight(small)*4.6 + 6)
		we, wok := scene.LastStateWordEvent(pn.events, p.Pos(), 4096)
		scene.DrawStateWord(clip(dst, wordR), wordR.Inset(1), we, wok, pn.v, th)
		lanesR, countersR := below.SplitBottom(44 * th.Scale)
		lr := scene.Panel(dst, lanesR.Inset(1), "Backends: the word each one holds", th)
		scene.DrawLanes(clip(dst, lr), lr, pn.v, th)
		scene.DrawCounterRow(dst, countersR.Inset(1), scene.PinCounters(pn.v.Counters()), th)
	}
	narrR, codeR := right.SplitTop(right.H * 0.52)
	nr := scene.Panel(dst, narrR.Inset(2), "Lesson", th)
	a.drawNarration(clip(dst, nr), nr)
	topCode, botCode := codeR.SplitTop(codeR.H / 2)
	for i, c := range []render.Rect{topCode, botCode} {
		cr := scene.Panel(dst, c.Inset(2), "Code, pins="+ps[i].pins, th)
		scene.DrawCode(clip(dst, cr), cr, ps[i].v, th)
	}
	a.drawTimeline(dst, bottom.Inset(2))
	a.drawFlash(dst, bottom)
}
