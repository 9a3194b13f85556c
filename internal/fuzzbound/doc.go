// Package fuzzbound holds the bounds the scenario fuzzers share
// (engine/scenario's FuzzScenario and lessons' FuzzLesson): how large a
// pool, a pg_xact and a printout one fuzz input may ask for before it is
// skipped, so that each input runs in milliseconds. It imports nothing of
// BufferLab, so the scenario package's own tests may use it.
package fuzzbound
