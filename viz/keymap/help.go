package keymap

import (
	"strings"

	"bufferlab/viz/layout"
)

// helpSizes are the type sizes (at scale 1) the help tries, largest
// first: the first whose layout fits the screen is used.
var helpSizes = []float64{14, 13, 12, 11, 10}

// helpRow is one line of the table: keys (bold) and what they do, or a
// section title.
type helpRow struct {
	title      bool
	keys, does string
	muted      bool
}

// helpRows is the table in rows, the sections that apply at now first
// (then the others, muted, in the table's order). A button's row says
// its label and, where a key does the same, the key.
func helpRows(now Where) []helpRow {
	// A button that does what a key does (its Keys are the binding's, in
	// a place the binding applies) shares the binding's row: one line
	// says both, and the help fits a phone. One button a binding.
	shared := map[string]bool{}
	with := map[string]string{} // a binding's keys → its buttons' labels
	for _, b := range Bindings {
		for _, bt := range Buttons {
			k := b.Keys + "\x00" + b.Where.String()
			// (A button labelled as its key, T, keeps its own row.)
			if bt.Keys == b.Keys && bt.Label != b.Keys && bt.Where&b.Where != 0 && !shared[bt.Label] && with[k] == "" {
				with[k] = "  [" + bt.Label + "]" // one: the keys' column is narrow
				shared[bt.Label] = true
			}
		}
	}
	var here, other []helpRow
	for _, s := range Sections() {
		muted := s.Where&now == 0
		rows := []helpRow{{title: true, does: s.Title, muted: muted}}
		for _, b := range s.Bindings {
			rows = append(rows, helpRow{keys: b.Keys + with[b.Keys+"\x00"+b.Where.String()], does: b.Does, muted: muted})
		}
		for _, b := range s.Buttons {
			if shared[b.Label] {
				continue
			}
			does := b.Does
			if b.Keys != "" {
				does += " (" + b.Keys + ")"
			}
			rows = append(rows, helpRow{keys: "[" + b.Label + "]", does: does, muted: muted || b.Where&now == 0})
		}
		if muted {
			other = append(other, rows...)
		} else {
			here = append(here, rows...)
		}
	}
	return append(here, other...)
}

// LayoutHelp lays out the help overlay in screen: a dimmed screen, then a
// box (role "help") with every key, mouse action and button of the table,
// the places that apply at now first, the others muted, in as many
// columns as the width allows and in the largest type (14 px at scale 1,
// down to 10) that fits the screen's height. It returns the box (a click
// there closes the help). Rows that do not fit even at 10 px are left out
// and recorded as overflows, as is a key wider than its column.
func LayoutHelp(l *layout.List, screen layout.Rect, th *layout.Theme, now Where) layout.Rect {
	l.Fill("help dim", screen, helpDim)
	margin := th.Px(12)
	w := min(screen.W-2*margin, th.Px(1000))
	rows := helpRows(now)
	var try layout.List
	size := helpSizes[len(helpSizes)-1]
	for _, s := range helpSizes {
		try = layout.List{}
		if h := layoutHelpBox(&try, layout.Rect{W: w, H: 1e9}, rows, th, s); h <= screen.H-2*margin {
			size = s
			break
		}
	}
	var scratch layout.List
	h := min(layoutHelpBox(&scratch, layout.Rect{W: w, H: 1e9}, rows, th, size), screen.H-2*margin)
	box := layout.Rect{X: screen.X + (screen.W-w)/2, Y: screen.Y + (screen.H-h)/2, W: w, H: h}
	layoutHelpBox(l, box, rows, th, size)
	return box
}

var helpDim = layout.Black

func init() { helpDim.A = 0x60 }

// layoutHelpBox lays the help out in r with type size (at scale 1) and
// returns the height it needs (all of it, whether r holds it or not).
func layoutHelpBox(l *layout.List, r layout.Rect, rows []helpRow, th *layout.Theme, size float64) float64 {
	face := th.Font(layout.Regular, size)
	bold := th.Font(layout.Bold, size)
	head := th.Font(layout.Bold, size+2)
	lh := layout.LineHeight(face)
	pad := th.Px(14)
	l.Fill("help", r, th.Panel)
	l.Stroke("help", r, th.Px(2), th.Accent)
	titleR := layout.Rect{X: r.X + pad, Y: r.Y + pad*0.7, W: r.W - 2*pad, H: layout.LineHeight(head)}
	l.TextIn("help title", "Keys, mouse and buttons", head, titleR, th.Text, layout.Left)
	hint := "click or Esc to close"
	if layout.Width(hint, face)+layout.Width("Keys, mouse and buttons", head)+th.Px(20) <= titleR.W {
		l.TextIn("help title", hint, th.Font(layout.Italic, size), titleR, th.Muted, layout.Right)
	}
	body := layout.Rect{X: r.X + pad, Y: titleR.Y + titleR.H + th.Px(6), W: r.W - 2*pad}
	gap := th.Px(18)
	cols := max(1, min(3, int((body.W+gap)/(th.Px(330)+gap))))
	colW := (body.W - gap*float64(cols-1)) / float64(cols)
	// The keys column: the widest keys, at most 40% of a column.
	kw := 0.0
	for _, rw := range rows {
		if !rw.title {
			kw = max(kw, layout.Width(rw.keys, bold))
		}
	}
	kw = min(kw, colW*0.4)
	dw := colW - kw - th.Px(10)
	// Each row's lines, then the rows into balanced columns (a section
	// title is never the last row of a column).
	lines := make([][]string, len(rows))
	hs := make([]float64, len(rows))
	for i, rw := range rows {
		if rw.title {
			lines[i] = layout.Wrap(rw.does, bold, colW)
			hs[i] = float64(len(lines[i]))*lh + th.Px(6)
			continue
		}
		lines[i] = layout.Wrap(rw.does, face, dw)
		hs[i] = float64(len(lines[i])) * lh
	}
	colOf := balance(rows, hs, cols)
	colH := make([]float64, cols)
	bottom := r.Y + r.H - pad
	for i, rw := range rows {
		c := colOf[i]
		x := body.X + float64(c)*(colW+gap)
		y := body.Y + colH[c]
		if rw.title && colH[c] > 0 {
			y += th.Px(6)
			colH[c] += th.Px(6)
		}
		colH[c] += hs[i]
		if y+hs[i] > bottom+0.5 {
			l.Overflows = append(l.Overflows, layout.Overflow{Role: "help", Text: strings.TrimSpace(rw.keys + " " + rw.does), Axis: "h", Need: y + hs[i] - r.Y + pad, Have: r.H})
			continue
		}
		col := th.Text
		if rw.muted {
			col = th.Muted
		}
		if rw.title {
			tc := th.Accent
			if rw.muted {
				tc = th.Muted
			}
			for k, s := range lines[i] {
				l.TextIn("help section", s, bold, layout.Rect{X: x, Y: y + th.Px(3) + float64(k)*lh, W: colW, H: lh}, tc, layout.Left)
			}
			l.Line("help section", x, y+hs[i]-th.Px(2), x+colW, y+hs[i]-th.Px(2), 1, th.PanelEdge)
			continue
		}
		l.TextIn("help keys", rw.keys, bold, layout.Rect{X: x, Y: y, W: kw, H: lh}, col, layout.Left)
		for k, s := range lines[i] {
			l.TextIn("help", s, face, layout.Rect{X: x + kw + th.Px(10), Y: y + float64(k)*lh, W: dw, H: lh}, col, layout.Left)
		}
	}
	return body.Y - r.Y + maxOf(colH) + pad
}

func maxOf(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = max(m, x)
	}
	return m
}

// balance shares the rows out to at most cols columns in order, as evenly
// as it can, a section title moving to the next column with the row after
// it rather than end a column (layout.Balance).
func balance(rows []helpRow, hs []float64, cols int) []int {
	return layout.Balance(hs, 0, cols, func(i int) bool { return rows[i].title })
}
