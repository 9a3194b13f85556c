//go:build xvfb

package measurecheck

import (
	"errors"
	"image"
	"image/color"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/viz/layout"
	"bufferlab/viz/render"
)

// paintGame paints each list on its own cleared image in its first Draw,
// reads the pixels back and ends.
type paintGame struct {
	lists []*layout.List
	out   []*image.RGBA
}

var errDone = errors.New("done")

func (g *paintGame) Update() error {
	if g.out != nil {
		return errDone
	}
	return nil
}

func (g *paintGame) Draw(*ebiten.Image) {
	if g.out != nil {
		return
	}
	for _, l := range g.lists {
		img := ebiten.NewImage(120, 80)
		img.Fill(color.White)
		render.Paint(img, l)
		px := image.NewRGBA(image.Rect(0, 0, 120, 80))
		img.ReadPixels(px.Pix)
		g.out = append(g.out, px)
	}
}

func (g *paintGame) Layout(int, int) (int, int) { return 120, 80 }

func paint(t *testing.T, lists ...*layout.List) []*image.RGBA {
	t.Helper()
	g := &paintGame{lists: lists}
	ebiten.SetWindowSize(120, 80)
	if err := ebiten.RunGame(g); err != nil && !errors.Is(err, errDone) {
		t.Fatal(err)
	}
	return g.out
}

// The painter draws a solid stroke as render.Stroke does; a dashed
// stroke only inside the pixels of the solid one, with gaps, and its
// four corners; a hatch only inside its rect, over part of it.
func TestPaintDashesAndHatch(t *testing.T) {
	r := layout.Rect{X: 10.5, Y: 10, W: 80, H: 50}
	c := color.RGBA{0xd5, 0x5e, 0x00, 0xff}
	var solid, dashed, hatch layout.List
	solid.Stroke("s", r, 2, c)
	dashed.StrokeDashed("d", r, 2, c, 6, 4)
	hatch.Hatch("h", r, 1.5, 7, c)
	imgs := paint(t, &solid, &dashed, &hatch)
	ink := func(img *image.RGBA, x, y int) bool { return img.RGBAAt(x, y) != color.RGBA{0xff, 0xff, 0xff, 0xff} }
	var nSolid, nDashed, nHatch int
	for y := 0; y < 80; y++ {
		for x := 0; x < 120; x++ {
			s, d, h := ink(imgs[0], x, y), ink(imgs[1], x, y), ink(imgs[2], x, y)
			if s {
				nSolid++
			}
			if d {
				nDashed++
				if !s {
					t.Errorf("dashed stroke inked (%d,%d) outside the solid stroke", x, y)
				}
			}
			if h {
				nHatch++
				if float64(x) < r.X-1 || float64(x) > r.X+r.W || float64(y) < r.Y-1 || float64(y) > r.Y+r.H {
					t.Errorf("hatch inked (%d,%d) outside %v", x, y, r)
				}
			}
		}
	}
	if nSolid == 0 || nDashed*10 < nSolid*4 || nDashed*10 > nSolid*8 {
		t.Errorf("solid stroke %d pixels, dashed %d: want dashes over 40–80%% of it", nSolid, nDashed)
	}
	for _, p := range [][2]int{{10, 10}, {90, 10}, {10, 59}, {90, 59}} {
		if !ink(imgs[1], p[0], p[1]) {
			t.Errorf("dashed stroke left corner %v blank", p)
		}
	}
	if area := int(r.W * r.H); nHatch < area/8 || nHatch > area*3/4 {
		t.Errorf("hatch inked %d pixels of %d", nHatch, area)
	}
}
