package app

import (
	"fmt"

	"bufferlab/engine/trace"
	"bufferlab/viz/a11y"
	"bufferlab/viz/player"
)

// This file is the app's side of accessibility: the screen-reader mirror
// and its live region (viz/a11y's Doc and Announcer, shown by the
// browser: cmd/wasm's mirror_js.go), the mirror's buttons (Press) and
// reduced motion (viz/a11y's Motion, the theme's ReducedMotion). The rest
// of the app reaches it through a few lines: Options.A11y and
// Options.ReducedMotion, Update calls a11yTick, drawFrame asks holdFrame
// whether to keep the last picture, themeAt sets the theme's
// ReducedMotion.

// A11y is the mirror's hooks. Both are called from Update, with the app's
// lock held: they must not call the app back.
type A11y struct {
	// Mirror is given the mirror of what the app shows whenever it may
	// have changed (see mirrorKey): at most once a tick, and while the
	// player plays or the menu shows, at most once every a11y.HoldTicks.
	// The Doc is the hook's to keep.
	Mirror func(d *a11y.Doc)
	// Announce is given what the live region is to say (a11y.Announcer's
	// policy).
	Announce func(text string)
}

// accessState is what the app keeps for the mirror and for reduced
// motion.
type accessState struct {
	hooks *A11y
	key   mirrorKey
	doc   *a11y.Doc
	// scope, heading and feedback are what the announcer needs of doc,
	// made when doc is.
	scope, heading, feedback string
	an                       a11y.Announcer
	// lastP and lastPos are the player and position of the last tick:
	// the key moments a playing player passed are those between.
	// caption says lastP's captions.
	lastP   *player.Player
	lastPos int
	caption func() string
	ticks   int

	motion a11y.Motion
	hold   bool // the next frame keeps the last picture
	held   int  // frames drawn from a kept picture
}

// mirrorKey is what the mirror depends on, compared at every tick:
// a copy of a few words, so an unchanged state costs one comparison. While
// the player plays (the position changes at every tick) or the menu shows
// (the progress lines may change), the position is left out and the tick
// count divided by a11y.HoldTicks is in: the mirror follows at most twice
// a second, and the live region says what is current (Announcer).
type mirrorKey struct {
	p         *player.Player
	fast      bool
	step, pos int
	playing   bool
	chosen    int
	revealed  bool
	speed     string
	end       bool
	bucket    int
}

func (a *App) mirrorKey() mirrorKey {
	k := mirrorKey{p: a.p, fast: a.fast != nil}
	switch {
	case k.fast:
	case a.p == nil:
		k.bucket = a.access.ticks / a11y.HoldTicks
	default:
		p := a.p
		k.step, k.pos, k.playing, k.speed, k.end = p.Step(), p.Pos(), p.Playing(), p.SpeedLabel(), a.atLessonEnd()
		k.chosen, k.revealed = p.Answered()
		if k.playing {
			k.pos, k.bucket = 0, a.access.ticks/a11y.HoldTicks
		}
	}
	return k
}

// mirror is the mirror of what the app shows now.
func (a *App) mirror() a11y.Doc {
	in := a11y.Input{Player: a.p, Fast: a.fast != nil, Lessons: a.index, Progress: a.menuStatus}
	if e := a.lessonEnd(); e != nil {
		in.End = &a11y.End{Score: fmt.Sprintf("%d of %d right the first time", e.Score.Right, e.Score.Questions), Next: e.Next}
		if e.Score.Questions == 0 {
			in.End.Score = "no questions"
		}
	}
	return a11y.Build(in)
}

// Mirror is the mirror of what the app shows now (window.bufferlab.mirror()).
func (a *App) Mirror() a11y.Doc {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.mirror()
}

// a11yTick runs at the end of every Update: reduced motion's hold, then,
// where the mirror has hooks, the mirror when its key changed and what
// the live region is to say.
//
// Cost, per tick: the key (a few loads and one comparison), the
// announcer (a few comparisons, nothing allocated; a caption is made only
// when it is to be said) and, while playing, the moments of the events
// applied since the last tick (64 at most at the top speed, per pane).
// The Doc is built
// only when the key changes: at a step, an answer, a position moved by
// the student, twice a second while playing; the page then rewrites only
// the sections that differ (a11y.Changed).
func (a *App) a11yTick() {
	s := &a.access
	s.ticks++
	s.hold = s.motion.Tick(a.p != nil && a.p.Playing())
	if s.hooks == nil {
		return
	}
	if k := a.mirrorKey(); k != s.key || s.doc == nil {
		s.key = k
		d := a.mirror()
		s.doc = &d
		s.scope, s.heading, s.feedback = d.Mode, d.Heading+".", d.Question.Verdict()
		switch d.Mode {
		case "lesson":
			// The player, not only the lesson: a lesson opened again is news.
			s.scope = fmt.Sprintf("%p %s/%d", a.p, a.p.Name, a.p.Step())
		case "menu":
			s.heading = "The lesson list."
		case "fast":
			s.heading = "Fast mode."
		}
		if s.hooks.Mirror != nil {
			s.hooks.Mirror(&d)
		}
	}
	now := a11y.Now{Scope: s.scope, Heading: s.heading, Feedback: s.feedback}
	if a.flashTicks > 0 {
		now.Flash = a.flash
	}
	if p := a.p; p != nil && a.fast == nil {
		if p != s.lastP {
			s.lastP, s.lastPos = p, p.Pos()
			s.caption = func() string { return captionText(p) }
		}
		now.Pos, now.Playing, now.Caption = p.Pos(), p.Playing(), s.caption
		if now.Playing && now.Pos > s.lastPos {
			now.Moment = latestMoment(p, s.lastPos, now.Pos)
		}
		s.lastPos = now.Pos
	} else {
		s.lastP, s.caption = nil, nil
	}
	if text := s.an.Tick(now); text != "" && s.hooks.Announce != nil {
		s.hooks.Announce(text)
	}
}

// captionText is the caption of the event each pane applied last, as one
// line (a11y.CaptionText).
func captionText(p *player.Player) string {
	cs := make([]a11y.Caption, p.Panes())
	for i := range cs {
		cs[i].Text = p.Caption(i)
		if len(cs) > 1 {
			cs[i].Pane = p.PaneVariant(i).Name()
		}
	}
	return a11y.CaptionText(cs)
}

// latestMoment is the caption of the latest key moment among events
// from..to-1 of any pane ("" for none), looking at the last 4096 at most
// (a long jump is not played through).
func latestMoment(p *player.Player, from, to int) string {
	for i := to - 1; i >= max(from, to-4096); i-- {
		for pane := 0; pane < p.Panes(); pane++ {
			if p.MomentAt(pane, i) != trace.MomentNone {
				c := a11y.Caption{Text: p.CaptionAt(pane, i)}
				if p.Panes() > 1 {
					c.Pane = p.PaneVariant(pane).Name()
				}
				return a11y.CaptionText([]a11y.Caption{c})
			}
		}
	}
	return ""
}

// Press does what a mirror button does, through the same calls as the
// canvas's buttons and choices (frame.Hooks; the timeline's player moves):
//
//	answer N     answer the open question with choice N (from 0), recorded
//	prev-step    to the start of this step, or of the one before
//	back         one event back
//	play         play or pause (an open question says to answer it first)
//	forward      one event forward (likewise)
//	next-step    to the start of the next step
//	menu         the lesson list
//	open N       open lesson N (from 0) where the student left it
//	end-next, end-replay, end-menu   the end of a lesson's ways on
func (a *App) Press(action string, n int) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	h := a.hooks()
	if action == "open" {
		if a.p != nil || n < 0 || n >= len(a.index) {
			return fmt.Errorf("open %d: not in the menu, or no such lesson (0..%d)", n, len(a.index)-1)
		}
		h.OpenLesson(n)
		a.trackProgress()
		return nil
	}
	p := a.p
	if p == nil {
		return fmt.Errorf("%s: no lesson is open", action)
	}
	switch action {
	case "answer":
		// As on the canvas, whose choices are targets only until the
		// question is revealed.
		q := p.Question()
		if q == nil || n < 0 || n >= len(q.Choices) {
			return fmt.Errorf("answer %d: no such choice", n)
		}
		if _, revealed := p.Answered(); revealed {
			return fmt.Errorf("answer %d: the question is answered already", n)
		}
		h.Answer(n)
	case "prev-step":
		p.PrevStep()
	case "back":
		p.Back(1)
	case "play":
		h.Forward(p.Toggle)
	case "forward":
		h.Forward(func() { p.Forward(1) })
	case "next-step":
		p.NextStep()
	case "menu":
		h.Menu()
	case "end-next", "end-replay", "end-menu":
		if !a.atLessonEnd() {
			return fmt.Errorf("%s: the lesson is not at its end", action)
		}
		map[string]func(){"end-next": h.EndNext, "end-replay": h.EndReplay, "end-menu": h.EndMenu}[action]()
	default:
		return fmt.Errorf("no mirror action %q", action)
	}
	a.trackProgress()
	return nil
}

// SetReducedMotion turns reduced motion on or off (the browser follows
// prefers-reduced-motion: cmd/wasm).
func (a *App) SetReducedMotion(on bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.access.motion.Reduced = on
}

// MotionInfo is what window.bufferlab.motion() reports: whether motion
// is reduced, and how many frames kept the last picture while playing.
type MotionInfo struct {
	Reduced bool `json:"reduced"`
	Held    int  `json:"held"`
}

// Motion reports the reduced-motion setting and its held frames.
func (a *App) Motion() MotionInfo {
	a.mu.Lock()
	defer a.mu.Unlock()
	return MotionInfo{Reduced: a.access.motion.Reduced, Held: a.access.held}
}

// holdFrame reports whether this frame keeps the last picture (reduced
// motion while playing; a11y.Motion) and counts it when it does.
func (a *App) holdFrame() bool {
	if !a.access.hold || len(a.list.Items) == 0 {
		return false
	}
	a.access.held++
	return true
}
