package scenedraw

import (
	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/lessons"
	"bufferlab/viz/layout"
	"bufferlab/viz/render"
	"bufferlab/viz/scene"
)

// Prose draws rich text: scene.Prose's layout, painted.
type Prose struct{ scene.Prose }

// DrawBlocks draws blocks from (r.X, y) down and returns the y after the
// last one (see scene.Prose.LayoutBlocks).
func (p Prose) DrawBlocks(dst *ebiten.Image, r render.Rect, y float64, blocks []lessons.Block, th *render.Theme) float64 {
	paint(dst, func(l *layout.List) { y = p.LayoutBlocks(l, r, y, blocks, th.Theme) })
	return y
}

// DrawQuestion draws a predict question from y and returns the y after
// it and the choice buttons to hit-test (see scene.Prose.LayoutQuestion).
func (p Prose) DrawQuestion(dst *ebiten.Image, r render.Rect, y float64, q *lessons.Question, chosen int, revealed bool, th *render.Theme, hover func(render.Rect) bool) (float64, scene.QuestionUI) {
	var ui scene.QuestionUI
	paint(dst, func(l *layout.List) { y, ui = p.LayoutQuestion(l, r, y, q, chosen, revealed, th.Theme, hover) })
	return y, ui
}
