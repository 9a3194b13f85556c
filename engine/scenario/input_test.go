package scenario

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bufferlab/engine/fsm"
	"bufferlab/engine/trace"
)

// A single drop= strategy beside a key naming several variants is the
// strategy of every pane, whichever key comes first (issue 14.7); two
// keys naming several are refused with both named.
func TestSingleDropBesideVariants(t *testing.T) {
	for _, cfg := range []string{"pins=atomic,spinlock drop=lookup", "drop=lookup pins=atomic,spinlock"} {
		src := "config shared_buffers=1MB in_recovery=on " + cfg + "\nrelation t blocks=6\nbackend A: touch t 0..5\nrun\nbackend S: drop t\nrun\nexpect pool in_use=0\n"
		rs := runVariants(t, src)
		if len(rs) != 2 || rs[0].Pins().String() != "atomic" || rs[1].Pins().String() != "spinlock" {
			t.Fatalf("%s: %d variants", cfg, len(rs))
		}
		for _, r := range rs {
			// 6 blocks >= 1MB/8kB/32 = 4: auto would scan; the config's
			// drop=lookup decides.
			if sum := r.Summarize(r.Log().Events()); !strings.Contains(sum, "S drop t            lookup: 6 mapping lookups, 6 buffers invalidated") {
				t.Errorf("%s, %s: summary\n%s", cfg, r.Variant(), sum)
			}
		}
	}
	// drop=dlist as every pane's strategy keeps the lists that
	// strategy=dlist needs.
	runVariants(t, "config pins=atomic,spinlock drop=dlist\nrelation t blocks=2\nbackend A: touch t 0..1; drop t strategy=dlist\nrun\nexpect pool in_use=0\n")
	_, err := Parse("f.scn", "config fsm=always,small-skip pins=atomic,spinlock")
	if err == nil || !strings.Contains(err.Error(), "f.scn:1:30: pins: names several variants, and so does fsm= at 1:8") {
		t.Errorf("two keys with several variants: %v", err)
	}
}

// A backend given operations while a run is paused joins the run when it
// goes on (issue 13.19), and so does one whose operations had finished.
func TestBackendJoinsPausedRun(t *testing.T) {
	// After 50 steps C has finished its one read and A is on its third.
	src := `relation t blocks=6
backend A: touch t 0..2
backend C: touch t 5
run steps=50
backend B: touch t 3
backend C: touch t 4
run
expect pool misses=6
expect block t 3 usage=1
expect block t 4 usage=1
`
	r := runVariants(t, src)[0]
	var names []string
	for _, a := range r.Schedules()[0] {
		names = append(names, r.BackendNames()[a])
	}
	if got := strings.Join(names, ""); !strings.Contains(got, "B") || strings.Count(got, "C") < 2 {
		t.Errorf("schedule %s: B and the second C never ran", got)
	}
}

// Rows beyond MaxHeapTupleSize fail as in PostgreSQL (issue 13.24), the
// event and the summary give the free space map's own text for it, not
// the buffer manager's for its code (issue 13.23), and size= is bounded
// by MaxAllocSize.
func TestRowTooBig(t *testing.T) {
	for _, c := range []struct{ size, want string }{
		{"8137", "row is too big: size 8168, maximum size 8160"}, // 24-byte header + 8137, MAXALIGN'd
		{"8161", "row is too big: size 8192, maximum size 8160"},
		{"1073741823", "row is too big: size 1073741848, maximum size 8160"},
	} {
		src := "config fsm=always\nrelation t heap\nbackend A: insert t size=" + c.size + "\nrun\nexpect backend A error=\"" + c.want + "\"\n"
		r, _, err := Run("big.scn", src, true)
		if err != nil {
			t.Fatalf("size=%s: %v", c.size, err)
		}
		var errEv *trace.Event
		for _, e := range r.Log().Events() {
			if e.Kind == trace.KError {
				errEv = &e
			}
		}
		if errEv == nil {
			t.Fatalf("size=%s: no error event", c.size)
		}
		if d := r.DescribeEvent(*errEv); !strings.HasSuffix(d, "rel t: ERROR "+c.want) {
			t.Errorf("size=%s: event %q", c.size, d)
		}
		if sum := r.Summarize(r.Log().Events()); sum != "  A insert t ERROR: "+c.want+"\n" {
			t.Errorf("size=%s: summary %q", c.size, sum)
		}
	}
	// The largest data that fits: 8136 bytes + 24 = 8160.
	if _, _, err := Run("fit.scn", "config fsm=always\nrelation t heap\nbackend A: insert t size=8136\nrun\nexpect backend A error=none ctid=0.1\n", true); err != nil {
		t.Errorf("size=8136: %v", err)
	}
	_, err := Parse("f.scn", "config fsm=always\nrelation t heap\nbackend A: insert t size=1073741824")
	if err == nil || !strings.Contains(err.Error(), "f.scn:3:21: size: 1073741824 bytes is more than one row can hold: expected at most 1073741823 (MaxAllocSize") {
		t.Errorf("size over MaxAllocSize: %v", err)
	}
	if fsm.MaxHeapTupleSize != 8160 {
		t.Errorf("MaxHeapTupleSize %d, want PostgreSQL's 8160", fsm.MaxHeapTupleSize)
	}
}

// schedule NAME*N repeats a backend (issue 13.22): A*N keeps B waiting
// for N steps, and lines before one run add up.
func TestScheduleRepeat(t *testing.T) {
	const long = `relation t blocks=4
backend A: touch t 0..3
backend B: touch t 0
schedule A*20
schedule A*20 A*30 B
run
expect block t 0 usage=2
`
	r := runVariants(t, long)[0]
	rec := r.Schedules()[0]
	for i := 0; i < 70; i++ {
		if rec[i] != 1 {
			t.Fatalf("step %d ran %s, want A (schedule A*70 B)", i, r.BackendNames()[rec[i]])
		}
	}
	if rec[70] != 2 {
		t.Fatalf("step 70 ran %s, want B", r.BackendNames()[rec[70]])
	}
}

// A recorded schedule, written back as ScheduleLines before its run,
// replays the run event for event, also when it spans several lines.
func TestScheduleRoundTrip(t *testing.T) {
	src := `config shared_buffers=128kB schedule=random seed=%d
relation t blocks=40
backend A: touch t 0..39; touch t 0..39
backend B: touch t 10..39; touch t 0..9
backend C: scan t; touch t 5
run
`
	for seed := 1; seed <= 3; seed++ {
		orig := mustRun(t, "orig.scn", strings.Replace(src, "%d", string(rune('0'+seed)), 1), true)
		lines := orig.ScheduleLines(orig.Schedules()[0])
		if seed == 1 && len(lines) < 2 {
			t.Fatalf("%d schedule lines: want a schedule long enough to span lines", len(lines))
		}
		for _, l := range lines {
			if len(l) > maxLineLen {
				t.Fatalf("schedule line of %d bytes", len(l))
			}
		}
		replay := strings.Replace(strings.Replace(src, "schedule=random seed=%d", "schedule=rr", 1), "run\n", strings.Join(lines, "\n")+"\nrun\n", 1)
		sameRun(t, "seed "+string(rune('0'+seed)), mustRun(t, "replay.scn", replay, true), orig)
	}
}

// A run over its memory budget stops with the numbers, its log holding
// no more than the budget allows; a max_steps the budget cannot hold is
// refused before anything runs (issue 14.6).
func TestBudget(t *testing.T) {
	huge := "relation t blocks=1073741824\nbackend A: scan t\nrun\n"
	r, err := NewRunner(mustParse(t, huge), true)
	if err != nil {
		t.Fatal(err)
	}
	r.SetBudget(Budget{Bytes: 1 << 20, EventBytes: 128, Source: "a test"})
	_, err = r.RunAll()
	want := "drop.scn:3:1: run stopped after "
	if err == nil || !strings.HasPrefix(err.Error(), want) ||
		!strings.HasSuffix(err.Error(), " steps: its event log reached this run's memory budget of 8192 events (1 MiB at 128 B per event, a test); expected a smaller run (fewer blocks or operations, a lower max_steps)") {
		t.Fatalf("over budget: %v", err)
	}
	if r.Log().Len() != 8192 {
		t.Errorf("the log holds %d events, want the budget's 8192", r.Log().Len())
	}
	// The default budget applies without SetBudget.
	_, _, err = Run("f.scn", "config max_steps=50000000\n"+huge, true)
	if err == nil || err.Error() != "f.scn:1:8: max_steps=50000000: a run of that many steps logs at least as many events, more than this run's memory budget allows: 2097152 events (256 MiB at 128 B per event, the engine's default); expected max_steps at most 2097152" {
		t.Errorf("max_steps over the default budget: %v", err)
	}
	// An untraced run logs nothing: max_steps is its only bound.
	r, err = NewRunner(mustParse(t, "config max_steps=3000000\nrelation t blocks=4\nbackend A: touch t 0..3\nrun\n"), false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.RunAll(); err != nil {
		t.Errorf("untraced: %v", err)
	}
}

// A script's Yield is called every YieldEvery steps with the events logged so far,
// and the error it returns stops the run at its run statement; a run it
// lets go on is the run without it, event for event.
func TestYield(t *testing.T) {
	src := "relation t blocks=20000\nbackend A: touch t 0..19999\nrun\n"
	_, plain, err := Run("y.scn", src, true)
	if err != nil {
		t.Fatal(err)
	}
	var seen []int
	s := mustParse(t, src)
	s.Yield = func(events int) error {
		seen = append(seen, events)
		return nil
	}
	_, watched, err := RunScript(s, true)
	if err != nil || watched != plain {
		t.Fatalf("a run with a Yield that lets it go on differs from one without (err %v)", err)
	}
	if len(seen) < 2 || seen[0] <= 0 || seen[1] <= seen[0] {
		t.Fatalf("Yield saw %v: want growing event counts, one per %d steps", seen, YieldEvery)
	}
	calls := 0
	s.Yield = func(events int) error {
		if calls++; calls == 2 {
			return errors.New("cancelled")
		}
		return nil
	}
	r, err := NewRunner(s, true)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.RunAll()
	want := fmt.Sprintf("drop.scn:3:1: run stopped after %d steps (%d events): cancelled", 2*YieldEvery, r.Log().Len())
	if err == nil || err.Error() != want {
		t.Fatalf("stopped by Yield: %v, want %q", err, want)
	}
}

// With its event text off a runner logs the same events (the same hash)
// and prints the same for every statement but a run, which prints
// nothing: its events are described when asked.
func TestEventTextOff(t *testing.T) {
	src := "config shared_buffers=1MB\nrelation t blocks=4\nbackend A: touch t 0..3\nrun\nshow pool\nexpect pool misses=4\n"
	outs := func(text bool) ([]Output, uint64) {
		r, err := NewRunner(mustParse(t, src), true)
		if err != nil {
			t.Fatal(err)
		}
		r.SetEventText(text)
		o, err := r.RunAll()
		if err != nil {
			t.Fatal(err)
		}
		return o, r.Log().Hash()
	}
	on, hashOn := outs(true)
	off, hashOff := outs(false)
	if hashOn != hashOff {
		t.Fatalf("the trace differs with the text off: %x, %x", hashOn, hashOff)
	}
	var runs int
	for _, o := range on {
		if _, ok := o.Stmt.(*RunStmt); ok {
			runs++
			if !strings.Contains(o.Text, "touch") && !strings.Contains(o.Text, "t/3") {
				t.Errorf("with the text on, the run prints %q", o.Text)
			}
		}
	}
	if runs != 1 || len(off) != len(on)-1 {
		t.Fatalf("%d outputs with the text on (%d runs), %d off", len(on), runs, len(off))
	}
	for i, o := range off {
		if _, ok := o.Stmt.(*RunStmt); ok || o.Text != on[i+1].Text {
			t.Errorf("output %d with the text off: %q, want %q", i, o.Text, on[i+1].Text)
		}
	}
}

// Every step of a run logs at least one event, which the max_steps check
// of the budget counts on: checked over every embedded scenario.
func TestEveryStepLogsAnEvent(t *testing.T) {
	files, err := filepath.Glob("../../lessons/scenarios/*.scn")
	if err != nil || len(files) < 5 {
		t.Fatalf("%d scenarios: %v", len(files), err)
	}
	for _, f := range files {
		if testing.Short() && strings.HasSuffix(f, "big-pool.scn") {
			continue // 576147 events
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := mustParse(t, string(src))
		for v := range Variants(s) {
			r, err := NewVariantRunner(s, true, v)
			if err != nil {
				t.Fatal(err)
			}
			r.RunAll() // a scenario may end in an expected ERROR
			steps := 0
			for _, sc := range r.Schedules() {
				steps += len(sc)
			}
			if steps == 0 || r.Log().Len() < steps {
				t.Errorf("%s (%s): %d events in %d steps", f, r.Variant(), r.Log().Len(), steps)
			}
		}
	}
}
