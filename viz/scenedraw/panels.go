package scenedraw

import (
	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/engine/trace"
	"bufferlab/viz/layout"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/render"
	"bufferlab/viz/scene"
)

// Panel draws a titled panel frame and returns the rect inside it (see
// scene.LayoutPanel).
func Panel(dst *ebiten.Image, r render.Rect, title string, th *render.Theme) render.Rect {
	var inner render.Rect
	paint(dst, func(l *layout.List) { inner = scene.LayoutPanel(l, r, title, th.Theme) })
	return inner
}

// DrawPartitions draws the 128 mapping partitions with their entries and
// lock holders (see scene.LayoutPartitions).
func DrawPartitions(dst *ebiten.Image, r render.Rect, p *view.Pool, th *render.Theme) {
	paint(dst, func(l *layout.List) { scene.LayoutPartitions(l, r, p, th.Theme) })
}

// DrawLanes draws one row per backend (see scene.LayoutLanes).
func DrawLanes(dst *ebiten.Image, r render.Rect, p *view.Pool, th *render.Theme) {
	paint(dst, func(l *layout.List) { scene.LayoutLanes(l, r, p, th.Theme) })
}

// DrawCode draws the pseudo-code of the pool's current event (see
// scene.LayoutCode).
func DrawCode(dst *ebiten.Image, r render.Rect, p *view.Pool, th *render.Theme) {
	paint(dst, func(l *layout.List) { scene.LayoutCode(l, r, p, th.Theme) })
}

// DrawCodeFor draws the pseudo-code of any event (see scene.LayoutCodeFor).
func DrawCodeFor(dst *ebiten.Image, r render.Rect, e trace.Event, ok bool, desc string, th *render.Theme) {
	paint(dst, func(l *layout.List) { scene.LayoutCodeFor(l, r, e, ok, desc, th.Theme) })
}

// DrawCounters draws the pool scene's counters in a row of labelled boxes.
func DrawCounters(dst *ebiten.Image, r render.Rect, c view.Counters, th *render.Theme) {
	DrawCounterRow(dst, r, scene.PoolCounters(c), th)
}

// DrawCounterRow draws counters in a row of labelled boxes (see
// scene.LayoutCounterRow).
func DrawCounterRow(dst *ebiten.Image, r render.Rect, items []scene.Counter, th *render.Theme) {
	paint(dst, func(l *layout.List) { scene.LayoutCounterRow(l, r, items, th.Theme) })
}

// DrawCounterLine draws counters on one line of text (see
// scene.LayoutCounterLine).
func DrawCounterLine(dst *ebiten.Image, r render.Rect, items []scene.Counter, th *render.Theme) {
	paint(dst, func(l *layout.List) { scene.LayoutCounterLine(l, r, items, th.Theme) })
}

// DrawStateWord draws the state word of the buffer an event touched (see
// scene.LayoutStateWord).
func DrawStateWord(dst *ebiten.Image, r render.Rect, e trace.Event, ok bool, p *view.Pool, th *render.Theme) {
	paint(dst, func(l *layout.List) { scene.LayoutStateWord(l, r, e, ok, p, th.Theme) })
}
