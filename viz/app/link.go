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
