package slru

import (
	"fmt"

	"bufferlab/engine/trace"
)

// slotWord is SlotWord of slot i now.
func (s *SLRU) slotWord(i int) uint64 { return SlotWord(s.pageNumber[i], s.status[i], s.dirty[i]) }

// pageBuf returns slot i's page buffer, allocating it on first use (the
// simulated shared memory holds only the pages that were ever used).
func (s *SLRU) pageBuf(i int) []byte {
	if s.pages[i] == nil {
		s.pages[i] = make([]byte, BLCKSZ)
	}
	return s.pages[i]
}

func slotOrNone(slot int) uint64 {
	if slot < 0 {
		return trace.NoBuffer
	}
	return uint64(slot)
}

// --- Public operations ---

// ReadPageReadOnly is SimpleLruReadPage_ReadOnly: find page with the bank
// lock shared (a linear search of the bank, or a probe of its hash table),
// or else relock exclusive and SimpleLruReadPage it. It returns the slot
// with the bank lock still held, shared or exclusive: release it with
// ReleaseBankLock. xid only names the transaction in an error message.
func (b *Backend) ReadPageReadOnly(page int64, xid uint32) (int, error) {
	if err := b.checkPage(page); err != nil {
		return -1, err
	}
	if err := b.checkNoLocks("SimpleLruReadPage_ReadOnly"); err != nil {
		return -1, err
	}
	if !b.hooked() {
		return b.readOnlyFast(page, xid)
	}
	return b.readOnly(page, xid)
}

// ReadPage is SimpleLruReadPage: the page's slot, read in if needed. The
// caller holds the page's bank lock exclusively (LockBank) and still holds
// it on return, unless an error is returned (the ERROR released it).
func (b *Backend) ReadPage(page int64, writeOK bool, xid uint32) (int, error) {
	if err := b.checkPage(page); err != nil {
		return -1, err
	}
	if err := b.checkBankExclusive("SimpleLruReadPage", page); err != nil {
		return -1, err
	}
	return b.readPage(page, writeOK, xid)
}

// ZeroPage is SimpleLruZeroPage: give page a slot, zeroed, VALID and dirty,
// and make it latest_page_number. The caller holds the page's bank lock
// exclusively.
//
// PostgreSQL only zeroes pages that nobody can be reading (ExtendCLOG runs
// under XidGenLock for a page past the end). If the page is found under
// I/O here, ZeroPage returns ErrZeroUnderIO rather than break that I/O.
func (b *Backend) ZeroPage(page int64) (int, error) {
	if err := b.checkPage(page); err != nil {
		return -1, err
	}
	if err := b.checkBankExclusive("SimpleLruZeroPage", page); err != nil {
		return -1, err
	}
	return b.zeroPage(page)
}

// WritePage is SimpleLruWritePage: write slot if it is dirty. The caller
// holds the slot's bank lock exclusively.
func (b *Backend) WritePage(slot int) error {
	s := b.s
	if slot < 0 || slot >= s.nslots {
		return fmt.Errorf("slru: slot %d out of range [0, %d)", slot, s.nslots)
	}
	if s.status[slot] == PageEmpty {
		return fmt.Errorf("slru: SimpleLruWritePage of slot %d, which is EMPTY", slot)
	}
	if bank := s.SlotBank(slot); s.bankLocks[bank].Excl != b.Actor {
		return fmt.Errorf("slru: SimpleLruWritePage of slot %d needs bank %d's lock held exclusively by backend %s", slot, bank, b.Name)
	}
	return b.internalWritePage(slot)
}

// WriteAll is SimpleLruWriteAll (a checkpoint): write every dirty page,
// taking the bank locks in turn.
func (b *Backend) WriteAll() error {
	if err := b.checkNoLocks("SimpleLruWriteAll"); err != nil {
		return err
	}
	b.emit(trace.KOp, sWriteAllLock, ClassSLRU, 0, 0, 0, OpWriteAll)
	if err := b.writeAll(); err != nil {
		return err
	}
	b.emit(trace.KOpDone, sWriteAllUnlock, ClassSLRU, 0, 0, 0, OpWriteAll)
	return nil
}

// --- SimpleLruReadPage_ReadOnly ---

// readOnlyFast is SimpleLruReadPage_ReadOnly for an unhooked backend: the
// same steps as readOnly with no yield and no event. The search is a tight
// loop over the bank's page numbers (or one probe of its table).
func (b *Backend) readOnlyFast(page int64, xid uint32) (int, error) {
	s := b.s
	bank := s.BankOf(page)
	l := &s.bankLocks[bank]
	if !l.TryAcquire(b.Actor, LWShared) {
		b.Stats.LockWaits++
		return -1, b.wouldWait(l, ClassBank, bank, s.ro.lock)
	}
	b.held = append(b.held, heldLock{l, ClassBank, int32(bank)})
	var slot int
	if s.useHash {
		b.Stats.Probes++
		slot = s.probeFast(bank, page)
	} else {
		slot = s.searchBank(bank, page)
		if slot >= 0 {
			b.Stats.SlotsScanned += uint64(slot - bank*s.bankSize + 1)
		} else {
			b.Stats.SlotsScanned += uint64(s.bankSize)
		}
	}
	if slot >= 0 {
		// SlruRecentlyUsed, inline.
		cur := s.bankCur[bank]
		if cur != s.lruCount[slot] {
			cur++
			s.bankCur[bank] = cur
			s.lruCount[slot] = cur
		}
		b.Stats.Hits++
		return slot, nil
	}
	b.lwRelease(l, ClassBank, bank, s.ro.unlock)
	if err := b.lwAcquire(l, LWExclusive, ClassBank, bank, s.ro.relock); err != nil {
		return -1, err
	}
	return b.readPage(page, true, xid)
}

// searchBank is SimpleLruReadPage_ReadOnly's linear search: the first slot
// of the bank that is not EMPTY, holds page and is not READ_IN_PROGRESS,
// tested in PostgreSQL's order; -1 if none.
func (s *SLRU) searchBank(bank int, page int64) int {
	start := bank * s.bankSize
	end := start + s.bankSize
	pn := s.pageNumber[start:end:end]
	st := s.status[start:end:end]
	st = st[:len(pn)]
	for i, p := range pn {
		if st[i] != PageEmpty && p == page && st[i] != PageReadInProgress {
			return start + i
		}
	}
	return -1
}

// probeFast is the banks+hash search: one probe, then the status check
// (the table holds only non-EMPTY slots).
func (s *SLRU) probeFast(bank int, page int64) int {
	var slot int
	if s.gomaps != nil {
		v, ok := s.gomaps[bank][page]
		if !ok {
			return -1
		}
		slot = int(v)
	} else {
		v := s.tables[bank].find(page)
		if v < 0 {
			return -1
		}
		slot = int(v)
	}
	if s.status[slot] == PageReadInProgress {
		return -1
	}
	return slot
}

// readOnly is SimpleLruReadPage_ReadOnly, modelled: a yield before and an
// event after every shared-memory step.
func (b *Backend) readOnly(page int64, xid uint32) (int, error) {
	s := b.s
	ro := s.ro
	bank := s.BankOf(page)
	bl := &s.bankLocks[bank]
	if err := b.lwAcquire(bl, LWShared, ClassBank, bank, ro.lock); err != nil {
		return -1, err
	}
	slot := -1
	if s.useHash {
		if m := b.probe(bank, page, ro.scan); m >= 0 {
			b.step(ro.check)
			b.emit(trace.KLoad, ro.check, ClassSlot, m, 0, s.slotWord(m), uint64(page))
			if s.status[m] != PageReadInProgress {
				slot = m
			}
		}
	} else {
		start, end := s.BankSlots(bank)
		for i := start; i < end; i++ {
			b.step(ro.scan)
			b.Stats.SlotsScanned++
			b.emit(trace.KSlotScan, ro.scan, ClassSlot, i, 0, s.slotWord(i), uint64(page))
			if s.status[i] != PageEmpty && s.pageNumber[i] == page && s.status[i] != PageReadInProgress {
				slot = i
				break
			}
		}
	}
	if slot >= 0 {
		b.recentlyUsed(slot)
		b.Stats.Hits++
		b.emit(trace.KHit, ro.hit, ClassSlot, slot, 0, 0, uint64(page))
		return slot, nil
	}
	b.lwRelease(bl, ClassBank, bank, ro.unlock)
	if err := b.lwAcquire(bl, LWExclusive, ClassBank, bank, ro.relock); err != nil {
		return -1, err
	}
	return b.readPage(page, true, xid)
}

// probe is the banks+hash variant's lookup of page in its bank's table,
// the same in SimpleLruReadPage_ReadOnly and SlruSelectLRUPage: a step at
// site, then a map-lookup event (class bank; Before = the entries
// compared, After = the slot or none, Arg = page). It returns the slot
// mapped to page, -1 for none.
func (b *Backend) probe(bank int, page int64, site trace.Site) int {
	b.step(site)
	m, compared := b.s.mapLookup(bank, page)
	b.Stats.Probes++
	b.emit(trace.KMapLookup, site, ClassBank, bank, uint64(compared), slotOrNone(m), uint64(page))
	return m
}

// --- SlruRecentlyUsed ---

// recentlyUsed is SlruRecentlyUsed: make slot the bank's most recently
// used, unless it is already. Under a shared bank lock several backends
// run it at once; the read of the counter and the stores are separate
// steps, so their updates can be lost, as in PostgreSQL.
func (b *Backend) recentlyUsed(slot int) {
	s := b.s
	bank := s.SlotBank(slot)
	b.step(sLRURead)
	cur := s.bankCur[bank]
	b.emit(trace.KLoad, sLRURead, ClassBank, bank, 0, uint64(uint32(cur)), 0)
	if cur == s.lruCount[slot] {
		return
	}
	b.step(sLRUTouch)
	old, oldCur := s.lruCount[slot], s.bankCur[bank] // oldCur: for the event; racing backends may have moved it
	cur++                                            // from the value read at slru.lru.read, as PostgreSQL does
	s.bankCur[bank] = cur
	s.lruCount[slot] = cur
	b.emit(trace.KLRUTouch, sLRUTouch, ClassSlot, slot, uint64(uint32(old)), uint64(uint32(cur)), uint64(uint32(oldCur)))
}

// --- SlruSelectLRUPage ---

// selectLRUPage is SlruSelectLRUPage: the slot already holding page (in
// any state but EMPTY), or a slot that can take it: an EMPTY one, or the
// least recently used VALID clean one that is not latest_page_number,
// writing a dirty one first and waiting for I/O when every candidate is
// busy. The bank lock is held (exclusively) throughout, except while
// waiting for I/O or writing.
func (b *Backend) selectLRUPage(page int64) (int, error) {
	s := b.s
	sel := s.sel
	bank := s.BankOf(page)
	start, end := s.BankSlots(bank)
	for {
		// Is the page here already?
		if s.useHash {
			if m := b.probe(bank, page, sel.probe); m >= 0 {
				return m, nil
			}
		} else {
			for i := start; i < end; i++ {
				b.step(sel.scan)
				b.Stats.SlotsScanned++
				b.emit(trace.KSlotScan, sel.scan, ClassSlot, i, 0, s.slotWord(i), uint64(page))
				if s.status[i] != PageEmpty && s.pageNumber[i] == page {
					return i, nil
				}
			}
		}

		// cur_count = bank_cur_lru_count[bankno]++
		b.step(sel.count)
		cur := s.bankCur[bank]
		s.bankCur[bank] = cur + 1
		b.emit(trace.KLRUCount, sel.count, ClassBank, bank, uint64(uint32(cur)), uint64(uint32(cur+1)), 0)

		bestValid, bestInvalid := -1, -1
		bestValidDelta, bestInvalidDelta := int32(-1), int32(-1)
		var bestValidPage, bestInvalidPage int64
		for i := start; i < end; i++ {
			b.step(sel.empty)
			st := s.status[i]
			if st == PageEmpty {
				b.Stats.VictimScans++
				b.Stats.Victims++
				b.emit(trace.KVictim, sel.empty, ClassSlot, i, s.slotWord(i), 0, VictimEmpty)
				return i, nil
			}
			delta := cur - s.lruCount[i]
			if delta < 0 {
				old := s.lruCount[i]
				s.lruCount[i] = cur
				delta = 0
				b.emit(trace.KLRUCount, sel.reset, ClassSlot, i, uint64(uint32(old)), uint64(uint32(cur)), 0)
			}
			pn := s.pageNumber[i]
			b.Stats.VictimScans++ // counted with the event that reports the slot
			if pn == s.latestPageNumber {
				b.emit(trace.KSkipLatest, sel.latest, ClassSlot, i, uint64(uint32(s.lruCount[i])), uint64(uint32(delta)), uint64(pn))
				continue
			}
			if st == PageValid {
				verdict := VerdictWorse
				if delta > bestValidDelta || (delta == bestValidDelta && s.cfg.PagePrecedes(pn, bestValidPage)) {
					bestValid, bestValidDelta, bestValidPage = i, delta, pn
					verdict = VerdictBest
				}
				b.emit(trace.KCandidate, sel.valid, ClassSlot, i, uint64(uint32(s.lruCount[i])), uint64(uint32(delta)), verdict)
			} else {
				verdict := VerdictWorse
				if delta > bestInvalidDelta || (delta == bestInvalidDelta && s.cfg.PagePrecedes(pn, bestInvalidPage)) {
					bestInvalid, bestInvalidDelta, bestInvalidPage = i, delta, pn
					verdict = VerdictBestBusy
				}
				b.emit(trace.KCandidate, sel.busy, ClassSlot, i, uint64(uint32(s.lruCount[i])), uint64(uint32(delta)), verdict)
			}
		}

		if bestValidDelta < 0 {
			if bestInvalid < 0 {
				panic(fmt.Sprintf("slru: bank %d has no slot to evict for page %d (only the latest page?)", bank, page))
			}
			b.Stats.IOWaits++
			b.emit(trace.KIOWait, sel.wait, ClassSlot, bestInvalid, 0, 0, uint64(s.pageNumber[bestInvalid]))
			if err := b.waitIO(bestInvalid); err != nil {
				return -1, err
			}
			continue
		}
		if !s.dirty[bestValid] {
			b.Stats.Victims++
			b.emit(trace.KVictim, sel.victim, ClassSlot, bestValid, s.slotWord(bestValid), uint64(uint32(bestValidDelta)), VictimClean)
			return bestValid, nil
		}
		b.Stats.DirtyVictims++
		b.emit(trace.KVictim, sel.write, ClassSlot, bestValid, s.slotWord(bestValid), uint64(uint32(bestValidDelta)), VictimDirty)
		if err := b.internalWritePage(bestValid); err != nil {
			return -1, err
		}
	}
}

// --- SimpleLruReadPage ---

// readPage is SimpleLruReadPage; the bank lock is held exclusively.
func (b *Backend) readPage(page int64, writeOK bool, xid uint32) (int, error) {
	s := b.s
	bank := s.BankOf(page)
	bl := &s.bankLocks[bank]
	for {
		slot, err := b.selectLRUPage(page)
		if err != nil {
			return -1, err
		}
		if st := s.status[slot]; st != PageEmpty && s.pageNumber[slot] == page {
			if st == PageReadInProgress || (st == PageWriteInProgress && !writeOK) {
				b.Stats.IOWaits++
				b.emit(trace.KIOWait, sReadWait, ClassSlot, slot, 0, 0, uint64(page))
				if err := b.waitIO(slot); err != nil {
					return -1, err
				}
				continue
			}
			b.recentlyUsed(slot)
			b.Stats.Hits++
			b.emit(trace.KHit, sReadHit, ClassSlot, slot, 0, 0, uint64(page))
			return slot, nil
		}

		// A miss: claim the slot for the page. The miss is reported first,
		// then the claim (the same step).
		b.step(sReadClaim)
		b.Stats.Reads++
		b.emit(trace.KMiss, sReadClaim, ClassSlot, slot, 0, 0, uint64(page))
		before := s.slotWord(slot)
		oldPage, oldStatus := s.pageNumber[slot], s.status[slot]
		s.pageNumber[slot] = page
		s.status[slot] = PageReadInProgress
		s.dirty[slot] = false
		if s.useHash { // the same step: the table changes with the slot
			if oldStatus != PageEmpty {
				s.mapDelete(bank, oldPage)
			}
			s.mapInsert(bank, page, slot)
		}
		b.emit(trace.KSlotState, sReadClaim, ClassSlot, slot, before, s.slotWord(slot), uint64(page))
		if s.useHash {
			if oldStatus != PageEmpty {
				b.emit(trace.KMapDelete, sReadMap, ClassBank, bank, uint64(slot), 0, uint64(oldPage))
			}
			b.emit(trace.KMapInsert, sReadMap, ClassBank, bank, 0, uint64(slot), uint64(page))
		}
		io := &s.bufferLocks[slot]
		if err := b.lwAcquire(io, LWExclusive, ClassSlotIO, slot, sReadIOLock); err != nil {
			return -1, err
		}
		b.lwRelease(bl, ClassBank, bank, sReadUnlock)

		// SlruPhysicalReadPage, with no bank lock held.
		b.step(sReadPhysical)
		data, ioErr := s.disk.ReadPage(page)
		failed := uint64(0)
		if ioErr == nil {
			copy(s.pageBuf(slot), data)
			s.disk.Reads++
		} else {
			failed = 1
		}
		b.emit(trace.KIORead, sReadPhysical, ClassSlot, slot, 0, failed, uint64(page))

		if err := b.lwAcquire(bl, LWExclusive, ClassBank, bank, sReadRelock); err != nil {
			return -1, err
		}
		if s.pageNumber[slot] != page || s.status[slot] != PageReadInProgress || s.dirty[slot] {
			panic(fmt.Sprintf("slru: slot %d changed during its read of page %d: %s", slot, page, slotWordString(s.slotWord(slot))))
		}
		b.step(sReadDone)
		before = s.slotWord(slot)
		if ioErr == nil {
			s.status[slot] = PageValid
		} else {
			s.status[slot] = PageEmpty
			if s.useHash {
				s.mapDelete(bank, page)
			}
		}
		b.emit(trace.KSlotState, sReadDone, ClassSlot, slot, before, s.slotWord(slot), uint64(page))
		if ioErr != nil && s.useHash {
			b.emit(trace.KMapDelete, sReadDone, ClassBank, bank, uint64(slot), 0, uint64(page))
		}
		b.lwRelease(io, ClassSlotIO, slot, sReadIOUnlock)
		if ioErr != nil {
			return -1, b.raise(ErrReadFailed, sReadError, ClassSlot, slot,
				fmt.Sprintf("could not access status of transaction %d", xid), ioErr.Error())
		}
		b.recentlyUsed(slot)
		return slot, nil
	}
}

// --- SimpleLruWaitIO ---

// waitIO is SimpleLruWaitIO: with the bank lock released, wait for the
// slot's buffer lock (held by whoever does the I/O), then retake the bank
// lock; if the slot is still under I/O and nobody holds its buffer lock,
// that I/O failed without cleaning up: repair the state.
func (b *Backend) waitIO(slot int) error {
	s := b.s
	bank := s.SlotBank(slot)
	bl := &s.bankLocks[bank]
	io := &s.bufferLocks[slot]
	b.lwRelease(bl, ClassBank, bank, sWaitUnlock)
	if err := b.lwAcquire(io, LWShared, ClassSlotIO, slot, sWaitIOLock); err != nil {
		return err
	}
	b.lwRelease(io, ClassSlotIO, slot, sWaitIOUnlock)
	if err := b.lwAcquire(bl, LWExclusive, ClassBank, bank, sWaitRelock); err != nil {
		return err
	}
	st := s.status[slot]
	if st != PageReadInProgress && st != PageWriteInProgress {
		return nil
	}
	if !b.lwConditionalAcquire(io, LWShared, ClassSlotIO, slot, sWaitCond) {
		return nil
	}
	b.step(sWaitFix)
	before := s.slotWord(slot)
	if st == PageReadInProgress {
		s.status[slot] = PageEmpty
		if s.useHash {
			s.mapDelete(bank, s.pageNumber[slot])
		}
	} else {
		s.status[slot] = PageValid
		s.dirty[slot] = true
	}
	b.emit(trace.KSlotState, sWaitFix, ClassSlot, slot, before, s.slotWord(slot), 0)
	if st == PageReadInProgress && s.useHash {
		b.emit(trace.KMapDelete, sWaitFix, ClassBank, bank, uint64(slot), 0, uint64(s.pageNumber[slot]))
	}
	b.lwRelease(io, ClassSlotIO, slot, sWaitCondUnlock)
	return nil
}

// --- SlruInternalWritePage ---

// internalWritePage is SlruInternalWritePage; the bank lock is held
// exclusively.
func (b *Backend) internalWritePage(slot int) error {
	s := b.s
	bank := s.SlotBank(slot)
	bl := &s.bankLocks[bank]
	page := s.pageNumber[slot]
	for s.status[slot] == PageWriteInProgress && s.pageNumber[slot] == page {
		b.Stats.IOWaits++
		b.emit(trace.KIOWait, sWriteWait, ClassSlot, slot, 0, 0, uint64(page))
		if err := b.waitIO(slot); err != nil {
			return err
		}
	}
	b.step(sWriteBegin)
	if !s.dirty[slot] || s.status[slot] != PageValid || s.pageNumber[slot] != page {
		b.emit(trace.KLoad, sWriteSkip, ClassSlot, slot, 0, s.slotWord(slot), uint64(page))
		return nil
	}
	before := s.slotWord(slot)
	s.status[slot] = PageWriteInProgress
	s.dirty[slot] = false
	b.emit(trace.KSlotState, sWriteBegin, ClassSlot, slot, before, s.slotWord(slot), uint64(page))
	io := &s.bufferLocks[slot]
	if err := b.lwAcquire(io, LWExclusive, ClassSlotIO, slot, sWriteIOLock); err != nil {
		return err
	}
	b.lwRelease(bl, ClassBank, bank, sWriteUnlock)

	// SlruPhysicalWritePage, with no bank lock held. (No WAL: the commit
	// log's group_lsn flush before the write is not modelled.)
	b.step(sWritePhysical)
	s.disk.WritePage(page, s.pageBuf(slot))
	s.disk.Writes++
	b.Stats.Writes++
	b.emit(trace.KIOWrite, sWritePhysical, ClassSlot, slot, 0, 0, uint64(page))

	if err := b.lwAcquire(bl, LWExclusive, ClassBank, bank, sWriteRelock); err != nil {
		return err
	}
	if s.pageNumber[slot] != page || s.status[slot] != PageWriteInProgress {
		panic(fmt.Sprintf("slru: slot %d changed during its write of page %d: %s", slot, page, slotWordString(s.slotWord(slot))))
	}
	b.step(sWriteDone)
	before = s.slotWord(slot)
	s.status[slot] = PageValid
	b.emit(trace.KSlotState, sWriteDone, ClassSlot, slot, before, s.slotWord(slot), uint64(page))
	b.lwRelease(io, ClassSlotIO, slot, sWriteIOUnlock)
	return nil
}

// --- SimpleLruZeroPage ---

func (b *Backend) zeroPage(page int64) (int, error) {
	s := b.s
	bank := s.BankOf(page)
	slot, err := b.selectLRUPage(page)
	if err != nil {
		return -1, err
	}
	oldPage, oldStatus := s.pageNumber[slot], s.status[slot]
	if oldStatus == PageReadInProgress || oldStatus == PageWriteInProgress {
		return -1, b.raise(ErrZeroUnderIO, sZeroSelect, ClassSlot, slot,
			fmt.Sprintf("cannot zero page %d: slot %d is %s", page, slot, oldStatus), "")
	}
	b.step(sZeroSet)
	before := s.slotWord(slot)
	s.pageNumber[slot] = page
	s.status[slot] = PageValid
	s.dirty[slot] = true
	clear(s.pageBuf(slot)) // MemSet(page_buffer[slotno], 0, BLCKSZ), same step
	remap := s.useHash && (oldStatus == PageEmpty || oldPage != page)
	if remap {
		if oldStatus != PageEmpty {
			s.mapDelete(bank, oldPage)
		}
		s.mapInsert(bank, page, slot)
	}
	b.emit(trace.KSlotState, sZeroSet, ClassSlot, slot, before, s.slotWord(slot), uint64(page))
	if remap {
		if oldStatus != PageEmpty {
			b.emit(trace.KMapDelete, sZeroSet, ClassBank, bank, uint64(slot), 0, uint64(oldPage))
		}
		b.emit(trace.KMapInsert, sZeroSet, ClassBank, bank, 0, uint64(slot), uint64(page))
	}
	b.recentlyUsed(slot)
	b.step(sZeroLatest)
	old := s.latestPageNumber
	s.latestPageNumber = page
	b.Stats.Zeroes++
	b.emit(trace.KStore, sZeroLatest, ClassSLRU, 0, uint64(old), uint64(page), 0)
	return slot, nil
}

// --- SimpleLruWriteAll ---

func (b *Backend) writeAll() error {
	s := b.s
	prev := 0
	if err := b.lwAcquire(&s.bankLocks[prev], LWExclusive, ClassBank, prev, sWriteAllLock); err != nil {
		return err
	}
	for slot := 0; slot < s.nslots; slot++ {
		if cur := s.SlotBank(slot); cur != prev {
			b.lwRelease(&s.bankLocks[prev], ClassBank, prev, sWriteAllUnlockPrev)
			if err := b.lwAcquire(&s.bankLocks[cur], LWExclusive, ClassBank, cur, sWriteAllLockNext); err != nil {
				return err
			}
			prev = cur
		}
		b.step(sWriteAllSlot)
		b.emit(trace.KLoad, sWriteAllSlot, ClassSlot, slot, 0, s.slotWord(slot), 0)
		if s.status[slot] == PageEmpty {
			continue
		}
		if err := b.internalWritePage(slot); err != nil {
			return err
		}
	}
	b.lwRelease(&s.bankLocks[prev], ClassBank, prev, sWriteAllUnlock)
	return nil
}
