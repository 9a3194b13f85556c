package slruview_test

import (
	"testing"

	"bufferlab/engine/sched"
	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
	"bufferlab/viz/slruview"
	"bufferlab/viz/viewkit/viewtest"
)

// The conformance suite every view passes (viewtest.Run), on workloads of
// each variant: banks, one bank (slru=single), banks+hash, the mask rule.
func TestConformance(t *testing.T) {
	for _, i := range []int{0, 2, 3, 5} {
		w := workloads()[i]
		viewtest.Run(t, viewtest.Case[*slruview.View]{Name: w.name, Play: func(t testing.TB, begin func(*slruview.View), at func(trace.Event, func(*slruview.View) string)) []trace.Event {
			// A first run gives the geometry as it is before the first
			// event; the second, identical, is compared event by event.
			_, _, g := w.run(t, nil)
			begin(slruview.New(g, names(w.backends)))
			_, log, _ := w.run(t, func(s *slru.SLRU, _ *sched.Scheduler, e trace.Event) {
				at(e, func(v *slruview.View) string {
					if d := compare(v, s); d != "" {
						return d
					}
					return checkLookup(v, s, e)
				})
			})
			return log.Events()
		}})
	}
}
