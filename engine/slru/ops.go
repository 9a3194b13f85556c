package slru

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"bufferlab/engine/internal/enum"
	"bufferlab/engine/trace"
)

// Op is one operation a backend performs, as scenarios and tests write it:
//
//	get XID            TransactionIdGetStatus
//	set XID STATUS     TransactionIdSetStatus (committed, aborted, sub-committed)
//	extend XID         ExtendCLOG
//	boot               BootStrapCLOG
//	read-only PAGE     SimpleLruReadPage_ReadOnly, then the bank lock released
//	read PAGE          bank lock exclusive, SimpleLruReadPage(write_ok), release
//	zero PAGE          bank lock exclusive, SimpleLruZeroPage, release
//	write-all          SimpleLruWriteAll
type Op struct {
	Code   uint64 // OpGetStatus, …
	Xid    uint32
	Page   int64
	Status XidStatus
}

// ParseOp parses one operation.
func ParseOp(text string) (Op, error) {
	f := strings.Fields(text)
	if len(f) == 0 {
		return Op{}, fmt.Errorf("empty operation")
	}
	code, ok := enum.Parse[uint64](opNames[:], f[0])
	if !ok {
		return Op{}, fmt.Errorf("unknown operation %q (want get, set, extend, boot, read-only, read, zero or write-all)", f[0])
	}
	o := Op{Code: code}
	want := map[uint64]int{OpGetStatus: 2, OpSetStatus: 3, OpExtend: 2, OpBootstrap: 1, OpReadOnly: 2, OpRead: 2, OpZero: 2, OpWriteAll: 1}[code]
	if len(f) != want {
		return Op{}, fmt.Errorf("%s takes %d argument(s), found %d in %q", f[0], want-1, len(f)-1, text)
	}
	switch code {
	case OpGetStatus, OpSetStatus, OpExtend:
		x, err := strconv.ParseUint(f[1], 10, 32)
		if err != nil {
			return Op{}, fmt.Errorf("%s: transaction id %q: want 0..%d", f[0], f[1], MaxTransactionId)
		}
		o.Xid = uint32(x)
		if code == OpSetStatus {
			st, err := ParseXidStatus(f[2])
			if err != nil {
				return Op{}, err
			}
			o.Status = st
		}
	case OpReadOnly, OpRead, OpZero:
		p, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil || p < 0 || p > MaxPageNumber {
			return Op{}, fmt.Errorf("%s: page number %q: want 0..%d", f[0], f[1], int64(MaxPageNumber))
		}
		o.Page = p
	}
	return o, nil
}

func (o Op) String() string {
	switch o.Code {
	case OpGetStatus, OpExtend:
		return fmt.Sprintf("%s %d", OpName(o.Code), o.Xid)
	case OpSetStatus:
		return fmt.Sprintf("set %d %s", o.Xid, o.Status)
	case OpReadOnly, OpRead, OpZero:
		return fmt.Sprintf("%s %d", OpName(o.Code), o.Page)
	}
	return OpName(o.Code)
}

// DoAll performs ops in order, as a session would: an operation that
// raises an ERROR (*PGError) ends there and the next one runs; any other
// error stops the run, with the operation's index and text.
func (b *Backend) DoAll(ops []Op) error {
	for i, o := range ops {
		if _, err := b.Do(o); err != nil {
			var pe *PGError
			if !errors.As(err, &pe) {
				return fmt.Errorf("op %d %v: %w", i, o, err)
			}
		}
	}
	return nil
}

// Do performs o and describes its result: a status for get, a slot for
// read-only, read and zero, "ok" otherwise.
func (b *Backend) Do(o Op) (string, error) {
	switch o.Code {
	case OpGetStatus:
		st, err := b.TransactionIdGetStatus(o.Xid)
		if err != nil {
			return "", err
		}
		return st.String(), nil
	case OpSetStatus:
		return "ok", b.TransactionIdSetStatus(o.Xid, o.Status)
	case OpExtend:
		return "ok", b.ExtendCLOG(o.Xid)
	case OpBootstrap:
		return "ok", b.BootStrapCLOG()
	case OpWriteAll:
		return "ok", b.WriteAll()
	case OpReadOnly:
		if !b.hooked() {
			slot, err := b.ReadPageReadOnly(o.Page, 0)
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("slot %d", slot), b.ReleaseBankLock(o.Page)
		}
		b.emit(trace.KOp, b.s.ro.lock, ClassSLRU, int(o.Page), 0, 0, OpReadOnly)
		slot, err := b.ReadPageReadOnly(o.Page, 0)
		if err != nil {
			return "", err
		}
		if err := b.ReleaseBankLock(o.Page); err != nil {
			return "", err
		}
		b.emit(trace.KOpDone, sClogGetUnlock, ClassSLRU, int(o.Page), 0, uint64(slot), OpReadOnly)
		return fmt.Sprintf("slot %d", slot), nil
	case OpRead, OpZero:
		if err := b.checkNoLocks(OpName(o.Code)); err != nil {
			return "", err
		}
		b.emit(trace.KOp, sClogSetLock, ClassSLRU, int(o.Page), 0, 0, o.Code)
		if err := b.LockBank(o.Page, LWExclusive); err != nil {
			return "", err
		}
		var slot int
		var err error
		if o.Code == OpRead {
			slot, err = b.ReadPage(o.Page, true, 0)
		} else {
			slot, err = b.ZeroPage(o.Page)
		}
		if err != nil {
			return "", err
		}
		bank := b.s.BankOf(o.Page)
		b.lwRelease(&b.s.bankLocks[bank], ClassBank, bank, sClogSetUnlock)
		b.emit(trace.KOpDone, sClogSetUnlock, ClassSLRU, int(o.Page), 0, uint64(slot), o.Code)
		return fmt.Sprintf("slot %d", slot), nil
	}
	return "", fmt.Errorf("slru: unknown operation code %d", o.Code)
}
