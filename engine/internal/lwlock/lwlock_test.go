package lwlock

import (
	"fmt"
	"strings"
	"testing"

	"bufferlab/engine/trace"
)

func TestTryAcquireAndRelease(t *testing.T) {
	type step struct {
		op   string // "S a", "X a" (try shared/exclusive), "R a" (release)
		want string // "ok", "busy" or the released mode
		then string // the holders afterwards (Lock.String)
	}
	cases := []struct {
		name  string
		steps []step
	}{
		{"shared holders share", []step{
			{"S 1", "ok", "A"}, {"S 2", "ok", "A B"}, {"S 3", "ok", "A B C"},
			{"R 2", "shared", "A C"}, {"R 1", "shared", "C"}, {"R 3", "shared", "none"},
		}},
		{"exclusive excludes everyone", []step{
			{"X 1", "ok", "A(X)"}, {"S 2", "busy", "A(X)"}, {"X 2", "busy", "A(X)"},
			{"R 1", "exclusive", "none"}, {"X 2", "ok", "B(X)"}, {"R 2", "exclusive", "none"},
		}},
		{"a shared holder keeps exclusive out", []step{
			{"S 2", "ok", "B"}, {"X 1", "busy", "B"}, {"S 1", "ok", "A B"},
			{"R 2", "shared", "A"}, {"X 3", "busy", "A"}, {"R 1", "shared", "none"}, {"X 3", "ok", "C(X)"}, {"R 3", "exclusive", "none"},
		}},
		{"the highest actors", []step{
			{"S 48", "ok", trace.ActorName(48)}, {"S 1", "ok", "A " + trace.ActorName(48)},
			{"R 48", "shared", "A"}, {"R 1", "shared", "none"},
		}},
	}
	for _, c := range cases {
		var l Lock
		for i, s := range c.steps {
			var op byte
			var a trace.Actor
			if _, err := fmt.Sscanf(s.op, "%c %d", &op, &a); err != nil {
				t.Fatalf("%s: step %d %q: %v", c.name, i, s.op, err)
			}
			got := ""
			switch op {
			case 'S', 'X':
				m := map[byte]Mode{'S': Shared, 'X': Exclusive}[op]
				got = map[bool]string{true: "ok", false: "busy"}[l.TryAcquire(a, m)]
			case 'R':
				got = l.Release(a).String()
			}
			if got != s.want || l.String() != s.then {
				t.Errorf("%s: step %d %s = %s, holders %s; want %s, holders %s", c.name, i, s.op, got, l, s.want, s.then)
			}
			if n := strings.Count(l.String(), " ") + 1; l.Excl == 0 && !l.Free() && int(l.NShared) != n {
				t.Errorf("%s: step %d: NShared %d, %d holders listed", c.name, i, l.NShared, n)
			}
		}
		if !l.Free() {
			t.Errorf("%s: lock still held: %s", c.name, l)
		}
	}
}

func TestModeOfAndHolds(t *testing.T) {
	var l Lock
	l.TryAcquire(1, Shared)
	l.TryAcquire(3, Shared)
	for a, want := range map[trace.Actor]Mode{0: 0, 1: Shared, 2: 0, 3: Shared, 49: 0} {
		if got := l.ModeOf(a); got != want || l.Holds(a) != (want != 0) {
			t.Errorf("ModeOf(%d) = %v, Holds %v; want %v", a, got, l.Holds(a), want)
		}
	}
	var x Lock
	x.TryAcquire(2, Exclusive)
	for a, want := range map[trace.Actor]Mode{0: 0, 1: 0, 2: Exclusive} {
		if got := x.ModeOf(a); got != want {
			t.Errorf("exclusive: ModeOf(%d) = %v; want %v", a, got, want)
		}
	}
	// Holds(0) on a lock without an exclusive holder: no backend is actor 0.
	if (&Lock{}).Holds(0) {
		t.Error("a free lock is held by actor 0")
	}
}

func TestModeString(t *testing.T) {
	for m, want := range map[Mode]string{Shared: "shared", Exclusive: "exclusive", 0: "unlocked", 7: "unlocked"} {
		if got := m.String(); got != want {
			t.Errorf("Mode(%d) = %q, want %q", m, got, want)
		}
	}
}

func TestHolderWord(t *testing.T) {
	cases := []struct {
		lock Lock
		word uint64
		str  string
	}{
		{Lock{}, 0, "none"},
		{Lock{Excl: 2}, 2 << 48, "B(X)"},
		{Lock{NShared: 2, Shared: 1<<0 | 1<<2}, 0b101, "A C"},
		{Lock{NShared: 1, Shared: 1 << 47}, 1 << 47, trace.ActorName(48)},
	}
	for _, c := range cases {
		if got := c.lock.HolderWord(); got != c.word {
			t.Errorf("%s: HolderWord = %#x, want %#x", c.str, got, c.word)
		}
		if got := Unpack(c.word); got != c.lock || got.String() != c.str {
			t.Errorf("Unpack(%#x) = %+v %q, want %+v %q", c.word, got, got, c.lock, c.str)
		}
	}
}

func TestMisusePanics(t *testing.T) {
	held := func() *Lock { l := &Lock{}; l.TryAcquire(1, Shared); return l }
	cases := []struct {
		name string
		f    func()
		want string
	}{
		{"self-deadlock shared", func() { held().TryAcquire(1, Shared) }, "already holds"},
		{"self-deadlock exclusive", func() { held().TryAcquire(1, Exclusive) }, "already holds"},
		{"release unheld", func() { held().Release(2) }, "does not hold"},
		{"release free as actor 0", func() { (&Lock{}).Release(0) }, "does not hold"},
		{"acquire as actor 0", func() { (&Lock{}).TryAcquire(0, Shared) }, "actor 0"},
		{"acquire in no mode", func() { (&Lock{}).TryAcquire(1, 0) }, "mode 0"},
	}
	for _, c := range cases {
		func() {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.Contains(s, c.want) {
					t.Errorf("%s: recovered %v, want a panic naming %q", c.name, r, c.want)
				}
			}()
			c.f()
		}()
	}
}
