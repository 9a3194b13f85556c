// Command slrushot draws one frame of the SLRU scene (viz/scenedraw's
// DrawSLRUScene and DrawSLRUCounters) at a position of an SLRU trace, saves it
// as a PNG and exits: a way to look at the scene before it is wired into
// the app.
//
//	slrushot [--variant banks|single|banks+hash] [--slots N] [--bank N]
//	         [--backends N] [--ops N] [--pages N] [--seed N]
//	         [--script "A: get 100000; B: read-only 3"]
//	         [--pos N] [--at KIND[,KIND…]] [--match TEXT] [--out FILE]
//	         [--width W] [--height H]
//
// The trace is a run of the engine (engine/slru) under a seeded random
// schedule: --script gives each backend's operations (slru.ParseOp syntax,
// "BACKEND: OP" separated by ";"), otherwise --backends backends run --ops
// random operations each (status lookups and updates, read-only page
// reads, checkpoints; backend A also extends the log) over --pages pages
// on disk. The view (viz/slruview) applies the events up to --pos (default:
// all), then, with --at, on to the first event of one of the given kinds
// (trace kind names: candidate, victim, slot-scan, map-lookup, lw-wait, …),
// and with --match on to the first event whose slru.Describe text contains
// the given text ("dirty: write it first", "latest_page_number").
//
// It opens a window, so on a machine without a display run it under Xvfb:
//
//	xvfb-run -a -s "-screen 0 1400x900x24" go run ./cmd/slrushot --out slru.png
package main
