package scene

import (
	"fmt"
	"image/color"

	"bufferlab/lessons"
	"bufferlab/lessons/progress"
	"bufferlab/viz/layout"
)

// EndMark is how a step's question went the first time it was answered.
type EndMark uint8

// The marks of the end panel's list of steps.
const (
	NoQuestion  EndMark = iota // the step asks nothing: no mark
	MarkRight                  // right first time: a tick
	MarkWrong                  // wrong first time: a cross
	MarkSkipped                // skipped or never answered: a dash
)

// EndStep is one line of what a lesson covered: the step's title and its
// question's mark.
type EndStep struct {
	Title string
	Mark  EndMark
}

// LessonEnd is what the end of a lesson shows.
type LessonEnd struct {
	Title string // the lesson's
	Score progress.Score
	Steps []EndStep
	// Next is the next lesson's title, "" after the last lesson.
	Next string
	// MinTarget is the smallest height of a button (0: its text's): 44 px
	// on a touch screen.
	MinTarget float64
	// NoMenu leaves out the Menu button (an embedded lesson has no menu).
	NoMenu bool
}

// NewLessonEnd is the end of lesson l for its progress record rec (nil:
// nothing recorded) and the lesson after it (nil after the last): each
// step's mark is its question's first answer, as the score counts it.
func NewLessonEnd(l *lessons.Lesson, rec *progress.Lesson, next *lessons.Lesson) LessonEnd {
	e := LessonEnd{Title: l.Title, Score: progress.ScoreOf(l, rec)}
	for k, st := range l.Steps {
		m := NoQuestion
		if st.Predict != nil {
			m = MarkSkipped
			if a, ok := rec.FirstAnswer(k); ok {
				m = MarkWrong
				if a.Right {
					m = MarkRight
				}
			}
		}
		e.Steps = append(e.Steps, EndStep{Title: st.Title, Mark: m})
	}
	if next != nil {
		e.Next = next.Title
	}
	return e
}

// LessonEndUI is what LayoutLessonEnd laid out: the band that says the
// lesson is complete (the app points to it while it is out of view), the
// buttons to hit-test (Next is empty after the last lesson) and the height
// it needs.
type LessonEndUI struct {
	Band               layout.Rect
	Next, Replay, Menu layout.Rect
	Height             float64
}

// EndBandFill is the fill of the end panel's band and of the strip that
// points to it: a light tint of the theme's green, used nowhere else (the
// desktop's screenshot test looks for it).
var EndBandFill = color.RGBA{0xe3, 0xf4, 0xec, 0xff}

// LayoutLessonEnd lays out the end of a lesson from the top of r, r.W
// wide, as tall as it needs: a band saying the lesson is complete, the
// score, the buttons (the next lesson, which takes the whole
// width and wraps a long title; Replay and Menu, side by side when they
// fit), the keys that do the same, and what the lesson covered: each step's
// number and title, wrapped, with a tick, a cross or a dash for its
// question's first answer (shapes, not colour alone, and a legend says
// which is which). hover (nil for none) says whether the pointer is over
// a button. Text that cannot fit its line is recorded; when the whole is
// taller than r, one overflow says so (the app scrolls the lesson text).
func LayoutLessonEnd(l *layout.List, r layout.Rect, e LessonEnd, th *layout.Theme, hover func(layout.Rect) bool) LessonEndUI {
	var ui LessonEndUI
	pad := th.Px(8)
	y := r.Y

	// The band. The lesson's title is in the top bar already: the band,
	// the score and the buttons come first and tight, so that in a short
	// lesson pane (1280x720 in presentation mode) they show without
	// scrolling.
	head := th.Font(layout.Bold, 18)
	band := layout.Rect{X: r.X, Y: y, W: r.W, H: layout.LineHeight(head) + pad}
	ui.Band = band
	l.Fill("end band", band, EndBandFill)
	l.Fill("end band edge", layout.Rect{X: r.X, Y: y, W: th.Px(4), H: band.H}, th.Good)
	l.TextIn("end heading", "Lesson complete", head, layout.Rect{X: r.X + th.Px(4) + pad, Y: y, W: r.W - th.Px(4) - 2*pad, H: band.H}, th.Text, layout.Left)
	y += band.H + pad*0.5
	y = wrapped(l, "end score", e.Score.Sentence(), th.Font(layout.Bold, 16), r.X, y, r.W, th.Text)
	y += pad * 0.75

	// The buttons.
	label := th.Font(layout.Bold, 14)
	lh := layout.LineHeight(label)
	if e.Next != "" {
		lines := layout.Wrap("Next lesson: "+e.Next, label, r.W-2*pad)
		ui.Next = layout.Rect{X: r.X, Y: y, W: r.W, H: max(float64(len(lines))*lh+pad, e.MinTarget)}
		fill := th.Accent
		if hover != nil && hover(ui.Next) {
			fill = th.Text
		}
		l.Fill("end next", ui.Next, fill)
		for i, ln := range lines {
			l.Text("end next", ln, label, r.X+r.W/2, y+(ui.Next.H-float64(len(lines))*lh)/2+float64(i)*lh, r.W-2*pad, layout.TextOn(fill), layout.Center)
		}
		y += ui.Next.H + pad*0.5
	} else {
		y = wrapped(l, "end last", "This was the last lesson.", th.Font(layout.Italic, 14), r.X, y, r.W, th.Text)
		y += pad * 0.5
	}
	small := th.Font(layout.Regular, 14)
	bw := func(s string) float64 { return max(th.Px(100), layout.Width(s, small)+4*pad) }
	bh := max(layout.LineHeight(small)+pad, e.MinTarget)
	ui.Replay = layout.Rect{X: r.X, Y: y, W: bw("Replay"), H: bh}
	ui.Menu = layout.Rect{X: ui.Replay.X + ui.Replay.W + pad, Y: y, W: bw("Menu"), H: bh}
	if ui.Menu.X+ui.Menu.W > r.X+r.W {
		// Too narrow for a row: one under the other, the whole width.
		ui.Replay.W, ui.Menu.X, ui.Menu.Y, ui.Menu.W = r.W, r.X, y+bh+pad*0.5, r.W
	}
	buttons := []struct {
		role, text string
		box        layout.Rect
	}{{"end replay", "Replay", ui.Replay}, {"end menu", "Menu", ui.Menu}}
	last := ui.Menu // the keys' line goes beside or under the last button
	if e.NoMenu {
		ui.Replay.W = bw("Replay")
		ui.Menu, last, buttons = layout.Rect{}, ui.Replay, buttons[:1]
	}
	for _, b := range buttons {
		fill, edge := th.Panel, th.PanelEdge
		if hover != nil && hover(b.box) {
			fill, edge = th.Hover, th.Accent
		}
		l.Fill(b.role, b.box, fill)
		l.Stroke(b.role, b.box, 1, edge)
		l.TextIn(b.role, b.text, small, b.box, th.Text, layout.Center)
	}
	// The keys that do the same: beside the buttons when there is room,
	// else under them.
	keys := "Enter: next lesson · R: replay · Esc: menu"
	switch {
	case e.NoMenu && e.Next == "":
		keys = "R: replay"
	case e.NoMenu:
		keys = "Enter: next lesson · R: replay"
	case e.Next == "":
		keys = "R: replay · Esc: menu"
	}
	kf := th.Font(layout.Italic, 12)
	if kx := last.X + last.W + 2*pad; last.Y == ui.Replay.Y && kx+layout.Width(keys, kf) <= r.X+r.W {
		l.Text("end keys", keys, kf, kx, y+(bh-layout.LineHeight(kf))/2, r.X+r.W-kx, th.Muted, layout.Left)
		y += bh + pad*0.5
	} else {
		y = wrapped(l, "end keys", keys, kf, r.X, last.Y+bh+pad*0.25, r.W, th.Muted)
	}
	y += pad * 0.75

	// What was covered.
	l.Line("end rule", r.X, y, r.X+r.W, y, 1, th.PanelEdge)
	y += pad * 0.75
	y = wrapped(l, "end covered", "What you covered", th.Font(layout.Bold, 14), r.X, y, r.W, th.Text)
	body := th.Font(layout.Regular, 13)
	mark := th.Px(16)
	if e.Score.Questions > 0 {
		y = layoutEndLegend(l, r, y, th) + pad*0.25
	}
	for k, st := range e.Steps {
		role := fmt.Sprintf("end step %d", k+1)
		lines := layout.Wrap(fmt.Sprintf("%d. %s", k+1, st.Title), body, r.W-mark-pad)
		endMark(l, role+" mark", st.Mark, r.X, y, mark, layout.LineHeight(body), th)
		for i, ln := range lines {
			l.Text(role, ln, body, r.X+mark+pad, y+float64(i)*layout.LineHeight(body), r.W-mark-pad, th.Text, layout.Left)
		}
		y += float64(len(lines))*layout.LineHeight(body) + pad*0.25
	}
	ui.Height = y + pad - r.Y
	if ui.Height > r.H+0.5 {
		l.Overflows = append(l.Overflows, layout.Overflow{Role: "lesson end", Text: "the end of " + e.Title, Axis: "h", Need: ui.Height, Have: r.H})
	}
	return ui
}

// wrapped lays out s in f from (x, y), wrapped to w, and returns the y
// below it. A word wider than w is recorded.
func wrapped(l *layout.List, role, s string, f layout.Font, x, y, w float64, c color.RGBA) float64 {
	for _, ln := range layout.Wrap(s, f, w) {
		l.Text(role, ln, f, x, y, w, c, layout.Left)
		y += layout.LineHeight(f)
	}
	return y
}

// layoutEndLegend lays out what the marks mean, the items flowing onto a
// new line when the width runs out, and returns the y below it.
func layoutEndLegend(l *layout.List, r layout.Rect, y float64, th *layout.Theme) float64 {
	f := th.Font(layout.Regular, 12)
	lh := layout.LineHeight(f)
	mark, gap := th.Px(14), th.Px(4)
	x := r.X
	for _, it := range []struct {
		m    EndMark
		text string
	}{{MarkRight, "right first time"}, {MarkWrong, "wrong first time"}, {MarkSkipped, "not answered"}} {
		w := mark + gap + layout.Width(it.text, f)
		if x > r.X && x+w > r.X+r.W {
			x, y = r.X, y+lh
		}
		endMark(l, "end legend mark", it.m, x, y, mark, lh, th)
		l.Text("end legend", it.text, f, x+mark+gap, y, r.X+r.W-(x+mark+gap), th.Muted, layout.Left)
		x += w + 3*gap
	}
	return y + lh
}

// endMark draws mark m in a square size wide at (x, y), centred on a line
// lh high: a tick, a cross or a dash, each a shape of its own.
func endMark(l *layout.List, role string, m EndMark, x, y, size, lh float64, th *layout.Theme) {
	s := size * 0.7
	x0, y0 := x+(size-s)/2, y+(lh-s)/2
	w := max(2, size/7)
	switch m {
	case MarkRight:
		l.Line(role+" right", x0, y0+s*0.55, x0+s*0.38, y0+s, w, th.Good)
		l.Line(role+" right", x0+s*0.38, y0+s, x0+s, y0+s*0.05, w, th.Good)
	case MarkWrong:
		l.Line(role+" wrong", x0, y0, x0+s, y0+s, w, th.Error)
		l.Line(role+" wrong", x0, y0+s, x0+s, y0, w, th.Error)
	case MarkSkipped:
		l.Line(role+" skipped", x0+s*0.1, y0+s/2, x0+s*0.9, y0+s/2, w, th.Muted)
	}
}

// LessonEndBarHeight is the height of LayoutLessonEndBar's strip.
func LessonEndBarHeight(th *layout.Theme) float64 {
	return layout.LineHeight(th.Font(layout.Bold, 14)) + th.Px(10)
}

// LayoutLessonEndBar lays out, in r (LessonEndBarHeight high), the strip
// that says the lesson is complete while the end panel's band is still
// below the visible lesson text: the score and where to look, or as much
// of it as fits.
func LayoutLessonEndBar(l *layout.List, r layout.Rect, e LessonEnd, th *layout.Theme) {
	// Dark text on the band's tint, the green edge above it: the band's
	// look, and a contrast white on the green would not have.
	l.Fill("end bar", r, EndBandFill)
	l.Line("end bar", r.X, r.Y, r.X+r.W, r.Y, th.Px(3), th.Good)
	f := th.Font(layout.Bold, 14)
	inner := r.Inset(th.Px(5))
	s := "Lesson complete"
	if e.Score.Questions > 0 {
		s += fmt.Sprintf(": %d of %d right first time", e.Score.Right, e.Score.Questions)
	}
	for _, try := range []string{s + ".  ↓ Scroll down: what's next", s + "  ↓", "Lesson complete ↓"} {
		if layout.Width(try, f) <= inner.W {
			s = try
			break
		}
	}
	l.FitText("end bar", s, f, inner.X, inner.Y, inner.W, th.Text, layout.Left)
}
