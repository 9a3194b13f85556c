// Package fsmview is the view model of the free space map and the heaps
// it describes (engine/fsm): everything the FSM scene draws, derived from
// trace events only (DESIGN §4). It starts from a Setup (the variant, the
// heaps with their forks, page layouts and FSM pages, the backends'
// cached target blocks and local maps; SetupOf reads one from a store)
// and applies events; it never reads the engine, and it does not depend
// on viz/poolview (the buffer pool's view).
//
// What a View holds:
//
//   - per heap: its fork sizes (main, fsm, vm, and whether the FSM and VM
//     forks exist), relpages, and each page's layout as a page word
//     (fsm.HeapPage.Word: pd_lower, pd_upper, live and deleted tuples,
//     PD_ALL_VISIBLE), from which HeapPage gives the line pointers, the
//     free space (PageGetHeapFreeSpace) and its category;
//   - per heap, its FSM pages by physical block, each the 8164 one-byte
//     nodes of its binary max-tree and fp_next_slot (an array per page,
//     shared between clones until one writes it); FSMPages lists them
//     with their logical address (level 0–2, page number) and root;
//   - per backend (a lane): its cached target block per heap
//     (RelationGetTargetBlock, forgotten when a VACUUM rewrites pg_class),
//     its small-skip local map, its counters, and its Search: the
//     operation (heap_insert, VACUUM, GetPageWithFreeSpace, …), the free
//     space and category it wants, the FSM page whose tree is lit and the
//     path of nodes read (fsm_search_avail) or written (fsm_set_avail),
//     fp_next_slot's move, the FSM pages read and skipped in order
//     (Visits; Current gives the last fsm_search's, root first), the heap
//     pages tried with their free space and verdict, the local map
//     entries looked at, the buffer accesses by fork, the result, and its
//     trail: every node of every FSM page the operation read or wrote,
//     shown until the next operation begins (TrailShown);
//   - counters (Counters): buffer accesses by fork, extensions, FSM pages
//     skipped, searches, restarts, stale parents, torn-page repairs, pages
//     tried, local map builds and checks, inserts, deletes, vacuums;
//     Counters.Stats gives the engine's fsm.Stats, which the view matches
//     exactly, in total and per backend.
//
// Which events change what (engine/trace's FSM kinds; engine/fsm's
// show.go lists what they carry):
//
//	KCategory KNodeStore    a node of an FSM page: Before → After
//	KNextSlot               fp_next_slot: Before → After
//	KHeapPage               a heap page's word (fsm.HeapPage.Word): Before → After
//	KForkSize               a fork's word (exists, blocks): Before → After
//	KTarget                 a backend's target block for a heap: Before → After
//	KLocalMap KLocalMapSize a local map's entry or size: Before → After
//	KOpDone vacuum.done     relpages Before → After; Arg 0: targets forgotten
//
// The other FSM events (search steps, page checks, skips, decisions,
// operations) change only the searches and the counters. Of the buffer
// pool's events the view applies the reads (KHit, KMiss: it counts them
// by fork for its heaps) and errors (KError ends the operation of a
// backend that has one); it ignores the rest, and the SLRU's, entirely.
//
// Invariants:
//   - Applying a trace in order from New(SetupOf(store)) gives, after
//     every event, the store's state at that event: fork sizes, relpages,
//     every heap page's word, every FSM page's nodes and fp_next_slot,
//     each session's target blocks and local map; and, at every event of
//     the FSM classes, the sessions' fsm.Stats (the engine counts a read
//     just after the pool's events of it). The tests compare them at
//     every event of random insert/delete/vacuum runs in both variants.
//     Check verifies that each event fits before Apply.
//   - Unapply(e) right after Apply(e) restores exactly the previous view:
//     values go back to e's Before, a heap the event added goes, and the
//     current event, the backend's search and, for a KTarget, the target
//     as it was set (block and generation) come from the history, a
//     persistent chain of applied events shared by clones (a
//     viewkit.History; the view passes the viewkit/viewtest suite).
//   - Clone copies the heaps' page words, lanes and local maps and shares
//     FSM pages copy-on-write; Snapshot and TrimHistory bound the memory a
//     timeline keeps (the same method set as viz/poolview and viz/slruview:
//     Apply, Unapply, UnapplyLast, Clone, Snapshot, TrimHistory,
//     HistoryLen, Fingerprint, Equal, Diff).
//   - Listings are in setup, physical-block or actor order, never in map
//     order.
//
// Not shown: a torn page header (TearFSMHeader) is logged but not kept as
// state (the next read zeroes the page, node by node, in events); the
// store's transaction ids and pg_class statistics other than relpages.
//
// Usage:
//
//	w, _ := fsm.NewSeed(fsm.SeedConfig{Tables: 1, FillFactor: 20, Blocks: 4, Log: trace.NewLog()})
//	mark := w.Pool.Log().Len()
//	v := fsmview.New(fsmview.SetupOf(w.Store, w.FillSession()))
//	_ = w.Fill()
//	for _, e := range w.Pool.Log().Events()[mark:] {
//		v.Apply(e)
//	}
//	l := v.Lane(2)               // the fill session's backend
//	fmt.Println(v.Text(l.Search)) // heap_insert t1 (28 B tuple), wants 6585 B free … done
//	p := v.HeapPage(16384, 0)     // used and free bytes, line pointers, category
package fsmview
