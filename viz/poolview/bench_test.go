package poolview_test

import (
	"testing"

	view "bufferlab/viz/poolview"
	"bufferlab/viz/viewkit/viewtest"
)

// The view's cost per event (viewtest.Benchmarks: Apply, Apply then
// UnapplyLast, building a timeline) on a contention run's log.
func BenchmarkView(b *testing.B) {
	r := run(b, "c", contention(7))
	viewtest.Benchmarks(b, func() *view.Pool { return newView(r) }, r.Log().Events())
}
