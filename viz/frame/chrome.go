package frame

import (
	"fmt"

	"bufferlab/viz/keymap"
	"bufferlab/viz/layout"
	"bufferlab/viz/mech"
	"bufferlab/viz/scene"
)

// buttonFont is the type of buttons and tabs.
func (b *builder) buttonFont() layout.Font { return b.th.Font(layout.Regular, 13) }

// buttonH is a button's height: its text with padding, at least the
// plan's smallest target.
func (b *builder) buttonH() float64 {
	return max(b.plan.MinTarget, layout.LineHeight(b.buttonFont())+b.th.Px(12))
}

// buttonW is the width a button with label needs.
func (b *builder) buttonW(label string) float64 {
	return max(b.plan.MinTarget, layout.Width(label, b.buttonFont())+b.th.Px(20))
}

// button lays out a labelled button and its target; active draws it
// pressed (play while playing, the tab shown).
func (b *builder) button(role, label string, r layout.Rect, active bool, act func()) {
	th := b.th
	fill := th.Panel
	switch {
	case active:
		fill = th.Accent
	case b.hover(r):
		fill = th.Hover
	}
	b.l.Fill(role, r, fill)
	edge := th.PanelEdge
	if b.hover(r) {
		edge = th.Accent
	}
	b.l.Stroke(role, r, 1, edge)
	b.l.TextIn(role, label, b.buttonFont(), r, layout.TextOn(fill), layout.Center)
	b.l.Target(role, label, r, act)
}

// topBar lays out where the lesson is (its title and step, in the longest
// form that fits) and the Menu and ? buttons.
func (b *builder) topBar(r layout.Rect, tabs []Tab) {
	p, th := b.sc.Player, b.th
	st := p.Steps[p.Step()]
	bh := min(r.H, b.buttonH())
	helpW := b.buttonW("?")
	// The buttons from the right: Menu (not in an embedded page), ?,
	// Legend, Link and Edit where the page has them.
	right := r.X + r.W + th.Px(6)
	if b.h.Menu != nil {
		menuW := b.buttonW("Menu")
		menu := layout.Rect{X: r.X + r.W - menuW, Y: r.Y, W: menuW, H: bh}
		b.button("button Menu", "Menu", menu, false, b.h.Menu)
		right = menu.X
	}
	help := layout.Rect{X: right - helpW - th.Px(6), Y: r.Y, W: helpW, H: bh}
	b.button("button ?", "?", help, b.sc.Help, b.h.Help)
	if b.poolLegend() {
		w := b.buttonW("Legend")
		help = layout.Rect{X: help.X - w - th.Px(6), Y: r.Y, W: w, H: bh}
		b.button("button Legend", "Legend", help, b.sc.Legend, b.h.Legend)
	}
	for _, x := range []struct {
		label string
		act   func()
	}{{"Link", b.h.Link}, {"Edit", b.h.Edit}} {
		if x.act == nil {
			continue
		}
		w := b.buttonW(x.label)
		help = layout.Rect{X: help.X - w - th.Px(6), Y: r.Y, W: w, H: bh}
		b.button("button "+x.label, x.label, help, false, x.act)
	}
	// On a short screen the tabs share the bar.
	for i := len(tabs) - 1; i >= 0; i-- {
		t := tabs[i]
		name := tabNames[t]
		w := b.buttonW(name)
		help = layout.Rect{X: help.X - w - th.Px(6), Y: r.Y, W: w, H: bh}
		b.button("tab "+name, name, help, b.s.Tab == t, func() { b.s.Tab = t })
	}
	k, n := p.Step()+1, len(p.Steps)
	forms := []string{
		fmt.Sprintf("%s   ·   step %d of %d: %s", p.Title, k, n, st.Title),
		fmt.Sprintf("Step %d of %d: %s", k, n, st.Title),
		fmt.Sprintf("%d/%d %s", k, n, st.Title),
		fmt.Sprintf("Step %d of %d", k, n),
	}
	box := layout.Rect{X: r.X, Y: r.Y, W: help.X - th.Px(8) - r.X, H: bh}
	b.l.TextForms("top title", forms, th.Font(layout.Bold, 14), box, th.Text, layout.Left)
}

var tabNames = map[Tab]string{TabLesson: "Lesson", TabScene: "Scene", TabCode: "Code"}

// short reports a screen too low for a bar of tabs and a two-row
// timeline (a phone held sideways).
func (b *builder) short() bool { return b.in.H < 500 }

// tabs lays out a row of tab buttons over r and returns the height used.
func (b *builder) tabs(r layout.Rect, tabs []Tab) float64 {
	names := tabNames
	h := b.buttonH()
	w := r.W / float64(len(tabs))
	for i, t := range tabs {
		t := t
		box := layout.Rect{X: r.X + float64(i)*w, Y: r.Y, W: w - 4, H: h}
		b.button("tab "+names[t], names[t], box, b.s.Tab == t, func() { b.s.Tab = t })
	}
	return h + 4
}

// tlButton is one of the timeline's buttons: its label, the shorter label
// used where the long ones do not fit, and what it does.
type tlButton struct {
	long, short string
	act         func()
	on          bool
	phone       bool // kept on a phone
}

// timelineH is the height of the timeline: a row of buttons and the scrub
// bar, or on a low screen the two side by side in one row.
func (b *builder) timelineH() float64 {
	if b.short() {
		return b.buttonH() + 6 // the row (the scrub bar beside the buttons), the insets
	}
	return b.buttonH() + 4 + max(b.th.Px(26), b.plan.MinTarget) + 6 // the row, the scrub bar, the insets
}

// timeline lays out the player's controls in r: the buttons (long labels,
// or the short ones when the long do not fit; a phone keeps the moves and
// the speed), the status in the longest form that fits, and the scrub bar
// with a tick at each step's start.
func (b *builder) timeline(r layout.Rect) {
	p, th := b.sc.Player, b.th
	fwd := func(f func()) func() { return func() { b.h.Forward(f) } }
	bs := []tlButton{
		{"|< start", "|<", p.Start, false, false},
		{"<< step", "<<", p.PrevStep, false, true},
		{"< back", "<", func() { p.Back(1) }, false, true},
		{"play", "play", fwd(p.Toggle), p.Playing(), true},
		{"next >", ">", fwd(func() { p.Forward(1) }), false, true},
		{"op end", "op", fwd(p.ToOpEnd), false, false},
		{"step >>", ">>", func() { p.NextStep() }, false, true},
		{"end >|", ">|", p.End, false, false},
		{"slower", "-", p.Slower, false, true},
		{"faster", "+", p.Faster, false, true},
	}
	if p.Playing() {
		bs[3].long, bs[3].short = "pause", "pause"
	}
	if b.plan.Class == Phone {
		var kept []tlButton
		for _, x := range bs {
			if x.phone {
				kept = append(kept, x)
			}
		}
		bs = kept
	}
	gap := th.Px(6)
	width := func(short bool) float64 {
		w := 0.0
		for _, x := range bs {
			lbl := x.long
			if short {
				lbl = x.short
			}
			w += b.buttonW(lbl) + gap
		}
		return w
	}
	bh := b.buttonH()
	row, scrub := r.SplitTop(bh + 4)
	if b.short() {
		// One row: the buttons, then the scrub bar beside them.
		row, scrub = r.SplitLeft(min(r.W*0.7, width(false)))
		row.W = max(row.W, min(r.W*0.7, width(true)))
		_, scrub = r.SplitLeft(row.W)
		scrub.H = bh
	}
	short := width(false) > row.W
	x := row.X
	if short && width(true) < row.W {
		// Spread the short buttons over the row: wider targets.
		gap += (row.W - width(true)) / float64(len(bs))
	}
	for _, bt := range bs {
		lbl := bt.long
		if short {
			lbl = bt.short
		}
		w := b.buttonW(lbl)
		box := layout.Rect{X: x, Y: row.Y, W: w, H: bh}
		b.button("button "+bt.long, lbl, box, bt.on, bt.act)
		x += w + gap
	}
	status := layout.Rect{X: x, Y: row.Y, W: row.X + row.W - x, H: bh}
	if status.W > th.Px(20) && !b.short() {
		pos := fmt.Sprintf("speed %s   event %d / %d", p.SpeedLabel(), p.Pos(), p.Len())
		forms := []string{pos, fmt.Sprintf("%s  %d/%d", p.SpeedLabel(), p.Pos(), p.Len()), fmt.Sprintf("%d/%d", p.Pos(), p.Len())}
		if p.Gated() {
			forms = append([]string{"answer the question to go on   ·   " + pos}, forms...)
		}
		// Too narrow for the last form too: leave the status out (the
		// scrub bar shows the position).
		if layout.Width(forms[len(forms)-1], b.buttonFont()) <= status.W {
			b.l.TextForms("timeline status", forms, b.buttonFont(), status, th.Text, layout.Right)
		}
	}
	// The scrub bar with a tick per step.
	bar := layout.Rect{X: scrub.X, Y: scrub.Y + scrub.H*0.3, W: scrub.W, H: scrub.H * 0.4}
	b.l.Fill("scrub", bar, th.Free)
	b.l.Stroke("scrub", bar, 1, th.PanelEdge)
	if n := p.Len(); n > 0 {
		f := float64(p.Pos()) / float64(n)
		b.l.Fill("scrub done", layout.Rect{X: bar.X, Y: bar.Y, W: bar.W * f, H: bar.H}, th.Accent)
		for _, s := range p.StepStart {
			x := bar.X + bar.W*float64(s)/float64(n)
			b.l.Line("scrub step", x, bar.Y-4, x, bar.Y+bar.H+4, 2, th.Text)
		}
	}
	b.s.scrubRect = layout.Rect{X: bar.X, Y: scrub.Y, W: bar.W, H: scrub.H}
	b.l.Target("scrub", "seek", b.s.scrubRect, nil)
}

// flash lays out the short message of the last action above y.
func (b *builder) flash(full layout.Rect, y float64) {
	if b.sc.Flash == "" {
		return
	}
	th := b.th
	f := th.Font(layout.Bold, 14)
	lines := layout.Wrap(b.sc.Flash, f, full.W-th.Px(48))
	lh := layout.LineHeight(f)
	w := 0.0
	for _, ln := range lines {
		w = max(w, layout.Width(ln, f))
	}
	h := lh*float64(len(lines)) + th.Px(12)
	box := layout.Rect{X: (full.W - w - th.Px(24)) / 2, Y: y - h - th.Px(8), W: w + th.Px(24), H: h}
	b.l.Fill("flash", box, th.Text)
	for i, ln := range lines {
		b.l.Text("flash", ln, f, box.X+th.Px(12), box.Y+th.Px(6)+lh*float64(i), box.W-th.Px(24), th.Panel, layout.Left)
	}
}

// help lays out the keys overlay: keymap's table of every key, mouse
// action and button, those that apply where the app is first; a click on
// it closes it.
func (b *builder) help(full layout.Rect) {
	where := keymap.Menu
	if p := b.sc.Player; p != nil {
		switch {
		case p.Panes() > 1 && p.Variant.Key() == "drop":
			where = keymap.DropRace
		case p.Panes() > 1:
			where = keymap.SideBySide
		default:
			where = keymap.Lesson
		}
	}
	box := keymap.LayoutHelp(b.l, full, b.th, where)
	b.l.Target("help", "close the help", box, b.h.Help)
}

// message lays out an error or a notice in the middle of the window.
func (b *builder) message(full layout.Rect) {
	th := b.th
	f := th.Font(layout.Regular, 14)
	w := min(full.W-th.Px(16), th.Px(900))
	lines := layout.Wrap(b.sc.Message, f, w-th.Px(32))
	lh := layout.LineHeight(f)
	foot := th.Font(layout.Italic, 12)
	h := min(full.H-th.Px(16), lh*float64(len(lines)+1)+layout.LineHeight(foot)+th.Px(40))
	box := layout.Rect{X: (full.W - w) / 2, Y: (full.H - h) / 2, W: w, H: h}
	col, border := th.Text, 2.0
	if b.sc.MessageErr {
		col, border = th.Error, 3
	}
	b.l.Fill("message", box, th.Panel)
	b.l.Stroke("message", box, border, col)
	b.l.Target("message", "close", box, b.h.Dismiss)
	b.l.Text("message title", b.sc.MessageTitle, th.Font(layout.Bold, 16), box.X+th.Px(16), box.Y+th.Px(10), box.W-th.Px(32), col, layout.Left)
	y := box.Y + th.Px(16) + lh
	for _, ln := range lines {
		if y+lh > box.Y+box.H-layout.LineHeight(foot)-th.Px(8) {
			b.l.Overflows = append(b.l.Overflows, layout.Overflow{Role: "message", Text: ln, Axis: "h", Need: y + lh - box.Y, Have: box.H})
			break
		}
		b.l.Text("message text", ln, f, box.X+th.Px(16), y, box.W-th.Px(32), th.Text, layout.Left)
		y += lh
	}
	b.l.TextForms("message foot", []string{"Click or press Esc to close.", "Tap to close."}, foot,
		layout.Rect{X: box.X + th.Px(16), Y: box.Y + box.H - layout.LineHeight(foot) - th.Px(8), W: box.W - th.Px(32), H: layout.LineHeight(foot)}, th.Muted, layout.Left)
}

// tooltip lays out, over everything, what is under the pointer (or the
// last tap): a pool cell's buffer, a partition, an SLRU slot, an FSM
// node, in words (scene's tooltips), read from the view that part of the
// frame was laid out from.
func (b *builder) tooltip(full layout.Rect) {
	x, y := b.in.Mouse.X, b.in.Mouse.Y
	text := ""
	for _, pa := range b.pools {
		if id, ok := b.s.Pools[pa.i].BufferAt(x, y); ok {
			text = scene.BufferTooltip(pa.v, id)
		}
	}
	if text == "" {
		for _, hs := range b.hitStates {
			for k := hs.hi - 1; k >= hs.lo && text == ""; k-- {
				if h := b.l.Hits[k]; h.Rect.Contains(x, y) && h.Kind != layout.HitText {
					text, _ = scene.TooltipText(h, hs.state)
				}
			}
		}
	}
	if text == "" {
		// An abbreviated run under the pointer: its full text.
		if h, ok := b.l.HitAt(x, y); ok && h.Kind == layout.HitText {
			text = h.Text
		}
	}
	if text != "" {
		scene.Tooltip(b.l, layout.Point{X: x, Y: y}, text, full, b.th)
	}
}

// poolLegend reports whether the lesson shows the pool's own scenes, whose
// legend the Legend button opens (the SLRU's and the FSM's are in their
// scenes).
func (b *builder) poolLegend() bool {
	p := b.sc.Player
	if p == nil {
		return false
	}
	if p.Panes() > 1 {
		m, ok := mech.Lookup(p.Variant.Key())
		return !ok || m.Scene == nil || m.Scene.Panes == nil
	}
	m, _ := b.mainScene()
	return m == nil
}

// legend lays out the pool's legend over the frame: the cells (or the heat
// map), the state word, the trails and the mapping table, in columns as
// the width allows; a click closes it.
func (b *builder) legend(full layout.Rect) {
	th := b.th
	b.l.Fill("legend shade", full, th.Scrim)
	w := min(full.W-th.Px(16), th.Px(1000))
	pl := scene.PoolLegend{StateWord: true, Heat: len(b.s.Pools) > 0 && b.s.Pools[0].HeatShown()}
	inner := w - th.Px(24)
	ph, tlh, mh := pl.Height(inner, th), scene.TrailLegendHeight(inner, th), scene.PartitionsLegendHeight(inner, th)
	content := ph + tlh + mh + 2*th.Px(12)
	h := min(content+th.Px(24), full.H-th.Px(16))
	box := layout.Rect{X: (full.W - w) / 2, Y: max(th.Px(8), (full.H-h)/2), W: w, H: h}
	b.l.Fill("legend", box, th.Panel)
	b.l.Stroke("legend", box, 2, th.Accent)
	b.l.Target("legend", "close the legend", box, b.h.Legend)
	// Taller than the window (a projector's large type): it scrolls, as
	// the lesson text does.
	r := box.Inset(th.Px(12))
	s := b.s
	s.legendRect, s.legendMax = r, max(0, content-r.H)
	s.legendScroll = clamp(s.legendScroll, 0, s.legendMax)
	b.l.ClipScroll(r)
	top := layout.Rect{X: r.X, Y: r.Y - s.legendScroll, W: r.W, H: ph}
	pl.Layout(b.l, top, th)
	trail := layout.Rect{X: r.X, Y: top.Y + ph + th.Px(12), W: r.W, H: tlh}
	scene.LayoutTrailLegend(b.l, trail, th)
	scene.LayoutPartitionsLegend(b.l, layout.Rect{X: r.X, Y: trail.Y + tlh + th.Px(12), W: r.W, H: mh}, th)
	b.l.Unclip()
	if s.legendMax > 0 {
		scrollBar(b.l, r, s.legendScroll, s.legendMax, th)
	}
}
