package fsm

import (
	"fmt"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
)

// TID is an ItemPointer: a block and a line pointer's offset number (1-based).
type TID struct {
	Block  uint32
	Offset uint16
}

func (t TID) String() string { return fmt.Sprintf("(%d,%d)", t.Block, t.Offset) }

func (t TID) pack() uint64 { return uint64(t.Block)<<16 | uint64(t.Offset) }

// UnpackTID decodes the After of a heap_insert done event.
func UnpackTID(v uint64) TID { return TID{Block: uint32(v >> 16), Offset: uint16(v)} }

// HeapInsert is heap_insert (heapam.c, PG 15) of one tuple of tupleLen
// bytes (t_len, header included: see HeapTupleLen): RelationGetBufferForTuple
// finds a page, RelationPutHeapTuple adds it (PageAddItem), an all-visible
// page loses PD_ALL_VISIBLE and its visibility map bit, the buffer is
// dirtied and released. WAL is not modelled, nor TOAST: tupleLen is the
// tuple as stored.
func (s *Session) HeapInsert(h *Heap, tupleLen int) (tid TID, err error) {
	if err := s.check(h); err != nil {
		return TID{}, err
	}
	if tupleLen < MaxAlign(SizeofHeapTupleHeader) {
		return TID{}, fmt.Errorf("fsm: a heap tuple of %d bytes is shorter than its header (%d)", tupleLen, MaxAlign(SizeofHeapTupleHeader))
	}
	defer s.guard(&err)
	rel := h.Rel.Number
	s.emit(trace.KOp, sHInsBegin, trace.ORelation, rel, 0, 0, uint64(tupleLen))
	var vm vmPin
	buf, blk, err := s.relationGetBufferForTuple(h, tupleLen, &vm)
	if err != nil {
		return TID{}, err
	}
	p := h.page(blk)
	before := p.HeapFreeSpace()
	off := p.AddItem(tupleLen)
	if off == 0 {
		panic(fmt.Sprintf("fsm: failed to add tuple of %d bytes to page %d of %s (free %d)", tupleLen, blk, h.Rel.Name, before))
	}
	s.emit(trace.KCAS, sHInsPut, trace.ORelation, rel, uint64(before), uint64(p.HeapFreeSpace()), PackAddr(bufmgr.MainForkNum, blk, off))
	if p.AllVisible {
		p.AllVisible = false
		s.visibilityMapSet(h, blk, &vm, false, sHInsClearVM)
	}
	s.dirty(buf)
	s.release(buf)
	vm.release(s)
	s.Stats.Inserts++
	tid = TID{Block: blk, Offset: uint16(off)}
	s.emit(trace.KOpDone, sHInsDone, trace.ORelation, rel, 0, tid.pack(), uint64(tupleLen))
	return tid, nil
}

// HeapDelete is heap_delete (heapam.c, PG 15), committed: the tuple's
// xmax is set; its space stays used until VACUUM (page pruning on access
// is not modelled). Deleting a tuple that does not exist or is already
// deleted is the caller's mistake.
func (s *Session) HeapDelete(h *Heap, tid TID) (err error) {
	if err := s.check(h); err != nil {
		return err
	}
	if tid.Block >= h.NBlocks() {
		return fmt.Errorf("fsm: %s has no block %d (it has %d)", h.Rel.Name, tid.Block, h.NBlocks())
	}
	pg := h.page(tid.Block)
	if tid.Offset < 1 || int(tid.Offset) > len(pg.Items) || pg.Items[tid.Offset-1].Flags != LPNormal {
		return fmt.Errorf("fsm: %s has no tuple %s", h.Rel.Name, tid)
	}
	if pg.Items[tid.Offset-1].Deleted {
		return fmt.Errorf("fsm: tuple %s of %s is already deleted", tid, h.Rel.Name)
	}
	defer s.guard(&err)
	rel := h.Rel.Number
	s.emit(trace.KOp, sHDelBegin, trace.ORelation, rel, 0, 0, PackAddr(bufmgr.MainForkNum, tid.Block, int(tid.Offset)))
	buf, err := s.readBuffer(h, bufmgr.MainForkNum, tid.Block, nil)
	if err != nil {
		return err
	}
	var vm vmPin
	if pg.AllVisible {
		if err := s.visibilityMapPin(h, tid.Block, sHDelVMPin, &vm); err != nil {
			return err
		}
	}
	pg.Items[tid.Offset-1].Deleted = true
	s.emit(trace.KCAS, sHDelMark, trace.ORelation, rel, 0, 1, PackAddr(bufmgr.MainForkNum, tid.Block, int(tid.Offset)))
	if pg.AllVisible {
		pg.AllVisible = false
		s.visibilityMapSet(h, tid.Block, &vm, false, sHDelClearVM)
	}
	s.dirty(buf)
	s.release(buf)
	vm.release(s)
	s.Stats.Deletes++
	s.emit(trace.KOpDone, sHDelDone, trace.ORelation, rel, 0, 0, PackAddr(bufmgr.MainForkNum, tid.Block, int(tid.Offset)))
	return nil
}

// Vacuum is a plain VACUUM of a heap without indexes (lazy_scan_heap,
// vacuumlazy.c, PG 15, one pass): every page is read with the VACUUM
// ring; deleted tuples are removed (their line pointers become unused,
// the page is defragmented, trailing unused pointers truncated); every
// page becomes all-visible, which creates the visibility map; the page's
// PageGetHeapFreeSpace is recorded with RecordPageWithFreeSpace (a new page
// 8168 bytes, if the map records nothing for it); then
// FreeSpaceMapVacuumRange brings the upper FSM levels up to date. Finally
// relpages is set and the relation's cache entry invalidated, so every
// session forgets its target block. Not modelled: skipping all-visible
// ranges, truncating empty pages at the end, freezing.
func (s *Session) Vacuum(h *Heap) (err error) {
	if err := s.check(h); err != nil {
		return err
	}
	defer s.guard(&err)
	rel := h.Rel.Number
	nb := h.NBlocks()
	s.emit(trace.KOp, sVacBegin, trace.ORelation, rel, 0, uint64(nb), 0)
	strategy := s.b.Pool().GetAccessStrategy(bufmgr.BASVacuum)
	var vm vmPin
	defer vm.release(s)
	for blk := uint32(0); blk < nb; blk++ {
		if err := s.visibilityMapPin(h, blk, sVacVMPin, &vm); err != nil {
			return err
		}
		buf, err := s.readBuffer(h, bufmgr.MainForkNum, blk, strategy)
		if err != nil {
			return err
		}
		p := h.page(blk)
		if p.IsNew() {
			rec, err := s.getRecordedFreeSpace(h, blk)
			if err != nil {
				return err
			}
			s.release(buf)
			s.emit(trace.KLoad, sVacNew, trace.ORelation, rel, uint64(rec), uint64(BLCKSZ-SizeOfPageHeaderData), PackAddr(bufmgr.MainForkNum, blk, NodePage))
			if rec == 0 {
				if err := s.recordPage(h, blk, BLCKSZ-SizeOfPageHeaderData, nb); err != nil {
					return err
				}
			}
			continue
		}
		before := p.HeapFreeSpace()
		if !p.IsEmpty() {
			if p.vacuum() > 0 {
				s.dirty(buf)
			}
			s.emit(trace.KCAS, sVacPrune, trace.ORelation, rel, uint64(before), uint64(p.HeapFreeSpace()), PackAddr(bufmgr.MainForkNum, blk, NodePage))
		} else {
			s.emit(trace.KLoad, sVacEmpty, trace.ORelation, rel, 0, uint64(before), PackAddr(bufmgr.MainForkNum, blk, NodePage))
		}
		if !p.AllVisible {
			p.AllVisible = true
			s.dirty(buf)
			s.visibilityMapSet(h, blk, &vm, true, sVacAllVisible)
		}
		free := p.HeapFreeSpace()
		s.release(buf)
		if err := s.recordPage(h, blk, free, nb); err != nil {
			return err
		}
	}
	vm.release(s)
	if err := s.vacuumRange(h, 0, nb); err != nil {
		return err
	}
	old := h.relpages
	h.relpages = nb
	h.gen++
	s.Stats.Vacuums++
	s.emit(trace.KOpDone, sVacDone, trace.ORelation, rel, uint64(old), uint64(nb), 0)
	return nil
}
