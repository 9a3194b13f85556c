package all

import (
	"math"
	"slices"
	"testing"

	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/harness"
)

// raceExperiments are the experiments whose loops run on several
// goroutines (limits: contended CAS; pin: the native pin loop): the ones
// TestExperiments runs under the race detector.
var raceExperiments = []string{"limits", "pin"}

// The experiments run and fill every summary key (128kB: tiny and fast).
func TestExperiments(t *testing.T) {
	cfg := harness.Quick
	cfg.Samples = 3
	names := exp.Names()
	if raceEnabled {
		names = raceExperiments
	}
	for _, name := range names {
		e, _ := exp.Lookup(name)
		r, err := e.Run(exp.Options{Sizes: []string{"128kB"}, Quick: true, Config: cfg})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, k := range e.SummaryKeys {
			v, ok := r.Summary[k]
			if slices.Contains(e.SignedKeys, k) {
				// A percentage change: any finite value.
				if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
					t.Errorf("%s: summary %s = %v (present %v)", name, k, v, ok)
				}
			} else if !ok || !(v > 0) {
				t.Errorf("%s: summary %s = %v", name, k, v)
			}
		}
	}
}
