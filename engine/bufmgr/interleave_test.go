package bufmgr_test

import (
	"fmt"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/sched"
	"bufferlab/engine/trace"
)

// Targeted interleavings of two or three backends, driven step by step, for
// the concurrent paths of BufferAlloc that random schedules reach only
// rarely: waiting for another backend's read, taking over a read, an
// insert collision, the final recheck giving a victim up, a failed
// conditional content lock. Invariants are checked after every event.

// drivePolicy resumes whichever backend the test names.
type drivePolicy struct{ target trace.Actor }

func (d *drivePolicy) Name() string { return "drive" }

func (d *drivePolicy) Pick(live []*sched.Proc, step int) (int, error) {
	for i, p := range live {
		if p.Actor == d.target {
			return i, nil
		}
	}
	return 0, fmt.Errorf("drive: backend %s has finished", trace.ActorName(d.target))
}

type driver struct {
	t   *testing.T
	p   *bufmgr.Pool
	log *trace.Log
	d   *drivePolicy
	s   *sched.Scheduler
	inv func() error
}

func newDriver(t *testing.T, nbuffers int) *driver {
	dr := &driver{t: t, log: trace.NewLog(), d: &drivePolicy{}}
	p := testPool(t, nbuffers, dr.log, bufmgr.Options{})
	dr.p = p
	dr.inv = watchInvariants(dr.log, p)
	dr.s = sched.New(dr.d)
	return dr
}

func (dr *driver) backend(name string) *bufmgr.Backend {
	b, err := dr.p.NewBackend(name)
	if err != nil {
		dr.t.Fatal(err)
	}
	return b
}

func (dr *driver) spawn(b *bufmgr.Backend, body func() error) *sched.Proc {
	return b.Spawn(dr.s, func(sched.Yield) error {
		return body()
	})
}

func site(name string) trace.Site {
	s, ok := trace.LookupSite(name)
	if !ok {
		panic("no site " + name)
	}
	return s
}

// until resumes pr until cond holds (checked before each step) or pr ends.
func (dr *driver) until(pr *sched.Proc, what string, cond func() bool) {
	dr.t.Helper()
	dr.d.target = pr.Actor
	for n := 0; !cond(); n++ {
		if pr.Done() {
			dr.t.Fatalf("%s finished before %s", pr.Name, what)
		}
		if n > 10000 {
			dr.t.Fatalf("%s: no %s after %d steps", pr.Name, what, n)
		}
		if _, err := dr.s.Step(); err != nil {
			dr.t.Fatalf("stepping %s towards %s: %v", pr.Name, what, err)
		}
		if err := dr.inv(); err != nil {
			dr.t.Fatal(err)
		}
	}
}

func (dr *driver) untilSite(pr *sched.Proc, name string) {
	dr.t.Helper()
	s := site(name)
	dr.until(pr, "site "+name, func() bool { return !pr.Done() && pr.Pending().Site == s })
}

func (dr *driver) finish(pr *sched.Proc) {
	dr.t.Helper()
	dr.until(pr, "the end", pr.Done)
	if pr.Err() != nil {
		dr.t.Fatalf("%s: %v", pr.Name, pr.Err())
	}
}

func (dr *driver) count(k trace.Kind, s trace.Site) int {
	n := 0
	for _, e := range dr.log.Events() {
		if e.Kind == k && (s == 0 || e.Site == s) {
			n++
		}
	}
	return n
}

type readResult struct {
	buf bufmgr.Buffer
	hit bool
}

// spawnRead spawns b reading block blk of rel's main fork (and keeping it
// pinned); the result lands in the returned readResult when b finishes.
func (dr *driver) spawnRead(b *bufmgr.Backend, rel *bufmgr.Relation, blk uint32) (*readResult, *sched.Proc) {
	r := &readResult{}
	pr := dr.spawn(b, func() (err error) { r.buf, r.hit, err = b.ReadBuffer(rel, bufmgr.MainForkNum, blk, nil); return })
	return r, pr
}

// twoReaders is the start that the interleavings of two reads of one
// block share: a 16-buffer pool, a 4-block relation, and backends A and B
// spawned reading its block 0 (results ra and rb, processes pa and pb).
func twoReaders(t *testing.T) (dr *driver, A, B *bufmgr.Backend, ra, rb *readResult, pa, pb *sched.Proc) {
	dr = newDriver(t, 16)
	rel := testRel("t", bufmgr.FirstNormalObjectId, 4)
	A, B = dr.backend("A"), dr.backend("B")
	ra, pa = dr.spawnRead(A, rel, 0)
	rb, pb = dr.spawnRead(B, rel, 0)
	return dr, A, B, ra, rb, pa, pb
}

// end aborts the backends' transactions (releasing their pins) and checks
// that the pool is left quiescent.
func (dr *driver) end(bs ...*bufmgr.Backend) {
	dr.t.Helper()
	for _, b := range bs {
		b.AbortTransaction()
	}
	if err := dr.p.CheckQuiescent(); err != nil {
		dr.t.Fatal(err)
	}
}

// A misses block 0 and is reading it (BM_IO_IN_PROGRESS) when B looks it
// up: B pins the buffer, finds it not valid, waits in WaitIO, and returns a
// hit once A's TerminateBufferIO sets BM_VALID. Only A reads.
func TestInterleaveWaitForRead(t *testing.T) {
	dr, A, B, ra, rb, pa, pb := twoReaders(t)

	dr.untilSite(pa, "read.smgrread")
	s := dr.p.Desc(0).State()
	if s&(bufmgr.BmIOInProgress|bufmgr.BmTagValid) != bufmgr.BmIOInProgress|bufmgr.BmTagValid || s&bufmgr.BmValid != 0 {
		t.Fatalf("A reading block 0 into buffer 0: %s", bufmgr.StateString(s))
	}
	dr.until(pb, "B waiting for the I/O", func() bool { return pb.Pending().Wait && pb.Pending().Site == site("waitio.sleep") })
	dr.finish(pa)
	dr.finish(pb)
	if ra.hit || !rb.hit || ra.buf != rb.buf || ra.buf != 1 {
		t.Fatalf("A %+v, B %+v: want A to miss and B to hit buffer 1", ra, rb)
	}
	if B.Stats.IOWaits == 0 || A.Stats.IOWaits != 0 || dr.count(trace.KIORead, 0) != 1 {
		t.Fatalf("B I/O waits %d, A %d, reads %d: want B to wait and one read", B.Stats.IOWaits, A.Stats.IOWaits, dr.count(trace.KIORead, 0))
	}
	if s := dr.p.Desc(0).State(); bufmgr.StateRefcount(s) != 2 || s&bufmgr.BmValid == 0 || bufmgr.StateUsagecount(s) != 2 {
		t.Fatalf("buffer 0 pinned by both: %s, want rc=2 usage=2 VALID", bufmgr.StateString(s))
	}
	dr.end(A, B)
}

// A has inserted block 0's mapping and released the partition lock but not
// yet started the I/O when B looks the block up: B finds it not valid,
// StartBufferIO succeeds for B, so B reads the block (a miss for B) and A,
// whose StartBufferIO then waits and finds BM_VALID, reports a hit —
// PostgreSQL 15's BufferAlloc/StartBufferIO hand-over.
func TestInterleaveReadTakenOver(t *testing.T) {
	dr, A, B, ra, rb, pa, pb := twoReaders(t)

	dr.untilSite(pa, "startio.lock")
	dr.untilSite(pb, "read.smgrread")
	dr.until(pa, "A waiting for B's read", func() bool { return pa.Pending().Wait && pa.Pending().Site == site("waitio.sleep") })
	dr.finish(pb)
	dr.finish(pa)
	if !ra.hit || rb.hit || ra.buf != rb.buf {
		t.Fatalf("A %+v, B %+v: want B to read (miss) and A to find it valid (hit)", ra, rb)
	}
	if A.Stats.Hits != 1 || B.Stats.Misses != 1 || A.Stats.IOWaits == 0 || dr.count(trace.KIORead, 0) != 1 {
		t.Fatalf("A %+v, B %+v, reads %d", A.Stats, B.Stats, dr.count(trace.KIORead, 0))
	}
	dr.end(A, B)
}

// A and B both miss block 0. B has looked it up (not found) and waits for
// the partition lock while A inserts the mapping: B's BufTableInsert then
// collides, B unpins its own victim and pins A's buffer. As in PG15 (not
// PG16+), B's victim, taken from the freelist, is neither tagged nor put
// back on the freelist: only the clock sweep can find it again.
func TestInterleaveInsertCollision(t *testing.T) {
	dr, A, B, ra, rb, pa, pb := twoReaders(t)

	dr.untilSite(pa, "alloc.lock-new")     // A has its victim, no partition lock
	dr.untilSite(pb, "alloc.lock-new")     // B has looked up (miss) and has its victim
	dr.untilSite(pa, "alloc.recheck-lock") // A has inserted block 0's entry
	dr.until(pb, "B waiting for the partition", func() bool { return pb.Pending().Wait })
	dr.finish(pa)
	dr.finish(pb)
	if ra.hit || !rb.hit || ra.buf != rb.buf {
		t.Fatalf("A %+v, B %+v: want A to miss and B to collide and hit A's buffer", ra, rb)
	}
	collisions := 0
	for _, e := range dr.log.Events() {
		if e.Kind == trace.KMapInsert && e.After != trace.NoBuffer {
			collisions++
		}
	}
	if collisions != 1 || B.Stats.FreelistVictims != 1 || A.Stats.FreelistVictims != 1 {
		t.Fatalf("collisions %d, freelist victims A %d B %d", collisions, A.Stats.FreelistVictims, B.Stats.FreelistVictims)
	}
	// B's victim: buffer 1 (A took 0).
	if s := dr.p.Desc(1).State(); s != 0 {
		t.Fatalf("B's abandoned victim: %s, want an empty state", bufmgr.StateString(s))
	}
	if fl := dr.p.Freelist(); len(fl) != 14 || fl[0] != 2 || dr.p.Desc(1).FreeNext() != bufmgr.FreeNextNotInList {
		t.Fatalf("freelist %v after the collision: want buffers 2..15 only", fl)
	}
	dr.end(A, B)
}

// fillPool reads blocks 0..n-1 of rel once each with an unscheduled
// backend, so that buffer i holds block i with usage count 1.
func fillPool(t *testing.T, b *bufmgr.Backend, rel *bufmgr.Relation, n int) {
	t.Helper()
	for blk := 0; blk < n; blk++ {
		buf, hit, err := b.ReadBuffer(rel, bufmgr.MainForkNum, uint32(blk), nil)
		if err != nil || hit || int(buf) != blk+1 {
			t.Fatalf("filling block %d: buffer %d hit %v err %v", blk, buf, hit, err)
		}
		if err := b.ReleaseBuffer(buf); err != nil {
			t.Fatal(err)
		}
	}
}

// A's clock sweep chooses buffer 0 (block 0) as its victim and pins it; B
// then hits block 0 through the old mapping and keeps it pinned. A's final
// recheck under the header lock finds refcount 2, so A deletes its new
// mapping entry, unpins and takes another victim (buffer 1).
func TestInterleaveRecheckGivesUp(t *testing.T) {
	dr := newDriver(t, 16)
	rel := testRel("t", bufmgr.FirstNormalObjectId, 100)
	A, B, F := dr.backend("A"), dr.backend("B"), dr.backend("fill")
	fillPool(t, F, rel, 16)
	ra, pa := dr.spawnRead(A, rel, 50)
	rb, pb := dr.spawnRead(B, rel, 0)

	dr.untilSite(pa, "alloc.lock-first") // victim chosen and pinned, partitions not locked yet
	if s := dr.p.Desc(0).State(); bufmgr.StateRefcount(s) != 1 || bufmgr.StateUsagecount(s) != 0 {
		t.Fatalf("A's victim buffer 0: %s", bufmgr.StateString(s))
	}
	dr.finish(pb)
	if !rb.hit || rb.buf != 1 {
		t.Fatalf("B %+v: want a hit on buffer 1 (block 0)", rb)
	}
	dr.finish(pa)
	if ra.hit || ra.buf != 2 {
		t.Fatalf("A %+v: want a miss into buffer 2 after giving buffer 1 up", ra)
	}
	if n := dr.count(trace.KUnlockHdr, site("alloc.recheck-unlock")); n != 1 {
		t.Fatalf("%d recheck give-ups, want 1", n)
	}
	if n := dr.count(trace.KMapDelete, site("alloc.recheck-delete")); n != 1 {
		t.Fatalf("%d deletions of the new entry, want 1", n)
	}
	if id, ok := dr.p.Lookup(rel.Tag(bufmgr.MainForkNum, 0)); !ok || id != 0 {
		t.Fatalf("block 0 should still be in buffer 0: %d %v", id, ok)
	}
	if id, ok := dr.p.Lookup(rel.Tag(bufmgr.MainForkNum, 50)); !ok || id != 1 {
		t.Fatalf("block 50 should be in buffer 1: %d %v", id, ok)
	}
	if _, ok := dr.p.Lookup(rel.Tag(bufmgr.MainForkNum, 1)); ok {
		t.Fatalf("block 1 should have been evicted")
	}
	dr.end(A, B)
}

// Every buffer but buffer 0 is pinned by H; buffer 0 is dirty, so A's sweep
// picks it and tries a conditional shared content lock to flush it. Before
// that, B has hit block 0 and is inside MarkBufferDirty holding the content
// lock exclusively: A's conditional acquire fails, A unpins buffer 0 and
// sweeps again; everything else is pinned, so A gets "no unpinned buffers
// available".
func TestInterleaveConditionalContentLockFails(t *testing.T) {
	dr := newDriver(t, 16)
	rel := testRel("t", bufmgr.FirstNormalObjectId, 100)
	A, B, H := dr.backend("A"), dr.backend("B"), dr.backend("H")
	fillPool(t, H, rel, 16)
	buf0 := pinBlock(t, H, rel, 0)
	if err := H.MarkBufferDirty(buf0); err != nil {
		t.Fatal(err)
	}
	if err := H.ReleaseBuffer(buf0); err != nil {
		t.Fatal(err)
	}
	for blk := uint32(1); blk < 16; blk++ {
		if _, _, err := H.ReadBuffer(rel, bufmgr.MainForkNum, blk, nil); err != nil {
			t.Fatal(err)
		}
	}
	var aErr error
	var rb readResult
	pa := dr.spawn(A, func() error { _, _, aErr = A.ReadBuffer(rel, bufmgr.MainForkNum, 50, nil); return nil })
	pb := dr.spawn(B, func() (err error) {
		if rb.buf, rb.hit, err = B.ReadBuffer(rel, bufmgr.MainForkNum, 0, nil); err != nil {
			return err
		}
		return B.MarkBufferDirty(rb.buf)
	})
	dr.untilSite(pa, "alloc.content-cond")
	dr.untilSite(pb, "dirty.load") // B holds buffer 0's content lock exclusively
	if l := dr.p.ContentLock(0); l.Excl != B.Actor {
		t.Fatalf("content lock of buffer 0: %+v, want B exclusive", l)
	}
	dr.finish(pa)
	if errCodeOf(aErr) != bufmgr.ErrNoUnpinnedBuffers {
		t.Fatalf("A: %v, want no unpinned buffers", aErr)
	}
	if A.Stats.ContentLockFails != 1 || dr.count(trace.KLWCondFail, site("alloc.content-cond")) != 1 || A.Stats.Writes != 0 {
		t.Fatalf("A: %+v: want one failed conditional content lock and no write", A.Stats)
	}
	dr.finish(pb)
	if s := dr.p.Desc(0).State(); s&bufmgr.BmDirty == 0 || bufmgr.StateRefcount(s) != 1 {
		t.Fatalf("buffer 0 after B dirtied it: %s", bufmgr.StateString(s))
	}
	dr.end(A, B, H)
}

// A backend waiting for a content lock keeps its pointer to the lock across
// yields; the lock must stay the same object after the holder releases it
// (an engine bug, fixed: content locks were deleted from Pool.content when
// free, so the waiter took an orphaned lock and its release panicked).
func TestContentLockWaiterBug(t *testing.T) {
	dr := newDriver(t, 16)
	rel := testRel("t", bufmgr.FirstNormalObjectId, 4)
	A, B := dr.backend("A"), dr.backend("B")
	buf := pinBlock(t, A, rel, 0)
	if _, _, err := B.ReadBuffer(rel, bufmgr.MainForkNum, 0, nil); err != nil {
		t.Fatal(err)
	}
	pa := dr.spawn(A, func() error { return A.MarkBufferDirty(buf) })
	pb := dr.spawn(B, func() error { return B.MarkBufferDirty(buf) })
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("engine panicked: %v", r)
		}
	}()
	dr.untilSite(pa, "dirty.load") // A holds the content lock
	dr.until(pb, "B waiting for the content lock", func() bool { return pb.Pending().Wait })
	dr.finish(pa) // A releases the lock
	dr.finish(pb) // B takes the same lock, dirties, releases
	if s := dr.p.Desc(0).State(); s&bufmgr.BmDirty == 0 {
		t.Fatalf("buffer 0 not dirty: %s", bufmgr.StateString(s))
	}
	dr.end(A, B)
}
