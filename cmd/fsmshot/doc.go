// Command fsmshot draws one frame of the FSM scene (viz/scenedraw's
// DrawFSMScene: the heap, the three levels of FSM pages, one page's tree
// or the small-skip local map, the searches and the counters) at a
// position of a free space map trace, saves it as a PNG and exits: a way
// to look at the scene before it is wired into the app.
//
//	fsmshot [--variant always|small-skip] [--threshold N]
//	        [--workload seed|random] [--tables N] [--ff N] [--blocks N]
//	        [--ops N] [--seed N] [--table NAME]
//	        [--pos N] [--at KIND[,KIND…]] [--match TEXT] [--out FILE]
//	        [--width W] [--height H]
//
// The seed workload is the 002 thread's (engine/fsm NewSeed): --tables
// tables pre-filled with one row and vacuumed (not shown: the view starts
// from the store after it, viz/fsmview SetupOf), then filled to --blocks
// pages at fillfactor --ff from a new session. The random workload runs
// --ops random inserts, deletes, VACUUMs and searches by three sessions on
// three heaps. The view applies the events up to --pos (default: all),
// then, with --at, on to the first event of one of the given kinds (trace
// kind names: search-step, page-tried, fsm-skip, local-map, category, …),
// and with --match on to the first event whose fsm.Describe text contains
// the given text. --table picks the heap drawn (default: the one the
// current event's backend works on).
//
// It opens a window, so on a machine without a display run it under Xvfb:
//
//	xvfb-run -a -s "-screen 0 1400x900x24" go run ./cmd/fsmshot --out fsm.png
package main
