package slru

import (
	"fmt"
	"strings"

	"bufferlab/engine/internal/enum"
	"bufferlab/engine/trace"
)

// Object classes of this package's events: engine/trace's SLRU classes,
// which the buffer-pool views ignore (trace.ObjClass.IsSLRU).
const (
	// ClassBank is a bank: its lock (bank_locks[b], or PG ≤ 16's
	// ControlLock as bank 0), its LRU counter and its mapping table.
	// Obj = bank number.
	ClassBank = trace.OBank
	// ClassSlot is a buffer slot (page_number, page_status, page_dirty,
	// page_lru_count, page_buffer). Obj = slot number.
	ClassSlot = trace.OSlot
	// ClassSlotIO is a slot's buffer lock (buffer_locks[slot]), held
	// during its I/O. Obj = slot number.
	ClassSlotIO = trace.OSlotIO
	// ClassSLRU is the SLRU as a whole (latest_page_number, an operation).
	ClassSLRU = trace.OSLRU
)

// The events, by kind (engine/trace documents each; the site says which
// line of which function):
//
//	KOp, KOpDone        an operation (Arg = Op* code, Obj = xid or page) on ClassSLRU;
//	                    op-done's After = the slot, a status, or NoBuffer
//	KLWAcquire/Wait/Release/CondFail
//	                    a bank lock or a slot's buffer lock: Before/After = holder
//	                    words (LWLock.HolderWord), Arg = mode
//	KSlotScan           a linear search compares a slot: After = SlotWord, Arg = page sought
//	KMapLookup          banks+hash: a probe of bank Obj's table: Arg = page, After = slot
//	                    or NoBuffer, Before = chain entries compared
//	KMapInsert/Delete   banks+hash: bank Obj's table gains page Arg → slot After, or loses
//	                    page Arg (was slot Before). They follow the KSlotState of the same
//	                    step: the table always maps exactly the non-EMPTY slots
//	KLoad               a plain read: a slot after a probe (After = SlotWord), a slot
//	                    a checkpoint or a write looks at, bank_cur_lru_count (on the
//	                    bank), a status byte (Before = offset, After = byte, Arg = status)
//	KLRUTouch           SlruRecentlyUsed: page_lru_count Before → After, bank_cur_lru_count
//	                    Arg → After
//	KLRUCount           SlruSelectLRUPage: cur_count = bank_cur_lru_count++ (on the bank,
//	                    Before → After), or a page_lru_count ahead of it reset (on the slot)
//	KCandidate          a VALID or I/O-busy slot weighed as victim: Before = page_lru_count,
//	                    After = age (cur_count − page_lru_count), Arg = Verdict*
//	KSkipLatest         the slot of latest_page_number passed over: Before, After as for
//	                    a candidate, Arg = the page
//	KVictim             the slot chosen: Arg = Victim*, Before = its SlotWord, After = age
//	KHit, KMiss         the page found in slot Obj, or not (Arg = page); a miss comes just
//	                    before the KSlotState that claims the slot
//	KSlotState, KDirty  a slot's page, status or dirty flag: Before → After SlotWords
//	KIORead, KIOWrite   the physical read or write of page Arg (After = 1 if it failed)
//	KIOWait             about to wait for the I/O on slot Obj (page Arg)
//	KStore              a status byte of the page in slot Obj (Before → After, Arg =
//	                    offset), or latest_page_number on ClassSLRU (Before → After)
//	KError              an ERROR (Arg = ErrCode), then the LWLockReleaseAll releases
//
// Every event is emitted in the step (between two yields) that makes its
// change, after the change and after the counter in Stats that counts it,
// so a view applying the events agrees with the SLRU after every event
// (with the two exceptions doc.go names: KMiss, and the mapping table).

// Victim reasons carried in Arg by KVictim events.
const (
	VictimEmpty uint64 = iota + 1 // an EMPTY slot: used at once
	VictimClean                   // the least recently used VALID clean slot
	VictimDirty                   // the least recently used VALID slot, dirty: written first
)

// Verdicts carried in Arg by the victim-search candidate events
// (sites slru.sel.valid / slru.sel.busy).
const (
	VerdictWorse    uint64 = 0 // not better than the best so far
	VerdictBest     uint64 = 1 // the best candidate so far
	VerdictBestBusy uint64 = 2 // the best I/O-busy candidate so far
)

// Operation codes carried in Arg by KOp events; Obj is the operand (an xid
// or a page number).
const (
	OpGetStatus uint64 = iota + 1 // TransactionIdGetStatus(xid)
	OpSetStatus                   // TransactionIdSetPageStatus(xid); After of op-done = status
	OpExtend                      // ExtendCLOG(xid)
	OpBootstrap                   // BootStrapCLOG()
	OpReadOnly                    // SimpleLruReadPage_ReadOnly(page) + release
	OpRead                        // SimpleLruReadPage(page) under an exclusive bank lock
	OpZero                        // SimpleLruZeroPage(page) under an exclusive bank lock
	OpWriteAll                    // SimpleLruWriteAll()
	numOps
)

var opNames = [numOps]string{"", "get", "set", "extend", "boot", "read-only", "read", "zero", "write-all"}

// OpName names an operation code.
func OpName(op uint64) string { return enum.Name(opNames[:], op, "op") }

// ErrCode numbers the PostgreSQL-level errors; KError events carry it in Arg.
type ErrCode uint8

// Error codes.
const (
	ErrReadFailed    ErrCode = iota + 1 // SlruReportIOError after SlruPhysicalReadPage failed
	ErrStatusChange                     // TransactionIdSetStatusBit's assertion: an illegal status change
	ErrZeroUnderIO                      // SimpleLruZeroPage of a page under I/O (see ZeroPage)
	ErrWouldWait                        // an unscheduled backend would have to wait for a lock
	ErrInvalidXid                       // InvalidTransactionId or a special xid where a normal one is needed
	ErrBadPageNumber                    // a page number out of range
)

var errCodeNames = [...]string{"", "read failed", "illegal status change", "zero under I/O", "would wait unscheduled", "invalid xid", "bad page number"}

func (c ErrCode) String() string { return enum.Name(errCodeNames[:], c, "error") }

// PGError is an ERROR raised by modelled PostgreSQL code (or a caller
// mistake, for ErrWouldWait and ErrBadPageNumber). Like ereport(ERROR) it
// aborts the operation; the backend has released its LWLocks
// (LWLockReleaseAll) before it is returned.
type PGError struct {
	Code   ErrCode
	Msg    string
	Detail string
}

func (e *PGError) Error() string {
	if e.Detail != "" {
		return "ERROR: " + e.Msg + " (" + e.Detail + ")"
	}
	return "ERROR: " + e.Msg
}

// SlotWord packs a slot's state for an event's Before/After: the page
// number in bits 8–63, the dirty flag in bit 2, the status in bits 0–1.
func SlotWord(page int64, status PageStatus, dirty bool) uint64 {
	w := uint64(page)<<8 | uint64(status&3)
	if dirty {
		w |= 1 << 2
	}
	return w
}

// UnpackSlotWord decodes a SlotWord.
func UnpackSlotWord(w uint64) (page int64, status PageStatus, dirty bool) {
	return int64(w >> 8), PageStatus(w & 3), w&(1<<2) != 0
}

// slotWordString prints a slot word: "page 7 VALID dirty", "EMPTY".
func slotWordString(w uint64) string {
	p, st, d := UnpackSlotWord(w)
	if st == PageEmpty {
		return "EMPTY"
	}
	s := fmt.Sprintf("page %d %s", p, st)
	if d {
		s += " dirty"
	}
	return s
}

// Describe is the golden text of an event of this package: the sequence
// number, actor, kind and site as Event.String prints them, then the
// object and values decoded.
func Describe(e trace.Event) string { return DescribeWith(e, trace.ActorName) }

// DescribeWith is Describe with backends named by actor (a scenario's
// names), as bufmgr.DescribeWith and fsm.DescribeWith do.
func DescribeWith(e trace.Event, actor func(trace.Actor) string) string {
	head := fmt.Sprintf("%05d %-3s %-12s %-26s ", e.Seq, actor(e.Actor), e.Kind, e.Site)
	return head + describeBody(e)
}

// Result is what a finished operation (its KOpDone event) did, as Describe
// writes it without the event's header: "get 100000 -> in-progress",
// "read-only 5 -> slot 17".
func Result(e trace.Event) string { return describeBody(e) }

// lruCounterName is the LRU counter a site's code updates: PG 16 has one,
// shared->cur_lru_count; PG 17 one per bank.
func lruCounterName(site trace.Site) string {
	if strings.Contains(site.String(), "16.") {
		return "cur_lru_count"
	}
	return "bank_cur_lru_count"
}

func describeBody(e trace.Event) string {
	obj := func() string {
		switch e.Class {
		case ClassBank:
			if strings.Contains(e.Site.String(), "16.") {
				return "ControlLock" // PG 16: one lock, the single "bank"
			}
			return fmt.Sprintf("bank %d", e.Obj)
		case ClassSlot:
			return fmt.Sprintf("slot %d", e.Obj)
		case ClassSlotIO:
			return fmt.Sprintf("slot %d io-lock", e.Obj)
		case ClassSLRU:
			return "slru"
		}
		return fmt.Sprintf("%s[%d]", e.Class, e.Obj)
	}
	switch e.Kind {
	case trace.KOp:
		if e.Arg == OpWriteAll || e.Arg == OpBootstrap {
			return OpName(e.Arg)
		}
		return fmt.Sprintf("%s %d", OpName(e.Arg), e.Obj)
	case trace.KOpDone:
		switch e.Arg {
		case OpGetStatus, OpSetStatus:
			return fmt.Sprintf("%s %d -> %s", OpName(e.Arg), e.Obj, XidStatus(e.After))
		case OpReadOnly, OpRead, OpZero, OpExtend, OpBootstrap:
			if e.After == trace.NoBuffer {
				return fmt.Sprintf("%s %d -> nothing to do", OpName(e.Arg), e.Obj)
			}
			return fmt.Sprintf("%s %d -> slot %d", OpName(e.Arg), e.Obj, e.After)
		}
		return fmt.Sprintf("%s -> done", OpName(e.Arg))
	case trace.KLWAcquire, trace.KLWRelease, trace.KLWWait, trace.KLWCondFail:
		return fmt.Sprintf("%s %s: holders %s -> %s", obj(), LWLockMode(e.Arg), UnpackHolders(e.Before), UnpackHolders(e.After))
	case trace.KLoad:
		switch {
		case canonical(e.Site) == sLRURead:
			return fmt.Sprintf("%s: %s %d", obj(), lruCounterName(e.Site), int32(e.After))
		case canonical(e.Site) == sClogGetByte:
			return fmt.Sprintf("%s: byte %d = %#02x -> status %s", obj(), e.Before, e.After, XidStatus(e.Arg))
		case canonical(e.Site) == sClogSetCheck:
			return fmt.Sprintf("%s: current status %s, new %s", obj(), XidStatus(e.Before), XidStatus(e.Arg))
		case e.Class == ClassSlot && (canonical(e.Site) == sWriteAllSlot || canonical(e.Site) == sWriteSkip):
			return fmt.Sprintf("%s: %s", obj(), slotWordString(e.After))
		case e.Class == ClassSlot:
			return fmt.Sprintf("%s: %s (looking for page %d)", obj(), slotWordString(e.After), e.Arg)
		}
		return fmt.Sprintf("%s: %#x", obj(), e.After)
	case trace.KSlotScan:
		return fmt.Sprintf("%s: %s (looking for page %d)", obj(), slotWordString(e.After), e.Arg)
	case trace.KCandidate:
		v := ""
		switch e.Arg {
		case VerdictBest:
			v = ", best so far"
		case VerdictBestBusy:
			v = ", best busy so far"
		}
		return fmt.Sprintf("%s: lru %d, age %d%s", obj(), int32(e.Before), int32(e.After), v)
	case trace.KSlotState:
		return fmt.Sprintf("%s: %s -> %s", obj(), slotWordString(e.Before), slotWordString(e.After))
	case trace.KLRUCount:
		if e.Class == ClassSlot {
			return fmt.Sprintf("%s: page_lru_count %d -> %d", obj(), int32(e.Before), int32(e.After))
		}
		return fmt.Sprintf("%s: %s %d -> %d", obj(), lruCounterName(e.Site), int32(e.Before), int32(e.After))
	case trace.KLRUTouch:
		return fmt.Sprintf("%s: page_lru_count %d -> %d, %s %d -> %d", obj(), int32(e.Before), int32(e.After), lruCounterName(e.Site), int32(e.Arg), int32(e.After))
	case trace.KSkipLatest:
		return fmt.Sprintf("%s: page %d is latest_page_number, never evicted (age %d)", obj(), e.Arg, int32(e.After))
	case trace.KVictim:
		why := map[uint64]string{VictimEmpty: "empty", VictimClean: "least recently used, clean", VictimDirty: "least recently used, dirty: write it first"}[e.Arg]
		if e.Arg == VictimEmpty {
			return fmt.Sprintf("%s: %s", obj(), why)
		}
		return fmt.Sprintf("%s: %s, %s (age %d)", obj(), slotWordString(e.Before), why, int32(e.After))
	case trace.KMapLookup:
		if e.After == trace.NoBuffer {
			return fmt.Sprintf("%s: page %d -> not found (%d entries compared)", obj(), e.Arg, e.Before)
		}
		return fmt.Sprintf("%s: page %d -> slot %d (%d entries compared)", obj(), e.Arg, e.After, e.Before)
	case trace.KMapInsert:
		return fmt.Sprintf("%s: page %d -> slot %d", obj(), e.Arg, e.After)
	case trace.KMapDelete:
		return fmt.Sprintf("%s: page %d (was slot %d)", obj(), e.Arg, e.Before)
	case trace.KHit:
		return fmt.Sprintf("%s: page %d found", obj(), e.Arg)
	case trace.KMiss:
		return fmt.Sprintf("%s: page %d not in memory", obj(), e.Arg)
	case trace.KIORead, trace.KIOWrite:
		ok := "ok"
		if e.After != 0 {
			ok = "failed"
		}
		seg := int64(e.Arg) / SlruPagesPerSegment
		return fmt.Sprintf("%s: page %d, segment %04X offset %d, %s", obj(), e.Arg, seg, int64(e.Arg)%SlruPagesPerSegment*BLCKSZ, ok)
	case trace.KIOWait:
		return fmt.Sprintf("%s: wait for the I/O on page %d", obj(), e.Arg)
	case trace.KDirty:
		return fmt.Sprintf("%s: %s -> %s", obj(), slotWordString(e.Before), slotWordString(e.After))
	case trace.KStore:
		if e.Class == ClassSlot {
			return fmt.Sprintf("%s: byte %d %#02x -> %#02x", obj(), e.Arg, e.Before, e.After)
		}
		return fmt.Sprintf("%s: latest_page_number %d -> %d", obj(), int64(e.Before), int64(e.After))
	case trace.KError:
		return fmt.Sprintf("%s: ERROR (%s)", obj(), ErrCode(e.Arg))
	}
	return fmt.Sprintf("%s %#x->%#x arg=%#x", obj(), e.Before, e.After, e.Arg)
}
