package layout

import (
	"math"
	"strings"
	"testing"
)

// A dashed outline lies where a solid one would (the band width wide
// centred on the edges), covers the four corners, starts and ends each
// side with a dash of the asked length, and leaves gaps near the asked
// length; a rect too small for dashes gets a solid outline.
func TestDashSegments(t *testing.T) {
	r := Rect{X: 10.5, Y: 20, W: 97, H: 41}
	const w, on, off = 2.0, 6.0, 4.0
	segs := DashSegments(r, w, on, off)
	outer, inner := r.Inset(-w/2), r.Inset(w/2)
	covered := func(x, y float64) bool {
		for _, s := range segs {
			if x >= s.X-1e-9 && x <= s.X+s.W+1e-9 && y >= s.Y-1e-9 && y <= s.Y+s.H+1e-9 {
				return true
			}
		}
		return false
	}
	for _, s := range segs {
		if s.X < outer.X-1e-9 || s.Y < outer.Y-1e-9 || s.X+s.W > outer.X+outer.W+1e-9 || s.Y+s.H > outer.Y+outer.H+1e-9 {
			t.Errorf("segment %v outside the outline's band %v", s, outer)
		}
		// Not inside the rect's interior: every segment touches the band.
		if s.X > inner.X && s.Y > inner.Y && s.X+s.W < inner.X+inner.W && s.Y+s.H < inner.Y+inner.H {
			t.Errorf("segment %v inside the rect", s)
		}
		if long := max(s.W, s.H); math.Abs(long-on) > 1e-9 {
			t.Errorf("segment %v: a dash %.2f long, want %v", s, long, on)
		}
	}
	for _, c := range [][2]float64{{outer.X, outer.Y}, {outer.X + outer.W, outer.Y}, {outer.X, outer.Y + outer.H}, {outer.X + outer.W, outer.Y + outer.H}} {
		if !covered(c[0], c[1]) {
			t.Errorf("corner %v not drawn", c)
		}
	}
	// Along the top edge, dashes and gaps alternate, gaps within half a
	// gap of the asked length.
	var top []Rect
	for _, s := range segs {
		if s.H == w && s.Y == r.Y-w/2 {
			top = append(top, s)
		}
	}
	if len(top) < 8 {
		t.Fatalf("%d dashes along a top edge of %v px", len(top), r.W)
	}
	for i := 1; i < len(top); i++ {
		if gap := top[i].X - (top[i-1].X + top[i-1].W); gap < off/2 || gap > off*1.5 {
			t.Errorf("gap %.2f between dashes %d and %d, want about %v", gap, i-1, i, off)
		}
	}
	if small := DashSegments(Rect{W: 8, H: 8}, 1, 4, 3); len(small) != 4 {
		t.Errorf("an 8 px square: %v, want one solid segment a side", small)
	}
	if DashSegments(Rect{}, 1, 4, 3) != nil || DashSegments(r, 0, 4, 3) != nil {
		t.Error("an empty rect or a zero width drew dashes")
	}
}

// A hatch is lines at 45° rising to the right, every spacing px along
// the rect's edges, each clipped to the rect, covering it corner to
// corner.
func TestHatchLines(t *testing.T) {
	r := Rect{X: 3, Y: 5, W: 60, H: 25}
	const sp = 7.0
	ls := HatchLines(r, sp)
	if want := int((r.W + r.H) / sp); len(ls) != want {
		t.Errorf("%d lines, want %d", len(ls), want)
	}
	for i, s := range ls {
		a, b := s[0], s[1]
		for _, p := range []Point{a, b} {
			if p.X < r.X-1e-9 || p.X > r.X+r.W+1e-9 || p.Y < r.Y-1e-9 || p.Y > r.Y+r.H+1e-9 {
				t.Errorf("line %d: %v outside %v", i, p, r)
			}
		}
		if dx, dy := b.X-a.X, b.Y-a.Y; dx <= 0 || math.Abs(dx+dy) > 1e-9 {
			t.Errorf("line %d: %v–%v does not rise at 45°", i, a, b)
		}
		if c := a.X + a.Y; math.Abs(c-(r.X+r.Y+float64(i+1)*sp)) > 1e-9 {
			t.Errorf("line %d on x+y=%v, want %v", i, c, r.X+r.Y+float64(i+1)*sp)
		}
	}
	if HatchLines(Rect{}, sp) != nil || HatchLines(r, 0) != nil {
		t.Error("an empty rect or a zero spacing hatched")
	}
}

// Each outline style is the items it says, and the golden form tells
// them apart: a dashed stroke names its pattern, a hatch its spacing.
func TestOutlineStylesAndGoldenForm(t *testing.T) {
	r := Rect{X: 10, Y: 10, W: 60, H: 40}
	c := Orange
	for _, tc := range []struct {
		style EdgeStyle
		want  string
	}{
		{EdgeSolid, "stroke s              10,10 60x40 w2 #e69f00\n"},
		{EdgeDashed, "stroke s              10,10 60x40 w2 #e69f00 dash 6/4\n"},
		{EdgeDotted, "stroke s              10,10 60x40 w2 #e69f00 dash 2/3\n"},
		{EdgeDouble, "stroke s              10,10 60x40 w2 #e69f00\nstroke s              14,14 52x32 w2 #e69f00\n"},
	} {
		var l List
		l.Outline("s", r, Encoding{Edge: c, EdgeWidth: 2, EdgeStyle: tc.style})
		if got := l.String(); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.style, got, tc.want)
		}
	}
	var l List
	l.Outline("none", r, Encoding{Fill: c})
	l.PatternOver("io", r, Encoding{Pattern: PatternHatch, PatternColor: Green})
	l.PatternOver("plain", r, Encoding{})
	if got, want := l.String(), "hatch io             10,10 60x40 w1 every 8 #009e73\n"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if !strings.HasPrefix(l.Items[0].String(), "hatch") || l.Items[0].Kind != KHatch {
		t.Errorf("%v", l.Items[0])
	}
}
