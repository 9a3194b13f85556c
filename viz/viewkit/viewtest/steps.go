package viewtest

import (
	"reflect"
	"strings"
	"testing"

	"bufferlab/engine/sched"
	"bufferlab/engine/trace"
	"bufferlab/viz/timeline"
)

// The pieces a view package's own tests share beside the suite: a run's
// size, a scheduler run, the coverage a workload must reach, another
// mechanism's events, a panic, the encodings that must name every field,
// and the per-event benchmarks.

// Size is how large a test run is: full, or short under go test -short.
func Size(full, short int) int {
	if testing.Short() {
		return short
	}
	return full
}

// RunProcs runs sch to the end and fails t when it fails (state, when not
// nil, describes the engine for the message) or when any of its processes
// returned an error.
func RunProcs(t testing.TB, sch *sched.Scheduler, state func() string) {
	t.Helper()
	if err := sch.Run(); err != nil {
		if state != nil {
			t.Fatalf("%v\n%s", err, state())
		}
		t.Fatal(err)
	}
	for _, p := range sch.Procs() {
		if p.Err() != nil {
			t.Fatalf("%s: %v", p.Name, p.Err())
		}
	}
}

// Span lists from, from+1, … to: a range of event kinds or phases a
// test's runs must reach.
func Span[K ~uint8](from, to K) []K {
	var ks []K
	for k := from; k <= to; k++ {
		ks = append(ks, k)
	}
	return ks
}

// Seen counts the values a test's runs reached, of any comparable types
// at once (event kinds, phases, candidate kinds, …): the coverage that
// Covered checks. Keys of different types never collide.
type Seen map[any]int

// Covered fails t for every value of want that seen never counted, with
// format (one %s, the value) saying what is missing.
func Covered[K comparable](t testing.TB, seen Seen, want []K, format string) {
	t.Helper()
	for _, k := range want {
		if seen[k] == 0 {
			t.Errorf(format, k)
		}
	}
}

// Ignores fails t unless v ignores every event of evs (another
// mechanism's): Check accepts it, and Apply, Unapply and Apply again
// change neither v's fingerprint nor Applied.
func Ignores[S View[S]](t testing.TB, v S, evs []trace.Event) {
	t.Helper()
	before, applied := v.Fingerprint(), v.Applied()
	for _, e := range evs {
		if err := v.Check(e); err != nil {
			t.Fatalf("Check(%v) = %v, want nil: not the view's event", e, err)
		}
		v.Apply(e)
		v.Unapply(e)
		v.Apply(e)
		if v.Applied() != applied || v.Fingerprint() != before {
			t.Fatalf("%v (class %s, owned by %s) changed the view", e, e.Class, e.Class.Owner())
		}
	}
}

// MustPanic fails t unless f panics with a message that contains want
// (the views' Unapply of an event that is not the last applied, …).
func MustPanic(t testing.TB, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Fatalf("no panic (want one mentioning %q)", want)
		}
		if s, _ := r.(string); !strings.Contains(s, want) {
			t.Fatalf("panic %v, want one mentioning %q", r, want)
		}
	}()
	f()
}

// EncodesEveryField fails t unless words, a view's hand-written encoding
// of a lane's state T for Diff and Fingerprint, writes one word per field
// of T (a list as its length), and fields, its counters C as words, lists
// one per field of C: a field added to T or C must be added there too.
func EncodesEveryField[T, C any](t testing.TB, words func(T, func(uint64)), fields func(C) []uint64) {
	t.Helper()
	var zero T
	var c C
	n := 0
	words(zero, func(uint64) { n++ })
	if f := reflect.TypeOf(zero).NumField(); n != f {
		t.Errorf("the encoding writes %d words for %T's %d fields", n, zero, f)
	}
	if f := reflect.TypeOf(c).NumField(); len(fields(c)) != f {
		t.Errorf("%T's fields lists %d of %d fields", c, len(fields(c)), f)
	}
}

// Benchmarks runs a view's per-event benchmarks on log evs, each view
// from fresh: Apply alone (the hot path of playing), Apply then
// UnapplyLast of the whole log (stepping back), and building a timeline
// (Apply, a Snapshot every 64 events and TrimHistory, as timeline.NewOf
// does).
func Benchmarks[S View[S]](b *testing.B, fresh func() S, evs []trace.Event) {
	replay := func() S {
		v := fresh()
		for _, e := range evs {
			v.Apply(e)
		}
		return v
	}
	b.Run("Apply", func(b *testing.B) { PerEvent(b, len(evs), func() { replay() }) })
	b.Run("ApplyUnapply", func(b *testing.B) {
		PerEvent(b, len(evs), func() {
			v := replay()
			for ok := true; ok; _, ok = v.UnapplyLast() {
			}
		})
	})
	b.Run("Timeline", func(b *testing.B) { PerEvent(b, len(evs), func() { timeline.NewOf(trace.Slice(evs), fresh(), 64) }) })
}
