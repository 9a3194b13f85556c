package fsm

import (
	"fmt"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
)

// NoSlot is what a slot event records for "no slot" (-1).
const NoSlot = ^uint64(0)

// GetPageWithFreeSpace is GetPageWithFreeSpace (freespace.c, PG 15): a
// heap block whose recorded free space is at least needed bytes (rounded
// up to a category), found by fsm_search from the root without extending
// the fork, or InvalidBlockNumber. The caller must check the page: the map
// is only a hint. In the small-skip variant a miss then falls back as the
// patch did: the last page of a heap above the threshold, the local map
// for a smaller one.
func (s *Session) GetPageWithFreeSpace(h *Heap, needed int) (blk uint32, err error) {
	if err := s.check(h); err != nil {
		return InvalidBlockNumber, err
	}
	if err := s.checkLocal(h); err != nil {
		return InvalidBlockNumber, err
	}
	defer s.guard(&err)
	return s.getPageWithFreeSpace(h, needed)
}

// RecordPageWithFreeSpace is RecordPageWithFreeSpace (freespace.c, PG 15):
// set heap block blk's leaf to the category of avail bytes (rounded down),
// on the leaf page only, creating and zero-extending the fork as needed.
// Upper levels learn of an increase only from FreeSpaceMapVacuum or a
// search's stale-parent fix. In the small-skip variant nothing is recorded
// (and no map made) while fsm_allow_writes says no.
func (s *Session) RecordPageWithFreeSpace(h *Heap, blk uint32, avail int) (err error) {
	if err := s.check(h); err != nil {
		return err
	}
	if blk > MaxBlockNumber {
		return fmt.Errorf("fsm: block %d is not a valid block number", blk)
	}
	defer s.guard(&err)
	return s.recordPage(h, blk, avail, InvalidBlockNumber)
}

// RecordAndGetPageWithFreeSpace is RecordAndGetPageWithFreeSpace
// (freespace.c, PG 15): record that oldPage has oldAvail bytes free, then
// look for needed bytes on the same leaf page while it is still locked
// (fsm_search_avail with advancenext), and failing that with fsm_search.
// The small-skip variant first consults (or builds) the local map.
func (s *Session) RecordAndGetPageWithFreeSpace(h *Heap, oldPage uint32, oldAvail, needed int) (blk uint32, err error) {
	if err := s.check(h); err != nil {
		return InvalidBlockNumber, err
	}
	if oldPage > MaxBlockNumber {
		return InvalidBlockNumber, fmt.Errorf("fsm: block %d is not a valid block number", oldPage)
	}
	if err := s.checkLocal(h); err != nil {
		return InvalidBlockNumber, err
	}
	if n := s.local.nblocks; n > 0 {
		if oldPage >= n {
			return InvalidBlockNumber, fmt.Errorf("fsm: block %d is beyond the local map of %d blocks", oldPage, n)
		}
	}
	defer s.guard(&err)
	return s.recordAndGet(h, oldPage, oldAvail, needed)
}

// FreeSpaceMapVacuum is FreeSpaceMapVacuum (freespace.c, PG 15): bring
// every upper-level slot up to date with the pages below it, depth first.
func (s *Session) FreeSpaceMapVacuum(h *Heap) (err error) {
	if err := s.check(h); err != nil {
		return err
	}
	defer s.guard(&err)
	return s.vacuumRange(h, 0, InvalidBlockNumber)
}

// FreeSpaceMapVacuumRange is FreeSpaceMapVacuumRange (freespace.c, PG 15):
// as FreeSpaceMapVacuum, for the upper-level slots covering heap blocks
// start..end-1 (end InvalidBlockNumber: to the end).
func (s *Session) FreeSpaceMapVacuumRange(h *Heap, start, end uint32) (err error) {
	if err := s.check(h); err != nil {
		return err
	}
	defer s.guard(&err)
	return s.vacuumRange(h, start, end)
}

// GetRecordedFreeSpace is GetRecordedFreeSpace (freespace.c): the free
// space the leaf of blk records (the category's lower bound; what
// pg_freespace reports), 0 when there is no such FSM page. It reads the
// leaf page through the pool.
func (s *Session) GetRecordedFreeSpace(h *Heap, blk uint32) (avail int, err error) {
	if err := s.check(h); err != nil {
		return 0, err
	}
	if blk > MaxBlockNumber {
		return 0, fmt.Errorf("fsm: block %d is not a valid block number", blk)
	}
	defer s.guard(&err)
	return s.getRecordedFreeSpace(h, blk)
}

// LinearSearch is not PostgreSQL's: it scans the leaf level from heap
// block 0 for the first block recorded with the category needed bytes
// need, reading every leaf page in turn through the buffer pool. It is the
// reference the tree search is tested and measured against; it returns
// InvalidBlockNumber when no leaf qualifies. It emits no events of its own.
func (s *Session) LinearSearch(h *Heap, needed int) (blk uint32, err error) {
	if err := s.check(h); err != nil {
		return InvalidBlockNumber, err
	}
	cat, err := SpaceNeededToCat(needed)
	if err != nil {
		return InvalidBlockNumber, err
	}
	defer s.guard(&err)
	nb := h.NBlocks()
	size := h.fsmNBlocks()
	for lp := uint32(0); uint64(lp)*SlotsPerFSMPage < uint64(nb); lp++ {
		a := Address{Level: FSMBottomLevel, LogPageNo: lp}
		phys := a.Physical()
		if phys >= size {
			break
		}
		buf, err := s.readBuffer(h, bufmgr.FSMForkNum, phys, nil)
		if err != nil {
			return InvalidBlockNumber, err
		}
		first := lp * SlotsPerFSMPage
		if p := h.fsm[phys]; p != nil {
			leaves := p.nodes[NonLeafNodesPerPage:]
			n := min(uint64(SlotsPerFSMPage), uint64(nb)-uint64(first))
			for i, v := range leaves[:n] {
				if v >= cat {
					s.release(buf)
					return first + uint32(i), nil
				}
			}
		}
		s.release(buf)
	}
	return InvalidBlockNumber, nil
}

// --- internals ---

// neededToCat is fsm_space_needed_to_cat with its ERROR as an event.
func (s *Session) neededToCat(h *Heap, needed int) (uint8, error) {
	cat, err := SpaceNeededToCat(needed)
	if err != nil {
		s.emit(trace.KError, sCatError, trace.OFSMRel, h.Rel.Number, 0, 0, uint64(ErrInvalidRequestSize))
	}
	return cat, err
}

func (s *Session) getPageWithFreeSpace(h *Heap, needed int) (uint32, error) {
	cat, err := s.neededToCat(h, needed)
	if err != nil {
		return InvalidBlockNumber, err
	}
	rel := h.Rel.Number
	s.emit(trace.KOp, sGPWFSBegin, trace.OFSMRel, rel, 0, uint64(cat), uint64(needed))
	blk, err := s.fsmSearch(h, cat)
	if err != nil {
		return InvalidBlockNumber, err
	}
	if blk == InvalidBlockNumber && s.store.opt.Variant == SmallSkip {
		// GetPageWithFreeSpace(rel, spaceNeeded, check_fsm_only = false),
		// PG 12 devel: the heap (relkind 'r') fallbacks.
		n := h.NBlocks()
		if n > s.store.thr {
			blk = n - 1
			s.emit(trace.KLoad, sGPWFSLast, trace.OFSMRel, rel, uint64(n), uint64(blk), PackAddr(bufmgr.MainForkNum, blk, NodePage))
		} else if n > 0 {
			s.emit(trace.KLoad, sGPWFSLocal, trace.OFSMRel, rel, 0, uint64(n), uint64(s.store.thr))
			s.localSet(h, n)
			blk = s.localSearch(h)
		}
	}
	s.emit(trace.KOpDone, sGPWFSDone, trace.OFSMRel, rel, 0, uint64(blk), uint64(needed))
	return blk, nil
}

func (s *Session) recordPage(h *Heap, blk uint32, avail int, nblocks uint32) error {
	rel := h.Rel.Number
	if s.store.opt.Variant == SmallSkip {
		if ok, _ := s.allowWrites(h, blk, nblocks); !ok {
			s.emit(trace.KLoad, sRPWFSSkip, trace.OFSMRel, rel, uint64(blk), 0, uint64(avail))
			return nil
		}
	}
	cat := SpaceAvailToCat(avail)
	s.emit(trace.KOp, sRPWFSBegin, trace.OFSMRel, rel, uint64(blk), uint64(cat), uint64(max(avail, 0)))
	a, slot := Location(blk)
	if _, err := s.setAndSearch(h, a, slot, cat, 0); err != nil {
		return err
	}
	s.emit(trace.KOpDone, sRPWFSDone, trace.OFSMRel, rel, uint64(blk), uint64(cat), uint64(max(avail, 0)))
	return nil
}

func (s *Session) recordAndGet(h *Heap, oldPage uint32, oldAvail, needed int) (uint32, error) {
	rel := h.Rel.Number
	if s.store.opt.Variant == SmallSkip {
		if s.local.nblocks > 0 {
			// The local map exists: oldPage was tried and found full.
			s.localSetEntry(oldPage, localNotAvail, sRAGPLocal)
			return s.localSearch(h), nil
		}
		if ok, n := s.allowWrites(h, oldPage, InvalidBlockNumber); !ok {
			// No map and no FSM: we probably just tried the cached
			// target block, so build the local map now.
			s.emit(trace.KLoad, sRAGPLocalNew, trace.OFSMRel, rel, uint64(oldPage), uint64(n), uint64(s.store.thr))
			s.localSet(h, n)
			return s.localSearch(h), nil
		}
	}
	oldCat := SpaceAvailToCat(oldAvail)
	searchCat, err := s.neededToCat(h, needed)
	if err != nil {
		return InvalidBlockNumber, err
	}
	s.emit(trace.KOp, sRAGPBegin, trace.OFSMRel, rel, uint64(oldPage), uint64(oldCat), uint64(searchCat))
	a, slot := Location(oldPage)
	ss, err := s.setAndSearch(h, a, slot, oldCat, searchCat)
	if err != nil {
		return InvalidBlockNumber, err
	}
	if ss != -1 {
		blk := HeapBlock(a, uint16(ss))
		if blk < h.NBlocks() { // fsm_does_block_exist
			s.emit(trace.KOpDone, sRAGPSamePage, trace.OFSMRel, rel, uint64(oldPage), uint64(blk), uint64(searchCat))
			return blk, nil
		}
	}
	blk, err := s.fsmSearch(h, searchCat)
	if err != nil {
		return InvalidBlockNumber, err
	}
	s.emit(trace.KOpDone, sRAGPSearch, trace.OFSMRel, rel, uint64(oldPage), uint64(blk), uint64(searchCat))
	return blk, nil
}

func (s *Session) getRecordedFreeSpace(h *Heap, blk uint32) (int, error) {
	a, slot := Location(blk)
	buf, p, err := s.fsmReadbuf(h, a, false)
	if err != nil || buf == bufmgr.InvalidBuffer {
		return 0, err
	}
	cat := p.GetAvail(int(slot))
	s.release(buf)
	s.emit(trace.KLoad, sGRFSDone, trace.OFSMNode, h.Rel.Number, uint64(cat), uint64(CatToAvail(cat)),
		PackAddr(bufmgr.FSMForkNum, a.Physical(), NonLeafNodesPerPage+int(slot)))
	return CatToAvail(cat), nil
}

// fsmReadbuf is fsm_readbuf (freespace.c, PG 15): read FSM page addr. A
// page beyond the end of the fork (or with no fork) is not read:
// InvalidBuffer, unless extend, which zero-extends the fork first
// (fsm_extend). A new (all-zero) page is initialised; a page whose header
// a torn write damaged is zeroed, as RBM_ZERO_ON_ERROR does (here on any
// read, not only one from disk).
func (s *Session) fsmReadbuf(h *Heap, a Address, extend bool) (bufmgr.Buffer, *Page, error) {
	blkno := a.Physical()
	rel := h.Rel.Number
	if n := h.fsmNBlocks(); blkno >= n {
		if !extend {
			s.Stats.FSMSkipped++
			s.emit(trace.KFSMSkip, sFSMReadBeyond, trace.OFSMPage, rel, b2u(h.fsmExists), uint64(n), PackAddr(bufmgr.FSMForkNum, blkno, NodePage))
			return bufmgr.InvalidBuffer, nil, nil
		}
		s.fsmExtend(h, blkno+1)
	}
	buf, err := s.readBuffer(h, bufmgr.FSMForkNum, blkno, nil)
	if err != nil {
		return bufmgr.InvalidBuffer, nil, err
	}
	if h.fsmTorn[blkno] {
		// Zeroed: one event per node that changes (and fp_next_slot),
		// so that stepping back can restore the page.
		delete(h.fsmTorn, blkno)
		if p := h.fsm[blkno]; p != nil {
			t := s.tr(h, blkno)
			for n, v := range p.nodes {
				if v != 0 {
					p.nodes[n] = 0
					t.store(sFSMReadZeroed, n, uint64(v), 0)
				}
			}
			if old := p.nextSlot; old != 0 {
				p.nextSlot = 0
				t.store(sFSMReadZeroed, NodeNextSlot, uint64(int64(old)), 0)
			}
		}
		s.emit(trace.KLoad, sFSMReadZeroed, trace.OFSMPage, rel, 0, 0, PackAddr(bufmgr.FSMForkNum, blkno, NodePage))
	}
	if h.fsm[blkno] == nil {
		h.fsm[blkno] = &Page{}
		s.emit(trace.KLoad, sFSMReadInit, trace.OFSMPage, rel, 0, 0, PackAddr(bufmgr.FSMForkNum, blkno, NodePage))
	}
	return buf, h.fsm[blkno], nil
}

// fsmExtend is fsm_extend (freespace.c, PG 15): create the fork if it does
// not exist, then append zero pages until it has n. It writes through smgr,
// not the buffer pool.
func (s *Session) fsmExtend(h *Heap, n uint32) {
	rel := h.Rel.Number
	if !h.fsmExists {
		h.fsmExists = true
		s.emit(trace.KForkSize, sFSMExtCreate, trace.OFSMRel, rel, ForkWord(false, 0), ForkWord(true, 0), PackAddr(bufmgr.FSMForkNum, 0, NodePage))
	}
	old := h.Rel.NBlocks[bufmgr.FSMForkNum]
	if old >= n {
		return
	}
	h.Rel.NBlocks[bufmgr.FSMForkNum] = n
	h.fsm = append(h.fsm, make([]*Page, n-old)...)
	s.Stats.Extends[bufmgr.FSMForkNum] += uint64(n - old)
	s.emit(trace.KForkSize, sFSMExtExtend, trace.OFSMRel, rel, ForkWord(true, old), ForkWord(true, n), PackAddr(bufmgr.FSMForkNum, n-1, NodePage))
}

// setAndSearch is fsm_set_and_search (freespace.c, PG 15): under the page's
// exclusive lock, set slot to newValue and, when minValue > 0, search the
// same page (advancing fp_next_slot at the leaf level). It reads with
// extend, so a write creates the fork.
func (s *Session) setAndSearch(h *Heap, a Address, slot uint16, newValue, minValue uint8) (int, error) {
	buf, p, err := s.fsmReadbuf(h, a, true)
	if err != nil {
		return -1, err
	}
	t := s.tr(h, a.Physical())
	if p.setAvail(t, int(slot), newValue) {
		s.dirty(buf) // MarkBufferDirtyHint
	}
	newslot := -1
	if minValue != 0 {
		var rep int
		newslot, rep = p.searchAvail(t, minValue, a.Level == FSMBottomLevel, &s.Stats.TornRepairs)
		if rep > 0 {
			s.dirty(buf)
		}
	}
	s.release(buf)
	return newslot, nil
}

// addrWord packs an FSM address for an event value: level<<32 | logpageno.
func addrWord(a Address) uint64 { return uint64(a.Level)<<32 | uint64(a.LogPageNo) }

// UnpackAddrWord decodes the Before of a search-slot event.
func UnpackAddrWord(w uint64) Address { return Address{Level: int(w >> 32), LogPageNo: uint32(w)} }

func slotWord(slot int) uint64 {
	if slot < 0 {
		return NoSlot
	}
	return uint64(slot)
}

// fsmSearch is fsm_search (freespace.c, PG 15 with the 2024 back-patch of
// fsm_does_block_exist): descend from the root, searching each page. A miss
// at the root means there is no such page; a miss lower down means the
// parent's slot was stale: set it to this page's maximum and start over.
// A hit at the leaf level beyond the heap's end is zeroed and the search
// starts over; as in the source, it then continues from the root's child
// at that slot (addr = root, then addr = fsm_get_child(addr, slot)), a page
// that for all but enormous maps does not exist, so the next round resets
// the root's slot and restarts from the root. At most 10000 restarts.
func (s *Session) fsmSearch(h *Heap, minCat uint8) (uint32, error) {
	s.Stats.Searches++
	rel := h.Rel.Number
	s.emit(trace.KLoad, sFSMSearchBegin, trace.OFSMRel, rel, 0, uint64(minCat), 0)
	restarts := 0
	a := RootAddress
	for {
		phys := a.Physical()
		buf, p, err := s.fsmReadbuf(h, a, false)
		if err != nil {
			return InvalidBlockNumber, err
		}
		slot := -1
		var maxAvail uint8
		if buf != bufmgr.InvalidBuffer {
			var rep int
			slot, rep = p.searchAvail(s.tr(h, phys), minCat, a.Level == FSMBottomLevel, &s.Stats.TornRepairs)
			if rep > 0 {
				s.dirty(buf)
			}
			if slot == -1 {
				maxAvail = p.MaxAvail()
				s.release(buf)
			}
		}
		s.emit(trace.KLoad, sFSMSearchSlot, trace.OFSMPage, rel, addrWord(a), slotWord(slot), PackAddr(bufmgr.FSMForkNum, phys, NodePage))
		switch {
		case slot != -1:
			if a.Level == FSMBottomLevel {
				blk := HeapBlock(a, uint16(slot))
				if blk < h.NBlocks() { // fsm_does_block_exist
					s.release(buf)
					s.emit(trace.KLoad, sFSMSearchFound, trace.OFSMRel, rel, uint64(minCat), uint64(blk), PackAddr(bufmgr.MainForkNum, blk, NodePage))
					return blk, nil
				}
				// Past the end of the heap: zero the slot, restart.
				p.setAvail(s.tr(h, phys), slot, 0)
				s.dirty(buf)
				s.release(buf)
				s.emit(trace.KLoad, sFSMSearchBeyondEOF, trace.OFSMRel, rel, uint64(h.NBlocks()), uint64(blk), PackAddr(bufmgr.MainForkNum, blk, NodePage))
				if !s.searchRestart(rel, &restarts, sFSMSearchEOFRestart) {
					return InvalidBlockNumber, nil
				}
				a = RootAddress
			} else {
				s.release(buf)
			}
			a = a.Child(uint16(slot))
		case a.Level == FSMRootLevel:
			s.emit(trace.KLoad, sFSMSearchNone, trace.OFSMRel, rel, uint64(minCat), uint64(InvalidBlockNumber), PackAddr(bufmgr.FSMForkNum, phys, NodePage))
			return InvalidBlockNumber, nil
		default:
			parent, pslot := a.Parent()
			s.Stats.StaleParents++
			s.emit(trace.KLoad, sFSMSearchFixParent, trace.OFSMRel, rel, addrWord(a), uint64(maxAvail),
				PackAddr(bufmgr.FSMForkNum, parent.Physical(), NonLeafNodesPerPage+int(pslot)))
			if _, err := s.setAndSearch(h, parent, pslot, maxAvail, 0); err != nil {
				return InvalidBlockNumber, err
			}
			if !s.searchRestart(rel, &restarts, sFSMSearchRestart) {
				return InvalidBlockNumber, nil
			}
			a = RootAddress
		}
	}
}

// searchRestart is fsm_search's "if (restarts++ > 10000) return
// InvalidBlockNumber" before each of its two restarts from the root: it
// counts the restart and reports false, after a give-up event, when the
// search is to give up. Events: a load at site (the restart, After = the
// restarts so far) or at fsmsearch.give-up.
func (s *Session) searchRestart(rel uint32, restarts *int, site trace.Site) bool {
	r := *restarts
	*restarts++
	if r > FSMRestartLimit {
		s.emit(trace.KLoad, sFSMSearchGiveUp, trace.OFSMRel, rel, 0, uint64(*restarts), 0)
		return false
	}
	s.Stats.Restarts++
	s.emit(trace.KLoad, site, trace.OFSMRel, rel, 0, uint64(*restarts), 0)
	return true
}

func (s *Session) vacuumRange(h *Heap, start, end uint32) error {
	if end <= start {
		return nil
	}
	s.emit(trace.KOp, sFSMVacBegin, trace.OFSMRel, h.Rel.Number, uint64(start), uint64(end), 0)
	if _, _, err := s.vacuumPage(h, RootAddress, start, end); err != nil {
		return err
	}
	s.emit(trace.KOpDone, sFSMVacDone, trace.OFSMRel, h.Rel.Number, uint64(start), uint64(end), 0)
	return nil
}

// vacuumPage is fsm_vacuum_page (freespace.c, PG 15): read page a (eof
// when it does not exist), recurse into the children whose slots cover
// heap blocks start..end-1 and set each such slot to its child's maximum,
// then reset fp_next_slot (without a lock and without dirtying: a hint)
// and return the page's maximum. Pages are visited depth first, which is
// their physical order.
func (s *Session) vacuumPage(h *Heap, a Address, start, end uint32) (uint8, bool, error) {
	rel := h.Rel.Number
	phys := a.Physical()
	buf, p, err := s.fsmReadbuf(h, a, false)
	if err != nil {
		return 0, false, err
	}
	if buf == bufmgr.InvalidBuffer {
		s.emit(trace.KLoad, sFSMVacEOF, trace.OFSMPage, rel, addrWord(a), 0, PackAddr(bufmgr.FSMForkNum, phys, NodePage))
		return 0, true, nil
	}
	if a.Level > FSMBottomLevel {
		fs, fsSlot := Location(start)
		fe, feSlot := Location(end - 1)
		for fs.Level < a.Level {
			fs, fsSlot = fs.Parent()
			fe, feSlot = fe.Parent()
		}
		var startSlot, endSlot int
		switch {
		case fs.LogPageNo == a.LogPageNo:
			startSlot = int(fsSlot)
		case fs.LogPageNo > a.LogPageNo:
			startSlot = SlotsPerFSMPage
		}
		switch {
		case fe.LogPageNo == a.LogPageNo:
			endSlot = int(feSlot)
		case fe.LogPageNo > a.LogPageNo:
			endSlot = SlotsPerFSMPage - 1
		default:
			endSlot = -1
		}
		t := s.tr(h, phys)
		eof := false
		for slot := startSlot; slot <= endSlot; slot++ {
			var child uint8
			if !eof {
				child, eof, err = s.vacuumPage(h, a.Child(uint16(slot)), start, end)
				if err != nil {
					s.release(buf)
					return 0, false, err
				}
			}
			if p.GetAvail(slot) != child {
				p.setAvail(t, slot, child)
				s.dirty(buf) // MarkBufferDirtyHint under the exclusive lock
			}
		}
	}
	maxAvail := p.MaxAvail()
	s.emit(trace.KLoad, sFSMVacMax, trace.OFSMPage, rel, addrWord(a), uint64(maxAvail), PackAddr(bufmgr.FSMForkNum, phys, NodePage))
	old := p.nextSlot
	p.nextSlot = 0
	s.emit(trace.KNextSlot, sFSMVacResetNext, trace.OFSMPage, rel, uint64(int64(old)), 0, PackAddr(bufmgr.FSMForkNum, phys, NodeNextSlot))
	s.release(buf)
	return maxAvail, false, nil
}
