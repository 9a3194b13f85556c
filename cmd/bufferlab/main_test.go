package main

import (
	"bufferlab/engine/scenario"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func cli(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, strings.NewReader(stdin), &o, &e)
	return code, o.String(), e.String()
}

// cliOK runs the command as cli does and fails the test unless it exits
// 0; it returns what the command wrote to stdout.
func cliOK(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	code, out, errOut := cli(t, stdin, args...)
	if code != exitOK {
		t.Fatalf("%v: exit %d, stderr %s", args, code, errOut)
	}
	return out
}

// wantOutput checks that out contains each of wants.
func wantOutput(t *testing.T, out string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// runJSON runs `run --json file` (file "-": stdin) and returns the
// decoded report; an exit other than 0 or output that is not one fails
// the test.
func runJSON(t *testing.T, stdin, file string) jsonRun {
	t.Helper()
	var j jsonRun
	out := cliOK(t, stdin, "run", "--json", file)
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("not a run report (%v): %s", err, out)
	}
	return j
}

func writeFile(t *testing.T, name, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const seventeenPath = "../../lessons/scenarios/seventeen-blocks.scn"

// The acceptance check: 17 blocks into 16 buffers shows the clock
// sweep choosing buffer 0 after one full pass.
func TestRunSeventeenBlocks(t *testing.T) {
	out := cliOK(t, "", "run", seventeenPath)
	wantOutput(t, out,
		"clock-wrap    tick.cas                 strategy: nextVictimBuffer 17 -> 1, completePasses 1",
		"victim        sgb.sweep-victim         buf 0: from clock sweep, rc=0 usage=0 LOCKED|VALID|TAG_VALID|PERMANENT",
		"retag         alloc.retag              buf 0: t1/0 -> t1/16",
		"usage-down    sgb.usage-down           buf 15: rc=0 usage=1 LOCKED|VALID|TAG_VALID|PERMANENT -> rc=0 usage=0 LOCKED|VALID|TAG_VALID|PERMANENT",
		"     0  t1/16           0  1  VALID TAG_VALID PERMANENT",
		"     1  t1/1            0  0  VALID TAG_VALID PERMANENT  <- clock hand",
		"-- trace: ",
	)
	if strings.Count(out, "usage-down    sgb.usage-down") != 16 {
		t.Errorf("%d usage decrements, want 16", strings.Count(out, "usage-down    sgb.usage-down"))
	}
}

// The same file with a typo: a positioned error and exit status 2.
func TestRunTypo(t *testing.T) {
	src, err := os.ReadFile(seventeenPath)
	if err != nil {
		t.Fatal(err)
	}
	bad := writeFile(t, "typo.scn", strings.Replace(string(src), "touch t1", "tuoch t1", 1))
	code, out, errOut := cli(t, "", "run", bad)
	if code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	want := bad + ":10:12: expected an operation (read, release, dirty, touch, write, scan, cleanup, drop, truncate, clog, insert, delete, vacuum), found \"tuoch\"\n"
	if errOut != want {
		t.Fatalf("stderr %q, want %q", errOut, want)
	}
	if out != "" {
		t.Fatalf("stdout %q, want nothing", out)
	}
	code, _, errOut = cli(t, "", "run", writeFile(t, "x.scn", "config shared_buffers=1000TB\n"))
	if code != 2 || !strings.Contains(errOut, "x.scn:1:8: shared_buffers") {
		t.Fatalf("absurd size: exit %d, %q", code, errOut)
	}
}

func TestRunStdinAndSummary(t *testing.T) {
	out := cliOK(t, "relation t blocks=3\nbackend A: touch t 0..2; touch t 1\nrun\n", "run", "--summary", "-")
	if !strings.Contains(out, "A read t/1          hit   in buffer 1") || strings.Contains(out, "lw-acquire") {
		t.Fatalf("summary output:\n%s", out)
	}
	code, _, errOut := cli(t, "bad\n", "run", "-")
	if code != 2 || !strings.HasPrefix(errOut, "<stdin>:1:1: ") {
		t.Fatalf("exit %d, %q", code, errOut)
	}
}

func TestRunExpectFailureExits1(t *testing.T) {
	code, _, errOut := cli(t, "relation t blocks=3\nbackend A: touch t 0\nrun\nexpect pool hits=5\n", "run", "-")
	if code != 1 || !strings.Contains(errOut, "<stdin>:4:13: expect pool hits: expected 5, the engine has 0") {
		t.Fatalf("exit %d, %q", code, errOut)
	}
}

func TestRunJSON(t *testing.T) {
	j := runJSON(t, "", seventeenPath)
	if len(j.Events) < 100 || j.Config.NBuffers != 16 || j.Stats.Misses != 17 || len(j.Hash) != 16 || j.Error != nil {
		t.Fatalf("JSON: %d events, config %+v, stats %+v, hash %q, error %+v", len(j.Events), j.Config, j.Stats, j.Hash, j.Error)
	}
	e := j.Events[0]
	if e.Actor != "A" || e.Func != "ReadBuffer_common" || e.Line < 1 || e.Text == "" {
		t.Fatalf("first event %+v", e)
	}
	if len(j.Schedules) != 1 || len(j.Schedules[0]) == 0 || j.Schedules[0][0] != "A" {
		t.Fatalf("schedules %v", j.Schedules)
	}
	code, out, _ := cli(t, "relation t blocks=1\nbackend A: tuoch t 0\n", "run", "--json", "-")
	if code != 2 {
		t.Fatalf("exit %d", code)
	}
	j = jsonRun{}
	if err := json.Unmarshal([]byte(out), &j); err != nil || j.Error == nil || j.Error.Line != 2 || j.Error.Col != 12 {
		t.Fatalf("error JSON %v: %+v", err, j.Error)
	}
}

func TestBadCommandLines(t *testing.T) {
	for _, args := range [][]string{
		{}, {"frobnicate"}, {"run"}, {"run", "a", "b"}, {"run", "--nope", "x"}, {"run", "/does/not/exist.scn"},
		{"demo", "no-such-scenario"}, {"demo", "a", "b"},
	} {
		code, _, errOut := cli(t, "", args...)
		if code != 2 || errOut == "" {
			t.Errorf("%q: exit %d, stderr %q: want 2 and a message", args, code, errOut)
		}
	}
}

// An unknown command word is named on stderr before the usage (exit 2);
// help, -h and --help print the usage on stdout (0): bufferlab's and
// bufferlab lessons' alike.
func TestHelpOrUnknown(t *testing.T) {
	for _, c := range []struct {
		args        []string
		what, usage string
	}{
		{[]string{"frobnicate"}, `bufferlab: unknown command "frobnicate"`, usage},
		{[]string{"lessons", "frob"}, `bufferlab lessons: unknown subcommand "frob"`, lessonsUsage},
	} {
		if code, out, errOut := cli(t, "", c.args...); code != 2 || out != "" || errOut != c.what+"\n"+c.usage {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", c.args, code, out, errOut)
		}
	}
	for _, c := range []struct {
		args  []string
		usage string
	}{{[]string{"help"}, usage}, {[]string{"-h"}, usage}, {[]string{"lessons", "--help"}, lessonsUsage}} {
		if code, out, errOut := cli(t, "", c.args...); code != 0 || out != c.usage || errOut != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", c.args, code, out, errOut)
		}
	}
}

func TestDemoAndList(t *testing.T) {
	out := cliOK(t, "", "demo")
	wantOutput(t, out, "The shared buffer pool, one step at a time.", "  > backend A: touch orders 0..15",
		"miss  -> buffer 0 from the freelist", "from the clock sweep (20 usage decrements)", "A ERROR: no unpinned buffers available", "    ok")
	code, out, _ := cli(t, "", "list")
	if code != 0 || !strings.Contains(out, "clock-sweep") || !strings.Contains(out, "seventeen-blocks") {
		t.Fatalf("list: %d %q", code, out)
	}
	// --step reads Enter between runs; at end of input it stops waiting.
	code, _, _ = cli(t, "\n\n", "demo", "--step", "seventeen-blocks")
	if code != 0 {
		t.Fatalf("demo --step exit %d", code)
	}
}

// A scenario naming both pin variants runs once per variant: the text
// output has a section for each, the JSON the second run under
// "variants", and a check failing in one variant exits 1 and names it.
func TestRunPinVariants(t *testing.T) {
	src := "config pins=atomic,spinlock\nrelation t blocks=1\nbackend A: touch t 0\nrun\nbackend A: read t 0\nbackend B: read t 0\nrun\nexpect atomic: pool cas_failures=1\nexpect spinlock: pool spins=1\n"
	code, out, errOut := cli(t, src, "run", "--summary", "-")
	if code != 0 || !strings.Contains(out, "== pins=atomic ==") || !strings.Contains(out, "== pins=spinlock ==") ||
		!strings.Contains(out, "(1 failed CAS)") || !strings.Contains(out, "(1 spins)") {
		t.Fatalf("exit %d, stderr %q, output:\n%s", code, errOut, out)
	}
	j := runJSON(t, src, "-")
	if j.Pins != "atomic" || len(j.Variants) != 1 || j.Variants[0].Pins != "spinlock" ||
		j.Stats.CASFailures != 1 || j.Variants[0].Stats.Spins != 1 || len(j.Variants[0].Events) == 0 {
		t.Fatalf("JSON: pins %q, %d variants", j.Pins, len(j.Variants))
	}
	bad := strings.Replace(src, "spins=1", "spins=7", 1)
	code, _, errOut = cli(t, bad, "run", "-")
	if code != 1 || !strings.Contains(errOut, "expected 7, the engine has 1 (pins=spinlock)") {
		t.Fatalf("failing spinlock check: exit %d, %q", code, errOut)
	}
}

// A scenario on heaps summarises each insert and VACUUM (what it read, by
// fork) and ends with its heaps and free space map, not the pool.
func TestRunFSMSummary(t *testing.T) {
	out := cliOK(t, "", "run", "--summary", "../../lessons/scenarios/fsm-small-skip.scn")
	wantOutput(t, out,
		"  A insert t -> (0,1): 1 heap page read, 1 page added\n",
		"  B insert t -> (1,1): 2 heap page reads, 1 page found too full, 1 page added\n",
		"-- final state --\nfree space map model: fsm=small-skip (no map up to 4 pages)\nheap t: 4 pages, fillfactor 20, relpages 1, no FSM fork\n",
	)
	if strings.Contains(out, "B read t/") {
		t.Error("the summary lists the inserts' buffer reads one by one")
	}
}

// Bad input exits 2 with the position, a failed check 1 (issues 14.1,
// 14.2, 13.20).
func TestRunInputExitCodes(t *testing.T) {
	for _, c := range []struct {
		src  string
		code int
		want string
	}{
		{"config shared_buffers=128kB shared_buffers=1MB\n", 2, "<stdin>:1:29: shared_buffers given twice (first at 1:8)"},
		{"", 2, "<stdin>:1:1: the scenario has no statements"},
		{"# nothing but a comment\n\n", 2, "<stdin>:1:1: the scenario has no statements"},
		{"relation t blocks=2\nbackend A: touch t 0\n", 2, "<stdin>:2:1: backend A: its operations are queued, but no 'run' follows"},
		{"relation t blocks=2\nbackend A: touch t 0\nrun\nexpect block t 1 usage=1\n", 1, "<stdin>:4:18: expect block t 1 usage: expected 1, but the block is not resident"},
	} {
		code, _, errOut := cli(t, c.src, "run", "-")
		if code != c.code || !strings.HasPrefix(errOut, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", c.src, code, errOut, c.code, c.want)
		}
	}
}

// `show pool all` lists every buffer of a pool over 64 buffers, and the
// JSON has the buffers, the relations and each backend's ERROR (issues
// 13.21, 13.23).
func TestRunShowAllAndJSONPool(t *testing.T) {
	src := "config shared_buffers=1MB fsm=always\nrelation t blocks=100\nrelation h heap\nbackend A: touch t 0..69; read t 3\nbackend B: insert h size=9000\nrun\nshow pool all\n"
	out := cliOK(t, src, "run", "--no-events", "-")
	wantOutput(t, out, "    69  t/69            0  1  VALID TAG_VALID PERMANENT\n", "     3  t/3             1  2  VALID TAG_VALID PERMANENT\n", "    70..127  (58 empty buffers)\n")
	code, out, errOut := cli(t, src, "run", "--summary", "-")
	if code != 0 || !strings.Contains(out, "  B insert h ERROR: row is too big: size 9024, maximum size 8160\n") {
		t.Errorf("summary: exit %d, %s\n%s", code, errOut, out)
	}
	j := runJSON(t, src, "-")
	if len(j.Buffers) != 70 || j.Buffers[3].Buf != 3 || j.Buffers[3].Tag != "t/3" || j.Buffers[3].RC != 1 || j.Buffers[3].Usage != 2 ||
		strings.Join(j.Buffers[3].Flags, " ") != "VALID TAG_VALID PERMANENT" || j.Buffers[69].Tag != "t/69" {
		t.Errorf("buffers: %d, [3] %+v", len(j.Buffers), j.Buffers[min(3, len(j.Buffers)-1)])
	}
	if j.Relations["t"] != 16384 || j.Relations["h"] != 16385 || len(j.Relations) != 2 {
		t.Errorf("relations %v", j.Relations)
	}
	if j.BackendErrors["B"] != "row is too big: size 9024, maximum size 8160" || len(j.BackendErrors) != 1 {
		t.Errorf("backend errors %v", j.BackendErrors)
	}
	last := j.Events[len(j.Events)-1]
	for _, e := range j.Events {
		if e.Kind == "error" {
			last = e
		}
	}
	if !strings.HasSuffix(last.Text, "rel h: ERROR row is too big: size 9024, maximum size 8160") {
		t.Errorf("the error event's text: %q", last.Text)
	}
}

// What run --json records as schedule_lines, pasted before the run,
// replays it: the same events, the same hash (issue 13.22).
func TestRunJSONScheduleRoundTrip(t *testing.T) {
	src := "config schedule=random seed=5\nrelation t blocks=40\nbackend A: touch t 0..39; touch t 0..39\nbackend B: touch t 10..39; touch t 0..9\nbackend C: scan t\nrun\n"
	j := runJSON(t, src, "-")
	if len(j.ScheduleLines) != 1 || len(j.ScheduleLines[0]) < 2 || !strings.Contains(j.ScheduleLines[0][0], "*") {
		t.Fatalf("schedule_lines %v: want one schedule spanning lines, with runs", j.ScheduleLines)
	}
	replay := strings.Replace(strings.Replace(src, "schedule=random seed=5", "schedule=rr", 1), "run\n", strings.Join(j.ScheduleLines[0], "\n")+"\nrun\n", 1)
	k := runJSON(t, replay, "-")
	if k.Hash != j.Hash || len(k.Events) != len(j.Events) || strings.Join(k.Schedules[0], " ") != strings.Join(j.Schedules[0], " ") {
		t.Errorf("replay: hash %s, %d events; original hash %s, %d events", k.Hash, len(k.Events), j.Hash, len(j.Events))
	}
}

// A run bigger than its memory budget stops with the numbers, exit 2,
// and a max_steps the budget cannot hold is refused before it runs; the
// budget comes from the machine (here GOMEMLIMIT) (issue 14.6).
func TestRunMemoryBudget(t *testing.T) {
	old := debug.SetMemoryLimit(64 << 20)
	defer debug.SetMemoryLimit(old)
	b := runBudget(printEvents, 1)
	if b.Bytes != 32<<20 || b.EventBytes != textEventBytes || b.MaxEvents() != 55924 {
		t.Fatalf("budget %+v", b)
	}
	if j := runBudget(jsonEvents, 2); j.Bytes != 16<<20 || j.EventBytes != jsonEventBytes || !strings.HasSuffix(j.Source, "for --json, shared by 2 variants") {
		t.Fatalf("JSON budget of 2 variants: %+v", j)
	}
	huge := "relation t blocks=1073741824\nbackend A: scan t\nrun\n"
	code, _, errOut := cli(t, huge, "run", "-")
	if code != 2 || !strings.HasPrefix(errOut, "<stdin>:3:1: run stopped after ") ||
		!strings.Contains(errOut, " steps: its event log reached this run's memory budget of 55924 events (32 MiB at 600 B per event, half of GOMEMLIMIT (64 MiB))") {
		t.Errorf("huge scan: exit %d, %q", code, errOut)
	}
	code, _, errOut = cli(t, "config max_steps=50000000\n"+huge, "run", "-")
	if code != 2 || !strings.HasPrefix(errOut, "<stdin>:1:8: max_steps=50000000: a run of that many steps logs at least as many events, more than this run's memory budget allows: 55924 events") {
		t.Errorf("max_steps: exit %d, %q", code, errOut)
	}
	debug.SetMemoryLimit(old)
	if m, from := processMemory(); m > 0 && runBudget(printEvents, 1).Bytes > maxRunMemory {
		t.Errorf("budget over the cap with %d bytes from %s", m, from)
	}
}

// A run whose events are not printed (--summary, --no-events) keeps them
// compact and spills them past 32 MiB to a temporary file: its budget is
// the file's cap, not memory, so that a run ten times the memory budget
// above runs to its end (issue 20.3), with the same trace hash as a run
// that keeps every event in memory. (This run's 1.7M compact events stay
// under 32 MiB: the spilling itself is trace's TestLogStorage and
// spillfile's TestOpen, and bench step's 2.9M- and 34M-event runs.)
func TestRunSpillsQuietEvents(t *testing.T) {
	q := runBudget(quietEvents, 1)
	if q.Bytes != maxSpillBytes || q.EventBytes != spillEventBytes || !strings.Contains(q.Source, "spilled to disk") {
		t.Fatalf("quiet budget %+v", q)
	}
	src := "config shared_buffers=1MB\nrelation t blocks=60000\nbackend A: touch t 0..59999\nrun\n"
	// The same run with every event in memory, plain (the engine's
	// default storage; a budget that holds it).
	script, err := scenario.Parse("-", src)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := scenario.NewRunner(script, true)
	if err != nil {
		t.Fatal(err)
	}
	ref.SetBudget(scenario.Budget{Bytes: 1 << 30, EventBytes: 64, Source: "test"})
	if _, err := ref.RunAll(); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("-- trace: %d events, hash %016x --\n", ref.Log().Len(), ref.Log().Hash())
	old := debug.SetMemoryLimit(64 << 20) // the printed run's budget: 55924 events
	defer debug.SetMemoryLimit(old)
	for _, flag := range []string{"--summary", "--no-events"} {
		code, out, errOut := cli(t, src, "run", flag, "-")
		i := strings.LastIndex(out, "-- trace: ")
		if code != 0 || errOut != "" || i < 0 {
			t.Fatalf("%s: exit %d, stderr %q, stdout ends %q", flag, code, errOut, out[max(0, len(out)-200):])
		}
		if out[i:] != want {
			t.Errorf("%s: %q, want the hash of the run kept in memory, %q", flag, out[i:], want)
		}
		var n int
		if _, err := fmt.Sscanf(out[i:], "-- trace: %d events", &n); err != nil || n < 10*55924 {
			t.Errorf("%s: %d events (%v): want over ten times the printed run's budget", flag, n, err)
		}
	}
}
