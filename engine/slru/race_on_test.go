//go:build race

package slru_test

// raceEnabled: under the race detector, every coroutine switch is slow, so
// the long randomised tests run shorter streams.
const raceEnabled = true
