// Package mech is the registry that the layers above the engine iterate:
// for each mechanism (the pool and its pins and drops, the commit log's
// SLRU, the free space map, and any added later), how to build its view
// over a pane's events, how its scene reads (title, counters, layout),
// and which bench experiments and verify checks are its.
//
// The scenario language has its own registry (scenario.Register: config
// keys, variants with their titles, operations, expect and show
// subjects, error texts); a mechanism here is keyed by the same Name. The
// player opens a Track for every registered mechanism a run has
// (Mechanism.Open returns nil for a run without it), and the app draws
// the tracks it finds: the main scene of a run's mechanism, and a panel
// for each mechanism that registers one (Panel).
//
// Adding a mechanism is: write its package (engine model, view, scene),
// register it (scenario.Register for the language, mech.Add for the view
// and scene), and add its import to viz/mech/all. See
// docs/adding-a-mechanism.md.
//
// Invariants (mech_test.go):
//   - names are unique, and every name here is a registered scenario
//     mechanism;
//   - a Track's State after Seek(p) is the view after the first p events
//     (the timeline's invariant, kept by wrapping a *timeline.Of).
package mech
