package slruview_test

import (
	"testing"

	"bufferlab/viz/slruview"
	"bufferlab/viz/timeline"
)

// The view's cost per event, on a banks+hash workload's log: Apply alone
// (the hot path of playing), Apply then UnapplyLast of the whole log
// (stepping back), and building a timeline (Apply, a Snapshot every 64
// events and TrimHistory, as timeline.NewOf does).

func benchLog(b *testing.B) (func() *slruview.View, int, func(*slruview.View)) {
	w := workloads()[3]
	_, log, g := w.run(b, nil)
	evs := log.Events()
	apply := func(v *slruview.View) {
		for _, e := range evs {
			v.Apply(e)
		}
	}
	return func() *slruview.View { return slruview.New(g, names(w.backends)) }, len(evs), apply
}

func BenchmarkApply(b *testing.B) {
	fresh, n, apply := benchLog(b)
	b.ReportAllocs()
	for b.Loop() {
		apply(fresh())
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/event")
}

func BenchmarkApplyUnapply(b *testing.B) {
	fresh, n, apply := benchLog(b)
	b.ReportAllocs()
	for b.Loop() {
		v := fresh()
		apply(v)
		for {
			if _, ok := v.UnapplyLast(); !ok {
				break
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/event")
}

func BenchmarkTimeline(b *testing.B) {
	w := workloads()[3]
	_, log, g := w.run(b, nil)
	evs := log.Events()
	b.ReportAllocs()
	for b.Loop() {
		timeline.NewOf(evs, slruview.New(g, names(w.backends)), 64)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(evs)), "ns/event")
}
