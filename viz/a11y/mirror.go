package a11y

import (
	"fmt"
	"reflect"
	"strings"

	"bufferlab/lessons"
	"bufferlab/viz/player"
)

// Doc is what the mirror shows, in reading order. Build makes it; the
// page writes it as elements (cmd/wasm's mirror_js.go), and
// window.bufferlab.mirror() returns it as JSON.
type Doc struct {
	// Mode is "menu", "lesson" or "fast" (the fast-mode panel).
	Mode string `json:"mode"`
	// Title is the h1: the lesson's title ("BufferLab" elsewhere).
	Title string `json:"title"`
	// Heading is the h2: "Step 3 of 7: …" in a lesson, "Lessons" in the
	// menu.
	Heading string `json:"heading"`
	// Menu is the lesson list, in the menu.
	Menu []MenuItem `json:"menu,omitempty"`
	// Prose is the step's text (the lesson's introduction first, on its
	// first step).
	Prose    []Node    `json:"prose,omitempty"`
	Question *Question `json:"question,omitempty"`
	// After is the step's closing text, once its events have run.
	After []Node `json:"after,omitempty"`
	// End is the end of the lesson, at the end of its last step.
	End *End `json:"end,omitempty"`
	// Controls are the player's buttons (nil outside a lesson).
	Controls *Controls `json:"controls,omitempty"`
	// Status is where the player is: "Event 91 of 312, speed 1×."
	Status string `json:"status,omitempty"`
	// Captions are the captions of the event each pane applied last
	// (empty for a pane at its start or idling).
	Captions []Caption `json:"captions,omitempty"`
}

// MenuItem is a lesson in the menu: its title, summary and the student's
// progress in it ("not started", "at step 3 of 7", "done, score 5 of 7").
type MenuItem struct {
	Name     string `json:"name"`
	Title    string `json:"title"`
	Summary  string `json:"summary"`
	Progress string `json:"progress"`
}

// Question is the step's question.
type Question struct {
	// Number counts the lesson's questions up to this one (from 1); Of
	// is how many it asks.
	Number int    `json:"number"`
	Of     int    `json:"of"`
	Prompt string `json:"prompt"`
	// Choices are the choices as written, numbered from 1 on screen.
	Choices []string `json:"choices"`
	// Chosen is the choice made (from 0; -1: none); Revealed is set once
	// the explanation shows (after an answer, or skipped with Enter).
	Chosen   int  `json:"chosen"`
	Revealed bool `json:"revealed"`
	// Answer is the right choice (from 0) once revealed, -1 before: the
	// mirror gives nothing away that the canvas does not show.
	Answer  int    `json:"answer"`
	Explain []Node `json:"explain,omitempty"`
}

// ChoiceLabel is choice i's button text: its number and words, and, once
// revealed, whether it was the answer given and whether it is right.
func (q *Question) ChoiceLabel(i int) string {
	s := fmt.Sprintf("%d. %s", i+1, q.Choices[i])
	if !q.Revealed {
		return s
	}
	var notes []string
	if i == q.Chosen {
		notes = append(notes, "your answer")
	}
	if i == q.Answer {
		notes = append(notes, "the right answer")
	}
	if len(notes) > 0 {
		s += " (" + strings.Join(notes, ", ") + ")"
	}
	return s
}

// Verdict is what the live region says when the question is revealed
// ("" before): whether the answer was right, or which is.
func (q *Question) Verdict() string {
	if q == nil || !q.Revealed || q.Answer < 0 {
		return ""
	}
	right := fmt.Sprintf("choice %d, %s", q.Answer+1, q.Choices[q.Answer])
	switch {
	case q.Chosen == q.Answer:
		return fmt.Sprintf("Right: %s. The explanation follows the choices.", right)
	case q.Chosen >= 0:
		return fmt.Sprintf("Not quite: the answer is %s. The explanation follows the choices.", right)
	}
	return fmt.Sprintf("The answer is %s. The explanation follows the choices.", right)
}

// End is the end of a lesson: its score, and the next lesson's title (""
// after the last).
type End struct {
	Score string `json:"score"`
	Next  string `json:"next,omitempty"`
}

// Controls are what the player's buttons can do now: each is true when
// pressing it would do something (PrevStep: to the start of this step or
// the one before; Back and Forward: one event; Play: start or stop
// playing; NextStep: the next step's start). Gated: an open question
// holds the player at the step's start.
type Controls struct {
	Playing  bool `json:"playing"`
	Gated    bool `json:"gated"`
	PrevStep bool `json:"prevStep"`
	Back     bool `json:"back"`
	Play     bool `json:"play"`
	Forward  bool `json:"forward"`
	NextStep bool `json:"nextStep"`
}

// Caption is a pane's caption: Pane names the pane by its variant
// ("atomic", "spinlock"; "" when the run has one pane).
type Caption struct {
	Pane string `json:"pane,omitempty"`
	Text string `json:"text"`
}

// CaptionText is the captions as one line to read: each pane's after its
// name ("atomic pane: A's CAS fails: …"), panes with no caption left out.
func CaptionText(cs []Caption) string {
	var parts []string
	for _, c := range cs {
		switch {
		case c.Text == "":
		case c.Pane == "":
			parts = append(parts, c.Text)
		default:
			parts = append(parts, c.Pane+" pane: "+c.Text)
		}
	}
	return strings.Join(parts, " ")
}

// Input is what Build needs of the app.
type Input struct {
	// Player is the open lesson's (nil: the menu, or the fast panel).
	Player *player.Player
	// Fast: the fast-mode panel is open.
	Fast bool
	// Lessons and Progress are the menu's lessons and each one's progress
	// line.
	Lessons  []lessons.Entry
	Progress func(e lessons.Entry) string
	// End is the end of the open lesson (nil: not at its end).
	End *End
}

// Build makes the mirror of what the app shows.
func Build(in Input) Doc {
	switch {
	case in.Fast:
		return Doc{Mode: "fast", Title: "BufferLab", Heading: "Fast mode",
			Status: "The fast-mode panel measures the engine at full speed; it is drawn on the canvas only. Press Escape on the canvas to return to the lessons."}
	case in.Player == nil:
		d := Doc{Mode: "menu", Title: "BufferLab", Heading: "Lessons"}
		for _, l := range in.Lessons {
			it := MenuItem{Name: l.Name, Title: l.Title, Summary: l.Summary}
			if in.Progress != nil {
				it.Progress = in.Progress(l)
			}
			d.Menu = append(d.Menu, it)
		}
		return d
	}
	p := in.Player
	k := p.Step()
	st := p.Steps[k]
	d := Doc{Mode: "lesson", Title: p.Title, Heading: StepHeading(p), End: in.End}
	if k == 0 && p.Lesson != nil {
		d.Prose = Nodes(p.Lesson.Intro)
	}
	d.Prose = append(d.Prose, Nodes(st.Prose)...)
	if q := p.Question(); q != nil {
		d.Question = question(p, q)
	}
	if len(st.After) > 0 && p.Pos() >= p.StepEnd[k] && p.StepEnd[k] > p.StepStart[k] {
		d.After = Nodes(st.After)
	}
	c := controls(p)
	d.Controls = &c
	d.Status = fmt.Sprintf("Event %d of %d, speed %s.", p.Pos(), p.Len(), p.SpeedLabel())
	switch {
	case c.Playing:
		d.Status += " Playing."
	case c.Gated:
		d.Status += " Answer the question to go on."
	}
	for i := 0; i < p.Panes(); i++ {
		c := Caption{Text: p.Caption(i)}
		if p.Panes() > 1 {
			c.Pane = p.PaneVariant(i).Name()
		}
		d.Captions = append(d.Captions, c)
	}
	return d
}

// StepHeading is the open step's heading: "Step 3 of 7: Two backends, one
// word: the CAS that fails".
func StepHeading(p *player.Player) string {
	return fmt.Sprintf("Step %d of %d: %s", p.Step()+1, len(p.Steps), p.Steps[p.Step()].Title)
}

// question is the mirror of the step's question q.
func question(p *player.Player, q *lessons.Question) *Question {
	k := p.Step()
	out := &Question{Prompt: q.Prompt, Choices: q.Choices, Answer: -1}
	for i, s := range p.Steps {
		if s.Predict != nil {
			out.Of++
			if i <= k {
				out.Number++
			}
		}
	}
	out.Chosen, out.Revealed = p.Answered()
	if out.Revealed {
		out.Answer = q.Answer
		out.Explain = Nodes(q.Explain)
	}
	return out
}

// controls says what each of the player's buttons can do now, as the
// player's own moves decide it (viz/player: PrevStep, Back, Toggle,
// Forward, NextStep).
func controls(p *player.Player) Controls {
	k, pos, last := p.Step(), p.Pos(), len(p.Steps)-1
	atStart := k == 0 && pos <= p.StepStart[0]
	atEnd := k == last && pos >= p.StepEnd[last]
	gated := p.Gated()
	return Controls{
		Playing:  p.Playing(),
		Gated:    gated,
		PrevStep: !atStart,
		Back:     !atStart,
		Play:     p.Playing() || !gated && !atEnd,
		Forward:  !gated && !atEnd,
		NextStep: k < last || pos < p.StepEnd[k] && !gated,
	}
}

// Section is a part of the Doc that the page writes as a unit.
type Section uint16

// The sections, in reading order.
const (
	SecHead     Section = 1 << iota // Mode, Title, Heading
	SecMenu                         // Menu
	SecProse                        // Prose
	SecQuestion                     // Question: whether there is one, its number, prompt and choices
	SecAnswer                       // Question: the choice made, the reveal, the explanation
	SecAfter                        // After
	SecEnd                          // End
	SecControls                     // Controls
	SecStatus                       // Status, Captions
)

// Changed is the set of sections in which next differs from prev (all of
// them when prev is nil). It compares values, so a Doc rebuilt for a
// state that looks the same changes nothing on the page. A question's
// answer is a section of its own: the page marks the choices and adds
// the explanation without rebuilding the buttons, so that the one pressed
// keeps the focus.
func Changed(prev, next *Doc) Section {
	if prev == nil {
		return SecHead | SecMenu | SecProse | SecQuestion | SecAnswer | SecAfter | SecEnd | SecControls | SecStatus
	}
	var s Section
	add := func(sec Section, same bool) {
		if !same {
			s |= sec
		}
	}
	add(SecHead, prev.Mode == next.Mode && prev.Title == next.Title && prev.Heading == next.Heading)
	add(SecMenu, reflect.DeepEqual(prev.Menu, next.Menu))
	add(SecProse, reflect.DeepEqual(prev.Prose, next.Prose))
	pq, nq := prev.Question, next.Question
	add(SecQuestion, (pq == nil) == (nq == nil) && (pq == nil || pq.Number == nq.Number && pq.Of == nq.Of &&
		pq.Prompt == nq.Prompt && reflect.DeepEqual(pq.Choices, nq.Choices)))
	add(SecAnswer, pq == nil && nq == nil || pq != nil && nq != nil && pq.Chosen == nq.Chosen &&
		pq.Revealed == nq.Revealed && pq.Answer == nq.Answer && reflect.DeepEqual(pq.Explain, nq.Explain))
	add(SecAfter, reflect.DeepEqual(prev.After, next.After))
	add(SecEnd, reflect.DeepEqual(prev.End, next.End))
	add(SecControls, reflect.DeepEqual(prev.Controls, next.Controls))
	add(SecStatus, prev.Status == next.Status && reflect.DeepEqual(prev.Captions, next.Captions))
	return s
}
