// Package poolmech registers the buffer pool's mechanisms with viz/mech:
// the pool itself, pins and drop. Their view is the pool's
// (viz/poolview), which the player builds as its main timeline, the clock
// of every pane, so they register no Open; they name their bench
// experiments and verify checks.
package poolmech
