// Package fsm models PostgreSQL 15's free space map and how an insert
// finds a page for a new row, over the simulated buffer pool of package
// bufmgr, with the reverted PostgreSQL 12 "no FSM for small tables"
// patch as a variant (seed 002), and PostgreSQL 16's bulk relation
// extension when the pool models 16 or later.
//
// What it models, and from where (function names are PostgreSQL's):
//
//   - one FSM page (fsmpage.c): a binary max-tree of NodesPerPage = 8164
//     one-byte nodes, 4095 inner and 4069 leaves (SlotsPerFSMPage), with
//     fp_next_slot; fsm_set_avail (propagate up until unchanged, rebuild
//     when the root did not take the value), fsm_search_avail (start at
//     fp_next_slot, climb right-then-up, descend left first, rebuild and
//     restart on a torn page, set fp_next_slot even under a share lock),
//     fsm_rebuild_page, fsm_truncate_avail (Page);
//   - the tree of FSM pages (freespace.c): FSM_TREE_DEPTH 3, the logical
//     address (level, page) and its depth-first physical block number
//     (fsm_logical_to_physical: Address.Physical), categories of 32 bytes
//     (fsm_space_avail_to_cat rounds down, fsm_space_needed_to_cat up,
//     0 → 1, more than 8160 an ERROR), the fork created lazily and
//     zero-extended up to the page needed (fsm_readbuf, fsm_extend: three
//     pages for a one-block heap); GetPageWithFreeSpace and fsm_search with
//     its stale-parent fix and restart (and the 2024 back-patch of
//     fsm_does_block_exist), RecordPageWithFreeSpace (the leaf page only),
//     RecordAndGetPageWithFreeSpace, FreeSpaceMapVacuum[Range],
//     GetRecordedFreeSpace;
//   - heap pages as far as free space goes (bufpage.c): the 24-byte
//     header, 4-byte line pointers, MAXALIGN'd tuples, PageGetHeapFreeSpace
//     (0 once MaxHeapTuplesPerPage pointers are used), unused pointer reuse
//     and PageTruncateLinePointerArray (HeapPage);
//   - RelationGetBufferForTuple (hio.c): fillfactor's reserve
//     (RelationGetTargetPageFreeSpace), the nearly-empty cap, the cached
//     target block (smgr_targblock, per backend), the FSM, the last page,
//     RecordAndGetPageWithFreeSpace on a page that proves too full, and
//     extension by one page; heap_insert, heap_delete (heapam.c) and a
//     VACUUM of a table without indexes (lazy_scan_heap) that skips runs
//     of 32 or more all-visible pages (lazy_scan_skip), removes deleted
//     tuples, sets pages all-visible (creating the visibility map,
//     visibilitymap_pin) and records every page's free space, then runs
//     FreeSpaceMapVacuumRange and visibilitymap_count, and updates
//     pg_class (vac_update_relstats, vac_estimate_reltuples) only when a
//     value changed;
//   - PostgreSQL 16's bulk extension (extend16.go; the store runs it when
//     its pool models 16, 17 or 18, config pg=, and the variant is
//     Always; docs/pg16-extension.md lists the facts): RelationAddBlocks
//     (hio.c, REL_16–REL_18_4) for heap_insert (num_pages 1, no
//     BulkInsertState): the waiter count (RelationExtensionLockWaiterCount:
//     lock->nRequested, the holder included, read before the backend asks
//     for the lock), extend_by_pages = 1 + waitcount capped at
//     MAX_BUFFERS_TO_EXTEND_BY (64), ExtendBufferedRelBy
//     (ExtendBufferedRelShared, bufmgr.c) with LimitAdditionalPins at the
//     version's default MaxBackends, the first page kept content-locked
//     (EB_LOCK_FIRST) until heap_insert lets it go, the others recorded
//     with RecordPageWithFreeSpace (8168 bytes) and
//     FreeSpaceMapVacuumRange(first + 1, last), the did_unlock re-check;
//     the relation extension lock (LockRelationForExtension, lmgr.c) as a
//     heavyweight lock: a holder and a FIFO queue of sleeping waiters,
//     granted to the first on release (ProcLockWakeup, proc.c);
//   - the small-skip variant (PG 12 devel, b0eaa4c51b and follow-ups,
//     reverted by 7db0cde6b5): fsm_allow_writes, no FSM while the heap
//     has at most the threshold's pages (4, configurable: the thread also
//     built 8), the backend-local map marking every other block from the
//     last (fsm_local_set), tried from the end (fsm_local_search), cleared
//     on a hit, on extension and on abort (FSMClearLocalMap);
//   - the seed 002 workload (NewSeed, Fill): 100 tables pre-filled with one
//     row and vacuumed, then filled to 4 or 8 pages at fillfactor 20 or 30,
//     counting FSM and heap pages read per table.
//
// Where the contents live: a Store holds the page contents of every
// relation, keyed by relation, fork and block (the "disk"); the buffer pool
// decides what is cached. Every FSM, heap and visibility map page access
// is a bufmgr ReadBuffer and ReleaseBuffer of the right fork by the
// session's backend, so it shows in the trace and in the pool's counters
// as a real buffer access, and modifications dirty the buffer
// (MarkBufferDirty; MarkBufferDirtyHint is not separate in bufmgr).
//
// Events (see show.go for the encoding, Describe to print them) carry
// the session's actor and a site of this package's pseudo-code (sites.go):
// each FSM node read or written on the search path with its page and node
// number, fp_next_slot, each heap page tried with its free space against
// the target, the FSM pages not read because the fork is missing or short
// (fsmread.beyond: what a scene shows as skipped), the local map's
// entries, forks created and extended. They use the FSM classes and kinds
// of package trace (OFSMRel, OFSMPage, OFSMNode, OHeapPage, OLocalMap;
// KCategory, KNodeStore, KSearchStep, KNextSlot, KFSMSkip, KPageTried,
// KHeapPage, KLocalMap, KLocalMapSize, KForkSize, KTarget, and the generic
// KLoad, KOp, KOpDone, KError), which the buffer pool's view ignores.
// Every change to an FSM page, a heap page (HeapPage.Word), a fork's
// size, a target block or the local map is an event carrying the old
// value, emitted right after the change and before any other event, so
// that a viewer (viz/fsmview) agrees with the engine after every event and
// can step back (TestFSMEventsReplay). A torn write (TearFSMNode) is
// logged as the system's.
//
// Invariants: a page built by SetAvail and Rebuild only is consistent
// (every inner node is the maximum of its children; Page.Consistent);
// fsm_search_avail on a consistent page returns the first slot at or after
// fp_next_slot (wrapping) whose value qualifies, or -1 (tested against a
// linear scan); on a torn page it repairs and returns the same; after
// FreeSpaceMapVacuum, GetPageWithFreeSpace returns the first qualifying
// heap block (tested against LinearSearch); every pin a session takes is
// released before its call returns, or by Abort after an ERROR. Broken
// invariants panic; caller mistakes are errors; ERRORs are *PGError (or
// bufmgr's) and abort the session's transaction.
//
// Not modelled: WAL (so no XLogRecordPageWithFreeSpace at redo) and
// checksums; content locks (bufmgr exports no LockBuffer; each step of a
// page's contents is atomic between the buffer manager's yields);
// at 15, concurrent extension (the extension lock is always granted, so
// RelationAddExtraBlocks never runs; at 16 and later the lock is
// modelled, but fsm_extend and vm_extend do not take it); content locks,
// except the one an extender holds on its new page until heap_insert
// lets it go (RBM_ZERO_AND_LOCK at 15, untraced unless someone waits;
// EB_LOCK_FIRST at 16 and later: docs/pg16-extension.md §8); BulkInsertState
// (COPY's bistate, at 16 too: already_extended_by, next_free, last_free);
// UPDATE's otherBuffer; HOT, page pruning on access, index vacuuming,
// VACUUM's truncation of empty pages at the end, freezing; FreeSpaceMapPrepareTruncateRel; TOAST (the caller
// passes the tuple length as stored). A new block read by the extension
// path is a bufmgr miss with a simulated read, where PostgreSQL's P_NEW
// writes a zero page with smgrextend. VACUUM's update of pg_class
// invalidates every backend's cached target block (the relcache
// invalidation closes the SMgrRelation that holds smgr_targblock), but
// only when relpages, reltuples, relallvisible or relfrozenxid changed, as
// vac_update_relstats writes nothing otherwise; for relfrozenxid every
// HeapInsert and HeapDelete counts as one committed transaction with its
// own xid (a one-row INSERT or DELETE), and no other transaction runs.
// Direct calls of GetPageWithFreeSpace or RecordAndGetPageWithFreeSpace
// in small-skip may leave the local map set (RelationGetBufferForTuple
// never does); HeapInsert clears such a leftover before it starts.
//
// Usage:
//
//	pool, _ := bufmgr.NewPool(128, trace.NewLog())
//	st, _ := fsm.NewStore(pool, fsm.Options{Variant: fsm.Always})
//	rel := &bufmgr.Relation{Name: "t", Number: bufmgr.FirstNormalObjectId, Permanent: true}
//	h, _ := st.NewHeap(rel, 100)
//	b, _ := pool.NewBackend("A")
//	s, _ := st.NewSession(b)
//	tid, err := s.HeapInsert(h, fsm.HeapTupleLen(4)) // one int column
//	err = s.Vacuum(h)                                // creates the FSM: 3 pages
//	free, err := s.GetRecordedFreeSpace(h, 0)        // 8128
package fsm
