package poolview_test

import (
	"testing"

	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/poolview/pooltest"
	"bufferlab/viz/viewkit/viewtest"
)

// The conformance suite every view passes (viewtest.Run), on contention
// runs (pins, CAS loops, header locks, rings, waits), the pre-9.6 pins,
// drops with every strategy, a cleanup waiter and a lesson.
func TestConformance(t *testing.T) {
	all := pooltest.Scenarios(t)
	for _, name := range []string{"contention-seed7", "contention-seed11", "spinlock-seed5", "drop-seed3", "cleanup", "clock-sweep.scn"} {
		src, ok := all[name]
		if !ok {
			t.Fatalf("no scenario %s", name)
		}
		viewtest.Run(t, viewtest.Case[*view.Pool]{Name: name, Play: func(t testing.TB, begin func(*view.Pool), at func(trace.Event, func(*view.Pool) string)) []trace.Event {
			// A first run names the backends and relations (the scenario
			// declares backends as it goes); the second, identical, is
			// compared event by event.
			begin(pooltest.NewView(pooltest.Run(t, name, src)))
			r := pooltest.RunHooked(t, name, src, func(r *scenario.Runner, e trace.Event) {
				at(e, func(v *view.Pool) string { return pooltest.Compare(v, pooltest.TakeSnap(r.Pool(), true), nil, nil) })
			})
			return r.Log().Events()
		}})
	}
}
