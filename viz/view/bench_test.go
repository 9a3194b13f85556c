package view_test

import (
	"testing"

	"bufferlab/viz/timeline"
	"bufferlab/viz/viewkit/viewtest"
)

// The views' cost per event, on a contention run's log: Apply alone (the
// hot path of playing), Apply then UnapplyLast of the whole log (stepping
// back), and building a timeline (Apply, a Snapshot every 64 events and
// TrimHistory, as timeline.NewOf does).

func BenchmarkApply(b *testing.B) {
	r := run(b, "c", contention(7))
	evs := r.Log().Events()
	viewtest.PerEvent(b, len(evs), func() {
		v := newView(r)
		for _, e := range evs {
			v.Apply(e)
		}
	})
}

func BenchmarkApplyUnapply(b *testing.B) {
	r := run(b, "c", contention(7))
	evs := r.Log().Events()
	viewtest.PerEvent(b, len(evs), func() {
		v := newView(r)
		for _, e := range evs {
			v.Apply(e)
		}
		for ok := true; ok; _, ok = v.UnapplyLast() {
		}
	})
}

func BenchmarkTimeline(b *testing.B) {
	r := run(b, "c", contention(7))
	evs := r.Log().Events()
	viewtest.PerEvent(b, len(evs), func() { timeline.NewOf(evs, newView(r), 64) })
}
