package lwlock

import (
	"fmt"
	"strings"
	"testing"

	"bufferlab/engine/trace"
)

// recorder is a Hooks that writes down every call, in order. onYield runs
// at each yield, as other backends would while this one is descheduled.
type recorder struct {
	log     *[]string
	canWait bool
	onYield func(wait bool)
}

func (r recorder) add(f string, args ...any) { *r.log = append(*r.log, fmt.Sprintf(f, args...)) }

func (r recorder) Yield(site trace.Site, wait bool) {
	r.add("yield %d wait=%v", site, wait)
	if r.onYield != nil {
		r.onYield(wait)
	}
}

func (r recorder) Event(k trace.Kind, site trace.Site, before, after uint64, m Mode) {
	r.add("event %v %d %s -> %s %v", k, site, Unpack(before), Unpack(after), m)
}

func (r recorder) Acquired(site trace.Site) { r.add("acquired %d", site) }

func (r recorder) Waited(site trace.Site) bool {
	r.add("waited %d", site)
	return r.canWait
}

func (r recorder) Released(site trace.Site) { r.add("released %d", site) }

// wantCalls fails t unless the recorded calls are want, in order.
func wantCalls(t *testing.T, got []string, want ...string) {
	t.Helper()
	if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
		t.Errorf("calls:\n%s\nwant:\n%s", g, w)
	}
}

func TestAcquireFree(t *testing.T) {
	var got []string
	var l Lock
	if !Acquire(recorder{log: &got, canWait: true}, &l, 1, Exclusive, 7) {
		t.Fatal("Acquire of a free lock failed")
	}
	wantCalls(t, got,
		"yield 7 wait=false",
		"acquired 7",
		fmt.Sprintf("event %v 7 none -> A(X) exclusive", trace.KLWAcquire))
}

// TestAcquireWaits: an exclusive waiter behind two shared holders retries,
// one KLWWait per failed try with the holders unchanged, yielding as a
// waiter, until the holders have released (here, one per yield).
func TestAcquireWaits(t *testing.T) {
	var got []string
	var l Lock
	l.TryAcquire(2, Shared)
	l.TryAcquire(3, Shared)
	holders := []trace.Actor{2, 3}
	h := recorder{log: &got, canWait: true, onYield: func(wait bool) {
		if wait && len(holders) > 0 {
			l.Release(holders[0])
			holders = holders[1:]
		}
	}}
	if !Acquire(h, &l, 1, Exclusive, 4) {
		t.Fatal("Acquire gave up")
	}
	wait := fmt.Sprintf("event %v 4", trace.KLWWait)
	wantCalls(t, got,
		"yield 4 wait=false", "waited 4", wait+" B C -> B C exclusive",
		"yield 4 wait=true", "waited 4", wait+" C -> C exclusive",
		"yield 4 wait=true", "acquired 4", fmt.Sprintf("event %v 4 none -> A(X) exclusive", trace.KLWAcquire))
	if l.ModeOf(1) != Exclusive {
		t.Errorf("after Acquire: holders %s", l)
	}
}

// TestAcquireCannotWait: when Waited says no one can release the lock
// (slru's unscheduled backend), Acquire stops after one KLWWait.
func TestAcquireCannotWait(t *testing.T) {
	var got []string
	var l Lock
	l.TryAcquire(2, Exclusive)
	if Acquire(recorder{log: &got}, &l, 1, Shared, 5) {
		t.Fatal("Acquire of a held lock succeeded")
	}
	wantCalls(t, got, "yield 5 wait=false", "waited 5", fmt.Sprintf("event %v 5 B(X) -> B(X) shared", trace.KLWWait))
	if l.Holds(1) || l.Excl != 2 {
		t.Errorf("holders changed: %s", l)
	}
}

func TestConditionalAcquire(t *testing.T) {
	var got []string
	var l Lock
	h := recorder{log: &got, canWait: true}
	if !ConditionalAcquire(h, &l, 1, Shared, 3) {
		t.Fatal("first try failed")
	}
	if ConditionalAcquire(h, &l, 2, Exclusive, 3) {
		t.Fatal("exclusive try beside a shared holder succeeded")
	}
	wantCalls(t, got,
		"yield 3 wait=false", "acquired 3", fmt.Sprintf("event %v 3 none -> A shared", trace.KLWAcquire),
		"yield 3 wait=false", fmt.Sprintf("event %v 3 A -> A exclusive", trace.KLWCondFail))
}

func TestRelease(t *testing.T) {
	var got []string
	var l Lock
	l.TryAcquire(1, Shared)
	l.TryAcquire(2, Shared)
	if m := Release(recorder{log: &got}, &l, 2, 9); m != Shared {
		t.Errorf("Release = %v, want shared", m)
	}
	wantCalls(t, got, "yield 9 wait=false", "released 9", fmt.Sprintf("event %v 9 A B -> A shared", trace.KLWRelease))
}
