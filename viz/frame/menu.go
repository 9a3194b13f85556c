package frame

import (
	"fmt"

	"bufferlab/viz/layout"
)

// menu lays out the lesson list: a card a lesson (its title, its summary
// wrapped, its size and progress) and the fast-mode card, in a column that
// scrolls (wheel, ↑/↓) when it is taller than the window, with the keys
// line pinned at the bottom.
func (b *builder) menu(full layout.Rect) {
	th, s := b.th, b.s
	pad := th.Px(24)
	if b.plan.Class == Phone {
		pad = th.Px(12)
	}
	r := full.Inset(pad)
	foot := th.Font(layout.Regular, 13)
	footH := layout.LineHeight(foot) + th.Px(8)
	r, footR := r.SplitBottom(footH)
	if rs := b.sc.Reset; rs.Label != "" {
		// The reset button, at the bottom right; the keys line beside it.
		w := b.buttonW(rs.Label)
		h := b.buttonH()
		r, footR = full.Inset(pad).SplitBottom(max(footH, h+th.Px(6)))
		btn := layout.Rect{X: footR.X + footR.W - w, Y: footR.Y + footR.H - h, W: w, H: h}
		b.button("button Reset progress (R)", rs.Label, btn, rs.Armed, rs.Act)
		footR.W -= w + th.Px(12)
	}
	b.l.TextForms("menu keys", []string{
		"? help   P presentation mode   F fullscreen   ↑/↓ choose   Enter open",
		"? help   P presentation   F fullscreen",
		"? help   P present",
	}, foot, footR, th.Muted, layout.Left)

	s.menuRect = r
	// The scroll bar's width is kept free at the right.
	col := layout.Rect{X: r.X, Y: r.Y, W: min(r.W-th.Px(10), th.Px(900)), H: r.H}
	y := col.Y - s.menuScroll
	b.l.ClipScroll(r)
	title := th.Font(layout.Bold, 26)
	b.l.Text("menu title", "BufferLab", title, col.X, y, col.W, th.Text, layout.Left)
	y += layout.LineHeight(title)
	sub := th.Font(layout.Regular, 14)
	for _, ln := range layout.Wrap("PostgreSQL's buffer manager, run step by step. Choose a lesson.", sub, col.W) {
		b.l.Text("menu subtitle", ln, sub, col.X, y, col.W, th.Muted, layout.Left)
		y += layout.LineHeight(sub)
	}
	y += layout.LineHeight(sub)
	head := th.Font(layout.Bold, 16)
	body := th.Font(layout.Regular, 13)
	cardPad := th.Px(12)
	textW := col.W - 2*cardPad
	card := func(role string, sel bool, heading string, lines []string, muted int, act func()) layout.Rect {
		var hl []string
		hl = layout.Wrap(heading, head, textW)
		h := layout.LineHeight(head)*float64(len(hl)) + layout.LineHeight(body)*float64(len(lines)) + 2*th.Px(8)
		h = max(h, b.plan.MinTarget)
		box := layout.Rect{X: col.X, Y: y, W: col.W, H: h}
		fill := th.Panel
		if sel || b.hover(box) {
			fill = th.Hover
		}
		b.l.Fill(role, box, fill)
		edge, w := th.PanelEdge, 1.0
		if sel {
			edge, w = th.Accent, 2
		}
		b.l.Stroke(role, box, w, edge)
		ty := box.Y + th.Px(8)
		for _, ln := range hl {
			b.l.Text(role+" title", ln, head, box.X+cardPad, ty, textW, th.Text, layout.Left)
			ty += layout.LineHeight(head)
		}
		for i, ln := range lines {
			c := th.Text
			if i >= muted {
				c = th.Muted
			}
			b.l.Text(role+" text", ln, body, box.X+cardPad, ty, textW, c, layout.Left)
			ty += layout.LineHeight(body)
		}
		// A card scrolled out of the menu's rect cannot be clicked.
		if vis := intersect(box, r); !vis.Empty() {
			b.l.Target(role, heading, vis, act)
		}
		y += h + th.Px(12)
		return box
	}
	for i, ls := range b.sc.Lessons {
		i := i
		lines := layout.Wrap(ls.Summary, body, textW)
		muted := len(lines)
		info := fmt.Sprintf("%d steps, %d questions", ls.Steps, ls.Questions)
		if note := b.sc.MenuNote[ls.Name]; note != "" {
			info += "   ·   " + note
		}
		lines = append(lines, layout.Wrap(info, body, textW)...)
		box := card(fmt.Sprintf("lesson %d", i+1), i == s.MenuSel, fmt.Sprintf("%d. %s", i+1, ls.Title), lines, muted, func() {
			s.MenuSel = i
			b.h.OpenLesson(i)
		})
		if i == s.MenuSel && s.menuFollow {
			s.menuFollow = false
			switch {
			case box.Y < r.Y:
				s.menuScroll -= r.Y - box.Y
			case box.Y+box.H > r.Y+r.H:
				s.menuScroll += box.Y + box.H - (r.Y + r.H)
			}
		}
	}
	fl := layout.Wrap("bench pool --quick: a hit and a miss in ns, beside a dependent load and a stream", body, textW)
	if b.h.Sandbox != nil {
		sl := layout.Wrap("write a scenario of your own, see its errors as you type, run it; open a lesson or scenario file", body, textW)
		card("sandbox", false, "Scenario sandbox (S)", sl, 0, b.h.Sandbox)
	}
	card("fast", false, "Fast mode: measure the pool on this machine (F2)", fl, 0, b.h.Fast)
	b.l.Unclip()
	s.menuMax = max(0, y+s.menuScroll-(r.Y+r.H))
	s.menuScroll = clamp(s.menuScroll, 0, s.menuMax)
	if s.menuMax > 0 {
		scrollBar(b.l, r, s.menuScroll, s.menuMax, th)
	}
}

// scrollBar lays out the bar at r's right edge that says there is more
// above or below.
func scrollBar(l *layout.List, r layout.Rect, scroll, maxScroll float64, th *layout.Theme) {
	frac := r.H / (r.H + maxScroll)
	w := th.Px(5)
	l.Fill("scroll bar", layout.Rect{X: r.X + r.W - w, Y: r.Y + (r.H-r.H*frac)*scroll/maxScroll, W: w, H: r.H * frac}, th.PanelEdge)
}

// intersect is the part of a inside b.
func intersect(a, b layout.Rect) layout.Rect {
	x0, y0 := max(a.X, b.X), max(a.Y, b.Y)
	x1, y1 := min(a.X+a.W, b.X+b.W), min(a.Y+a.H, b.Y+b.H)
	if x1 <= x0 || y1 <= y0 {
		return layout.Rect{}
	}
	return layout.Rect{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
}
