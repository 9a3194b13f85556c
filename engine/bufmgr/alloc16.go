package bufmgr

import "bufferlab/engine/trace"

// PostgreSQL 16's BufferAlloc (commit dad50f677c, "bufmgr: Acquire and
// clean victim buffer separately"), kept through 17 and 18. Where 15
// (bufferAlloc in bufmgr.go) holds the old and the new mapping partition
// locks together while it moves a victim from one tag to the other, 16
// splits the move in two:
//
//   - GetVictimBuffer takes a victim, pins it, writes it out if dirty, and
//     InvalidateVictimBuffer deletes its old mapping entry under the old
//     partition's lock alone, leaving a pinned buffer with no tag;
//   - BufferAlloc then locks the new partition alone and inserts the new
//     entry. If somebody inserted the page meanwhile, the victim goes back
//     to the freelist (StrategyFreeBuffer) and the other buffer is pinned.
//
// So no backend ever holds two mapping partition locks, and a buffer is
// briefly in no partition at all. What the caller gets back differs
// between 16 and 17: 16 still calls StartBufferIO inside BufferAlloc
// (found is "valid, or somebody else read it"), 17 returns found = valid
// and leaves the I/O to WaitReadBuffers (readpath17.go).

// bufferAlloc16 is BufferAlloc (bufmgr.c, REL_16 and REL_17_9). With
// startIO (PG 16) it ends as 16's does: found is false only when this
// backend now owns the read (StartBufferIO succeeded). Without (PG 17), found
// is whether the buffer was BM_VALID when pinned.
//
// Cost: on a hit, one shared partition lock and a pin CAS; on a miss,
// GetVictimBuffer (the sweep, maybe a write, and a second partition lock
// when the victim had a page) and one exclusive partition lock.
func (b *Backend) bufferAlloc16(rel *Relation, newTag BufferTag, strategy *Strategy, startIO bool) (*BufferDesc, bool, error) {
	p := b.pool
	newHash := BufTableHashCode(newTag)
	newPart := BufTableHashPartition(newHash)
	b.reservePrivateRefCountEntry()

	b.partitionLock(newPart, LWShared, s16LockShared)
	if id := b.bufTableLookup(newTag, newPart, s16Lookup); id >= 0 {
		d := &p.descs[id]
		return d, b.pinFound16(d, strategy, newPart, s16HitUnlock, startIO), nil
	}
	b.partitionUnlock(newPart, s16MissUnlock)

	d, err := b.getVictimBuffer(strategy)
	if err != nil {
		return nil, false, err
	}

	b.partitionLock(newPart, LWExclusive, s16LockNew)
	if id := b.bufTableInsert(newTag, newPart, d.bufID, s16Insert); id >= 0 {
		// Somebody else loaded the page while we looked for a victim: the
		// victim, clean and without a tag, goes back to the freelist.
		b.unpinBuffer(d)
		b.strategyFreeBuffer(d)
		e := &p.descs[id]
		return e, b.pinFound16(e, strategy, newPart, s16CollideUnlock, startIO), nil
	}

	s := b.lockBufHdr(d, s16TagLock)
	d.tag = newTag
	s |= BmTagValid | BufUsagecountOne
	if rel.Permanent || newTag.ForkNum == InitForkNum {
		s |= BmPermanent
	}
	if b.traced() {
		b.emit(trace.KRetag, s16Retag, trace.OBuffer, d.bufID, noTag, newTag.Pack(), 0)
	}
	b.unlockBufHdr(d, s, s16Retag)
	b.partitionUnlock(newPart, s16UnlockNew)
	if startIO {
		return d, !b.startBufferIO(d, true), nil
	}
	return d, false, nil
}

// pinFound16 is BufferAlloc's found path in 16 and 17 (both the lookup's
// hit and the insert's collision): pin, release the partition lock, and
// in 16 try StartBufferIO when the buffer is not valid yet.
func (b *Backend) pinFound16(d *BufferDesc, strategy *Strategy, part int, unlockSite trace.Site, startIO bool) bool {
	valid := b.pinBuffer(d, strategy)
	b.partitionUnlock(part, unlockSite)
	if valid || !startIO {
		return valid
	}
	return !b.startBufferIO(d, true)
}

// getVictimBuffer is GetVictimBuffer (bufmgr.c, REL_16 to REL_18): a
// victim from StrategyGetBuffer, pinned, written out first if dirty (when
// its content lock is free), and cut loose from its old page by
// invalidateVictimBuffer. It returns the buffer pinned once by this
// backend, with no tag and no flags. StrategyRejectBuffer is not modelled
// (no WAL), as in bufferAlloc.
//
// Cost: StrategyGetBuffer, and for a victim that held a page one exclusive
// lock of that page's partition (plus a write if it was dirty).
func (b *Backend) getVictimBuffer(strategy *Strategy) (*BufferDesc, error) {
	for {
		b.reservePrivateRefCountEntry()
		d, s, err := b.strategyGetBuffer(strategy)
		if err != nil {
			return nil, err
		}
		b.pinBufferLocked(d, s)
		if s&BmDirty != 0 {
			cl := b.contentLock(d.bufID)
			if !b.lwConditionalAcquire(cl, LWShared, trace.OContent, d.bufID, s16VictimContentCond) {
				b.unpinBuffer(d)
				continue
			}
			b.flushBuffer(d)
			b.contentUnlock(d.bufID, s16VictimContentRelease)
		}
		if s&BmTagValid != 0 && !b.invalidateVictimBuffer(d) {
			b.unpinBuffer(d)
			continue
		}
		return d, nil
	}
}

// invalidateVictimBuffer is InvalidateVictimBuffer (bufmgr.c, REL_16 to
// REL_18): under the old page's partition lock alone, give the buffer up if
// somebody else pinned or dirtied it meanwhile; otherwise clear its tag,
// flags and usage count and delete its mapping entry. The buffer stays
// pinned by this backend.
//
// Cost: one exclusive partition lock and two header locks' worth of work.
func (b *Backend) invalidateVictimBuffer(d *BufferDesc) bool {
	oldTag := d.tag // pinned: the tag cannot change under us
	part := BufTableHashPartition(BufTableHashCode(oldTag))
	b.partitionLock(part, LWExclusive, s16InvalLock)
	s := b.lockBufHdr(d, s16InvalHdrLock)
	if StateRefcount(s) != 1 || s&BmDirty != 0 {
		b.unlockBufHdr(d, s, s16InvalBusyUnlock)
		b.partitionUnlock(part, s16InvalBusyRelease)
		return false
	}
	b.clearBufferTag(d, s, oldTag, s16InvalClear)
	b.bufTableDelete(oldTag, part, s16InvalDelete)
	b.partitionUnlock(part, s16InvalRelease)
	return true
}
