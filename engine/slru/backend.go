package slru

import (
	"fmt"

	"bufferlab/engine/internal/counters"
	"bufferlab/engine/internal/lwlock"
	"bufferlab/engine/sched"
	"bufferlab/engine/trace"
)

// Backend is one simulated PostgreSQL backend using an SLRU: its held
// LWLocks (lwlock.c's held_lwlocks, released by LWLockReleaseAll on an
// ERROR), its counters and its scheduler hook.
type Backend struct {
	s     *SLRU
	log   *trace.Log // the SLRU's log, copied here for the nil check
	Actor trace.Actor
	Name  string
	y     sched.Yield
	held  []heldLock

	// Stats are this backend's counters.
	Stats Stats
}

type heldLock struct {
	l   *LWLock
	c   trace.ObjClass
	obj int32
}

// Stats counts what a backend did.
type Stats struct {
	Hits         uint64 // pages found in memory (pgstat's blks_hit)
	Reads        uint64 // pages read in (blks_read): the misses
	Writes       uint64 // pages written out (blks_written)
	Zeroes       uint64 // pages zeroed (blks_zeroed)
	SlotsScanned uint64 // slots compared while searching a bank for a page
	Probes       uint64 // mapping-table probes (banks+hash)
	VictimScans  uint64 // slots examined by SlruSelectLRUPage's victim loop
	Victims      uint64 // slots taken for a new page (empty or clean LRU)
	DirtyVictims uint64 // dirty LRU slots written before they could be taken
	LockWaits    uint64 // failed LWLock tries: one per retry while waiting (KLWWait), not one per acquisition
	IOWaits      uint64 // SimpleLruWaitIO calls
	Errors       uint64
}

// Add adds o to st.
func (st *Stats) Add(o Stats) { counters.Add(st, o) }

// Stats sums every backend's counters.
func (s *SLRU) Stats() Stats {
	var t Stats
	for _, b := range s.backends {
		t.Add(b.Stats)
	}
	return t
}

// SLRU returns the SLRU the backend is attached to.
func (b *Backend) SLRU() *SLRU { return b.s }

// hooked reports whether the backend records events or runs under a
// scheduler. When it does neither (fast mode), SimpleLruReadPage_ReadOnly
// takes its fast path: the same steps on the same state without yields or
// events (TestFastPathMatchesModelled compares the two).
func (b *Backend) hooked() bool { return b.log != nil || b.y != nil }

// emit appends an event when the SLRU has a log; small enough to inline,
// so that with a nil log an event site costs a load and a branch.
func (b *Backend) emit(k trace.Kind, site trace.Site, c trace.ObjClass, obj int, before, after, arg uint64) {
	if b.log != nil {
		b.emitSlow(k, site, c, obj, before, after, arg)
	}
}

//go:noinline
func (b *Backend) emitSlow(k trace.Kind, site trace.Site, c trace.ObjClass, obj int, before, after, arg uint64) {
	b.log.Append(trace.Event{Actor: b.Actor, Kind: k, Site: b.s.siteFor(site), Class: c, Obj: uint32(obj),
		Before: before, After: after, Arg: arg})
}

// step yields to the scheduler before a shared-memory operation.
func (b *Backend) step(site trace.Site) {
	if b.y != nil {
		b.y(sched.Point{Site: b.s.siteFor(site)})
	}
}

// stepWait yields as a backend retrying what only another backend can let
// succeed (a lock held).
func (b *Backend) stepWait(site trace.Site) {
	b.y(sched.Point{Site: b.s.siteFor(site), Wait: true})
}

// HeldLocks lists the locks the backend holds, oldest first, as
// (class, object, mode) triples.
func (b *Backend) HeldLocks() []HeldLock {
	out := make([]HeldLock, len(b.held))
	for i, h := range b.held {
		out[i] = HeldLock{Class: h.c, Obj: int(h.obj), Mode: h.l.ModeOf(b.Actor)}
	}
	return out
}

// HeldLock is one lock a backend holds.
type HeldLock struct {
	Class trace.ObjClass // ClassBank or ClassSlotIO
	Obj   int
	Mode  LWLockMode
}

// --- LWLocks ---

// lwAcquire is LWLockAcquire. A backend under a scheduler retries (a wait)
// until it gets the lock. An unscheduled backend cannot wait for another
// one to release it: that is ErrWouldWait (a mistake of the caller, who
// left a lock held across calls).
func (b *Backend) lwAcquire(l *LWLock, mode LWLockMode, c trace.ObjClass, obj int, site trace.Site) error {
	if !b.hooked() { // fast path: the same steps, no yield, no event
		if l.TryAcquire(b.Actor, mode) {
			b.held = append(b.held, heldLock{l, c, int32(obj)})
			return nil
		}
		b.Stats.LockWaits++
		return b.wouldWait(l, c, obj, site)
	}
	if !lwlock.Acquire(lockOp{b, l, c, obj}, l, b.Actor, mode, site) {
		return b.wouldWait(l, c, obj, site)
	}
	return nil
}

func (b *Backend) wouldWait(l *LWLock, c trace.ObjClass, obj int, site trace.Site) error {
	what := fmt.Sprintf("bank %d's lock", obj)
	if c == ClassSlotIO {
		what = fmt.Sprintf("slot %d's buffer lock", obj)
	}
	return b.raise(ErrWouldWait, site, c, obj, fmt.Sprintf("backend %s would wait for %s, held by %s, but runs without a scheduler",
		b.Name, what, *l), "")
}

// lwConditionalAcquire is LWLockConditionalAcquire: take it if free now.
func (b *Backend) lwConditionalAcquire(l *LWLock, mode LWLockMode, c trace.ObjClass, obj int, site trace.Site) bool {
	return lwlock.ConditionalAcquire(lockOp{b, l, c, obj}, l, b.Actor, mode, site)
}

// lwRelease is LWLockRelease.
func (b *Backend) lwRelease(l *LWLock, c trace.ObjClass, obj int, site trace.Site) {
	b.forget(l)
	if !b.hooked() {
		l.Release(b.Actor)
		return
	}
	lwlock.Release(lockOp{b, l, c, obj}, l, b.Actor, site)
}

// lockOp is a backend taking one lock: lwlock's hooks, with the SLRU's
// sites, events, counters and held-lock list.
type lockOp struct {
	b   *Backend
	l   *LWLock
	c   trace.ObjClass
	obj int
}

func (o lockOp) Yield(site trace.Site, wait bool) {
	if wait {
		o.b.stepWait(site)
	} else {
		o.b.step(site)
	}
}

func (o lockOp) Event(k trace.Kind, site trace.Site, before, after uint64, m LWLockMode) {
	o.b.emit(k, site, o.c, o.obj, before, after, uint64(m))
}

// Acquired records the lock in held_lwlocks.
func (o lockOp) Acquired(trace.Site) {
	o.b.held = append(o.b.held, heldLock{o.l, o.c, int32(o.obj)})
}

// Waited counts the failed try; a backend without a scheduler cannot wait
// (lwAcquire reports ErrWouldWait).
func (o lockOp) Waited(trace.Site) bool {
	o.b.Stats.LockWaits++
	return o.b.y != nil
}

// Released does nothing: lwRelease forgets the lock before it yields.
func (o lockOp) Released(trace.Site) {}

// forget drops l from the held list (searching from the newest, as
// LWLockRelease searches held_lwlocks).
func (b *Backend) forget(l *LWLock) {
	for i := len(b.held) - 1; i >= 0; i-- {
		if b.held[i].l == l {
			copy(b.held[i:], b.held[i+1:])
			b.held = b.held[:len(b.held)-1]
			return
		}
	}
	panic(fmt.Sprintf("slru: backend %s releases a lock it does not hold", b.Name))
}

// raise reports a PostgreSQL-level ERROR: an error event, then
// LWLockReleaseAll (every held lock released, newest first), as the
// transaction abort does.
func (b *Backend) raise(code ErrCode, site trace.Site, c trace.ObjClass, obj int, msg, detail string) *PGError {
	b.Stats.Errors++
	b.emit(trace.KError, site, c, obj, 0, 0, uint64(code))
	b.releaseAll()
	return &PGError{Code: code, Msg: msg, Detail: detail}
}

// releaseAll is LWLockReleaseAll.
func (b *Backend) releaseAll() {
	for len(b.held) > 0 {
		h := b.held[len(b.held)-1]
		b.lwRelease(h.l, h.c, int(h.obj), sAbortRelease)
	}
}

// --- Preconditions of the public operations ---

func (b *Backend) checkNoLocks(op string) error {
	if len(b.held) == 0 {
		return nil
	}
	h := b.held[len(b.held)-1]
	return fmt.Errorf("slru: %s by backend %s, which still holds %s %d's lock (release it first)", op, b.Name,
		map[bool]string{true: "bank", false: "slot"}[h.c == ClassBank], h.obj)
}

func (b *Backend) checkPage(page int64) error {
	if page < 0 || page > MaxPageNumber {
		return &PGError{Code: ErrBadPageNumber, Msg: fmt.Sprintf("page number %d out of range [0, %d]", page, int64(MaxPageNumber))}
	}
	return nil
}

// checkBankExclusive reports an error unless the backend holds page's bank
// lock exclusively (the entry condition of SimpleLruReadPage and
// SimpleLruZeroPage).
func (b *Backend) checkBankExclusive(op string, page int64) error {
	bank := b.s.BankOf(page)
	if b.s.bankLocks[bank].Excl != b.Actor {
		return fmt.Errorf("slru: %s of page %d needs bank %d's lock held exclusively by backend %s (LockBank)", op, page, bank, b.Name)
	}
	return nil
}

// LockBank takes page's bank lock (ControlLock for slru=single) in mode:
// what callers of SimpleLruReadPage and SimpleLruZeroPage do first.
func (b *Backend) LockBank(page int64, mode LWLockMode) error {
	if err := b.checkPage(page); err != nil {
		return err
	}
	if mode != LWShared && mode != LWExclusive {
		return fmt.Errorf("slru: lock mode %d", mode)
	}
	bank := b.s.BankOf(page)
	if b.s.bankLocks[bank].Holds(b.Actor) {
		return fmt.Errorf("slru: backend %s already holds bank %d's lock", b.Name, bank)
	}
	site := b.s.ro.lock
	if mode == LWExclusive {
		site = sClogSetLock
	}
	return b.lwAcquire(&b.s.bankLocks[bank], mode, ClassBank, bank, site)
}

// ReleaseBankLock releases page's bank lock, as TransactionIdGetStatus does
// after SimpleLruReadPage_ReadOnly (LWLockRelease(SimpleLruGetBankLock)).
func (b *Backend) ReleaseBankLock(page int64) error {
	if err := b.checkPage(page); err != nil {
		return err
	}
	bank := b.s.BankOf(page)
	l := &b.s.bankLocks[bank]
	if !l.Holds(b.Actor) {
		return fmt.Errorf("slru: backend %s does not hold bank %d's lock", b.Name, bank)
	}
	b.lwRelease(l, ClassBank, bank, sClogGetUnlock)
	return nil
}
