package slruview_test

import (
	"testing"

	"bufferlab/engine/trace"
	"bufferlab/viz/slruview"
	"bufferlab/viz/timeline"
	"bufferlab/viz/viewkit/viewtest"
)

// The view's cost per event, on a banks+hash workload's log: Apply alone
// (the hot path of playing), Apply then UnapplyLast of the whole log
// (stepping back), and building a timeline (Apply, a Snapshot every 64
// events and TrimHistory, as timeline.NewOf does).

func benchLog(b *testing.B) (func() *slruview.View, []trace.Event) {
	w := workloads()[3]
	_, log, g := w.run(b, nil)
	return func() *slruview.View { return slruview.New(g, names(w.backends)) }, log.Events()
}

// replay applies evs to a fresh view.
func replay(fresh func() *slruview.View, evs []trace.Event) *slruview.View {
	v := fresh()
	for _, e := range evs {
		v.Apply(e)
	}
	return v
}

func BenchmarkApply(b *testing.B) {
	fresh, evs := benchLog(b)
	viewtest.PerEvent(b, len(evs), func() { replay(fresh, evs) })
}

func BenchmarkApplyUnapply(b *testing.B) {
	fresh, evs := benchLog(b)
	viewtest.PerEvent(b, len(evs), func() {
		v := replay(fresh, evs)
		for ok := true; ok; _, ok = v.UnapplyLast() {
		}
	})
}

func BenchmarkTimeline(b *testing.B) {
	fresh, evs := benchLog(b)
	viewtest.PerEvent(b, len(evs), func() { timeline.NewOf(evs, fresh(), 64) })
}
