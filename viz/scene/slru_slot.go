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
// badges, as many of those lines as the grid gives it) and over it what
// the lookups in progress do with it (outlines, the victim search's
// verdict, tabs naming who does what).

// slotStateWords are the forms of each slot state in its cell, longest
// first: in full ("READ I/O"), in a word, in a letter, left out. The
// cell's encoding says the state too (its fill, its outline, dashed when
// EMPTY, and the hatch of I/O: SLRUEncodings, which the legend shows), so
// a cell too narrow for the letter leaves it out.
var slotStateWords = map[slru.PageStatus][4]string{
	slru.PageEmpty:           {"EMPTY", "EMPTY", "E", ""},
	slru.PageReadInProgress:  {"READ I/O", "READ", "R", ""},
	slru.PageValid:           {"VALID", "VALID", "V", ""},
	slru.PageWriteInProgress: {"WRITE I/O", "WRITE", "W", ""},
}

// slotStateForms are the forms of a slot's state from level k on (a
// state slotStateWords does not list: its String, which may be left out).
func slotStateForms(st slru.PageStatus, k int) []string {
	w, ok := slotStateWords[st]
	if !ok {
		return []string{st.String(), ""}
	}
	return w[min(k, 3):]
}

// slotForms are the levels of the forms the cells of a bank drawing use
// (the index of the first form tried), the same in every cell so that a
// row reads evenly: chosen for the widest value any cell can hold, as
// digits (slruTemplates and the largest LRU count and age).
type slotForms struct {
	beside, state, page, age int
}

// slotFormsFor chooses the levels for cells w wide on grid g, with LRU
// counts and ages up to maxCount and maxAge.
func slotFormsFor(v *slruview.View, g slruGrid, w float64, maxCount, maxAge int32) slotForms {
	ft := g.ft
	in := w - 2*ft.pad
	num, page := slruTemplates(v)
	first := func(width float64, forms ...string) int {
		for k, s := range forms {
			if layout.Width(s, ft.num) <= width+0.5 {
				return k
			}
		}
		return len(forms)
	}
	var f slotForms
	// The widest state of each level: WRITE I/O, then WRITE or EMPTY,
	// then W.
	f.state = first(in, "WRITE I/O", "EMPTY", "W")
	f.beside = max(1, first(in-layout.Width(num, ft.num)-ft.pad, "WRITE I/O", "EMPTY", "W"))
	a, c := zeros(int(maxAge)), zeros(int(maxCount))
	f.age = first(in, "lru "+c+"·age "+a, "age "+a)
	pw := in
	if g.text <= 1 {
		pw = in - layout.Width(num, ft.num) - ft.pad
	}
	for _, s := range []string{"p " + page, "p" + page, page} {
		if layout.Width(s, ft.page) <= pw+0.5 {
			break
		}
		f.page++
	}
	f.page = min(f.page, 2)
	return f
}

// slruChip lays out the first of forms that fits box (less the chip's
// padding) on a box of colour fill, aligned by a: a badge, a tab. It
// returns the chip's width (0 when left out); a form that does not fit
// is recorded as TextForms records it.
func slruChip(l *layout.List, role string, forms []string, f layout.Font, box layout.Rect, fill color.RGBA, a layout.Align) float64 {
	pad := chipPad(f)
	s := forms[len(forms)-1]
	for _, fm := range forms {
		if fm == "" || layout.Width(fm, f)+2*pad <= box.W+0.5 {
			s = fm
			break
		}
	}
	if s == "" {
		return 0
	}
	w := min(box.W, layout.Width(s, f)+2*pad)
	x := box.X
	if a == layout.Right {
		x = box.X + box.W - w
	}
	h := min(box.H, lh(f))
	l.Fill(role, layout.Rect{X: x, Y: box.Y, W: w, H: h}, fill)
	l.TextForms(role, forms, f, layout.Rect{X: x + pad, Y: box.Y, W: max(0, box.W-2*pad), H: h}, layout.TextOn(fill), layout.Left)
	return w
}

// layoutSLRUSlot lays out slot i in cell c (role "slot i") with the
// grid's lines of text: one line, its number and page; two, its number
// and state, then its page; three, its LRU age (or the victim search's
// verdict) below; four, the state in full on its own line and the I/O
// lock's holder beside the number; five, its DIRTY and LATEST badges.
// Every cell has its age bar and, dirty, a corner; then what the
// lookups in progress do with it (layoutSlotMarks). Each run is one of
// its forms (the number and the page are never shortened: the grid
// makes cells wide enough for them).
func layoutSLRUSlot(l *layout.List, c layout.Rect, v *slruview.View, i int, m slruMarks, maxAge int32, lv slotForms, changed bool, g slruGrid, th *layout.Theme) {
	role := fmt.Sprintf("slot %d", i)
	s := v.Slot(i)
	ft := g.ft
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
	tc := layout.TextOn(fill)
	cd, weighed := m.cands[i]
	num := fmt.Sprintf("#%d", i)
	page := []string{"—"}
	if !s.Empty() {
		page = []string{fmt.Sprintf("p %d", s.Page), fmt.Sprintf("p%d", s.Page), fmt.Sprint(s.Page)}[lv.page:]
	}
	in := layout.Rect{X: c.X + ft.pad, Y: c.Y + ft.pad/2, W: c.W - 2*ft.pad, H: c.H - ft.pad/2 - ft.ageBarH()}
	numW := layout.Width(num, ft.num)
	if g.text <= 1 {
		// The number and the page side by side.
		line := layout.Rect{X: in.X, Y: in.Y, W: in.W, H: max(lh(ft.num), lh(ft.page))}
		l.TextIn(role, num, ft.num, layout.Rect{X: line.X, Y: line.Y, W: min(numW, line.W), H: line.H}, th.Muted, layout.Left)
		rest := layout.Rect{X: line.X + numW + ft.pad, Y: line.Y, W: max(0, line.W-numW-ft.pad), H: line.H}
		l.TextForms(role, page, ft.page, rest, tc, layout.Right)
	} else {
		y := in.Y
		// Line 1: the number; beside it the state (two or three lines)
		// or the I/O lock's holder (four or five: the state has a line).
		line := layout.Rect{X: in.X, Y: y, W: in.W, H: lh(ft.num)}
		l.TextIn(role, num, ft.num, layout.Rect{X: line.X, Y: y, W: min(numW, line.W), H: line.H}, th.Muted, layout.Left)
		beside := layout.Rect{X: line.X + numW + ft.pad, Y: y, W: max(0, line.W-numW-ft.pad), H: line.H}
		switch {
		case g.text <= 3:
			l.TextForms(role, slotStateForms(s.Status, lv.beside), ft.num, beside, tc, layout.Right)
		case s.IOLock != 0:
			excl, shared := slruview.Holders(s.IOLock)
			var ns []string
			if excl != 0 {
				ns = append(ns, v.LaneName(excl))
			}
			for _, a := range shared {
				ns = append(ns, v.LaneName(a))
			}
			who := strings.Join(ns, "")
			// The buffer lock's holder; the lookup's tab above names it
			// too.
			slruChip(l, role, []string{"io " + who, who, ""}, ft.badge, beside, th.IO, layout.Right)
		}
		y += lh(ft.num)
		// Line 2: the page, and ≠ where a search compared it.
		pw := 0.0
		for _, p := range page {
			if pw = layout.Width(p, ft.page); pw <= in.W {
				break
			}
		}
		l.TextForms(role, page, ft.page, layout.Rect{X: in.X, Y: y, W: in.W, H: lh(ft.page)}, tc, layout.Center)
		if _, ok := m.compared[i]; ok {
			ne := layout.Rect{X: in.X + (in.W+pw)/2 + ft.pad, Y: y, W: max(0, (in.W-pw)/2-ft.pad), H: lh(ft.page)}
			l.TextForms(role+" mark", []string{"≠", ""}, ft.page, ne, enc.Compared.Edge, layout.Right)
		}
		y += lh(ft.page)
		// Lines 3 and 4: the state in full (four lines and more), the
		// verdict of a victim search that weighed the slot, the LRU count
		// and age.
		var rest []func(layout.Rect)
		state := func(r layout.Rect) {
			l.TextForms(role, slotStateForms(s.Status, lv.state), ft.num, r, tc, layout.Center)
		}
		verdict := func(r layout.Rect) {
			lbl, col := candidateLabel(cd, th)
			if slruChip(l, role+" mark", lbl, ft.badge, r, col, layout.Left) == 0 && g.text >= 4 {
				state(r) // too narrow for the verdict: the state keeps its line
			}
		}
		age := func(r layout.Rect) {
			if s.Empty() {
				return
			}
			// The age against bank_cur_lru_count; once a victim search
			// has weighed the slot, the age it computed against its
			// cur_count (one less: the search took cur_count = counter++).
			a := s.Age
			if weighed {
				a = cd.Age
			}
			l.TextForms(role, []string{fmt.Sprintf("lru %d·age %d", s.LRUCount, a), fmt.Sprintf("age %d", a), ""}[lv.age:], ft.num, r, tc, layout.Center)
		}
		switch {
		case g.text == 3 && weighed:
			rest = append(rest, verdict)
		case g.text == 3:
			rest = append(rest, age)
		case g.text >= 4 && weighed:
			rest = append(rest, verdict, age)
		case g.text >= 4:
			rest = append(rest, state, age)
		}
		for _, f := range rest {
			f(layout.Rect{X: in.X, Y: y, W: in.W, H: lh(ft.num)})
			y += lh(ft.num)
		}
		// Line 5: the badges.
		if g.text >= 5 {
			b := slruFlow{gap: ft.pad, lh: lh(ft.badge)}
			if s.Dirty {
				b.runs = append(b.runs, slruRun{role: role + " badge", forms: []string{"DIRTY", "D", ""}, font: ft.badge, col: layout.TextOn(enc.Dirty.MarkColor), fill: enc.Dirty.MarkColor})
			}
			if s.Latest {
				b.runs = append(b.runs, slruRun{role: role + " badge", forms: []string{"LATEST", "L", ""}, font: ft.badge, col: layout.TextOn(th.Locked), fill: th.Locked})
			}
			b.layout(l, layout.Rect{X: in.X, Y: y, W: in.W, H: lh(ft.badge)})
		}
	}
	if !s.Empty() {
		frac := float64(max(0, s.Age)) / float64(maxAge)
		bh := ft.ageBarH() - 2
		l.Fill(role+" age", layout.Rect{X: c.X + 2, Y: c.Y + c.H - bh - 1, W: (c.W - 4) * frac, H: bh}, th.Accent)
	}
	if s.Dirty {
		d := min(c.W, c.H) * 0.2
		l.Triangle(role+" dirty", layout.Point{X: c.X + c.W - d, Y: c.Y + c.H}, layout.Point{X: c.X + c.W, Y: c.Y + c.H}, layout.Point{X: c.X + c.W, Y: c.Y + c.H - d}, enc.Dirty.MarkColor)
	}
	layoutSlotMarks(l, role, c, v, i, m, weighed, changed, g, th)
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
// c: the outline (its state's, then a trail's frame inside it, compared,
// the victim, the current event's, each lookup's mark in its encoding;
// one outline drawn twice is drawn once) and, where the grid has a strip for them, tabs above the
// cell naming who does what there (role "slot i mark"), each in one of
// its forms down to the backend's name alone, on its mark's colour.
// Without the strip the lookup lines below the banks say who does what.
func layoutSlotMarks(l *layout.List, role string, c layout.Rect, v *slruview.View, i int, m slruMarks, weighed, changed bool, g slruGrid, th *layout.Theme) {
	role += " mark"
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
	// Outline: the slot's state's, the trail's inside it, then the
	// lookups' marks.
	outline(slotState(enc, v.Slot(i)))
	if _, ok := m.trail[i]; ok {
		// Inside the outlines drawn on the edge (3 px at most, half of
		// it inside): a thin dark line, then the yellow frame.
		w := enc.Trail.EdgeWidth
		if min(c.W, c.H) < 8*w {
			w = max(1.5, min(c.W, c.H)/8)
		}
		e := enc.Trail
		e.EdgeWidth = w
		l.Stroke(role+" trail", c.Inset(2), 1, th.Trail.Edge)
		l.Outline(role+" trail", c.Inset(2.5+w/2), e)
	}
	if _, ok := m.compared[i]; ok {
		outline(enc.Compared)
	}
	if _, ok := m.victimWhy[i]; ok && weighed {
		outline(enc.Victim)
	}
	if changed && len(m.marks[i]) == 0 {
		l.Stroke(role, c.Inset(-2), 2, th.Text)
	}
	f := g.ft.badge
	marks := m.marks[i]
	for _, mk := range marks {
		outline(mk.enc)
	}
	if !g.tabs || len(marks) == 0 {
		return
	}
	// The tabs in one level of their forms, the same for all of them
	// (the widest that lets them all fit the cell's width), down to the
	// backends' names alone.
	forms := make([][]string, len(marks))
	levels := 0
	for k, mk := range marks {
		name := v.LaneName(mk.actor)
		for _, s := range mk.labels {
			forms[k] = append(forms[k], name+" "+s)
		}
		forms[k] = append(forms[k], name)
		levels = max(levels, len(forms[k]))
	}
	lv := levels - 1
	for k := 0; k < levels; k++ {
		w := -2.0
		for _, fs := range forms {
			w += layout.Width(fs[min(k, len(fs)-1)], f) + 2*chipPad(f) + 2
		}
		if w <= c.W+0.5 {
			lv = k
			break
		}
	}
	tx := c.X
	for k, mk := range marks {
		fs := forms[k][min(lv, len(forms[k])-1):]
		w := c.X + c.W - tx
		if k+1 < len(marks) {
			w = min(w, layout.Width(fs[0], f)+2*chipPad(f))
		}
		tab := layout.Rect{X: tx, Y: c.Y - lh(f), W: max(0, w), H: lh(f)}
		tx += slruChip(l, role, fs, f, tab, mk.enc.MarkColor, layout.Left) + 2
	}
}

// candidateLabel is the verdict of the victim search on a slot, in its
// forms (the last "": the outline, the victim chart and the lookup line
// say it), and its colour.
func candidateLabel(cd slruview.Candidate, th *layout.Theme) ([]string, color.RGBA) {
	switch cd.Kind {
	case slruview.CandEmpty:
		return []string{"empty: take", "take", ""}, th.Good
	case slruview.CandLatest:
		return []string{"skip: latest", "latest", ""}, th.Locked
	case slruview.CandBusy:
		return []string{"busy I/O", "busy", ""}, th.IO
	}
	if cd.Best {
		return []string{"oldest", ""}, th.Accent
	}
	return []string{"weighed", ""}, th.Muted
}
