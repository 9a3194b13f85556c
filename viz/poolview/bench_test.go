package poolview_test

import (
	"testing"

	view "bufferlab/viz/poolview"
	"bufferlab/viz/poolview/pooltest"
	"bufferlab/viz/viewkit/viewtest"
)

// The view's cost per event (viewtest.Benchmarks: Apply, Apply then
// UnapplyLast, building a timeline) on a contention run's log.
func BenchmarkView(b *testing.B) {
	r := pooltest.Run(b, "c", pooltest.Contention(7))
	viewtest.Benchmarks(b, func() *view.Pool { return pooltest.NewView(r) }, r.Log().Events())
}
