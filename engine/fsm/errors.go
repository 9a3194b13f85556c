package fsm

import (
	"errors"
	"fmt"

	"bufferlab/engine/bufmgr"
)

// ErrCode numbers the PostgreSQL-level errors of this package; their
// events (kind error) carry it in Arg.
type ErrCode uint8

// Error codes.
const (
	ErrInvalidRequestSize ErrCode = iota + 1 // freespace.c: "invalid FSM request size %zu"
	ErrRowTooBig                             // hio.c: "row is too big: size %zu, maximum size %zu"
)

// hio.c's PANIC "tuple is too big" after an extension cannot happen once
// the row passed the MaxHeapTupleSize check; the model panics there (a
// broken invariant) instead of giving it an error code.

// PGError is an ERROR that modelled PostgreSQL code raises. Like
// bufmgr.PGError it aborts the operation; when the session held pins they
// are released (Session.Abort).
type PGError struct {
	Code ErrCode
	Msg  string
}

func (e *PGError) Error() string { return "ERROR: " + e.Msg }

func errInvalidRequest(n int) *PGError {
	return &PGError{Code: ErrInvalidRequestSize, Msg: fmt.Sprintf("invalid FSM request size %d", n)}
}

func errRowTooBig(n int) *PGError {
	return &PGError{Code: ErrRowTooBig, Msg: fmt.Sprintf("row is too big: size %d, maximum size %d", n, MaxHeapTupleSize)}
}

// isPGError reports whether err is an ERROR raised by modelled PostgreSQL
// code (this package's or the buffer manager's), after which the
// transaction aborts.
func isPGError(err error) bool {
	var a *PGError
	var b *bufmgr.PGError
	return errors.As(err, &a) || errors.As(err, &b)
}
