package scenedraw

import (
	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/viz/layout"
	"bufferlab/viz/render"
)

// paint is the whole of every stateless wrapper here: lay the scene's
// part out into a fresh list with lay (a scene.LayoutX call for the
// wrapper's arguments) and paint the list with render.Paint. The list is
// the frame's own (a few hundred items at most); PoolScene keeps one
// between frames instead, for its painter's cached texture.
func paint(dst *ebiten.Image, lay func(l *layout.List)) {
	var l layout.List
	lay(&l)
	render.Paint(dst, &l)
}
