package layout

import "image"

// Rect is a rectangle in screen pixels.
type Rect struct{ X, Y, W, H float64 }

// Contains reports whether (x, y) lies inside r.
func (r Rect) Contains(x, y float64) bool {
	return x >= r.X && y >= r.Y && x < r.X+r.W && y < r.Y+r.H
}

// Inset shrinks r by d on every side.
func (r Rect) Inset(d float64) Rect { return Rect{r.X + d, r.Y + d, r.W - 2*d, r.H - 2*d} }

// SplitTop cuts h pixels off the top of r.
func (r Rect) SplitTop(h float64) (top, rest Rect) {
	h = min(h, r.H)
	return Rect{r.X, r.Y, r.W, h}, Rect{r.X, r.Y + h, r.W, r.H - h}
}

// SplitLeft cuts w pixels off the left of r.
func (r Rect) SplitLeft(w float64) (left, rest Rect) {
	w = min(w, r.W)
	return Rect{r.X, r.Y, w, r.H}, Rect{r.X + w, r.Y, r.W - w, r.H}
}

// SplitBottom cuts h pixels off the bottom of r.
func (r Rect) SplitBottom(h float64) (rest, bottom Rect) {
	h = min(h, r.H)
	return Rect{r.X, r.Y, r.W, r.H - h}, Rect{r.X, r.Y + r.H - h, r.W, h}
}

// SplitRight cuts w pixels off the right of r.
func (r Rect) SplitRight(w float64) (rest, right Rect) {
	w = min(w, r.W)
	return Rect{r.X, r.Y, r.W - w, r.H}, Rect{r.X + r.W - w, r.Y, w, r.H}
}

// Image returns r as an image.Rectangle (for sub-images).
func (r Rect) Image() image.Rectangle {
	return image.Rect(int(r.X), int(r.Y), int(r.X+r.W), int(r.Y+r.H))
}

// Empty reports whether r has no area.
func (r Rect) Empty() bool { return r.W <= 0 || r.H <= 0 }

// Point is a position in screen pixels.
type Point struct{ X, Y float64 }
