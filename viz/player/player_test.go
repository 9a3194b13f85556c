package player

import (
	"bufferlab/engine/trace"
	"testing"

	view "bufferlab/viz/poolview"
)

func lesson1(t *testing.T) *Player {
	t.Helper()
	p, err := FromLessonName("shared-buffers")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// fresh replays the lesson's events to position i on a new view.
func fresh(p *Player, i int) *view.Pool {
	v := view.New(p.View().NBuffers(), nil, p.Backends)
	for _, e := range trace.All(p.TL.Events())[:i] {
		v.Apply(e)
	}
	return v
}

// A student can go through the whole lesson with the keyboard alone,
// answering each question, and back again; every state equals a fresh
// replay to the same point.
func TestWalkLessonForwardAndBack(t *testing.T) {
	p := lesson1(t)
	visited := map[int]bool{}
	questions := 0
	for guard := 0; guard < 100000; guard++ {
		visited[p.Step()] = true
		if p.Gated() {
			q := p.Question()
			if _, err := p.Answer(q.Answer); err != nil {
				t.Fatal(err)
			}
			questions++
			if p.Gated() {
				t.Fatal("still gated after answering")
			}
			continue
		}
		if p.Forward(1) == 0 {
			break
		}
		if p.Pos() < p.StepStart[p.Step()] || p.Pos() > p.StepEnd[p.Step()] {
			t.Fatalf("pos %d outside step %d [%d,%d]", p.Pos(), p.Step(), p.StepStart[p.Step()], p.StepEnd[p.Step()])
		}
	}
	if p.Pos() != p.Len() || p.Step() != len(p.Steps)-1 {
		t.Fatalf("stopped at step %d pos %d of %d", p.Step(), p.Pos(), p.Len())
	}
	if len(visited) != len(p.Steps) {
		t.Fatalf("visited %d of %d steps", len(visited), len(p.Steps))
	}
	if questions != p.Lesson.Questions() || questions < 3 {
		t.Fatalf("answered %d questions, the lesson has %d", questions, p.Lesson.Questions())
	}
	if !p.View().Equal(fresh(p, p.Len())) {
		t.Fatal("final view differs from a fresh replay")
	}
	// And back to the start, checking a few states on the way.
	for i := 0; p.Back(1) == 1; i++ {
		if i%257 == 0 && !p.View().Equal(fresh(p, p.Pos())) {
			t.Fatalf("at %d the view differs from a fresh replay:\n%s", p.Pos(), p.View().Diff(fresh(p, p.Pos())))
		}
	}
	if p.Pos() != 0 || p.Step() != 0 {
		t.Fatalf("back at step %d pos %d", p.Step(), p.Pos())
	}
}

func TestGatingAndAnswers(t *testing.T) {
	p := lesson1(t)
	k := -1
	for s, st := range p.Steps {
		if st.Predict != nil && st.Predict.At != nil {
			k = s
			break
		}
	}
	if k < 0 {
		t.Fatal("no step with a question about a moment")
	}
	p.GotoStep(k)
	qpos, ok := p.QuestionPos(k)
	if !ok || qpos <= p.StepStart[k] || p.Gated() || p.Question() != nil || p.StepQuestion() == nil {
		t.Fatalf("at the step's start (question at %d): gated %v, question shown %v", qpos, p.Gated(), p.Question() != nil)
	}
	// Moves reach the question's stop, and stop there.
	if n := p.Forward(qpos - p.StepStart[k] + 5); n != qpos-p.StepStart[k] || p.Pos() != qpos || !p.Gated() || p.Question() == nil {
		t.Fatalf("Forward moved %d to %d, gated %v: want to stop at the question, %d", n, p.Pos(), p.Gated(), qpos)
	}
	if p.Forward(5) != 0 {
		t.Fatal("a step with an unanswered question is not gated")
	}
	p.Toggle()
	if p.Tick() != 0 || p.Pos() != qpos {
		t.Fatal("playing ran past an unanswered question")
	}
	if p.Continue() {
		t.Fatal("Continue went past an unanswered question")
	}
	q := p.Question()
	wrong := (q.Answer + 1) % len(q.Choices)
	if ok, err := p.Answer(wrong); ok || err != nil {
		t.Fatalf("wrong answer judged right (%v, %v)", ok, err)
	}
	if c, rev := p.Answered(); c != wrong || !rev {
		t.Fatalf("answered %d revealed %v", c, rev)
	}
	if _, err := p.Answer(len(q.Choices)); err == nil {
		t.Fatal("out-of-range answer accepted")
	}
	if s, ok := p.AtStop(); !ok || !s.Question || p.Gated() {
		t.Fatalf("after the answer: at stop %v %+v, gated %v", ok, s, p.Gated())
	}
	if p.Forward(1) != 1 || p.Pos() != qpos+1 {
		t.Fatal("answering did not unblock the step")
	}
	// The answered question stays on screen, even back before its stop.
	p.Back(2)
	if p.Question() == nil || p.Gated() {
		t.Fatal("an answered question is hidden before its stop")
	}
	// Seek (the JS API) is not gated.
	p.GotoStep(k + 1)
	p.Seek(p.StepStart[k] + 3)
	if p.Step() != k || p.Pos() != p.StepStart[k]+3 {
		t.Fatalf("seek landed at step %d pos %d", p.Step(), p.Pos())
	}
}

// In a class an answer is held for the teacher's reveal: the question
// stays open and the step gated, a second answer replaces the first,
// Reveal shows the explanation with the held guess, and Reask opens the
// question again with none.
func TestHoldRevealReask(t *testing.T) {
	p := lesson1(t)
	k := -1
	for s, st := range p.Steps {
		if st.Predict != nil {
			k = s
			break
		}
	}
	p.GotoStep(k)
	qpos, _ := p.QuestionPos(k)
	p.Seek(qpos)
	q := p.Question()
	if q == nil || !p.Gated() {
		t.Fatalf("at the question's stop: question %v, gated %v", q != nil, p.Gated())
	}
	wrong := (q.Answer + 1) % len(q.Choices)
	for _, c := range []int{q.Answer, wrong} {
		if err := p.Hold(c); err != nil {
			t.Fatal(err)
		}
		if got, rev := p.Answered(); got != c || rev || !p.Gated() || p.Question() == nil {
			t.Fatalf("held %d: answered %d, revealed %v, gated %v", c, got, rev, p.Gated())
		}
	}
	if err := p.Hold(len(q.Choices)); err == nil {
		t.Fatal("an out-of-range answer was held")
	}
	p.Reveal()
	if got, rev := p.Answered(); got != wrong || !rev || p.Gated() {
		t.Fatalf("after Reveal: answered %d, revealed %v, gated %v", got, rev, p.Gated())
	}
	p.Reask()
	if got, rev := p.Answered(); got != -1 || rev || !p.Gated() || p.Question() == nil {
		t.Fatalf("after Reask: answered %d, revealed %v, gated %v", got, rev, p.Gated())
	}
	p.GotoStep(k + 1)
	if p.StepQuestion() == nil {
		if err := p.Hold(0); err == nil {
			t.Error("Hold on a step with no question")
		}
	}
}

func TestPlayStopsAtStepEnd(t *testing.T) {
	p := lesson1(t)
	p.SetAutoSlow(false)
	k := -1
	for s := range p.Steps {
		if p.Steps[s].Predict == nil && p.StepEnd[s]-p.StepStart[s] > 20 {
			k = s
			break
		}
	}
	if k < 0 {
		t.Fatal("no step without a question")
	}
	p.GotoStep(k)
	p.TL.SetSpeed(15)
	p.Toggle()
	got := []int{}
	for i := 0; i < 8; i++ {
		got = append(got, p.Tick())
	}
	if sum := got[0] + got[1] + got[2] + got[3] + got[4] + got[5] + got[6] + got[7]; sum != 2 {
		t.Fatalf("15/s advanced %v over 8 ticks, want 2 events", got)
	}
	p.TL.SetSpeed(3840)
	for i := 0; i < 10000 && p.Playing(); i++ {
		p.Tick()
	}
	if p.Playing() || p.Pos() != p.StepEnd[k] || p.Step() != k {
		t.Fatalf("play stopped at step %d pos %d, want the end of step %d (%d)", p.Step(), p.Pos(), k, p.StepEnd[k])
	}
	// Play again enters the next step.
	p.Toggle()
	if p.Step() != k+1 {
		t.Fatalf("play at a step's end went to step %d", p.Step())
	}
}

func TestToOpEndAndSteps(t *testing.T) {
	p := lesson1(t)
	p.End()
	if p.Pos() != p.Len() {
		t.Fatal("End")
	}
	p.PrevStep()
	last := len(p.Steps) - 1
	if p.Step() != last || p.Pos() != p.StepStart[last] {
		t.Fatalf("PrevStep from the end: step %d pos %d", p.Step(), p.Pos())
	}
	p.PrevStep()
	if p.Step() != last-1 {
		t.Fatalf("PrevStep at a step start: step %d", p.Step())
	}
	p.Start()
	// Find a step with events and no question, play one operation.
	for s := range p.Steps {
		if p.Steps[s].Predict == nil && p.StepEnd[s] > p.StepStart[s]+5 {
			p.GotoStep(s)
			p.Forward(1)
			p.ToOpEnd()
			for i := 0; i < 1000 && p.Playing(); i++ {
				p.Tick()
			}
			if p.Pos() <= p.StepStart[s]+1 || p.Pos() > p.StepEnd[s] {
				t.Fatalf("ToOpEnd moved to %d in step [%d,%d]", p.Pos(), p.StepStart[s], p.StepEnd[s])
			}
			return
		}
	}
	t.Fatal("no step to play an operation in")
}

func TestFromScenario(t *testing.T) {
	p := mustPlayer(t, "s.scn", "relation t blocks=3\nbackend A: touch t 0..2\nrun\n")
	if len(p.Steps) != 1 || p.Len() == 0 || p.Pos() != 0 {
		t.Fatalf("steps %d len %d pos %d", len(p.Steps), p.Len(), p.Pos())
	}
	p.End()
	if c := p.Counters(); c.Misses != 3 {
		t.Fatalf("misses %d", c.Misses)
	}
	if p.View().RelName(16384) != "t" {
		t.Fatalf("relation name %q", p.View().RelName(16384))
	}
	if _, err := FromScenario("bad.scn", "oops"); err == nil {
		t.Fatal("bad scenario accepted")
	}
}
