package poolview

import (
	"fmt"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
	"bufferlab/viz/viewkit"
)

// Counters count events by kind, as the pool scene's counter panel shows
// them. The fields named like bufmgr.Stats count exactly what the engine
// counts there (Stats converts), the others are extra.
type Counters struct {
	Hits, Misses, Writes, Reads    uint64 // KHit, KMiss, KIOWrite, KIORead
	ClockTicks, ClockWraps         uint64 // KClockTick, KClockWrap
	UsageDecrements, SkippedPinned uint64 // KUsageDown, KSkipPinned
	FreelistVictims, SweepVictims  uint64 // KVictim by source
	RingVictims, RingRejects       uint64 // KVictim from a ring; KRingReject of a buffer
	PartitionLocks, PartitionWaits uint64 // KLWAcquire, KLWWait on a mapping partition
	LockWaits                      uint64 // every KLWWait
	ContentLockFails               uint64 // KLWCondFail on a content lock
	HeaderLocks, Spins             uint64 // KLockHdr; KSpin (header locks and the strategy spinlock)
	// CASAttempts counts state-word compare-and-swaps: KCAS, KDirty and
	// KCASFail on a buffer; CASFailures the KCASFail among them.
	CASAttempts, CASFailures  uint64
	ClockCASFailures          uint64 // KCASFail of ClockSweepTick's wrap-around
	IOWaits, Errors           uint64 // KIOWait, KError
	Ops                       uint64 // KOp
	MapLookups, MapInserts    uint64 // KMapLookup; KMapInsert that inserted
	MapCollisions, MapDeletes uint64 // KMapInsert that found the tag; KMapDelete
	Wakes                     uint64 // KWake
	// ReadCalls counts read calls: a KIORead that is a call's first block
	// (Before 0): PostgreSQL 15's smgrread, 17's smgrreadv. Reads counts
	// the blocks.
	ReadCalls uint64
	// Dropping relations (the Drop* and DList* fields of bufmgr.Stats):
	// descriptors the drop examined, mapping lookups and partition locks
	// it made, list hops of the dlist walk, buffers invalidated, waits for
	// a pin; and the dlist variant's upkeep: list links, unlinks, locks.
	DropDescsTouched, DropLookups, DropPartitionLocks uint64
	DropListHops, DropInvalidated, DropPinWaits       uint64
	DListLinks, DListUnlinks, DListLocks              uint64
}

// dropCounters maps the drop code's sites to the counter its event adds
// to (each site's event is emitted exactly where bufmgr counts).
var dropCounters = func() viewkit.SiteCounts[Counters] {
	m := viewkit.SiteCounts[Counters]{}
	m.Add(func(c *Counters) *uint64 { return &c.DropDescsTouched },
		"drop.precheck", "dropall.precheck-linear", "dropall.precheck-bsearch")
	m.Add(func(c *Counters) *uint64 { return &c.DropListHops }, "dlist.head", "dlist.restart")
	m.Add(func(c *Counters) *uint64 { return &c.DropLookups }, "lookup.lookup")
	m.Add(func(c *Counters) *uint64 { return &c.DropPartitionLocks }, "lookup.lock", "inval.lock-part")
	m.Add(func(c *Counters) *uint64 { return &c.DropInvalidated }, "inval.release")
	m.Add(func(c *Counters) *uint64 { return &c.DropPinWaits }, "inval.wait")
	m.Add(func(c *Counters) *uint64 { return &c.DListLinks }, "dlist.alloc-link")
	m.Add(func(c *Counters) *uint64 { return &c.DListUnlinks }, "dlist.alloc-unlink", "inval.unlink")
	m.Add(func(c *Counters) *uint64 { return &c.DListLocks }, "dlist.alloc-lock", "dlist.lock", "dlist.relock", "inval.lock-list")
	return m
}()

// siteDListNext is a hop of the dlist walk that also examines a descriptor.
var siteDListNext, siteLookupLookup = trace.SiteOf("dlist.next"), trace.SiteOf("lookup.lookup")

// siteInvalRelease ends InvalidateBuffer: its release counts a buffer
// dropped.
var siteInvalRelease = trace.SiteOf("inval.release")

// countDrop adds d to the drop counter e's site feeds, if any.
func (c *Counters) countDrop(e trace.Event, d uint64) {
	if e.Site == siteLookupLookup && e.After != trace.NoBuffer {
		c.DropDescsTouched += d // the lookup found a buffer to examine
	}
	if e.Site == siteDListNext {
		c.DropListHops += d
		c.DropDescsTouched += d
		return
	}
	// The site's counted event: the acquire (not a wait) of a lock, the
	// release that ends InvalidateBuffer, the list change.
	switch e.Kind {
	case trace.KLWWait, trace.KLWCondFail:
		return
	case trace.KLWRelease:
		if e.Site != siteInvalRelease {
			return
		}
	}
	dropCounters.Count(c, e, d)
}

// Stats returns the counters the engine keeps in bufmgr.Stats.
func (c Counters) Stats() bufmgr.Stats {
	return bufmgr.Stats{
		Hits: c.Hits, Misses: c.Misses, Writes: c.Writes,
		ClockTicks: c.ClockTicks, UsageDecrements: c.UsageDecrements, SkippedPinned: c.SkippedPinned,
		FreelistVictims: c.FreelistVictims, SweepVictims: c.SweepVictims,
		RingVictims: c.RingVictims, RingRejects: c.RingRejects,
		PartitionLocks: c.PartitionLocks, PartitionWaits: c.PartitionWaits,
		ContentLockFails: c.ContentLockFails, HeaderLocks: c.HeaderLocks, Spins: c.Spins,
		CASAttempts: c.CASAttempts, CASFailures: c.CASFailures, IOWaits: c.IOWaits, Errors: c.Errors,
		DropDescsTouched: c.DropDescsTouched, DropLookups: c.DropLookups, DropPartitionLocks: c.DropPartitionLocks,
		DropListHops: c.DropListHops, DropInvalidated: c.DropInvalidated, DropPinWaits: c.DropPinWaits,
		DListLinks: c.DListLinks, DListUnlinks: c.DListUnlinks, DListLocks: c.DListLocks,
	}
}

// fields lists every counter, for Fingerprint.
func (c Counters) fields() []uint64 {
	return []uint64{c.Hits, c.Misses, c.Writes, c.Reads, c.ClockTicks, c.ClockWraps,
		c.UsageDecrements, c.SkippedPinned, c.FreelistVictims, c.SweepVictims, c.RingVictims,
		c.RingRejects, c.PartitionLocks, c.PartitionWaits, c.LockWaits, c.ContentLockFails,
		c.HeaderLocks, c.Spins, c.CASAttempts, c.CASFailures, c.ClockCASFailures, c.IOWaits,
		c.Errors, c.Ops, c.MapLookups, c.MapInserts, c.MapCollisions, c.MapDeletes, c.Wakes,
		c.DropDescsTouched, c.DropLookups, c.DropPartitionLocks, c.DropListHops, c.DropInvalidated,
		c.DropPinWaits, c.DListLinks, c.DListUnlinks, c.DListLocks, c.ReadCalls}
}

// count adds d (+1 or -1) to the counters e affects.
func (c *Counters) count(e trace.Event, d uint64) {
	c.countDrop(e, d)
	switch e.Kind {
	case trace.KHit:
		c.Hits += d
	case trace.KMiss:
		c.Misses += d
	case trace.KIOWrite:
		c.Writes += d
	case trace.KIORead:
		c.Reads += d
		if e.Before == 0 {
			c.ReadCalls += d
		}
	case trace.KClockTick:
		c.ClockTicks += d
	case trace.KClockWrap:
		c.ClockWraps += d
	case trace.KUsageDown:
		c.UsageDecrements += d
	case trace.KSkipPinned:
		c.SkippedPinned += d
	case trace.KVictim:
		switch e.Arg {
		case bufmgr.VictimFreelist:
			c.FreelistVictims += d
		case bufmgr.VictimSweep:
			c.SweepVictims += d
		case bufmgr.VictimRing:
			c.RingVictims += d
		}
	case trace.KRingReject:
		if e.Obj != NoObj {
			c.RingRejects += d
		}
	case trace.KLWAcquire:
		if e.Class == trace.OPartition {
			c.PartitionLocks += d
		}
	case trace.KLWWait:
		c.LockWaits += d
		if e.Class == trace.OPartition {
			c.PartitionWaits += d
		}
	case trace.KLWCondFail:
		if e.Class == trace.OContent {
			c.ContentLockFails += d
		}
	case trace.KLockHdr:
		c.HeaderLocks += d
	case trace.KSpin:
		c.Spins += d
	case trace.KCAS, trace.KDirty:
		if e.Class == trace.OBuffer {
			c.CASAttempts += d
		}
	case trace.KCASFail:
		if e.Class == trace.OBuffer {
			c.CASAttempts += d
			c.CASFailures += d
		} else {
			c.ClockCASFailures += d
		}
	case trace.KIOWait:
		c.IOWaits += d
	case trace.KError:
		c.Errors += d
	case trace.KOp:
		c.Ops += d
	case trace.KMapLookup:
		c.MapLookups += d
	case trace.KMapInsert:
		if e.After == trace.NoBuffer {
			c.MapInserts += d
		} else {
			c.MapCollisions += d
		}
	case trace.KMapDelete:
		c.MapDeletes += d
	case trace.KWake:
		c.Wakes += d
	}
}

// owns reports whether e is the pool view's: a class of the pool's
// mechanism, or ONone (the idle events that pad a step's panes).
func owns(e trace.Event) bool { return e.Class.Owner() == trace.MPool || e.Class == trace.ONone }

// Apply applies e: the view then shows the state just after e. Events must
// come in log order; Check tells whether e fits the current state. The
// view applies only the pool's own events (classes trace.MPool owns) and
// the idle padding (ONone): Apply, Unapply and Check ignore every other
// mechanism's events entirely, and so would a class added without an owner
// (the FSM's buffer accesses are the pool's own events, which the view
// interprets as any others).
func (p *Pool) Apply(e trace.Event) {
	if !owns(e) {
		return
	}
	p.gen = versions.Add(1)
	p.mutate(e, false)
	p.counters.count(e, 1)
	p.lane(e.Actor)
	info := emptyInfo
	if t := p.h.ActorTop(e.Actor); t != nil {
		info = t.Data.info
	}
	d := nodeData{info: nextInfo(info, e)}
	d.prevCell, d.prevPart = p.mark(e, d.info.trail)
	p.h.Push(e, d)
}

// Unapply undoes e, which must be the event applied last (it panics
// otherwise, or when TrimHistory dropped it): memory words go back to e's
// Before values and the current event, lanes and counters to what they
// were, so that Unapply(e) after Apply(e) restores the exact state.
func (p *Pool) Unapply(e trace.Event) {
	if !owns(e) {
		return
	}
	n := p.h.Pop(e, "view")
	p.gen = versions.Add(1)
	p.unmark(e, n.Data)
	p.mutate(e, true)
	p.counters.count(e, viewkit.MinusOne)
}

// UnapplyLast undoes the event applied last and returns it; ok is false when
// there is no history left.
func (p *Pool) UnapplyLast() (e trace.Event, ok bool) { return viewkit.UnapplyLast(p, &p.h) }

func (p *Pool) buf(e trace.Event) int {
	if int64(e.Obj) >= int64(p.n) {
		panic(fmt.Sprintf("view: event %v names buffer %d; the pool has %d buffers", e, int32(e.Obj), p.n))
	}
	return int(e.Obj)
}

func (p *Pool) part(e trace.Event) int {
	if e.Obj >= NumPartitions {
		panic(fmt.Sprintf("view: event %v names partition %d; there are %d", e, e.Obj, NumPartitions))
	}
	return int(e.Obj)
}

// mutate changes the memory words e wrote: to After, or back to Before.
func (p *Pool) mutate(e trace.Event, undo bool) {
	v := viewkit.Written(e, undo)
	switch e.Kind {
	case trace.KCAS, trace.KLockHdr, trace.KUnlockHdr, trace.KDirty:
		if e.Class == trace.OBuffer {
			p.setState(p.buf(e), uint32(v))
		}
	case trace.KRetag:
		p.setTag(p.buf(e), v)
	case trace.KFreelistPop:
		// firstFree = buf->freeNext; buf->freeNext = FREENEXT_NOT_IN_LIST:
		// the popped buffer's old link is the new head, After.
		i := p.buf(e)
		p.firstFree = int32(int64(v))
		if undo {
			p.setFreeNext(i, int32(int64(e.After)))
		} else {
			p.setFreeNext(i, bufmgr.FreeNextNotInList)
		}
	case trace.KFreelistPush:
		// StrategyFreeBuffer: buf->freeNext = firstFree; firstFree = buf.
		// A push of a buffer already on the list changes nothing, and is
		// recognised by After (the new head) not being the buffer.
		i := p.buf(e)
		if int64(e.After) != int64(i) {
			return
		}
		p.firstFree = int32(int64(v))
		if undo {
			p.setFreeNext(i, bufmgr.FreeNextNotInList)
		} else {
			p.setFreeNext(i, int32(int64(e.Before)))
		}
	case trace.KClockTick:
		// fetch_add: Before is the counter before, so it is Before+1 after.
		if undo {
			p.counter = uint32(e.Before)
		} else {
			p.counter = uint32(e.Before) + 1
		}
	case trace.KClockWrap:
		p.counter = uint32(v)
		if undo {
			p.passes = uint32(e.Arg) - 1
		} else {
			p.passes = uint32(e.Arg)
		}
	case trace.KLoad:
		if e.Class == trace.OStrategy {
			p.allocs = uint32(v) // fetch_add of numBufferAllocs
		}
	case trace.KLWAcquire, trace.KLWRelease:
		switch e.Class {
		case trace.OPartition:
			g, j := p.wgroup(p.part(e))
			g.holders[j] = v
		case trace.OContent:
			p.setContent(p.buf(e), v)
		}
	case trace.KSpinAcquire, trace.KSpinRelease:
		p.strategyHolder = trace.Actor(v)
	case trace.KMapInsert:
		if e.After != trace.NoBuffer {
			return // the tag was already there: nothing inserted
		}
		m := p.wpart(p.part(e))
		if undo {
			m.del(p.tok, e.Arg)
		} else {
			m.put(p.tok, e.Arg, int32(int64(e.Before)))
		}
	case trace.KMapDelete:
		m := p.wpart(p.part(e))
		if undo {
			m.put(p.tok, e.Arg, int32(int64(e.Before)))
		} else {
			m.del(p.tok, e.Arg)
		}
	case trace.KPrivRef:
		i := p.buf(e)
		p.lane(e.Actor)
		m := p.wpins(e.Actor)
		if v == 0 {
			m.del(p.tok, uint64(i))
		} else {
			m.put(p.tok, uint64(i), int32(v))
		}
	}
}

// ApplyChecked is Check then Apply; it applies nothing when Check fails.
func (p *Pool) ApplyChecked(e trace.Event) error { return viewkit.ApplyChecked(p, e) }

// Check verifies that e fits the current view before it is applied: the
// word it read or replaced holds the value the event says (a state word's
// Before, the value a load or a failed CAS found, a lock's holders, a
// mapping entry, a private count, the clock counter, the freelist head).
// A log applied in order from the initial pool passes every check; a
// failure means events are missing, reordered or from another pool.
func (p *Pool) Check(e trace.Event) error {
	if !owns(e) {
		return nil
	}
	bad := func(what string, have, want uint64) error {
		return fmt.Errorf("view: event %v: %s is %#x in the view, the event says %#x", e, what, have, want)
	}
	bufOK := func() error {
		if e.Obj >= uint32(p.n) {
			return fmt.Errorf("view: event %v names buffer %d; the pool has %d buffers", e, int32(e.Obj), p.n)
		}
		return nil
	}
	partOK := func() error {
		if e.Obj >= NumPartitions {
			return fmt.Errorf("view: event %v names partition %d", e, e.Obj)
		}
		return nil
	}
	// buffer checks that e names a buffer and that its word read holds
	// want.
	buffer := func(word string, read func(int) uint64, want uint64) error {
		if err := bufOK(); err != nil {
			return err
		}
		if have := read(int(e.Obj)); have != want {
			return bad(fmt.Sprintf("buffer %d's %s", e.Obj, word), have, want)
		}
		return nil
	}
	state := func(want uint64) error {
		return buffer("state", func(i int) uint64 { return uint64(p.State(i)) }, want)
	}
	switch e.Kind {
	case trace.KCAS, trace.KLockHdr, trace.KUnlockHdr, trace.KDirty, trace.KUsageDown:
		if e.Class == trace.OBuffer {
			return state(e.Before)
		}
	case trace.KLoad:
		switch e.Class {
		case trace.OBuffer:
			return state(e.After)
		case trace.OStrategy:
			if uint64(p.allocs) != e.Before {
				return bad("numBufferAllocs", uint64(p.allocs), e.Before)
			}
			if e.After != uint64(uint32(e.Before)+1) {
				return fmt.Errorf("view: event %v: a fetch_add of numBufferAllocs from %d gives %d", e, e.Before, uint32(e.Before)+1)
			}
		}
	case trace.KCASFail:
		if e.Class == trace.OBuffer {
			return state(e.After)
		}
		if e.Class == trace.OStrategy && uint64(p.counter) != e.After {
			return bad("nextVictimBuffer", uint64(p.counter), e.After)
		}
	case trace.KSpin:
		if e.Class == trace.OBuffer {
			return state(e.Before)
		}
		if e.Class == trace.OStrategy && uint64(p.strategyHolder) != e.Before {
			return bad("buffer_strategy_lock's holder", uint64(p.strategyHolder), e.Before)
		}
	case trace.KVictim, trace.KSkipPinned:
		return state(e.After)
	case trace.KRingReject:
		if e.Obj != NoObj {
			return state(e.After)
		}
	case trace.KIOWait:
		return state(e.After &^ uint64(bufmgr.BmLocked))
	case trace.KRetag:
		return buffer("tag", p.Tag, e.Before)
	case trace.KFreelistPop:
		if err := bufOK(); err != nil {
			return err
		}
		if int64(p.firstFree) != int64(e.Before) || int64(e.Before) != int64(e.Obj) {
			return bad("firstFreeBuffer", uint64(int64(p.firstFree)), e.Before)
		}
		if f := p.FreeNext(int(e.Obj)); int64(f) != int64(e.After) {
			return bad(fmt.Sprintf("buffer %d's freeNext", e.Obj), uint64(int64(f)), e.After)
		}
	case trace.KFreelistPush:
		if err := bufOK(); err != nil {
			return err
		}
		if int64(p.firstFree) != int64(e.Before) {
			return bad("firstFreeBuffer", uint64(int64(p.firstFree)), e.Before)
		}
		if int64(e.After) == int64(e.Obj) && p.FreeNext(int(e.Obj)) != bufmgr.FreeNextNotInList {
			return fmt.Errorf("view: event %v pushes buffer %d, which is already on the freelist", e, e.Obj)
		}
	case trace.KClockTick:
		if uint64(p.counter) != e.Before {
			return bad("nextVictimBuffer", uint64(p.counter), e.Before)
		}
		if e.After != e.Before%uint64(p.n) {
			return fmt.Errorf("view: event %v: victim %d is not %d %% NBuffers (%d)", e, e.After, e.Before, p.n)
		}
	case trace.KClockWrap:
		if uint64(p.counter) != e.Before {
			return bad("nextVictimBuffer", uint64(p.counter), e.Before)
		}
		if uint64(p.passes)+1 != e.Arg {
			return bad("completePasses+1", uint64(p.passes)+1, e.Arg)
		}
	case trace.KLWAcquire, trace.KLWRelease, trace.KLWWait, trace.KLWCondFail:
		switch e.Class {
		case trace.OPartition:
			if err := partOK(); err != nil {
				return err
			}
			if h := p.PartitionHolders(int(e.Obj)); h != e.Before {
				return bad(fmt.Sprintf("partition %d's lock holders", e.Obj), h, e.Before)
			}
		case trace.OContent:
			return buffer("content lock holders", p.ContentHolders, e.Before)
		}
	case trace.KSpinAcquire, trace.KSpinRelease:
		if uint64(p.strategyHolder) != e.Before {
			return bad("buffer_strategy_lock's holder", uint64(p.strategyHolder), e.Before)
		}
	case trace.KMapLookup, trace.KMapInsert, trace.KMapDelete:
		if err := partOK(); err != nil {
			return err
		}
		if want := PartitionOf(e.Arg); want != int(e.Obj) {
			return fmt.Errorf("view: event %v: tag %s hashes to partition %d", e, p.TagString(e.Arg), want)
		}
		id, ok := p.Lookup(e.Arg)
		have := trace.NoBuffer
		if ok {
			have = uint64(int64(id))
		}
		want := e.After // lookup: the id found; insert: NoBuffer or the id already there
		if e.Kind == trace.KMapDelete {
			want = e.Before
		}
		if have != want {
			return bad(fmt.Sprintf("the entry for %s", p.TagString(e.Arg)), have, want)
		}
	case trace.KPrivRef:
		if err := bufOK(); err != nil {
			return err
		}
		if c := p.PinCount(e.Actor, int(e.Obj)); uint64(c) != e.Before {
			return bad(fmt.Sprintf("%s's private count on buffer %d", trace.ActorName(e.Actor), e.Obj), uint64(c), e.Before)
		}
	}
	return nil
}

// Change says what one event touched, for the scene to highlight.
type Change struct {
	Lane      trace.Actor // the backend that acted
	Buffer    int         // the descriptor involved, -1 if none
	Partition int         // the mapping partition involved, -1 if none
	// Shared reports that the event wrote shared memory (a state word, a
	// tag, a lock, the freelist, the clock, the mapping table); false for
	// reads, failed attempts and waits.
	Shared       bool
	State        bool // Buffer's state word changed
	Tag          bool // Buffer's tag changed
	Content      bool // Buffer's content lock (acquired, released, or tried)
	Mapping      bool // Partition's entries changed
	PartLock     bool // Partition's lock (acquired, released, or waited for)
	Freelist     bool // the freelist
	Clock        bool // nextVictimBuffer or completePasses
	StrategyLock bool // buffer_strategy_lock (taken, released, or spun on)
	Allocs       bool // numBufferAllocs
	Pins         bool // the lane's private pin counts
	Op           bool // the lane's operation (KOp, KOpDone, KError)
	Wait         bool // the lane is waiting (KLWWait, KSpin, KIOWait)
}

// EffectOf says what e touched (it needs no state: the event says it all).
func EffectOf(e trace.Event) Change {
	c := Change{Lane: e.Actor, Buffer: -1, Partition: -1}
	if (e.Class == trace.OBuffer || e.Class == trace.OContent) && e.Obj != NoObj {
		c.Buffer = int(e.Obj)
	}
	if e.Class == trace.OPartition {
		c.Partition = int(e.Obj)
	}
	switch e.Kind {
	case trace.KCAS, trace.KLockHdr, trace.KUnlockHdr, trace.KDirty:
		c.Shared, c.State = e.Class == trace.OBuffer, e.Class == trace.OBuffer
	case trace.KRetag:
		c.Shared, c.Tag = true, true
	case trace.KFreelistPop, trace.KFreelistPush:
		c.Shared, c.Freelist = true, true
	case trace.KClockTick:
		c.Shared, c.Clock, c.Buffer = true, true, int(e.After)
	case trace.KClockWrap:
		c.Shared, c.Clock = true, true
	case trace.KLoad:
		if e.Class == trace.OStrategy {
			c.Shared, c.Allocs = true, true
		}
	case trace.KLWAcquire, trace.KLWRelease:
		c.Shared = true
		c.Content = e.Class == trace.OContent
		c.PartLock = e.Class == trace.OPartition
	case trace.KLWWait, trace.KLWCondFail:
		c.Content = e.Class == trace.OContent
		c.PartLock = e.Class == trace.OPartition
	case trace.KSpinAcquire, trace.KSpinRelease:
		c.Shared, c.StrategyLock = true, true
	case trace.KMapInsert:
		c.Shared = e.After == trace.NoBuffer
		c.Mapping = c.Shared
		c.Buffer = int(int64(e.Before))
		if !c.Shared {
			c.Buffer = int(int64(e.After))
		}
	case trace.KMapDelete:
		c.Shared, c.Mapping, c.Buffer = true, true, int(int64(e.Before))
	case trace.KMapLookup:
		if e.After != trace.NoBuffer {
			c.Buffer = int(int64(e.After))
		}
	case trace.KPrivRef:
		c.Pins = true
	case trace.KOp, trace.KOpDone, trace.KError:
		c.Op = true
	}
	switch e.Kind {
	case trace.KLWWait, trace.KIOWait:
		c.Wait = true
	case trace.KSpin:
		c.Wait = true
		c.StrategyLock = e.Class == trace.OStrategy
	}
	return c
}
