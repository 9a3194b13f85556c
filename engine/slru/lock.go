package slru

import (
	"fmt"

	"bufferlab/engine/trace"
)

// LWLock models a PostgreSQL lightweight lock (lwlock.c): a bank lock (or
// PG ≤ 16's ControlLock) or a slot's buffer lock. Holders are recorded so
// the views can show them: one exclusive holder, or a count and mask of
// shared holders. The layout and the holder word are bufmgr.LWLock's, so a
// view can draw both the same way.
type LWLock struct {
	Excl    trace.Actor // exclusive holder; 0 when none
	NShared uint16
	Shared  uint64 // bit a-1 set for each shared holder a
}

// LWLockMode is LW_SHARED or LW_EXCLUSIVE.
type LWLockMode uint8

// Lock modes.
const (
	LWShared LWLockMode = iota + 1
	LWExclusive
)

func (m LWLockMode) String() string {
	switch m {
	case LWShared:
		return "shared"
	case LWExclusive:
		return "exclusive"
	}
	return "unlocked"
}

// Free reports whether nobody holds the lock.
func (l *LWLock) Free() bool { return l.Excl == 0 && l.NShared == 0 }

// Holds reports whether a holds the lock in any mode.
func (l *LWLock) Holds(a trace.Actor) bool {
	return l.Excl == a || (a >= 1 && l.Shared&(1<<(a-1)) != 0)
}

// ModeOf returns the mode in which a holds the lock, or 0.
func (l *LWLock) ModeOf(a trace.Actor) LWLockMode {
	switch {
	case a != 0 && l.Excl == a:
		return LWExclusive
	case a >= 1 && l.Shared&(1<<(a-1)) != 0:
		return LWShared
	}
	return 0
}

// tryAcquire takes the lock if it is free enough. Acquiring a lock one
// already holds is a self-deadlock in PostgreSQL; here it panics (a bug in
// the engine, never a user's mistake).
func (l *LWLock) tryAcquire(a trace.Actor, m LWLockMode) bool {
	if l.Holds(a) {
		panic(fmt.Sprintf("slru: backend %s acquires an LWLock it already holds (self-deadlock)", trace.ActorName(a)))
	}
	if l.Excl != 0 {
		return false
	}
	if m == LWExclusive {
		if l.NShared != 0 {
			return false
		}
		l.Excl = a
		return true
	}
	l.NShared++
	l.Shared |= 1 << (a - 1)
	return true
}

func (l *LWLock) release(a trace.Actor) LWLockMode {
	switch {
	case a != 0 && l.Excl == a:
		l.Excl = 0
		return LWExclusive
	case a >= 1 && l.Shared&(1<<(a-1)) != 0:
		l.Shared &^= 1 << (a - 1)
		l.NShared--
		return LWShared
	}
	panic(fmt.Sprintf("slru: backend %s releases an LWLock it does not hold", trace.ActorName(a)))
}

// HolderWord packs a lock's holders for an event's Before/After: the
// exclusive holder in bits 48–63, the shared mask below (as bufmgr does).
func (l *LWLock) HolderWord() uint64 { return uint64(l.Excl)<<48 | l.Shared&(1<<48-1) }

// UnpackHolders decodes a holder word into a lock value.
func UnpackHolders(w uint64) LWLock {
	l := LWLock{Excl: trace.Actor(w >> 48), Shared: w & (1<<48 - 1)}
	for m := l.Shared; m != 0; m &= m - 1 {
		l.NShared++
	}
	return l
}

// String lists the holders: "none", "A(X)", "A B".
func (l LWLock) String() string {
	if l.Free() {
		return "none"
	}
	if l.Excl != 0 {
		return trace.ActorName(l.Excl) + "(X)"
	}
	s := ""
	for a := trace.Actor(1); a <= 48; a++ {
		if l.Shared&(1<<(a-1)) != 0 {
			if s != "" {
				s += " "
			}
			s += trace.ActorName(a)
		}
	}
	return s
}
