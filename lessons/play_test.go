package lessons

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
)

const lesson1 = "01-shared-buffers.md"

func loadLesson1(t *testing.T) (*Lesson, []byte) {
	t.Helper()
	src, err := fs.ReadFile(Files, lesson1)
	if err != nil {
		t.Fatal(err)
	}
	l := mustParse(t, "lessons/"+lesson1, src)
	return l, src
}

// mustPlay plays a lesson headless; an error fails the test.
func mustPlay(t *testing.T, l *Lesson) *Played {
	t.Helper()
	p, err := Play(l)
	if err != nil {
		t.Fatalf("%s: %v", l.Name, err)
	}
	return p
}

func TestLesson1Plays(t *testing.T) {
	l, _ := loadLesson1(t)
	if l.Name != "shared-buffers" || l.Order != 1 || l.Config != "shared_buffers=128kB" || l.Summary == "" ||
		l.Title != "Shared buffers: hits, misses and the clock sweep" {
		t.Fatalf("header %+v", l)
	}
	if len(l.Steps) < 12 || l.Questions() < 3 {
		t.Fatalf("%d steps, %d questions: want at least 12 and 3", len(l.Steps), l.Questions())
	}
	p := mustPlay(t, l)
	if p.NBuffers != 16 || len(p.Events) != p.Runner.Log().Len() || len(p.Events) == 0 {
		t.Fatalf("NBuffers %d, %d events", p.NBuffers, len(p.Events))
	}
	if got := strings.Join(p.Backends, ","); got != "sys,A,B" {
		t.Errorf("backends %s", got)
	}
	names := map[string]bool{}
	for num, n := range p.RelNames {
		names[n] = true
		if p.Runner.RelName(num) != n {
			t.Errorf("relation %d: %s vs %s", num, n, p.Runner.RelName(num))
		}
	}
	if len(names) != 3 || !names["orders"] || !names["big"] || !names["small"] {
		t.Errorf("relations %v", p.RelNames)
	}
	prevEnd := 0
	for i, s := range l.Steps {
		start, end := p.StepStart[i], p.StepEnd[i]
		if start != prevEnd || end < start {
			t.Errorf("step %d (%s): events [%d, %d) after %d", i, s.Title, start, end, prevEnd)
		}
		prevEnd = end
		if s.Scenario != nil && end == start {
			t.Errorf("step %d (%s) has a scenario but no events", i, s.Title)
		}
		// Steps are small enough to step through by hand.
		if end-start > 800 {
			t.Errorf("step %d (%s) has %d events", i, s.Title, end-start)
		}
		for _, e := range p.StepEvents(i) {
			if int(e.Actor) >= len(p.Backends) {
				t.Fatalf("step %d: event %v by unknown actor", i, e)
			}
		}
		if s.Title == "" || len(s.Prose) == 0 {
			t.Errorf("step %d: title %q, %d prose blocks", i, s.Title, len(s.Prose))
		}
		if q := s.Predict; q != nil {
			if len(q.Choices) < 2 || len(q.ChoiceSpans) != len(q.Choices) || q.Answer < 0 || q.Answer >= len(q.Choices) ||
				len(q.Explain) == 0 || q.Prompt == "" || len(q.PromptSpans) == 0 {
				t.Errorf("step %d: bad question %+v", i, q)
			}
			if s.Scenario == nil {
				t.Errorf("step %d: a question without a scenario to reveal its answer", i)
			}
		}
	}
	if prevEnd != len(p.Events) {
		t.Errorf("steps end at %d of %d events", prevEnd, len(p.Events))
	}
	// The first step's miss comes from the freelist into buffer 0.
	var sawMiss bool
	for _, e := range p.StepEvents(0) {
		if e.Kind == trace.KMiss && e.Obj == 0 {
			sawMiss = true
		}
	}
	if !sawMiss {
		t.Error("step 0 has no miss into buffer 0")
	}
	// Show statements' output is kept per step.
	var shows int
	for _, o := range p.Outputs {
		shows += len(o)
	}
	if shows == 0 || !strings.Contains(p.Outputs[2][0].Text, "mapping table") {
		t.Errorf("outputs %v", p.Outputs)
	}
	if err := p.Runner.Pool().CheckInvariants(); err != nil {
		t.Error(err)
	}
}

// A wrong expect in the lesson fails Play with a Check error pointing into
// the Markdown file, and Played still describes the steps so far.
func TestPlayFailedExpect(t *testing.T) {
	_, src := loadLesson1(t)
	bad := strings.Replace(string(src), "expect pool hits=2 misses=5", "expect pool hits=2 misses=6", 1)
	line := strings.Count(bad[:strings.Index(bad, "misses=6")], "\n") + 1
	l := mustParse(t, "lessons/"+lesson1, []byte(bad))
	p, err := Play(l)
	var se *scenario.Error
	if !errors.As(err, &se) || !se.Check || se.Pos.Line != line || se.File != "lessons/"+lesson1 ||
		!strings.Contains(se.Msg, "expected 6, the engine has 5") {
		t.Fatalf("error %v (line %d)", err, line)
	}
	if p == nil {
		t.Fatal("no Played after a failed expect")
	}
	failed := -1
	for i, s := range l.Steps {
		if s.Expect != nil && s.Expect.Line < line && line < s.Expect.EndLine {
			failed = i
		}
	}
	if failed < 0 || p.StepEnd[failed] == p.StepStart[failed] {
		t.Fatalf("failing step %d", failed)
	}
	for i := failed + 1; i < len(l.Steps); i++ {
		if p.StepStart[i] != p.StepEnd[i] || p.StepStart[i] != len(p.Events) {
			t.Errorf("step %d after the failure has events [%d, %d)", i, p.StepStart[i], p.StepEnd[i])
		}
	}
}

// A scenario error at run time (not a failed expect) is positioned too.
func TestPlayRunError(t *testing.T) {
	src := withFront(
		"## S",                   // 5
		"```scenario",            // 6
		"relation t blocks=2",    // 7
		"backend A: release t 1", // 8
		"run",                    // 9
		"```",
		"## T",
		"```scenario",
		"backend A: touch t 0",
		"run",
		"```",
	)
	l := mustParse(t, "run.md", src)
	p, err := Play(l)
	if !isRunError(err, "run.md:8:12: release t 1: expected backend A to hold a pin") {
		t.Fatalf("%v", err)
	}
	if p == nil || p.StepStart[1] != p.StepEnd[1] {
		t.Fatalf("%+v", p)
	}
}

// Steps without a scenario have empty ranges; expect-only steps check the
// state the previous step left.
func TestPlayStepRanges(t *testing.T) {
	src := withFront(
		"Intro.",
		"## Setup",
		"```scenario",
		"relation t blocks=3",
		"```",
		"## Read",
		"```scenario",
		"backend A: touch t 0..2",
		"run",
		"show",
		"```",
		"## Only text",
		"Nothing runs.",
		"## Check",
		"```expect",
		"expect pool misses=3",
		"```",
	)
	l := mustParse(t, "ranges.md", src)
	p := mustPlay(t, l)
	want := [][2]int{{0, 0}, {0, len(p.Events)}, {len(p.Events), len(p.Events)}, {len(p.Events), len(p.Events)}}
	for i, w := range want {
		if p.StepStart[i] != w[0] || p.StepEnd[i] != w[1] {
			t.Errorf("step %d: [%d, %d), want %v", i, p.StepStart[i], p.StepEnd[i], w)
		}
	}
	if len(p.Outputs[1]) != 1 || !strings.Contains(p.Outputs[1][0].Text, "pool: 16 buffers") {
		t.Errorf("outputs %+v", p.Outputs)
	}
	if len(p.Backends) != 2 || p.RelNames[16384] != "t" {
		t.Errorf("backends %v relations %v", p.Backends, p.RelNames)
	}
}

// Every embedded lesson parses and plays with all its expects passing.
func TestEmbeddedLessonsPlay(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) == 0 {
		t.Fatal("no embedded lessons")
	}
	seen := map[string]bool{}
	for i, l := range all {
		if seen[l.Name] {
			t.Errorf("duplicate lesson %s", l.Name)
		}
		seen[l.Name] = true
		if !strings.HasPrefix(l.File, EmbeddedDir+"/") || !strings.HasSuffix(l.File, ".md") {
			t.Errorf("file %s", l.File)
		}
		if i > 0 && (all[i-1].Order > l.Order || all[i-1].Order == l.Order && all[i-1].Name > l.Name) {
			t.Errorf("lessons not sorted: %s before %s", all[i-1].Name, l.Name)
		}
		if _, err := Play(l); err != nil {
			t.Errorf("%v", err)
		}
	}
	if !seen["shared-buffers"] {
		t.Error("lesson shared-buffers is not embedded")
	}
	if files, _ := LessonFiles(Files, "."); len(files) != len(all) {
		t.Errorf("%d lesson files, %d lessons", len(files), len(all))
	}
}

// Named finds every embedded lesson by its name, and names them all when
// it has none of the name asked for.
func TestNamed(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, want := range all {
		l, err := Named(want.Name)
		if err != nil || l.Name != want.Name || l.File != want.File {
			t.Errorf("Named(%q): %v, %v", want.Name, l, err)
		}
		names = append(names, want.Name)
	}
	_, err = Named("no-such-lesson")
	if want := `no embedded lesson "no-such-lesson": expected one of ` + strings.Join(names, ", "); err == nil || err.Error() != want {
		t.Errorf("Named of no lesson: %v, want %q", err, want)
	}
}

func TestLoadDir(t *testing.T) {
	mk := func(title, order string) *fstest.MapFile {
		src := "---\ntitle: " + title + "\n"
		if order != "" {
			src += "order: " + order + "\n"
		}
		return &fstest.MapFile{Data: []byte(src + "---\n## S\nText.\n")}
	}
	fsys := fstest.MapFS{
		"d/02-b.md":        mk("B", ""),
		"d/a.md":           mk("A", "5"),
		"d/z.md":           mk("Z", "2"),
		"d/README.md":      {Data: []byte("# not a lesson")},
		"d/notes.txt":      {Data: []byte("ignored")},
		"d/sub/x.md":       mk("X", ""),
		"bad/ok.md":        mk("OK", ""),
		"bad/oops.md":      {Data: []byte("---\ntitle: T\n---\n## S\n```scenario\nrelation t blocks=x\n```\n")},
		"dup/1-x.md":       mk("X1", ""),
		"dup/2-x.md":       mk("X2", ""),
		"readme/a.md":      mk("A", ""),
		"readme/Readme.md": {Data: []byte("nope")},
	}
	ls, err := LoadDir(fsys, "d")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range ls {
		got = append(got, l.Name+"@"+l.File)
	}
	if strings.Join(got, " ") != "b@d/02-b.md z@d/z.md a@d/a.md" {
		t.Errorf("order: %v", got)
	}
	if _, err := LoadDir(fsys, "bad"); err == nil || !strings.HasPrefix(err.Error(), "bad/oops.md:6:12: blocks: expected a non-negative integer") {
		t.Errorf("bad: %v", err)
	}
	if _, err := LoadDir(fsys, "dup"); err == nil || !strings.HasPrefix(err.Error(), `dup/2-x.md:1:1: lesson name "x" is also the name of dup/1-x.md`) {
		t.Errorf("dup: %v", err)
	}
	if ls, err := LoadDir(fsys, "readme"); err != nil || len(ls) != 1 {
		t.Errorf("readme: %v %d", err, len(ls))
	}
	if _, err := LoadDir(fsys, "missing"); err == nil {
		t.Error("missing dir: no error")
	}
	for name, want := range map[string]bool{"a.md": true, "README.md": false, "readme.md": false, "a.txt": false, "a.md.bak": false} {
		if IsLessonFile(name) != want {
			t.Errorf("IsLessonFile(%q) = %v", name, !want)
		}
	}
}

// The README's complete example is a valid lesson whose expects pass.
func TestReadmeExample(t *testing.T) {
	src, err := fs.ReadFile(Files, "README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	start := strings.Index(text, "````markdown\n")
	end := strings.Index(text, "\n````\n")
	if start < 0 || end < start {
		t.Fatal("README.md has no ````markdown example")
	}
	l := mustParse(t, "09-example.md", []byte(text[start+len("````markdown\n"):end+1]))
	if len(l.Steps) != 2 || l.Questions() != 1 || l.Steps[0].After == nil {
		t.Fatalf("%+v", l)
	}
	mustPlay(t, l)
}

// Stops and questions' moments are found in the events: the event each
// holds the player before is the moment, by the backend named, the N-th
// or the last of the step, in the pane named; Stops are in step order,
// then in event order.
func TestPlayStops(t *testing.T) {
	src := lesson(
		"---",
		"title: T",
		"config: pins=atomic,spinlock",
		"---",
		"## Fill",                     // 5
		"```scenario",                 // 6
		"relation t blocks=4",         // 7
		"backend A: touch t 0..3",     // 8
		"run",                         // 9
		"```",                         // 10
		"```stops",                    // 11
		"victim nth=last",             // 12
		"# a comment",                 // 13
		"lookup-miss A nth=2",         // 14
		"```",                         // 15
		"## Race",                     // 16
		"```predict",                  // 17
		"question: Q?",                // 18
		"choices:",                    // 19
		"- a",                         // 20
		"- b",                         // 21
		"answer: 1",                   // 22
		"at: spin pane=pins=spinlock", // 23
		"explain: E.",                 // 24
		"```",                         // 25
		"```scenario",                 // 26
		"backend B: read t 0",         // 27
		"backend C: read t 0",         // 28
		"run",                         // 29
		"```",                         // 30
		"## Think",                    // 31
		"```predict",                  // 32
		"question: Why?",              // 33
		"choices:",                    // 34
		"- a",                         // 35
		"- b",                         // 36
		"answer: 2",                   // 37
		"at: none",                    // 38
		"explain: E.",                 // 39
		"```",                         // 40
	)
	l := mustParse(t, "stops.md", src)
	p := mustPlay(t, l)
	if len(p.Stops) != 3 {
		t.Fatalf("stops %+v", p.Stops)
	}
	panes := []*Played{p, p.Alts[0]}
	for i, want := range []struct {
		step, pane int
		moment     trace.Moment
		actor      string
		question   bool
		line       int
	}{
		{0, 0, trace.MomentLookupMiss, "A", false, 14},
		{0, 0, trace.MomentVictim, "A", false, 12},
		{1, 1, trace.MomentSpin, "", true, 23},
	} {
		st := p.Stops[i]
		pp := panes[st.Pane]
		e := pp.Events[st.Event]
		if st.Step != want.step || st.Pane != want.pane || scenario.MomentOf(e) != want.moment || st.Question != want.question ||
			st.Stop.Line != want.line || st.Offset != st.Event-pp.StepStart[st.Step] || (want.actor != "" && pp.Backends[e.Actor] != want.actor) {
			t.Errorf("stop %d: %+v (event %v), want %+v", i, st, e, want)
		}
	}
	// The second lookup-miss of A (block 1), the last victim (block 3).
	var misses, victims []int
	for j, e := range p.StepEvents(0) {
		switch scenario.MomentOf(e) {
		case trace.MomentLookupMiss:
			misses = append(misses, j)
		case trace.MomentVictim:
			victims = append(victims, j)
		}
	}
	if len(misses) != 4 || len(victims) != 4 || p.Stops[0].Offset != misses[1] || p.Stops[1].Offset != victims[3] {
		t.Errorf("misses %v victims %v, stops at %d and %d", misses, victims, p.Stops[0].Offset, p.Stops[1].Offset)
	}
}

// A stop that does not happen is an error at the stop, naming the step
// and the moments it does have; so are a backend the lesson lacks and at:
// none in a step that runs events.
func TestPlayStopErrors(t *testing.T) {
	step := func(stop string) []byte {
		return withFront(
			"## S",                    // 5
			"```scenario",             // 6
			"relation t blocks=2",     // 7
			"backend A: touch t 0..1", // 8
			"run",                     // 9
			"```",                     // 10
			"```stops",                // 11
			stop,                      // 12
			"```",
		)
	}
	for _, c := range []struct{ stop, want string }{
		{"cas-fail", `stops.md:12:1: cas-fail: expected the moment in the events of step 1 (S), found none (the step's moments: victim ×2, lookup-miss ×2)`},
		{"victim nth=3", `stops.md:12:1: victim nth=3: expected the moment in the events of step 1 (S), found 2 such events (the step's moments: victim ×2, lookup-miss ×2)`},
		{"  victim B", `stops.md:12:3: victim B: expected one of the lesson's backends (A), found "B"`},
	} {
		l := mustParse(t, "stops.md", step(c.stop))
		if _, err := Play(l); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v\nwant %s", c.stop, err, c.want)
		}
	}
	src := withFront(
		"## S",                 // 5
		"```predict",           // 6
		"question: Q?",         // 7
		"choices:",             // 8
		"- a",                  // 9
		"- b",                  // 10
		"answer: 1",            // 11
		"at:  none",            // 12
		"explain: E.",          // 13
		"```",                  // 14
		"```scenario",          // 15
		"relation t blocks=1",  // 16
		"backend A: touch t 0", // 17
		"run",                  // 18
		"```",
	)
	l := mustParse(t, "none.md", src)
	if _, err := Play(l); !isRunError(err, "none.md:12:6: at: none: step 1 (S) runs 30 events: expected the moment the question is about (the step's: victim ×1, lookup-miss ×1)") {
		t.Errorf("at: none with events: %v", err)
	}
}

// isRunError reports whether err is a positioned scenario error that is
// not a failed expect (Error.Check), and its text starts with prefix.
func isRunError(err error, prefix string) bool {
	var se *scenario.Error
	return errors.As(err, &se) && !se.Check && strings.HasPrefix(err.Error(), prefix)
}

// In every embedded lesson each question names its moment, and Play finds
// it once, as a question stop, at an event of that moment in its step. No
// embedded lesson uses at: none: every question is preceded by a stop at
// the moment it asks about (at: none stays for lessons written elsewhere;
// TestPlayStops and TestPlayStopErrors cover it).
func TestEmbeddedQuestionsHaveMoments(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range all {
		p := mustPlay(t, l)
		panes := append([]*Played{p}, p.Alts...)
		for k, s := range l.Steps {
			q := s.Predict
			if q == nil {
				continue
			}
			var found []StopAt
			for _, st := range p.Stops {
				if st.Step == k && st.Question {
					found = append(found, st)
				}
			}
			if q.At == nil {
				t.Errorf("%s:%d: step %d (%s): at: none; an embedded lesson's question must be asked at a stop before the moment it is about", l.File, q.AtLine, k+1, s.Title)
				continue
			}
			if len(found) != 1 {
				t.Errorf("%s step %d: %d question stops", l.Name, k+1, len(found))
				continue
			}
			st := found[0]
			pp := panes[st.Pane]
			if st.Event < pp.StepStart[k] || st.Event >= pp.StepEnd[k] || scenario.MomentOf(pp.Events[st.Event]) != q.At.Moment {
				t.Errorf("%s step %d: question stop %+v is not at its moment %s", l.Name, k+1, st, q.At)
			}
		}
	}
}
