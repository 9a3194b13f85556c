// Package testmem holds what the tests that bound a run's memory share
// (engine/scenario's largest pg_xact, viz/player's player over it): the
// live heap after a collection. It imports nothing of BufferLab, so any
// package's in-package tests may use it.
package testmem
