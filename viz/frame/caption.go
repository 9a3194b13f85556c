package frame

import (
	"strings"

	"bufferlab/engine/trace"
	"bufferlab/viz/layout"
	"bufferlab/viz/player"
)

// The caption bar, between the body and the timeline, says what the
// current event did, in one line (player.Caption: the engine's words), in
// the shortest form of it that fits: the caption, its first sentence, or
// as many of its words as fit, with "…" (the full text is the run's
// tooltip). In presentation mode on a large screen it may take two lines.
//
// At a stop (the player paused just before a key moment) the bar grows
// into the stop box: "Next: " and what the moment is, the moment's caption
// in larger type over up to three lines, and a Continue button (the whole
// box is a target too, for a tap). While a question is open (at its stop,
// before the answer) the bar says only that the question comes first, in
// one line (none on a low screen, where the question needs the room): the
// moment's words could give the answer away.

// captionFont is the caption bar's type.
func (b *builder) captionFont() layout.Font { return b.th.Font(layout.Regular, 14) }

// stopFonts are the stop box's heading and text.
func (b *builder) stopFonts() (head, text layout.Font) {
	return b.th.Font(layout.Bold, 16), b.th.Font(layout.Regular, 16)
}

// captionLines is how many lines the caption bar may take: two in
// presentation mode on a Desk-sized screen, else one.
func (b *builder) captionLines() int {
	if b.plan.Presentation && b.plan.Class == Desk {
		return 2
	}
	return 1
}

// stopLines is how many lines a stop's caption may take: three, two on a
// low screen.
func (b *builder) stopLines() int {
	if b.short() {
		return 2
	}
	return 3
}

// captionPane is the pane whose event the bar tells: the stop's pane at a
// stop; side by side, the first pane whose current event is a key moment,
// else the first whose current event is not idle padding.
func (b *builder) captionPane() int {
	p := b.sc.Player
	if s, ok := p.AtStop(); ok {
		return s.Pane
	}
	n := p.Panes()
	for i := 0; i < n; i++ {
		if p.MomentAt(i, p.Pos()-1) != trace.MomentNone {
			return i
		}
	}
	for i := 0; i < n; i++ {
		if p.Caption(i) != "" {
			return i
		}
	}
	return 0
}

// captionText is the current event's caption, named by its pane's variant
// side by side ("spinlock: B spins …"); "" where there is none.
func (b *builder) captionText() string {
	p := b.sc.Player
	i := b.captionPane()
	c := p.Caption(i)
	if c != "" && p.Panes() > 1 {
		c = p.PaneVariant(i).Name() + ": " + c
	}
	return c
}

// captionH is the height of the caption bar, or of the stop box at a stop,
// in a frame w wide.
func (b *builder) captionH(w float64) float64 {
	th := b.th
	if b.sc.Player.Gated() {
		if b.short() {
			return 0 // the question needs the room
		}
		return layout.LineHeight(b.captionFont()) + th.Px(6)
	}
	if _, ok := b.sc.Player.AtStop(); ok {
		head, text := b.stopFonts()
		lines := len(b.stopText(w - 2*th.Px(2)))
		return th.Px(4) + max(layout.LineHeight(head), b.buttonH()) + float64(lines)*layout.LineHeight(text) + th.Px(6)
	}
	return float64(b.captionLines())*layout.LineHeight(b.captionFont()) + th.Px(6)
}

// stopText is the stop box's text in lines no wider than its inside (w
// less the box's padding), at most stopLines of them.
func (b *builder) stopText(w float64) []string {
	_, text := b.stopFonts()
	s := b.sc.Player.StopCaption()
	if s == "" {
		return nil
	}
	return wrapAtMost(s, text, w-2*b.th.Px(12), b.stopLines())
}

// wrapAtMost wraps s to lines no wider than w, at most n of them: the last
// of n ends with "…" when s is longer (the caller keeps the full text as
// the run's tooltip), and a word wider than w is cut the same way.
func wrapAtMost(s string, f layout.Font, w float64, n int) []string {
	lines := layout.Wrap(s, f, w)
	if len(lines) > n {
		lines = append(lines[:n-1], layout.Fit(strings.Join(lines[n-1:], " ")+" …", f, w))
	}
	for i, ln := range lines {
		lines[i] = layout.Fit(ln, f, w)
	}
	return lines
}

// captionForms are the forms of a caption, longest first: the caption,
// its first sentence, then as many of its words as fit w with "…".
func captionForms(s string, f layout.Font, w float64) []string {
	forms := []string{s}
	if i := strings.Index(s, ". "); i > 0 {
		forms = append(forms, s[:i+1])
	}
	if layout.Width(forms[len(forms)-1], f) > w {
		words := strings.Fields(s)
		short := "…"
		for k := len(words); k > 0; k-- {
			if t := strings.Join(words[:k], " ") + " …"; layout.Width(t, f) <= w {
				short = t
				break
			}
		}
		forms = append(forms, short)
	}
	return forms
}

// captionBar lays out the caption bar, or the stop box at a stop, in r.
func (b *builder) captionBar(r layout.Rect) {
	p, th := b.sc.Player, b.th
	f := b.captionFont()
	if p.Gated() {
		// An open question: the moment's words could give its answer
		// away; the bar says what comes first.
		if r.H >= layout.LineHeight(f) {
			b.l.TextForms("caption", []string{"A question first: answer it to see what happens next.", "Answer the question to go on.", "Answer the question."},
				th.Font(layout.Bold, 14), layout.Rect{X: r.X + th.Px(2), Y: r.Y + th.Px(2), W: r.W - th.Px(4), H: layout.LineHeight(f)}, th.Accent, layout.Left)
		}
		return
	}
	if _, ok := p.AtStop(); ok {
		b.stopBox(r)
		return
	}
	lh := layout.LineHeight(f)
	text := b.captionText()
	if text == "" {
		return
	}
	r = r.Inset(th.Px(2))
	if b.captionLines() > 1 {
		if lines := layout.Wrap(text, f, r.W); len(lines) > 1 {
			lines = wrapAtMost(text, f, r.W, b.captionLines())
			for i, ln := range lines {
				b.l.Text("caption", ln, f, r.X, r.Y+float64(i)*lh, r.W, th.Text, layout.Left)
			}
			if strings.Join(lines, " ") != text {
				b.l.Hits = append(b.l.Hits, layout.Hit{Kind: layout.HitText, Rect: r, Text: text})
			}
			return
		}
	}
	b.l.TextForms("caption", captionForms(text, f, r.W), f, layout.Rect{X: r.X, Y: r.Y, W: r.W, H: lh}, th.Text, layout.Left)
}

// stopBox lays out the stop box in r: what comes next and its caption,
// with a Continue button.
func (b *builder) stopBox(r layout.Rect) {
	p, th := b.sc.Player, b.th
	s, _ := p.AtStop()
	head, text := b.stopFonts()
	box := r.Inset(th.Px(2))
	b.l.Fill("stop", box, th.HighlightFill)
	b.l.Stroke("stop", box, th.Px(2), th.Accent)
	cont := func() { b.h.Forward(func() { p.Continue() }) }
	// A tap anywhere on the box goes on, as the button does.
	b.l.Target("stop", "continue", box, cont)
	pad := th.Px(12)
	bh := b.buttonH()
	row := layout.Rect{X: box.X + pad, Y: box.Y + th.Px(2), W: box.W - 2*pad, H: max(layout.LineHeight(head), bh)}
	w := b.buttonW("Continue")
	btn := layout.Rect{X: row.X + row.W - w, Y: row.Y + (row.H-bh)/2, W: w, H: bh}
	b.button("button Continue", "Continue", btn, true, cont)
	title := player.MomentTitle(s.Moment)
	b.l.TextForms("stop title", []string{"Next: " + title, title, "Next:"}, head, layout.Rect{X: row.X, Y: row.Y, W: btn.X - th.Px(8) - row.X, H: row.H}, th.Text, layout.Left)
	y := row.Y + row.H
	lines := b.stopText(r.W - 2*th.Px(2))
	lh := layout.LineHeight(text)
	for i, ln := range lines {
		b.l.Text("stop caption", ln, text, box.X+pad, y+float64(i)*lh, box.W-2*pad, th.Text, layout.Left)
	}
	if full := p.StopCaption(); strings.Join(lines, " ") != full {
		b.l.Hits = append(b.l.Hits, layout.Hit{Kind: layout.HitText, Rect: layout.Rect{X: box.X + pad, Y: y, W: box.W - 2*pad, H: float64(len(lines)) * lh}, Text: full})
	}
}
