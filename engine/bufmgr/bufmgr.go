package bufmgr

import (
	"fmt"

	"bufferlab/engine/trace"
)

// ReadBuffer reads block blk of fork f of rel into a shared buffer and
// returns it pinned (ReadBufferExtended → ReadBuffer_common, PG15, RBM_NORMAL).
// strategy may be nil (the default strategy). hit reports whether the block
// was already in the pool.
//
// PostgreSQL 17 reads through StartReadBuffer and WaitReadBuffers
// (readBuffer17); 16 runs this function with its own BufferAlloc
// (bufferAlloc16), which is why the pool's version picks the allocator.
func (b *Backend) ReadBuffer(rel *Relation, f ForkNumber, blk uint32, strategy *Strategy) (buf Buffer, hit bool, err error) {
	switch {
	case b.pool.version >= 18:
		return b.readBuffer18(rel, f, blk, strategy)
	case b.pool.version == 17:
		return b.readBuffer17(rel, f, blk, strategy)
	}
	tag := rel.Tag(f, blk)
	// Simplification (marked on the code panel): PostgreSQL has no size
	// check in ReadBuffer_common. mdread (md.c, PG 15) finds the short read
	// inside smgrread, after BufferAlloc has taken a victim (evicting its
	// page) and set BM_IO_IN_PROGRESS; the ERROR's abort then runs
	// AbortBufferIO → TerminateBufferIO(buf, false, BM_IO_ERROR), which
	// leaves the buffer tagged with the missing block but not BM_VALID, and
	// releases the pin (mdread returns zeroes instead when
	// zero_damaged_pages is on or InRecovery). BufferLab checks the size
	// first and takes no buffer; the ERROR text is mdread's.
	if blk >= rel.NBlocks[f] {
		return InvalidBuffer, false, b.readPastEnd(rel, sReadEOF, errBeyondEOF(rel, f, blk))
	}
	b.emitTag(trace.KOp, sReadBegin, trace.ORelation, int32(rel.Number), 0, 0, &tag)
	var d *BufferDesc
	var found bool
	if b.pool.version == 16 {
		d, found, err = b.bufferAlloc16(rel, tag, strategy, true)
	} else {
		d, found, err = b.bufferAlloc(rel, tag, strategy)
	}
	if err != nil {
		return InvalidBuffer, false, err
	}
	buf = Buffer(d.bufID + 1)
	if found {
		b.Stats.Hits++
		b.emitTag(trace.KHit, sReadHit, trace.OBuffer, d.bufID, 0, 0, &tag)
		b.emitTag(trace.KOpDone, sReadHitReturn, trace.OBuffer, d.bufID, 0, 0, &tag)
		return buf, true, nil
	}
	b.Stats.Misses++
	b.emitTag(trace.KMiss, sReadMiss, trace.OBuffer, d.bufID, 0, 0, &tag)
	b.step(sReadSmgr)
	b.emitTag(trace.KIORead, sReadSmgr, trace.OBuffer, d.bufID, 0, 0, &tag)
	b.pool.noteRead(1)
	b.ioCall(1)
	b.terminateBufferIO(d, false, BmValid)
	b.emitTag(trace.KOpDone, sReadDone, trace.OBuffer, d.bufID, 0, 0, &tag)
	return buf, false, nil
}

// readPastEnd raises err, the ERROR of a read past the end of a fork,
// at site: BufferLab's size check before BufferAlloc (see ReadBuffer).
func (b *Backend) readPastEnd(rel *Relation, site trace.Site, err *PGError) error {
	b.Stats.Errors++
	b.emit(trace.KError, site, trace.ORelation, int32(rel.Number), 0, 0, uint64(ErrReadBeyondEOF))
	return err
}

// pinFound is what BufferAlloc does, in both places, with a buffer the
// mapping table already holds for the tag (the lookup's hit, and the
// insert that collides with another backend's entry): pin it, release the
// partition lock (at unlockSite) and, if it is not valid yet, try
// StartBufferIO. It reports found: false when the caller must read the
// block (StartBufferIO succeeded), true when it is valid or another
// backend's read finished meanwhile.
func (b *Backend) pinFound(d *BufferDesc, strategy *Strategy, part int, unlockSite trace.Site) bool {
	valid := b.pinBuffer(d, strategy)
	b.partitionUnlock(part, unlockSite)
	return valid || !b.startBufferIO(d, true)
}

// bufferAlloc is BufferAlloc (bufmgr.c, PG15 order: insert the new mapping
// entry before deleting the old, holding both partition locks). It returns
// the buffer pinned; found is false when the caller must read the block
// (StartBufferIO succeeded and BM_IO_IN_PROGRESS is set).
func (b *Backend) bufferAlloc(rel *Relation, newTag BufferTag, strategy *Strategy) (*BufferDesc, bool, error) {
	p := b.pool
	newHash := BufTableHashCode(newTag)
	newPart := BufTableHashPartition(newHash)

	b.partitionLock(newPart, LWShared, sAllocLockShared)
	if id := b.bufTableLookup(newTag, newPart, sAllocLookup); id >= 0 {
		d := &p.descs[id]
		return d, b.pinFound(d, strategy, newPart, sAllocHitUnlock), nil
	}
	b.partitionUnlock(newPart, sAllocMissUnlock)

	var (
		d       *BufferDesc
		s       uint32
		oldTag  BufferTag
		oldPart = -1
	)
	for {
		b.reservePrivateRefCountEntry()
		var err error
		d, s, err = b.strategyGetBuffer(strategy)
		if err != nil {
			return nil, false, err
		}
		oldFlags := s & BufFlagMask
		b.pinBufferLocked(d, s)

		if oldFlags&BmDirty != 0 {
			cl := b.contentLock(d.bufID)
			if b.lwConditionalAcquire(cl, LWShared, trace.OContent, d.bufID, sAllocContentCond) {
				// StrategyRejectBuffer is not modelled: the engine has no
				// WAL, so a ring buffer never needs a WAL flush first.
				b.flushBuffer(d)
				b.contentUnlock(d.bufID, sAllocContentRelease)
			} else {
				b.unpinBuffer(d)
				continue
			}
		}

		if oldFlags&BmTagValid != 0 {
			oldTag = d.tag
			oldPart = BufTableHashPartition(BufTableHashCode(oldTag))
			switch {
			case oldPart < newPart:
				b.partitionLock(oldPart, LWExclusive, sAllocLockFirst)
				b.partitionLock(newPart, LWExclusive, sAllocLockSecond)
			case oldPart > newPart:
				b.partitionLock(newPart, LWExclusive, sAllocLockFirst)
				b.partitionLock(oldPart, LWExclusive, sAllocLockSecond)
			default:
				b.partitionLock(newPart, LWExclusive, sAllocLockFirst)
			}
		} else {
			oldPart = -1
			b.partitionLock(newPart, LWExclusive, sAllocLockNew)
		}

		if id := b.bufTableInsert(newTag, newPart, d.bufID, sAllocInsert); id >= 0 {
			// Somebody else loaded the page while we looked for a victim.
			b.unpinBuffer(d)
			if oldPart >= 0 && oldPart != newPart {
				b.partitionUnlock(oldPart, sAllocCollideUnlockOld)
			}
			d = &p.descs[id]
			return d, b.pinFound(d, strategy, newPart, sAllocCollideUnlockNew), nil
		}

		s = b.lockBufHdr(d, sAllocRecheckLock)
		if StateRefcount(s) == 1 && s&BmDirty == 0 {
			break
		}
		// Someone pinned or re-dirtied the victim meanwhile: give it up.
		b.unlockBufHdr(d, s, sAllocRecheckUnlock)
		b.bufTableDelete(newTag, newPart, sAllocRecheckDelete)
		if oldPart >= 0 && oldPart != newPart {
			b.partitionUnlock(oldPart, sAllocRecheckUnlockOld)
		}
		b.partitionUnlock(newPart, sAllocRecheckUnlockNew)
		b.unpinBuffer(d)
	}

	// Retag the victim.
	d.tag = newTag
	s &^= BmValid | BmDirty | BmJustDirtied | BmCheckpointNeeded | BmIOError | BmPermanent | BufUsagecountMask
	s |= BmTagValid | BufUsagecountOne
	if rel.Permanent || newTag.ForkNum == InitForkNum {
		s |= BmPermanent
	}
	if b.traced() {
		beforeTag := uint64(noTag)
		if oldPart >= 0 {
			beforeTag = oldTag.Pack()
		}
		b.emit(trace.KRetag, sAllocRetag, trace.OBuffer, d.bufID, beforeTag, newTag.Pack(), 0)
	}
	b.unlockBufHdr(d, s, sAllocRetag)
	if p.dl != nil {
		// The dlist variant's upkeep (dlist.go): move the buffer to the
		// new relation's list while the mapping locks are held.
		b.dlistRetag(d, newTag)
	}
	if oldPart >= 0 {
		b.bufTableDelete(oldTag, oldPart, sAllocDeleteOld)
		if oldPart != newPart {
			b.partitionUnlock(oldPart, sAllocUnlockOld)
		}
	}
	b.partitionUnlock(newPart, sAllocUnlockNew)
	found := !b.startBufferIO(d, true)
	return d, found, nil
}

// --- The mapping table (buf_table.c) ---

func (b *Backend) checkPartitionHeld(part int, excl bool, what string) {
	l := &b.pool.parts[part].lock
	if excl && l.Excl != b.Actor || !excl && !l.Holds(b.Actor) {
		panic(fmt.Sprintf("bufmgr: %s on partition %d without its lock (backend %s)", what, part, b.Name))
	}
}

// bufTableLookup is BufTableLookup: the buffer id or -1. The partition lock
// must be held in either mode.
func (b *Backend) bufTableLookup(tag BufferTag, part int, site trace.Site) int32 {
	b.checkPartitionHeld(part, false, "BufTableLookup")
	b.step(site)
	id, ok := b.pool.parts[part].m[tag]
	if !ok {
		id = -1
	}
	if site == sLookupLookup {
		b.Stats.DropLookups++
		if ok {
			b.Stats.DropDescsTouched++
		}
	}
	b.emitTag(trace.KMapLookup, site, trace.OPartition, int32(part), 0, uint64(int64(id)), &tag)
	return id
}

// bufTableInsert is BufTableInsert: -1 if inserted, else the id already
// mapped. The partition lock must be held exclusively.
func (b *Backend) bufTableInsert(tag BufferTag, part int, id int32, site trace.Site) int32 {
	b.checkPartitionHeld(part, true, "BufTableInsert")
	b.step(site)
	m := b.pool.parts[part].m
	if old, ok := m[tag]; ok {
		b.emitTag(trace.KMapInsert, site, trace.OPartition, int32(part), uint64(int64(id)), uint64(int64(old)), &tag)
		return old
	}
	m[tag] = id
	b.emitTag(trace.KMapInsert, site, trace.OPartition, int32(part), uint64(int64(id)), trace.NoBuffer, &tag)
	return -1
}

// bufTableDelete is BufTableDelete. A missing entry is PostgreSQL's ERROR
// "shared buffer hash table corrupted"; here it is a broken invariant.
func (b *Backend) bufTableDelete(tag BufferTag, part int, site trace.Site) {
	b.checkPartitionHeld(part, true, "BufTableDelete")
	b.step(site)
	m := b.pool.parts[part].m
	id, ok := m[tag]
	if !ok {
		panic(fmt.Sprintf("shared buffer hash table corrupted: no entry for %v in partition %d", tag, part))
	}
	delete(m, tag)
	b.emitTag(trace.KMapDelete, site, trace.OPartition, int32(part), uint64(int64(id)), trace.NoBuffer, &tag)
}

// --- Pins ---

// pinBuffer is PinBuffer (bufmgr.c, PG 9.6–16): the CAS loop on the state
// word. It returns whether the buffer is BM_VALID.
//
// A backend that already pins the buffer only raises its private count: no
// shared memory is touched, and the result is true ("if we previously pinned
// the buffer, it must surely be valid"). PG 17 reads the state word there
// to return BM_VALID; PG 15, modelled here, does not.
func (b *Backend) pinBuffer(d *BufferDesc, strategy *Strategy) bool {
	if b.pool.pins == PinsSpinlock {
		return b.pinBuffer95(d, strategy)
	}
	if !b.hooked() {
		return b.pinBufferFast(d, strategy)
	}
	// Modelled path.
	if b.pinAgain(d, sPinPrivate) {
		return true
	}
	buf := Buffer(d.bufID + 1)
	b.step(sPinLoad)
	old := d.state.Load()
	b.emit(trace.KLoad, sPinLoad, trace.OBuffer, d.bufID, 0, uint64(old), 0)
	old, s := b.casLoop(d, old, sPinWait, sPinCAS, func(o uint32) uint32 { return pinnedState(o, strategy) })
	// The entry exists (count 0) as the shared refcount goes up, as in
	// PostgreSQL; the private count follows.
	ref := b.newPrivateRefCountEntry(buf)
	b.emit(trace.KCAS, sPinCAS, trace.OBuffer, d.bufID, uint64(old), uint64(s), 0)
	ref.refcount = 1
	b.emit(trace.KPrivRef, sPinPrivate, trace.OBuffer, d.bufID, 0, 1, 0)
	return s&BmValid != 0
}

// pinAgain is PinBuffer's first step, the same in PG 9.5 and 9.6+: if
// this backend pins d already, only its private count goes up, at site
// (backend-local: no yield, no shared load), and the buffer is taken as
// valid ("if we previously pinned the buffer, it must surely be valid").
// It reports whether that was the case; if not, it reserves the private
// refcount entry (ReservePrivateRefCountEntry) for the shared pin to come.
func (b *Backend) pinAgain(d *BufferDesc, site trace.Site) bool {
	if ref := b.getPrivateRefCountEntry(Buffer(d.bufID + 1)); ref != nil {
		ref.refcount++
		b.emit(trace.KPrivRef, site, trace.OBuffer, d.bufID, uint64(ref.refcount-1), uint64(ref.refcount), 0)
		return true
	}
	b.reservePrivateRefCountEntry()
	return false
}

// casLoop is the compare-and-swap loop on the state word that PinBuffer,
// UnpinBuffer and MarkBufferDirty (bufmgr.c, PG 9.6–16) each write out,
// modelled: from old (the word as loaded), wait out BM_LOCKED
// (WaitBufHdrUnlocked, at waitSite), compute the new word with next, and
// try the CAS, a step at casSite; a failed try reloads the word, counts
// the failure and emits cas-fail at casSite (Before = the word expected,
// After = the word found), then goes round again. It returns the word the
// successful CAS replaced and the word it stored; the caller emits the
// success, after whatever must precede that event.
func (b *Backend) casLoop(d *BufferDesc, old uint32, waitSite, casSite trace.Site, next func(uint32) uint32) (uint32, uint32) {
	for {
		if old&BmLocked != 0 {
			old = b.waitBufHdrUnlocked(d, old, waitSite)
		}
		s := next(old)
		b.step(casSite)
		b.Stats.CASAttempts++
		if d.state.CompareAndSwap(old, s) {
			return old, s
		}
		cur := d.state.Load()
		b.Stats.CASFailures++
		b.emit(trace.KCASFail, casSite, trace.OBuffer, d.bufID, uint64(old), uint64(cur), 0)
		old = cur
	}
}

// pinBufferFast is pinBuffer's fast path (see hooked): PinBuffer
// (bufmgr.c, PG 9.6–16) without yields or events.
func (b *Backend) pinBufferFast(d *BufferDesc, strategy *Strategy) bool {
	buf := Buffer(d.bufID + 1)
	if ref := b.getPrivateRefCountEntry(buf); ref != nil {
		ref.refcount++
		return true
	}
	b.reservePrivateRefCountEntry()
	old := d.state.Load()
	for {
		if old&BmLocked != 0 {
			old = b.waitBufHdrUnlocked(d, old, sPinWait)
		}
		s := pinnedState(old, strategy)
		b.Stats.CASAttempts++
		if d.state.CompareAndSwap(old, s) {
			b.newPrivateRefCountEntry(buf).refcount = 1
			return s&BmValid != 0
		}
		b.Stats.CASFailures++
		old = d.state.Load()
	}
}

// pinnedState is the state PinBuffer's CAS installs over old: one more pin,
// and the usage count raised up to BM_MAX_USAGE_COUNT, or with a strategy
// ring only from 0 to 1.
func pinnedState(old uint32, strategy *Strategy) uint32 {
	s := old + BufRefcountOne
	if strategy == nil {
		if StateUsagecount(s) < BmMaxUsageCount {
			s += BufUsagecountOne
		}
	} else if StateUsagecount(s) == 0 {
		s += BufUsagecountOne
	}
	return s
}

// pinBufferLocked is PinBuffer_Locked: add a pin to a buffer whose header
// the caller has locked (state s), and unlock it in the same store. The
// usage count is not touched.
func (b *Backend) pinBufferLocked(d *BufferDesc, s uint32) {
	b.step(sPinLockedUnlock)
	before := d.state.Load()
	after := (s + BufRefcountOne) &^ BmLocked
	d.state.Store(after)
	ref := b.newPrivateRefCountEntry(Buffer(d.bufID + 1))
	b.emit(trace.KUnlockHdr, sPinLockedUnlock, trace.OBuffer, d.bufID, uint64(before), uint64(after), 0)
	ref.refcount = 1
	b.emit(trace.KPrivRef, sPinLockedUnlock, trace.OBuffer, d.bufID, 0, 1, 0)
}

// unpinBuffer is UnpinBuffer (bufmgr.c, PG15).
func (b *Backend) unpinBuffer(d *BufferDesc) {
	if b.pool.pins == PinsSpinlock {
		b.unpinBuffer95(d)
		return
	}
	if !b.hooked() {
		b.unpinBufferFast(d)
		return
	}
	// Modelled path.
	if !b.unpinPrivate(d, sUnpinPrivate) {
		return
	}
	buf := Buffer(d.bufID + 1)
	b.step(sUnpinLoad)
	old := d.state.Load()
	b.emit(trace.KLoad, sUnpinLoad, trace.OBuffer, d.bufID, 0, uint64(old), 0)
	old, s := b.casLoop(d, old, sUnpinWait, sUnpinCAS, func(o uint32) uint32 { return o - BufRefcountOne })
	b.forgetPrivateRefCountEntry(buf)
	b.emit(trace.KCAS, sUnpinCAS, trace.OBuffer, d.bufID, uint64(old), uint64(s), 0)
	if s&BmPinCountWaiter != 0 {
		b.wakePinCountWaiter(d)
	}
}

// unpinBufferFast is unpinBuffer's fast path (see hooked): UnpinBuffer
// (bufmgr.c, PG15) without yields or events.
func (b *Backend) unpinBufferFast(d *BufferDesc) {
	buf := Buffer(d.bufID + 1)
	cnt, ok := b.decPrivateRef(buf)
	if !ok || cnt < 0 {
		b.unpinNotPinned(buf)
	}
	if cnt > 0 {
		return
	}
	old := d.state.Load()
	for {
		if old&BmLocked != 0 {
			old = b.waitBufHdrUnlocked(d, old, sUnpinWait)
		}
		s := old - BufRefcountOne
		b.Stats.CASAttempts++
		if d.state.CompareAndSwap(old, s) {
			b.forgetPrivateRefCountEntry(buf)
			if s&BmPinCountWaiter != 0 {
				b.wakePinCountWaiter(d)
			}
			return
		}
		b.Stats.CASFailures++
		old = d.state.Load()
	}
}

// unpinPrivate is UnpinBuffer's first step, the same in PG 9.5 and 9.6+:
// this backend's private count of d goes down, at site (backend-local: no
// yield); a buffer it does not pin is unpinNotPinned's panic. It reports
// whether that was the last private pin, when the shared count is to drop.
func (b *Backend) unpinPrivate(d *BufferDesc, site trace.Site) bool {
	buf := Buffer(d.bufID + 1)
	cnt, ok := b.decPrivateRef(buf)
	if !ok || cnt < 0 {
		b.unpinNotPinned(buf)
	}
	b.emit(trace.KPrivRef, site, trace.OBuffer, d.bufID, uint64(cnt+1), uint64(cnt), 0)
	return cnt <= 0
}

func (b *Backend) unpinNotPinned(buf Buffer) {
	panic(fmt.Sprintf("bufmgr: backend %s unpins buffer %d it does not pin", b.Name, buf))
}

// wakePinCountWaiter is the end of UnpinBuffer when the unpin left
// BM_PIN_COUNT_WAITER set: under the header lock, wake the waiter
// (LockBufferForCleanup) if only its own pin is left.
func (b *Backend) wakePinCountWaiter(d *BufferDesc) {
	s := b.lockBufHdr(d, sUnpinWaiterLock)
	if s&BmPinCountWaiter != 0 && StateRefcount(s) == 1 {
		waiter := d.waitBackend
		s &^= BmPinCountWaiter
		b.unlockBufHdr(d, s, sUnpinWaiterUnlock)
		b.signalPinWaiter(d, waiter, sUnpinWake)
	} else {
		b.unlockBufHdr(d, s, sUnpinWaiterNowake)
	}
}

// ReleaseBuffer is ReleaseBuffer: drop one pin of buf. Releasing a buffer
// this backend does not pin is the caller's mistake and an error.
func (b *Backend) ReleaseBuffer(buf Buffer) error {
	if buf <= 0 || int(buf) > b.pool.NBuffers || !b.HasPrivateRefEntry(buf) {
		return &PGError{Code: ErrBufferNotPinned, Msg: fmt.Sprintf("buffer %d is not pinned by backend %s", buf, b.Name)}
	}
	d := &b.pool.descs[buf-1]
	b.emitTag(trace.KOp, sReleaseBegin, trace.OBuffer, d.bufID, 0, 0, &d.tag)
	b.unpinBuffer(d)
	b.emitTag(trace.KOpDone, sReleaseUnpin, trace.OBuffer, d.bufID, 0, 0, &d.tag)
	return nil
}

// MarkBufferDirty takes the buffer's content lock exclusively, sets
// BM_DIRTY | BM_JUST_DIRTIED with the CAS loop of MarkBufferDirty (PG
// 9.6–15), and releases the lock: what a backend does to change a page.
//
// With pins=spinlock it is 9.5's MarkBufferDirty: the flags are set under
// the buffer header spinlock instead of with a CAS.
func (b *Backend) MarkBufferDirty(buf Buffer) error {
	if buf <= 0 || int(buf) > b.pool.NBuffers || !b.HasPrivateRefEntry(buf) {
		return &PGError{Code: ErrBufferNotPinned, Msg: fmt.Sprintf("cannot dirty buffer %d: not pinned by backend %s", buf, b.Name)}
	}
	d := &b.pool.descs[buf-1]
	b.emitTag(trace.KOp, sDirtyBegin, trace.OBuffer, d.bufID, 0, 0, &d.tag)
	b.lwAcquire(b.contentLock(d.bufID), LWExclusive, trace.OContent, d.bufID, sLockBufferAcquire)
	if b.pool.pins == PinsSpinlock {
		// Before 9.6 the flags were a field under the header spinlock.
		s := b.lockBufHdr(d, sDirty95Lock)
		b.unlockBufHdr(d, s|BmDirty|BmJustDirtied, sDirty95Unlock)
		b.contentUnlock(d.bufID, sLockBufferUnlock)
		b.emitTag(trace.KOpDone, sLockBufferUnlock, trace.OBuffer, d.bufID, 0, 0, &d.tag)
		return nil
	}
	b.step(sDirtyLoad)
	old := d.state.Load()
	b.emit(trace.KLoad, sDirtyLoad, trace.OBuffer, d.bufID, 0, uint64(old), 0)
	old, s := b.casLoop(d, old, sDirtyWait, sDirtyCAS, func(o uint32) uint32 { return o | BmDirty | BmJustDirtied })
	b.emit(trace.KDirty, sDirtyCAS, trace.OBuffer, d.bufID, uint64(old), uint64(s), 0)
	b.contentUnlock(d.bufID, sLockBufferUnlock)
	b.emitTag(trace.KOpDone, sLockBufferUnlock, trace.OBuffer, d.bufID, 0, 0, &d.tag)
	return nil
}

// --- Buffer I/O ---

// startBufferIO is StartBufferIO (PG15): wait out any I/O in progress, then
// claim the I/O unless it is no longer needed.
func (b *Backend) startBufferIO(d *BufferDesc, forInput bool) bool {
	return b.startBufferIOWait(d, forInput, false)
}

// startBufferIOWait is StartBufferIO with PostgreSQL 17's nowait: when
// another backend's I/O is in progress it returns false at once instead
// of waiting (WaitReadBuffers asks so for every block after a run's first).
func (b *Backend) startBufferIOWait(d *BufferDesc, forInput, nowait bool) bool {
	var s uint32
	for {
		s = b.lockBufHdr(d, sStartIOLock)
		if s&BmIOInProgress == 0 {
			break
		}
		if nowait {
			b.unlockBufHdr(d, s, s17StartIONowait)
			return false
		}
		b.unlockBufHdr(d, s, sStartIOBusyUnlock)
		b.waitIO(d)
	}
	if forInput && s&BmValid != 0 || !forInput && s&BmDirty == 0 {
		b.unlockBufHdr(d, s, sStartIODoneUnlock)
		return false
	}
	b.unlockBufHdr(d, s|BmIOInProgress, sStartIOSet)
	return true
}

// waitIO is WaitIO: sleep on the buffer's I/O condition variable until
// BM_IO_IN_PROGRESS clears (at 18, or on the AIO handle that owns the I/O:
// waitIO18).
func (b *Backend) waitIO(d *BufferDesc) {
	if b.aio != nil {
		b.waitIO18(d)
		return
	}
	for {
		s := b.lockBufHdr(d, sWaitIOLock)
		b.unlockBufHdr(d, s, sWaitIOUnlock)
		if s&BmIOInProgress == 0 {
			return
		}
		b.Stats.IOWaits++
		b.emit(trace.KIOWait, sWaitIOSleep, trace.OBuffer, d.bufID, 0, uint64(s), 0)
		b.stepWait(sWaitIOSleep)
	}
}

// terminateBufferIO is TerminateBufferIO (PG15).
func (b *Backend) terminateBufferIO(d *BufferDesc, clearDirty bool, setFlags uint32) {
	s := b.lockBufHdr(d, sTermIOLock)
	s &^= BmIOInProgress | BmIOError
	if clearDirty && s&BmJustDirtied == 0 {
		s &^= BmDirty | BmCheckpointNeeded
	}
	s |= setFlags
	b.unlockBufHdr(d, s, sTermIOUnlock)
}

// flushBuffer is FlushBuffer (PG15) for a dirty victim: a simulated write.
// The WAL flush up to the page LSN that PostgreSQL does first for a
// permanent buffer is not modelled (the engine has no WAL).
func (b *Backend) flushBuffer(d *BufferDesc) {
	if !b.startBufferIO(d, false) {
		return
	}
	s := b.lockBufHdr(d, sFlushLock)
	s &^= BmJustDirtied
	b.unlockBufHdr(d, s, sFlushUnlock)
	b.step(sFlushWrite)
	b.Stats.Writes++
	b.ioCall(1)
	b.emitTag(trace.KIOWrite, sFlushWrite, trace.OBuffer, d.bufID, 0, 0, &d.tag)
	b.terminateBufferIO(d, true, 0)
}

// --- Scans and transactions ---

// SeqScan is a whole heap sequential scan of rel's main fork (initscan,
// heapgettup_pagemode, heapgetpage, heap_endscan, PG 15): with a BULKREAD
// ring when the relation has more than NBuffers/4 blocks, at most one pin
// held at a time, and, for such a relation when synchronize_seqscans is
// on, starting where the last scan of it reported being (syncscan.go).
func (b *Backend) SeqScan(rel *Relation) error {
	_, err := b.SeqScanPages(rel, 0)
	return err
}

// SeqScanPages is SeqScan stopped after pages pages (0: no limit), as a
// cursor whose FETCH has read that far: if the scan stops before its end,
// it keeps the pin on its current page and returns that buffer (release
// it to close the cursor); its reports of its position stay. A whole scan
// returns InvalidBuffer.
//
// Events: an op at scan.init (Obj = relation, Before = start block, After
// = blocks, Arg = ring size), the sync-scan load and stores
// (syncscan.go), the page reads, and an op-done at scan.end (After =
// blocks), or at scan.pause (After = pages read) for a paused scan.
//
// PostgreSQL 17 scans through a read stream (seqScanStream); a paused
// scan there would keep the stream's look-ahead pins, which BufferLab
// does not model yet, so pages > 0 is an error at pg=17.
func (b *Backend) SeqScanPages(rel *Relation, pages uint32) (Buffer, error) {
	if b.pool.version >= 17 {
		if pages > 0 {
			return InvalidBuffer, fmt.Errorf("scan pages=%d: a paused scan is modelled for PostgreSQL 15 and 16 only (at %d it would hold its read stream's look-ahead pins)", pages, b.pool.version)
		}
		if b.pool.version >= 18 {
			return InvalidBuffer, b.seqScan18(rel)
		}
		return InvalidBuffer, b.seqScanStream(rel)
	}
	var strategy *Strategy
	b.step(sScanInit)
	n := rel.NBlocks[MainForkNum]
	allowSync := false
	if uint64(n) > uint64(b.pool.NBuffers/4) {
		strategy = b.pool.GetAccessStrategy(BASBulkRead)
		allowSync = b.pool.syncScans
	}
	start := uint32(0)
	if allowSync {
		// ss_get_location, in the same step: the op event names the
		// start block, then the load at scan.sync-start shows the lookup.
		start = b.pool.ss.startFor(rel.RelFileNode(), n)
	}
	b.emit(trace.KOp, sScanInit, trace.ORelation, int32(rel.Number), uint64(start), uint64(n), uint64(strategyRing(strategy)))
	if allowSync {
		start = b.ssGetLocation(rel, n)
	}
	cur := InvalidBuffer
	if n > 0 {
		page, read := start, uint32(0)
		for {
			if cur != InvalidBuffer {
				b.unpinBuffer(&b.pool.descs[cur-1])
				cur = InvalidBuffer
			}
			buf, _, err := b.ReadBuffer(rel, MainForkNum, page, strategy)
			if err != nil {
				return InvalidBuffer, err
			}
			cur = buf
			if read++; pages > 0 && read == pages {
				// FETCH is done before the next page: the pin stays.
				b.emit(trace.KOpDone, sScanPause, trace.ORelation, int32(rel.Number), 0, uint64(read), 0)
				return cur, nil
			}
			if page++; page >= n {
				page = 0
			}
			finished := page == start
			if allowSync {
				b.ssReportLocation(rel, page)
			}
			if finished {
				break
			}
		}
	}
	if cur != InvalidBuffer {
		b.unpinBuffer(&b.pool.descs[cur-1])
	}
	b.emit(trace.KOpDone, sScanEnd, trace.ORelation, int32(rel.Number), 0, uint64(n), 0)
	return InvalidBuffer, nil
}

func strategyRing(s *Strategy) int {
	if s == nil {
		return 0
	}
	return s.RingSize()
}

// AbortTransaction releases every pin the backend holds, as resource-owner
// cleanup does when a transaction aborts after an ERROR.
func (b *Backend) AbortTransaction() {
	for _, pin := range b.Pins() {
		for i := 0; i < pin.Count; i++ {
			b.unpinBuffer(&b.pool.descs[pin.Buffer-1])
		}
	}
}
