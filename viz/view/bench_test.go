package view_test

import (
	"testing"

	"bufferlab/viz/timeline"
)

// The views' cost per event, on a contention run's log: Apply alone (the
// hot path of playing), Apply then UnapplyLast of the whole log (stepping
// back), and building a timeline (Apply, a Snapshot every 64 events and
// TrimHistory, as timeline.NewOf does).

func BenchmarkApply(b *testing.B) {
	r := run(b, "c", contention(7))
	evs := r.Log().Events()
	b.ReportAllocs()
	for b.Loop() {
		v := newView(r)
		for _, e := range evs {
			v.Apply(e)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(evs)), "ns/event")
}

func BenchmarkApplyUnapply(b *testing.B) {
	r := run(b, "c", contention(7))
	evs := r.Log().Events()
	b.ReportAllocs()
	for b.Loop() {
		v := newView(r)
		for _, e := range evs {
			v.Apply(e)
		}
		for {
			if _, ok := v.UnapplyLast(); !ok {
				break
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(evs)), "ns/event")
}

func BenchmarkTimeline(b *testing.B) {
	r := run(b, "c", contention(7))
	evs := r.Log().Events()
	b.ReportAllocs()
	for b.Loop() {
		timeline.NewOf(evs, newView(r), 64)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(evs)), "ns/event")
}
