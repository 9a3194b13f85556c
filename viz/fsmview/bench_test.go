package fsmview_test

import (
	"testing"

	"bufferlab/viz/fsmview"
	"bufferlab/viz/viewkit/viewtest"
)

// The view's cost per event (viewtest.Benchmarks: Apply, Apply then
// UnapplyLast, building a timeline) on a small-skip workload's log.
func BenchmarkView(b *testing.B) {
	w := workloads()[1]
	r := w.setup(b)
	setup := fsmview.SetupOf(r.store, r.sessions...)
	w.run(b, r)
	viewtest.Benchmarks(b, func() *fsmview.View { return fsmview.New(setup) }, r.log.Events())
}
