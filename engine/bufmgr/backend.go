package bufmgr

import (
	"fmt"
	"sort"

	"bufferlab/engine/aio"
	"bufferlab/engine/internal/counters"
	"bufferlab/engine/internal/lwlock"
	"bufferlab/engine/sched"
	"bufferlab/engine/trace"
)

// RefcountArrayEntries is REFCOUNT_ARRAY_ENTRIES: the private pin counts a
// backend keeps in a small array before spilling into a hash (bufmgr.c, 9.5+).
const RefcountArrayEntries = 8

// privateRef is a PrivateRefCountEntry.
type privateRef struct {
	buffer   Buffer
	refcount int32
}

// Backend is one simulated PostgreSQL backend attached to a pool: its
// private pin counts (PrivateRefCountArray / PrivateRefCountHash), its
// counters, and its scheduler hook.
type Backend struct {
	pool  *Pool
	log   *trace.Log // the pool's log, copied here for the nil check
	Actor trace.Actor
	Name  string
	y     sched.Yield

	refArray      [RefcountArrayEntries]privateRef
	refHash       map[Buffer]int32 // PrivateRefCountHash
	refClock      uint32           // PrivateRefCountClock
	reserved      int              // ReservedRefCountEntry: an array index, or -1
	refOverflowed int              // PrivateRefCountOverflowed

	// pinWoken is set when an UnpinBuffer signals this backend as the
	// buffer's pin-count waiter (ProcSendSignal); LockBufferForCleanup
	// sleeps until it is set (ProcWaitForSignal).
	pinWoken bool

	// Stats are this backend's counters.
	Stats Stats

	// aio is the backend's AIO state at PostgreSQL 18 (read18.go), aioBuf
	// the buffer manager it reads through; nil below 18.
	aio    *aio.Backend
	aioBuf *aioBuffers
}

// Stats counts what the engine did.
type Stats struct {
	Hits, Misses, Writes           uint64 // shared_blks_hit, _read, _written
	ClockTicks, UsageDecrements    uint64
	SkippedPinned                  uint64
	FreelistVictims, SweepVictims  uint64
	RingVictims, RingRejects       uint64
	PartitionLocks, PartitionWaits uint64 // BufMappingLock acquisitions and waits
	ContentLockFails               uint64
	HeaderLocks, Spins             uint64
	CASAttempts, CASFailures       uint64
	IOWaits                        uint64
	Errors                         uint64
	// IOTimeUS is the simulated time, in microseconds, that the backend's
	// synchronous reads and writes took under the pool's latency model
	// (Options.IOLatencyUS per call plus IOBlockUS per block; 0 without
	// one): what a scan waits for that reading ahead could hide.
	IOTimeUS uint64

	// Dropping a relation's buffers (drop.go, dropfind.go, dlist.go).
	DropDescsTouched   uint64 // descriptors whose tag a drop examined (scan pre-check, list node)
	DropLookups        uint64 // BufTableLookup calls of the per-block lookup
	DropPartitionLocks uint64 // mapping partition locks taken by drops (lookup and InvalidateBuffer)
	DropListHops       uint64 // list links followed by the dlist walk (head included)
	DropInvalidated    uint64 // buffers InvalidateBuffer cleared
	DropPinWaits       uint64 // times InvalidateBuffer found the buffer pinned and waited
	DListLinks         uint64 // dlist upkeep: buffers linked into a relation's list
	DListUnlinks       uint64 // dlist upkeep: buffers unlinked from a relation's list
	DListLocks         uint64 // dlist list locks taken (upkeep and walk)
}

// Add adds o to s.
func (s *Stats) Add(o Stats) { counters.Add(s, o) }

// Pool returns the pool the backend is attached to.
func (b *Backend) Pool() *Pool { return b.pool }

// traced reports whether the backend records events (its pool has a log).
func (b *Backend) traced() bool { return hooks && b.log != nil }

// hooked reports whether the backend records events or runs under a
// scheduler. When it does neither (fast simulation, DESIGN "Three speeds"),
// the hottest modelled functions (lwAcquire, lwRelease, pinBuffer,
// unpinBuffer) take a fast path: the same steps in the same order on the
// same state, without yields and events. One check per call instead of
// one per site saves about 2% of a buffer hit or miss (against the
// bufferlab_nohooks build; the hooks left cost 2–3%). Whatever is not the
// common case (a lock taken, a header locked, a pin-count waiter to wake)
// goes through the modelled code.
// TestFastPathMatchesModelled runs the same operation streams both ways
// and compares the pools after every operation.
func (b *Backend) hooked() bool { return hooks && (b.log != nil || b.y != nil) }

// emit appends an event when the pool has a log. It is small enough to be
// inlined, so that with a nil log an event site costs one load and one
// predictable branch; emitSlow builds and appends the event.
//
// Go evaluates emit's arguments before that branch, with a nil log too, so
// an argument that costs more than a register move must not be computed
// there: a tag goes through emitTag, which packs it inside the branch, and
// anything else is guarded with traced. (Calling BufferTag.Pack copies the
// five-field tag through the stack, and reading the copy back stalls on
// store forwarding: as emit arguments, the packed tags of a hit and release
// cost about a fifth of the operation with the log nil.)
func (b *Backend) emit(k trace.Kind, site trace.Site, c trace.ObjClass, obj int32, before, after, arg uint64) {
	if b.traced() {
		b.emitSlow(k, site, c, obj, before, after, arg)
	}
}

// emitTag is emit with a buffer tag, packed, as the event's argument. The
// tag is packed only when the backend is traced.
func (b *Backend) emitTag(k trace.Kind, site trace.Site, c trace.ObjClass, obj int32, before, after uint64, tag *BufferTag) {
	if b.traced() {
		b.emitTagSlow(k, site, c, obj, before, after, tag)
	}
}

//go:noinline
func (b *Backend) emitTagSlow(k trace.Kind, site trace.Site, c trace.ObjClass, obj int32, before, after uint64, tag *BufferTag) {
	b.emitSlow(k, site, c, obj, before, after, tag.Pack())
}

//go:noinline
func (b *Backend) emitSlow(k trace.Kind, site trace.Site, c trace.ObjClass, obj int32, before, after, arg uint64) {
	b.log.Append(trace.Event{Actor: b.Actor, Kind: k, Site: site, Class: c, Obj: uint32(obj),
		Before: before, After: after, Arg: arg})
}

// step yields to the scheduler before a shared-memory operation.
func (b *Backend) step(site trace.Site) {
	if hooks && b.y != nil {
		b.y(sched.Point{Site: site})
	}
}

// sleep yields as a backend that sleeps until until() holds (a latch, a
// condition variable): the scheduler does not resume it before, so it
// takes no steps meanwhile. It must be scheduled: unscheduled, nothing
// else could run to wake it.
func (b *Backend) sleep(site trace.Site, until func() bool) {
	if hooks && b.y != nil {
		b.y(sched.Point{Site: site, Until: until})
		return
	}
	panic(fmt.Sprintf("bufmgr: backend %s must sleep at %s but runs unscheduled", b.Name, site))
}

// Scheduled reports whether the backend runs under a scheduler (and
// with hooks built in), so that it can wait for another backend: a caller
// outside this package that models a wait of its own (engine/fsm's
// relation extension lock) asks before it sleeps.
func (b *Backend) Scheduled() bool { return hooks && b.y != nil }

// Step yields to the scheduler before a shared-memory operation of a
// caller outside this package (engine/fsm: the lock manager's partition
// lock that RelationExtensionLockWaiterCount and LockRelationForExtension
// take). Unscheduled it does nothing.
func (b *Backend) Step(site trace.Site) { b.step(site) }

// Sleep yields as a backend that sleeps until until() holds, for a caller
// outside this package (engine/fsm: a backend queued on a relation
// extension lock, ProcSleep). It must be scheduled (Scheduled).
func (b *Backend) Sleep(site trace.Site, until func() bool) { b.sleep(site, until) }

// stepWait yields as a backend retrying an operation that only another
// backend can let succeed. Unscheduled, such a retry could never succeed.
func (b *Backend) stepWait(site trace.Site) {
	if hooks && b.y != nil {
		b.y(sched.Point{Site: site, Wait: true})
		return
	}
	panic(fmt.Sprintf("bufmgr: backend %s must wait at %s but runs unscheduled", b.Name, site))
}

// --- Private reference counts (bufmgr.c, 9.5+) ---

// ReservePrivateRefCountEntry makes sure a free array slot exists, moving
// the entry under the clock hand into the hash when all are used.
func (b *Backend) reservePrivateRefCountEntry() {
	if b.reserved >= 0 {
		return
	}
	for i := range b.refArray {
		if b.refArray[i].buffer == InvalidBuffer {
			b.reserved = i
			return
		}
	}
	victim := int(b.refClock % RefcountArrayEntries)
	b.refClock++
	e := b.refArray[victim]
	b.refHash[e.buffer] = e.refcount
	b.refOverflowed++
	b.refArray[victim] = privateRef{}
	b.reserved = victim
}

// newPrivateRefCountEntry fills the reserved slot.
func (b *Backend) newPrivateRefCountEntry(buf Buffer) *privateRef {
	if b.reserved < 0 {
		panic("bufmgr: NewPrivateRefCountEntry without a reserved entry")
	}
	r := &b.refArray[b.reserved]
	b.reserved = -1
	r.buffer = buf
	r.refcount = 0
	return r
}

// getPrivateRefCountEntry finds buf's entry, moving a hash entry back into
// the array (GetPrivateRefCountEntry with do_move = true). It returns nil
// when the backend does not pin buf.
func (b *Backend) getPrivateRefCountEntry(buf Buffer) *privateRef {
	for i := range b.refArray {
		if b.refArray[i].buffer == buf {
			return &b.refArray[i]
		}
	}
	if b.refOverflowed == 0 {
		return nil
	}
	cnt, ok := b.refHash[buf]
	if !ok {
		return nil
	}
	delete(b.refHash, buf)
	b.refOverflowed--
	b.reservePrivateRefCountEntry()
	r := b.newPrivateRefCountEntry(buf)
	r.refcount = cnt
	return r
}

// decPrivateRef lowers buf's private count where it lives, without moving a
// hash entry (UnpinBuffer's GetPrivateRefCountEntry(b, false)), and returns
// the new count; ok is false when the backend does not pin buf.
func (b *Backend) decPrivateRef(buf Buffer) (count int32, ok bool) {
	for i := range b.refArray {
		if b.refArray[i].buffer == buf {
			b.refArray[i].refcount--
			return b.refArray[i].refcount, true
		}
	}
	if c, found := b.refHash[buf]; found {
		b.refHash[buf] = c - 1
		return c - 1, true
	}
	return 0, false
}

// forgetPrivateRefCountEntry drops buf's entry once its count is zero; a
// freed array slot becomes the reserved one (ForgetPrivateRefCountEntry).
func (b *Backend) forgetPrivateRefCountEntry(buf Buffer) {
	for i := range b.refArray {
		if b.refArray[i].buffer == buf {
			b.refArray[i] = privateRef{}
			b.reserved = i
			return
		}
	}
	delete(b.refHash, buf)
	b.refOverflowed--
}

// PrivateRefCount is this backend's pin count on buf (GetPrivateRefCount).
func (b *Backend) PrivateRefCount(buf Buffer) int {
	for i := range b.refArray {
		if b.refArray[i].buffer == buf {
			return int(b.refArray[i].refcount)
		}
	}
	return int(b.refHash[buf])
}

// HasPrivateRefEntry reports whether the backend has an entry for buf, i.e.
// counts in buf's shared refcount.
func (b *Backend) HasPrivateRefEntry(buf Buffer) bool {
	for i := range b.refArray {
		if b.refArray[i].buffer == buf {
			return true
		}
	}
	_, ok := b.refHash[buf]
	return ok
}

// Pin is one buffer a backend holds pinned and how many times.
type Pin struct {
	Buffer Buffer
	Count  int
}

// Pins lists the buffers this backend holds pinned, by buffer number.
func (b *Backend) Pins() []Pin {
	var out []Pin
	for _, r := range b.refArray {
		if r.buffer != InvalidBuffer {
			out = append(out, Pin{r.buffer, int(r.refcount)})
		}
	}
	for buf, c := range b.refHash {
		out = append(out, Pin{buf, int(c)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Buffer < out[j].Buffer })
	return out
}

// --- Locks ---

func (b *Backend) lwAcquire(l *LWLock, mode LWLockMode, c trace.ObjClass, obj int32, site trace.Site) {
	// Fast path (see hooked): the lock is free. Otherwise the modelled
	// path tries again, counts the wait and, unscheduled, reports it.
	if !b.hooked() {
		if l.TryAcquire(b.Actor, mode) {
			if c == trace.OPartition {
				b.Stats.PartitionLocks++
			}
			b.dropCounted(site)
			return
		}
	}
	lwlock.Acquire(lockOp{b, c, obj}, l, b.Actor, mode, site)
}

func (b *Backend) lwRelease(l *LWLock, c trace.ObjClass, obj int32, site trace.Site) {
	if !b.hooked() { // fast path (see hooked)
		l.Release(b.Actor)
		if c == trace.OPartition {
			b.dropCounted(site)
		}
		return
	}
	lwlock.Release(lockOp{b, c, obj}, l, b.Actor, site)
}

func (b *Backend) lwConditionalAcquire(l *LWLock, mode LWLockMode, c trace.ObjClass, obj int32, site trace.Site) bool {
	if lwlock.ConditionalAcquire(lockOp{b, c, obj}, l, b.Actor, mode, site) {
		return true
	}
	if c == trace.OContent {
		b.Stats.ContentLockFails++
	}
	return false
}

// lockOp is a backend taking one lock: lwlock's hooks, with the pool's
// sites, events and counters.
type lockOp struct {
	b   *Backend
	c   trace.ObjClass
	obj int32
}

func (o lockOp) Yield(site trace.Site, wait bool) {
	if wait {
		o.b.stepWait(site) // panics unscheduled: bufmgr's backends never run so
	} else {
		o.b.step(site)
	}
}

func (o lockOp) Event(k trace.Kind, site trace.Site, before, after uint64, m LWLockMode) {
	o.b.emit(k, site, o.c, o.obj, before, after, uint64(m))
}

func (o lockOp) Acquired(site trace.Site) {
	if o.c == trace.OPartition {
		o.b.Stats.PartitionLocks++
	}
	o.b.dropCounted(site)
}

func (o lockOp) Waited(trace.Site) bool {
	if o.c == trace.OPartition {
		o.b.Stats.PartitionWaits++
	}
	return true
}

func (o lockOp) Released(site trace.Site) {
	if o.c == trace.OPartition {
		o.b.dropCounted(site)
	}
}

func (b *Backend) partitionLock(part int, mode LWLockMode, site trace.Site) {
	b.lwAcquire(&b.pool.parts[part].lock, mode, trace.OPartition, int32(part), site)
}

func (b *Backend) partitionUnlock(part int, site trace.Site) {
	b.lwRelease(&b.pool.parts[part].lock, trace.OPartition, int32(part), site)
}

// contentLock returns buffer id's content lock, creating it on first use.
// Locks stay in the map once created: a backend waiting for a lock keeps
// its pointer across yields, so the lock must not be replaced meanwhile.
func (b *Backend) contentLock(id int32) *LWLock {
	l := b.pool.content[id]
	if l == nil {
		l = &LWLock{}
		b.pool.content[id] = l
	}
	return l
}

func (b *Backend) contentUnlock(id int32, site trace.Site) {
	b.lwRelease(b.pool.content[id], trace.OContent, id, site)
}

// ContentLock returns the state of buffer id's content lock.
func (p *Pool) ContentLock(id int) LWLock {
	if l := p.content[int32(id)]; l != nil {
		return *l
	}
	return LWLock{}
}

// stuckSpinlockSpins bounds a header-lock spin as s_lock.c does: 1000
// delays of spins_per_delay (100) spins each, then PANIC "stuck spinlock".
const stuckSpinlockSpins = 1000 * 100

// lockBufHdr is LockBufHdr (bufmgr.c, 9.6+): set BM_LOCKED with an atomic
// fetch-or until the old value did not have it. It returns the state with
// BM_LOCKED set.
func (b *Backend) lockBufHdr(d *BufferDesc, site trace.Site) uint32 {
	spins := 0
	for {
		if spins == 0 {
			b.step(site)
		} else {
			b.stepWait(site)
		}
		old := d.state.Or(BmLocked)
		if old&BmLocked == 0 {
			b.Stats.HeaderLocks++
			b.emit(trace.KLockHdr, site, trace.OBuffer, d.bufID, uint64(old), uint64(old|BmLocked), 0)
			return old | BmLocked
		}
		spins++
		b.Stats.Spins++
		b.emit(trace.KSpin, site, trace.OBuffer, d.bufID, uint64(old), uint64(old), uint64(spins))
		if spins >= stuckSpinlockSpins {
			panic(fmt.Sprintf("stuck spinlock detected on buffer %d header (backend %s)", d.bufID, b.Name))
		}
	}
}

// unlockBufHdr is UnlockBufHdr: a plain store of the new state without
// BM_LOCKED, allowed because nobody else writes a locked word.
func (b *Backend) unlockBufHdr(d *BufferDesc, s uint32, site trace.Site) {
	b.unlockBufHdrAnd(d, s, site, nil)
}

// unlockBufHdrAnd is unlockBufHdr that also runs also (if not nil) in the
// same step, right after the store: for a field guarded by the header
// lock that must change with the state word (PostgreSQL 18's io_wref).
func (b *Backend) unlockBufHdrAnd(d *BufferDesc, s uint32, site trace.Site, also func()) {
	b.step(site)
	before := d.state.Load()
	if before&BmLocked == 0 {
		panic(fmt.Sprintf("bufmgr: UnlockBufHdr of buffer %d whose header is not locked", d.bufID))
	}
	after := s &^ BmLocked
	d.state.Store(after)
	if also != nil {
		also()
	}
	b.emit(trace.KUnlockHdr, site, trace.OBuffer, d.bufID, uint64(before), uint64(after), 0)
}

// waitBufHdrUnlocked is WaitBufHdrUnlocked: re-read the state, with a spin
// delay between reads, until BM_LOCKED is clear; return that state.
func (b *Backend) waitBufHdrUnlocked(d *BufferDesc, locked uint32, site trace.Site) uint32 {
	s := locked
	spins := 0
	for s&BmLocked != 0 {
		spins++
		b.Stats.Spins++
		b.emit(trace.KSpin, site, trace.OBuffer, d.bufID, uint64(s), uint64(s), uint64(spins))
		if spins >= stuckSpinlockSpins {
			panic(fmt.Sprintf("stuck spinlock detected on buffer %d header (backend %s)", d.bufID, b.Name))
		}
		b.stepWait(site)
		s = d.state.Load()
		b.emit(trace.KLoad, site, trace.OBuffer, d.bufID, 0, uint64(s), 0)
	}
	return s
}
