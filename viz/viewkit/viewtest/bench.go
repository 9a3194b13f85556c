package viewtest

import "testing"

// PerEvent is a view benchmark's loop: it runs f (one pass over a log of
// n events, calling the view's methods directly) b.N times and reports
// allocations and ns/event.
func PerEvent(b *testing.B, n int, f func()) {
	b.ReportAllocs()
	for b.Loop() {
		f()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/event")
}
