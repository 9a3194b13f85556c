package scene

import (
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/viz/layout"
	"bufferlab/viz/render"
)

// drawActorChip paints a backend's name in a small filled box
// (layoutBackendChip). It is here only for fsm.go's lookup lines until
// that scene is a layout too; delete this file then, since package scene
// must end with no Ebitengine import.
func drawActorChip(dst *ebiten.Image, c render.Rect, name string, fill color.RGBA, th *render.Theme) {
	var l layout.List
	layoutBackendChip(&l, "chip", c, name, fill, th.Theme)
	render.Paint(dst, &l)
}
