package lessons

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"bufferlab/engine/scenario"
	"bufferlab/internal/fuzzbound"
)

// The bounds of FuzzLesson: what one input may cost (these, and the pool,
// pg_xact and printout bounds of fuzzbound, shared with FuzzScenario).
const (
	// fuzzMaxLesson is the longest input parsed: the longest embedded
	// lesson (about 19kB) and some room. Parse itself takes up to
	// MaxLessonBytes (1MB); the fuzzer stays far below it because deep
	// Markdown nesting still costs time quadratic in the depth.
	fuzzMaxLesson = 32 << 10
	// fuzzMaxSteps bounds the steps of a whole play: every run statement
	// of every variant. max_steps is lowered to share it.
	fuzzMaxSteps = 100_000
)

// lessonOutcome is what fuzzLesson did with one input.
type lessonOutcome struct {
	skipped  string
	parseErr error
	playErr  error
	played   *Played
}

// fuzzLesson parses src as a lesson and, when it parses and fits the
// bounds above, plays it headless (every variant). It fails t on a
// defect: an error that is not a *scenario.Error positioned inside the
// file, step ranges outside the event log, or a pool whose invariants are
// broken (or, after a play that finished, a lock still held).
func fuzzLesson(t *testing.T, src []byte) lessonOutcome {
	var out lessonOutcome
	if len(src) > fuzzMaxLesson {
		out.skipped = "input too long"
		return out
	}
	nlines := strings.Count(string(src), "\n") + 1
	positioned := func(what string, err error) {
		t.Helper()
		var se *scenario.Error
		if !errors.As(err, &se) {
			t.Fatalf("%s: error %v (%T) is not a positioned *scenario.Error", what, err, err)
		}
		if se.File != "fuzz.md" || se.Pos.Line < 1 || se.Pos.Line > nlines || se.Pos.Col < 1 || se.Msg == "" {
			t.Fatalf("%s: error %q: file %q position %d:%d outside the input (%d lines), or no message", what, err, se.File, se.Pos.Line, se.Pos.Col, nlines)
		}
	}
	l, err := Parse("fuzz.md", src)
	if err != nil {
		positioned("Parse", err)
		out.parseErr = err
		return out
	}
	s := l.Script
	if len(s.Stmts) == 0 {
		return out
	}
	cfg, ok := s.Stmts[0].(*scenario.ConfigStmt)
	if !ok {
		// No config: the defaults, with max_steps set below.
		c, err := scenario.Parse("fuzz.md", "config")
		if err != nil {
			t.Fatalf("a bare config line: %v", err)
		}
		cfg = c.Stmts[0].(*scenario.ConfigStmt)
		s.Stmts = append([]scenario.Stmt{cfg}, s.Stmts...)
	}
	runs, shows := 0, 0
	for _, st := range s.Stmts {
		switch st.(type) {
		case *scenario.RunStmt:
			runs++
		case *scenario.ShowStmt:
			shows++
		}
	}
	if out.skipped = fuzzbound.Skip(cfg.NBuffers, cfg.SLRU.ClogPages, shows); out.skipped != "" {
		return out
	}
	c := *cfg
	c.MaxSteps = max(1, min(c.MaxSteps, fuzzMaxSteps/max(1, runs*len(c.AllVariants()))))
	s.Stmts[0] = &c
	p, err := Play(l)
	out.played, out.playErr = p, err
	if err != nil {
		positioned("Play", err)
	}
	for _, pl := range append([]*Played{p}, playedAlts(p)...) {
		if pl == nil {
			continue
		}
		for i := range pl.StepStart {
			if pl.StepStart[i] > pl.StepEnd[i] || pl.StepEnd[i] > len(pl.Events) {
				t.Fatalf("step %d: events [%d, %d) of %d", i, pl.StepStart[i], pl.StepEnd[i], len(pl.Events))
			}
		}
		pool := pl.Runner.Pool()
		if err := pool.CheckInvariants(); err != nil {
			t.Fatalf("after the play: %v", err)
		}
		if sl := pl.Runner.SLRU(); sl != nil {
			if err := sl.CheckInvariants(); err != nil {
				t.Fatalf("after the play: SLRU: %v", err)
			}
		}
		if err == nil && pl.Runner.Done() {
			if qerr := pool.CheckQuiescent(); qerr != nil && !pausedAtEnd(s) {
				t.Fatalf("after a play that finished: %v", qerr)
			}
		}
	}
	return out
}

// playedAlts returns p's further variants (none when p is nil).
func playedAlts(p *Played) []*Played {
	if p == nil {
		return nil
	}
	return p.Alts
}

// pausedAtEnd reports whether the script's last run statement is a
// `run steps=N` (which may leave its backends paused, pins held).
func pausedAtEnd(s *scenario.Script) bool {
	for i := len(s.Stmts) - 1; i >= 0; i-- {
		if r, ok := s.Stmts[i].(*scenario.RunStmt); ok {
			return r.Steps > 0
		}
	}
	return false
}

// FuzzLesson feeds arbitrary Markdown to the lesson parser and, when it
// parses and fits the bounds above, plays it headless. No input may
// panic, and every error is positioned inside the input (fuzzLesson).
// Seeds: every embedded lesson and the teachers' guide.
func FuzzLesson(f *testing.F) {
	for _, s := range lessonSeeds(f) {
		f.Add(s.src)
	}
	f.Add([]byte("---\ntitle: t\n---\n## s\n\n- a\n  - b\n    > c\n\n```scenario\nrelation t blocks=2\nbackend A: read t 0\nrun steps=2\n```\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		fuzzLesson(t, src)
	})
}

type lessonSeed struct {
	name string
	src  []byte
}

// lessonSeeds are the embedded Markdown files: the lessons and README.md.
func lessonSeeds(tb testing.TB) []lessonSeed {
	tb.Helper()
	names, err := fs.Glob(Files, "*.md")
	if err != nil || len(names) < 2 {
		tb.Fatalf("embedded lessons: %v, %v", names, err)
	}
	var out []lessonSeed
	for _, n := range names {
		b, err := fs.ReadFile(Files, n)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, lessonSeed{n, b})
	}
	return out
}

// Every embedded lesson fits FuzzLesson's bounds: it parses, plays every
// variant to the end within the lowered max_steps and meets its expects,
// so the fuzzer starts from lessons that run.
func TestFuzzLessonSeeds(t *testing.T) {
	played := 0
	for _, s := range lessonSeeds(t) {
		o := fuzzLesson(t, s.src)
		if s.name == "README.md" {
			continue // the teachers' guide: Markdown, not a lesson
		}
		switch {
		case o.skipped != "" || o.parseErr != nil:
			t.Errorf("%s: not played (%s %v)", s.name, o.skipped, o.parseErr)
		case o.playErr != nil:
			t.Errorf("%s: %v", s.name, o.playErr)
		case len(o.played.Events) == 0:
			t.Errorf("%s: no events", s.name)
		default:
			played++
		}
	}
	if played == 0 {
		t.Error("no lesson played")
	}
}
