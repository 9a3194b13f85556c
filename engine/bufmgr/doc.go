// Package bufmgr models PostgreSQL 15's shared buffer pool
// (src/backend/storage/buffer): buffer descriptors with the 32-bit atomic
// state word, buffer tags, the partitioned mapping table, the freelist and
// the clock sweep, BULKREAD rings, and the read path with hits and misses.
//
// What it models, and from where (function names are PostgreSQL's):
//
//   - ReadBuffer_common and BufferAlloc (bufmgr.c, PG15 order: the new
//     mapping entry is inserted before the old one is deleted, holding both
//     partition locks, lower number first); PinBuffer and UnpinBuffer as CAS
//     loops on the state word that wait out BM_LOCKED (9.6–18);
//     PinBuffer_Locked; MarkBufferDirty; StartBufferIO, WaitIO,
//     TerminateBufferIO; FlushBuffer for a dirty victim;
//   - StrategyGetBuffer, ClockSweepTick, GetBufferFromRing and
//     AddBufferToRing (freelist.c): the freelist, then the sweep with its
//     trycounter, usage-count decrements, pinned buffers never decremented,
//     and ERROR "no unpinned buffers available";
//   - BufTableLookup/Insert/Delete (buf_table.c) over 128 partitions chosen
//     by hash_bytes(tag) % 128, each with an LWLock taken shared to look up
//     and exclusively to change;
//   - the per-backend private reference counts (PrivateRefCountArray of 8
//     entries spilling into a hash), so the shared refcount counts backends;
//   - a heap sequential scan (initscan, heapgetpage) using a BULKREAD ring of
//     Min(32, NBuffers/8) buffers for relations over NBuffers/4 blocks, and
//     for those, with synchronize_seqscans (Options.SyncScans), starting
//     where the last scan of the relation reported being (syncscan.c's
//     LRU list of 20 locations, a report every 16 pages; syncscan.go).
//
// Later versions' read paths, Options.Version (config pg=), each in its own
// file with its pseudo-code: 16's BufferAlloc with one mapping partition
// lock at a time (alloc16.go); 17's StartReadBuffers/WaitReadBuffers and
// read streams through engine/readstream (read17.go); 18's asynchronous
// reads through engine/aio, with the I/O workers as processes of their own
// that the scheduler interleaves with the backends (read18.go). The rings
// follow each version's sizes (freelist.go).
//
// Every shared-memory operation is preceded by a yield to the scheduler
// (package sched) and followed by an event (package trace) whose Site is the
// line of the function's pseudo-code (sites.go) that did it. With a nil log
// and no scheduler (fast mode) the same code runs straight through, except
// that the hottest functions (LWLockAcquire/Release of a free lock,
// PinBuffer, UnpinBuffer) take a labelled fast path doing the same steps
// without the hooks (Backend.hooked; TestFastPathMatchesModelled compares
// the two). The build tag bufferlab_nohooks compiles both hooks out to
// measure what they cost.
//
// The state word (see state.go): refcount bits 0–17, usage count 18–21
// (capped at 5), flags 22–31 with PostgreSQL's values. Updates follow the
// real rules: while BM_LOCKED is set only the holder writes the word, and
// unlocks with one plain store; everyone else uses CAS loops.
//
// Invariants (CheckInvariants, checked after every event in the tests):
// usage ≤ 5; refcount equals the number of backends with a private entry;
// every mapping entry is in the partition its tag hashes to; outside
// partitions held exclusively, entries and buffer tags agree both ways; the
// freelist is acyclic and matches the freeNext links.
//
// Not modelled (yet): WAL (so no XLogFlush before writing a dirty victim and
// no StrategyRejectBuffer), the background writer, checkpoints, local
// (temporary) buffers, page contents. A read past the end of a relation is
// detected before BufferAlloc rather than inside mdread (no victim is taken).
//
// Usage:
//
//	pool, _ := bufmgr.NewPool(16, trace.NewLog())
//	a, _ := pool.NewBackend("A")
//	rel := &bufmgr.Relation{Name: "t1", Number: 16384, Permanent: true}
//	rel.NBlocks[bufmgr.MainForkNum] = 17
//	buf, hit, err := a.ReadBuffer(rel, bufmgr.MainForkNum, 0, nil)
//	...
//	a.ReleaseBuffer(buf)
package bufmgr
