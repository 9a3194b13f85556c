package scene

import (
	"image/color"
	"strings"

	"bufferlab/viz/layout"
	view "bufferlab/viz/poolview"
)

// A legend in sections of entries: each entry a key, drawn as the scene
// draws the thing it explains (a badge, a frame, a shade), and the words
// that say what it means, a bold lead then plain text. layoutLegend lays
// the entries out in as many columns as the width allows and wraps each
// entry's words to its column, so a legend holds from a phone's width to
// a projector's; legendHeight is the height that takes, for the caller to
// reserve. The pool's and the mapping table's legends (pool_legend.go)
// are built on it.

// legendSection is a titled group of entries.
type legendSection struct {
	id      string // names the section's roles: "<role> <id>"
	title   string
	entries []legendEntry
}

// legendEntry is one key and its words.
type legendEntry struct {
	key        legendKey
	lead, text string // lead in bold, then text
}

// keyPart is one box of a key: a fill, a frame, a label centred in it,
// and the marks the scene puts on such a box.
type keyPart struct {
	w           float64 // its width (its height is the key's)
	fill, edge  color.RGBA
	edgeW       float64
	label       string
	labelFont   layout.Font
	labelColour color.RGBA
	corner      bool       // the dirty page's folded corner, top right
	hand        bool       // the clock hand's arrow, pointing down at the top
	badge       string     // a badge at the bottom right (PIN 2)
	badgeFill   color.RGBA // its fill
	trail       view.Mark  // a descriptor's marks of a trail, drawn as the pool scene draws them
	partTrail   view.Mark  // a mapping partition's marks of a trail, as LayoutPartitions draws them
}

// legendKey is a row of parts, h high.
type legendKey struct {
	parts []keyPart
	h     float64
}

// width is the key's width: its parts with 3 px (scaled) between them.
func (k legendKey) width(th *layout.Theme) float64 {
	w := 0.0
	for i, p := range k.parts {
		if i > 0 {
			w += th.Px(3)
		}
		w += p.w
	}
	return w
}

// layoutKey lays the key out with its top left at (x, y). A label wider
// than its part is recorded as an overflow.
func layoutKey(l *layout.List, role string, k legendKey, x, y float64, th *layout.Theme) {
	for _, p := range k.parts {
		b := layout.Rect{X: x, Y: y, W: p.w, H: k.h}
		if p.fill.A > 0 {
			l.Fill(role, b, p.fill)
		}
		layoutCellTrailUnder(l, role, b, view.TrailMark{Marks: p.trail}, th)
		if p.label != "" {
			l.TextIn(role, p.label, p.labelFont, b, p.labelColour, layout.Center)
		}
		if p.badge != "" {
			f := th.Font(layout.Bold, 9)
			bw := layout.Width(p.badge, f) + th.Px(6)
			br := layout.Rect{X: b.X + b.W - bw - th.Px(2), Y: b.Y + b.H - layout.LineHeight(f) - th.Px(2), W: bw, H: layout.LineHeight(f)}
			l.Fill(role, br, p.badgeFill)
			l.TextIn(role, p.badge, f, br, layout.TextOn(p.badgeFill), layout.Center)
		}
		if p.corner {
			d := min(b.W, b.H) * 0.35
			l.Triangle(role, layout.Point{X: b.X + b.W - d, Y: b.Y}, layout.Point{X: b.X + b.W, Y: b.Y}, layout.Point{X: b.X + b.W, Y: b.Y + d}, th.Dirty)
		}
		if p.edgeW > 0 {
			l.Stroke(role, b, p.edgeW, p.edge)
		}
		layoutCellTrail(l, role, b, view.TrailMark{Marks: p.trail}, th)
		layoutPartitionTrail(l, role+" trail", b, view.TrailMark{Marks: p.partTrail}, th)
		if p.hand {
			cx, s := b.X+b.W/2, th.Px(6)
			l.Triangle(role, layout.Point{X: cx - s, Y: b.Y - th.Px(1)}, layout.Point{X: cx + s, Y: b.Y - th.Px(1)}, layout.Point{X: cx, Y: b.Y + s + th.Px(1)}, th.Text)
		}
		x += p.w + th.Px(3)
	}
}

// legendFonts are a legend's type: its words, their bold leads and the
// section titles, 12 px at scale 1 (the size of the scene's own labels).
func legendFonts(th *layout.Theme) (text, lead, title layout.Font) {
	return th.Font(layout.Regular, 12), th.Font(layout.Bold, 12), th.Font(layout.Bold, 12.5)
}

// legendColumns is how many columns of entries fit in w: one per 260 px
// (scaled) with 14 px between them, at most 3 (longer lines read badly).
func legendColumns(w float64, th *layout.Theme) int {
	gap := th.Px(14)
	return max(1, min(3, int((w+gap)/(th.Px(260)+gap))))
}

// legendKeyCol is the widest key that goes beside its words in a column
// colW wide.
func legendKeyCol(colW float64) float64 { return colW * 0.3 }

// legendWord is a word of an entry in its font.
type legendWord struct {
	s string
	f layout.Font
}

// wrapEntry breaks an entry's lead (bold) and text into lines no wider
// than w (a word wider than w stays whole on its line).
func wrapEntry(e legendEntry, w float64, th *layout.Theme) [][]legendWord {
	text, lead, _ := legendFonts(th)
	var words []legendWord
	for _, s := range strings.Fields(e.lead) {
		words = append(words, legendWord{s, lead})
	}
	for _, s := range strings.Fields(e.text) {
		words = append(words, legendWord{s, text})
	}
	space := layout.Width(" ", text)
	var lines [][]legendWord
	var cur []legendWord
	curW := 0.0
	for _, wd := range words {
		ww := layout.Width(wd.s, wd.f)
		if len(cur) > 0 && curW+space+ww > w {
			lines = append(lines, cur)
			cur, curW = nil, 0
		}
		if len(cur) > 0 {
			curW += space
		}
		cur = append(cur, wd)
		curW += ww
	}
	if len(cur) > 0 {
		lines = append(lines, cur)
	}
	return lines
}

// entryGeometry is where an entry's key and words go in a column colW
// wide whose key column is kw wide: beside the words when the key fits
// the key column, else on a line of its own above them (left of the key
// column's words when the key column is empty).
func entryGeometry(e legendEntry, colW, kw float64, th *layout.Theme) (textX, textW, textY, h float64, lines [][]legendWord) {
	text, _, _ := legendFonts(th)
	lh := layout.LineHeight(text)
	gap := th.Px(8)
	if e.key.width(th) <= kw {
		textX, textW = kw+gap, colW-kw-gap
	} else {
		textW, textY = colW, e.key.h+th.Px(3)
	}
	lines = wrapEntry(e, textW, th)
	h = max(textY+float64(len(lines))*lh, e.key.h)
	return textX, textW, textY, h, lines
}

// legendHeight is the height layoutLegend takes for secs at width w.
func legendHeight(secs []legendSection, w float64, th *layout.Theme) float64 {
	var scratch layout.List
	return layoutLegend(&scratch, "legend", layout.Rect{W: w, H: 1e9}, secs, th)
}

// balanceColumns shares entries of heights hs, gap apart, out to at most
// cols columns in order, as evenly as it can (layout.Balance). It returns
// each entry's column.
func balanceColumns(hs []float64, cols int, gap float64) []int {
	return layout.Balance(hs, gap, cols, nil)
}

// layoutLegend lays secs out in r and returns the height used: each
// section's title across the width, then its entries in legendColumns
// balanced columns (read down, then across), each entry its key
// (vertically centred on its first line of words) and its words wrapped
// to the column. Roles: "<role> <section id>" for the words, "... title"
// and "... key". An entry that would end below r is not laid out, nor
// are those under it and the sections after: each is recorded as an
// overflow (axis h, with the height the whole legend needs), so a caller
// that gives less than legendHeight sees what it cut.
func layoutLegend(l *layout.List, role string, r layout.Rect, secs []legendSection, th *layout.Theme) float64 {
	_, _, title := legendFonts(th)
	tlh := layout.LineHeight(title)
	cols := legendColumns(r.W, th)
	cgap, egap := th.Px(14), th.Px(5)
	colW := (r.W - cgap*float64(cols-1)) / float64(cols)
	bottom := r.Y + r.H
	need := -1.0
	cut := func(srole, s string) {
		if need < 0 {
			need = legendHeight(secs, r.W, th)
		}
		l.Overflows = append(l.Overflows, layout.Overflow{Role: srole, Text: s, Axis: "h", Need: need, Have: r.H})
	}
	cutRest := func(from int) {
		for _, sec := range secs[from:] {
			cut(role+" "+sec.id+" title", sec.title)
			for _, en := range sec.entries {
				cut(role+" "+sec.id, strings.TrimSpace(en.lead+" "+en.text))
			}
		}
	}
	y := r.Y
	for si, sec := range secs {
		srole := role + " " + sec.id
		if si > 0 {
			y += th.Px(8)
		}
		tl := layout.Wrap(sec.title, title, r.W)
		if y+float64(len(tl))*tlh > bottom+0.5 {
			cutRest(si)
			return y - r.Y
		}
		for _, s := range tl {
			l.TextIn(srole+" title", s, title, layout.Rect{X: r.X, Y: y, W: r.W, H: tlh}, th.Text, layout.Left)
			y += tlh
		}
		y += th.Px(3)
		// The key column: as wide as the section's widest key that is
		// at most 30% of a column (a wider key goes above its words).
		kw := 0.0
		for _, e := range sec.entries {
			if w := e.key.width(th); w <= legendKeyCol(colW) {
				kw = max(kw, w)
			}
		}
		hs := make([]float64, len(sec.entries))
		for i, e := range sec.entries {
			_, _, _, hs[i], _ = entryGeometry(e, colW, kw, th)
		}
		at := balanceColumns(hs, cols, egap)
		colY := make([]float64, cols)
		full := make([]bool, cols)
		for c := range colY {
			colY[c] = y
		}
		cutHere := false
		for i, e := range sec.entries {
			c := at[i]
			if full[c] || colY[c]+hs[i] > bottom+0.5 {
				full[c], cutHere = true, true
				cut(srole, strings.TrimSpace(e.lead+" "+e.text))
				continue
			}
			layoutEntry(l, srole, e, r.X+float64(c)*(colW+cgap), colY[c], colW, kw, th)
			colY[c] += hs[i] + egap
		}
		end := y
		for _, cy := range colY {
			end = max(end, cy-egap)
		}
		y = end
		if cutHere {
			cutRest(si + 1)
			return y - r.Y
		}
	}
	return y - r.Y
}

// layoutEntry lays out entry e with its top left at (x, y) in a column
// colW wide whose key column is kw wide (entryGeometry).
func layoutEntry(l *layout.List, srole string, e legendEntry, x, y, colW, kw float64, th *layout.Theme) {
	text, _, _ := legendFonts(th)
	lh := layout.LineHeight(text)
	tx, tw, ty, _, lines := entryGeometry(e, colW, kw, th)
	ky := y + max(0, (lh-e.key.h)/2)
	if ty > 0 {
		ky = y
	}
	layoutKey(l, srole+" key", e.key, x, ky, th)
	for i, ln := range lines {
		lx := x + tx
		for j := 0; j < len(ln); {
			// One run per font: the words up to the next change.
			k := j
			var s []string
			for k < len(ln) && ln[k].f == ln[j].f {
				s = append(s, ln[k].s)
				k++
			}
			run := strings.Join(s, " ")
			box := layout.Rect{X: lx, Y: y + ty + float64(i)*lh, W: x + tx + tw - lx, H: lh}
			l.TextIn(srole, run, ln[j].f, box, th.Text, layout.Left)
			// The space after a run as wrapEntry counts it.
			lx += layout.Width(run, ln[j].f) + layout.Width(" ", text)
			j = k
		}
	}
}
