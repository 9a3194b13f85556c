// Package poolview holds the view models the scenes draw, derived from
// trace events only (DESIGN §4). Pool is everything the pool scene shows of
// PostgreSQL 15's shared buffer pool as modelled by engine/bufmgr; it never
// reads the engine: it starts from the initial pool and applies events.
//
// What a Pool holds:
//
//   - per buffer: the state word (decode with bufmgr.StateRefcount,
//     bufmgr.StateUsagecount and the bufmgr.Bm* flags), the packed tag
//     (bufmgr.UnpackTag; NoTag before the first retag), the freelist link,
//     and the content lock's holder word;
//   - the freelist head, the raw nextVictimBuffer counter and the hand
//     (counter % NBuffers), completePasses, numBufferAllocs and the holder
//     of buffer_strategy_lock;
//   - the 128 mapping partitions: lock holder word (exclusive holder in
//     bits 48–63, shared holders' mask below, as the engine records them)
//     and entries (packed tag → buffer id), listed sorted;
//   - one lane per backend: its private pin counts, its last event (where it
//     is in the pseudo-code, and whether it waits: KLWWait, KSpin, KIOWait),
//     its current operation (the last KOp: read.begin, scan.init, or any
//     other site by name), the scan in progress, its last error;
//   - counters by event kind (Counters.Stats gives bufmgr.Stats);
//   - the current event and what it changed (Changed, EffectOf);
//   - the trails (trail.go, Trails): per descriptor and per mapping
//     partition, what the operation of a backend did there (a drop
//     examined or invalidated it, the clock hand passed it or stopped on
//     it, a scan's ring holds it; a tag looked up in the partition, an
//     entry changed), shown while the operation runs and until the next
//     one begins in the view (viewkit.TrailShown).
//
// Which events change what (checked against engine/bufmgr):
//
//	KCAS KLockHdr KUnlockHdr KDirty   buffer Obj's state word Before → After
//	KRetag                            buffer Obj's tag Before → After (NoTag: none)
//	KFreelistPop                      first free Before → After; Obj's freeNext After → -2
//	KFreelistPush                     first free Before → After (= Obj); Obj's freeNext -2 → Before
//	KClockTick                        counter Before → Before+1 (After is the victim)
//	KClockWrap                        counter Before → After; completePasses Arg-1 → Arg
//	KLoad on the strategy             numBufferAllocs Before → After (its fetch_add)
//	KLWAcquire KLWRelease             partition / content lock Obj's holders Before → After
//	KSpinAcquire KSpinRelease         buffer_strategy_lock holder Before → After
//	KMapInsert (After = NoBuffer)     partition Obj gains Arg → Before
//	KMapDelete                        partition Obj loses Arg (→ Before)
//	KPrivRef                          the actor's private count on Obj Before → After
//
// Every other kind (loads, failed CAS, spins, waits, victims, usage-count
// decrements of the locked local copy, hits, misses, I/O, operations) only
// counts, and moves the lanes.
//
// Invariants:
//   - Applying a log in order from New's initial pool gives, after every
//     event, the engine's state at that event (the tests compare them at
//     every index); Check verifies that each event fits before applying it.
//   - Unapply(e) right after Apply(e) restores exactly the previous state,
//     current event and lanes included: memory words go back to e's Before
//     values; what an event cannot restore by itself (the previous current
//     event, a lane's previous operation) comes from the history, a
//     persistent chain of applied events shared by clones (a
//     viewkit.History; the view passes the viewkit/viewtest suite).
//   - Clone is a deep copy in effect and cheap in cost: the storage is
//     copy-on-write in small pieces (below), the history is immutable. A
//     keyframe (Snapshot) costs what changed since the last, plus a
//     directory of one pointer per 2,048 buffers: not the pool's size.
//   - Listings (entries, pins, freelist) are sorted or in list order, never
//     in map order; Fingerprint hashes a canonical encoding.
//   - A trail's marks are a word beside each descriptor (in its chunk) and
//     partition, naming the operation that made them; nothing is cleared
//     when an operation begins, so Apply stays O(1) and Unapply puts back
//     the word the history node kept. The marks after any moves equal a
//     fresh replay's (Diff and Fingerprint compare them).
//
// Storage (pool.go, cowmap.go): every piece a clone shares carries the
// token of the one pool that may write it in place; any other pool copies
// it first, and Clone gives both pools fresh tokens.
//
//   - Buffers: chunks of 32 descriptors' words (1 kB), 64 chunks to a block
//     (a chunk's ownership is a bit of its block's), the blocks under a
//     directory of nbuffers/2048 pointers that Clone copies (512 bytes at
//     131,072 buffers). The first write to a descriptor after a clone
//     copies its block (528 bytes) and its chunk.
//   - Mapping partitions: 16 groups of 8 partitions' lock holder words,
//     mark words and mapping tables (200 bytes a group, copied on the
//     first write to one of them). A partition's table (packed tag →
//     buffer id) and a backend's pin counts (buffer id → count) are
//     cowMaps: sorted buckets by a hash of the key, √(2·entries) to twice
//     that of them, each copied on its first write; the map's header (8
//     bytes a bucket) too. A lookup hashes once and binary-searches one bucket.
//   - Lanes (a name and a pin map each) are copied by Clone; the relation
//     names are shared, never written after New.
//
// TestKeyframeCost measures a keyframe and its first writes (a buffer, a
// partition's lock and entries, a pin): 3,152 bytes at 16,384 buffers and
// 4,224 at 131,072, where the flat storage before cost 20,112 and 112,928.
//
// Usage:
//
//	v := poolview.New(r.Pool().NBuffers, relNames, r.BackendNames())
//	for _, e := range r.Log().Events() {
//		v.Apply(e)
//	}
//	b := v.Buffer(v.Hand())   // the descriptor under the clock hand
//	lane := v.Lane(1)         // backend A: pins, operation, waiting
//	v.Unapply(r.Log().At(r.Log().Len() - 1))
//
// The timeline (package viz/timeline) keeps snapshots as keyframes and trims
// the live view's history (TrimHistory), so memory stays proportional to
// what changes, not to the log.
package poolview
