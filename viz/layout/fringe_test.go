package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// ink is the integral of a mesh's opacity over the plane: each triangle's
// area times the mean of its corners' Alpha (opacity is interpolated
// linearly across a triangle). For a fringed shape it should be close to
// the shape's area: the fringe adds half a pixel of fading band outside
// each edge and takes half a pixel of it inside.
func ink(m Mesh) float64 {
	sum := 0.0
	for t := 0; t < m.Triangles(); t++ {
		i, j, k := m.Index[3*t], m.Index[3*t+1], m.Index[3*t+2]
		a, b, c := m.Pos[i], m.Pos[j], m.Pos[k]
		area := math.Abs((b.X-a.X)*(c.Y-a.Y)-(c.X-a.X)*(b.Y-a.Y)) / 2
		sum += area * (m.Alpha[i] + m.Alpha[j] + m.Alpha[k]) / 3
	}
	return sum
}

// checkIndices fails unless every index names a vertex and the triangles
// are whole.
func checkIndices(t *testing.T, m Mesh) {
	t.Helper()
	if len(m.Index)%3 != 0 || len(m.Pos) != len(m.Alpha) {
		t.Fatalf("mesh of %d positions, %d alphas, %d indices", len(m.Pos), len(m.Alpha), len(m.Index))
	}
	for _, i := range m.Index {
		if int(i) >= len(m.Pos) {
			t.Fatalf("index %d of %d positions", i, len(m.Pos))
		}
	}
}

// A horizontal line: the opaque core is the rectangle shrunk by half a
// pixel on every side, the fringe's outer edge the rectangle grown by half
// a pixel, so the edge pixels a line of width 2 at y = 10 half covers are
// drawn half opaque.
func TestLineMeshHorizontal(t *testing.T) {
	m := LineMesh(Point{0, 10}, Point{10, 10}, 2)
	checkIndices(t, m)
	if len(m.Pos) != 8 || m.Triangles() != 10 {
		t.Fatalf("%d positions, %d triangles: want 8 and 10 (a core of 2, a band of 8)", len(m.Pos), m.Triangles())
	}
	in, out := bounds(m, 1), bounds(m, 0)
	if want := (Rect{X: 0.5, Y: 9.5, W: 9, H: 1}); !near(in, want) {
		t.Errorf("core %+v, want %+v", in, want)
	}
	if want := (Rect{X: -0.5, Y: 8.5, W: 11, H: 3}); !near(out, want) {
		t.Errorf("fringe's outer edge %+v, want %+v", out, want)
	}
}

// bounds is the bounding box of the vertices whose Alpha is alpha.
func bounds(m Mesh, alpha float64) Rect {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i, p := range m.Pos {
		if m.Alpha[i] != alpha {
			continue
		}
		x0, y0, x1, y1 = min(x0, p.X), min(y0, p.Y), max(x1, p.X), max(y1, p.Y)
	}
	return Rect{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
}

func near(a, b Rect) bool {
	const eps = 1e-9
	return math.Abs(a.X-b.X) < eps && math.Abs(a.Y-b.Y) < eps && math.Abs(a.W-b.W) < eps && math.Abs(a.H-b.H) < eps
}

// At any angle a line's ink is its area, length × width, plus at most one
// pixel (the band's corners, where the two ramps overlap); a line thinner
// or shorter than a pixel keeps its area by fading instead.
func TestLineMeshInk(t *testing.T) {
	for _, c := range []struct {
		a, b  Point
		width float64
	}{
		{Point{0, 0}, Point{100, 0}, 1.5},
		{Point{3, 7}, Point{40, 52}, 1},
		{Point{10, 10}, Point{-20, 35}, 3},
		{Point{0, 0}, Point{0, 5}, 2},
		{Point{0, 0}, Point{30, 0}, 0.4},
		{Point{0, 0}, Point{0.5, 0}, 2},
	} {
		m := LineMesh(c.a, c.b, c.width)
		checkIndices(t, m)
		length := math.Hypot(c.b.X-c.a.X, c.b.Y-c.a.Y)
		got, want := ink(m), length*c.width
		if got < want-1e-9 || got > want+1 {
			t.Errorf("line %v–%v width %g: ink %.3f, want %.3f to %.3f", c.a, c.b, c.width, got, want, want+1)
		}
	}
}

// A triangle's core edges are half a pixel inside its own and the fringe's
// outer edges half a pixel outside (where the corner is not clipped), and
// its ink is close to its area; the winding does not matter.
func TestTriangleMesh(t *testing.T) {
	tri := [3]Point{{0, 0}, {20, 0}, {0, 12}}
	for _, pts := range [][3]Point{tri, {tri[0], tri[2], tri[1]}} {
		m := TriangleMesh(pts[0], pts[1], pts[2])
		checkIndices(t, m)
		if len(m.Pos) != 6 {
			t.Fatalf("%d positions, want 6", len(m.Pos))
		}
		for i, p := range m.Pos {
			want := -0.5 // inside, for the core
			if m.Alpha[i] == 0 {
				want = 0.5
			}
			// The signed distance to the nearest edge line of the
			// triangle (positive outside).
			d := math.Inf(-1)
			for e := 0; e < 3; e++ {
				d = max(d, signedDistance(tri[e], tri[(e+1)%3], tri[(e+2)%3], p))
			}
			if math.Abs(d-want) > 1e-9 {
				t.Errorf("vertex %d (alpha %g) at %v: %+.3f from the edges, want %+.1f", i, m.Alpha[i], p, d, want)
			}
		}
		area := 20.0 * 12 / 2
		if got := ink(m); math.Abs(got-area) > 1 {
			t.Errorf("ink %.3f, want about %.0f", got, area)
		}
	}
}

// signedDistance is p's distance to the line through a and b, positive on
// the side away from c.
func signedDistance(a, b, c, p Point) float64 {
	nx, ny := b.Y-a.Y, a.X-b.X
	l := math.Hypot(nx, ny)
	d := ((p.X-a.X)*nx + (p.Y-a.Y)*ny) / l
	if (c.X-a.X)*nx+(c.Y-a.Y)*ny > 0 {
		d = -d
	}
	return d
}

// A sharp tip's offsets stop at four pixels; a triangle narrower than a
// pixel fades instead of turning its core inside out, keeping its ink
// close to its area.
func TestTriangleMeshSharpAndSmall(t *testing.T) {
	m := TriangleMesh(Point{0, 0}, Point{100, 1}, Point{0, 2})
	checkIndices(t, m)
	for i, p := range m.Pos {
		if p.X > 104+1e-9 || p.X < -4-1e-9 {
			t.Errorf("vertex %d at %v: beyond the four-pixel limit", i, p)
		}
	}
	small := TriangleMesh(Point{0, 0}, Point{0.8, 0}, Point{0, 0.8})
	checkIndices(t, small)
	if got, area := ink(small), 0.32; math.Abs(got-area) > 1 {
		t.Errorf("small triangle: ink %.3f, want about %.2f", got, area)
	}
	for i, a := range small.Alpha {
		if a > 1 || a < 0 {
			t.Errorf("small triangle: alpha %g at vertex %d", a, i)
		}
	}
}

// Nothing to draw gives an empty mesh, never NaN positions.
func TestFringeDegenerate(t *testing.T) {
	nan := math.NaN()
	for name, m := range map[string]Mesh{
		"zero-length line":    LineMesh(Point{1, 1}, Point{1, 1}, 2),
		"zero-width line":     LineMesh(Point{0, 0}, Point{5, 5}, 0),
		"NaN width":           LineMesh(Point{0, 0}, Point{5, 5}, nan),
		"NaN end":             LineMesh(Point{0, 0}, Point{nan, 5}, 1),
		"infinite width":      LineMesh(Point{0, 0}, Point{5, 5}, math.Inf(1)),
		"collinear triangle":  TriangleMesh(Point{0, 0}, Point{1, 1}, Point{2, 2}),
		"NaN triangle":        TriangleMesh(Point{0, 0}, Point{nan, 1}, Point{2, 0}),
		"repeated point":      TriangleMesh(Point{3, 3}, Point{3, 3}, Point{5, 9}),
		"infinite coordinate": TriangleMesh(Point{0, 0}, Point{math.Inf(1), 1}, Point{2, 0}),
	} {
		if len(m.Pos) != 0 || len(m.Index) != 0 {
			t.Errorf("%s: %d positions, %d indices; want an empty mesh", name, len(m.Pos), len(m.Index))
		}
	}
}

// Every anti-aliased shape is fringed: no Go file of the module asks
// Ebitengine for its own anti-aliasing (an AntiAlias field set to
// anything but false, or a vector function called with antialias not
// false), whose offscreen images cost the desktop app about 1.1 s and
// 210 MB at start-up (see the comment at the top of fringe.go).
func TestNoEbitengineAntiAliasing(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "AntiAlias" && !isFalse(n.Value) {
					t.Errorf("%s: AntiAlias is set: draw a fringed mesh (layout.LineMesh, TriangleMesh) instead", fset.Position(n.Pos()))
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok || len(n.Args) == 0 {
					break
				}
				if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "vector" && takesAntialias(sel.Sel.Name) && !isFalse(n.Args[len(n.Args)-1]) {
					t.Errorf("%s: vector.%s with antialias not false: draw a fringed mesh instead", fset.Position(n.Pos()), sel.Sel.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked %d Go files from %s: the walk did not reach the module", checked, root)
	}
}

func isFalse(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "false"
}

// takesAntialias says whether vector's function name takes antialias as
// its last argument (Ebitengine v2.8.8's vector package).
func takesAntialias(name string) bool {
	switch name {
	case "StrokeLine", "DrawFilledRect", "StrokeRect", "DrawFilledCircle", "StrokeCircle":
		return true
	}
	return false
}
