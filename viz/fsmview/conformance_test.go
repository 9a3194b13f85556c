package fsmview_test

import (
	"testing"

	"bufferlab/engine/trace"
	"bufferlab/viz/fsmview"
	"bufferlab/viz/viewkit/viewtest"
)

// The conformance suite every view passes (viewtest.Run), on a workload of
// each variant.
func TestConformance(t *testing.T) {
	for _, i := range []int{0, 1} {
		w := workloads()[i]
		viewtest.Run(t, viewtest.Case[*fsmview.View]{Name: w.name, KeyframeEvery: 64, Play: func(t testing.TB, begin func(*fsmview.View), at func(trace.Event, func(*fsmview.View) string)) []trace.Event {
			r := w.setup(t)
			begin(fsmview.New(fsmview.SetupOf(r.store, r.sessions...)))
			n := 0
			r.log.OnAppend = func(e trace.Event) {
				n++
				at(e, func(v *fsmview.View) string {
					if d := compare(v, r, comparedPages(n, e), e.Class.IsFSM()); d != "" {
						return d
					}
					return checkSearch(v, e)
				})
			}
			w.run(t, r)
			return r.log.Events()
		}})
	}
}
