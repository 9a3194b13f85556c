package fsm

import (
	"fmt"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
)

// PostgreSQL 16's bulk relation extension (hio.c's RelationAddBlocks over
// bufmgr.c's ExtendBufferedRelBy, new in 16 with commit 00d1e02be2, "hio:
// Use ExtendBufferedRelBy() to extend tables more efficiently"; the same
// text at REL_16, REL_17_9 and REL_18_4), and the relation extension lock
// it queues on (lmgr.c's LockRelationForExtension, a heavyweight lock).
// The store runs it when its pool models PostgreSQL 16 or later
// (bufmgr.Options.Version, config pg=) and its variant is Always; at 15,
// and in the small-skip variant (a patch on 12's hio.c), the heap still
// grows one page at a time with the lock always granted (hio.go).

// MaxBuffersToExtendBy is MAX_BUFFERS_TO_EXTEND_BY (hio.c, RelationAddBlocks,
// PG 16–18): at most 64 pages an extension, as they are all pinned at once.
const MaxBuffersToExtendBy = 64

// ExtLock is a relation's extension lock (LOCKTAG_RELATION_EXTEND, taken in
// ExclusiveLock mode, which conflicts with itself): who holds it and who
// waits, in the order they asked. A request joins the queue when the lock
// is held or anyone waits (LockAcquire: a conflict with the holder or with
// a waiter's mode, lock->waitMask); a release grants it to the first
// waiter (LockRelease → ProcLockWakeup, proc.c), who wakes holding it.
type ExtLock struct {
	Holder trace.Actor   // 0: free
	Queue  []trace.Actor // waiters, first to be granted first
}

// Requested is lock->nRequested, what RelationExtensionLockWaiterCount
// returns (lmgr.c → LockWaiterCount, lock.c, PG 16–18): the holder and the
// waiters, 0 when nobody has asked (the lock is not in the lock table).
func (l *ExtLock) Requested() int {
	n := len(l.Queue)
	if l.Holder != 0 {
		n++
	}
	return n
}

// Word packs the lock for an event: the holder's actor in bits 32–47 and
// nRequested in bits 0–31 (ExtLockWord).
func (l *ExtLock) Word() uint64 { return ExtLockWord(l.Holder, l.Requested()) }

// ExtLockWord packs an extension lock's holder and nRequested.
func ExtLockWord(holder trace.Actor, requested int) uint64 {
	return uint64(holder)<<32 | uint64(uint32(requested))
}

// UnpackExtLockWord is ExtLockWord's inverse.
func UnpackExtLockWord(w uint64) (holder trace.Actor, requested int) {
	return trace.Actor(w >> 32), int(uint32(w))
}

// ExtensionLock returns a copy of h's relation extension lock.
func (h *Heap) ExtensionLock() ExtLock {
	return ExtLock{Holder: h.ext.Holder, Queue: append([]trace.Actor(nil), h.ext.Queue...)}
}

// hio16 reports whether RelationGetBufferForTuple extends through
// RelationAddBlocks (PostgreSQL 16 and later, variant Always).
func (s *Session) hio16() bool {
	return s.store.opt.Variant == Always && s.store.pool.Version() >= 16
}

// lockRelationForExtension is LockRelationForExtension(rel, ExclusiveLock)
// (lmgr.c → LockAcquire, lock.c; ProcSleep, proc.c; PG 9.6–18): granted at
// once when nobody holds or awaits the lock; otherwise the backend joins
// the wait queue and sleeps until a release grants it the lock. Cost: one
// step (the lock table's partition lock) and, contended, a sleep that takes
// no steps. Unscheduled, a backend can only find the lock free.
func (s *Session) lockRelationForExtension(h *Heap) {
	l := &h.ext
	me := s.b.Actor
	rel := h.Rel.Number
	s.b.Step(sExtLockGrant)
	before := l.Word()
	if l.Holder == 0 && len(l.Queue) == 0 {
		l.Holder = me
		s.emit(trace.KLoad, sExtLockGrant, trace.OFSMRel, rel, before, l.Word(), 0)
		return
	}
	if !s.b.Scheduled() {
		panic(fmt.Sprintf("fsm: backend %s must wait for %s's extension lock (held by actor %d) but runs unscheduled", s.b.Name, h.Rel.Name, l.Holder))
	}
	l.Queue = append(l.Queue, me)
	s.emit(trace.KLoad, sExtLockWait, trace.OFSMRel, rel, before, l.Word(), uint64(l.Holder))
	defer func() {
		// A backend stopped while asleep (its run ended in an error)
		// leaves the queue, so the lock is not granted to nobody.
		if l.Holder != me {
			for i, a := range l.Queue {
				if a == me {
					l.Queue = append(l.Queue[:i], l.Queue[i+1:]...)
					break
				}
			}
		}
	}()
	s.b.Sleep(sExtLockWait, func() bool { return l.Holder == me })
	s.emit(trace.KLoad, sExtLockWoken, trace.OFSMRel, rel, l.Word(), l.Word(), 0)
}

// unlockRelationForExtension is UnlockRelationForExtension(rel,
// ExclusiveLock) (lmgr.c → LockRelease, lock.c; ProcLockWakeup, proc.c):
// the lock goes to the first waiter, or is free. Cost: one step.
func (s *Session) unlockRelationForExtension(h *Heap) {
	l := &h.ext
	if l.Holder != s.b.Actor {
		panic(fmt.Sprintf("fsm: backend %s releases %s's extension lock, held by actor %d", s.b.Name, h.Rel.Name, l.Holder))
	}
	s.b.Step(sExtLockRelease)
	before := l.Word()
	l.Holder = 0
	if len(l.Queue) > 0 {
		l.Holder = l.Queue[0]
		l.Queue = l.Queue[1:]
	}
	s.emit(trace.KLoad, sExtLockRelease, trace.OFSMRel, h.Rel.Number, before, l.Word(), uint64(l.Holder))
}

// pinLimitBackends is MaxBackends + NUM_AUXILIARY_PROCS at every GUC's
// default, the divisor of LimitAdditionalPins (bufmgr.c): MaxBackends is
// max_connections 100 + autovacuum 3 workers + 1 launcher (16–17;
// autovacuum_worker_slots 16 in 18) + max_worker_processes 8 +
// max_wal_senders 10 (postinit.c, InitializeMaxBackends; 17 and 18 count
// NUM_SPECIAL_WORKER_PROCS 2 instead of the launcher), and
// NUM_AUXILIARY_PROCS is 5 (16), 6 (17, proc.h at REL_17_9) or 6 +
// MAX_IO_WORKERS 32 (18, proc.h at REL_18_4).
func pinLimitBackends(version int) int {
	switch {
	case version <= 16:
		return 122 + 5
	case version == 17:
		return 123 + 6
	}
	return 136 + 6 + 32
}

// limitAdditionalPins is LimitAdditionalPins (bufmgr.c, PG 16–17; 18's
// GetAdditionalPinLimit computes the same): a backend pins at most its
// share of the pool, NBuffers / (MaxBackends + NUM_AUXILIARY_PROCS), less
// the REFCOUNT_ARRAY_ENTRIES (8) pins it may hold already, and at least
// 1; a request of one pin is left alone. PrivateRefCountOverflowed is
// taken as 0 (a heap_insert holds no more than a heap and a map page).
// With the default 16384 buffers the share is 121 at 16 (64 are allowed);
// with fewer than 1143 buffers it is 1 and the heap grows a page at a time.
func limitAdditionalPins(version, nBuffers, additional int) int {
	if additional <= 1 {
		return additional
	}
	limit := nBuffers/pinLimitBackends(version) - bufmgr.RefcountArrayEntries
	return min(additional, max(limit, 1))
}

// ExtendByPages is how many pages RelationAddBlocks (hio.c, PG 16–18)
// asks for without a BulkInsertState: num_pages, plus num_pages for each
// backend holding or awaiting the extension lock (extend_by_pages +=
// extend_by_pages * waitcount), at most MAX_BUFFERS_TO_EXTEND_BY.
func ExtendByPages(numPages, waitcount int) int {
	n := numPages
	n += n * waitcount
	return min(n, MaxBuffersToExtendBy)
}

// relationAddBlocks is RelationAddBlocks (hio.c, PG 16–18) for heap_insert:
// no BulkInsertState, use_fsm, num_pages 1. It asks how many backends hold
// or await the extension lock (RelationExtensionLockWaiterCount: waitcount),
// extends by 1 + waitcount pages, capped at MaxBuffersToExtendBy and by
// LimitAdditionalPins, through ExtendBufferedRelBy (extendBufferedRelBy),
// initialises the first page and returns it pinned; every other new page
// is released and recorded in the FSM with BLCKSZ - SizeOfPageHeaderData
// bytes free (RecordPageWithFreeSpace: the leaf), then
// FreeSpaceMapVacuumRange(first + 1, last) makes the upper levels know
// (its end is exclusive, so the last page counts only through its leaf
// page's maximum, as in the source). unlocked is *did_unlock: the first
// page's content lock was let go while the others were recorded, so the
// caller checks its free space again. Cost: the waiter count's step, the
// lock's, a ReadBuffer of every new page (misses), one release for each
// page but the first, a RecordPageWithFreeSpace each, one
// FreeSpaceMapVacuumRange.
func (s *Session) relationAddBlocks(h *Heap) (buf bufmgr.Buffer, first uint32, unlocked bool, err error) {
	rel := h.Rel.Number
	const numPages = 1
	s.b.Step(sAddBlocksWaiters)
	waitcount := h.ext.Requested()
	s.emit(trace.KLoad, sAddBlocksWaiters, trace.OFSMRel, rel, 0, uint64(waitcount), 0)
	extendBy := ExtendByPages(numPages, waitcount)
	s.emit(trace.KLoad, sAddBlocksBegin, trace.OFSMRel, rel, uint64(waitcount), uint64(extendBy), numPages)
	bufs, first, err := s.extendBufferedRelBy(h, extendBy)
	if err != nil {
		return bufmgr.InvalidBuffer, 0, false, err
	}
	extendBy = len(bufs)
	last := first + uint32(extendBy) - 1
	s.initNewPage(h, first, bufs[0], sAddBlocksInit)
	const notInFSMPages = numPages
	unlocked = notInFSMPages < extendBy
	for i := 1; i < extendBy; i++ {
		s.release(bufs[i])
		if i >= notInFSMPages {
			if err := s.recordPage(h, first+uint32(i), BLCKSZ-SizeOfPageHeaderData, InvalidBlockNumber); err != nil {
				s.release(bufs[0])
				for _, b := range bufs[i+1:] {
					s.release(b)
				}
				return bufmgr.InvalidBuffer, 0, false, err
			}
		}
	}
	if unlocked {
		if err := s.vacuumRange(h, first+notInFSMPages, last); err != nil {
			s.release(bufs[0])
			return bufmgr.InvalidBuffer, 0, false, err
		}
	}
	s.emit(trace.KLoad, sAddBlocksDone, trace.OFSMRel, rel, uint64(extendBy), uint64(first), PackAddr(bufmgr.MainForkNum, first, NodePage))
	return bufs[0], first, unlocked, nil
}

// extendBufferedRelBy is ExtendBufferedRelBy → ExtendBufferedRelShared
// (bufmgr.c, PG 16–18) for the main fork with EB_LOCK_FIRST: clamp the
// request with LimitAdditionalPins, take the extension lock, read the
// relation's size, extend it by extendBy pages, bring every new page into
// a pinned buffer, let the lock go. It returns the pinned buffers, the
// first one the first new block's.
//
// The model's order differs from the source's in one respect: PostgreSQL
// takes the victim buffers and zeroes them before it locks, and under the
// lock inserts them into the buffer table and calls smgrzeroextend; here
// the fork grows under the lock and each new page is then read through
// ReadBuffer (a miss with a simulated read of a zero page, as the 15 path's
// P_NEW), still under the lock, so that the lock is held across the
// buffer manager's steps as it is across the source's I/O.
func (s *Session) extendBufferedRelBy(h *Heap, extendBy int) ([]bufmgr.Buffer, uint32, error) {
	rel := h.Rel.Number
	if lim := limitAdditionalPins(s.store.pool.Version(), s.store.pool.NBuffers, extendBy); lim < extendBy {
		s.emit(trace.KLoad, sExtendLimit, trace.OFSMRel, rel, uint64(extendBy), uint64(lim), uint64(s.store.pool.NBuffers))
		extendBy = lim
	}
	s.lockRelationForExtension(h)
	held := true
	defer func() {
		if held { // unwound while holding it: a stopped run
			h.ext.Holder = 0
			if len(h.ext.Queue) > 0 {
				h.ext.Holder, h.ext.Queue = h.ext.Queue[0], h.ext.Queue[1:]
			}
		}
	}()
	first := h.NBlocks()
	if uint64(first)+uint64(extendBy) >= uint64(MaxBlockNumber) {
		s.unlockRelationForExtension(h)
		held = false
		return nil, 0, fmt.Errorf("cannot extend relation %s beyond %d blocks", h.Rel.Name, MaxBlockNumber)
	}
	h.Rel.NBlocks[bufmgr.MainForkNum] = first + uint32(extendBy)
	s.Stats.Extends[bufmgr.MainForkNum] += uint64(extendBy)
	s.emit(trace.KForkSize, sExtendFork, trace.OFSMRel, rel, ForkWord(true, first), ForkWord(true, first+uint32(extendBy)), PackAddr(bufmgr.MainForkNum, first, NodePage))
	s.lockNewPage(h, first, true)
	bufs := make([]bufmgr.Buffer, 0, extendBy)
	for i := 0; i < extendBy; i++ {
		buf, err := s.readBuffer(h, bufmgr.MainForkNum, first+uint32(i), nil)
		if err != nil {
			for _, b := range bufs {
				s.release(b)
			}
			s.unlockNewPage(h)
			s.unlockRelationForExtension(h)
			held = false
			return nil, 0, err
		}
		bufs = append(bufs, buf)
	}
	s.unlockRelationForExtension(h)
	held = false
	return bufs, first, nil
}

// newPageLock is the content lock an extender holds on the page it adds
// for itself until heap_insert's UnlockReleaseBuffer: EB_LOCK_FIRST on the
// first page of ExtendBufferedRelShared (bufmgr.c, PG 16–18), and at 15
// P_NEW's RBM_ZERO_AND_LOCK (ReadBufferBI in RelationGetBufferForTuple).
// Content locks are not modelled (bufmgr exports no LockBuffer), but this
// one is, so that another backend that reaches the new page (the heap's
// last page, for which "try the last page" aims) waits, as its LockBuffer
// would, instead of initialising or filling the page under the extender.
// At 16 and later taking and letting go of it are events; at 15 they are
// not, so that 15's traces stay as they were: only a backend that has to
// wait for it (a run that used to end in a panic) logs anything. A heap
// has at most one such page per backend; the map is nil until the first
// extension that takes one.
type newPageLock struct {
	actor  trace.Actor
	traced bool // events at taking and letting go (PostgreSQL 16 and later)
}

// lockNewPage marks blk of h as content-locked by the session's backend;
// traced logs it (PostgreSQL 16 and later).
func (s *Session) lockNewPage(h *Heap, blk uint32, traced bool) {
	if h.newLocked == nil {
		h.newLocked = map[uint32]newPageLock{}
	}
	// One a backend (unlockNewPage finds it by its actor, so a second
	// would make the map's order matter): heap_insert lets the page go
	// before the backend's next RelationGetBufferForTuple.
	for held, l := range h.newLocked {
		if l.actor == s.b.Actor {
			panic(fmt.Sprintf("fsm: %s locks new page %d of %q holding new page %d", s.b.Name, blk, h.Rel.Name, held))
		}
	}
	h.newLocked[blk] = newPageLock{actor: s.b.Actor, traced: traced}
	if traced {
		s.emit(trace.KLoad, sExtendLockFirst, trace.OHeapPage, h.Rel.Number, 0, uint64(s.b.Actor), PackAddr(bufmgr.MainForkNum, blk, NodePage))
	}
}

// unlockNewPage lets go of the new page the session's backend holds
// content-locked in h, if any (heap_insert's UnlockReleaseBuffer, or an
// ERROR's LWLockReleaseAll).
func (s *Session) unlockNewPage(h *Heap) {
	for blk, l := range h.newLocked {
		if l.actor == s.b.Actor {
			delete(h.newLocked, blk)
			if l.traced {
				s.emit(trace.KLoad, sHioUnlockNew, trace.OHeapPage, h.Rel.Number, uint64(l.actor), 0, PackAddr(bufmgr.MainForkNum, blk, NodePage))
			}
			return
		}
	}
}

// waitNewPage is RelationGetBufferForTuple's LockBuffer(buffer,
// BUFFER_LOCK_EXCLUSIVE) on blk when another backend holds it as the new
// page of its extension: the backend sleeps, its pin kept, until the
// extender's heap_insert lets it go.
func (s *Session) waitNewPage(h *Heap, blk uint32) {
	l, ok := h.newLocked[blk]
	owner := l.actor
	if !ok || owner == s.b.Actor {
		return
	}
	if !s.b.Scheduled() {
		panic(fmt.Sprintf("fsm: backend %s must wait for block %d of %s, locked by actor %d, but runs unscheduled", s.b.Name, blk, h.Rel.Name, owner))
	}
	s.emit(trace.KLoad, sHioWaitNew, trace.OHeapPage, h.Rel.Number, 0, uint64(owner), PackAddr(bufmgr.MainForkNum, blk, NodePage))
	s.b.Sleep(sHioWaitNew, func() bool { return h.newLocked[blk].actor != owner })
}

// HoldExtensionLock takes h's relation extension lock, queueing like any
// backend, keeps it until waiters backends queue behind it, and lets it
// go: another user of the lock (fsm_extend and vm_extend take it too, as
// does a long extension of another backend), for a lesson or a test, so
// that inserters arriving meanwhile queue and count each other. With
// waiters > 0 the backend must be scheduled; if too few ever come, the
// run ends in the scheduler's deadlock.
func (s *Session) HoldExtensionLock(h *Heap, waiters int) error {
	if err := s.check(h); err != nil {
		return err
	}
	if waiters < 0 || waiters >= bufmgr.MaxSimBackends {
		return fmt.Errorf("fsm: HoldExtensionLock until %d waiters (want 0 to %d)", waiters, bufmgr.MaxSimBackends-1)
	}
	if waiters > 0 && !s.b.Scheduled() {
		return fmt.Errorf("fsm: backend %s waits for %d backends to queue on %s's extension lock but runs unscheduled", s.b.Name, waiters, h.Rel.Name)
	}
	s.lockRelationForExtension(h)
	if waiters > 0 {
		l := &h.ext
		s.b.Sleep(sExtLockRelease, func() bool { return len(l.Queue) >= waiters })
	}
	s.unlockRelationForExtension(h)
	return nil
}

// NewPagesLocked is how many new pages of h an extender still holds
// content-locked (EB_LOCK_FIRST): 0 between operations.
func (h *Heap) NewPagesLocked() int { return len(h.newLocked) }
