package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"bufferlab/internal/fuzzbound"
)

// The fuzz bounds: what one input may cost (these, and the pool, pg_xact
// and printout bounds of fuzzbound, shared with FuzzLesson). The lessons'
// scenarios (pools of 128MB, 40 pages of pg_xact, a few thousand events)
// fit well inside them; TestFuzzSeedsRun checks that they do. Two
// embedded scenarios do not (fuzzSeedsCut): they run up to the bounds.
const (
	// fuzzMaxInput is the longest input run (the longest embedded lesson
	// script is a few kB).
	fuzzMaxInput = 16 << 10
	// fuzzMaxSteps bounds one run statement (max_steps is lowered to it).
	fuzzMaxSteps = 25_000
	// fuzzMaxEvents bounds one input's events over all its statements and
	// variants: statements stop being run once the logs hold this many.
	// (An event costs a microsecond or two, its description included.)
	fuzzMaxEvents = 50_000
)

// fuzzSeedsCut are the embedded scenarios longer than the fuzz bounds
// allow (hundreds of thousands of events, seconds each): big-pool.scn
// fills a 128MB pool block by block, drop-race.scn drops a 16MB pool's
// relations three ways. As seeds they run up to fuzzMaxSteps or
// fuzzMaxEvents.
var fuzzSeedsCut = map[string]bool{"big-pool.scn": true, "drop-race.scn": true}

// fuzzSeed is a seed input and where it comes from.
type fuzzSeed struct {
	name, src string
	// embedded: an embedded scenario or lesson, which must parse, run
	// within the fuzz bounds and meet its expects.
	embedded bool
}

// fuzzSeeds lists FuzzScenario's seeds: a few written here, every
// embedded scenario (lessons/scenarios/*.scn) and, from every lesson
// (lessons/*.md), its script up to and including each scenario block (the
// front matter's config line, then the lines of its scenario and expect
// blocks in order, as lessons.Parse assembles them).
func fuzzSeeds(tb testing.TB) []fuzzSeed {
	tb.Helper()
	seeds := []fuzzSeed{}
	for _, s := range []string{
		"config shared_buffers=128kB\nrelation t1 blocks=17\nbackend A: touch t1 0..16\nrun\nshow",
		"relation t blocks=4\nbackend A: read t 0; dirty t 0\nbackend B: read t 0\nschedule A B A B B A\nrun steps=3\nrun\nexpect backend A pins=t/0",
		"config schedule=random seed=3\nrelation t blocks=40\nbackend A: scan t\nbackend B: touch t 0..20\nrun\nshow map",
		"relation t blocks=2\nbackend A: read t 0..1; read t 0\nrun\nexpect block t 0 rc=1 usage=2\nexpect buffer 0 flags=VALID,TAG_VALID,PERMANENT",
		"expect backend A error=\"x\\\"y\"",
		"config shared_buffers=1MB in_recovery=on dlist=on\nrelation r blocks=1 count=4\nrelation t blocks=3\nbackend A: touch r* 0; read t 1\nbackend S: drop t; drop r* strategy=dlist\nrun\nexpect pool in_use=0",
		"config pins=atomic,spinlock\nrelation t blocks=1\nbackend A: read t 0\nbackend B: read t 0\nrun\nexpect spinlock: pool spins=1",
		// Small SLRU and FSM scripts, for mutations that stay cheap.
		"config slru=banks slru_buffers=32 clog_pages=4\nbackend A: clog get 100000; clog set 100000 committed\nbackend B: clog read 2; clog extend 131072\nrun\nexpect slru reads=2\nshow slru",
		"config slru=single,banks+hash slru_buffers=16 clog_pages=3\nbackend A: clog read-only 0; clog zero 3; clog write-all\nrun steps=5\nrun",
		"config shared_buffers=1MB fsm=always,small-skip fsm_threshold=2\nrelation t heap fillfactor=50\nbackend A: insert t 40 size=200; delete t 0.1; vacuum t\nbackend B: insert t 3 size=4000\nrun\nexpect heap t rows=42\nshow heap",
	} {
		seeds = append(seeds, fuzzSeed{name: "inline", src: s})
	}
	scns, err := filepath.Glob("../../lessons/scenarios/*.scn")
	if err != nil || len(scns) == 0 {
		tb.Fatalf("no embedded scenarios in ../../lessons/scenarios (%v)", err)
	}
	for _, path := range scns {
		b, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, fuzzSeed{name: path, src: string(b), embedded: true})
	}
	mds, err := filepath.Glob("../../lessons/*.md")
	if err != nil {
		tb.Fatal(err)
	}
	n := 0
	for _, path := range mds {
		if filepath.Base(path) == "README.md" {
			continue // the teachers' guide, not a lesson
		}
		b, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		for _, s := range lessonScriptPrefixes(string(b)) {
			seeds = append(seeds, fuzzSeed{name: path, src: s, embedded: true})
			n++
		}
	}
	if n == 0 {
		tb.Fatal("no scenario block in ../../lessons/*.md")
	}
	return seeds
}

// lessonScriptPrefixes returns a lesson's script (its front matter's
// config line, then the lines of its ```scenario and ```expect blocks)
// cut after each scenario block and the expect block that follows it:
// one script per scenario block.
func lessonScriptPrefixes(md string) []string {
	lines := strings.Split(md, "\n")
	var head []string
	i := 0
	if len(lines) > 0 && strings.TrimSpace(lines[0]) == "---" {
		for i = 1; i < len(lines) && strings.TrimSpace(lines[i]) != "---"; i++ {
			if v, ok := strings.CutPrefix(lines[i], "config:"); ok {
				head = append(head, "config "+strings.Trim(strings.TrimSpace(v), `"`))
			}
		}
		i++
	}
	type block struct {
		kind  string
		lines []string
	}
	var blocks []block
	for ; i < len(lines); i++ {
		info, ok := strings.CutPrefix(strings.TrimSpace(lines[i]), "```")
		if !ok {
			continue
		}
		b := block{kind: strings.TrimSpace(info)}
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			b.lines = append(b.lines, lines[i])
		}
		if b.kind == "scenario" || b.kind == "expect" {
			blocks = append(blocks, b)
		}
	}
	var out []string
	for j, b := range blocks {
		if b.kind != "scenario" {
			continue
		}
		end := j + 1
		if end < len(blocks) && blocks[end].kind == "expect" {
			end++
		}
		script := append([]string(nil), head...)
		for _, c := range blocks[:end] {
			script = append(script, c.lines...)
		}
		out = append(out, strings.Join(script, "\n"))
	}
	return out
}

// fuzzOutcome is what fuzzRun did with one input.
type fuzzOutcome struct {
	skipped  string // why it was not run ("" when it was)
	parseErr error
	runErr   error // the first variant's error that stopped it
	budget   bool  // stopped at fuzzMaxEvents
	variants int   // variants run
	events   int   // events over every variant
	// ops counts the queued operations by kind (of the script), and
	// classes the events by mechanism: the buffer pool, the SLRU, the FSM.
	ops                   map[OpKind]int
	poolEv, slruEv, fsmEv int
}

// fuzzRun parses src and, when it parses and fits the fuzz bounds, runs
// every variant it names, statement by statement, within fuzzMaxSteps
// per run and fuzzMaxEvents in all. It fails t on a defect: a panic (by
// not catching it), an error that is not a positioned *Error inside the
// input, or a pool left with a lock held or its invariants broken.
func fuzzRun(t *testing.T, src string) fuzzOutcome {
	var out fuzzOutcome
	if len(src) > fuzzMaxInput {
		out.skipped = "input too long"
		return out
	}
	nlines := strings.Count(src, "\n") + 1
	positioned := func(err error) {
		t.Helper()
		var se *Error
		if !errors.As(err, &se) {
			t.Fatalf("error %v (%T) is not a positioned *Error", err, err)
		}
		if se.Pos.Line < 1 || se.Pos.Line > nlines || se.Pos.Col < 1 {
			t.Fatalf("error %v: position %d:%d outside the input (%d lines)", err, se.Pos.Line, se.Pos.Col, nlines)
		}
		if se.Msg == "" {
			t.Fatalf("error with an empty message at %v", se.Pos)
		}
	}
	s, err := Parse("fuzz", src)
	if err != nil {
		positioned(err)
		out.parseErr = err
		return out
	}
	out.ops = map[OpKind]int{}
	shows := 0
	for _, st := range s.Stmts {
		switch st := st.(type) {
		case *BackendStmt:
			for _, op := range st.Ops {
				out.ops[op.Kind]++
			}
		case *ShowStmt:
			shows++
		}
	}
	cfg := &ConfigStmt{NBuffers: 16}
	if len(s.Stmts) > 0 {
		if c, ok := s.Stmts[0].(*ConfigStmt); ok {
			cfg = c
		}
	}
	if out.skipped = fuzzbound.Skip(cfg.NBuffers, cfg.SLRU.ClogPages, shows); out.skipped != "" {
		return out
	}
	for v := range Variants(s) {
		if out.events >= fuzzMaxEvents {
			out.budget = true
			break
		}
		r, err := NewVariantRunner(s, true, v)
		if err != nil {
			t.Fatalf("NewVariantRunner(%d) on a parsed script: %v", v, err)
		}
		if r.cfg.MaxSteps > fuzzMaxSteps {
			c := *r.cfg
			c.MaxSteps = fuzzMaxSteps
			r.cfg = &c
		}
		out.variants++
		var runErr error
		for !r.Done() {
			if out.events+r.log.Len() >= fuzzMaxEvents {
				out.budget = true
				break
			}
			if _, runErr = r.Step(); runErr != nil {
				positioned(runErr)
				break
			}
		}
		for _, e := range r.log.Events() {
			switch {
			case e.Class.IsSLRU():
				out.slruEv++
			case e.Class.IsFSM():
				out.fsmEv++
			default:
				out.poolEv++
			}
		}
		out.events += r.log.Len()
		if r.sched == nil && runErr == nil {
			if err := r.pool.CheckQuiescent(); err != nil {
				t.Fatalf("variant %d after a finished run: %v", v, err)
			}
		} else if err := r.pool.CheckInvariants(); err != nil {
			t.Fatalf("variant %d, during a paused or failed run: %v", v, err)
		}
		if r.slru != nil {
			if err := r.slru.CheckInvariants(); err != nil {
				t.Fatalf("variant %d: SLRU: %v", v, err)
			}
		}
		if runErr != nil {
			if out.runErr == nil {
				out.runErr = runErr
			}
			break
		}
	}
	return out
}

// FuzzScenario feeds arbitrary text to the parser and, when it parses and
// fits the fuzz bounds above, to the runner, every variant it names (so
// SLRU and FSM scripts run their clog, insert, delete and vacuum
// operations). No input may panic; every error must be a *Error positioned
// inside the input; a run that finished must leave no lock held, and the
// pool's (and the SLRU's) invariants must hold wherever it stopped. Seeds:
// fuzzSeeds (every embedded scenario, every lesson's scenario blocks).
func FuzzScenario(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s.src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		fuzzRun(t, src)
	})
}

// The seeds reach what the fuzzer is meant to explore: every embedded
// scenario and lesson prefix parses, fits the fuzz bounds, runs every
// variant to the end and meets its expects; a script with clog operations
// makes SLRU events, one with insert, delete or vacuum FSM events; and
// the seeds between them run every operation of the language.
func TestFuzzSeedsRun(t *testing.T) {
	seeds := fuzzSeeds(t)
	var slru, fsm, lessons int
	ops := map[OpKind]int{}
	for _, s := range seeds {
		o := fuzzRun(t, s.src)
		for k, n := range o.ops {
			ops[k] += n
		}
		if !s.embedded {
			if o.skipped != "" || o.budget {
				t.Errorf("inline seed %q: skipped (%q) or cut (%v) by the fuzz bounds", s.src, o.skipped, o.budget)
			}
			continue
		}
		if strings.HasSuffix(s.name, ".md") {
			lessons++
		}
		if fuzzSeedsCut[filepath.Base(s.name)] {
			var se *Error
			stopped := errors.As(o.runErr, &se) && strings.Contains(se.Msg, "max_steps")
			if o.skipped != "" || !o.budget && !stopped {
				t.Errorf("%s: want it run up to the bounds, got skipped %q, error %v, %d events", s.name, o.skipped, o.runErr, o.events)
			}
			continue
		}
		switch {
		case o.skipped != "" || o.parseErr != nil:
			t.Errorf("%s: not run (%s %v):\n%s", s.name, o.skipped, o.parseErr, s.src)
			continue
		case o.budget || o.runErr != nil:
			t.Errorf("%s: stopped (over the event budget %v, error %v) after %d events", s.name, o.budget, o.runErr, o.events)
			continue
		case o.variants != len(Variants(mustParse(t, s.src))):
			t.Errorf("%s: %d variants run, want all of them", s.name, o.variants)
		}
		if o.ops[OpCLOG] > 0 {
			slru++
			if o.slruEv == 0 {
				t.Errorf("%s: %d clog operations and no SLRU event", s.name, o.ops[OpCLOG])
			}
		}
		if o.ops[OpInsert]+o.ops[OpDelete]+o.ops[OpVacuum] > 0 {
			fsm++
			if o.fsmEv == 0 {
				t.Errorf("%s: heap operations and no FSM event", s.name)
			}
		}
		if pool := len(o.ops) - min(o.ops[OpCLOG], 1); pool > 0 && o.poolEv == 0 {
			t.Errorf("%s: buffer pool operations and no buffer pool event", s.name)
		}
	}
	if slru == 0 || fsm == 0 || lessons == 0 {
		t.Errorf("%d lesson seeds, %d with clog operations, %d with heap operations: want some of each", lessons, slru, fsm)
	}
	var missing []string
	for _, m := range Mechanisms() {
		for _, o := range m.Ops {
			if ops[o.Kind] == 0 {
				missing = append(missing, o.Name)
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("no seed queues %v", missing)
	}
	t.Logf("%d seeds, %d from lessons; %d run clog operations, %d heap operations", len(seeds), lessons, slru, fsm)
}
