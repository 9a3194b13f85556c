package scenedraw

import (
	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/viz/fsmview"
	"bufferlab/viz/layout"
	"bufferlab/viz/render"
	"bufferlab/viz/scene"
)

// DrawFSMScene draws the whole FSM scene of relation rel into r: the
// layout is scene.LayoutFSMScene's, which decides what is drawn and
// records what did not fit; this only paints it. The scene's parts
// (scene.LayoutHeap, LayoutFSMPages, ...) are laid out only as parts of
// the whole, so they have no wrapper of their own.
func DrawFSMScene(dst *ebiten.Image, r render.Rect, v *fsmview.View, rel uint32, th *render.Theme) {
	paint(dst, func(l *layout.List) { scene.LayoutFSMScene(l, r, v, rel, th.Theme) })
}
