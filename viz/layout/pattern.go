package layout

import "math"

// The geometry of the patterns a painter draws (dashed outlines, hatching),
// computed here so that it is tested without a display and every painter
// draws the same thing.

// DashSegments are the filled rectangles that draw r's outline width wide
// with dashes on long and gaps about off. Like a solid outline
// (vector.StrokeRect), the line is centred on r's edges and covers its
// corners; each side starts and ends with a dash at a corner, so the
// corners are always drawn, and its gaps are stretched or shrunk a little
// so that whole dashes fit. A side too short for two dashes and a gap is
// drawn solid.
func DashSegments(r Rect, width, on, off float64) []Rect {
	if r.Empty() || width <= 0 || on <= 0 {
		return nil
	}
	h := width / 2
	var out []Rect
	// side lays dashes from a to a+length along x (horizontal) or y.
	side := func(a, length float64, horizontal bool, at float64) {
		n := max(1, int(math.Round((length+off)/(on+off))))
		gap := 0.0
		if n > 1 {
			gap = (length - float64(n)*on) / float64(n-1)
		}
		if n < 2 || gap < off/2 {
			n, gap = 1, 0
		}
		for i := 0; i < n; i++ {
			start, l := a+float64(i)*(on+gap), on
			if n == 1 {
				l = length
			}
			if horizontal {
				out = append(out, Rect{X: start, Y: at - h, W: l, H: width})
			} else {
				out = append(out, Rect{X: at - h, Y: start, W: width, H: l})
			}
		}
	}
	// Top and bottom run past the corners by half the width; the sides
	// fit between them.
	side(r.X-h, r.W+width, true, r.Y)
	side(r.X-h, r.W+width, true, r.Y+r.H)
	if inner := r.H - width; inner > 0 {
		side(r.Y+h, inner, false, r.X)
		side(r.Y+h, inner, false, r.X+r.W)
	}
	return out
}

// HatchLines are the segments of a hatch over r: lines rising to the
// right at 45° ("/"), spacing apart measured along r's edges, each
// clipped to r. The first line is spacing from r's top-left corner, so a
// hatch of the same spacing lines up from cell to cell of a grid whose
// pitch is a multiple of it.
func HatchLines(r Rect, spacing float64) [][2]Point {
	if r.Empty() || spacing <= 0 {
		return nil
	}
	var out [][2]Point
	x1, y1 := r.X+r.W, r.Y+r.H
	// Line k: x + y = c, for c from the top-left corner to the
	// bottom-right one.
	for c := r.X + r.Y + spacing; c < x1+y1; c += spacing {
		ax := max(r.X, c-y1) // where it enters at the bottom or the left
		bx := min(x1, c-r.Y) // where it leaves at the top or the right
		if bx-ax < 1e-9 {
			continue
		}
		out = append(out, [2]Point{{ax, c - ax}, {bx, c - bx}})
	}
	return out
}
