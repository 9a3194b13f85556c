package scene

// This file is a bridge for the merge of issue 15's scene conversion, to be
// deleted then: slru.go and fsm.go, converted to layouts on their own
// branches, still call these two Ebitengine wrappers on this branch (the
// wrappers themselves moved to package scenedraw, which the scenes cannot
// import). Once slru.go and fsm.go are the converted ones, nothing calls
// them; delete this file, and viz/scene imports no Ebitengine.

import (
	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/viz/layout"
	"bufferlab/viz/render"
)

// Panel draws a titled panel frame (see LayoutPanel; scenedraw.Panel).
func Panel(dst *ebiten.Image, r render.Rect, title string, th *render.Theme) render.Rect {
	var l layout.List
	inner := LayoutPanel(&l, r, title, th.Theme)
	render.Paint(dst, &l)
	return inner
}

// DrawCounterRow draws counters in a row of labelled boxes (see
// LayoutCounterRow; scenedraw.DrawCounterRow).
func DrawCounterRow(dst *ebiten.Image, r render.Rect, items []Counter, th *render.Theme) {
	var l layout.List
	LayoutCounterRow(&l, r, items, th.Theme)
	render.Paint(dst, &l)
}
