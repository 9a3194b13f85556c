package app

import (
	"errors"

	"bufferlab/viz/player"
)

// A class (web/classroom.js, internal/classroom): the teacher's page
// drives, the students' pages follow and answer on their own devices.
// What the app does differently there is small and lives here: a
// student's answer is held (recorded and reported, not revealed) until
// the teacher reveals it for everyone; the teacher may ask the same
// question again; and the class's pages start and stop playing by call.

// errNoQuestion is the error of a class call on a step without a question.
var errNoQuestion = errors.New("this step has no question")

// SetClassHold turns holding answers on (a student in a class) or off.
// While on, an answer (a click, a key, the mirror, answer()) records the
// choice and reports it (Follow.Answered) but does not reveal the
// explanation: the question stays open and may be answered again, and
// Enter does not skip it.
func (a *App) SetClassHold(on bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.classHold = on
}

// ClassReveal reveals the current step's question: its explanation, and
// which choice was right beside the one held (if any).
func (a *App) ClassReveal() error { return a.onQuestion((*player.Player).Reveal) }

// ClassReask opens the current step's question again, with no answer: a
// second round after the class has discussed the first.
func (a *App) ClassReask() error { return a.onQuestion((*player.Player).Reask) }

// onQuestion calls do on the player when the current step has a
// question; errNoQuestion when it has none.
func (a *App) onQuestion(do func(*player.Player)) error {
	return a.playing(func(p *player.Player) error {
		if p.StepQuestion() == nil {
			return errNoQuestion
		}
		do(p)
		return nil
	})
}

// Play starts (true) or stops (false) playing, as Space does; starting
// at an unanswered question is refused, as Space is.
func (a *App) Play(on bool) error {
	return a.playing(func(p *player.Player) error {
		if on == p.Playing() {
			return nil
		}
		if on && p.Gated() {
			return errors.New("play: a question is waiting for an answer")
		}
		p.Toggle()
		return nil
	})
}
