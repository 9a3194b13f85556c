package slruview_test

import (
	"testing"

	"bufferlab/viz/slruview"
	"bufferlab/viz/viewkit/viewtest"
)

// The view's cost per event (viewtest.Benchmarks: Apply, Apply then
// UnapplyLast, building a timeline) on a banks+hash workload's log.
func BenchmarkView(b *testing.B) {
	w := workloads()[3]
	_, log, g := w.run(b, nil)
	viewtest.Benchmarks(b, func() *slruview.View { return slruview.New(g, names(w.backends)) }, log.Events())
}
