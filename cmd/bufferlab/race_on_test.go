//go:build race

package main

// raceEnabled: under the race detector the engine runs ten times slower,
// and `bench drop --quick` (thousands of timed drops over pools of 1GB)
// takes minutes; its tests skip (see skipUnderRace).
const raceEnabled = true
