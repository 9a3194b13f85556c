package render

import (
	"image"
	"image/color"
	"math"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"bufferlab/viz/layout"
)

// Rect is a rectangle in screen pixels (layout.Rect: layouts compute
// them without Ebitengine).
type Rect = layout.Rect

// Fill draws a filled rectangle.
func Fill(dst *ebiten.Image, r Rect, c color.Color) {
	if r.W <= 0 || r.H <= 0 {
		return
	}
	vector.DrawFilledRect(dst, float32(r.X), float32(r.Y), float32(r.W), float32(r.H), c, false)
}

// Stroke draws a rectangle's outline of the given width.
func Stroke(dst *ebiten.Image, r Rect, width float64, c color.Color) {
	if r.W <= 0 || r.H <= 0 {
		return
	}
	vector.StrokeRect(dst, float32(r.X), float32(r.Y), float32(r.W), float32(r.H), float32(width), c, false)
}

// StrokeDashed draws a rectangle's dashed outline: the dashes
// layout.DashSegments places, each a filled rectangle drawn as Stroke
// draws its outline (no anti-aliasing), so a dash is as crisp as a solid
// edge beside it.
func StrokeDashed(dst *ebiten.Image, r Rect, width, on, off float64, c color.Color) {
	for _, s := range layout.DashSegments(r, width, on, off) {
		vector.DrawFilledRect(dst, float32(s.X), float32(s.Y), float32(s.W), float32(s.H), c, false)
	}
}

// Hatch draws the lines of layout.HatchLines over r, anti-aliased and
// clipped to the pixels r covers (a line's ends would otherwise stick out
// by half its width).
func Hatch(dst *ebiten.Image, r Rect, width, spacing float64, c color.Color) {
	if r.Empty() {
		return
	}
	clip := image.Rect(int(math.Floor(r.X)), int(math.Floor(r.Y)), int(math.Ceil(r.X+r.W)), int(math.Ceil(r.Y+r.H)))
	sub, ok := dst.SubImage(clip.Intersect(dst.Bounds())).(*ebiten.Image)
	if !ok {
		return
	}
	for _, ln := range layout.HatchLines(r, spacing) {
		drawMesh(sub, layout.LineMesh(ln[0], ln[1], width), c)
	}
}

// Line draws a line segment, anti-aliased (layout.LineMesh).
func Line(dst *ebiten.Image, x0, y0, x1, y1, width float64, c color.Color) {
	drawMesh(dst, layout.LineMesh(layout.Point{X: x0, Y: y0}, layout.Point{X: x1, Y: y1}, width), c)
}

// Triangle draws a filled triangle, anti-aliased (layout.TriangleMesh;
// used for the dirty corner mark and the clock hand's arrow).
func Triangle(dst *ebiten.Image, x0, y0, x1, y1, x2, y2 float64, c color.Color) {
	drawMesh(dst, layout.TriangleMesh(layout.Point{X: x0, Y: y0}, layout.Point{X: x1, Y: y1}, layout.Point{X: x2, Y: y2}), c)
}

// drawMesh draws a fringed mesh in c, each vertex's opacity scaled by its
// Alpha, in one plain DrawTriangles: the fringe is the anti-aliasing, so
// Ebitengine's own (an offscreen image per destination) is not used.
func drawMesh(dst *ebiten.Image, m layout.Mesh, c color.Color) {
	if len(m.Index) == 0 {
		return
	}
	cr, cg, cb, ca := straight(c)
	vs := slices.Grow(meshVertices[:0], len(m.Pos))[:len(m.Pos)]
	meshVertices = vs
	for i, p := range m.Pos {
		vs[i] = ebiten.Vertex{DstX: float32(p.X), DstY: float32(p.Y), SrcX: 1, SrcY: 1,
			ColorR: cr, ColorG: cg, ColorB: cb, ColorA: ca * float32(m.Alpha[i])}
	}
	dst.DrawTriangles(vs, m.Index, whitePixel(), &ebiten.DrawTrianglesOptions{})
}

// meshVertices is drawMesh's scratch: DrawTriangles copies the vertices
// (vector's functions reuse theirs the same way), and frames are painted
// on one goroutine.
var meshVertices []ebiten.Vertex

// straight is c's colour with straight (not premultiplied) alpha, each
// channel in [0, 1], as DrawTriangles' vertex colours are by default
// (ColorScaleModeStraightAlpha).
func straight(c color.Color) (r, g, b, a float32) {
	pr, pg, pb, pa := c.RGBA()
	if pa == 0 {
		return 0, 0, 0, 0
	}
	return float32(pr) / float32(pa), float32(pg) / float32(pa), float32(pb) / float32(pa), float32(pa) / 0xffff
}

var white *ebiten.Image

func whitePixel() *ebiten.Image {
	if white == nil {
		img := ebiten.NewImage(3, 3)
		img.Fill(color.White)
		white = img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)
	}
	return white
}

// Align is a horizontal text alignment.
type Align = layout.Align

// Alignments.
const (
	Left   = layout.Left
	Center = layout.Center
	Right  = layout.Right
)

// Text draws s with its top-left (or top-centre, top-right) at (x, y).
func Text(dst *ebiten.Image, s string, face *text.GoXFace, x, y float64, c color.Color, a Align) {
	op := &text.DrawOptions{}
	op.GeoM.Translate(x, y)
	op.ColorScale.ScaleWithColor(c)
	switch a {
	case Center:
		op.PrimaryAlign = text.AlignCenter
	case Right:
		op.PrimaryAlign = text.AlignEnd
	}
	text.Draw(dst, s, face, op)
}

// TextWidth is the advance width of s.
func TextWidth(s string, face *text.GoXFace) float64 {
	return text.Advance(s, face)
}

// LineHeight is the distance between two baselines of face.
func LineHeight(face *text.GoXFace) float64 {
	return layout.LineHeight(FontOfFace(face))
}

// Wrap breaks s into lines no wider than w, at spaces (layout.Wrap, whose
// measurement equals Ebitengine's: see viz/render/measurecheck).
func Wrap(s string, face *text.GoXFace, w float64) []string {
	return layout.Wrap(s, FontOfFace(face), w)
}

// Button is a clickable labelled rectangle. Draw it each frame and test
// clicks against its Rect.
type Button struct {
	Rect    Rect
	Label   string
	Hint    string // keyboard shortcut shown in help
	Active  bool   // drawn pressed (e.g. play while playing)
	Enabled bool
}

// Draw draws the button.
func (b *Button) Draw(dst *ebiten.Image, th *Theme, hover bool) {
	fill := th.Panel
	if b.Active {
		fill = th.Accent
	} else if hover && b.Enabled {
		fill = th.Hover
	}
	Fill(dst, b.Rect, fill)
	edge := th.PanelEdge
	if hover && b.Enabled {
		edge = th.Accent
	}
	Stroke(dst, b.Rect, 1, edge)
	tc := TextOn(fill)
	if !b.Enabled {
		tc = th.Muted
	}
	face := th.Face(layout.Regular, 13)
	Text(dst, b.Label, face, b.Rect.X+b.Rect.W/2, b.Rect.Y+(b.Rect.H-LineHeight(face))/2+1, tc, Center)
}

// Fit shortens s, a rune at a time, until it fits in width w with face,
// marking the cut with "…" (layout.Fit).
func Fit(s string, face *text.GoXFace, w float64) string {
	return layout.Fit(s, FontOfFace(face), w)
}
