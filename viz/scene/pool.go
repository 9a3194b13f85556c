package scene

import (
	"fmt"
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
