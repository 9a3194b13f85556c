package frame

import (
	"bufferlab/viz/layout"
	"bufferlab/viz/scene"
)

// narration lays out the lesson panel: the step's text (the lesson's
// introduction first, at the start of step 1), which scrolls; an open
// question pinned at the bottom, so that its prompt and every choice are
// in view when the step opens; once answered, the question and its
// explanation in the text, scrolled into view; and the step's closing
// text once its events have run.
func (b *builder) narration(r layout.Rect) {
	ni, no, nt, nh := len(b.l.Items), len(b.l.Overflows), len(b.l.Targets), len(b.l.Hits)
	// The text scrolled to bring the question into view: lay it out again
	// at the new position, in this frame (text below the pane is laid out
	// only once scrolled to, so the question's place is known better at
	// each pass).
	for range 4 {
		if !b.narrationOnce(r) {
			return
		}
		b.l.Items, b.l.Overflows, b.l.Targets, b.l.Hits = b.l.Items[:ni], b.l.Overflows[:no], b.l.Targets[:nt], b.l.Hits[:nh]
	}
	b.narrationOnce(r)
}

// narrationOnce lays the lesson panel out once; it reports whether it
// scrolled the text (to bring an open question or a reveal into view), so
// that what it laid out is stale.
func (b *builder) narrationOnce(r layout.Rect) (scrolled bool) {
	p, th, s := b.sc.Player, b.th, b.s
	inner := b.panel(r, "Lesson")
	k := p.Step()
	st := p.Steps[k]
	prose := b.prose()
	q := p.Question()
	chosen, revealed := p.Answered()
	hover := b.hover

	// An open question, measured at the bottom of the panel.
	textR := inner
	pinned := false
	var qList layout.List
	var qui scene.QuestionUI
	if q != nil && !revealed {
		qw := layout.Rect{X: inner.X + 4, Y: 0, W: inner.W - 8, H: inner.H}
		end, _ := prose.LayoutQuestion(&layout.List{}, qw, 0, q, chosen, revealed, th, nil)
		// Pinned when a line of the text still fits above it.
		if h := end + th.Px(8); h <= inner.H-layout.LineHeight(th.Font(layout.Regular, 14)) {
			pinned = true
			var qr layout.Rect
			textR, qr = inner.SplitBottom(h)
			qr.X, qr.W = inner.X+4, inner.W-8
			b.l.Line("question rule", inner.X, qr.Y, inner.X+inner.W, qr.Y, 1, th.PanelEdge)
			_, qui = prose.LayoutQuestion(&qList, qr, qr.Y+th.Px(6), q, chosen, revealed, th, hover)
		}
	}
	s.narrRect = textR

	// The text: laid out from the scroll position, clipped to its rect,
	// the scroll bar's width kept free at the right.
	body := textR
	body.W -= th.Px(8)
	b.l.ClipScroll(textR)
	y := body.Y - s.narrScroll
	if k == 0 && p.Lesson != nil && len(p.Lesson.Intro) > 0 && p.Pos() == p.StepStart[0] {
		y = prose.LayoutBlocks(b.l, body, y, p.Lesson.Intro, th)
	}
	head := th.Font(layout.Bold, 15)
	for _, ln := range layout.Wrap(st.Title, head, body.W) {
		b.l.Text("step title", ln, head, body.X, y, body.W, th.Text, layout.Left)
		y += layout.LineHeight(head)
	}
	y += 4
	y = prose.LayoutBlocks(b.l, body, y, st.Prose, th)
	if q != nil && !pinned {
		qTop := y
		y, qui = prose.LayoutQuestion(b.l, body, y+4, q, chosen, revealed, th, hover)
		if revealed && !s.revealed {
			// The reveal scrolls into view: the question's top at the
			// panel's top.
			s.narrScroll += qTop - body.Y
			s.revealed, scrolled = true, true
		} else if !revealed && s.autoQ {
			// Keep an open question's choices in view, with as much of
			// the text above them as fits, until the student scrolls.
			want := s.narrScroll + min(y-(body.Y+body.H)+8, qTop-body.Y)
			if y <= body.Y+body.H {
				want = s.narrScroll // in view already
			}
			if want > s.narrScroll+0.5 {
				s.narrScroll, scrolled = want, true
			} else {
				s.autoQ = false
			}
		}
	}
	s.revealed = revealed
	if len(st.After) > 0 && p.Pos() >= p.StepEnd[k] && p.StepEnd[k] > p.StepStart[k] {
		y = prose.LayoutBlocks(b.l, body, y+4, st.After, th)
	}
	var end scene.LessonEndUI
	endTop := y + th.Px(12)
	if e := b.sc.End; e != nil {
		// The end of the lesson: its panel after the last step's words
		// (an explanation just revealed, or the lesson's closing text).
		// Laid out whole: the lesson text scrolls over it.
		box := layout.Rect{X: body.X, Y: endTop, W: body.W, H: 1e5}
		ee := *e
		ee.MinTarget = b.plan.MinTarget
		end = scene.LayoutLessonEnd(b.l, box, ee, th, hover)
		y = endTop + end.Height
	} else {
		s.toEnd = false
	}
	b.l.Unclip()
	s.narrMax = max(0, y+s.narrScroll-(body.Y+body.H)+8)
	s.narrScroll = clamp(s.narrScroll, 0, s.narrMax)
	if s.narrMax > 0 {
		scrollBar(b.l, textR, s.narrScroll, s.narrMax, th)
	}
	if pinned {
		b.l.Append(&qList)
	}
	if e := b.sc.End; e != nil {
		for _, bt := range []struct {
			role string
			r    layout.Rect
			act  func()
		}{{"end next", end.Next, b.h.EndNext}, {"end replay", end.Replay, b.h.EndReplay}, {"end menu", end.Menu, b.h.EndMenu}} {
			// A button scrolled mostly out of the pane cannot be clicked
			// until it is scrolled to (the part in view is too small a
			// target).
			if vis := intersect(bt.r, textR); bt.act != nil && vis.H >= min(bt.r.H, b.plan.MinTarget) {
				b.l.Target(bt.role, bt.role, vis, bt.act)
			}
		}
		if end.Band.Y+end.Band.H > textR.Y+textR.H {
			// The panel's band is below the fold: a strip says the lesson
			// is complete and scrolls to it.
			bh := max(scene.LessonEndBarHeight(th), b.plan.MinTarget)
			bar := layout.Rect{X: textR.X, Y: textR.Y + textR.H - bh, W: textR.W, H: bh}
			scene.LayoutLessonEndBar(b.l, bar, *e, th)
			b.l.Target("end strip", "go to the end of the lesson", bar, func() { s.toEnd = true })
		}
		if s.toEnd {
			want := clamp(s.narrScroll+endTop-body.Y, 0, s.narrMax)
			if want-s.narrScroll < 0.5 && s.narrScroll-want < 0.5 {
				s.toEnd = false
			}
			s.narrScroll = want
		}
	}
	if q != nil && !revealed {
		for i, box := range qui.Choices {
			i := i
			if vis := intersect(box, textR); pinned || vis.H >= min(box.H, b.plan.MinTarget) {
				answer := func() { p.Answer(i) }
				if b.h.Answer != nil {
					answer = func() { b.h.Answer(i) }
				}
				b.l.Target("choice", q.Choices[i], intersect(box, r), answer)
			}
		}
	}
	return scrolled
}

// prose is how the lesson's text is laid out: 14 pt body, choices at
// least a target high.
func (b *builder) prose() scene.Prose {
	return scene.Prose{Size: 14, MinTarget: b.plan.MinTarget, Class: b.sc.Class}
}
