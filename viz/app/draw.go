package app

import (
	"fmt"
	"image/color"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/viz/render"
	"bufferlab/viz/scene"
	"bufferlab/viz/scenedraw"
)

func (a *App) drawMenu(dst *ebiten.Image) {
	th := a.th
	r := render.Rect{X: 0, Y: 0, W: float64(a.w), H: float64(a.h)}.Inset(24 * th.Scale)
	title := th.Face(render.Bold, 26)
	render.Text(dst, "BufferLab", title, r.X, r.Y, th.Text, render.Left)
	y := r.Y + render.LineHeight(title)
	sub := th.Face(render.Regular, 14)
	render.Text(dst, "PostgreSQL's buffer manager, run step by step. Choose a lesson (↑/↓ and Enter, or click).", sub, r.X, y, th.Muted, render.Left)
	y += render.LineHeight(sub) * 2
	head := th.Face(render.Bold, 16)
	body := th.Face(render.Regular, 13)
	for i, l := range a.lessons {
		h := render.LineHeight(head) + render.LineHeight(body)*2 + 16
		box := render.Rect{X: r.X, Y: y, W: min(r.W, 900*th.Scale), H: h}
		fill := th.Panel
		if i == a.menuSel || a.ui.hover(box) {
			fill = th.Hover
		}
		render.Fill(dst, box, fill)
		edge, w := th.PanelEdge, 1.0
		if i == a.menuSel {
			edge, w = th.Accent, 2
		}
		render.Stroke(dst, box, w, edge)
		render.Text(dst, fmt.Sprintf("%d. %s", i+1, l.Title), head, box.X+12, box.Y+8, th.Text, render.Left)
		render.Text(dst, l.Summary, body, box.X+12, box.Y+8+render.LineHeight(head), th.Text, render.Left)
		render.Text(dst, fmt.Sprintf("%d steps, %d questions   ·   #lesson=%s", len(l.Steps), l.Questions(), l.Name), body,
			box.X+12, box.Y+8+render.LineHeight(head)+render.LineHeight(body), th.Muted, render.Left)
		i := i
		a.ui.add(box, func() { a.menuSel = i; a.openFromMenu(i) })
		y += h + 12
	}
	// Fast mode.
	fbox := render.Rect{X: r.X, Y: y, W: min(r.W, 900*th.Scale), H: render.LineHeight(head) + render.LineHeight(body) + 16}
	ffill := th.Panel
	if a.ui.hover(fbox) {
		ffill = th.Hover
	}
	render.Fill(dst, fbox, ffill)
	render.Stroke(dst, fbox, 1, th.PanelEdge)
	render.Text(dst, "Fast mode: measure the pool on this machine (F2)", head, fbox.X+12, fbox.Y+8, th.Text, render.Left)
	render.Text(dst, "bench pool --quick: a hit and a miss in ns, beside a dependent load and a stream", body, fbox.X+12, fbox.Y+8+render.LineHeight(head), th.Muted, render.Left)
	a.ui.add(fbox, func() { a.startFast("pool") })
	render.Text(dst, "? help   P presentation mode   F fullscreen", body, r.X, float64(a.h)-24*th.Scale-render.LineHeight(body), th.Muted, render.Left)
}

func (a *App) drawPlayer(dst *ebiten.Image) {
	th := a.th
	p := a.p
	v := p.View()
	full := render.Rect{X: 0, Y: 0, W: float64(a.w), H: float64(a.h)}.Inset(8)
	barFace := th.Face(render.Bold, 14)
	top, rest := full.SplitTop(render.LineHeight(barFace) + 10)
	rest, bottom := rest.SplitBottom(70 * th.Scale)
	a.drawTopBar(dst, top)
	if p.Panes() > 1 {
		a.drawCompare(dst, rest, bottom)
		return
	}
	if m, state := a.mainScene(); m != nil {
		a.drawMechScene(dst, rest, bottom, m, state)
		return
	}
	rest, counters := rest.SplitBottom(44 * th.Scale)
	left, right := rest.SplitLeft(rest.W * 0.6)

	// Left: the pool, the lanes, the partitions.
	poolR, lower := left.SplitTop(left.H * 0.62)
	inner := scenedraw.Panel(dst, poolR.Inset(2), a.title("pool", v), th)
	inner, wordR := inner.SplitBottom(render.LineHeight(th.Face(render.Regular, 11))*4.6 + 6)
	we, wok := scene.LastStateWordEvent(p.TL.Events(), p.Pos(), 4096)
	scenedraw.DrawStateWord(clip(dst, wordR), wordR.Inset(1), we, wok, v, th)
	t0 := time.Now()
	a.pool.Draw(dst, inner, v, th)
	if m := a.measure; m != nil {
		m.PoolDraw = append(m.PoolDraw, time.Since(t0))
	}
	a.ui.pool = inner
	lanesR, partsR := lower.SplitLeft(lower.W * 0.55)
	scenedraw.DrawLanes(dst, scenedraw.Panel(dst, lanesR.Inset(2), "Backends", th), v, th)
	scenedraw.DrawPartitions(dst, scenedraw.Panel(dst, partsR.Inset(2), "Mapping table: 128 partitions", th), v, th)

	// Right: narration over code.
	narrR, panelsR, codeR, ms, heights := a.splitRight(right)
	nr := scenedraw.Panel(dst, narrR.Inset(2), "Lesson", th)
	a.drawNarration(clip(dst, nr), nr)
	a.drawMechPanels(dst, panelsR, ms, heights)
	cr := scenedraw.Panel(dst, codeR.Inset(2), "Code: the modelled PostgreSQL function", th)
	scenedraw.DrawCode(clip(dst, cr), cr, v, th)

	scenedraw.DrawCounters(dst, counters.Inset(2), v.Counters(), th)
	a.drawTimeline(dst, bottom.Inset(2))
	a.drawFlash(dst, bottom)
}

// drawTopBar draws where we are (lesson, step) and the Menu and ? buttons.
func (a *App) drawTopBar(dst *ebiten.Image, top render.Rect) {
	th, p := a.th, a.p
	barFace := th.Face(render.Bold, 14)
	st := p.Steps[p.Step()]
	render.Text(dst, fmt.Sprintf("%s   ·   step %d of %d: %s", p.Title, p.Step()+1, len(p.Steps), st.Title), barFace, top.X, top.Y+2, th.Text, render.Left)
	menuBtn := render.Button{Rect: render.Rect{X: top.X + top.W - 80*th.Scale, Y: top.Y, W: 80 * th.Scale, H: top.H - 4}, Label: "Menu", Enabled: true}
	menuBtn.Draw(dst, th, a.ui.hover(menuBtn.Rect))
	a.ui.add(menuBtn.Rect, func() { a.p = nil })
	helpBtn := render.Button{Rect: render.Rect{X: menuBtn.Rect.X - 50*th.Scale, Y: top.Y, W: 44 * th.Scale, H: top.H - 4}, Label: "?", Enabled: true}
	helpBtn.Draw(dst, th, a.ui.hover(helpBtn.Rect))
	a.ui.add(helpBtn.Rect, func() { a.help = !a.help })

}

// drawFlash draws the short message of the last action above the timeline.
func (a *App) drawFlash(dst *ebiten.Image, bottom render.Rect) {
	th := a.th
	if a.flashTicks > 0 {
		face := th.Face(render.Bold, 14)
		w := render.TextWidth(a.flash, face) + 24
		box := render.Rect{X: (float64(a.w) - w) / 2, Y: bottom.Y - 40*th.Scale, W: w, H: render.LineHeight(face) + 12}
		render.Fill(dst, box, th.Text)
		render.Text(dst, a.flash, face, box.X+12, box.Y+6, th.Panel, render.Left)
	}
}

// clip returns the part of dst inside r, so that a panel's text cannot
// spill over its neighbours (coordinates stay those of dst).
func clip(dst *ebiten.Image, r render.Rect) *ebiten.Image {
	return dst.SubImage(r.Image()).(*ebiten.Image)
}

func (a *App) drawNarration(dst *ebiten.Image, r render.Rect) {
	th := a.th
	p := a.p
	k := p.Step()
	st := p.Steps[k]
	if k != a.narrStep {
		a.narrStep, a.narrScroll = k, 0
	}
	a.ui.narr = r
	y := r.Y - a.narrScroll
	if k == 0 && p.Lesson != nil && len(p.Lesson.Intro) > 0 && p.Pos() == p.StepStart[0] {
		y = a.prose.DrawBlocks(dst, r, y, p.Lesson.Intro, th)
	}
	head := th.Face(render.Bold, 15)
	render.Text(dst, st.Title, head, r.X, y, th.Text, render.Left)
	y += render.LineHeight(head) + 4
	y = a.prose.DrawBlocks(dst, r, y, st.Prose, th)
	if q := p.Question(); q != nil {
		chosen, revealed := p.Answered()
		var ui scene.QuestionUI
		qTop := y
		y, ui = a.prose.DrawQuestion(dst, r, y+4, q, chosen, revealed, th, a.ui.hover)
		// Keep an open question's choices in view, with as much of the
		// text above them as fits (↑/↓ scroll the rest).
		if p.Gated() && y > r.Y+r.H && a.narrScroll == 0 {
			a.narrScroll = min(y-(r.Y+r.H)+8, qTop-r.Y)
		}
		if !revealed {
			for i, box := range ui.Choices {
				i := i
				a.ui.add(box, func() { p.Answer(i) })
			}
		}
	}
	if len(st.After) > 0 && p.Pos() >= p.StepEnd[k] && p.StepEnd[k] > p.StepStart[k] {
		y = a.prose.DrawBlocks(dst, r, y+4, st.After, th)
	}
	a.narrMax = max(0, y+a.narrScroll-(r.Y+r.H)+8)
	if a.narrMax > 0 {
		// A scroll bar says there is more.
		frac := r.H / (r.H + a.narrMax)
		bar := render.Rect{X: r.X + r.W - 4, Y: r.Y + (r.H-r.H*frac)*a.narrScroll/a.narrMax, W: 4, H: r.H * frac}
		render.Fill(dst, bar, th.PanelEdge)
	}
}

func (a *App) drawTimeline(dst *ebiten.Image, r render.Rect) {
	th := a.th
	p := a.p
	rowH := r.H / 2
	buttons, scrub := r.SplitTop(rowH)
	type btn struct {
		label string
		act   func()
		on    bool
	}
	gated := p.Gated()
	bs := []btn{
		{"|< start", p.Start, false},
		{"<< step", p.PrevStep, false},
		{"< back", func() { p.Back(1) }, false},
		{"play", func() { a.forwardOr(p.Toggle) }, p.Playing()},
		{"next >", func() { a.forwardOr(func() { p.Forward(1) }) }, false},
		{"op end", func() { a.forwardOr(p.ToOpEnd) }, false},
		{"step >>", func() { p.NextStep() }, false},
		{"end >|", p.End, false},
		{"slower", p.Slower, false},
		{"faster", p.Faster, false},
	}
	if p.Playing() {
		bs[3].label = "pause"
	}
	face := th.Face(render.Regular, 13)
	x := buttons.X
	for _, b := range bs {
		w := render.TextWidth(b.label, face) + 22*th.Scale
		rr := render.Rect{X: x, Y: buttons.Y + 2, W: w, H: rowH - 6}
		bt := render.Button{Rect: rr, Label: b.label, Active: b.on, Enabled: true}
		bt.Draw(dst, th, a.ui.hover(rr))
		a.ui.add(rr, b.act)
		x += w + 6
	}
	// The status, as much of it as fits right of the buttons.
	room := buttons.X + buttons.W - x - 8
	status := fmt.Sprintf("speed %s   event %d / %d", p.SpeedLabel(), p.Pos(), p.Len())
	if gated && render.TextWidth("answer the question to go on   ·   "+status, face) <= room {
		status = "answer the question to go on   ·   " + status
	}
	if render.TextWidth(status, face) > room {
		status = fmt.Sprintf("%s  %d/%d", p.SpeedLabel(), p.Pos(), p.Len())
	}
	if render.TextWidth(status, face) <= room {
		render.Text(dst, status, face, buttons.X+buttons.W, buttons.Y+(rowH-render.LineHeight(face))/2, th.Text, render.Right)
	}

	// The scrub bar with a tick per step.
	bar := render.Rect{X: scrub.X, Y: scrub.Y + scrub.H*0.3, W: scrub.W, H: scrub.H * 0.4}
	render.Fill(dst, bar, th.Free)
	render.Stroke(dst, bar, 1, th.PanelEdge)
	if n := p.Len(); n > 0 {
		f := float64(p.Pos()) / float64(n)
		render.Fill(dst, render.Rect{X: bar.X, Y: bar.Y, W: bar.W * f, H: bar.H}, th.Accent)
		for _, s := range p.StepStart {
			x := bar.X + bar.W*float64(s)/float64(n)
			render.Line(dst, x, bar.Y-4, x, bar.Y+bar.H+4, 2, th.Text)
		}
	}
	a.ui.scrub = render.Rect{X: bar.X, Y: scrub.Y, W: bar.W, H: scrub.H}
}

var helpLines = []string{
	"Space          play / pause (stops at the end of each step)",
	"→ / ←          one event forward / back      Shift: ten",
	"+ / −          faster / slower (¼× … 64× events per frame)",
	"O              play to the end of this operation",
	"PgDn / N       next step        PgUp / B   previous step",
	"Home / End     first / last state",
	"1 – 9          answer a question        Enter   skip it / go on",
	"↑ / ↓          scroll the lesson text (or the mouse wheel over it)",
	"mouse wheel    zoom the pool (large pools are a heat map)",
	"click the bar  seek",
	"F              fullscreen        P   presentation mode (large type)",
	"D              dark / light theme",
	"? or H         this help         Esc   close / back to the menu",
}

func (a *App) drawHelp(dst *ebiten.Image) {
	th := a.th
	face := th.Face(render.Mono, 14)
	lh := render.LineHeight(face)
	w, h := 720*th.Scale, lh*float64(len(helpLines)+3)
	box := render.Rect{X: (float64(a.w) - w) / 2, Y: (float64(a.h) - h) / 2, W: w, H: h}
	render.Fill(dst, render.Rect{W: float64(a.w), H: float64(a.h)}, th.Scrim)
	render.Fill(dst, box, th.Panel)
	render.Stroke(dst, box, 2, th.Accent)
	render.Text(dst, "Keys", th.Face(render.Bold, 16), box.X+16, box.Y+10, th.Text, render.Left)
	for i, l := range helpLines {
		render.Text(dst, l, face, box.X+16, box.Y+14+lh*float64(i+1), th.Text, render.Left)
	}
	a.ui.add(box, func() { a.help = false })
}

func (a *App) drawError(dst *ebiten.Image) { a.drawMessage(dst, "Error", a.errMsg, a.th.Error, 3) }

// drawNotice draws a notice: what was asked for was done another way.
func (a *App) drawNotice(dst *ebiten.Image) { a.drawMessage(dst, "Note", a.notice, a.th.Text, 2) }

func (a *App) drawMessage(dst *ebiten.Image, title, msg string, col color.Color, border float64) {
	th := a.th
	face := th.Face(render.Regular, 14)
	w := min(float64(a.w)-40, 900)
	lines := render.Wrap(msg, face, w-32)
	h := render.LineHeight(face)*float64(len(lines)+2) + 30
	box := render.Rect{X: (float64(a.w) - w) / 2, Y: float64(a.h)/2 - h/2, W: w, H: h}
	render.Fill(dst, box, th.Panel)
	render.Stroke(dst, box, border, col)
	render.Text(dst, title, th.Face(render.Bold, 16), box.X+16, box.Y+10, col, render.Left)
	for i, l := range lines {
		render.Text(dst, l, face, box.X+16, box.Y+16+render.LineHeight(face)*float64(i+1), th.Text, render.Left)
	}
	render.Text(dst, "Click or press Esc to close.", th.Face(render.Italic, 12), box.X+16, box.Y+box.H-24, th.Muted, render.Left)
}
