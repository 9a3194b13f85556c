package player

import (
	"testing"

	"bufferlab/engine/trace"
	"bufferlab/lessons"
)

// playUntilPaused plays p (from paused) until it pauses, at most limit
// ticks, and returns the ticks taken.
func playUntilPaused(t *testing.T, p *Player, limit int) int {
	t.Helper()
	p.Toggle()
	for ticks := 1; ticks <= limit; ticks++ {
		p.Tick()
		if !p.Playing() {
			return ticks
		}
	}
	t.Fatalf("still playing after %d ticks, at %d", limit, p.Pos())
	return 0
}

// Every question of every lesson is preceded by a stop at its moment:
// playing the step from its start, the player stops at the position whose
// next event (in the pane the question names) is the question's moment,
// and the question is asked and gated there and not before; answering and
// going on applies the moment's event. No embedded lesson has a question
// at: none (asked as its step, which runs nothing, opens): each is preceded
// by a stop at its moment. Playing stops at every stop in turn.
func TestEveryQuestionStopsAtItsMoment(t *testing.T) {
	all, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	questions := 0
	for _, l := range all {
		p, err := FromLesson(l)
		if err != nil {
			t.Fatal(err)
		}
		p.TL.SetSpeed(3840)
		for k, st := range p.Steps {
			q := st.Predict
			p.GotoStep(k)
			if q == nil {
				continue
			}
			questions++
			name := l.Name + " step " + st.Title
			qpos, ok := p.QuestionPos(k)
			if !ok {
				t.Fatalf("%s: no question position", name)
			}
			if q.At == nil {
				t.Errorf("%s: at: none: the question is not preceded by a stop at the moment it is about", name)
				continue
			}
			// Before the stop: neither asked nor gated, wherever a move
			// lands.
			for p.Pos() < qpos {
				if p.Gated() || p.Question() != nil {
					t.Fatalf("%s: the question is asked at %d, before its stop at %d", name, p.Pos(), qpos)
				}
				if p.Forward(1) != 1 {
					t.Fatalf("%s: stuck at %d before the question's stop %d", name, p.Pos(), qpos)
				}
			}
			// Playing from the step's start stops at each stop in turn,
			// and at the question's.
			p.GotoStep(k)
			for _, s := range p.Stops() {
				if s.Step != k || s.Pos > qpos {
					continue
				}
				playUntilPaused(t, p, 100000)
				at, ok := p.AtStop()
				if !ok || at != s || p.Pos() != s.Pos {
					t.Fatalf("%s: play paused at %d (stop %v %+v), want the stop %+v", name, p.Pos(), ok, at, s)
				}
				if s.Pos < qpos {
					p.Forward(1)
				}
			}
			s, ok := p.AtStop()
			if !ok || !s.Question || p.Pos() != qpos || !p.Gated() || p.Question() != q {
				t.Fatalf("%s: at %d: stop %v %+v, gated %v, want the question's stop at %d", name, p.Pos(), ok, s, p.Gated(), qpos)
			}
			if m := p.MomentAt(s.Pane, p.Pos()); m != q.At.Moment || s.Moment != m {
				t.Fatalf("%s: the next event in pane %d is %v, the question is at %v", name, s.Pane, m, q.At.Moment)
			}
			if p.StopCaption() == "" {
				t.Errorf("%s: no caption for the stop's moment", name)
			}
			if p.Forward(1) != 0 || p.Continue() {
				t.Fatalf("%s: moved past the unanswered question", name)
			}
			if _, err := p.Answer(q.Answer); err != nil {
				t.Fatal(err)
			}
			if !p.Continue() || p.Pos() != qpos+1 || !p.Playing() {
				t.Fatalf("%s: Continue after the answer: at %d, playing %v", name, p.Pos(), p.Playing())
			}
			if p.Caption(s.Pane) != p.CaptionAt(s.Pane, qpos) || p.MomentAt(s.Pane, p.Pos()-1) != q.At.Moment {
				t.Fatalf("%s: after Continue the current event is not the moment", name)
			}
			p.pause()
		}
	}
	if questions < 40 {
		t.Fatalf("checked %d questions", questions)
	}
}

// A question at: none, in a step that runs nothing (a lesson written
// elsewhere: the embedded ones have none), is asked and gated as its step
// opens; answered, the lesson goes on to the next step.
func TestAtNoneAskedAsStepOpens(t *testing.T) {
	src := []byte("---\ntitle: T\n---\n## Fill\n```scenario\nrelation t blocks=2\nbackend A: touch t 0..1\nrun\n```\n" +
		"## Think\n```predict\nquestion: Why?\nchoices:\n- a\n- b\nanswer: 2\nat: none\nexplain: E.\n```\n" +
		"## Again\n```scenario\nbackend A: touch t 0\nrun\n```\n")
	p := lessonFrom(t, "none.md", src)
	q := p.Steps[1].Predict
	if q == nil || q.At != nil {
		t.Fatalf("step 2's question: %+v", q)
	}
	p.GotoStep(1)
	qpos, ok := p.QuestionPos(1)
	if !ok || qpos != p.StepStart[1] || p.StepEnd[1] != p.StepStart[1] || p.Pos() != qpos || !p.Gated() || p.Question() != q {
		t.Fatalf("at %d: question at %d (%v), step [%d, %d), gated %v", p.Pos(), qpos, ok, p.StepStart[1], p.StepEnd[1], p.Gated())
	}
	if _, err := p.Answer(q.Answer); err != nil {
		t.Fatal(err)
	}
	if p.Gated() {
		t.Fatal("still gated after the answer")
	}
}

// Named stops (a ```stops block) stop playing too, and → or Space goes on.
func TestNamedStops(t *testing.T) {
	src := []byte("---\ntitle: T\n---\n## Fill\n```stops\nvictim nth=2\nlookup-miss nth=3\n```\n```scenario\nrelation t blocks=4\nbackend A: touch t 0..3\nrun\n```\n")
	p := lessonFrom(t, "t.md", src)
	stops := p.Stops()
	if len(stops) != 2 || stops[0].Moment != trace.MomentVictim || stops[1].Moment != trace.MomentLookupMiss || stops[0].Pos >= stops[1].Pos {
		t.Fatalf("stops %+v", stops)
	}
	for i, s := range stops {
		playUntilPaused(t, p, 10000)
		if at, ok := p.AtStop(); !ok || at != s || p.Gated() {
			t.Fatalf("stop %d: paused at %d (%v %+v)", i, p.Pos(), ok, at)
		}
		if got := p.MomentAt(0, p.Pos()); got != s.Moment {
			t.Fatalf("stop %d: next event %v", i, got)
		}
		if i == 0 && (p.Forward(1) != 1 || p.Pos() != s.Pos+1) {
			t.Fatal("→ at a stop does not apply its moment")
		}
	}
	// Space (Toggle) at a stop applies the moment and plays on to the end.
	playUntilPaused(t, p, 10000)
	if p.Pos() != p.Len() {
		t.Fatalf("paused at %d of %d", p.Pos(), p.Len())
	}
}

// A bare scenario does not stop, and auto-slow is deterministic: at 1× an
// event far from any key moment takes one tick, a key moment's own event
// 7.5 (8 a second), its neighbours 4 (15 a second), the events two away
// 2 (30 a second); off, every event takes one tick.
func TestAutoSlow(t *testing.T) {
	p := mustPlayer(t, "s.scn", "relation t blocks=20\nbackend A: touch t 0..19\nrun\n")
	if len(p.Stops()) != 0 || !p.AutoSlow() {
		t.Fatalf("stops %v, auto-slow %v", p.Stops(), p.AutoSlow())
	}
	moments := map[int]bool{}
	for i := 0; i < p.Len(); i++ {
		if p.MomentAt(0, i) != trace.MomentNone {
			moments[i] = true
		}
	}
	if len(moments) < 40 {
		t.Fatalf("%d moments", len(moments))
	}
	far, near := 0, 0
	for i := 0; i < p.Len(); i++ {
		d := 3
		for k := -2; k <= 2; k++ {
			if moments[i+k] && abs(k) < d {
				d = abs(k)
			}
		}
		want := map[int]int{0: 8, 1: 15, 2: 30, 3: 60}[d]
		if got := p.SpeedAt(i); got != want {
			t.Fatalf("event %d, %d from a moment: %d a second, want %d", i, d, got, want)
		}
		if d == 3 {
			far++
		} else {
			near++
		}
	}
	if far == 0 || near == 0 {
		t.Fatalf("%d events far from a moment, %d near", far, near)
	}
	// Played tick by tick: the ticks each event waited.
	waited := func() []int {
		p.Start()
		p.Toggle()
		var w []int
		last := 0
		for tick := 1; p.Playing(); tick++ {
			for n := p.Tick(); n > 0; n-- {
				w = append(w, tick-last)
				last = tick
			}
			if tick > 100*p.Len() {
				t.Fatal("never ended")
			}
		}
		if p.Pos() != p.Len() {
			t.Fatalf("a bare scenario paused at %d of %d", p.Pos(), p.Len())
		}
		return w
	}
	w := waited()
	ticks := 0
	for i, n := range w {
		ticks += n
		switch p.SpeedAt(i) {
		case 60:
			if n > 1 {
				t.Fatalf("event %d, far from moments, waited %d ticks", i, n)
			}
		case 8:
			if n < 7 || n > 8 {
				t.Fatalf("moment %d waited %d ticks, want 7 or 8", i, n)
			}
		}
	}
	// Exact: the whole play takes the sum of the events' times, rounded up
	// to a tick.
	total := 0
	for i := range w {
		total += unitsPerSecond / p.SpeedAt(i)
	}
	if want := (total + 63) / 64; ticks != want {
		t.Fatalf("played in %d ticks, want %d", ticks, want)
	}
	p.SetAutoSlow(false)
	for i, n := range waited() {
		if n != 1 {
			t.Fatalf("auto-slow off: event %d waited %d ticks", i, n)
		}
	}
	// At the slowest speed near a moment stays one a second.
	p.SetAutoSlow(true)
	p.TL.SetSpeed(1)
	for i := range moments {
		if p.SpeedAt(i) != 1 {
			t.Fatalf("at 1/s, a moment plays at %d/s", p.SpeedAt(i))
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Every moment has a title for its stop's heading.
func TestMomentTitles(t *testing.T) {
	for m := trace.Moment(1); int(m) < trace.NumMoments; m++ {
		if MomentTitle(m) == m.String() {
			t.Errorf("moment %s has no title", m)
		}
	}
}

// Paced by time, the panes' events move to other positions: every stop
// moves with its moment, and a question is still asked just before it.
func TestStopsFollowPacing(t *testing.T) {
	all, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	var p *Player
	for _, l := range all {
		if l.Name == "dropping" {
			if p, err = FromLesson(l); err != nil {
				t.Fatal(err)
			}
		}
	}
	check := func(how string) {
		t.Helper()
		stops := p.Stops()
		if len(stops) < 5 {
			t.Fatalf("%s: %d stops", how, len(stops))
		}
		for _, s := range stops {
			if got := p.MomentAt(s.Pane, s.Pos); got != s.Moment || s.Pos < p.StepStart[s.Step] || s.Pos >= p.StepEnd[s.Step] {
				t.Fatalf("%s: stop %+v: the pane's event there is %v, in step [%d, %d)", how, s, got, p.StepStart[s.Step], p.StepEnd[s.Step])
			}
			if q, ok := p.QuestionPos(s.Step); s.Question && (!ok || q != s.Pos) {
				t.Fatalf("%s: the question of step %d is asked at %d, its stop is at %d", how, s.Step, q, s.Pos)
			}
		}
	}
	check("by events")
	before := p.Stops()
	if err := p.PaceByCost(func(pane int, e trace.Event) float64 { return float64(1 + 2*pane) }, 1); err != nil {
		t.Fatal(err)
	}
	check("by time")
	moved := 0
	for i, s := range p.Stops() {
		if s.Pos != before[i].Pos {
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("pacing by time moved no stop")
	}
	p.PaceByEvents()
	check("by events again")
}

// lessonFrom plays a lesson written in a test (file names it in errors).
func lessonFrom(t *testing.T, file string, src []byte) *Player {
	t.Helper()
	l, err := lessons.Parse(file, src)
	if err != nil {
		t.Fatal(err)
	}
	p, err := FromLesson(l)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
