package bufmgr

import (
	"fmt"
	"slices"

	"bufferlab/engine/trace"
)

// How a drop finds the buffers to invalidate, one strategy each (see
// drop.go for the entry points that choose among them): the full scan of
// every descriptor (DropRelFileNodeBuffers' and DropRelFileNodesAllBuffers'),
// the per-block lookup in the mapping table (FindAndDropRelFileNodeBuffers),
// and the walk of the relation's buffer list (the dlist variant); and
// InvalidateBuffer, where all three end for each buffer they find.

// dropScan is the full scan of DropRelFileNodeBuffers: the unlocked
// pre-check of the relation part of every descriptor's tag, then for a
// match the header lock, the full re-check (fork, block) and
// InvalidateBuffer. The pre-check is safe without the lock because the tag
// of a buffer can only move away from the relation being dropped (e8d029a30b).
func (b *Backend) dropScan(spec *dropSpec) error {
	descs := b.pool.descs
	if !b.hooked() {
		// Fast path (see hooked): the same steps without yields and events.
		b.Stats.DropDescsTouched += uint64(len(descs))
		r := spec.rnode
		for i := range descs {
			t := &descs[i].tag
			if t.RelNode != r.RelNode || t.DbNode != r.DbNode || t.SpcNode != r.SpcNode {
				continue
			}
			if err := b.dropLockedRecheck(&descs[i], spec, sDropLock, sDropUnlock); err != nil {
				return err
			}
		}
		return nil
	}
	// Modelled path.
	for i := range descs {
		d := &descs[i]
		b.step(sDropPrecheck)
		b.Stats.DropDescsTouched++
		if b.traced() {
			b.emitSlow(trace.KLoad, sDropPrecheck, trace.OBuffer, d.bufID, 0, uint64(d.state.Load()), d.tag.Pack())
		}
		if t := &d.tag; t.RelNode != spec.rnode.RelNode || t.DbNode != spec.rnode.DbNode || t.SpcNode != spec.rnode.SpcNode {
			continue
		}
		if err := b.dropLockedRecheck(d, spec, sDropLock, sDropUnlock); err != nil {
			return err
		}
	}
	return nil
}

// dropLockedRecheck locks d's header, re-checks the tag against spec and
// invalidates the buffer, or unlocks it.
func (b *Backend) dropLockedRecheck(d *BufferDesc, spec *dropSpec, lockSite, unlockSite trace.Site) error {
	s := b.lockBufHdr(d, lockSite)
	if spec.matches(&d.tag) {
		return b.invalidateBuffer(d, s)
	}
	b.unlockBufHdr(d, s, unlockSite)
	return nil
}

// DropBufferLocked is the locked half of DropRelFileNodeBuffers' full scan
// for buffer id, for a caller that made the unlocked pre-check itself on
// its own copy of the tags: fast mode times the scan over PostgreSQL's
// 64-byte padded descriptors (BufferDescPadded, buf_internals.h), which
// the engine's compact BufferDesc is not. LockBufHdr, the re-check of the
// relation, fork and first block, then InvalidateBuffer (which releases
// the header lock) or UnlockBufHdr, as in the scan. It reports whether the
// buffer was invalidated. Events as the scan's at drop.lock and
// drop.unlock, and InvalidateBuffer's; not the pre-check's load.
func (b *Backend) DropBufferLocked(id int, rel *Relation, fork ForkNumber, firstDelBlock uint32) (bool, error) {
	p := b.pool
	if id < 0 || id >= p.NBuffers {
		return false, fmt.Errorf("bufmgr: DropBufferLocked: no buffer %d in a pool of %d", id, p.NBuffers)
	}
	if rel == nil {
		return false, fmt.Errorf("bufmgr: DropBufferLocked of no relation")
	}
	if fork < MainForkNum || fork > MaxForkNum {
		return false, fmt.Errorf("bufmgr: DropBufferLocked(%s): no fork %d", rel.Name, fork)
	}
	spec := dropSpec{rnode: rel.RelFileNode(), n: 1}
	spec.forks[0], spec.first[0] = fork, firstDelBlock
	before := b.Stats.DropInvalidated
	err := b.dropLockedRecheck(&p.descs[id], &spec, sDropLock, sDropUnlock)
	return b.Stats.DropInvalidated != before, err
}

// dropAllScan is the full scan of DropRelFileNodesAllBuffers: each
// descriptor's relation is looked for among rels, linearly or (bsearch) by
// binary search in the sorted list; on a match, the header lock, the
// re-check of the relation, and InvalidateBuffer.
func (b *Backend) dropAllScan(rels []*Relation, bsearch bool) error {
	nodes := make([]RelFileNode, len(rels)) // one allocation per drop, as PostgreSQL's palloc
	for i, r := range rels {
		nodes[i] = r.RelFileNode()
	}
	if bsearch {
		slices.SortFunc(nodes, compareRelFileNode)
	}
	precheck := sDropAllLinear
	if bsearch {
		precheck = sDropAllBSearch
	}
	hooked := b.hooked()
	descs := b.pool.descs
	if !hooked {
		b.Stats.DropDescsTouched += uint64(len(descs))
	}
	for i := range descs {
		d := &descs[i]
		if hooked {
			b.step(precheck)
			b.Stats.DropDescsTouched++
			if b.traced() {
				b.emitSlow(trace.KLoad, precheck, trace.OBuffer, d.bufID, 0, uint64(d.state.Load()), d.tag.Pack())
			}
		}
		rn := RelFileNode{SpcNode: d.tag.SpcNode, DbNode: d.tag.DbNode, RelNode: d.tag.RelNode}
		k := -1
		if !bsearch {
			for j := range nodes {
				if nodes[j] == rn {
					k = j
					break
				}
			}
		} else if j, ok := slices.BinarySearchFunc(nodes, rn, compareRelFileNode); ok {
			k = j
		}
		if k < 0 {
			continue
		}
		spec := dropSpec{rnode: nodes[k], all: true}
		if err := b.dropLockedRecheck(d, &spec, sDropAllLock, sDropAllUnlock); err != nil {
			return err
		}
	}
	return nil
}

// findAndDropRelFileNodeBuffers is FindAndDropRelFileNodeBuffers (bufmgr.c,
// PG 14–15; PG 16+ FindAndDropRelationBuffers): for each block from
// firstDelBlock up to nForkBlock, look its tag up in the mapping table under
// the partition lock taken shared, and if a buffer holds it, lock that
// buffer's header, re-check (it may have been recycled since the lookup)
// and invalidate it.
func (b *Backend) findAndDropRelFileNodeBuffers(rnode RelFileNode, f ForkNumber, nForkBlock, firstDelBlock uint32) error {
	p := b.pool
	for cur := firstDelBlock; cur < nForkBlock; cur++ {
		tag := BufferTag{SpcNode: rnode.SpcNode, DbNode: rnode.DbNode, RelNode: rnode.RelNode, ForkNum: f, BlockNum: cur}
		part := BufTableHashPartition(BufTableHashCode(tag))
		// DropPartitionLocks, DropLookups and (when the lookup finds a
		// buffer) DropDescsTouched are counted by lwAcquire and
		// bufTableLookup as they emit the event, so that the counters match
		// the trace after every event.
		b.partitionLock(part, LWShared, sLookupLock)
		id := b.bufTableLookup(tag, part, sLookupLookup)
		b.partitionUnlock(part, sLookupUnlock)
		if id < 0 {
			continue
		}
		d := &p.descs[id] // DropDescsTouched was counted when the lookup found it
		s := b.lockBufHdr(d, sLookupHdrLock)
		if d.tag.SameRel(tag) && d.tag.ForkNum == f && d.tag.BlockNum >= firstDelBlock {
			if err := b.invalidateBuffer(d, s); err != nil {
				return err
			}
			continue
		}
		b.unlockBufHdr(d, s, sLookupHdrUnlock)
	}
	return nil
}

// dropListWalk is the dlist variant's drop (BufferLab's reconstruction of
// the thread's patch, see dlist.go): walk spec's relation's list, reading
// each link under the list lock taken shared, and invalidate the buffers
// that match, without the list lock (InvalidateBuffer takes it
// exclusively to unlink). If the next buffer left the list while the lock
// was released (another backend evicted it), start over from the head.
//
// Events: lw-acquire/lw-release of the list lock (class rel); a load at
// dlist.head (class rel, Obj = relation, After = first buffer or -1, Arg =
// list length), one at dlist.next per node (class buf, Obj = the node,
// After = its state word, Arg = the next buffer or -1), and one at
// dlist.restart (like dlist.head) when the walk starts over.
func (b *Backend) dropListWalk(spec *dropSpec) error {
	dl := b.pool.dl
	rel := int32(spec.rnode.RelNode)
	k := dl.find(spec.rnode)
	if k == relListNone {
		// The relation never had a buffer: its entry does not exist.
		b.step(sDListHead)
		b.Stats.DropListHops++
		b.emit(trace.KLoad, sDListHead, trace.ORelation, rel, 0, trace.NoBuffer, 0)
		return nil
	}
	b.listLock(k, LWShared, sDListLock)
	b.step(sDListHead)
	cur := dl.lists[k].head
	b.Stats.DropListHops++
	b.emit(trace.KLoad, sDListHead, trace.ORelation, rel, 0, uint64(int64(cur)), uint64(dl.lists[k].n))
	for cur != relListNone {
		d := &b.pool.descs[cur]
		b.step(sDListNext)
		next := dl.next[cur]
		b.Stats.DropListHops++
		b.Stats.DropDescsTouched++
		if b.traced() {
			b.emitSlow(trace.KLoad, sDListNext, trace.OBuffer, cur, 0, uint64(d.state.Load()), uint64(int64(next)))
		}
		b.listUnlock(k, sDListUnlock)
		if err := b.dropLockedRecheck(d, spec, sDListHdrLock, sDListHdrUnlock); err != nil {
			return err
		}
		b.listLock(k, LWShared, sDListRelock)
		if next != relListNone && dl.owner[next] != k {
			b.step(sDListRestart)
			next = dl.lists[k].head
			b.Stats.DropListHops++
			b.emit(trace.KLoad, sDListRestart, trace.ORelation, rel, 0, uint64(int64(next)), uint64(dl.lists[k].n))
		}
		cur = next
	}
	b.listUnlock(k, sDListDone)
	return nil
}

// invalidateBuffer is InvalidateBuffer (bufmgr.c, PG 9.6–15; unchanged in
// 16–18): entered with d's header locked (state s), it removes d's page
// from the pool. It takes the old tag's mapping partition lock exclusively
// and relocks the header; if the buffer was recycled meanwhile it leaves it
// alone; if another backend pins it (PostgreSQL assumes: to write it out)
// it releases everything, waits and retries; otherwise it clears the tag,
// the flags and the usage count, deletes the mapping entry and puts the
// buffer at the head of the freelist (StrategyFreeBuffer). With the dlist
// variant it also takes the relation's list lock and unlinks the buffer.
//
// The wait: PostgreSQL calls WaitIO, which returns at once when no I/O is
// in progress, and retries, busy-waiting until the pin goes. BufferLab
// does WaitIO, then yields as a waiting backend until the refcount is 0,
// and only then retries: the retries it skips would all find the buffer
// still pinned (a pinned buffer cannot be retagged). Unscheduled, a wait
// that only another backend can end panics, as everywhere in the engine.
// Our own pin is ERROR "buffer is pinned in InvalidateBuffer".
func (b *Backend) invalidateBuffer(d *BufferDesc, s uint32) error {
	p := b.pool
	oldTag := d.tag
	b.unlockBufHdr(d, s, sInvalUnlock)
	oldPart := BufTableHashPartition(BufTableHashCode(oldTag))
	listK := relListNone
	if p.dl != nil {
		listK = p.dl.find(oldTag.RelFileNode())
	}
	for {
		b.partitionLock(oldPart, LWExclusive, sInvalLockPart) // counts DropPartitionLocks
		if listK != relListNone {
			b.listLock(listK, LWExclusive, sInvalLockList)
		}
		s = b.lockBufHdr(d, sInvalRelock)
		if d.tag != oldTag {
			b.unlockBufHdr(d, s, sInvalChangedUnlock)
			if listK != relListNone {
				b.listUnlock(listK, sInvalChangedRelease)
			}
			b.partitionUnlock(oldPart, sInvalChangedRelease)
			return nil
		}
		if StateRefcount(s) != 0 {
			b.unlockBufHdr(d, s, sInvalPinnedUnlock)
			own := b.PrivateRefCount(Buffer(d.bufID+1)) > 0
			if !own {
				b.Stats.DropPinWaits++
				b.Stats.IOWaits++
				b.emit(trace.KIOWait, sInvalWait, trace.OBuffer, d.bufID, 0, uint64(s), 0)
			}
			if listK != relListNone {
				b.listUnlock(listK, sInvalPinnedRelease)
			}
			b.partitionUnlock(oldPart, sInvalPinnedRelease)
			if own {
				b.Stats.Errors++
				b.emit(trace.KError, sInvalOwnPin, trace.OBuffer, d.bufID, 0, 0, uint64(ErrPinnedInInvalidate))
				return &PGError{Code: ErrPinnedInInvalidate, Msg: "buffer is pinned in InvalidateBuffer"}
			}
			b.waitIO(d)
			for StateRefcount(d.state.Load()) != 0 {
				b.stepWait(sInvalWait)
			}
			continue
		}
		oldFlags := s & BufFlagMask
		b.clearBufferTag(d, s, oldTag, sInvalClear)
		if listK != relListNone {
			b.dlistUnlinkInvalidated(d, listK)
			b.listUnlock(listK, sInvalUnlink)
		}
		if oldFlags&BmTagValid != 0 {
			b.bufTableDelete(oldTag, oldPart, sInvalDelete)
		}
		b.partitionUnlock(oldPart, sInvalRelease) // counts DropInvalidated
		b.strategyFreeBuffer(d)
		return nil
	}
}

// clearBufferTag is ClearBufferTag with the flags and usage count cleared
// in the same UnlockBufHdr (InvalidateBuffer, and 16's
// InvalidateVictimBuffer): one step at site, so that nobody sees the
// cleared tag with BM_TAG_VALID still set. The caller holds d's header
// lock (state s) and oldTag's partition lock. The unlock (BM_TAG_VALID
// gone) is reported before the cleared tag, so that after each event the
// trace tells the whole state.
func (b *Backend) clearBufferTag(d *BufferDesc, s uint32, oldTag BufferTag, site trace.Site) {
	b.step(site)
	prev := d.state.Load()
	after := s &^ (BufFlagMask | BufUsagecountMask)
	d.state.Store(after)
	b.emit(trace.KUnlockHdr, site, trace.OBuffer, d.bufID, uint64(prev), uint64(after), 0)
	d.tag = BufferTag{}
	if b.traced() {
		b.emit(trace.KRetag, site, trace.OBuffer, d.bufID, oldTag.Pack(), noTag, 0)
	}
}
