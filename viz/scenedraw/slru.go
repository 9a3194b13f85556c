package scenedraw

import (
	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/viz/layout"
	"bufferlab/viz/render"
	"bufferlab/viz/scene"
	"bufferlab/viz/slruview"
)

// The SLRU scene's paint step: each function lays the scene out with its
// scene.Layout… twin and paints the list (paint). They decide nothing.

// DrawSLRUScene draws the SLRU of v into r (scene.LayoutSLRUScene).
func DrawSLRUScene(dst *ebiten.Image, r render.Rect, v *slruview.View, th *render.Theme) {
	paint(dst, func(l *layout.List) { scene.LayoutSLRUScene(l, r, v, th.Theme) })
}

// DrawSLRUPane draws v as one of several panes side by side
// (scene.LayoutSLRUPane).
func DrawSLRUPane(dst *ebiten.Image, r render.Rect, v *slruview.View, th *render.Theme) {
	paint(dst, func(l *layout.List) { scene.LayoutSLRUPane(l, r, v, th.Theme) })
}

// DrawSLRULegend draws the legend of the SLRU scene's colours and marks
// (scene.LayoutSLRULegend).
func DrawSLRULegend(dst *ebiten.Image, r render.Rect, th *render.Theme) {
	paint(dst, func(l *layout.List) { scene.LayoutSLRULegend(l, r, th.Theme) })
}

// DrawSLRUCounters draws the SLRU scene's counters in a row of labelled
// boxes (scene.LayoutSLRUCounters).
func DrawSLRUCounters(dst *ebiten.Image, r render.Rect, v *slruview.View, th *render.Theme) {
	paint(dst, func(l *layout.List) { scene.LayoutSLRUCounters(l, r, v, th.Theme) })
}
