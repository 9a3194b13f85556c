package slru

import "bufferlab/engine/internal/lwlock"

// LWLock models a PostgreSQL lightweight lock (lwlock.c): a bank lock (or
// PG ≤ 16's ControlLock) or a slot's buffer lock. It is
// engine/internal/lwlock's, shared with bufmgr, so a view draws both the
// same way: one exclusive holder, or a count and mask of shared holders.
type LWLock = lwlock.Lock

// LWLockMode is LW_SHARED or LW_EXCLUSIVE.
type LWLockMode = lwlock.Mode

// Lock modes.
const (
	LWShared    = lwlock.Shared
	LWExclusive = lwlock.Exclusive
)

// UnpackHolders decodes a holder word (LWLock.HolderWord) into a lock
// value.
func UnpackHolders(w uint64) LWLock { return lwlock.Unpack(w) }
