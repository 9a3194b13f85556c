package lessons

import (
	"errors"
	"strings"
	"testing"

	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
)

// lesson builds a lesson file from lines (joined with "\n").
func lesson(lines ...string) []byte { return []byte(strings.Join(lines, "\n") + "\n") }

var goodFront = []string{"---", "title: T", "config: shared_buffers=128kB", "---"}

// withFront prefixes body lines with a valid four-line front matter, so
// that body line k is file line k+4.
func withFront(body ...string) []byte {
	return lesson(append(append([]string{}, goodFront...), body...)...)
}

// mustParse parses a lesson; an error fails the test.
func mustParse(t *testing.T, file string, src []byte) *Lesson {
	t.Helper()
	l, err := Parse(file, src)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

const goodPredict = "```predict\nquestion: Q?\nchoices:\n- a\n- b\nanswer: 2\nexplain: E.\nat: none\n```"

func TestParseComplete(t *testing.T) {
	src := lesson(
		"---",                                 // 1
		`title: "Hits: and misses"`,           // 2
		"summary: One line.",                  // 3
		"# a comment",                         // 4
		"config: shared_buffers=256kB seed=3", // 5
		"---",                                 // 6
		"",                                    // 7
		"Intro *one*.",                        // 8
		"",                                    // 9
		"## First step",                       // 10
		"",                                    // 11
		"Before **run**.",                     // 12
		"",                                    // 13
		"```predict",                          // 14
		"question: Which `buffer`",            // 15
		"  gets it?",                          // 16
		"choices:",                            // 17
		"- buffer *0*",                        // 18
		"- buffer 15,",                        // 19
		"  the last",                          // 20
		"answer: 1",                           // 21
		"explain: The freelist.",              // 22
		"",                                    // 23
		"  Second paragraph.",                 // 24
		"at:   victim A nth=last",             // 25
		"```",                                 // 26
		"```scenario",                         // 27
		"relation t1 blocks=17",               // 28
		"",                                    // 29
		"backend A: touch t1 0",               // 30
		"run",                                 // 31
		"```",                                 // 32
		"",                                    // 33
		"After the run.",                      // 34
		"",                                    // 35
		"```expect",                           // 36
		"expect pool misses=1",                // 37
		"```",                                 // 38
		"",                                    // 39
		"## Second step",                      // 40
		"",                                    // 41
		"```sql",                              // 42
		"SELECT 1;",                           // 43
		"```",                                 // 44
		"",                                    // 45
		"```expect",                           // 46
		"expect block t1 0 in=0",              // 47
		"```",                                 // 48
	)
	l := mustParse(t, "lessons/07-hits_misses.md", src)
	if l.Name != "hits_misses" || l.Order != 7 || l.Title != "Hits: and misses" || l.Summary != "One line." ||
		l.Config != "shared_buffers=256kB seed=3" || l.File != "lessons/07-hits_misses.md" {
		t.Fatalf("header: %+v", l)
	}
	if got := blocksString(l.Intro); got != "P Intro *one*." {
		t.Errorf("intro %q", got)
	}
	if l.IntroMarkdown != "Intro *one*." {
		t.Errorf("intro markdown %q", l.IntroMarkdown)
	}
	if len(l.Steps) != 2 || l.Questions() != 1 {
		t.Fatalf("%d steps, %d questions", len(l.Steps), l.Questions())
	}
	s := l.Steps[0]
	if s.Title != "First step" || s.Line != 10 {
		t.Errorf("step 0: %q line %d", s.Title, s.Line)
	}
	if got := blocksString(s.Prose); got != "P Before **run**." {
		t.Errorf("prose %q", got)
	}
	if got := blocksString(s.After); got != "P After the run." {
		t.Errorf("after %q", got)
	}
	if s.Markdown != "Before **run**." || s.AfterMarkdown != "After the run." {
		t.Errorf("markdown %q / %q", s.Markdown, s.AfterMarkdown)
	}
	q := s.Predict
	if q == nil || q.Line != 14 || q.Answer != 0 || q.Prompt != "Which `buffer` gets it?" ||
		strings.Join(q.Choices, "|") != "buffer *0*|buffer 15, the last" {
		t.Fatalf("question %+v", q)
	}
	if a := q.At; a == nil || a.Moment != trace.MomentVictim || a.Backend != "A" || a.Nth != Last || a.Pane != "" ||
		a.Line != 25 || a.Col != 7 || q.AtLine != 25 || q.AtCol != 7 || a.String() != "victim A nth=last" {
		t.Errorf("at %+v (%d:%d)", q.At, q.AtLine, q.AtCol)
	}
	if got := SpansMarkup(q.PromptSpans); got != "Which `buffer` gets it?" {
		t.Errorf("prompt spans %q", got)
	}
	if got := SpansMarkup(q.ChoiceSpans[0]); got != "buffer *0*" {
		t.Errorf("choice spans %q", got)
	}
	if got := blocksString(q.Explain); got != "P The freelist.\nP Second paragraph." {
		t.Errorf("explain %q", got)
	}
	if q.Explain[1].Line != 24 {
		t.Errorf("explain paragraph 2 at line %d, want 24", q.Explain[1].Line)
	}
	if f := s.Scenario; f == nil || f.Line != 27 || f.EndLine != 32 || len(f.Stmts) != 3 ||
		f.Text != "relation t1 blocks=17\n\nbackend A: touch t1 0\nrun" {
		t.Fatalf("scenario %+v", s.Scenario)
	}
	if f := s.Expect; f == nil || f.Line != 36 || len(f.Stmts) != 1 || f.Stmts[0].At().Line != 37 {
		t.Fatalf("expect %+v", s.Expect)
	}
	s2 := l.Steps[1]
	if s2.Scenario != nil || s2.Expect == nil || s2.Predict != nil || s2.Line != 40 {
		t.Fatalf("step 1 %+v", s2)
	}
	if got := blocksString(s2.Prose); got != "CODE[sql] SELECT 1;" {
		t.Errorf("step 1 prose %q", got)
	}
	// The scenario source keeps the file's lines.
	lines := strings.Split(l.ScenarioSource, "\n")
	if lines[4] != "config  shared_buffers=256kB seed=3" || lines[27] != "relation t1 blocks=17" || lines[46] != "expect block t1 0 in=0" || lines[11] != "" {
		t.Errorf("scenario source %q", l.ScenarioSource)
	}
	if c, ok := l.Script.Stmts[0].(*scenario.ConfigStmt); !ok || c.NBuffers != 32 || c.Seed != 3 {
		t.Errorf("config %+v", l.Script.Stmts[0])
	}
}

func blocksString(bs []Block) string {
	var out []string
	for _, b := range bs {
		out = append(out, b.String())
	}
	return strings.Join(out, "\n")
}

func TestNameFromFile(t *testing.T) {
	for _, c := range []struct {
		file, name string
		order      int
		has        bool
	}{
		{"01-shared-buffers.md", "shared-buffers", 1, true},
		{"lessons/12_drop.md", "drop", 12, true},
		{"/tmp/x/intro.md", "intro", 0, false},
		{"2024.md", "2024", 0, false},
		{"3-.md", "", 3, true},
	} {
		name, order, has := NameFromFile(c.file)
		if name != c.name || order != c.order || has != c.has {
			t.Errorf("%s: %q %d %v, want %q %d %v", c.file, name, order, has, c.name, c.order, c.has)
		}
	}
}

// Every error path of the format names file:line:col and says what was
// expected.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		src  []byte
		want string // "line:col: message prefix"
	}{
		{"no front matter", lesson("# Title", "## S"), "1:1: expected front matter: a first line '---'"},
		{"unclosed front matter", lesson("---", "title: T", "## S"), "1:1: the front matter opened here is not closed"},
		{"not key value", lesson("---", "title: T", "just words", "---"), "3:1: front matter: expected key: value"},
		{"unknown key", lesson("---", "title: T", "author: me", "---"), `3:1: front matter: unknown key "author"`},
		{"duplicate key", lesson("---", "title: T", "title: U", "---"), "3:1: front matter: title given twice (first at line 2)"},
		{"empty title", lesson("---", "title:", "---"), "2:7: title: expected the lesson's title, found nothing"},
		{"missing title", lesson("---", "order: 1", "---", "## S"), "1:1: front matter: expected a title: line, found none"},
		{"bad order", lesson("---", "title: T", "order:  two", "---"), `3:9: order: expected a whole number (0, 1, 2, …), found "two"`},
		{"empty summary", lesson("---", "title: T", "summary:", "---"), "3:9: summary: expected one sentence"},
		{"empty config", lesson("---", "title: T", "config:", "---"), "3:8: config: expected scenario settings"},
		{"bad config", lesson("---", "title: T", "config: shared_buffers=1000TB", "---", "## S"), "3:9: shared_buffers"},
		{"unknown config key", lesson("---", "title: T", "config: shared_buffers=128kB colour=red", "---", "## S"), `3:30: unknown config key "colour"`},
		{"no steps", withFront("", "Only an intro."), "5:1: expected at least one step (a '## Title' heading), found none"},
		{"level 1 heading", withFront("", "# Big"), "6:1: expected '## ' to start a step, found a level-1 heading"},
		{"empty step title", withFront("", "##", "text"), "6:1: expected a step title after '## ', found nothing"},
		{"block in intro", withFront("", "```scenario", "run", "```"), "6:1: expected a '## ' step heading before this ```scenario block"},
		{"words after info", withFront("## S", "```scenario please", "run", "```"), "6:1: expected nothing after ```scenario, found \"please\""},
		{"unclosed fence", withFront("## S", "", "```scenario", "relation t blocks=1"), "7:1: the ```scenario block opened here is not closed: expected a closing ``` line"},
		{"unclosed long fence", withFront("## S", "", "````expect", "expect pool hits=0", "```"), "7:1: the ```expect block opened here is not closed: expected a closing ```` line"},
		{"two scenarios", withFront("## S", "```scenario", "relation t blocks=1", "```", "```scenario", "run", "```"), "9:1: a step has at most one ```scenario block: found a second one (the first is at line 6)"},
		{"two predicts", withFront("## S", goodPredict, goodPredict), "15:1: a step has at most one ```predict block: found a second one (the first is at line 6)"},
		{"two expects", withFront("## S", "```expect", "expect pool hits=0", "```", "```expect", "expect pool hits=0", "```"), "9:1: a step has at most one ```expect block"},
		{"scenario after expect", withFront("## S", "```expect", "expect pool hits=0", "```", "```scenario", "run", "```"), "9:1: expected the ```scenario block before the step's ```expect block (line 6), found it after"},
		{"typo in info", withFront("## S", "", "```scenaro", "run", "```"), "7:1: expected ```predict, ```scenario, ```expect, ```stops or a block of code to show (``` or ```text, ```sql, ```psql, ```console, ```shell, ```sh, ```bash, ```c, ```go, ```diff, ```ini, ```conf), found ```scenaro"},
		{"nested special block", withFront("## S", "", "- item", "", "  ```scenario", "  run", "  ```"), "9:3: expected the ```scenario block at the top level of a step, found it inside a list or a quote"},
		{"raw html", withFront("## S", "", "<div>hi</div>"), "7:1: expected Markdown prose, found raw HTML"},
		{"inline html", withFront("## S", "", "Some <b>bold</b> text."), `7:6: expected Markdown text, found raw HTML "<b>"`},
		{"image", withFront("## S", "", "See ![pool](pool.png)."), "7:1: expected Markdown text, found an image"},
		{"scenario typo", withFront("## S", "```scenario", "relation t blocks=2", "backend A: tuoch t 0", "```"), `8:12: expected an operation (read, release, dirty, touch, write, scan, cleanup, drop, truncate, clog, insert, delete, vacuum), found "tuoch"`},
		{"config in block", lesson("---", "title: T", "---", "## S", "```scenario", "config shared_buffers=1MB", "```"), "6:1: expected the configuration in the front matter (config: shared_buffers=1MB)"},
		{"config twice", withFront("## S", "```scenario", "config shared_buffers=1MB", "```"), "7:1: config given twice"},
		{"run in expect", withFront("## S", "```expect", "run", "```"), `7:1: expected only expect statements in an ` + "```expect block, found \"run\""},
		{"expect typo", withFront("## S", "```expect", "expect pool hitz=1", "```"), `7:13: expect pool: expected KEY=VALUE with KEY one of`},
		// predict blocks
		{"no question", withFront("## S", "```predict", "choices:", "- a", "- b", "answer: 1", "explain: E", "```"), "6:1: predict: expected a question: line, found none"},
		{"empty question", withFront("## S", "```predict", "question:", "choices:", "- a", "- b", "answer: 1", "explain: E", "```"), "7:10: question: expected the question's text, found nothing"},
		{"no choices", withFront("## S", "```predict", "question: Q", "answer: 1", "explain: E", "```"), "6:1: predict: expected at least two choices ('- text' lines after choices:), found 0"},
		{"one choice", withFront("## S", "```predict", "question: Q", "choices:", "- a", "answer: 1", "explain: E", "```"), "8:1: predict: expected at least two choices ('- text' lines after choices:), found 1"},
		{"choices inline", withFront("## S", "```predict", "question: Q", "choices: a, b", "```"), `8:10: choices: expected the choices on the following lines, each as '- text', found "a, b"`},
		{"stray choice", withFront("## S", "```predict", "question: Q", "- a", "```"), `8:1: predict: expected a choice ('- text') only after choices:, found "- a"`},
		{"empty choice", withFront("## S", "```predict", "question: Q", "choices:", "- ", "```"), "9:1: predict: expected the text of a choice after '- ', found nothing"},
		{"no answer", withFront("## S", "```predict", "question: Q", "choices:", "- a", "- b", "explain: E", "```"), "6:1: predict: expected an answer: line (the number of the right choice, 1 for the first), found none"},
		{"answer not a number", withFront("## S", "```predict", "question: Q", "choices:", "- a", "- b", "answer: b", "explain: E", "```"), `11:9: answer: expected a choice number from 1 to 2, found "b"`},
		{"answer out of range", withFront("## S", "```predict", "question: Q", "choices:", "- a", "- b", "answer:   3", "explain: E", "```"), `11:11: answer: expected a choice number from 1 to 2, found "3"`},
		{"answer zero", withFront("## S", "```predict", "question: Q", "choices:", "- a", "- b", "answer: 0", "explain: E", "```"), `11:9: answer: expected a choice number from 1 to 2, found "0"`},
		{"no explain", withFront("## S", "```predict", "question: Q", "choices:", "- a", "- b", "answer: 1", "```"), "6:1: predict: expected an explain: line (shown after the guess), found none"},
		{"empty explain", withFront("## S", "```predict", "question: Q", "choices:", "- a", "- b", "answer: 1", "explain:", "```"), "12:9: explain: expected the explanation's text, found nothing"},
		{"unknown predict key", withFront("## S", "```predict", "question: Q", "hint: H", "```"), `8:1: predict: unknown key "hint": expected question, choices, answer, explain or at`},
		{"duplicate predict key", withFront("## S", "```predict", "question: Q", "question: R", "```"), "8:1: predict: question given twice (first at line 7)"},
		{"indented first line", withFront("## S", "```predict", "  question: Q", "```"), "7:1: predict: expected question:, choices:, answer:, explain: or at: at the start of the line"},
		{"garbage line", withFront("## S", "```predict", "question: Q", "Why?", "```"), `8:1: predict: expected question:, choices:, answer:, explain:, at: or a '- ' choice, found "Why?"`},
		{"html in explain", withFront("## S", "```predict", "question: Q", "choices:", "- a", "- b", "answer: 1", "at: none", "explain: It is", "  <b>bold</b>.", "```"), `14:3: expected Markdown text, found raw HTML "<b>"`},
		{"heading in explain", withFront("## S", "```predict", "question: Q", "choices:", "- a", "- b", "answer: 1", "explain: E", "", "  ### H", "at: none", "```"), "14:3: expected text, found a heading (level 3)"},
		// a question's moment, a step's stops
		{"no at", withFront("## S", "```predict", "question: Q", "choices:", "- a", "- b", "answer: 1", "explain: E", "```"), "6:1: predict: expected an at: line, the moment the question is about (the player stops just before it): one of cas-fail, spin, victim"},
		{"empty at", withFront("## S", "```predict", "question: Q", "choices:", "- a", "- b", "answer: 1", "at:", "explain: E", "```"), "12:4: at: expected a moment (cas-fail, spin, victim, "},
		{"unknown moment", withFront("## S", "```predict", "question: Q", "choices:", "- a", "- b", "answer: 1", "at:  vitcim A", "explain: E", "```"), `12:6: at: expected a moment (cas-fail, spin, victim, dirty-evict, ring-reuse, lookup-miss, drop, slru-match, slru-victim, fsm-skip, fsm-create, error, lookup-hit, slru-lookup, readv, aio-complete), found "vitcim"`},
		{"at none is not a moment", withFront("## S", "```predict", "question: Q", "choices:", "- a", "- b", "answer: 1", "at: none A", "explain: E", "```"), `12:5: at: expected a moment (`},
		{"bad nth", withFront("## S", "```predict", "question: Q", "choices:", "- a", "- b", "answer: 1", "at: victim nth=0", "explain: E", "```"), `12:16: at: nth: expected a number from 1 (the first) or last, found "0"`},
		{"two backends", withFront("## S", "```predict", "question: Q", "choices:", "- a", "- b", "answer: 1", "at: victim A B", "explain: E", "```"), `12:14: at: expected one backend (A is given), found "B" as well`},
		{"unknown stop key", withFront("## S", "```predict", "question: Q", "choices:", "- a", "- b", "answer: 1", "at: victim step=2", "explain: E", "```"), `12:12: at: expected a backend, nth=N or pane=VARIANT after the moment, found "step=2"`},
		{"at on two lines", withFront("## S", "```predict", "question: Q", "choices:", "- a", "- b", "answer: 1", "at: victim", "  A", "explain: E", "```"), `13:1: at: expected one line, found a continuation line "A"`},
		{"pane without variants", withFront("## S", "```predict", "question: Q", "choices:", "- a", "- b", "answer: 1", "at: victim pane=spinlock", "explain: E", "```"), "12:5: at: pane=spinlock: expected pane= only in a lesson whose config names several variants side by side"},
		{"unknown pane", lesson("---", "title: T", "config: pins=atomic,spinlock", "---", "## S", "```stops", "victim", "spin pane=atomc", "```"), "8:1: stops: pane=atomc: expected one of the lesson's variants (atomic, spinlock)"},
		{"empty stops", withFront("## S", "```stops", "# nothing", "```"), "6:1: a ```stops block: expected one stop a line"},
		{"bad stop", withFront("## S", "```stops", "victim", "  cas-fial", "```"), `8:3: stops: expected a moment (`},
		{"two stops blocks", withFront("## S", "```stops", "victim", "```", "```stops", "spin", "```"), "9:1: a step has at most one ```stops block: found a second one (the first is at line 6)"},
		{"stops before a step", withFront("```stops", "victim", "```", "## S"), "5:1: expected a '## ' step heading before this ```stops block"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("x.md", c.src)
			if err == nil {
				t.Fatalf("no error, want %s", c.want)
			}
			var se *scenario.Error
			if !errors.As(err, &se) || se.Check {
				t.Fatalf("error %T %v, want a *scenario.Error without Check", err, err)
			}
			if !strings.HasPrefix(err.Error(), "x.md:"+c.want) {
				t.Fatalf("error\n  %v\nwant prefix\n  x.md:%s", err, c.want)
			}
		})
	}
}

func TestParseBadFileName(t *testing.T) {
	_, err := Parse("lessons/01-.md", withFront("## S"))
	if err == nil || !strings.HasPrefix(err.Error(), `lessons/01-.md:1:1: the file name gives the lesson name ""`) {
		t.Fatalf("%v", err)
	}
	_, err = Parse("my lesson.md", withFront("## S"))
	if err == nil || !strings.Contains(err.Error(), `lesson name "my lesson": expected letters, digits`) {
		t.Fatalf("%v", err)
	}
	_, err = Parse("big.md", make([]byte, MaxLessonBytes+1))
	if err == nil || !strings.HasPrefix(err.Error(), "big.md:1:1: the lesson is") {
		t.Fatalf("%v", err)
	}
}

// Things that look odd but are allowed.
func TestParseAllowed(t *testing.T) {
	src := withFront(
		"<!-- a note for teachers -->", // 5
		"## S",                         // 6
		"Text <!-- inline note --> end.",
		"",
		"```",
		"plain code",
		"```",
		"",
		"~~~scenario",
		"relation t blocks=2",
		"backend A: touch t 0",
		"run",
		"expect pool misses=1",
		"~~~",
		"",
		"```expect",
		"```",
		"## Empty step",
		"Setext step",
		"-----------",
		"Prose.",
	)
	l := mustParse(t, "ok.md", src)
	if len(l.Steps) != 3 || l.Steps[2].Title != "Setext step" || l.Steps[2].Markdown != "Prose." {
		t.Fatalf("steps %+v", l.Steps)
	}
	s := l.Steps[0]
	if got := blocksString(s.Prose); got != "P Text end.\nCODE plain code" {
		t.Errorf("prose %q", got)
	}
	if len(s.Scenario.Stmts) != 4 || s.Expect == nil || len(s.Expect.Stmts) != 0 {
		t.Errorf("blocks %+v %+v", s.Scenario, s.Expect)
	}
	if l.Order != 0 || l.Name != "ok" {
		t.Errorf("name %q order %d", l.Name, l.Order)
	}
	// order in the front matter wins over the prefix.
	if l = mustParse(t, "05-x.md", lesson("---", "title: T", "order: 2", "---", "## S")); l.Order != 2 || l.Config != "" {
		t.Fatalf("%+v", l)
	}
	// Windows line endings.
	l = mustParse(t, "crlf.md", []byte("---\r\ntitle: T\r\n---\r\n## S\r\n```scenario\r\nrelation t blocks=1\r\n```\r\n"))
	if l.Title != "T" || l.Steps[0].Title != "S" || len(l.Steps[0].Scenario.Stmts) != 1 {
		t.Fatalf("crlf: %+v", l)
	}
}
