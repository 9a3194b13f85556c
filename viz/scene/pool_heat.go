package scene

import (
	"fmt"
	"hash/fnv"
	"image/color"

	"bufferlab/engine/bufmgr"
	"bufferlab/viz/layout"
	view "bufferlab/viz/poolview"
)

// The pool as a heat map (more than DetailMax descriptors in view): its
// texels, the trail's boxes over them and the legend below.

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
