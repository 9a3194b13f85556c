package viewkit

import (
	"fmt"
	"slices"
	"strings"

	"bufferlab/engine/trace"
)

// View is what the helpers need of a concrete view type V (a pointer).
type View[V any] interface {
	Apply(trace.Event)
	Unapply(trace.Event)
	// Check reports whether an event fits the view before it is applied.
	Check(trace.Event) error
	Clone() V
	TrimHistory(keep int)
	// Diff describes how two views differ ("" when they show the same
	// state); history is not compared.
	Diff(V) string
}

// ApplyChecked is Check then Apply; it applies nothing when Check fails.
func ApplyChecked[V View[V]](v V, e trace.Event) error {
	if err := v.Check(e); err != nil {
		return err
	}
	v.Apply(e)
	return nil
}

// Snapshot is Clone without history: the copy shows the same state but
// cannot Unapply anything, and keeps no event chain alive. Timelines keep
// snapshots as keyframes.
func Snapshot[V View[V]](v V) V {
	c := v.Clone()
	c.TrimHistory(0)
	return c
}

// Equal reports whether a and b show the same state (Diff is empty).
func Equal[V View[V]](a, b V) bool { return a.Diff(b) == "" }

// UnapplyLast undoes the event applied last (v.Unapply of h.Last, h being
// v's history) and returns it; ok is false when there is no history left.
func UnapplyLast[V View[V], D any](v V, h *History[D]) (e trace.Event, ok bool) {
	e, ok = h.Last()
	if ok {
		v.Unapply(e)
	}
	return e, ok
}

// MaxDiffs is the most differences a Diff reports.
const MaxDiffs = 12

// Diffs collects the lines of a Diff: the first MaxDiffs differences added,
// one per line.
type Diffs struct{ lines []string }

// Add adds a difference (formatted as fmt.Sprintf does) unless MaxDiffs
// are there already.
func (d *Diffs) Add(format string, args ...any) {
	if len(d.lines) < MaxDiffs {
		d.lines = append(d.lines, fmt.Sprintf(format, args...))
	}
}

// Full reports whether MaxDiffs differences are there: a Diff may stop
// looking.
func (d *Diffs) Full() bool { return len(d.lines) >= MaxDiffs }

// String is the differences, one per line ("" when there are none).
func (d *Diffs) String() string { return strings.Join(d.lines, "\n") }

// DiffTail adds what every view compares last: the first lanes lanes
// (laneDiff(a) describes how lane a differs, "" when it does not), the
// counters ca and cb, and the events applied and the current event of
// histories ha and hb.
func DiffTail[C comparable, D any](d *Diffs, lanes int, laneDiff func(trace.Actor) string, ca, cb C, ha, hb *History[D]) {
	for a := 0; a < lanes && !d.Full(); a++ {
		if s := laneDiff(trace.Actor(a)); s != "" {
			d.Add("lane %d: %s", a, s)
		}
	}
	if ca != cb {
		d.Add("counters %+v vs %+v", ca, cb)
	}
	if ha.applied != hb.applied {
		d.Add("applied %d vs %d", ha.applied, hb.applied)
	}
	ce, ok := ha.Current()
	oe, ook := hb.Current()
	if ok != ook || ce != oe {
		d.Add("current event %v vs %v", ce, oe)
	}
}

// Lane is what SignificantLanes needs of a view's own lane type: Holds
// reports whether the lane holds state beyond its backend's events (pins,
// a target block, a local map, …).
type Lane interface{ Holds() bool }

// SignificantLanes is the number of lanes that take part in comparisons
// of the view whose history is h and whose lanes are lanes: the first
// initial ones (those the view was created with), and any later one up to
// the last that has events in h or that Holds something. A lane added for
// an unknown actor stays after Unapply, empty, and must not make two
// views differ.
func SignificantLanes[D any, L Lane](h *History[D], initial int, lanes []L) int {
	for a := len(lanes) - 1; a >= initial; a-- {
		if h.ActorTop(trace.Actor(a)) != nil || lanes[a].Holds() {
			return a + 1
		}
	}
	return initial
}

// Bit is a bool as an encoding word (1 or 0), for the hand-written
// encodings a view's Fingerprint hashes.
func Bit(x bool) uint64 {
	if x {
		return 1
	}
	return 0
}

// WordsEqual says whether a and b encode to the same words under words,
// a view's hand-written encoding of a lane's derived state (the one its
// Fingerprint hashes): how Diff compares states that hold lists. It
// allocates both encodings.
func WordsEqual[T any](a, b T, words func(T, func(uint64))) bool {
	var wa, wb []uint64
	words(a, func(w uint64) { wa = append(wa, w) })
	words(b, func(w uint64) { wb = append(wb, w) })
	return slices.Equal(wa, wb)
}

// MinusOne is −1 as a wrapped uint64: what a view's Unapply adds to the
// counters its Apply added 1 to (a view's count and SiteCounts.Count
// take the delta), so that one function counts both ways.
const MinusOne = ^uint64(0)

// Written is the value a view's mutate stores for e: the After e wrote,
// or, undoing e, the Before it replaced.
func Written(e trace.Event, undo bool) uint64 {
	if undo {
		return e.Before
	}
	return e.After
}

// Name is the String of a small enumeration of a view (a phase, an
// operation, a candidate's kind): names[x] where that is not empty, else
// kind(x), "phase(12)".
func Name[T ~uint8](names []string, x T, kind string) string {
	if int(x) < len(names) && names[x] != "" {
		return names[x]
	}
	return fmt.Sprintf("%s(%d)", kind, uint8(x))
}

// TrailShown is the rule every view's trails follow (the pool's marks,
// the SLRU's compared slots, the FSM's nodes): an operation's trail is
// shown while it runs (done false) and, once it ended at event end, until
// the next operation begins in the view: latest is the start of the
// operation that began last, any backend's. So a finished operation's
// trail stays on screen until someone starts something else, and the
// trails of operations that overlap are all shown while they run.
func TrailShown(done bool, end, latest uint64) bool { return !done || end > latest }

// Span is what TrailShown reads of a lane's latest operation.
type Span struct {
	Has      bool   // the lane has an operation, running or ended
	Done     bool   // it has ended
	Seq, End uint64 // the Seq of its first event, and of its end
}

// LaneTrailShown is TrailShown for lane a's operation, of the n lanes
// whose operations span gives: latest is the start of the latest of
// theirs. Cost: n+1 calls of span.
func LaneTrailShown(a trace.Actor, n int, span func(trace.Actor) Span) bool {
	s := span(a)
	if !s.Has {
		return false
	}
	latest := uint64(0)
	for b := range n {
		if o := span(trace.Actor(b)); o.Has {
			latest = max(latest, o.Seq)
		}
	}
	return TrailShown(s.Done, s.End, latest)
}
