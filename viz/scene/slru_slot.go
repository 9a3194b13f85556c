package scene

import (
	"fmt"
	"image/color"
	"strings"

	"bufferlab/engine/slru"
	"bufferlab/viz/layout"
	"bufferlab/viz/slruview"
)

// One slot of a bank: its cell (number, page, state, LRU count and age,
// badges) and over it what the lookups in progress do with it (outlines,
// the victim search's verdict, tabs naming who does what).

// slotStateWords is how each slot state is written in its cell: in full
// ("READ I/O"), and in one short word for small cells ("READ").
var slotStateWords = map[slru.PageStatus][2]string{
	slru.PageEmpty:           {"EMPTY", "EMPTY"},
	slru.PageReadInProgress:  {"READ I/O", "READ"},
	slru.PageValid:           {"VALID", "VALID"},
	slru.PageWriteInProgress: {"WRITE I/O", "WRITE"},
}

// slotStateLabel is how a slot's state is written in its cell, in one
// short word when short (slotStateWords; a state it does not list, as
// its String).
func slotStateLabel(st slru.PageStatus, short bool) string {
	w, ok := slotStateWords[st]
	switch {
	case !ok:
		return st.String()
	case short:
		return w[1]
	}
	return w[0]
}

// slotTypeSize is the type size of a cell's text: 14 at most, 9 at
// least, else a sixth of the cell's width or 1/5.5 of its height.
func slotTypeSize(c layout.Rect) float64 { return min(14, max(9, min(c.W/6, c.H/5.5))) }

// layoutSLRUSlot lays out slot i in cell c (role "slot i"): its number,
// page, state, LRU count and age (with a bar scaled to the oldest slot of
// the bank), the dirty and latest badges, its buffer lock; then what the
// lookups in progress do with it (layoutSlotMarks). A short cell drops
// lines by design (the fill colour says the state); text drawn wider than
// the cell is recorded as an overflow.
func layoutSLRUSlot(l *layout.List, c layout.Rect, v *slruview.View, i int, m slruMarks, maxAge int32, changed bool, th *layout.Theme) {
	role := fmt.Sprintf("slot %d", i)
	s := v.Slot(i)
	enc := SLRUEncodings(th)
	state := slotState(enc, s)
	fill := state.Fill
	if a, ok := m.compared[i]; ok && a != 0 {
		fill = enc.Compared.Fill
	}
	l.Fill(role, c, fill)
	l.AddHit(HitSLRUSlot, i, [2]uint32{}, c)
	// The hatch of I/O in progress, under the text.
	l.PatternOver(role, c, state)
	fs := slotTypeSize(c)
	bold := th.Font(layout.Bold, fs+1)
	small := th.Font(layout.Regular, fs-1)
	badge := th.Font(layout.Bold, max(8, fs-3))
	lh := layout.LineHeight(th.Font(layout.Regular, fs))
	tc := layout.TextOn(fill)

	// A short cell writes its state on the first line, beside its number,
	// and leaves out the buffer lock's badge (the lookup's tab above the
	// cell names the backend doing the I/O).
	compact := c.H < 2+3*layout.LineHeight(small)+layout.LineHeight(bold)+layout.LineHeight(badge)
	// Line 1: the slot number, the buffer lock (or the state).
	y := c.Y + 2
	num := fmt.Sprintf("#%d", i)
	textRoom(l, role, num, small, c.X+3, y, c.W-3, th.Muted, layout.Left)
	if c.H < layout.LineHeight(small)+layout.LineHeight(bold)+1 {
		// Too short for two lines (stacked panes in a low window): the
		// page beside the number, the fill colour for the state.
		page := "—"
		if !s.Empty() {
			page = fmt.Sprintf("p%d", s.Page)
		}
		if layout.Width(num, small)+layout.Width(page, small)+8 <= c.W {
			l.Text(role, page, small, c.X+c.W-3, y, 0, tc, layout.Right)
		} else {
			l.Overflows = append(l.Overflows, layout.Overflow{Role: role, Text: page, Axis: "w", Need: layout.Width(num, small) + layout.Width(page, small) + 8, Have: c.W})
		}
		cd, weighed := m.cands[i]
		layoutSlotMarks(l, role, c, v, i, m, cd, weighed, true, changed, th)
		return
	}
	if compact {
		// The state after the number, in a letter when the word does not
		// fit beside it (the fill colour says it too).
		st := slotStateLabel(s.Status, true)
		if layout.Width(num, small)+layout.Width(st, small)+8 > c.W {
			st = st[:1]
		}
		if layout.Width(num, small)+layout.Width(st, small)+8 <= c.W {
			l.Text(role, st, small, c.X+c.W-3, y, 0, tc, layout.Right)
		}
	} else if s.IOLock != 0 {
		excl, shared := slruview.Holders(s.IOLock)
		lbl := "io "
		if excl != 0 {
			lbl += v.LaneName(excl)
		} else {
			var ns []string
			for _, a := range shared {
				ns = append(ns, v.LaneName(a))
			}
			lbl += strings.Join(ns, "")
		}
		w := layout.Width(lbl, badge) + 4
		br := layout.Rect{X: c.X + c.W - w - 2, Y: y, W: w, H: layout.LineHeight(badge)}
		l.Fill(role, br, th.IO)
		textRoom(l, role, lbl, badge, br.X+2, br.Y, c.W-4, layout.TextOn(th.IO), layout.Left)
	}
	y += layout.LineHeight(small) - 1
	// Line 2: the page.
	page := "—"
	if !s.Empty() {
		page = fmt.Sprintf("p %d", s.Page)
	}
	textRoom(l, role, page, bold, c.X+c.W/2, y, c.W, tc, layout.Center)
	y += layout.LineHeight(bold) - 1
	// Line 3: the state.
	if !compact && y+lh <= c.Y+c.H {
		textRoom(l, role, slotStateLabel(s.Status, false), small, c.X+c.W/2, y, c.W, tc, layout.Center)
		y += layout.LineHeight(small)
	}
	// Line 4: LRU count and age, with the age bar.
	cd, weighed := m.cands[i]
	if !s.Empty() && y+layout.LineHeight(small) <= c.Y+c.H-3 {
		// The age against bank_cur_lru_count; once a victim search has
		// weighed the slot, the age it computed against its cur_count
		// (one less: the search took cur_count = counter++).
		age := s.Age
		if weighed {
			age = cd.Age
		}
		txt := fmt.Sprintf("lru %d·age %d", s.LRUCount, age)
		if layout.Width(txt, small) > c.W-4 {
			txt = fmt.Sprintf("%d·a%d", s.LRUCount, age)
		}
		if compact && weighed {
			// No room for the verdict badge in the middle: the verdict
			// takes this line, on its colour.
			lbl, col := candidateLabel(cd, th)
			txt = fmt.Sprintf("%s a%d", lbl, cd.Age)
			if layout.Width(txt, small) > c.W-4 {
				txt = lbl
			}
			l.Fill(role, layout.Rect{X: c.X + 1, Y: y, W: c.W - 2, H: layout.LineHeight(small)}, col)
			textRoom(l, role, txt, small, c.X+c.W/2, y, c.W, layout.TextOn(col), layout.Center)
		} else {
			textRoom(l, role, txt, small, c.X+c.W/2, y, c.W, tc, layout.Center)
		}
		y += layout.LineHeight(small)
	}
	if !s.Empty() {
		frac := float64(max(0, s.Age)) / float64(maxAge)
		l.Fill(role+" age", layout.Rect{X: c.X + 2, Y: c.Y + c.H - 4, W: (c.W - 4) * frac, H: 3}, th.Accent)
	}
	// Badges along the bottom: DIRTY, LATEST.
	bx := c.X + 2
	by := c.Y + c.H - layout.LineHeight(badge) - 5
	addBadge := func(lbl string, col color.RGBA) {
		w := layout.Width(lbl, badge) + 4
		if bx+w > c.X+c.W && bx > c.X+2 {
			// No room beside the previous badge: above it.
			bx, by = c.X+2, by-layout.LineHeight(badge)-1
		}
		if bx+w > c.X+c.W || by < y-2 {
			return
		}
		l.Fill(role+" badge", layout.Rect{X: bx, Y: by, W: w, H: layout.LineHeight(badge)}, col)
		l.Text(role+" badge", lbl, badge, bx+2, by, 0, layout.TextOn(col), layout.Left)
		bx += w + 2
	}
	if s.Dirty {
		d := min(c.W, c.H) * 0.2
		l.Triangle(role+" dirty", layout.Point{X: c.X + c.W - d, Y: c.Y + c.H}, layout.Point{X: c.X + c.W, Y: c.Y + c.H}, layout.Point{X: c.X + c.W, Y: c.Y + c.H - d}, enc.Dirty.MarkColor)
		addBadge("DIRTY", enc.Dirty.MarkColor)
	}
	if s.Latest {
		addBadge("LATEST", th.Locked)
	}
	layoutSlotMarks(l, role, c, v, i, m, cd, weighed, compact, changed, th)
}

// slotState is the base encoding of a slot: EMPTY, I/O in progress or
// VALID.
func slotState(enc SLRUStates, s slruview.Slot) layout.Encoding {
	switch {
	case s.Empty():
		return enc.Empty
	case s.InIO():
		return enc.IO
	}
	return enc.Valid
}

// layoutSlotMarks lays out what the lookups do with slot i over its cell
// c: the outline (its state's, then compared, the victim, the current
// event's), and tabs above the cell naming who does what there (role
// "slot i mark"), each outlining the cell in its encoding (one outline
// drawn twice is drawn once). A tab that does not fit beside the previous
// ones is recorded as an overflow.
func layoutSlotMarks(l *layout.List, role string, c layout.Rect, v *slruview.View, i int, m slruMarks, cd slruview.Candidate, weighed, compact, changed bool, th *layout.Theme) {
	role += " mark"
	fs := slotTypeSize(c) // as layoutSLRUSlot sizes its type
	bold := th.Font(layout.Bold, fs+1)
	badge := th.Font(layout.Bold, max(8, fs-3))
	enc := SLRUEncodings(th)
	var drawn []layout.Encoding
	outline := func(e layout.Encoding) {
		for _, d := range drawn {
			if d == e {
				return
			}
		}
		drawn = append(drawn, e)
		l.Outline(role, c, e)
	}
	// Outline: the slot's state's, then the lookups' marks.
	outline(slotState(enc, v.Slot(i)))
	if _, ok := m.compared[i]; ok {
		outline(enc.Compared)
		l.Text(role, "≠", bold, c.X+c.W-4, c.Y+c.H-layout.LineHeight(bold)-6, 0, enc.Compared.Edge, layout.Right)
	}
	if weighed {
		if _, ok := m.victimWhy[cd.Slot]; ok {
			outline(enc.Victim)
		}
		layoutCandidate(l, role, c, cd, !compact, th)
	}
	if changed && len(m.marks[i]) == 0 {
		l.Stroke(role, c.Inset(-2), 2, th.Text)
	}
	// Tabs above the cell: who does what here.
	tx := c.X
	for k, mk := range m.marks[i] {
		lbl := v.LaneName(mk.actor) + " " + mk.label
		w := layout.Width(lbl, badge) + 6
		if tx+w > c.X+c.W+8 && tx > c.X {
			for _, mk := range m.marks[i][k:] {
				lbl := v.LaneName(mk.actor) + " " + mk.label
				l.Overflows = append(l.Overflows, layout.Overflow{Role: role, Text: lbl, Axis: "w", Need: layout.Width(lbl, badge) + 6, Have: max(0, c.X+c.W+8-tx)})
			}
			break
		}
		tab := layout.Rect{X: tx, Y: c.Y - layout.LineHeight(badge) + 1, W: w, H: layout.LineHeight(badge)}
		l.Fill(role, tab, mk.enc.MarkColor)
		l.Text(role, lbl, badge, tab.X+3, tab.Y, 0, layout.TextOn(mk.enc.MarkColor), layout.Left)
		outline(mk.enc)
		tx += w + 2
	}
}

// candidateLabel is the verdict of the victim search on a slot, and its
// colour.
func candidateLabel(cd slruview.Candidate, th *layout.Theme) (string, color.RGBA) {
	switch cd.Kind {
	case slruview.CandEmpty:
		return "empty: take", th.Good
	case slruview.CandLatest:
		return "skip: latest", th.Locked
	case slruview.CandBusy:
		return "busy I/O", th.IO
	}
	if cd.Best {
		return "oldest", th.Accent
	}
	return "weighed", th.Muted
}

// layoutCandidate marks a slot the victim search weighed with its verdict
// as a label in the middle of the cell ("oldest", "skip: latest", "busy
// I/O"; when badge). A verdict wider than the cell is recorded as an
// overflow.
func layoutCandidate(l *layout.List, role string, c layout.Rect, cd slruview.Candidate, badge bool, th *layout.Theme) {
	f := th.Font(layout.Bold, 9)
	lbl, col := candidateLabel(cd, th)
	if !badge {
		return
	}
	w := layout.Width(lbl, f) + 4
	br := layout.Rect{X: c.X + (c.W-w)/2, Y: c.Y + c.H*0.5 - 2, W: w, H: layout.LineHeight(f)}
	if w > c.W {
		br.X = c.X
	}
	l.Fill(role, br, col)
	textRoom(l, role, lbl, f, br.X+2, br.Y, c.W-4, layout.TextOn(col), layout.Left)
}
