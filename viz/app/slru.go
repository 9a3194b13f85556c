package app

import (
	"fmt"

	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/engine/slru"
	"bufferlab/viz/render"
	"bufferlab/viz/scene"
)

// drawSLRUScene draws a lesson or scenario on the commit log's SLRU: the
// banks of slots with the lookups in progress and the victim choice, the
// SLRU's counters, the lesson text and the code of the modelled function.
func (a *App) drawSLRUScene(dst *ebiten.Image, rest, bottom render.Rect) {
	th, p := a.th, a.p
	v := p.SLRUView()
	rest, counters := rest.SplitBottom(44 * th.Scale)
	left, right := rest.SplitLeft(rest.W * 0.62)
	br := scene.Panel(dst, left.Inset(2), "Commit log SLRU: "+v.Geometry().Variant.String(), th)
	scene.DrawBanks(clip(dst, br), br, v, th)
	narrR, codeR := right.SplitTop(right.H * 0.58)
	nr := scene.Panel(dst, narrR.Inset(2), "Lesson", th)
	a.drawNarration(clip(dst, nr), nr)
	cr := scene.Panel(dst, codeR.Inset(2), "Code: the modelled PostgreSQL function", th)
	e, ok := v.Current()
	desc := ""
	if ok {
		desc = slru.Describe(e)
		if int(e.Actor) < len(p.Backends) && len(desc) >= 9 {
			desc = desc[:6] + fmt.Sprintf("%-3s", p.Backends[e.Actor]) + desc[9:]
		}
	}
	scene.DrawCodeFor(clip(dst, cr), cr, e, ok, desc, th)
	scene.DrawSLRUCounters(dst, counters.Inset(2), v, th)
	a.drawTimeline(dst, bottom.Inset(2))
	a.drawFlash(dst, bottom)
}
