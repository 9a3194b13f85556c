package app

import (
	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/engine/fsm"
	"bufferlab/viz/mech/fsmmech"
	"bufferlab/viz/render"
	"bufferlab/viz/scenedraw"
)

// drawFSMScene draws a lesson or scenario on heaps and their free space
// map: the heap pages, the FSM pages, one FSM page's tree with the search
// path (or the small-table skip's local map), the searches and counters,
// beside the lesson text and the code of the modelled function.
func (a *App) drawFSMScene(dst *ebiten.Image, rest, bottom render.Rect) {
	th, p := a.th, a.p
	v := p.FSMView()
	left, right := rest.SplitLeft(rest.W * 0.64)
	// The heap the current event is about, else the first one, and the
	// title its registration gives.
	rel := fsmmech.FocusRel(v)
	fr := scenedraw.Panel(dst, left.Inset(2), a.title("fsm", v), th)
	scenedraw.DrawFSMScene(clip(dst, fr), fr, v, rel, th)
	narrR, codeR := right.SplitTop(right.H * 0.58)
	nr := scenedraw.Panel(dst, narrR.Inset(2), "Lesson", th)
	a.drawNarration(clip(dst, nr), nr)
	cr := scenedraw.Panel(dst, codeR.Inset(2), "Code: the modelled PostgreSQL function", th)
	// The last event of any kind: FSM events and the buffer accesses the
	// FSM code makes.
	e, ok := p.TL.Event()
	desc := ""
	if ok {
		pool := p.View()
		desc = fsm.DescribeWith(e, pool.RelName, p.ActorName)
	}
	scenedraw.DrawCodeFor(clip(dst, cr), cr, e, ok, desc, th)
	a.drawTimeline(dst, bottom.Inset(2))
	a.drawFlash(dst, bottom)
}
