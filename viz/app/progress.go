package app

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"bufferlab/lessons"
	"bufferlab/lessons/progress"
	"bufferlab/viz/frame"
	"bufferlab/viz/scene"
)

// This file keeps the student's progress (lessons/progress) and shows the
// end of a lesson. The rest of the app reaches it through a few hook
// calls, each a line: New loads (loadProgress), Update and the calls of
// the JavaScript API record where the student is (trackProgress), the
// three ways of answering go through answer, the frame lays out the end
// panel after the last step's text (lessonEnd), playerKeys and menuKeys
// give it their keys first (lessonEndKeys, progressMenuKeys), and the
// menu shows each lesson's state and the reset button (menuProgress).

// progressState is the progress the app keeps and where.
type progressState struct {
	store progress.Store
	p     *progress.Progress
	// pending is a message about the stored progress (it could not be
	// read; records were dropped) to show once the app runs, after the
	// command line's lesson has opened (opening one clears notices).
	pending string
	// saveFailed is set once a save failed and the user was told: the
	// progress then lasts as long as the app, and they are told once.
	saveFailed bool
	// resetArmed counts down the ticks in which a second R (or click)
	// in the menu forgets all progress; resetDone those in which the
	// menu says it was forgotten.
	resetArmed, resetDone int
}

// resetWindow is how long the menu waits for the second R: 3 s at 60 TPS.
const resetWindow = 180

// loadProgress loads the stored progress (Options.Progress; a memory
// store without one) and fits it to the lessons there are, which it
// parses when there is a record to fit (a fresh start has none, and its
// menu needs only the index). What went wrong or was dropped is shown
// once the app runs; the app goes on with what could be read, or with
// none. Its error is the lessons' failure to parse (never expected).
func (a *App) loadProgress() error {
	a.prog.store = a.opts.Progress
	if a.prog.store == nil {
		a.prog.store = progress.NewMemoryStore()
	}
	p, err := a.prog.store.Load()
	var msgs []string
	if err != nil {
		msgs = append(msgs, "Your progress could not be read: "+err.Error())
		p = progress.New()
	}
	a.prog.p = p
	if len(p.Lessons) > 0 {
		all, err := a.parsed()
		if err != nil {
			return err
		}
		if notes := p.Prune(all); len(notes) > 0 {
			// Saved at once, so that the notes are shown once, not at every
			// start until something else changes.
			msgs = append(msgs, notes...)
			a.saveProgress()
		}
	}
	a.prog.pending = strings.Join(msgs, " ")
	return nil
}

// saveProgress saves the progress; the first failure is shown, later ones
// are not (the progress lasts as long as the app either way).
func (a *App) saveProgress() {
	if err := a.prog.store.Save(a.prog.p); err != nil && !a.prog.saveFailed {
		a.prog.saveFailed = true
		a.showNotice("Your progress could not be saved, so it lasts only until BufferLab closes: " + err.Error())
	}
}

// keepsProgress says whether the open player's progress is kept: a
// lesson of the app's own. A lesson opened from its text (a dropped file,
// a link) is not: the next start would find a lesson it does not know
// and drop it with a notice.
func (a *App) keepsProgress() bool {
	return a.p != nil && a.p.Lesson != nil && a.lessonSource == "" && a.prog.p != nil
}

// trackProgress records the step the open lesson shows and, at its end,
// its completion, and saves when either changed. It runs after every
// Update and every call of the JavaScript API that moves a lesson, so
// that however the student got there (playing, a key, the scrub bar, a
// permalink, seek()), it is recorded.
func (a *App) trackProgress() {
	if a.prog.pending != "" {
		a.showNotice(a.prog.pending)
		a.prog.pending = ""
	}
	a.prog.resetArmed = max(0, a.prog.resetArmed-1)
	a.prog.resetDone = max(0, a.prog.resetDone-1)
	p := a.p
	if !a.keepsProgress() {
		return
	}
	now := time.Now()
	changed := a.prog.p.Reach(p.Name, p.Step(), now)
	if a.atLessonEnd() && a.prog.p.Complete(p.Name, now) {
		changed = true
	}
	if changed {
		a.saveProgress()
	}
}

// answer answers the open question with choice (from 0) and records the
// answer: every way of answering (a click, a number key, the JavaScript
// API) goes through here.
func (a *App) answer(choice int) (bool, error) {
	p := a.p
	if a.classHold { // class.go: the teacher reveals
		if err := p.Hold(choice); err != nil {
			return false, err
		}
		q := p.StepQuestion()
		if f := a.opts.Follow; f != nil && f.Answered != nil {
			f.Answered(p.Name, p.Step()+1, choice+1, choice == q.Answer)
		}
		return choice == q.Answer, nil
	}
	ok, err := p.Answer(choice)
	if err == nil && a.keepsProgress() {
		a.prog.p.Answer(p.Name, p.Step(), choice+1, ok, time.Now())
		a.saveProgress()
	}
	if f := a.opts.Follow; err == nil && f != nil && f.Answered != nil {
		f.Answered(p.Name, p.Step()+1, choice+1, ok)
	}
	return ok, err
}

// atLessonEnd reports whether a lesson (not a bare scenario) is at the
// end of its last step, with no question waiting: what the end panel and
// completion wait for.
func (a *App) atLessonEnd() bool {
	p := a.p
	if p == nil || p.Lesson == nil || len(p.Steps) == 0 {
		return false
	}
	last := len(p.Steps) - 1
	return p.Step() == last && p.Pos() >= p.StepEnd[last] && !p.Gated()
}

// nextLesson is the lesson after the open one, nil after the last.
func (a *App) nextLesson() *lessons.Lesson {
	all, _ := a.parsed()
	for i, l := range all {
		if a.p != nil && l.Name == a.p.Name && i+1 < len(all) {
			return all[i+1]
		}
	}
	return nil
}

// resumeStep is where the menu (and Next lesson) open a lesson: the
// furthest step reached in one started and not completed, else the
// first.
func (a *App) resumeStep(name string) int {
	if rec := a.prog.p.Lesson(name); rec != nil && !rec.Completed {
		return rec.FurthestStep
	}
	return 0
}

// openAndResume opens lesson name where resumeStep says, or shows why it
// cannot.
func (a *App) openAndResume(name string) {
	if err := a.openLesson(name, a.resumeStep(name)); err != nil {
		a.showError(err.Error())
	}
}

// The three ways on from the end of a lesson.
func (a *App) endNext() {
	if next := a.nextLesson(); next != nil {
		a.openAndResume(next.Name)
	}
}

// endReplay opens the lesson afresh: its questions are asked again (the
// answers are recorded as later answers; the score keeps the first).
func (a *App) endReplay() {
	if err := a.openLesson(a.p.Name, 0); err != nil {
		a.showError(err.Error())
	}
}

func (a *App) endMenu() { a.p, a.help = nil, false }

// lessonEnd is the end panel's content when the open lesson is at its
// end (nil otherwise): the frame lays it out after the last step's text.
func (a *App) lessonEnd() *scene.LessonEnd {
	if !a.atLessonEnd() {
		return nil
	}
	e := scene.NewLessonEnd(a.p.Lesson, a.prog.p.Lesson(a.p.Name), a.nextLesson())
	e.NoMenu = a.opts.Embed
	return &e
}

// lessonEndKeys handles the end panel's keys (Enter: the next lesson, R:
// replay) and reports whether one was pressed. Esc, the menu, is a global
// key already.
func (a *App) lessonEndKeys() bool {
	if !a.atLessonEnd() {
		return false
	}
	switch {
	case inpututil.IsKeyJustPressed(ebiten.KeyEnter) && a.nextLesson() != nil:
		a.endNext()
	case inpututil.IsKeyJustPressed(ebiten.KeyR):
		a.endReplay()
	default:
		return false
	}
	return true
}

// menuStatus is lesson e's state on its menu card: "not started" from
// the index alone, else from the parsed lesson (a score needs its
// questions).
func (a *App) menuStatus(e lessons.Entry) string {
	rec := a.prog.p.Lesson(e.Name)
	if rec == nil {
		return progress.Status(nil, nil)
	}
	if l, _ := a.parsedNamed(e.Name); l != nil {
		return progress.Status(l, rec)
	}
	return "" // the lessons failed to parse: opening one says why
}

// progressMenuKeys handles R in the menu: the first press arms the reset,
// a second within resetWindow forgets all progress. It reports whether R
// was pressed.
func (a *App) progressMenuKeys() bool {
	if !inpututil.IsKeyJustPressed(ebiten.KeyR) {
		return false
	}
	a.armOrReset()
	return true
}

func (a *App) armOrReset() {
	if a.prog.resetArmed == 0 {
		a.prog.resetArmed = resetWindow
		return
	}
	a.prog.resetArmed = 0
	if err := a.resetProgress(); err != nil {
		a.showError(err.Error())
		return
	}
	a.prog.resetDone = resetWindow
}

// menuProgress is what the menu shows of the progress: each lesson's
// state on its card, and the reset button's label (what a second press
// does, once armed).
func (a *App) menuProgress() (notes map[string]string, reset frame.Reset) {
	notes = map[string]string{}
	for _, e := range a.index {
		notes[e.Name] = a.menuStatus(e)
	}
	reset = frame.Reset{Label: "Reset progress (R)", Act: a.armOrReset}
	switch {
	case a.prog.resetArmed > 0:
		reset.Label, reset.Armed = "Press R or click again to forget all progress", true
	case a.prog.resetDone > 0:
		reset.Label = "Progress forgotten"
	}
	return notes, reset
}

// ResetProgress forgets all progress, stored and held (the JavaScript
// API's resetProgress, the menu's R R).
func (a *App) ResetProgress() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.resetProgress()
}

func (a *App) resetProgress() error {
	a.prog.p = progress.New()
	if err := a.prog.store.Reset(); err != nil {
		return fmt.Errorf("resetting progress: %w", err)
	}
	return nil
}

// ProgressJSON is the progress as the store keeps it (lessons/progress's
// format), for the JavaScript API's progress().
func (a *App) ProgressJSON() (json.RawMessage, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return progress.Encode(a.prog.p)
}
