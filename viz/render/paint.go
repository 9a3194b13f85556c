package render

import (
	"image"

	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/viz/layout"
)

// Painter draws display lists. It keeps the textures of image items
// between frames, by role, and re-uploads one only when its Key changes.
type Painter struct {
	textures map[string]*texture
}

type texture struct {
	img        *ebiten.Image
	key        uint64
	cols, rows int
}

// Paint draws every item of l in order: the thin paint step of a scene
// whose layout step computed l. It decides nothing.
func (p *Painter) Paint(dst *ebiten.Image, l *layout.List) {
	base := dst
	var clips []image.Rectangle // the clipped groups open, innermost last
	for i := range l.Items {
		it := &l.Items[i]
		switch it.Kind {
		case layout.KClip:
			r := it.Rect.Image()
			if len(clips) > 0 {
				r = r.Intersect(clips[len(clips)-1])
			}
			clips = append(clips, r)
			dst = base.SubImage(r).(*ebiten.Image)
		case layout.KUnclip:
			if len(clips) > 0 {
				clips = clips[:len(clips)-1]
			}
			dst = base
			if len(clips) > 0 {
				dst = base.SubImage(clips[len(clips)-1]).(*ebiten.Image)
			}
		case layout.KFill:
			Fill(dst, it.Rect, it.Color)
		case layout.KStroke:
			if it.Dash != [2]float64{} {
				StrokeDashed(dst, it.Rect, it.Width, it.Dash[0], it.Dash[1], it.Color)
			} else {
				Stroke(dst, it.Rect, it.Width, it.Color)
			}
		case layout.KHatch:
			Hatch(dst, it.Rect, it.Width, it.Spacing, it.Color)
		case layout.KLine:
			Line(dst, it.Pts[0].X, it.Pts[0].Y, it.Pts[1].X, it.Pts[1].Y, it.Width, it.Color)
		case layout.KTriangle:
			Triangle(dst, it.Pts[0].X, it.Pts[0].Y, it.Pts[1].X, it.Pts[1].Y, it.Pts[2].X, it.Pts[2].Y, it.Color)
		case layout.KText:
			// Drawn from the run's anchor with Ebitengine's alignment,
			// as render.Text did: the glyphs' subpixel placement
			// depends on the origin the alignment starts from, so
			// drawing a centred run at its left edge would move some
			// glyph edges by a fraction of a pixel.
			x := it.Rect.X
			switch it.Align {
			case layout.Center:
				x += it.Rect.W / 2
			case layout.Right:
				x += it.Rect.W
			}
			Text(dst, it.Text, FaceOf(it.Font), x, it.Rect.Y, it.Color, it.Align)
		case layout.KImage:
			p.image(dst, it)
		}
	}
}

// image draws an image item: its cells scaled to fill its Rect.
func (p *Painter) image(dst *ebiten.Image, it *layout.Item) {
	if it.Cols <= 0 || it.Rows <= 0 || len(it.Pixels) < 4*it.Cols*it.Rows || it.Rect.Empty() {
		return
	}
	if p.textures == nil {
		p.textures = map[string]*texture{}
	}
	t := p.textures[it.Role]
	if t == nil || t.cols != it.Cols || t.rows != it.Rows {
		if t != nil {
			t.img.Deallocate()
		}
		t = &texture{img: ebiten.NewImage(it.Cols, it.Rows), cols: it.Cols, rows: it.Rows}
		t.key = it.Key + 1
		p.textures[it.Role] = t
	}
	if t.key != it.Key {
		t.img.WritePixels(it.Pixels[:4*it.Cols*it.Rows])
		t.key = it.Key
	}
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Scale(it.Rect.W/float64(it.Cols), it.Rect.H/float64(it.Rows))
	op.GeoM.Translate(it.Rect.X, it.Rect.Y)
	dst.SubImage(image.Rect(int(it.Rect.X), int(it.Rect.Y), int(it.Rect.X+it.Rect.W)+1, int(it.Rect.Y+it.Rect.H)+1)).(*ebiten.Image).DrawImage(t.img, op)
}

// shared paints lists for Paint: the scenes' wrappers run on Ebitengine's
// one draw goroutine, so one painter (and its texture cache) serves them.
var shared Painter

// Paint draws l with the shared painter (see Painter.Paint).
func Paint(dst *ebiten.Image, l *layout.List) { shared.Paint(dst, l) }
