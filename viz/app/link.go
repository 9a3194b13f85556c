package app

import (
	"bufferlab/internal/permalink"
	"bufferlab/lessons"
	"bufferlab/viz/player"
)

// Link is where the app is, as a link says it (internal/permalink): the
// lesson or the scenario's text, the step counted from 1 as the screen
// counts, and the events played into it. In the menu or fast mode it is
// the zero Link.
func (a *App) Link() permalink.Link {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.linkLocked()
}

func (a *App) linkLocked() permalink.Link {
	if a.p == nil || a.fast != nil {
		return permalink.Link{Embed: a.opts.Embed}
	}
	l := a.linkHere()
	l.Embed = a.opts.Embed
	return l
}

func (a *App) linkHere() permalink.Link {
	if a.p == nil || a.fast != nil {
		return permalink.Link{}
	}
	p := a.p
	l := permalink.Link{Step: p.Step() + 1, Event: p.Pos() - p.StepStart[p.Step()]}
	switch {
	case a.source != "":
		l.Scenario = a.source
	case a.lessonSource != "":
		l.Markdown = a.lessonSource
	default:
		l.Lesson = p.Name
	}
	return l
}

// ScenarioSource is the text of the scenario being played ("" for a
// lesson, the menu or fast mode).
func (a *App) ScenarioSource() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.p == nil || a.fast != nil {
		return ""
	}
	return a.source
}

// OpenLessonSource plays a lesson from its Markdown (a teacher's own file,
// dropped on the page, picked, or carried in a link), at step (from 0). Its
// errors are the positioned errors of `bufferlab lessons check`: parsing
// (lessons.Parse), then playing every step's scenario and checking its
// expects (player.FromLesson plays it through lessons.Play).
func (a *App) OpenLessonSource(file string, md []byte, step int) error {
	l, err := lessons.Parse(file, md)
	if err != nil {
		return err
	}
	if l.Script != nil {
		l.Script.Yield = a.opts.Yield
	}
	p, err := player.FromLesson(l)
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.show(p, min(max(step, 0), len(p.Steps)-1))
	a.lessonSource = string(md)
	return nil
}

// Follow is what a host page hears of the student's way through a lesson
// or scenario (the browser: the page address follows it, and
// window.bufferlab.on('step' | 'answer' | 'move', fn) reports it). Both
// hooks are called from Update and from answer, with the app's lock held:
// they must not call the app back.
type Follow struct {
	// Moved is called when the place changes: another lesson or scenario
	// opened, another step (newStep), or, while the player is paused,
	// another position within the step. Playing moves nothing: a link
	// follows where the student stops, not every event played.
	Moved func(at permalink.Link, newStep bool)
	// Answered is called once per answer: the lesson (its name), the step
	// and the choice, both counted from 1 as on screen, and whether it was
	// right.
	Answered func(lesson string, step, choice int, right bool)
}

// followKey is where the student is, as Follow.Moved reports it.
type followKey struct {
	p         *player.Player
	step, pos int
}

// followTick reports a move to Options.Follow (Update calls it). Cost per
// tick: one comparison of three words; a link (DEFLATE of a carried
// scenario or lesson, O(its size)) only when the place changed.
func (a *App) followTick() {
	f := a.opts.Follow
	if f == nil || f.Moved == nil {
		return
	}
	k := followKey{p: a.p}
	if a.p != nil && a.fast == nil {
		k.step, k.pos = a.p.Step(), a.p.Pos()
		if a.p.Playing() {
			k.pos = a.follow.pos // playing: only a new step counts
		}
	}
	if k == a.follow {
		return
	}
	newStep := k.p != a.follow.p || k.step != a.follow.step
	a.follow = k
	if k.p == nil {
		return // the menu: nothing to link to
	}
	f.Moved(a.linkLocked(), newStep)
}

// copyLink gives the page the link to where the student is (the Link
// button, C).
func (a *App) copyLink() {
	a.opts.CopyLink(permalink.Encode(a.linkLocked()))
}

// editScenario opens the scenario being played in the sandbox's editor
// (the Edit button, E).
func (a *App) editScenario() { a.opts.Sandbox(a.source) }
