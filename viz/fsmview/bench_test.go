package fsmview_test

import (
	"testing"

	"bufferlab/engine/trace"
	"bufferlab/viz/fsmview"
	"bufferlab/viz/timeline"
	"bufferlab/viz/viewkit/viewtest"
)

// The view's cost per event, on a small-skip workload's log: Apply alone
// (the hot path of playing), Apply then UnapplyLast of the whole log
// (stepping back), and building a timeline (Apply, a Snapshot every 64
// events and TrimHistory, as timeline.NewOf does).

func benchLog(b *testing.B) (fsmview.Setup, []trace.Event) {
	w := workloads()[1]
	r := w.setup(b)
	setup := fsmview.SetupOf(r.store, r.sessions...)
	w.run(b, r)
	return setup, r.log.Events()
}

// replay applies evs to a fresh view.
func replay(fresh func() *fsmview.View, evs []trace.Event) *fsmview.View {
	v := fresh()
	for _, e := range evs {
		v.Apply(e)
	}
	return v
}

func BenchmarkApply(b *testing.B) {
	setup, evs := benchLog(b)
	viewtest.PerEvent(b, len(evs), func() { replay(func() *fsmview.View { return fsmview.New(setup) }, evs) })
}

func BenchmarkApplyUnapply(b *testing.B) {
	setup, evs := benchLog(b)
	viewtest.PerEvent(b, len(evs), func() {
		v := replay(func() *fsmview.View { return fsmview.New(setup) }, evs)
		for ok := true; ok; _, ok = v.UnapplyLast() {
		}
	})
}

func BenchmarkTimeline(b *testing.B) {
	setup, evs := benchLog(b)
	viewtest.PerEvent(b, len(evs), func() { timeline.NewOf(evs, fsmview.New(setup), 64) })
}
