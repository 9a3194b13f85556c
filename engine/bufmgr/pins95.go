package bufmgr

import (
	"fmt"

	"bufferlab/engine/trace"
)

// The pins=spinlock variant: PinBuffer and UnpinBuffer as PostgreSQL 9.5
// had them (bufmgr.c at the parent of 48354581a4), drawn on the 9.6 state
// word for comparison (the code panel says so).
//
// Before 9.6 a BufferDesc kept its fields apart: flags (bits16, BM_DIRTY
// 1<<0 … BM_PERMANENT 1<<8), usage_count (uint8), refcount (unsigned),
// wait_backend_pid, and slock_t buf_hdr_lock guarding all of them. Every
// pin and unpin took buf_hdr_lock, changed refcount and usage_count and
// released it; nothing read or wrote them without the lock.
//
// The engine keeps one descriptor layout for both variants, so the model
// maps that design onto the state word:
//
//   - buf_hdr_lock is BM_LOCKED: LockBufHdr (lockBufHdr: test-and-set with
//     the s_lock.c spin delay, KLockHdr / KSpin events) is SpinLockAcquire
//     on buf_hdr_lock, and UnlockBufHdr (a store without BM_LOCKED,
//     KUnlockHdr) is SpinLockRelease;
//   - refcount, usage_count and flags are the word's fields (OldLayout
//     derives the pre-9.6 view from a word). Under the lock the holder
//     changes them together, and the release publishes them, so each pin
//     or unpin is lock, modify, unlock: the same three steps as 9.5.
//
// What differs from the atomic variant is therefore only the protocol: a
// pinning backend that meets a held header spins on the lock (KSpin)
// instead of failing a CAS and retrying (KCASFail). Everything else that
// takes the header lock (StrategyGetBuffer, StartBufferIO, …) is shared by
// both variants. MarkBufferDirty differs too: under pins=spinlock it is
// 9.5's lock, set BM_DIRTY | BM_JUST_DIRTIED, unlock (dirty95.lock and
// dirty95.unlock), not 9.6's CAS loop.
//
// The private count of 9.5 (PrivateRefCountArray, 9.5+) is the same. In
// 9.5 the private entry is created before LockBufHdr and forgotten after
// UnlockBufHdr; here both happen with the unlocking store, so that the
// invariant "refcount = backends with an entry" holds after every event.

// OldLayout is a buffer header as PostgreSQL ≤ 9.5 laid it out, derived from
// a state word: Flags uses the 9.5 bit numbers (BM_DIRTY 1<<0 …
// BM_PERMANENT 1<<8), and Locked is buf_hdr_lock.
type OldLayout struct {
	Flags      uint16
	UsageCount uint8
	Refcount   uint32
	Locked     bool
}

// oldFlagBits maps the 9.6 flag bits to their 9.5 positions (buf_internals.h,
// 9.5): DIRTY 0, VALID 1, TAG_VALID 2, IO_IN_PROGRESS 3, IO_ERROR 4,
// JUST_DIRTIED 5, PIN_COUNT_WAITER 6, CHECKPOINT_NEEDED 7, PERMANENT 8.
var oldFlagBits = [...]uint32{BmDirty, BmValid, BmTagValid, BmIOInProgress, BmIOError,
	BmJustDirtied, BmPinCountWaiter, BmCheckpointNeeded, BmPermanent}

// OldLayoutOf derives the pre-9.6 view of a state word.
func OldLayoutOf(s uint32) OldLayout {
	var fl uint16
	for i, bit := range oldFlagBits {
		if s&bit != 0 {
			fl |= 1 << i
		}
	}
	return OldLayout{Flags: fl, UsageCount: uint8(StateUsagecount(s)), Refcount: StateRefcount(s), Locked: s&BmLocked != 0}
}

func (o OldLayout) String() string {
	lk := "free"
	if o.Locked {
		lk = "held"
	}
	return fmt.Sprintf("flags=%#04x usage_count=%d refcount=%d buf_hdr_lock=%s", o.Flags, o.UsageCount, o.Refcount, lk)
}

// pinBuffer95 is PinBuffer (bufmgr.c, PG 9.5): the shared counts change
// under the buffer header spinlock. It returns whether the buffer is valid.
func (b *Backend) pinBuffer95(d *BufferDesc, strategy *Strategy) bool {
	if b.pinAgain(d, sPin95Private) { // 9.5 does not look at the header at all
		return true
	}
	buf := Buffer(d.bufID + 1)
	s := b.lockBufHdr(d, sPin95Lock)
	// buf->refcount++ and the usage rule: BM_LOCKED is outside both fields.
	s = pinnedState(s, strategy)
	b.step(sPin95Unlock)
	before := d.state.Load()
	after := s &^ BmLocked
	d.state.Store(after)
	ref := b.newPrivateRefCountEntry(buf)
	b.emit(trace.KUnlockHdr, sPin95Unlock, trace.OBuffer, d.bufID, uint64(before), uint64(after), 0)
	ref.refcount = 1
	b.emit(trace.KPrivRef, sPin95Private, trace.OBuffer, d.bufID, 0, 1, 0)
	return after&BmValid != 0
}

// unpinBuffer95 is UnpinBuffer (bufmgr.c, PG 9.5): at the last private pin,
// decrement the shared count under the header spinlock and, if that leaves
// only a LockBufferForCleanup waiter's pin, clear BM_PIN_COUNT_WAITER and
// signal it after the release.
func (b *Backend) unpinBuffer95(d *BufferDesc) {
	if !b.unpinPrivate(d, sUnpin95Private) {
		return
	}
	buf := Buffer(d.bufID + 1)
	s := b.lockBufHdr(d, sUnpin95Lock)
	if StateRefcount(s) == 0 {
		panic(fmt.Sprintf("bufmgr: buffer %d refcount is 0 at UnpinBuffer (backend %s)", d.bufID, b.Name))
	}
	s -= BufRefcountOne
	unlockSite, wake := sUnpin95Unlock, false
	waiter := d.waitBackend
	if s&BmPinCountWaiter != 0 && StateRefcount(s) == 1 {
		s &^= BmPinCountWaiter
		unlockSite, wake = sUnpin95WaiterUnlock, true
	}
	b.step(unlockSite)
	before := d.state.Load()
	after := s &^ BmLocked
	d.state.Store(after)
	b.forgetPrivateRefCountEntry(buf)
	b.emit(trace.KUnlockHdr, unlockSite, trace.OBuffer, d.bufID, uint64(before), uint64(after), 0)
	if wake {
		b.signalPinWaiter(d, waiter, sUnpin95Wake)
	}
}

// signalPinWaiter is ProcSendSignal(wait_backend): wake the backend sleeping
// in LockBufferForCleanup.
func (b *Backend) signalPinWaiter(d *BufferDesc, waiter trace.Actor, site trace.Site) {
	if i := int(waiter) - 1; i >= 0 && i < len(b.pool.backends) {
		b.pool.backends[i].pinWoken = true
	}
	b.emit(trace.KWake, site, trace.OBuffer, d.bufID, 0, 0, uint64(waiter))
}

// LockBufferForCleanup is LockBufferForCleanup (bufmgr.c, PG 9.6–18; 9.5
// differs only in keeping the flag in its own field): the caller holds
// exactly one pin on buf and wants the "cleanup lock": the content lock
// exclusively while no other backend pins the buffer. It takes the content
// lock, checks the pin count under the header lock and, while others pin
// the buffer, marks itself as the pin-count waiter (BM_PIN_COUNT_WAITER,
// wait_backend), releases both locks and sleeps until an UnpinBuffer that
// leaves only its pin signals it; then it clears the flag if still its own
// and tries again. It returns holding the content lock exclusively (release
// it with UnlockBuffer). Only one backend may wait per buffer: a second
// gets PostgreSQL's ERROR "multiple backends attempting to wait for
// pincount 1", with neither lock held.
func (b *Backend) LockBufferForCleanup(buf Buffer) error {
	if buf <= 0 || int(buf) > b.pool.NBuffers || !b.HasPrivateRefEntry(buf) {
		return &PGError{Code: ErrBufferNotPinned, Msg: fmt.Sprintf("cannot lock buffer %d for cleanup: not pinned by backend %s", buf, b.Name)}
	}
	if n := b.PrivateRefCount(buf); n != 1 {
		return &PGError{Code: ErrLocalPinCount, Msg: fmt.Sprintf("incorrect local pin count: %d", n)}
	}
	d := &b.pool.descs[buf-1]
	b.emitTag(trace.KOp, sCleanupBegin, trace.OBuffer, d.bufID, 0, 0, &d.tag)
	for {
		b.lwAcquire(b.contentLock(d.bufID), LWExclusive, trace.OContent, d.bufID, sCleanupContentLock)
		s := b.lockBufHdr(d, sCleanupHdrLock)
		if StateRefcount(s) == 1 {
			b.unlockBufHdr(d, s, sCleanupGot)
			b.emitTag(trace.KOpDone, sCleanupGot, trace.OBuffer, d.bufID, 0, 0, &d.tag)
			return nil
		}
		if s&BmPinCountWaiter != 0 {
			b.unlockBufHdr(d, s, sCleanupMultiUnlock)
			b.contentUnlock(d.bufID, sCleanupMultiRelease)
			b.Stats.Errors++
			b.emit(trace.KError, sCleanupMultiError, trace.OBuffer, d.bufID, 0, 0, uint64(ErrMultiplePinWaiters))
			return &PGError{Code: ErrMultiplePinWaiters, Msg: "multiple backends attempting to wait for pincount 1"}
		}
		d.waitBackend = b.Actor
		b.pinWoken = false
		b.unlockBufHdr(d, s|BmPinCountWaiter, sCleanupSetWaiter)
		b.contentUnlock(d.bufID, sCleanupContentUnlock)
		// ProcWaitForSignal: sleep until an UnpinBuffer signals us.
		for !b.pinWoken {
			b.stepWait(sCleanupSleep)
		}
		b.pinWoken = false
		s = b.lockBufHdr(d, sCleanupClearLock)
		if s&BmPinCountWaiter != 0 && d.waitBackend == b.Actor {
			s &^= BmPinCountWaiter
		}
		b.unlockBufHdr(d, s, sCleanupClearUnlock)
	}
}

// UnlockBuffer is LockBuffer(buffer, BUFFER_LOCK_UNLOCK) for a content lock
// this backend holds (as LockBufferForCleanup leaves it).
func (b *Backend) UnlockBuffer(buf Buffer) error {
	if buf <= 0 || int(buf) > b.pool.NBuffers {
		return &PGError{Code: ErrBufferNotPinned, Msg: fmt.Sprintf("bad buffer ID: %d", buf)}
	}
	l := b.pool.content[int32(buf-1)]
	if l == nil || !l.Holds(b.Actor) {
		return &PGError{Code: ErrBufferNotPinned, Msg: fmt.Sprintf("lock of buffer %d is not held by backend %s", buf, b.Name)}
	}
	b.contentUnlock(int32(buf-1), sLockBufferUnlock)
	return nil
}
