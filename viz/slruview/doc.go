// Package slruview is the view model of an SLRU cache (engine/slru, the
// commit log and its siblings): everything the SLRU scene draws, derived
// from trace events only (DESIGN §4). It starts from the SLRU's initial
// state, given by a Geometry (variant, slots, bank size, bank rule, the
// initial latest_page_number), and applies events; it never reads the
// engine, and it does not depend on viz/poolview (the buffer pool's view).
//
// What a View holds:
//
//   - per slot: page_number, page_status (EMPTY, READ_IN_PROGRESS, VALID,
//     WRITE_IN_PROGRESS), page_dirty, page_lru_count, its age (the bank's
//     bank_cur_lru_count − page_lru_count: the LRU distance
//     SlruSelectLRUPage compares) and the holders of its buffer (I/O) lock;
//   - per bank: the holders of its lock (ControlLock for slru=single), the
//     backends waiting for it and in which mode, bank_cur_lru_count, and
//     for slru=banks+hash its page → slot table (which maps exactly the
//     bank's non-EMPTY slots, so the view derives it from them and checks
//     the KMapInsert/KMapDelete events against it);
//   - latest_page_number;
//   - per backend (a lane): its last event, whether it waits for a lock,
//     its counters, and its Lookup: the operation (get xid, set, read-only
//     page, …), the page sought and its bank, the phase of the search
//     (scan, probe, found, victim, read, write, wait-io, done, error), the
//     slot being compared and the ones already compared in this pass, the
//     probe's result, the victim search's candidates with their LRU
//     counts, ages and verdicts, the victim and why (empty, oldest clean,
//     oldest dirty: written first), the hit or miss, and its trail: the
//     slots the operation compared or its probes found, in every pass,
//     shown until the next operation begins (TrailShown);
//   - counters (Counters): lookups, hits, misses, slots compared, probes,
//     victims, writes, waits; Counters.Stats gives the engine's
//     slru.Stats, which the view matches exactly, in total and per backend.
//
// Which events change what (engine/slru/events.go lists what they carry):
//
//	KSlotState KDirty        slot Obj's page, status, dirty flag: Before → After
//	KLRUCount on a bank      bank_cur_lru_count Before → After (a victim pass begins)
//	KLRUCount on a slot      page_lru_count Before → After (a reset ahead of cur_count)
//	KLRUTouch                page_lru_count Before → After, bank_cur_lru_count Arg → After
//	KStore on the SLRU       latest_page_number Before → After
//	KLWAcquire KLWRelease    a bank lock's or a slot buffer lock's holders Before → After
//
// The other kinds (scans, probes, candidates, victims, hits, misses, I/O,
// waits, operations, errors) change only the lanes and the counters.
// Events whose class is not an SLRU class (trace.ObjClass.IsSLRU) are
// ignored, as the pool view ignores the SLRU's.
//
// Invariants:
//   - Applying an SLRU's log in order from New(GeometryOf(s)) gives, after
//     every event, the SLRU's state at that event: slots, banks, tables,
//     locks, latest page, counters (the tests compare them at every event
//     of random multi-backend runs under a seeded random schedule, for
//     every variant). Check verifies that each event fits before Apply.
//   - Unapply(e) right after Apply(e) restores exactly the previous view:
//     words go back to e's Before values; the previous current event and
//     the backend's previous lookup come from the history, a persistent
//     chain of applied events shared by clones (a viewkit.History; the
//     view passes the viewkit/viewtest suite).
//   - Clone copies the slot and bank arrays (a few dozen bytes a slot) and
//     shares the history; Snapshot and TrimHistory bound the memory a
//     timeline keeps, as viz/poolview's do (the same method set: Apply,
//     Unapply, UnapplyLast, Clone, Snapshot, TrimHistory, HistoryLen,
//     Fingerprint, Equal, Diff).
//   - Listings (waiters, table entries, candidates) are in actor, page or
//     slot order, never in map order.
//
// Usage:
//
//	s, _ := slru.New(slru.Config{Variant: slru.Banks, Slots: 32}, trace.NewLog())
//	s.StartupCLOG(nextXid)
//	v := slruview.New(slruview.GeometryOf(s), []string{"sys", "A", "B"})
//	// … run backends …
//	for _, e := range s.Log().Events() {
//		v.Apply(e)
//	}
//	a := v.Lane(1)                 // backend A
//	l := a.Lookup                  // its search: phase, bank, slot examined, candidates
//	fmt.Println(v.Path(l), v.Status(a))
//	b := v.Bank(0)                 // lock holders, waiters, bank_cur_lru_count
package slruview
