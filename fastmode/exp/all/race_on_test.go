//go:build race

package all

// raceEnabled: under the race detector the single-goroutine experiments
// (timing loops over the modelled engine) run ten times slower and give
// the detector nothing to find; TestExperiments then runs only those with
// goroutines (raceExperiments).
const raceEnabled = true
