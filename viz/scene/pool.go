package scene

import (
	"fmt"
	"hash/fnv"
	"image/color"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/viz/layout"
	view "bufferlab/viz/poolview"
)

// DetailMax is the most descriptors drawn as individual cells; larger
// pools are drawn as a heat map until zoomed in to this many or fewer.
const DetailMax = 256

// PoolScene lays out the descriptors (StrategyControl's view of
// BufferDescriptors). It keeps the zoom and the heat map's pixels between
// frames, and the rects of the last layout for hit testing; it reads the
// pool only through its view.
type PoolScene struct {
	// Zoom is how many descriptors are in view: NBuffers when zoomed out,
	// down to 16. First is the first descriptor in view.
	Zoom, First int

	// The heat map: one RGBA texel per descriptor in view, recomputed only
	// when the pool's Version, First or Zoom changed (heatVer, heatAt),
	// and the grid it was laid out in; heatFP is the texels' hash, the
	// image's key (the painter uploads a texture when it changes).
	// heatShown says the last layout drew it.
	heatPixels         []byte
	heatFP             uint64
	heatVer            uint64
	heatAt             [2]int
	heatCols, heatRows int
	heatShown          bool
	lastRect           layout.Rect
	cellRects          []layout.Rect // detail mode: screen rects of descriptors First..
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

// BufferAt returns the descriptor the last layout put at (x, y), if any:
// a cell's rect in detail mode, the texel under it in the heat map.
func (s *PoolScene) BufferAt(x, y float64) (int, bool) {
	for i, r := range s.cellRects {
		if r.Contains(x, y) {
			return s.First + i, true
		}
	}
	if s.heatShown && s.lastRect.Contains(x, y) && s.heatCols > 0 {
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

// HeatShown reports whether the last layout drew the heat map (more than
// DetailMax descriptors in view) rather than cells: the pool legend's heat
// part (PoolLegend.Heat) is for it.
func (s *PoolScene) HeatShown() bool { return s.heatShown }

// Layout lays the pool out in r: a header (clock hand, passes, freelist),
// then the descriptors, as cells when DetailMax or fewer are in view and
// as a heat map otherwise. It follows the changed buffer when zoomed in.
// Cost: a cell's worth of items per descriptor in view (at most
// DetailMax); the heat map is one image item whose pixels are recomputed
// only when the pool, the zoom or the grid changed.
func (s *PoolScene) Layout(l *layout.List, r layout.Rect, p *view.Pool, th *layout.Theme) {
	n := p.NBuffers()
	if s.Zoom <= 0 || s.Zoom > n {
		s.Reset(n)
	}
	if ch := p.Changed(); ch.Buffer >= 0 {
		if _, ok := p.Current(); ok {
			s.Follow(n, ch.Buffer)
		}
	}
	small := th.Font(layout.Regular, 12)
	lh := layout.LineHeight(small)
	s.lastRect = r
	s.cellRects = s.cellRects[:0]
	s.heatShown = false
	// A heat map under about three lines high (a projector's low pane,
	// whose height goes to the backends' lanes) is a grey strip from the
	// back of a room: the pool's header says its size and clock instead,
	// in the lines there are.
	if s.Zoom > DetailMax && r.H < 3.2*lh && r.H >= lh {
		layoutPoolHeader(l, r, p, th, min(2, int(r.H/lh)))
		return
	}
	// The header's two lines where the pool has room for them and a few
	// rows of cells; one line, or none, in a low pane.
	var header, body layout.Rect
	switch {
	case r.H >= 6*lh:
		header, body = r.SplitTop(lh * 2.4)
		layoutPoolHeader(l, header, p, th, 2)
	case r.H >= 3*lh:
		header, body = r.SplitTop(lh * 1.2)
		layoutPoolHeader(l, header, p, th, 1)
	default:
		body = r
	}
	s.lastRect = body
	s.cellRects = s.cellRects[:0]
	s.heatShown = false
	if s.Zoom > DetailMax {
		s.layoutHeat(l, body, p, th)
		return
	}
	s.layoutCells(l, body, p, th)
}

// layoutPoolHeader lays out the header's lines (two, or the first): the pool's size and
// StrategyControl's clock (nextVictimBuffer, completePasses), then the
// freelist and the holder of buffer_strategy_lock, each on a highlight
// when the current event changed it.
func layoutPoolHeader(l *layout.List, r layout.Rect, p *view.Pool, th *layout.Theme, lines int) {
	face := th.Font(layout.Regular, 12)
	bold := th.Font(layout.Bold, 12)
	n := p.NBuffers()
	ch := p.Changed()
	lh := layout.LineHeight(face)
	// The clock line's forms, longest first: StrategyControl's fields by
	// name, then the hand and the passes, then the hand alone.
	size := bufmgr.FormatSize(int64(n) * bufmgr.BLCKSZ)
	forms := []string{
		fmt.Sprintf("%d buffers (%s)   clock hand: buffer %d (nextVictimBuffer %d)   complete passes: %d", n, size, p.Hand(), p.ClockCounter(), p.CompletePasses()),
		fmt.Sprintf("%d buffers (%s)   hand: buffer %d   passes: %d", n, size, p.Hand(), p.CompletePasses()),
		fmt.Sprintf("%d buffers   hand %d   passes %d", n, p.Hand(), p.CompletePasses()),
		fmt.Sprintf("hand %d", p.Hand()),
	}
	box := layout.Rect{X: r.X + 4, Y: r.Y, W: r.W - 4, H: lh}
	if ch.Clock {
		l.Fill("pool header", layout.Rect{X: r.X, Y: r.Y, W: min(r.W, layout.Width(firstFit(forms, face, box.W), face)+8), H: lh}, th.HighlightFill)
	}
	l.TextForms("pool header", forms, face, box, th.Text, layout.Left)
	if lines < 2 {
		return
	}
	// The freelist line's forms: its first 8, 7, … buffers then how many
	// it holds, with the holder of buffer_strategy_lock; then the count
	// alone, in words, then short.
	free, nfree := p.FreelistHead(8)
	lock := ""
	if h := p.StrategyHolder(); h != 0 {
		lock = "    buffer_strategy_lock held by " + p.Lane(h).Name
	}
	var fls []string
	if nfree == 0 {
		fls = []string{"freelist: empty" + lock, "freelist: empty"}
	} else {
		for k := len(free); k >= 1; k-- {
			var parts []string
			for _, id := range free[:k] {
				parts = append(parts, fmt.Sprint(id))
			}
			if k < nfree {
				parts = append(parts, fmt.Sprintf("… (%d buffers)", nfree))
			}
			fls = append(fls, "freelist: "+strings.Join(parts, " → ")+lock)
		}
		fls = append(fls, fmt.Sprintf("freelist: %d buffers", nfree), fmt.Sprintf("free: %d", nfree))
		if lock != "" {
			fls = append(fls[:len(fls)-2], fmt.Sprintf("freelist: %d buffers%s", nfree, lock), fls[len(fls)-2], fls[len(fls)-1])
		}
	}
	f := face
	if ch.Freelist || ch.StrategyLock {
		f = bold
	}
	fbox := layout.Rect{X: r.X + 4, Y: r.Y + lh, W: r.W - 4, H: lh}
	if ch.Freelist || ch.StrategyLock {
		l.Fill("freelist", layout.Rect{X: r.X, Y: fbox.Y, W: min(r.W, layout.Width(firstFit(fls, f, fbox.W), f)+8), H: lh}, th.HighlightFill)
	}
	l.TextForms("freelist", fls, f, fbox, th.Text, layout.Left)
}

// firstFit is the first of forms no wider than w (the last when none is):
// the form TextForms will draw, for what is laid out around it.
func firstFit(forms []string, f layout.Font, w float64) string {
	for _, s := range forms {
		if layout.Width(s, f) <= w+0.5 {
			return s
		}
	}
	return forms[len(forms)-1]
}

// grid picks columns and rows for k cells of aspect ~w:h in r: the
// column count that makes the cells largest (ties: the fewest columns).
func grid(k int, r layout.Rect, aspect float64) (cols, rows int) {
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

func (s *PoolScene) layoutCells(l *layout.List, r layout.Rect, p *view.Pool, th *layout.Theme) {
	n := p.NBuffers()
	k := min(s.Zoom, n-s.First)
	cols, rows := grid(k, r, 1.9)
	cw := r.W / float64(cols)
	chh := min(r.H/float64(rows), cw/1.3)
	ch := p.Changed()
	hand := p.Hand()
	tr := p.Trails()
	// The gap between cells is 6 px, or a third of a small cell's side: a
	// fixed 6 px left a 9 px row a 3 px sliver, read as a dash.
	inset := min(3, min(cw, chh)/6)
	for i := 0; i < k; i++ {
		id := s.First + i
		cell := layout.Rect{X: r.X + float64(i%cols)*cw, Y: r.Y + float64(i/cols)*chh, W: cw, H: chh}.Inset(inset)
		s.cellRects = append(s.cellRects, cell)
		layoutCell(l, cell, p, id, th, tr.Cell(id), id == ch.Buffer, id == hand)
	}
}

// layoutCellTrail lays out the frame of descriptor cell c's part in the
// trail shown (role "cell N trail"), over the cell, from the pool table's
// trail encodings: examined by a drop, a thick yellow frame inside the
// cell; a member of a scan's ring, the frame dashed, its gaps in
// Trail.Edge (and the RING badge where the cell has room for badges). A
// thin line in Trail.Edge keeps the yellow apart from a light fill. The
// rest lies under the text (layoutCellTrailUnder). Cost: two or three
// items a framed cell.
func layoutCellTrail(l *layout.List, role string, c layout.Rect, m view.TrailMark, th *layout.Theme) {
	if trailSliver(c) {
		return // layoutCellTrailUnder filled it
	}
	enc := PoolEncodings(th)
	e := enc.TrailExamined
	switch {
	case m.Marks&view.MarkRing != 0:
		e = enc.TrailRing
	case m.Marks&view.MarkExamined == 0:
		return
	}
	if min(c.W, c.H) < 5*e.EdgeWidth {
		e.EdgeWidth = max(1.5, min(c.W, c.H)/5) // a sliver of a cell keeps its middle
	}
	l.Stroke(role+" trail", c, 1, th.Trail.Edge)
	in := c.Inset(e.EdgeWidth/2 + 0.5)
	if e.EdgeStyle != layout.EdgeSolid {
		l.Stroke(role+" trail", in, e.EdgeWidth, th.Trail.Edge)
	}
	l.Outline(role+" trail", in, e)
}

// layoutCellTrailUnder lays out, under the cell's text, the rest of
// descriptor cell c's part in the trail shown: passed by the clock hand,
// a yellow band along the bottom (the hand's path, underlining each
// buffer it passed, below a tall cell's lines of text), dark where the
// hand stopped (the victim whose page it threw out), with a line in
// Trail.Edge over it; invalidated by a drop, crossed out corner to
// corner in Trail.Gone on a halo of the panel's colour (so it shows on
// every usage shade), thin enough that the words over it read. Cost: at
// most six items.
func layoutCellTrailUnder(l *layout.List, role string, c layout.Rect, m view.TrailMark, th *layout.Theme) {
	role += " trail"
	enc := PoolEncodings(th)
	if trailSliver(c) {
		// Too small for a frame, a band or a cross (a phone's stacked
		// panes): the whole cell in the heat map's trail colours.
		if m.Marks != 0 {
			heat := HeatEncodings(th)
			col := heat.Trail.Fill
			if m.Marks&(view.MarkDropped|view.MarkEvicted) != 0 {
				col = heat.Gone.Fill
			}
			l.Fill(role, c, col)
		}
		return
	}
	if m.Marks&(view.MarkSwept|view.MarkEvicted) != 0 {
		band := enc.TrailSwept
		if m.Marks&view.MarkEvicted != 0 {
			band = enc.TrailEvicted
		}
		h := min(max(3, c.H*0.2), 10)
		l.Fill(role, layout.Rect{X: c.X, Y: c.Y + c.H - h, W: c.W, H: h}, band.MarkColor)
		l.Fill(role, layout.Rect{X: c.X, Y: c.Y + c.H - h - 1, W: c.W, H: 1}, th.Trail.Edge)
	}
	if m.Marks&view.MarkDropped != 0 {
		in := c.Inset(min(c.W, c.H) * 0.12)
		w := min(max(1.5, min(c.W, c.H)*0.1), 3)
		for _, ln := range []struct {
			col color.RGBA
			w   float64
		}{{th.Panel, w + 2}, {enc.TrailGone.MarkColor, w}} {
			l.Line(role, in.X, in.Y, in.X+in.W, in.Y+in.H, ln.w, ln.col)
			l.Line(role, in.X, in.Y+in.H, in.X+in.W, in.Y, ln.w, ln.col)
		}
	}
}

// trailSliver reports whether cell c is too small for a trail's shapes
// (under 8 px on a side): its trail is drawn as the heat map draws it.
func trailSliver(c layout.Rect) bool { return min(c.W, c.H) < 8 }

// The badges a cell draws for its flags (the pool legend explains each).
const (
	cellBadgeLock    = "LOCK"
	cellBadgeDirty   = "DIRTY"
	cellBadgeIO      = "IO"
	cellBadgeInvalid = "!VALID"
	cellBadgeRing    = "RING" // the trail's: a member of the scan's ring
)

// badge is a flag drawn as a labelled box along a cell's bottom edge.
type badge struct {
	label string
	col   color.RGBA
}

// name is the badge's label, or its short form: its first letter ("!V"
// for !VALID, "IO" stays).
func (b badge) name(short bool) string {
	switch {
	case !short || len(b.label) <= 2:
		return b.label
	case b.label[0] == '!':
		return b.label[:2]
	}
	return b.label[:1]
}

// layoutCell lays out one descriptor: usage as a fill from the ramp and as
// a number, the tag, the refcount, and each flag as a labelled badge. A
// cell too small for words shows the usage count by its fill and a pin by
// a frame (cellWords records what is left out).
func layoutCell(l *layout.List, c layout.Rect, p *view.Pool, id int, th *layout.Theme, trail view.TrailMark, changed, hand bool) {
	role := fmt.Sprintf("cell %d", id)
	b := p.Buffer(id)
	u := b.Usage()
	enc := PoolEncodings(th)
	base := enc.Usage[min(u, 5)]
	if !b.TagValid() {
		base = enc.Free
	}
	fill := base.Fill
	l.Fill(role, c, fill)
	if b.Has(bufmgr.BmIOInProgress) {
		// I/O in progress: the hatch, under the text.
		l.PatternOver(role, c, enc.IO)
	}
	layoutCellTrailUnder(l, role, c, trail, th)
	tc := layout.TextOn(fill)
	big := c.W > 70 && c.H > 44
	fs := 11.0
	if big {
		fs = 12
	}
	face := th.Font(layout.Regular, fs)
	bold := th.Font(layout.Bold, fs)
	lh := layout.LineHeight(face)
	// The cell's forms, by its size: the id, the tag, "rc N  u N" and
	// the flags' badges; in a shorter cell the id with the usage count
	// beside it and the tag; then the id and the usage count; then the id
	// alone; then nothing. The fill always says the usage count, a thick
	// frame a pin, the folded corner a dirty page, and the tooltip all of
	// it.
	if c.W < layout.Width("#000 u5", face)+8 || c.H < lh+4 {
		if b.Refcount() > 0 {
			l.Stroke(role, c, 2, enc.Pinned.Edge)
		}
		l.TextForms(role, []string{fmt.Sprint(id), ""}, th.Font(layout.Regular, 8), c, tc, layout.Center)
		layoutCellTrail(l, role, c, trail, th)
		if hand {
			l.Triangle("clock hand", layout.Point{X: c.X + c.W/2 - 4, Y: c.Y - 3}, layout.Point{X: c.X + c.W/2 + 4, Y: c.Y - 3}, layout.Point{X: c.X + c.W/2, Y: c.Y + 2}, th.Text)
		}
		if changed {
			l.Stroke("changed", c.Inset(-2), 2, th.Highlight)
		}
		return
	}
	inner := layout.Rect{X: c.X + 4, Y: c.Y + 2, W: c.W - 8, H: lh}
	l.TextForms(role, []string{fmt.Sprintf("#%d", id), fmt.Sprint(id)}, bold, inner, tc, layout.Left)
	tag := "free"
	if b.OnFreelist() && !b.TagValid() {
		tag = "free"
	} else if !b.TagValid() {
		tag = "-"
	} else {
		tag = p.TagString(b.Tag)
	}
	textBottom := inner.Y + lh
	if c.H > lh*2.2 {
		l.TextForms(role, []string{tag, ""}, face, layout.Rect{X: inner.X, Y: inner.Y + lh, W: inner.W, H: lh}, tc, layout.Left)
		textBottom += lh
	}
	if c.H > lh*3.2 {
		textBottom += lh
		l.TextForms(role, []string{fmt.Sprintf("rc %d  u %d", b.Refcount(), u), fmt.Sprintf("rc%d u%d", b.Refcount(), u), ""}, face,
			layout.Rect{X: inner.X, Y: inner.Y + 2*lh, W: inner.W, H: lh}, tc, layout.Left)
	} else {
		idW := layout.Width(fmt.Sprintf("#%d ", id), bold)
		l.TextForms(role, []string{fmt.Sprintf("u%d", u), ""}, face, layout.Rect{X: inner.X + idW, Y: inner.Y, W: inner.W - idW, H: lh}, tc, layout.Right)
	}
	// Flags as badges along the bottom: shape + letters.
	var badges []badge
	if b.Has(bufmgr.BmLocked) {
		badges = append(badges, badge{cellBadgeLock, enc.Locked.MarkColor})
	}
	if b.Has(bufmgr.BmDirty) {
		badges = append(badges, badge{cellBadgeDirty, enc.Dirty.MarkColor})
	}
	if b.Has(bufmgr.BmIOInProgress) {
		badges = append(badges, badge{cellBadgeIO, enc.IO.MarkColor})
	}
	if b.TagValid() && !b.Has(bufmgr.BmValid) && !b.Has(bufmgr.BmIOInProgress) {
		badges = append(badges, badge{cellBadgeInvalid, th.Error})
	}
	if trail.Marks&view.MarkRing != 0 {
		badges = append(badges, badge{cellBadgeRing, enc.TrailRing.Edge})
	}
	bx := c.X + 3
	small := th.Font(layout.Bold, 9)
	by := c.Y + c.H - layout.LineHeight(small) - 3
	// The badges' forms: their names, then their first letters where the
	// names do not all fit; none in a cell too short for a row of them
	// under its text (the frame, the corner and the tooltip say it).
	var pin string
	if rc := b.Refcount(); rc > 0 {
		pin = fmt.Sprintf("PIN %d", rc)
	}
	rowW := func(short bool) float64 {
		w := 0.0
		for _, bd := range badges {
			w += layout.Width(bd.name(short), small) + 8
		}
		if pin != "" {
			w += layout.Width(pin, small) + 8
		}
		return w
	}
	shortBadges := rowW(false) > c.W-4
	showBadges := by >= textBottom && rowW(true) <= c.W-4
	for _, bd := range badges {
		if !showBadges {
			break
		}
		lbl := bd.name(shortBadges)
		w := layout.Width(lbl, small) + 6
		br := layout.Rect{X: bx, Y: by, W: w, H: layout.LineHeight(small) + 1}
		l.Fill(role+" badge", br, bd.col)
		l.Text(role+" badge", lbl, small, br.X+3, br.Y, 0, layout.TextOn(bd.col), layout.Left)
		bx += w + 2
	}
	// Dirty: also a folded corner.
	if b.Has(bufmgr.BmDirty) {
		d := min(c.W, c.H) * 0.22
		l.Triangle(role+" dirty", layout.Point{X: c.X + c.W - d, Y: c.Y}, layout.Point{X: c.X + c.W, Y: c.Y}, layout.Point{X: c.X + c.W, Y: c.Y + d}, enc.Dirty.MarkColor)
	}
	// Pinned: a thick border and the pin count.
	if pin != "" {
		l.Outline(role, c, enc.Pinned)
		if showBadges {
			w := layout.Width(pin, small) + 6
			br := layout.Rect{X: c.X + c.W - w - 2, Y: by, W: w, H: layout.LineHeight(small) + 1}
			l.Fill(role+" pin", br, enc.Pinned.MarkColor)
			l.Text(role+" pin", pin, small, br.X+3, br.Y, 0, layout.TextOn(enc.Pinned.MarkColor), layout.Left)
		}
	} else {
		l.Outline(role, c, base)
	}
	layoutCellTrail(l, role, c, trail, th)
	if changed {
		l.Stroke("changed", c.Inset(-3), 3, th.Highlight)
	}
	if hand {
		// The clock hand: an arrow pointing down at the cell, labelled.
		x := c.X + c.W/2
		l.Triangle("clock hand", layout.Point{X: x - 6, Y: c.Y - 2}, layout.Point{X: x + 6, Y: c.Y - 2}, layout.Point{X: x, Y: c.Y + 6}, th.Text)
		if c.H > lh*3.2 && layout.Width(tag, face)+layout.Width("hand", small)+12 < c.W {
			l.Text("clock hand", "hand", small, c.X+c.W-4, c.Y+2+lh, 0, tc, layout.Right)
		}
	}
}

// heatColour is the heat-map colour of one descriptor (HeatEncodings):
// the usage ramp for tagged buffers, the free colour otherwise, pinned
// buffers in the pinned colour, dirty ones in the dirty colour; and over
// them all, a mark of the trail shown: yellow where the operation passed,
// its Gone colour where it threw the page out. (The heat map's legend
// names each colour; zooming in shows the labels.)
func heatColour(b view.Buffer, m view.TrailMark, enc *HeatStates) color.RGBA {
	switch {
	case m.Marks&(view.MarkDropped|view.MarkEvicted) != 0:
		return enc.Gone.Fill
	case m.Marks != 0:
		return enc.Trail.Fill
	case b.Refcount() > 0:
		return enc.Pinned.Fill
	case b.Has(bufmgr.BmDirty):
		return enc.Dirty.Fill
	case !b.TagValid():
		return enc.Free.Fill
	}
	return enc.Usage[min(b.Usage(), 5)].Fill
}

// heatTrailBoxes is the most trail marks the heat map also frames: a
// handful of hops (a lookup's, a dlist's) stays visible where a texel is
// a pixel or two, while a scan's thousands show as a yellow area.
const heatTrailBoxes = 64

// layoutHeat lays out the heat map: one texel per descriptor in view, in
// the grid of square cells that fills r best, scaled by the same factor
// both ways (the painter scales nearest-neighbour, so each descriptor is
// a sharp-edged square), outlines on the clock hand and the changed
// buffer and, when the trail shown marks a handful of descriptors in
// view, on each of them; and the legend below.
// Cost: the texels are recomputed (a read of every descriptor in view
// and its trail mark) only when the view's fingerprint, the zoom or the
// grid changed; the trail's boxes cost a pass over the descriptors in
// view every layout (a word each).
func (s *PoolScene) layoutHeat(l *layout.List, r layout.Rect, p *view.Pool, th *layout.Theme) {
	k := s.Zoom
	// The legend has the trail's two swatches while a trail marks a
	// descriptor in view.
	tr := p.Trails()
	trailInView := false
	if tr.Any() {
		for i := 0; i < k && s.First+i < p.NBuffers() && !trailInView; i++ {
			trailInView = tr.Cell(s.First+i).Marks != 0
		}
	}
	form, noRange, legendRows := heatLegendForm(th, r.W, r.H, s.First, k, p.NBuffers(), trailInView)
	legendH := 0.0
	if legendRows > 0 {
		legendH = float64(legendRows)*layout.LineHeight(th.Font(layout.Regular, 11)) + 6
	}
	r, legend := r.SplitBottom(legendH)
	cols, rows := grid(k, r, 1)
	// One texel per descriptor, recomputed only when the pool changed.
	if s.heatCols != cols || s.heatRows != rows || len(s.heatPixels) != 4*cols*rows {
		s.heatPixels = make([]byte, 4*cols*rows)
		s.heatCols, s.heatRows = cols, rows
		s.heatFP = 0
	}
	// Recomputed when the pool changed (Version, O(1)), not by hashing the
	// pool (its Fingerprint reads every descriptor: 5 ms a frame at 1GB);
	// the key is the texels' own hash, so an unchanged picture (an event
	// that touched no descriptor's colour) uploads nothing.
	if at := [2]int{s.First, k}; s.heatFP == 0 || p.Version() != s.heatVer || at != s.heatAt {
		px := s.heatPixels
		clear(px)
		enc := HeatEncodings(th)
		for i := 0; i < k && s.First+i < p.NBuffers(); i++ {
			c := heatColour(p.Buffer(s.First+i), tr.Cell(s.First+i), &enc)
			px[4*i], px[4*i+1], px[4*i+2], px[4*i+3] = c.R, c.G, c.B, 0xff
		}
		h := fnv.New64a()
		h.Write(px)
		s.heatFP, s.heatVer, s.heatAt = h.Sum64()|1, p.Version(), at
	}
	fp := s.heatFP
	sc := min(r.W/float64(cols), r.H/float64(rows))
	s.lastRect = layout.Rect{X: r.X, Y: r.Y, W: sc * float64(cols), H: sc * float64(rows)}
	s.heatShown = true
	l.Image("heat map", s.lastRect, s.heatPixels, cols, rows, fp)
	// Highlight the changed buffer and the hand with outlines.
	box := func(id int) (layout.Rect, bool) {
		i := id - s.First
		if i < 0 || i >= k {
			return layout.Rect{}, false
		}
		x, y := r.X+float64(i%cols)*sc, r.Y+float64(i/cols)*sc
		return layout.Rect{X: x - 2, Y: y - 2, W: sc + 4, H: sc + 4}, true
	}
	mark := func(role string, id int, c color.RGBA, w float64) {
		if b, ok := box(id); ok {
			l.Stroke(role, b, w, c)
		}
	}
	marked := 0
	if tr.Any() {
		var ids []int
		for i := 0; i < k && s.First+i < p.NBuffers(); i++ {
			if tr.Cell(s.First+i).Marks != 0 {
				marked++
				if len(ids) <= heatTrailBoxes {
					ids = append(ids, s.First+i)
				}
			}
		}
		if marked <= heatTrailBoxes {
			// At least 12 px (scaled) a box, centred on its texel but
			// moved inside the map at its edges (the pane clips what is
			// outside): a texel of a pixel or two still gets a mark one
			// can see.
			grow := max(0, th.Px(12)-(sc+4)) / 2
			lim := s.lastRect.Inset(-1)
			for _, id := range ids {
				if b, ok := box(id); ok {
					b = b.Inset(-grow)
					b.X = max(lim.X, min(b.X, lim.X+lim.W-b.W))
					b.Y = max(lim.Y, min(b.Y, lim.Y+lim.H-b.H))
					l.Stroke("trail", b.Inset(-1), 1, th.Trail.Edge)
					l.Stroke("trail", b, 2, th.Trail.Mark)
				}
			}
		}
	}
	mark("clock hand", p.Hand(), th.Text, 2)
	if ch := p.Changed(); ch.Buffer >= 0 {
		mark("changed", ch.Buffer, th.Highlight, 2)
	}
	if legendRows > 0 {
		layoutHeatLegend(l, legend, th, s.First, k, p.NBuffers(), trailInView, form, noRange)
	}
}

// heatLegendItem is one entry of the heat map's legend: its swatches (one,
// or the usage counts' ramp in the compact form) and its name.
type heatLegendItem struct {
	cs    []color.RGBA
	label string
}

// heatSwatch and heatRampStep are a swatch's size and a ramp's step.
const heatSwatch, heatRampStep = 12, 9

// width is the entry's width with face: its swatches, then its name.
func (it heatLegendItem) width(face layout.Font) float64 {
	return float64(len(it.cs)-1)*heatRampStep + 15 + layout.Width(it.label, face)
}

// heatLegendForms are the heat map legend's forms, fullest first: free,
// each usage count, pinned, dirty (and the trail's two colours while a
// trail marks a descriptor in view); then the usage counts as one ramp,
// "usage 0–5"; then free and the ramp alone; then the ramp alone. A
// smaller form leaves out what the pool legend (L) still explains.
const heatLegendForms = 4

// heatLegendItems are the entries of form f (0 the fullest).
func heatLegendItems(th *layout.Theme, trail bool, f int) []heatLegendItem {
	enc := HeatEncodings(th)
	one := func(c color.RGBA, label string) heatLegendItem { return heatLegendItem{[]color.RGBA{c}, label} }
	var ramp []color.RGBA
	for _, e := range enc.Usage {
		ramp = append(ramp, e.Fill)
	}
	rampItem := heatLegendItem{ramp, fmt.Sprintf("usage 0–%d", len(enc.Usage)-1)}
	if f >= 3 {
		return []heatLegendItem{rampItem}
	}
	items := []heatLegendItem{one(enc.Free.Fill, "free")}
	if f == 0 {
		for u, e := range enc.Usage {
			items = append(items, one(e.Fill, fmt.Sprintf("usage %d", u)))
		}
	} else {
		items = append(items, rampItem)
	}
	if f == 2 {
		return items
	}
	items = append(items, one(enc.Pinned.Fill, "pinned"), one(enc.Dirty.Fill, "dirty"))
	if trail {
		items = append(items, one(enc.Trail.Fill, "trail"), one(enc.Gone.Fill, "gone"))
	}
	return items
}

// heatLegendFlow places the legend's entries left to right in rows of
// width w, a new row when the next one does not fit, and then the range of
// buffers in view, right-aligned on the last row or on a row of its own.
// It calls place for each entry (x from the left edge, row from 0) and
// returns the rows used and the range's row.
func heatLegendFlow(th *layout.Theme, w float64, items []heatLegendItem, rangeLabel string, place func(it heatLegendItem, x float64, row int)) (rows, rangeRow int) {
	face := th.Font(layout.Regular, 11)
	x, row := 2.0, 0
	for _, it := range items {
		iw := it.width(face)
		if x > 2 && x+iw > w-8 {
			x, row = 2, row+1
		}
		if place != nil {
			place(it, x, row)
		}
		x += iw + 10
	}
	rangeRow = row
	if x+layout.Width(rangeLabel, face) >= w-4 {
		rangeRow = row + 1 // a row of its own (shortened there if need be)
	}
	return rangeRow + 1, rangeRow
}

// heatLegendForm chooses the legend's form for a heat map area w × h: the
// fullest whose rows take at most a third of h (heatLegendForms), and
// returns the rows it takes. The range of buffers in view is left out
// (noRange) where its row of its own would break that bound.
func heatLegendForm(th *layout.Theme, w, h float64, first, k, n int, trail bool) (form int, noRange bool, rows int) {
	lh := layout.LineHeight(th.Font(layout.Regular, 11))
	if h < 3*(lh+6) {
		// Too low for a map and a legend row: the map alone (the pool
		// legend, L, explains its colours).
		return heatLegendForms, true, 0
	}
	fits := func(rows int) bool { return rows == 1 || float64(rows)*lh+6 <= h/3 }
	label := heatRangeLabel(first, k, n)
	for form = 0; form < heatLegendForms; form++ {
		items := heatLegendItems(th, trail, form)
		rows, rangeRow := heatLegendFlow(th, w, items, label, nil)
		if fits(rows) {
			return form, false, rows
		}
		if rangeRow == rows-1 && fits(rows-1) {
			if without, _ := heatLegendFlow(th, w, items, "", nil); without < rows {
				return form, true, rows - 1
			}
		}
	}
	form = heatLegendForms - 1
	rows, _ = heatLegendFlow(th, w, heatLegendItems(th, trail, form), "", nil)
	return form, true, rows
}

// heatRangeLabel says which buffers are in view.
func heatRangeLabel(first, k, n int) string {
	return fmt.Sprintf("buffers %d–%d of %d (wheel zooms)", first, first+k-1, n)
}

// layoutHeatLegend lays out the heat map's legend: a swatch and a name for
// each colour (the trail's two while a trail marks a descriptor in view),
// then which buffers are in view, in as many rows as the width needs
// (heatLegendRows); a name wider than the whole legend is recorded.
func layoutHeatLegend(l *layout.List, r layout.Rect, th *layout.Theme, first, k, n int, trail bool, form int, noRange bool) {
	face := th.Font(layout.Regular, 11)
	lh := layout.LineHeight(face)
	label := heatRangeLabel(first, k, n)
	_, rangeRow := heatLegendFlow(th, r.W, heatLegendItems(th, trail, form), label, func(it heatLegendItem, x float64, row int) {
		y := r.Y + 4 + float64(row)*lh
		for i, c := range it.cs {
			sw := layout.Rect{X: r.X + x + float64(i)*heatRampStep, Y: y + 2, W: heatSwatch, H: heatSwatch}
			l.Fill("legend", sw, c)
			l.Stroke("legend", sw, 1, th.PanelEdge)
		}
		tx := x + float64(len(it.cs)-1)*heatRampStep + 15
		l.Text("legend", it.label, face, r.X+tx, y, max(0, r.W-tx), th.Text, layout.Left)
	})
	if noRange {
		return // no room for its row: the map's tooltips name the buffers
	}
	y := r.Y + 4 + float64(rangeRow)*lh
	// In a narrow pane, shorter forms (the full one in the tooltip).
	forms := []string{label, fmt.Sprintf("buffers %d–%d of %d", first, first+k-1, n), fmt.Sprintf("%d–%d of %d", first, first+k-1, n)}
	l.TextForms("legend range", forms, face, layout.Rect{X: r.X + 2, Y: y, W: r.W - 6, H: lh}, th.Muted, layout.Right)
}
