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
// tooltip), the same height whatever it says, so that nothing above it
// moves while the player plays.
//
// At a stop (the player paused just before a key moment) the stop box
// says what comes next: "Next: " and what the moment is, then the
// moment's caption, in larger type, over up to three lines, and a Continue
// button (the whole box is a target too, for a tap). It sits at the foot
// of the right column, so that the scene keeps its size; on a phone,
// whatever its tab shows, it takes the caption bar's place. While a question is open (at its stop,
// before the answer) the bar says only that the question comes first, in
// one line (none on a low screen, where the question needs the room): the
// moment's words could give the answer away.

// captionFont is the caption bar's type.
func (b *builder) captionFont() layout.Font { return b.th.Font(layout.Regular, 14) }

// stopFonts are the stop box's heading and text: larger than the
// caption bar's.
func (b *builder) stopFonts() (head, text layout.Font) {
	return b.th.Font(layout.Bold, 16), b.th.Font(layout.Regular, 16)
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
	if _, ok := b.sc.Player.AtStop(); ok && b.stopWide {
		return b.stopText(w).h
	}
	return layout.LineHeight(b.captionFont()) + th.Px(6)
}

// stopLayout is the stop box's text laid out for a box w wide: the heading
// ("Next: " and what the moment is) in bold at the start of the first
// line, the moment's caption after it and on the lines below, at most
// three lines (two on a low screen or in presentation mode, four where
// the box is so narrow that the Continue button goes under the text).
type stopLayout struct {
	title string   // the heading, in the longest form that fits a line
	lines []string // the caption's lines: the first follows the title
	textW float64  // the text's width
	below bool     // the button under the text (a narrow box)
	whole bool     // the title and lines say all of it
	h     float64  // the box's height
	lh    float64  // a line's height
}

// stopText lays out the stop box's text for a box w wide (see stopLayout).
func (b *builder) stopText(w float64) stopLayout {
	th := b.th
	p := b.sc.Player
	s, _ := p.AtStop()
	head, text := b.stopFonts()
	pad := th.Px(12)
	var st stopLayout
	st.textW = w - 2*th.Px(2) - 2*pad - b.buttonW("Continue") - th.Px(12)
	maxLines := 3
	if b.short() || b.plan.Presentation && b.plan.Class == Desk {
		maxLines = 2
	}
	if st.textW < th.Px(420) {
		st.below, st.textW, maxLines = true, w-2*th.Px(2)-2*pad, 4
	}
	full := "Next: " + player.MomentTitle(s.Moment) + "."
	st.title = "Next:"
	for _, t := range []string{full, player.MomentTitle(s.Moment) + ".", "Next:"} {
		if layout.Width(t, head) <= st.textW {
			st.title = t
			break
		}
	}
	caption := p.StopCaption()
	// The words that fit on the first line after the title, then the
	// rest wrapped.
	words := strings.Fields(caption)
	room := st.textW - layout.Width(st.title+" ", head)
	k := 0
	for k < len(words) && layout.Width(strings.Join(words[:k+1], " "), text) <= room {
		k++
	}
	st.lines = []string{strings.Join(words[:k], " ")}
	if k < len(words) {
		st.lines = append(st.lines, layout.Wrap(strings.Join(words[k:], " "), text, st.textW)...)
	}
	if len(st.lines) > maxLines {
		st.lines = append(st.lines[:maxLines-1], layout.Fit(strings.Join(st.lines[maxLines-1:], " ")+" …", text, st.textW))
	}
	for i, ln := range st.lines {
		if i > 0 {
			st.lines[i] = layout.Fit(ln, text, st.textW)
		}
	}
	st.whole = st.title == full && strings.Join(strings.Fields(strings.Join(st.lines, " ")), " ") == strings.Join(words, " ")
	st.lh = max(layout.LineHeight(head), layout.LineHeight(text))
	st.h = th.Px(2) + th.Px(6) + float64(len(st.lines))*st.lh + th.Px(8)
	if st.below {
		st.h += b.buttonH() + th.Px(4)
	} else {
		st.h = max(st.h, b.buttonH()+th.Px(2)+th.Px(12))
	}
	return st
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
	if _, ok := p.AtStop(); ok && b.stopWide {
		b.stopBox(r)
		return
	}
	lh := layout.LineHeight(f)
	text := b.captionText()
	if text == "" {
		return
	}
	r = r.Inset(th.Px(2))
	b.l.TextForms("caption", captionForms(text, f, r.W), f, layout.Rect{X: r.X, Y: r.Y, W: r.W, H: lh}, th.Text, layout.Left)
}

// stopColumn lays out the stop box at the foot of a frame's right column
// r, at a stop (not on a phone, where it is the caption bar), and returns
// what is left of r.
func (b *builder) stopColumn(r layout.Rect) layout.Rect {
	p := b.sc.Player
	if _, ok := p.AtStop(); !ok || p.Gated() || b.stopWide {
		return r
	}
	rest, box := r.SplitBottom(b.stopText(r.W).h)
	b.stopBox(box)
	return rest
}

// stopBox lays out the stop box in r: what comes next and its caption,
// with a Continue button.
func (b *builder) stopBox(r layout.Rect) {
	p, th := b.sc.Player, b.th
	head, text := b.stopFonts()
	st := b.stopText(r.W)
	box := r.Inset(th.Px(2))
	b.l.Fill("stop", box, th.HighlightFill)
	b.l.Stroke("stop", box, th.Px(2), th.Accent)
	cont := func() { b.h.Forward(func() { p.Continue() }) }
	// A tap anywhere on the box goes on, as the button does.
	b.l.Target("stop", "continue", box, cont)
	pad := th.Px(12)
	bh, bw := b.buttonH(), b.buttonW("Continue")
	btn := layout.Rect{X: box.X + box.W - pad - bw, Y: box.Y + (box.H-bh)/2, W: bw, H: bh}
	if st.below {
		btn.Y = box.Y + box.H - th.Px(6) - bh
	}
	b.button("button Continue", "Continue", btn, true, cont)
	x, y := box.X+pad, box.Y+th.Px(6)
	tw := layout.Width(st.title+" ", head)
	b.l.Text("stop title", st.title, head, x, y, st.textW, th.Text, layout.Left)
	for i, ln := range st.lines {
		if i == 0 {
			b.l.Text("stop caption", ln, text, x+tw, y, st.textW-tw, th.Text, layout.Left)
			continue
		}
		b.l.Text("stop caption", ln, text, x, y+float64(i)*st.lh, st.textW, th.Text, layout.Left)
	}
	if !st.whole {
		// Cut short: the whole of it is the text's tooltip.
		full := "Next: " + player.MomentTitle(mustStop(p).Moment) + ". " + p.StopCaption()
		b.l.Hits = append(b.l.Hits, layout.Hit{Kind: layout.HitText, Rect: layout.Rect{X: x, Y: y, W: st.textW, H: float64(len(st.lines)) * st.lh}, Text: full})
	}
}

// mustStop is the stop the player is at (the zero Stop when none).
func mustStop(p *player.Player) player.Stop {
	s, _ := p.AtStop()
	return s
}
