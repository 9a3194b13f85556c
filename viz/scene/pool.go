package scene

import (
	"fmt"
	"image/color"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/engine/bufmgr"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/render"
)

// DetailMax is the most descriptors drawn as individual cells; larger
// pools are drawn as a heat map until zoomed in to this many or fewer.
const DetailMax = 256

// PoolScene draws the descriptors. It keeps the zoom and the heat map
// texture between frames.
type PoolScene struct {
	// Zoom is how many descriptors are in view: NBuffers when zoomed out,
	// down to 16. First is the first descriptor in view.
	Zoom, First int

	heat       *ebiten.Image
	heatPixels []byte
	heatFP     uint64 // fingerprint of the pool the texture shows
	heatCols   int
	lastRect   render.Rect
	cellRects  []render.Rect // detail mode: screen rects of descriptors First..
}

// Reset zooms out fully for a pool of n buffers.
func (s *PoolScene) Reset(n int) {
	s.Zoom, s.First = n, 0
	s.heatFP = 0
}

// ZoomIn halves the number of descriptors in view, keeping buffer centre
// in view; ZoomOut doubles it.
func (s *PoolScene) ZoomIn(n, centre int) {
	if s.Zoom <= 16 {
		return
	}
	s.Zoom = max(16, s.Zoom/2)
	s.centreOn(n, centre)
}

// ZoomOut shows twice as many descriptors.
func (s *PoolScene) ZoomOut(n, centre int) {
	s.Zoom = min(n, s.Zoom*2)
	s.centreOn(n, centre)
}

func (s *PoolScene) centreOn(n, centre int) {
	if s.Zoom >= n {
		s.First = 0
		return
	}
	s.First = max(0, min(n-s.Zoom, centre-s.Zoom/2))
}

// Follow keeps buffer b in view when zoomed in.
func (s *PoolScene) Follow(n, b int) {
	if b < 0 || s.Zoom >= n {
		return
	}
	if b < s.First || b >= s.First+s.Zoom {
		s.centreOn(n, b)
	}
}

// BufferAt returns the descriptor drawn at (x, y), if any.
func (s *PoolScene) BufferAt(x, y float64) (int, bool) {
	for i, r := range s.cellRects {
		if r.Contains(x, y) {
			return s.First + i, true
		}
	}
	if s.heat != nil && s.lastRect.Contains(x, y) && s.heatCols > 0 {
		n := s.Zoom
		rows := (n + s.heatCols - 1) / s.heatCols
		cw, ch := s.lastRect.W/float64(s.heatCols), s.lastRect.H/float64(rows)
		c, r := int((x-s.lastRect.X)/cw), int((y-s.lastRect.Y)/ch)
		if id := s.First + r*s.heatCols + c; c < s.heatCols && id < s.First+n {
			return id, true
		}
	}
	return 0, false
}

// Draw draws the pool into r: a header line (clock hand, passes,
// freelist), then the descriptors.
func (s *PoolScene) Draw(dst *ebiten.Image, r render.Rect, p *view.Pool, th *render.Theme) {
	n := p.NBuffers()
	if s.Zoom <= 0 || s.Zoom > n {
		s.Reset(n)
	}
	ch := p.Changed()
	if cur, ok := p.Current(); ok && ch.Buffer >= 0 {
		_ = cur
		s.Follow(n, ch.Buffer)
	}
	small := th.Face(render.Regular, 12)
	header, body := r.SplitTop(render.LineHeight(small) * 2.4)
	s.drawHeader(dst, header, p, th)
	s.lastRect = body
	s.cellRects = s.cellRects[:0]
	if s.Zoom > DetailMax {
		s.drawHeat(dst, body, p, th)
		return
	}
	s.drawCells(dst, body, p, th)
}

func (s *PoolScene) drawHeader(dst *ebiten.Image, r render.Rect, p *view.Pool, th *render.Theme) {
	face := th.Face(render.Regular, 12)
	bold := th.Face(render.Bold, 12)
	n := p.NBuffers()
	ch := p.Changed()
	line1 := fmt.Sprintf("%d buffers (%s)   clock hand: buffer %d (nextVictimBuffer %d)   complete passes: %d",
		n, bufmgr.FormatSize(int64(n)*bufmgr.BLCKSZ), p.Hand(), p.ClockCounter(), p.CompletePasses())
	c := th.Text
	if ch.Clock {
		c = th.Highlight
		render.Fill(dst, render.Rect{X: r.X, Y: r.Y, W: render.TextWidth(line1, face) + 8, H: render.LineHeight(face)}, color.RGBA{0xfd, 0xf0, 0xd5, 0xff})
		c = th.Text
	}
	render.Text(dst, line1, face, r.X+4, r.Y, c, render.Left)
	free := p.Freelist()
	var fl string
	switch {
	case len(free) == 0:
		fl = "freelist: empty"
	default:
		var parts []string
		for i, id := range free {
			if i == 8 {
				parts = append(parts, fmt.Sprintf("… (%d buffers)", len(free)))
				break
			}
			parts = append(parts, fmt.Sprint(id))
		}
		fl = "freelist: " + strings.Join(parts, " → ")
	}
	if h := p.StrategyHolder(); h != 0 {
		fl += "    buffer_strategy_lock held by " + p.Lane(h).Name
	}
	y := r.Y + render.LineHeight(face)
	if ch.Freelist || ch.StrategyLock {
		render.Fill(dst, render.Rect{X: r.X, Y: y, W: render.TextWidth(fl, bold) + 8, H: render.LineHeight(face)}, color.RGBA{0xfd, 0xf0, 0xd5, 0xff})
		render.Text(dst, fl, bold, r.X+4, y, th.Text, render.Left)
	} else {
		render.Text(dst, fl, face, r.X+4, y, th.Text, render.Left)
	}
}

// grid picks columns and rows for k cells of aspect ~w:h in r.
func grid(k int, r render.Rect, aspect float64) (cols, rows int) {
	best, bestSize := 1, 0.0
	for c := 1; c <= k; c++ {
		rows := (k + c - 1) / c
		cw := r.W / float64(c)
		chh := r.H / float64(rows)
		size := min(cw, chh*aspect)
		if size > bestSize {
			best, bestSize = c, size
		}
	}
	return best, (k + best - 1) / best
}

func (s *PoolScene) drawCells(dst *ebiten.Image, r render.Rect, p *view.Pool, th *render.Theme) {
	n := p.NBuffers()
	k := min(s.Zoom, n-s.First)
	cols, rows := grid(k, r, 1.9)
	cw := r.W / float64(cols)
	chh := min(r.H/float64(rows), cw/1.3)
	ch := p.Changed()
	hand := p.Hand()
	for i := 0; i < k; i++ {
		id := s.First + i
		cell := render.Rect{X: r.X + float64(i%cols)*cw, Y: r.Y + float64(i/cols)*chh, W: cw, H: chh}.Inset(3)
		s.cellRects = append(s.cellRects, cell)
		drawCell(dst, cell, p, id, th, id == ch.Buffer, id == hand)
	}
}

// drawCell draws one descriptor: usage as a fill from the ramp and as a
// number, the tag, the refcount, and each flag as a labelled badge.
func drawCell(dst *ebiten.Image, c render.Rect, p *view.Pool, id int, th *render.Theme, changed, hand bool) {
	b := p.Buffer(id)
	u := b.Usage()
	fill := th.UsageRamp[min(u, 5)]
	if !b.TagValid() {
		fill = th.Free
	}
	render.Fill(dst, c, fill)
	tc := render.TextOn(fill)
	big := c.W > 70 && c.H > 44
	fs := 11.0
	if big {
		fs = 12
	}
	face := th.Face(render.Regular, fs)
	bold := th.Face(render.Bold, fs)
	lh := render.LineHeight(face)
	if c.W < render.TextWidth("#000 u5", face)+8 || c.H < lh+4 {
		// Too small for words (a narrow pane): the fill says the usage
		// count, a frame that the buffer is pinned, and the id fits alone
		// only if there is room for it.
		if b.Refcount() > 0 {
			render.Stroke(dst, c, 2, th.Pinned)
		}
		if c.W >= render.TextWidth(fmt.Sprint(id), th.Face(render.Regular, 8))+4 && c.H >= render.LineHeight(th.Face(render.Regular, 8)) {
			small := th.Face(render.Regular, 8)
			render.Text(dst, fmt.Sprint(id), small, c.X+c.W/2, c.Y+(c.H-render.LineHeight(small))/2, tc, render.Center)
		}
		if hand {
			render.Triangle(dst, c.X+c.W/2-4, c.Y-3, c.X+c.W/2+4, c.Y-3, c.X+c.W/2, c.Y+2, th.Text)
		}
		if changed {
			render.Stroke(dst, c.Inset(-2), 2, th.Highlight)
		}
		return
	}
	render.Text(dst, fmt.Sprintf("#%d", id), bold, c.X+4, c.Y+2, tc, render.Left)
	tag := "free"
	if b.OnFreelist() && !b.TagValid() {
		tag = "free"
	} else if !b.TagValid() {
		tag = "-"
	} else {
		tag = p.TagString(b.Tag)
	}
	if c.H > lh*2.2 {
		render.Text(dst, tag, face, c.X+4, c.Y+2+lh, tc, render.Left)
	}
	if c.H > lh*3.2 {
		render.Text(dst, fmt.Sprintf("rc %d  u %d", b.Refcount(), u), face, c.X+4, c.Y+2+2*lh, tc, render.Left)
	} else {
		render.Text(dst, fmt.Sprintf("u%d", u), face, c.X+c.W-4, c.Y+2, tc, render.Right)
	}
	// Flags as badges along the bottom: shape + letters.
	var badges []struct {
		label string
		col   color.RGBA
	}
	if b.Has(bufmgr.BmLocked) {
		badges = append(badges, struct {
			label string
			col   color.RGBA
		}{"LOCK", th.Locked})
	}
	if b.Has(bufmgr.BmDirty) {
		badges = append(badges, struct {
			label string
			col   color.RGBA
		}{"DIRTY", th.Dirty})
	}
	if b.Has(bufmgr.BmIOInProgress) {
		badges = append(badges, struct {
			label string
			col   color.RGBA
		}{"IO", th.IO})
	}
	if b.TagValid() && !b.Has(bufmgr.BmValid) && !b.Has(bufmgr.BmIOInProgress) {
		badges = append(badges, struct {
			label string
			col   color.RGBA
		}{"!VALID", th.Error})
	}
	bx := c.X + 3
	small := th.Face(render.Bold, 9)
	for _, bd := range badges {
		w := render.TextWidth(bd.label, small) + 6
		br := render.Rect{X: bx, Y: c.Y + c.H - render.LineHeight(small) - 3, W: w, H: render.LineHeight(small) + 1}
		if br.X+br.W > c.X+c.W {
			break
		}
		render.Fill(dst, br, bd.col)
		render.Text(dst, bd.label, small, br.X+3, br.Y, render.TextOn(bd.col), render.Left)
		bx += w + 2
	}
	// Dirty: also a folded corner.
	if b.Has(bufmgr.BmDirty) {
		d := min(c.W, c.H) * 0.22
		render.Triangle(dst, c.X+c.W-d, c.Y, c.X+c.W, c.Y, c.X+c.W, c.Y+d, th.Dirty)
	}
	// Pinned: a thick border and the pin count.
	if rc := b.Refcount(); rc > 0 {
		render.Stroke(dst, c, 3, th.Pinned)
		pl := fmt.Sprintf("PIN %d", rc)
		w := render.TextWidth(pl, small) + 6
		br := render.Rect{X: c.X + c.W - w - 2, Y: c.Y + c.H - render.LineHeight(small) - 3, W: w, H: render.LineHeight(small) + 1}
		render.Fill(dst, br, th.Pinned)
		render.Text(dst, pl, small, br.X+3, br.Y, render.TextOn(th.Pinned), render.Left)
	} else {
		render.Stroke(dst, c, 1, th.PanelEdge)
	}
	if changed {
		render.Stroke(dst, c.Inset(-3), 3, th.Highlight)
	}
	if hand {
		// The clock hand: an arrow pointing down at the cell, labelled.
		x := c.X + c.W/2
		render.Triangle(dst, x-6, c.Y-2, x+6, c.Y-2, x, c.Y+6, th.Text)
		if c.H > lh*3.2 && render.TextWidth(tag, face)+render.TextWidth("hand", small)+12 < c.W {
			render.Text(dst, "hand", small, c.X+c.W-4, c.Y+2+lh, tc, render.Right)
		}
	}
}

// heatColour is the heat-map colour of one descriptor: the usage ramp for
// tagged buffers, the free colour otherwise, pinned buffers in the pinned
// colour, dirty ones in the dirty colour. (The heat map's legend names each
// colour; zooming in shows the labels.)
func heatColour(b view.Buffer, th *render.Theme) color.RGBA {
	switch {
	case b.Refcount() > 0:
		return th.Pinned
	case b.Has(bufmgr.BmDirty):
		return th.Dirty
	case !b.TagValid():
		return th.Free
	}
	return th.UsageRamp[min(b.Usage(), 5)]
}

func (s *PoolScene) drawHeat(dst *ebiten.Image, r render.Rect, p *view.Pool, th *render.Theme) {
	legendH := render.LineHeight(th.Face(render.Regular, 11)) + 6
	r, legend := r.SplitBottom(legendH)
	k := s.Zoom
	cols, rows := grid(k, r, 1)
	// One texel per descriptor, rebuilt only when the pool changed.
	if s.heat == nil || s.heatCols != cols || s.heat.Bounds().Dy() != rows {
		s.heat = ebiten.NewImage(cols, rows)
		s.heatPixels = make([]byte, 4*cols*rows)
		s.heatCols = cols
		s.heatFP = 0
	}
	fp := p.Fingerprint() ^ uint64(s.First)<<40 ^ uint64(k)
	if fp != s.heatFP {
		px := s.heatPixels
		clear(px)
		for i := 0; i < k && s.First+i < p.NBuffers(); i++ {
			c := heatColour(p.Buffer(s.First+i), th)
			px[4*i], px[4*i+1], px[4*i+2], px[4*i+3] = c.R, c.G, c.B, 0xff
		}
		s.heat.WritePixels(px)
		s.heatFP = fp
	}
	sc := min(r.W/float64(cols), r.H/float64(rows))
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Scale(sc, sc)
	op.GeoM.Translate(r.X, r.Y)
	op.Filter = ebiten.FilterNearest
	dst.DrawImage(s.heat, op)
	s.lastRect = render.Rect{X: r.X, Y: r.Y, W: sc * float64(cols), H: sc * float64(rows)}
	// Highlight the changed buffer and the hand with outlines.
	mark := func(id int, c color.Color, w float64) {
		i := id - s.First
		if i < 0 || i >= k {
			return
		}
		x, y := r.X+float64(i%cols)*sc, r.Y+float64(i/cols)*sc
		render.Stroke(dst, render.Rect{X: x - 2, Y: y - 2, W: sc + 4, H: sc + 4}, w, c)
	}
	mark(p.Hand(), th.Text, 2)
	if ch := p.Changed(); ch.Buffer >= 0 {
		mark(ch.Buffer, th.Highlight, 2)
	}
	drawHeatLegend(dst, legend, th, s.First, k, p.NBuffers())
}

func drawHeatLegend(dst *ebiten.Image, r render.Rect, th *render.Theme, first, k, n int) {
	face := th.Face(render.Regular, 11)
	x := r.X + 2
	y := r.Y + 4
	item := func(c color.RGBA, label string) {
		render.Fill(dst, render.Rect{X: x, Y: y + 2, W: 12, H: 12}, c)
		render.Stroke(dst, render.Rect{X: x, Y: y + 2, W: 12, H: 12}, 1, th.PanelEdge)
		render.Text(dst, label, face, x+15, y, th.Text, render.Left)
		x += 15 + render.TextWidth(label, face) + 10
	}
	item(th.Free, "free")
	for u := 0; u <= 5; u++ {
		item(th.UsageRamp[u], fmt.Sprintf("usage %d", u))
	}
	item(th.Pinned, "pinned")
	item(th.Dirty, "dirty")
	if label := fmt.Sprintf("buffers %d–%d of %d (wheel zooms)", first, first+k-1, n); x+render.TextWidth(label, face) < r.X+r.W-4 {
		render.Text(dst, label, face, r.X+r.W-4, y, th.Muted, render.Right)
	}
}
