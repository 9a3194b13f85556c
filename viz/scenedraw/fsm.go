package scenedraw

import (
	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/viz/fsmview"
	"bufferlab/viz/layout"
	"bufferlab/viz/render"
	"bufferlab/viz/scene"
)

// The FSM scene's paint step: each function lays its part out with the
// pure scene.LayoutX of the same name and paints the list with
// render.Paint. It decides nothing; what is drawn, and what did not fit,
// is in the layout (see scene.LayoutFSMScene).

// DrawFSMScene draws the whole FSM scene of relation rel into r (see
// scene.LayoutFSMScene).
func DrawFSMScene(dst *ebiten.Image, r render.Rect, v *fsmview.View, rel uint32, th *render.Theme) {
	var l layout.List
	scene.LayoutFSMScene(&l, r, v, rel, th.Theme)
	render.Paint(dst, &l)
}

// DrawHeap draws relation rel's heap pages as bars (see scene.LayoutHeap).
func DrawHeap(dst *ebiten.Image, r render.Rect, v *fsmview.View, rel uint32, th *render.Theme) {
	var l layout.List
	scene.LayoutHeap(&l, r, v, rel, th.Theme)
	render.Paint(dst, &l)
}

// DrawFSMPages draws relation rel's FSM pages in their three levels (see
// scene.LayoutFSMPages).
func DrawFSMPages(dst *ebiten.Image, r render.Rect, v *fsmview.View, rel uint32, th *render.Theme) {
	var l layout.List
	scene.LayoutFSMPages(&l, r, v, rel, th.Theme)
	render.Paint(dst, &l)
}

// DrawFSMTree draws FSM block phys of relation rel as its binary tree
// (see scene.LayoutFSMTree).
func DrawFSMTree(dst *ebiten.Image, r render.Rect, v *fsmview.View, rel, phys uint32, th *render.Theme) {
	var l layout.List
	scene.LayoutFSMTree(&l, r, v, rel, phys, th.Theme)
	render.Paint(dst, &l)
}

// DrawLocalMap draws small-skip's backend-local map of relation rel (see
// scene.LayoutLocalMap).
func DrawLocalMap(dst *ebiten.Image, r render.Rect, v *fsmview.View, rel uint32, th *render.Theme) {
	var l layout.List
	scene.LayoutLocalMap(&l, r, v, rel, th.Theme)
	render.Paint(dst, &l)
}

// DrawFSMSteps draws the focused operation on relation rel step by step
// (see scene.LayoutFSMSteps).
func DrawFSMSteps(dst *ebiten.Image, r render.Rect, v *fsmview.View, rel uint32, th *render.Theme) {
	var l layout.List
	scene.LayoutFSMSteps(&l, r, v, rel, th.Theme)
	render.Paint(dst, &l)
}

// DrawFSMCounters draws what reading pages cost (see
// scene.LayoutFSMCounters).
func DrawFSMCounters(dst *ebiten.Image, r render.Rect, v *fsmview.View, rel uint32, th *render.Theme) {
	var l layout.List
	scene.LayoutFSMCounters(&l, r, v, rel, th.Theme)
	render.Paint(dst, &l)
}
