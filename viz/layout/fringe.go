package layout

import "math"

// Anti-aliasing by fringe. A painter draws an anti-aliased line or
// triangle as one mesh: the shape shrunk by half a pixel, opaque, and
// around it a band one pixel wide whose opacity falls from 1 at the inner
// edge to 0 at the outer one (the shape grown by half a pixel). A pixel
// the shape's edge crosses is then covered about as much as the shape
// covers it, as with supersampling, but the mesh is drawn directly into
// the frame: no offscreen image, no extra pass.
//
// Ebitengine's own anti-aliasing (DrawTrianglesOptions.AntiAlias, the
// last argument of vector.StrokeLine) draws into a twice-sized offscreen
// image of the destination whose region is the union of everything drawn
// anti-aliased since it was made (v2.8.8, internal/ui bigOffscreenImage):
// each time a draw grows that region, a new offscreen is allocated and
// cleared. A first frame with a hundred dashes spread over the screen
// allocated 14 such images of up to 1504×1344 pixels (2048×2048 textures,
// 224 MB in Mesa's software renderer, about a third of the desktop app's
// start-up), and every later switch between an anti-aliased draw and a
// plain one composites that region back onto the frame.

// FringeWidth is the width of the band over which a fringed edge fades
// out: one pixel, half inside the shape and half outside.
const FringeWidth = 1.0

// Mesh is a fringed shape ready to draw: positions, each with an opacity
// factor (1 inside, 0 at the outer edge of the fringe), and triangles as
// index triples.
type Mesh struct {
	Pos   []Point
	Alpha []float64
	Index []uint16
}

// Triangles is the number of triangles in m.
func (m *Mesh) Triangles() int { return len(m.Index) / 3 }

// LineMesh is the fringed mesh of a line from a to b, width wide, with
// butt ends (the rectangle vector.StrokeLine fills). A line thinner than
// a pixel is drawn a pixel wide with its opacity scaled by its width, and
// likewise a line shorter than a pixel; a line of no length or width is
// empty.
func LineMesh(a, b Point, width float64) Mesh {
	dx, dy := b.X-a.X, b.Y-a.Y
	length := math.Hypot(dx, dy)
	if length == 0 || !(width > 0) || math.IsInf(width, 0) || math.IsNaN(length) || math.IsInf(length, 0) {
		return Mesh{}
	}
	ux, uy := dx/length, dy/length // along the line
	nx, ny := -uy, ux              // across it
	scale := 1.0
	if width < FringeWidth {
		scale *= width
		width = FringeWidth
	}
	// Half extents of the rectangle along and across, before the fringe;
	// the middle of the line is the middle of the rectangle.
	hl, hw := length/2, width/2
	if length < FringeWidth {
		scale *= length
		hl = FringeWidth / 2
	}
	cx, cy := (a.X+b.X)/2, (a.Y+b.Y)/2
	corner := func(along, across float64) Point {
		return Point{X: cx + ux*along + nx*across, Y: cy + uy*along + ny*across}
	}
	f := FringeWidth / 2
	// The corners in order around the rectangle, inner and outer.
	signs := [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}
	var inner, outer [4]Point
	for i, s := range signs {
		inner[i] = corner(s[0]*(hl-f), s[1]*(hw-f))
		outer[i] = corner(s[0]*(hl+f), s[1]*(hw+f))
	}
	return ringMesh(inner[:], outer[:], scale)
}

// TriangleMesh is the fringed mesh of the filled triangle p0 p1 p2 (either
// winding). Each edge moves half a pixel in for the opaque core and half
// a pixel out for the fringe's outer edge; at a sharp corner the offset
// is limited to four pixels along the corner's bisector, so a needle-thin
// tip does not shoot out. A triangle whose inscribed circle is narrower
// than a pixel moves its edges in only as far as that circle's centre,
// and its opacity is scaled by the circle's radius over half a pixel. A
// triangle with no area is empty.
func TriangleMesh(p0, p1, p2 Point) Mesh {
	pts := [3]Point{p0, p1, p2}
	area2 := (p1.X-p0.X)*(p2.Y-p0.Y) - (p2.X-p0.X)*(p1.Y-p0.Y)
	if area2 == 0 || math.IsNaN(area2) || math.IsInf(area2, 0) {
		return Mesh{}
	}
	if area2 < 0 { // one winding for every triangle, so "outward" is one side
		pts[1], pts[2] = pts[2], pts[1]
		area2 = -area2
	}
	// The outward normal of edge i (from pts[i] to pts[i+1]), and the
	// perimeter for the inscribed circle's radius (area / semi-perimeter).
	var en [3]Point
	perimeter := 0.0
	for i := range pts {
		a, b := pts[i], pts[(i+1)%3]
		dx, dy := b.X-a.X, b.Y-a.Y
		l := math.Hypot(dx, dy)
		perimeter += l
		en[i] = Point{X: dy / l, Y: -dx / l}
	}
	f := FringeWidth / 2
	in, scale := f, 1.0
	if r := area2 / perimeter; r < f {
		in, scale = r, r/f
	}
	var inner, outer [3]Point
	for i := range pts {
		n0, n1 := en[(i+2)%3], en[i] // the edges before and after vertex i
		mx, my := n0.X+n1.X, n0.Y+n1.Y
		ml := math.Hypot(mx, my)
		mx, my = mx/ml, my/ml
		// Moving both edges by d moves the corner by d/cos along the
		// bisector, cos being the bisector's projection on either normal.
		cos := mx*n1.X + my*n1.Y
		din, dout := min(in/cos, 4), min(f/cos, 4)
		inner[i] = Point{X: pts[i].X - mx*din, Y: pts[i].Y - my*din}
		outer[i] = Point{X: pts[i].X + mx*dout, Y: pts[i].Y + my*dout}
	}
	return ringMesh(inner[:], outer[:], scale)
}

// ringMesh joins a convex core (inner, opaque) to the band around it
// (inner to outer, fading to transparent): the core as a fan, each side of
// the band as two triangles. inner[i] and outer[i] are the same corner.
func ringMesh(inner, outer []Point, scale float64) Mesh {
	n := len(inner)
	m := Mesh{
		Pos:   make([]Point, 0, 2*n),
		Alpha: make([]float64, 0, 2*n),
		Index: make([]uint16, 0, 3*(n-2)+6*n),
	}
	for _, p := range inner {
		m.Pos = append(m.Pos, p)
		m.Alpha = append(m.Alpha, scale)
	}
	for _, p := range outer {
		m.Pos = append(m.Pos, p)
		m.Alpha = append(m.Alpha, 0)
	}
	for i := 1; i+1 < n; i++ {
		m.Index = append(m.Index, 0, uint16(i), uint16(i+1))
	}
	for i := range n {
		j := (i + 1) % n
		in0, in1, out0, out1 := uint16(i), uint16(j), uint16(n+i), uint16(n+j)
		m.Index = append(m.Index, in0, out0, out1, in0, out1, in1)
	}
	return m
}
