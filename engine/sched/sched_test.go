package sched

import (
	"errors"
	"strings"
	"testing"

	"bufferlab/engine/trace"
)

// body yields n times and logs each resumption into out.
func body(name string, n int, out *[]string) Body {
	return func(y Yield) error {
		for i := 0; i < n; i++ {
			y(Point{})
			*out = append(*out, name)
		}
		return nil
	}
}

func TestRoundRobin(t *testing.T) {
	var out []string
	s := New(&RoundRobin{})
	s.Spawn(1, "A", body("A", 2, &out))
	s.Spawn(2, "B", body("B", 3, &out))
	s.Spawn(3, "C", body("C", 1, &out))
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(out, ""); got != "ABCABB" {
		t.Fatalf("round robin ran %s, want ABCABB", got)
	}
	if rec := s.Record(); len(rec) != 6 { // one step per yield: the last resume ends the body
		t.Fatalf("recorded %d steps: %v", len(rec), rec)
	}
}

func TestScriptThenFallback(t *testing.T) {
	var out []string
	sc := &Script{Actors: []trace.Actor{2, 2, 1}, Then: &RoundRobin{}}
	s := New(sc)
	s.Spawn(1, "A", body("A", 2, &out))
	s.Spawn(2, "B", body("B", 2, &out))
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(out, ""); !strings.HasPrefix(got, "BBA") || len(got) != 4 {
		t.Fatalf("script ran %s, want BBA then the rest", got)
	}
	if sc.Used() != 3 {
		t.Fatalf("script used %d steps", sc.Used())
	}
}

func TestScriptErrors(t *testing.T) {
	var out []string
	s := New(&Script{Actors: []trace.Actor{1, 1, 1, 1}})
	s.Spawn(1, "A", body("A", 1, &out))
	s.Spawn(2, "B", body("B", 1, &out))
	err := s.Run()
	if err == nil || !strings.Contains(err.Error(), "schedule step 2 names A, which has no operation left") {
		t.Fatalf("err = %v", err)
	}
	s = New(&Script{Actors: []trace.Actor{1}})
	s.Spawn(1, "A", body("A", 3, &out))
	if err := s.Run(); err == nil || !strings.Contains(err.Error(), "schedule exhausted") {
		t.Fatalf("err = %v", err)
	}
}

func TestRandomIsSeeded(t *testing.T) {
	run := func(seed uint64) string {
		var out []string
		s := New(NewRandom(seed))
		for i, n := range []string{"A", "B", "C"} {
			s.Spawn(trace.Actor(i+1), n, body(n, 20, &out))
		}
		if err := s.Run(); err != nil {
			t.Fatal(err)
		}
		return strings.Join(out, "")
	}
	if run(7) != run(7) {
		t.Fatal("the same seed gave two schedules")
	}
	if run(7) == run(8) {
		t.Fatal("seeds 7 and 8 gave the same schedule")
	}
}

// Two backends each waiting for the other: the scheduler reports a
// deadlock instead of spinning forever.
func TestDeadlock(t *testing.T) {
	s := New(&RoundRobin{})
	for i, n := range []string{"A", "B"} {
		s.Spawn(trace.Actor(i+1), n, func(y Yield) error {
			for {
				y(Point{Wait: true})
			}
		})
	}
	if err := s.Run(); !errors.Is(err, ErrDeadlock) {
		t.Fatalf("err = %v, want ErrDeadlock", err)
	}
	for _, p := range s.Procs() {
		if !p.Done() {
			t.Fatalf("%s not stopped after the deadlock", p.Name)
		}
	}
}

// A waiter whose lock holder finishes is retried, not declared deadlocked.
func TestWaiterResumesAfterRelease(t *testing.T) {
	held := true
	var out []string
	s := New(&RoundRobin{})
	s.Spawn(1, "holder", func(y Yield) error {
		y(Point{})
		held = false
		out = append(out, "release")
		return nil
	})
	s.Spawn(2, "waiter", func(y Yield) error {
		y(Point{})
		for held {
			y(Point{Wait: true})
		}
		out = append(out, "acquire")
		return nil
	})
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	if strings.Join(out, ",") != "release,acquire" {
		t.Fatalf("ran %v", out)
	}
}

func TestStepLimitAndStop(t *testing.T) {
	stopped := false
	s := New(&RoundRobin{})
	s.MaxSteps = 10
	s.Spawn(1, "A", func(y Yield) error {
		defer func() { stopped = true }()
		for {
			y(Point{})
		}
	})
	if err := s.Run(); !errors.Is(err, ErrStepLimit) {
		t.Fatalf("err = %v", err)
	}
	if !stopped || s.Steps() != 10 {
		t.Fatalf("stopped=%v steps=%d", stopped, s.Steps())
	}
}

func TestBodyError(t *testing.T) {
	s := New(&RoundRobin{})
	p := s.Spawn(1, "A", func(y Yield) error { y(Point{}); return errors.New("boom") })
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	if p.Err() == nil || p.Err().Error() != "boom" || p.Steps() != 1 {
		t.Fatalf("proc err %v steps %d", p.Err(), p.Steps())
	}
}

// A backend that sleeps (Until) is not resumed until what it sleeps on
// holds: it takes no steps meanwhile, whatever the policy; once woken it
// runs. Every backend asleep with nothing to wake it is a deadlock.
func TestSleepUntil(t *testing.T) {
	for _, policy := range []Policy{&RoundRobin{}, NewRandom(1), NewRandom(7)} {
		flag := false
		s := New(policy)
		sleeper := s.Spawn(1, "sleeper", func(y Yield) error {
			y(Point{Until: func() bool { return flag }})
			if !flag {
				return errors.New("resumed before its flag was set")
			}
			return nil
		})
		s.Spawn(2, "setter", func(y Yield) error {
			for range 5 {
				y(Point{})
			}
			flag = true
			return nil
		})
		if err := s.Run(); err != nil || sleeper.Err() != nil {
			t.Fatalf("%s: %v, %v", policy.Name(), err, sleeper.Err())
		}
		if sleeper.Steps() != 1 {
			t.Errorf("%s: the sleeper was resumed %d times, want once (when woken; Spawn runs it to its first yield)", policy.Name(), sleeper.Steps())
		}
	}
	s := New(&RoundRobin{})
	s.Spawn(1, "forever", func(y Yield) error {
		y(Point{Until: func() bool { return false }})
		return nil
	})
	if err := s.Run(); !errors.Is(err, ErrDeadlock) {
		t.Errorf("a backend asleep for ever: %v, want ErrDeadlock", err)
	}
}

// hook records the Yield a Yielder is given.
type hook struct{ y Yield }

func (h *hook) SetYield(y Yield) { h.y = y }

// SpawnDriving hands the process's Yield to every Yielder it drives while
// the body runs (the body's own Yield is the same), and takes it back
// when the body ends, with an error too.
func TestSpawnDriving(t *testing.T) {
	a, b := &hook{}, &hook{}
	s := New(&RoundRobin{})
	var during []bool
	s.SpawnDriving(1, "A", func(y Yield) error {
		during = append(during, a.y != nil && b.y != nil)
		y(Point{})
		during = append(during, a.y != nil && b.y != nil)
		return errors.New("done")
	}, a, b)
	if len(during) != 1 || !during[0] {
		t.Fatalf("before the first yield the hooks were set: %v", during)
	}
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	if len(during) != 2 || !during[1] {
		t.Fatalf("after a yield the hooks were set: %v", during)
	}
	if a.y != nil || b.y != nil {
		t.Fatal("the hooks outlive the body")
	}
	if err := s.Procs()[0].Err(); err == nil || err.Error() != "done" {
		t.Fatalf("the body's error: %v", err)
	}
}
