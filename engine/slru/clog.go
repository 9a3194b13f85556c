package slru

import (
	"fmt"

	"bufferlab/engine/internal/enum"
	"bufferlab/engine/trace"
)

// Transaction ids (access/transam.h).
const (
	InvalidTransactionId     uint32 = 0
	BootstrapTransactionId   uint32 = 1
	FrozenTransactionId      uint32 = 2
	FirstNormalTransactionId uint32 = 3
	MaxTransactionId         uint32 = 0xFFFFFFFF
)

// The commit log's layout (clog.c): two status bits per transaction, four
// transactions per byte.
const (
	ClogBitsPerXact      = 2
	ClogXactsPerByte     = 4
	ClogXactsPerPage     = BLCKSZ * ClogXactsPerByte // 32768
	ClogXactBitmask      = 1<<ClogBitsPerXact - 1
	ClogXactsPerLSNGroup = 32                                      // CLOG_XACTS_PER_LSN_GROUP
	ClogLSNsPerPage      = ClogXactsPerPage / ClogXactsPerLSNGroup // 1024 group_lsn entries per page
	ClogXactsPerSegment  = ClogXactsPerPage * SlruPagesPerSegment  // 1,048,576 per pg_xact file
)

// The size of pg_xact. Transaction ids are 32 bits and wrap around at
// 0xFFFFFFFF, so clog page numbering wraps at 0xFFFFFFFF /
// CLOG_XACTS_PER_PAGE and segment numbering at that over
// SLRU_PAGES_PER_SEGMENT (the notes in clog.c and slru.h, PG 15): pages 0
// … 131071 (TransactionIdToPage(MaxTransactionId)), segments 0000 … 0FFF.
const (
	ClogMaxPages    = int64(MaxTransactionId)/ClogXactsPerPage + 1 // 131072 = 2^32 / CLOG_XACTS_PER_PAGE
	ClogMaxSegments = ClogMaxPages / SlruPagesPerSegment           // 4096
)

// XidStatus is a transaction's two status bits (clog.h).
type XidStatus uint8

// The statuses, with PostgreSQL's values.
const (
	StatusInProgress   XidStatus = 0 // TRANSACTION_STATUS_IN_PROGRESS
	StatusCommitted    XidStatus = 1 // TRANSACTION_STATUS_COMMITTED
	StatusAborted      XidStatus = 2 // TRANSACTION_STATUS_ABORTED
	StatusSubCommitted XidStatus = 3 // TRANSACTION_STATUS_SUB_COMMITTED
)

var xidStatusNames = [...]string{"in-progress", "committed", "aborted", "sub-committed"}

func (st XidStatus) String() string { return enum.Name(xidStatusNames[:], st, "status") }

// ParseXidStatus parses "in-progress", "committed", "aborted" or
// "sub-committed".
func ParseXidStatus(s string) (XidStatus, error) {
	if st, ok := enum.Parse[XidStatus](xidStatusNames[:], s); ok {
		return st, nil
	}
	return 0, fmt.Errorf("unknown transaction status %q (want in-progress, committed, aborted or sub-committed)", s)
}

// TransactionIdToPage is the commit-log page of xid: xid / 32768.
func TransactionIdToPage(xid uint32) int64 { return int64(xid) / ClogXactsPerPage }

// TransactionIdToPgIndex is xid's index on its page: xid % 32768.
func TransactionIdToPgIndex(xid uint32) int { return int(xid % ClogXactsPerPage) }

// TransactionIdToByte is the byte of its page holding xid's bits.
func TransactionIdToByte(xid uint32) int { return TransactionIdToPgIndex(xid) / ClogXactsPerByte }

// TransactionIdToBIndex is xid's index within that byte: xid % 4.
func TransactionIdToBIndex(xid uint32) int { return int(xid % ClogXactsPerByte) }

// BitShift is how far xid's bits are shifted in their byte:
// TransactionIdToBIndex(xid) * CLOG_BITS_PER_XACT.
func BitShift(xid uint32) uint { return uint(TransactionIdToBIndex(xid) * ClogBitsPerXact) }

// XidLocation is where a transaction's status lives, from the xid down to
// the bits: what a lesson walks through.
type XidLocation struct {
	Xid      uint32
	Page     int64 // TransactionIdToPage
	Byte     int   // TransactionIdToByte
	Shift    uint  // BitShift
	Segment  int64 // the pg_xact file: page / SLRU_PAGES_PER_SEGMENT
	Offset   int64 // the page's byte offset in that file
	LSNGroup int   // group_lsn index on the page: (xid % 32768) / 32
}

// Locate computes xid's location. xid 100000 is page 3, byte 424, shift 0,
// in segment 0000.
func Locate(xid uint32) XidLocation {
	page := TransactionIdToPage(xid)
	seg, off := SegmentOf(page)
	return XidLocation{Xid: xid, Page: page, Byte: TransactionIdToByte(xid), Shift: BitShift(xid),
		Segment: seg, Offset: off, LSNGroup: TransactionIdToPgIndex(xid) / ClogXactsPerLSNGroup}
}

// TransactionIdIsNormal reports xid >= FirstNormalTransactionId.
func TransactionIdIsNormal(xid uint32) bool { return xid >= FirstNormalTransactionId }

// TransactionIdPrecedes is transam.c's comparison modulo 2^32: special
// xids compare plainly; normal ones by the sign of the 32-bit difference.
func TransactionIdPrecedes(id1, id2 uint32) bool {
	if !TransactionIdIsNormal(id1) || !TransactionIdIsNormal(id2) {
		return id1 < id2
	}
	return int32(id1-id2) < 0
}

// CLOGPagePrecedes is clog.c's PagePrecedes (PG 14+): page1 precedes page2
// if every xid on page1 precedes every xid on page2, in wraparound
// arithmetic. SlruSelectLRUPage uses it to break ties between equally old
// victims (the older page goes).
func CLOGPagePrecedes(page1, page2 int64) bool {
	xid1 := uint32(page1)*ClogXactsPerPage + FirstNormalTransactionId + 1
	xid2 := uint32(page2)*ClogXactsPerPage + FirstNormalTransactionId + 1
	return TransactionIdPrecedes(xid1, xid2) && TransactionIdPrecedes(xid1, xid2+ClogXactsPerPage-1)
}

// StartupCLOG sets latest_page_number from nextXid (the next xid to be
// assigned), as StartupCLOG does before any backend runs.
func (s *SLRU) StartupCLOG(nextXid uint32) { s.latestPageNumber = TransactionIdToPage(nextXid) }

// TransactionIdGetStatus reads xid's status from the commit log:
// SimpleLruReadPage_ReadOnly of its page, the two bits, then the bank lock
// released. (The group LSN it also returns in PostgreSQL is not modelled.)
func (b *Backend) TransactionIdGetStatus(xid uint32) (XidStatus, error) {
	if err := b.checkNoLocks("TransactionIdGetStatus"); err != nil {
		return 0, err
	}
	s := b.s
	page := TransactionIdToPage(xid)
	byteno, bshift := TransactionIdToByte(xid), BitShift(xid)
	bank := s.BankOf(page)
	if !b.hooked() {
		slot, err := b.readOnlyFast(page, xid)
		if err != nil {
			return 0, err
		}
		st := XidStatus(s.pages[slot][byteno]>>bshift) & ClogXactBitmask
		b.lwRelease(&s.bankLocks[bank], ClassBank, bank, sClogGetUnlock)
		return st, nil
	}
	b.emit(trace.KOp, sClogGet, ClassSLRU, int(xid), 0, 0, OpGetStatus)
	slot, err := b.readOnly(page, xid)
	if err != nil {
		return 0, err
	}
	b.step(sClogGetByte)
	byteval := s.pages[slot][byteno]
	st := XidStatus(byteval>>bshift) & ClogXactBitmask
	b.emit(trace.KLoad, sClogGetByte, ClassSlot, slot, uint64(byteno), uint64(byteval), uint64(st))
	b.lwRelease(&s.bankLocks[bank], ClassBank, bank, sClogGetUnlock)
	b.emit(trace.KOpDone, sClogGetUnlock, ClassSLRU, int(xid), 0, uint64(st), OpGetStatus)
	return st, nil
}

// TransactionIdSetStatus records xid's status (committed, aborted or
// sub-committed) as TransactionIdSetTreeStatus does for a transaction with
// no subtransactions: TransactionIdSetPageStatus takes the bank lock
// exclusively (the group update of a busy lock is not modelled),
// SimpleLruReadPage (write_ok, since there is no async-commit LSN),
// TransactionIdSetStatusBit, page_dirty, release. A change that
// TransactionIdSetStatusBit's assertion forbids (from committed to
// aborted, say) is ErrStatusChange.
func (b *Backend) TransactionIdSetStatus(xid uint32, st XidStatus) error {
	if err := b.checkNoLocks("TransactionIdSetPageStatus"); err != nil {
		return err
	}
	if st == StatusInProgress || st > StatusSubCommitted {
		return fmt.Errorf("slru: cannot set transaction %d to %s: a status is set to committed, aborted or sub-committed", xid, st)
	}
	if !TransactionIdIsNormal(xid) {
		return &PGError{Code: ErrInvalidXid, Msg: fmt.Sprintf("cannot set the status of special transaction id %d", xid)}
	}
	s := b.s
	page := TransactionIdToPage(xid)
	byteno, bshift := TransactionIdToByte(xid), BitShift(xid)
	bank := s.BankOf(page)
	bl := &s.bankLocks[bank]
	b.emit(trace.KOp, sClogSet, ClassSLRU, int(xid), 0, uint64(st), OpSetStatus)
	if err := b.lwAcquire(bl, LWExclusive, ClassBank, bank, sClogSetLock); err != nil {
		return err
	}
	slot, err := b.readPage(page, true, xid)
	if err != nil {
		return err
	}
	buf := s.pages[slot]
	b.step(sClogSetCheck)
	cur := XidStatus(buf[byteno]>>bshift) & ClogXactBitmask
	b.emit(trace.KLoad, sClogSetCheck, ClassSlot, slot, uint64(cur), uint64(cur), uint64(st))
	if !(cur == StatusInProgress || (cur == StatusSubCommitted && st != StatusInProgress) || cur == st) {
		return b.raise(ErrStatusChange, sClogSetCheck, ClassSlot, slot,
			fmt.Sprintf("transaction %d is %s and cannot become %s", xid, cur, st), "TransactionIdSetStatusBit's assertion")
	}
	b.step(sClogSetByte)
	old := buf[byteno]
	buf[byteno] = old&^(ClogXactBitmask<<bshift) | byte(st)<<bshift
	b.emit(trace.KStore, sClogSetByte, ClassSlot, slot, uint64(old), uint64(buf[byteno]), uint64(byteno))
	b.step(sClogSetDirty)
	before := s.slotWord(slot)
	s.dirty[slot] = true
	b.emit(trace.KDirty, sClogSetDirty, ClassSlot, slot, before, s.slotWord(slot), uint64(page))
	b.lwRelease(bl, ClassBank, bank, sClogSetUnlock)
	b.emit(trace.KOpDone, sClogSetUnlock, ClassSLRU, int(xid), 0, uint64(st), OpSetStatus)
	return nil
}

// ExtendCLOG is called when xid is assigned: if xid is the first of its
// page (or FirstNormalTransactionId), the page is created with
// SimpleLruZeroPage under its bank lock, and becomes the latest page.
func (b *Backend) ExtendCLOG(xid uint32) error {
	if err := b.checkNoLocks("ExtendCLOG"); err != nil {
		return err
	}
	b.emit(trace.KOp, sExtendSkip, ClassSLRU, int(xid), 0, 0, OpExtend)
	if TransactionIdToPgIndex(xid) != 0 && xid != FirstNormalTransactionId {
		b.emit(trace.KOpDone, sExtendSkip, ClassSLRU, int(xid), 0, trace.NoBuffer, OpExtend)
		return nil
	}
	s := b.s
	page := TransactionIdToPage(xid)
	bank := s.BankOf(page)
	if err := b.lwAcquire(&s.bankLocks[bank], LWExclusive, ClassBank, bank, sExtendLock); err != nil {
		return err
	}
	slot, err := b.zeroPage(page)
	if err != nil {
		return err
	}
	b.lwRelease(&s.bankLocks[bank], ClassBank, bank, sExtendUnlock)
	b.emit(trace.KOpDone, sExtendUnlock, ClassSLRU, int(xid), 0, uint64(slot), OpExtend)
	return nil
}

// BootStrapCLOG is what initdb does: zero page 0 and write it out, so that
// pg_xact/0000 exists, 8192 bytes long.
func (b *Backend) BootStrapCLOG() error {
	if err := b.checkNoLocks("BootStrapCLOG"); err != nil {
		return err
	}
	s := b.s
	bank := s.BankOf(0)
	b.emit(trace.KOp, sBootLock, ClassSLRU, 0, 0, 0, OpBootstrap)
	if err := b.lwAcquire(&s.bankLocks[bank], LWExclusive, ClassBank, bank, sBootLock); err != nil {
		return err
	}
	slot, err := b.zeroPage(0)
	if err != nil {
		return err
	}
	if err := b.internalWritePage(slot); err != nil {
		return err
	}
	b.lwRelease(&s.bankLocks[bank], ClassBank, bank, sBootUnlock)
	b.emit(trace.KOpDone, sBootUnlock, ClassSLRU, 0, 0, uint64(slot), OpBootstrap)
	return nil
}
