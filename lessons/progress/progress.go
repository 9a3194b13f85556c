package progress

import (
	"fmt"
	"slices"
	"time"

	"bufferlab/lessons"
)

// Version is the format version Encode writes and Decode reads.
const Version = 1

// Progress is a student's progress in every lesson they opened.
type Progress struct {
	Version int `json:"version"`
	// Lessons are the records by lesson name (lessons.Lesson.Name).
	Lessons map[string]*Lesson `json:"lessons"`
}

// Lesson is the record of one lesson.
type Lesson struct {
	// FurthestStep is the furthest step shown (from 0).
	FurthestStep int `json:"furthestStep"`
	// Completed is set once the end of the lesson's last step was reached;
	// CompletedAt is when that first happened.
	Completed   bool      `json:"completed"`
	CompletedAt time.Time `json:"completedAt,omitzero"`
	// UpdatedAt is when the record last changed.
	UpdatedAt time.Time `json:"updatedAt,omitzero"`
	// Answers are every answer given, in the order given.
	Answers []Answer `json:"answers,omitempty"`
}

// Answer is one answer to a step's question.
type Answer struct {
	Step int `json:"step"`
	// Choice counts from 1, as on screen.
	Choice int `json:"choice"`
	// Right is whether it was the right choice when it was given.
	Right bool      `json:"right"`
	At    time.Time `json:"at,omitzero"`
}

// New returns empty progress.
func New() *Progress { return &Progress{Version: Version, Lessons: map[string]*Lesson{}} }

// Lesson returns the record of lesson name, nil when there is none.
func (p *Progress) Lesson(name string) *Lesson { return p.Lessons[name] }

// record returns the record of lesson name, creating it; created says
// whether it had to.
func (p *Progress) record(name string) (rec *Lesson, created bool) {
	if p.Lessons == nil {
		p.Lessons = map[string]*Lesson{}
	}
	if rec = p.Lessons[name]; rec == nil {
		rec = &Lesson{}
		p.Lessons[name] = rec
		created = true
	}
	return rec, created
}

// Reach records that step (from 0) of lesson name was shown at time at.
// It reports whether the record changed: a lesson opened for the first
// time, or a step further than any before.
func (p *Progress) Reach(name string, step int, at time.Time) bool {
	rec, created := p.record(name)
	if !created && step <= rec.FurthestStep {
		return false
	}
	rec.FurthestStep = max(rec.FurthestStep, step)
	rec.UpdatedAt = at
	return true
}

// Answer records an answer to the question of step (from 0) of lesson
// name: choice counts from 1; right is whether it was the right one.
// Every answer is kept; the first for a step is the one Score counts.
func (p *Progress) Answer(name string, step, choice int, right bool, at time.Time) {
	rec, _ := p.record(name)
	rec.Answers = append(rec.Answers, Answer{Step: step, Choice: choice, Right: right, At: at})
	rec.FurthestStep = max(rec.FurthestStep, step)
	rec.UpdatedAt = at
}

// Complete records that the end of lesson name was reached at time at. It
// reports whether the record changed (the first completion); a lesson
// completed again keeps its first completion time.
func (p *Progress) Complete(name string, at time.Time) bool {
	rec, _ := p.record(name)
	if rec.Completed {
		return false
	}
	rec.Completed, rec.CompletedAt, rec.UpdatedAt = true, at, at
	return true
}

// FirstAnswer returns the first answer given to step's question.
func (r *Lesson) FirstAnswer(step int) (Answer, bool) {
	if r == nil {
		return Answer{}, false
	}
	for _, a := range r.Answers {
		if a.Step == step {
			return a, true
		}
	}
	return Answer{}, false
}

// Score is how a lesson's questions went, counting the first answer to
// each.
type Score struct {
	// Right and Wrong count the questions whose first answer was right or
	// wrong; Unanswered those with none (skipped or not reached).
	Right, Wrong, Unanswered int
	// Questions is the number of questions the lesson asks.
	Questions int
}

// ScoreOf scores rec (nil: nothing done) against lesson l: first-try
// right answers out of l's questions. Answers to steps that ask no
// question in l are not counted.
func ScoreOf(l *lessons.Lesson, rec *Lesson) Score {
	var s Score
	for k, st := range l.Steps {
		if st.Predict == nil {
			continue
		}
		s.Questions++
		a, ok := rec.FirstAnswer(k)
		switch {
		case !ok:
			s.Unanswered++
		case a.Right:
			s.Right++
		default:
			s.Wrong++
		}
	}
	return s
}

// Sentence is the score as the end of a lesson says it: "5 of 7
// predictions right first time", with the unanswered ones when there are
// any, and a sentence of its own for a lesson without questions.
func (s Score) Sentence() string {
	if s.Questions == 0 {
		return "This lesson asks no questions."
	}
	noun := "predictions"
	if s.Questions == 1 {
		noun = "prediction"
	}
	out := fmt.Sprintf("%d of %d %s right first time", s.Right, s.Questions, noun)
	if s.Unanswered > 0 {
		out += fmt.Sprintf(", %d not answered", s.Unanswered)
	}
	return out
}

// Status is a lesson's state for the lesson list: "not started", "at step
// k of n" (the furthest step reached, counted from 1 as the top bar
// counts) or "done, score x of y" ("done" for a lesson without
// questions).
func Status(l *lessons.Lesson, rec *Lesson) string {
	switch {
	case rec == nil:
		return "not started"
	case rec.Completed:
		s := ScoreOf(l, rec)
		if s.Questions == 0 {
			return "done"
		}
		return fmt.Sprintf("done, score %d of %d", s.Right, s.Questions)
	}
	n := max(1, len(l.Steps))
	return fmt.Sprintf("at step %d of %d", min(rec.FurthestStep, n-1)+1, n)
}

// Prune fits the records to the lessons there are now and returns a note
// for each change, in lesson order then name order: the record of a
// lesson that no longer exists is dropped; a furthest step past the
// lesson's last is brought back to it; answers to steps the lesson no
// longer has, to steps that no longer ask a question, or with a choice
// the question no longer offers are dropped.
func (p *Progress) Prune(all []*lessons.Lesson) (notes []string) {
	byName := map[string]*lessons.Lesson{}
	for _, l := range all {
		byName[l.Name] = l
	}
	var names []string
	for name := range p.Lessons {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		rec, l := p.Lessons[name], byName[name]
		if l == nil {
			delete(p.Lessons, name)
			notes = append(notes, fmt.Sprintf("The progress of lesson %q was dropped: this BufferLab has no lesson of that name.", name))
			continue
		}
		n := max(1, len(l.Steps))
		if rec.FurthestStep > n-1 {
			notes = append(notes, fmt.Sprintf("Lesson %s has %d steps now: the furthest step reached, %d, became %d.", name, n, rec.FurthestStep, n-1))
			rec.FurthestStep = n - 1
		}
		kept := rec.Answers[:0]
		dropped := 0
		for _, a := range rec.Answers {
			if a.Step >= len(l.Steps) || l.Steps[a.Step].Predict == nil || a.Choice > len(l.Steps[a.Step].Predict.Choices) {
				dropped++
				continue
			}
			kept = append(kept, a)
		}
		rec.Answers = kept
		if dropped > 0 {
			what := fmt.Sprintf("%d answers to questions it no longer asks were", dropped)
			if dropped == 1 {
				what = "1 answer to a question it no longer asks was"
			}
			notes = append(notes, fmt.Sprintf("Lesson %s changed: %s dropped.", name, what))
		}
	}
	return notes
}
