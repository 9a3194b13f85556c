package fsm

import (
	"fmt"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
)

// vmPin is a visibility map buffer a caller keeps pinned across calls, as
// the vmbuffer arguments of hio.c and vacuumlazy.c: which map block it
// holds.
type vmPin struct {
	buf bufmgr.Buffer
	blk uint32
}

func (v *vmPin) release(s *Session) {
	if v.buf != bufmgr.InvalidBuffer {
		s.release(v.buf)
		v.buf = bufmgr.InvalidBuffer
	}
}

// visibilityMapPin is visibilitymap_pin with vm_readbuf(extend = true)
// (visibilitymap.c, PG 15): keep the map page of heapBlk pinned in v,
// creating and extending the fork when it is too short.
func (s *Session) visibilityMapPin(h *Heap, heapBlk uint32, site trace.Site, v *vmPin) error {
	mapBlock := heapBlk / VMHeapBlocksPerPage
	if v.buf != bufmgr.InvalidBuffer {
		if v.blk == mapBlock {
			return nil
		}
		v.release(s)
	}
	rel := h.Rel.Number
	if old := h.Rel.NBlocks[bufmgr.VMForkNum]; !h.vmExists || mapBlock >= old {
		existed := h.vmExists
		h.vmExists = true
		if mapBlock >= old {
			h.Rel.NBlocks[bufmgr.VMForkNum] = mapBlock + 1
			s.Stats.Extends[bufmgr.VMForkNum] += uint64(mapBlock + 1 - old)
		}
		s.emit(trace.KForkSize, sVMExtend, trace.OFSMRel, rel, ForkWord(existed, old), ForkWord(true, h.Rel.NBlocks[bufmgr.VMForkNum]), PackAddr(bufmgr.VMForkNum, mapBlock, NodePage))
	}
	s.emit(trace.KLoad, site, trace.OFSMRel, rel, uint64(heapBlk), uint64(mapBlock), PackAddr(bufmgr.VMForkNum, mapBlock, NodePage))
	buf, err := s.readBuffer(h, bufmgr.VMForkNum, mapBlock, nil)
	if err != nil {
		return err
	}
	v.buf, v.blk = buf, mapBlock
	return nil
}

// setAllVisible sets or clears heap block heapBlk's PD_ALL_VISIBLE and,
// with visibilitymap_set / visibilitymap_clear, its bit on the pinned map
// page: the model keeps the bit equal to the flag, so the map page is only
// dirtied. The change is recorded (a KHeapPage event) as soon as it is
// made; then heapBuf (when valid) and the map page are dirtied.
func (s *Session) setAllVisible(h *Heap, heapBlk uint32, p *HeapPage, heapBuf bufmgr.Buffer, v *vmPin, set bool, site trace.Site) {
	if v.buf == bufmgr.InvalidBuffer || v.blk != heapBlk/VMHeapBlocksPerPage {
		panic(fmt.Sprintf("fsm: visibility map bit of %s block %d changed without its map page pinned", h.Rel.Name, heapBlk))
	}
	before := p.Word()
	p.AllVisible = set
	s.emit(trace.KHeapPage, site, trace.OHeapPage, h.Rel.Number, before, p.Word(), PackAddr(bufmgr.MainForkNum, heapBlk, NodePage))
	if heapBuf != bufmgr.InvalidBuffer {
		s.dirty(heapBuf)
	}
	s.dirty(v.buf)
}

// relationGetBufferForTuple is RelationGetBufferForTuple (hio.c, PG 15; PG 16–18 past the loop)
// for heap_insert without a BulkInsertState or an UPDATE's other buffer:
// it returns a pinned buffer of a page with room for tupleLen bytes
// (MAXALIGN'd) plus fillfactor's reserve (capped for big tuples on nearly
// empty pages), trying the cached target block, then the FSM (or, in
// small-skip, the local map), then the last page, retrying through
// RecordAndGetPageWithFreeSpace, and finally extending the heap by one
// page. At 15 the extension lock is always granted at once (no other
// backend extends concurrently in the model), so RelationAddExtraBlocks
// never runs; at 16 and later (hio16) the heap grows through
// RelationAddBlocks (extend16.go), which queues on the lock. Content locks
// are not modelled (bufmgr exports no LockBuffer), except the one the
// extender holds on its new page until heap_insert lets it go
// (newPageLock): a backend that tries that page meanwhile waits.
func (s *Session) relationGetBufferForTuple(h *Heap, tupleLen int, vm *vmPin) (bufmgr.Buffer, uint32, error) {
	rel := h.Rel.Number
	n := MaxAlign(tupleLen)
	if n > MaxHeapTupleSize {
		s.emit(trace.KError, sHioTooBig, trace.OFSMRel, rel, uint64(n), MaxHeapTupleSize, uint64(ErrRowTooBig))
		return bufmgr.InvalidBuffer, 0, errRowTooBig(n)
	}
	save := TargetPageFreeSpace(h.fillfactor)
	target := TargetFreeSpace(n, h.fillfactor, true)
	skip := s.store.opt.Variant == SmallSkip
	s.emit(trace.KOp, sHioBegin, trace.OFSMRel, rel, uint64(save), uint64(target), uint64(n))
	// In PostgreSQL no local map exists here: the previous call cleared
	// it before returning. One can only be left by GetPageWithFreeSpace or
	// RecordAndGetPageWithFreeSpace called on their own (a lesson's
	// steps); it may describe another heap or an older size, so it goes.
	s.clearLocalMap()

	blk := s.TargetBlock(h)
	s.emit(trace.KLoad, sHioCached, trace.OFSMRel, rel, 0, uint64(blk), 0)
	if blk == InvalidBlockNumber {
		var err error
		if blk, err = s.getPageWithFreeSpace(h, target); err != nil {
			return bufmgr.InvalidBuffer, 0, err
		}
		// PostgreSQL 15 tries the last page when the FSM knows nothing;
		// the patch had moved that into GetPageWithFreeSpace.
		if blk == InvalidBlockNumber && !skip {
			if nb := h.NBlocks(); nb > 0 {
				blk = nb - 1
				s.emit(trace.KLoad, sHioLast, trace.OFSMRel, rel, uint64(nb), uint64(blk), PackAddr(bufmgr.MainForkNum, blk, NodePage))
			}
		}
	}
retry:
	for blk != InvalidBlockNumber {
		if blk >= h.NBlocks() {
			panic(fmt.Sprintf("fsm: RelationGetBufferForTuple on %s was pointed at block %d of %d", h.Rel.Name, blk, h.NBlocks()))
		}
		s.emit(trace.KLoad, sHioRead, trace.OHeapPage, rel, 0, uint64(blk), PackAddr(bufmgr.MainForkNum, blk, NodePage))
		buf, err := s.readBuffer(h, bufmgr.MainForkNum, blk, nil)
		if err != nil {
			return bufmgr.InvalidBuffer, 0, err
		}
		if h.newLocked != nil {
			s.waitNewPage(h, blk) // LockBuffer: nil before the heap's first extension
		}
		p := h.page(blk)
		if p.AllVisible {
			if err := s.visibilityMapPin(h, blk, sHioVMPin, vm); err != nil {
				return bufmgr.InvalidBuffer, 0, err
			}
		}
		if p.IsNew() {
			before := p.Word()
			p.Init()
			s.emit(trace.KHeapPage, sHioInit, trace.OHeapPage, rel, before, p.Word(), PackAddr(bufmgr.MainForkNum, blk, NodePage))
			s.dirty(buf)
		}
		free := p.HeapFreeSpace()
		s.emit(trace.KLoad, sHioCheck, trace.OHeapPage, rel, uint64(target), uint64(free), PackAddr(bufmgr.MainForkNum, blk, NodePage))
		if target <= free {
			s.setTargetBlock(h, blk)
			if skip && blk < s.store.thr {
				s.clearLocalMap()
			}
			s.emit(trace.KOpDone, sHioUse, trace.OFSMRel, rel, uint64(target), uint64(blk), PackAddr(bufmgr.MainForkNum, blk, NodePage))
			return buf, blk, nil
		}
		s.release(buf)
		s.Stats.PagesTried++
		s.emit(trace.KPageTried, sHioFull, trace.OHeapPage, rel, uint64(target), uint64(free), PackAddr(bufmgr.MainForkNum, blk, NodePage))
		if blk, err = s.recordAndGet(h, blk, free, target); err != nil {
			return bufmgr.InvalidBuffer, 0, err
		}
	}

	if s.hio16() {
		// PostgreSQL 16–18: RelationAddBlocks, then (did_unlock) the
		// new page's free space checked again: someone may have used it
		// while its content lock was let go (goto loop).
		buf, nb, unlocked, err := s.relationAddBlocks(h)
		if err != nil {
			return bufmgr.InvalidBuffer, 0, err
		}
		p := h.page(nb)
		if unlocked {
			free := p.HeapFreeSpace()
			s.emit(trace.KLoad, sAddBlocksRecheck, trace.OHeapPage, rel, uint64(n), uint64(free), PackAddr(bufmgr.MainForkNum, nb, NodePage))
			if n > free {
				s.release(buf)
				blk = nb
				goto retry
			}
		} else if n > p.HeapFreeSpace() {
			panic(fmt.Sprintf("hio: tuple of %d B does not fit the new page %d of %q (%d B free): PostgreSQL would PANIC \"tuple is too big\"", n, nb, h.Rel.Name, p.HeapFreeSpace()))
		}
		s.setTargetBlock(h, nb)
		s.emit(trace.KOpDone, sHioExtended, trace.OFSMRel, rel, uint64(target), uint64(nb), PackAddr(bufmgr.MainForkNum, nb, NodePage))
		return buf, nb, nil
	}

	// Extend the heap by one page: ReadBufferBI(P_NEW, RBM_ZERO_AND_LOCK).
	nb := h.NBlocks()
	if nb == InvalidBlockNumber {
		return bufmgr.InvalidBuffer, 0, fmt.Errorf("cannot extend relation %s beyond %d blocks", h.Rel.Name, MaxBlockNumber)
	}
	h.Rel.NBlocks[bufmgr.MainForkNum] = nb + 1
	s.Stats.Extends[bufmgr.MainForkNum]++
	s.emit(trace.KForkSize, sHioExtend, trace.OFSMRel, rel, ForkWord(true, nb), ForkWord(true, nb+1), PackAddr(bufmgr.MainForkNum, nb, NodePage))
	// RBM_ZERO_AND_LOCK: the new page is this backend's until heap_insert
	// lets it go (untraced at 15: extend16.go's newPageLock).
	s.lockNewPage(h, nb, false)
	buf, err := s.readBuffer(h, bufmgr.MainForkNum, nb, nil)
	if err != nil {
		s.unlockNewPage(h)
		return bufmgr.InvalidBuffer, 0, err
	}
	p := s.initNewPage(h, nb, buf, sHioExtendInit)
	if skip {
		s.clearLocalMap()
	}
	if n > p.HeapFreeSpace() {
		// hio.c raises PANIC here ("We should not get here given the test
		// at the top"): RelationGetBufferForTuple has already refused any
		// len > MaxHeapTupleSize, and a new page has more free space than
		// that. Reaching it is a broken invariant of the model, not a
		// PostgreSQL-level outcome, so it panics like one.
		panic(fmt.Sprintf("hio: tuple of %d B does not fit the new page %d of %q (%d B free): PostgreSQL would PANIC \"tuple is too big\"", n, nb, h.Rel.Name, p.HeapFreeSpace()))
	}
	s.setTargetBlock(h, nb)
	s.emit(trace.KOpDone, sHioExtended, trace.OFSMRel, rel, uint64(target), uint64(nb), PackAddr(bufmgr.MainForkNum, nb, NodePage))
	return buf, nb, nil
}

// initNewPage is what both extension paths do with the page they keep:
// it must be new (hio.c's "page %u of relation \"%s\" should be empty but
// is not", an ERROR in PostgreSQL that the model cannot reach: a broken
// invariant), PageInit, MarkBufferDirty. site is the path's init site
// (hio.extend-init at 15, RelationAddBlocks' at 16 and later).
func (s *Session) initNewPage(h *Heap, blk uint32, buf bufmgr.Buffer, site trace.Site) *HeapPage {
	p := h.page(blk)
	if !p.IsNew() {
		panic(fmt.Sprintf("page %d of relation %q should be empty but is not", blk, h.Rel.Name))
	}
	before := p.Word()
	p.Init()
	s.emit(trace.KHeapPage, site, trace.OHeapPage, h.Rel.Number, before, p.Word(), PackAddr(bufmgr.MainForkNum, blk, NodePage))
	s.dirty(buf)
	return p
}
