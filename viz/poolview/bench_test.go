package poolview_test

import (
	"testing"

	"bufferlab/engine/trace"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/timeline"
	"bufferlab/viz/viewkit/viewtest"
)

// The views' cost per event, on a contention run's log: Apply alone (the
// hot path of playing), Apply then UnapplyLast of the whole log (stepping
// back), and building a timeline (Apply, a Snapshot every 64 events and
// TrimHistory, as timeline.NewOf does).

// replayed returns the log and a function that applies it to a fresh view.
func replayed(b *testing.B) ([]trace.Event, func() *view.Pool) {
	r := run(b, "c", contention(7))
	evs := r.Log().Events()
	return evs, func() *view.Pool {
		v := newView(r)
		for _, e := range evs {
			v.Apply(e)
		}
		return v
	}
}

func BenchmarkApply(b *testing.B) {
	evs, replay := replayed(b)
	viewtest.PerEvent(b, len(evs), func() { replay() })
}

func BenchmarkApplyUnapply(b *testing.B) {
	evs, replay := replayed(b)
	viewtest.PerEvent(b, len(evs), func() {
		v := replay()
		for ok := true; ok; _, ok = v.UnapplyLast() {
		}
	})
}

func BenchmarkTimeline(b *testing.B) {
	r := run(b, "c", contention(7))
	evs := r.Log().Events()
	viewtest.PerEvent(b, len(evs), func() { timeline.NewOf(evs, newView(r), 64) })
}
