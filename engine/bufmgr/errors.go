package bufmgr

import "fmt"

// ErrCode numbers the PostgreSQL-level errors the engine raises; events of
// kind error carry it in Arg.
type ErrCode uint8

// Error codes.
const (
	ErrNoUnpinnedBuffers  ErrCode = iota + 1 // freelist.c: "no unpinned buffers available"
	ErrReadBeyondEOF                         // md.c: "could not read block …: read only 0 of 8192 bytes"
	ErrBufferNotPinned                       // bufmgr.c: the buffer is not pinned by this backend
	ErrMultiplePinWaiters                    // bufmgr.c: "multiple backends attempting to wait for pincount 1"
	ErrLocalPinCount                         // bufmgr.c: "incorrect local pin count: %d"
	ErrPinnedInInvalidate                    // bufmgr.c: "buffer is pinned in InvalidateBuffer"
)

// String is the error as event descriptions and summaries print it
// (PGError.Msg is the full message, with its values). Each mechanism
// describes its own codes: package fsm and package slru number theirs
// from 1 too.
func (c ErrCode) String() string {
	switch c {
	case ErrNoUnpinnedBuffers:
		return "no unpinned buffers available"
	case ErrReadBeyondEOF:
		return "read beyond the end of the relation"
	case ErrBufferNotPinned:
		return "buffer not pinned"
	case ErrMultiplePinWaiters:
		return "multiple backends attempting to wait for pincount 1"
	case ErrLocalPinCount:
		return "incorrect local pin count"
	case ErrPinnedInInvalidate:
		return "buffer is pinned in InvalidateBuffer"
	}
	return fmt.Sprintf("buffer manager error %d", uint8(c))
}

// PGError is an ERROR raised by modelled PostgreSQL code. Like ereport(ERROR)
// it aborts the operation; the caller aborts the transaction (which releases
// the backend's pins, see Backend.AbortTransaction).
type PGError struct {
	Code ErrCode
	Msg  string
}

func (e *PGError) Error() string { return "ERROR: " + e.Msg }

func errNoUnpinned() *PGError {
	return &PGError{Code: ErrNoUnpinnedBuffers, Msg: "no unpinned buffers available"}
}

func errBeyondEOF(rel *Relation, f ForkNumber, blk uint32) *PGError {
	return &PGError{Code: ErrReadBeyondEOF, Msg: fmt.Sprintf(
		"could not read block %d in file \"base/%d/%d%s\": read only 0 of 8192 bytes",
		blk, DefaultDatabaseOid, rel.Number, forkSuffix(f))}
}

func forkSuffix(f ForkNumber) string {
	if f == MainForkNum {
		return ""
	}
	return "_" + f.String()
}
