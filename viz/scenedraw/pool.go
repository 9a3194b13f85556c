package scenedraw

import (
	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/viz/layout"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/render"
	"bufferlab/viz/scene"
)

// PoolScene draws the descriptors: scene.PoolScene (zoom, hit testing,
// the heat map's pixels) with the painter that keeps the heat map's
// texture between frames. Each PoolScene has its own painter, so the
// panes of the side-by-side scene do not re-upload each other's texture
// every frame (the painter caches one texture per role, re-uploaded only
// when the layout's Key changes: when the pool, the zoom or the grid did).
type PoolScene struct {
	scene.PoolScene
	painter render.Painter
	list    layout.List
}

// Draw draws the pool into r (see scene.PoolScene.Layout). BufferAt then
// answers from the rects this layout computed.
func (s *PoolScene) Draw(dst *ebiten.Image, r render.Rect, p *view.Pool, th *render.Theme) {
	s.list.Items, s.list.Overflows = s.list.Items[:0], s.list.Overflows[:0]
	s.PoolScene.Layout(&s.list, r, p, th.Theme)
	s.painter.Paint(dst, &s.list)
}
