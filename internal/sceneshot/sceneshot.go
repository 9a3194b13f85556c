package sceneshot

import (
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"

	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/viz/layout"
	"bufferlab/viz/render"
)

// Shot is one screenshot to take.
type Shot struct {
	Title         string // the window's title
	Caption       string // the line above the scene ("event …" is prefixed)
	Width, Height int
	Out           string // the PNG to write
	// Draw draws the scene into r of dst with theme th.
	Draw func(dst *ebiten.Image, r render.Rect, th *render.Theme)
}

// Run opens the window, draws the scene into a canvas each frame (on the
// theme's background, below the caption) and, after the third frame, saves
// the canvas and ends. It returns the first error: fonts, the window or the
// file.
func Run(s Shot) error {
	if err := render.FontError(); err != nil {
		return fmt.Errorf("fonts: %w", err)
	}
	g := &game{s: s, th: render.Light(1)}
	ebiten.SetWindowTitle(s.Title)
	ebiten.SetWindowSize(s.Width, s.Height)
	if err := ebiten.RunGame(g); err != nil && !errors.Is(err, ebiten.Termination) {
		return err
	}
	return g.err
}

// game is the ebiten.Game behind Run.
type game struct {
	s      Shot
	th     *render.Theme
	canvas *ebiten.Image
	frames int
	err    error
}

func (g *game) Update() error {
	if g.frames >= 3 && g.canvas != nil {
		rgba := image.NewRGBA(g.canvas.Bounds())
		g.canvas.ReadPixels(rgba.Pix)
		g.err = SavePNG(g.s.Out, rgba)
		return ebiten.Termination
	}
	return nil
}

func (g *game) Draw(screen *ebiten.Image) {
	w, h := g.s.Width, g.s.Height
	if g.canvas == nil || g.canvas.Bounds().Dx() != w || g.canvas.Bounds().Dy() != h {
		g.canvas = ebiten.NewImage(w, h)
	}
	c := g.canvas
	c.Fill(g.th.Background)
	all := render.Rect{X: 0, Y: 0, W: float64(w), H: float64(h)}.Inset(8)
	face := g.th.Face(layout.Regular, 12)
	top, rest := all.SplitTop(render.LineHeight(face) + 6)
	render.Text(c, "event "+g.s.Caption, face, top.X+4, top.Y+2, g.th.Muted, render.Left)
	g.s.Draw(c, rest, g.th)
	screen.DrawImage(c, nil)
	g.frames++
}

func (g *game) Layout(int, int) (int, int) { return g.s.Width, g.s.Height }

// SavePNG writes img to path as a PNG: the screenshot commands' frame
// and the desktop app's --screenshot.
func SavePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
