package fsm

import (
	"fmt"
	"math"

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
	s.emit(trace.KOp, sHInsBegin, trace.OFSMRel, rel, 0, 0, uint64(tupleLen))
	var vm vmPin
	buf, blk, err := s.relationGetBufferForTuple(h, tupleLen, &vm)
	if err != nil {
		if h.newLocked != nil {
			s.unlockNewPage(h) // an extension's new page, if the error came after it
		}
		return TID{}, err
	}
	p := h.page(blk)
	before := p.Word()
	off := p.AddItem(tupleLen)
	if off == 0 {
		panic(fmt.Sprintf("fsm: failed to add tuple of %d bytes to page %d of %s (free %d)", tupleLen, blk, h.Rel.Name, p.HeapFreeSpace()))
	}
	p.Items[off-1].Xmin = s.store.nextXid
	s.store.nextXid++
	s.emit(trace.KHeapPage, sHInsPut, trace.OHeapPage, rel, before, p.Word(), PackAddr(bufmgr.MainForkNum, blk, off))
	if p.AllVisible {
		s.setAllVisible(h, blk, p, bufmgr.InvalidBuffer, &vm, false, sHInsClearVM)
	}
	s.dirty(buf)
	if h.newLocked != nil {
		s.unlockNewPage(h) // UnlockReleaseBuffer of the new page of an extension
	}
	s.release(buf)
	vm.release(s)
	s.Stats.Inserts++
	tid = TID{Block: blk, Offset: uint16(off)}
	s.emit(trace.KOpDone, sHInsDone, trace.OFSMRel, rel, 0, tid.pack(), uint64(tupleLen))
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
	s.emit(trace.KOp, sHDelBegin, trace.OFSMRel, rel, 0, 0, PackAddr(bufmgr.MainForkNum, tid.Block, int(tid.Offset)))
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
	before := pg.Word()
	pg.Items[tid.Offset-1].Deleted = true
	s.store.nextXid++ // the deleting transaction's xid (xmax)
	s.emit(trace.KHeapPage, sHDelMark, trace.OHeapPage, rel, before, pg.Word(), PackAddr(bufmgr.MainForkNum, tid.Block, int(tid.Offset)))
	if pg.AllVisible {
		s.setAllVisible(h, tid.Block, pg, bufmgr.InvalidBuffer, &vm, false, sHDelClearVM)
	}
	s.dirty(buf)
	s.release(buf)
	vm.release(s)
	s.Stats.Deletes++
	s.emit(trace.KOpDone, sHDelDone, trace.OFSMRel, rel, 0, 0, PackAddr(bufmgr.MainForkNum, tid.Block, int(tid.Offset)))
	return nil
}

// Vacuum is a plain VACUUM of a heap without indexes (lazy_scan_heap,
// vacuumlazy.c, PG 15, one pass): every page is read with the VACUUM
// ring; deleted tuples are removed (their line pointers become unused,
// the page is defragmented, trailing unused pointers truncated); every
// page becomes all-visible, which creates the visibility map; the page's
// PageGetHeapFreeSpace is recorded with RecordPageWithFreeSpace (a new page
// 8168 bytes, if the map records nothing for it); then
// FreeSpaceMapVacuumRange brings the upper FSM levels up to date;
// visibilitymap_count reads every map page. Finally vac_update_relstats
// sets relpages, reltuples, relallvisible and relfrozenxid, and only if one
// of them changed does the relation's cache entry get invalidated, so that
// every session forgets its target block (PostgreSQL 15.18 keeps a
// backend's target block across a VACUUM that changed none of them).
// Runs of at least SKIP_PAGES_THRESHOLD (32) all-visible pages are
// skipped, except the last page (lazy_scan_skip), in which case reltuples
// is estimated from the pages scanned (vac_estimate_reltuples) and
// relfrozenxid is kept. Not modelled: truncating empty pages at the end,
// freezing.
func (s *Session) Vacuum(h *Heap) (err error) {
	if err := s.check(h); err != nil {
		return err
	}
	defer s.guard(&err)
	rel := h.Rel.Number
	nb := h.NBlocks()
	s.emit(trace.KOp, sVacBegin, trace.OFSMRel, rel, 0, uint64(nb), 0)
	strategy := s.b.Pool().GetAccessStrategy(bufmgr.BASVacuum)
	var vm vmPin
	defer vm.release(s)
	// lazy_scan_skip (PG 15): from block from on, the run of all-visible
	// pages (the map bit is PD_ALL_VISIBLE here), never the last page; a
	// run of at least SKIP_PAGES_THRESHOLD is skipped.
	var scanned uint32
	var liveScanned int64
	skippedAllVis := false
	skip := func(from uint32) (uint32, bool) {
		next := from
		for next < nb && next != nb-1 {
			if p := h.pageIfExists(next); p == nil || !p.AllVisible {
				break
			}
			next++
		}
		if next-from < skipPagesThreshold {
			return next, false
		}
		skippedAllVis = true
		s.emit(trace.KLoad, sVacSkip, trace.OFSMRel, rel, uint64(from), uint64(next), PackAddr(bufmgr.MainForkNum, from, NodePage))
		return next, true
	}
	nextUnskippable, skipping := skip(0)
	for blk := uint32(0); blk < nb; blk++ {
		if blk == nextUnskippable {
			nextUnskippable, skipping = skip(blk + 1)
		} else if skipping {
			continue
		}
		scanned++
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
			s.emit(trace.KLoad, sVacNew, trace.OHeapPage, rel, uint64(rec), uint64(BLCKSZ-SizeOfPageHeaderData), PackAddr(bufmgr.MainForkNum, blk, NodePage))
			if rec == 0 {
				if err := s.recordPage(h, blk, BLCKSZ-SizeOfPageHeaderData, nb); err != nil {
					return err
				}
			}
			continue
		}
		if !p.IsEmpty() {
			before := p.Word()
			removed := p.vacuum()
			s.emit(trace.KHeapPage, sVacPrune, trace.OHeapPage, rel, before, p.Word(), PackAddr(bufmgr.MainForkNum, blk, NodePage))
			if removed > 0 {
				s.dirty(buf)
			}
		} else {
			s.emit(trace.KLoad, sVacEmpty, trace.OHeapPage, rel, 0, uint64(p.HeapFreeSpace()), PackAddr(bufmgr.MainForkNum, blk, NodePage))
		}
		if !p.AllVisible {
			s.setAllVisible(h, blk, p, buf, &vm, true, sVacAllVisible)
		}
		liveScanned += int64(p.Live())
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
	// visibilitymap_count (heap_vacuum_rel, PG 9.6–18) counts the
	// all-visible pages for pg_class.relallvisible: it reads every map
	// page (vm_readbuf without extending) with the default strategy and
	// releases it, one more pin of each (on PostgreSQL 15.18 a vacuumed
	// table's map page has usage count 2, not 1).
	for blk := uint32(0); h.vmExists && blk < h.Rel.NBlocks[bufmgr.VMForkNum]; blk++ {
		s.emit(trace.KLoad, sVacVMCount, trace.OFSMRel, rel, 0, uint64(blk), PackAddr(bufmgr.VMForkNum, blk, NodePage))
		buf, err := s.readBuffer(h, bufmgr.VMForkNum, blk, nil)
		if err != nil {
			return err
		}
		s.release(buf)
	}
	// vac_update_relstats: pg_class is rewritten, and the relcache entry
	// invalidated in every backend (each forgets its target block), only
	// when relpages, reltuples, relallvisible or relfrozenxid changed. A
	// VACUUM that finds the same numbers leaves every target block cached.
	// relfrozenxid is the oldest xmin still live (PG 15's NewRelfrozenXid;
	// OldestXmin, the next xid, when none is), and only moves forward; a
	// VACUUM that skipped all-visible pages keeps it.
	st := relStats{pages: nb, frozenXid: h.pgclass.frozenXid,
		tuples: vacEstimateRelTuples(h.pgclass, nb, scanned, float64(liveScanned))}
	oldest := s.store.nextXid
	for blk := uint32(0); blk < nb; blk++ {
		p := h.pageIfExists(blk)
		if p == nil {
			continue
		}
		if p.AllVisible {
			st.allVisible++
		}
		for _, it := range p.Items {
			if it.Flags == LPNormal && !it.Deleted {
				oldest = min(oldest, it.Xmin)
			}
		}
	}
	if !skippedAllVis {
		st.frozenXid = max(st.frozenXid, oldest)
	}
	kept := uint64(1)
	if st != h.pgclass {
		h.gen++
		kept = 0
	}
	old := h.relpages
	h.pgclass, h.relpages = st, nb
	s.Stats.Vacuums++
	s.emit(trace.KOpDone, sVacDone, trace.OFSMRel, rel, uint64(old), uint64(nb), kept)
	return nil
}

// skipPagesThreshold is SKIP_PAGES_THRESHOLD (vacuumlazy.c): VACUUM skips
// only runs of at least this many all-visible pages.
const skipPagesThreshold = 32

// vacEstimateRelTuples is vac_estimate_reltuples (vacuum.c, PG 15): the
// count itself after a scan of every page; the old value when the size
// is unchanged and under 2% of it was scanned, or at most one page; else
// the scanned pages' tuples plus the old density over the pages not
// scanned. pg_class stores it as a float4.
func vacEstimateRelTuples(old relStats, total, scanned uint32, scannedTuples float64) float32 {
	if scanned >= total {
		return float32(scannedTuples)
	}
	if old.pages == total && float64(scanned) < float64(total)*0.02 {
		return old.tuples
	}
	if scanned <= 1 {
		return old.tuples
	}
	if old.tuples < 0 || old.pages == 0 {
		return float32(math.Floor(scannedTuples/float64(scanned)*float64(total) + 0.5))
	}
	density := float64(old.tuples) / float64(old.pages)
	return float32(math.Floor(density*float64(total-scanned) + scannedTuples + 0.5))
}
