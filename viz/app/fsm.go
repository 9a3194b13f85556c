package app

import (
	"fmt"

	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/engine/fsm"
	"bufferlab/viz/render"
	"bufferlab/viz/scene"
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
	// The heap the current event is about, else the first one.
	var rel uint32
	if hs := v.Heaps(); len(hs) > 0 {
		rel = hs[0].Rel
	}
	if e, ok := v.Current(); ok {
		if ln := v.Lane(e.Actor); ln.Search.HasOp {
			rel = ln.Search.Rel
		}
	}
	title := "Heap and free space map"
	if h, ok := v.Heap(rel); ok {
		title = fmt.Sprintf("Heap %s (fillfactor %d) and its free space map · fsm=%s", h.Name, h.FillFactor, v.Variant())
	}
	fr := scene.Panel(dst, left.Inset(2), title, th)
	scenedraw.DrawFSMScene(clip(dst, fr), fr, v, rel, th)
	narrR, codeR := right.SplitTop(right.H * 0.58)
	nr := scene.Panel(dst, narrR.Inset(2), "Lesson", th)
	a.drawNarration(clip(dst, nr), nr)
	cr := scene.Panel(dst, codeR.Inset(2), "Code: the modelled PostgreSQL function", th)
	// The last event of any kind: FSM events and the buffer accesses the
	// FSM code makes.
	e, ok := p.TL.Event()
	desc := ""
	if ok {
		pool := p.View()
		desc = fsm.DescribeWith(e, pool.RelName, p.ActorName)
	}
	scene.DrawCodeFor(clip(dst, cr), cr, e, ok, desc, th)
	a.drawTimeline(dst, bottom.Inset(2))
	a.drawFlash(dst, bottom)
}
