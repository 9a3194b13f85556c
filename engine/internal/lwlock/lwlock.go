package lwlock

import (
	"fmt"

	"bufferlab/engine/trace"
)

// Lock models a PostgreSQL lightweight lock (lwlock.c) or, used only in
// exclusive mode, a spinlock. Holders are recorded so the views can show
// them: one exclusive holder, or a count and mask of shared holders.
// Only the engine changes a Lock; the views read copies.
type Lock struct {
	Excl    trace.Actor // exclusive holder; 0 when none
	NShared uint16
	Shared  uint64 // bit a-1 set for each shared holder a
}

// Mode is LW_SHARED or LW_EXCLUSIVE (LWLockMode, lwlock.h).
type Mode uint8

// Lock modes. 0 is no mode: what ModeOf says of a backend that does not
// hold the lock.
const (
	Shared Mode = iota + 1
	Exclusive
)

func (m Mode) String() string {
	switch m {
	case Shared:
		return "shared"
	case Exclusive:
		return "exclusive"
	}
	return "unlocked"
}

// MaxActor is the highest actor a holder word can name as a shared holder
// (its low 48 bits).
const MaxActor = 48

// Free reports whether nobody holds the lock.
func (l *Lock) Free() bool { return l.Excl == 0 && l.NShared == 0 }

// Holds reports whether a holds the lock in any mode.
func (l *Lock) Holds(a trace.Actor) bool { return l.ModeOf(a) != 0 }

// ModeOf returns the mode in which a holds the lock, or 0.
func (l *Lock) ModeOf(a trace.Actor) Mode {
	switch {
	case a != 0 && l.Excl == a:
		return Exclusive
	case a >= 1 && a <= 64 && l.Shared&(1<<(a-1)) != 0:
		return Shared
	}
	return 0
}

// TryAcquire takes the lock for a in mode m if it is free enough, as
// LWLockAttemptLock does (lwlock.c): exclusive needs no holder at all,
// shared needs no exclusive holder. Acquiring a lock one already holds is
// a self-deadlock in PostgreSQL; here it panics (a bug in the engine,
// never a user's mistake), as does actor 0 or a mode that is neither.
func (l *Lock) TryAcquire(a trace.Actor, m Mode) bool {
	if a == 0 || a > 64 || m != Shared && m != Exclusive {
		panic(fmt.Sprintf("lwlock: acquire by actor %d in mode %d", a, m))
	}
	if l.Holds(a) {
		panic(fmt.Sprintf("lwlock: backend %s acquires an LWLock it already holds (self-deadlock)", trace.ActorName(a)))
	}
	if l.Excl != 0 {
		return false
	}
	if m == Exclusive {
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

// Release drops a's hold and returns the mode it held, as LWLockRelease
// does before waking waiters. Releasing a lock one does not hold panics
// (PostgreSQL: elog(ERROR, "lock %s is not held")).
func (l *Lock) Release(a trace.Actor) Mode {
	switch l.ModeOf(a) {
	case Exclusive:
		l.Excl = 0
		return Exclusive
	case Shared:
		l.Shared &^= 1 << (a - 1)
		l.NShared--
		return Shared
	}
	panic(fmt.Sprintf("lwlock: backend %s releases an LWLock it does not hold", trace.ActorName(a)))
}

// HolderWord packs a lock's holders for an event's Before/After: the
// exclusive holder in bits 48–63, the shared mask (actors 1–48) below.
func (l *Lock) HolderWord() uint64 { return uint64(l.Excl)<<48 | l.Shared&(1<<48-1) }

// Unpack decodes a holder word into a lock value.
func Unpack(w uint64) Lock {
	l := Lock{Excl: trace.Actor(w >> 48), Shared: w & (1<<48 - 1)}
	for m := l.Shared; m != 0; m &= m - 1 {
		l.NShared++
	}
	return l
}

// String lists the holders: "none", "A(X)", "A B".
func (l Lock) String() string {
	if l.Free() {
		return "none"
	}
	if l.Excl != 0 {
		return trace.ActorName(l.Excl) + "(X)"
	}
	s := ""
	for a := trace.Actor(1); a <= MaxActor; a++ {
		if l.Shared&(1<<(a-1)) != 0 {
			if s != "" {
				s += " "
			}
			s += trace.ActorName(a)
		}
	}
	return s
}
