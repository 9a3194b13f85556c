package bufmgr

import (
	"fmt"
	"sort"
	"strings"

	"bufferlab/engine/trace"
)

// SetLogForTest replaces the pool's event log (nil turns tracing off) and
// that of every attached backend, which keeps its own copy. The benchmarks
// use it to fill a pool silently, then trace, starting a fresh log now and
// then so that memory stays bounded.
func SetLogForTest(p *Pool, l *trace.Log) {
	p.log = l
	for _, b := range p.backends {
		b.log = l
	}
}

// HooksForTest is false when the hooks are compiled out (bufferlab_nohooks).
const HooksForTest = hooks

// HookedForTest reports whether b takes the modelled path (it has a log or
// a scheduler) rather than the fast path.
func HookedForTest(b *Backend) bool { return b.hooked() }

// SetPinCountWaiterForTest sets BM_PIN_COUNT_WAITER on buffer id with
// waiter as wait_backend_pgprocno, as LockBufferForCleanup does (the engine
// does not model it yet), so that UnpinBuffer's wake-up runs.
func SetPinCountWaiterForTest(p *Pool, id int, waiter trace.Actor) {
	d := &p.descs[id]
	d.waitBackend = waiter
	d.state.Or(BmPinCountWaiter)
}

// LockHeaderForTest sets BM_LOCKED on buffer id, as if another backend
// held its header lock.
func LockHeaderForTest(p *Pool, id int) { p.descs[id].state.Or(BmLocked) }

// LockPartitionForTest takes tag's mapping partition lock exclusively for
// backend a, as if a were in the middle of BufferAlloc.
func LockPartitionForTest(p *Pool, tag BufferTag, a trace.Actor) {
	p.parts[BufTableHashPartition(BufTableHashCode(tag))].lock.TryAcquire(a, LWExclusive)
}

// StateForTest prints everything the pool and its backends hold: every
// descriptor (state word, tag, freelist link, waiter), the mapping table,
// the partition, content and strategy locks, BufferStrategyControl, and
// each backend's private reference counts (array, hash, clock, reserved
// slot, overflow count) and statistics. Two runs that end in the same
// state print the same text.
func StateForTest(p *Pool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "strategy: next victim %d, passes %d, allocs %d, free %d..%d, lock %+v\n",
		p.nextVictimBuffer.Load(), p.completePasses, p.numBufferAllocs.Load(), p.firstFreeBuffer, p.lastFreeBuffer, p.strategyLock)
	for i := range p.descs {
		d := &p.descs[i]
		fmt.Fprintf(&b, "buf %d: %#08x %v next %d waiter %d\n", d.bufID, d.state.Load(), d.tag, d.freeNext, d.waitBackend)
	}
	for _, e := range p.MappingEntries() {
		fmt.Fprintf(&b, "map %v -> %d (partition %d)\n", e.Tag, e.BufID, e.Partition)
	}
	for i := range p.parts {
		if l := p.parts[i].lock; !l.Free() {
			fmt.Fprintf(&b, "partition %d lock %+v\n", i, l)
		}
	}
	ids := make([]int, 0, len(p.content))
	for id := range p.content {
		ids = append(ids, int(id))
	}
	sort.Ints(ids)
	for _, id := range ids {
		fmt.Fprintf(&b, "content lock %d: %+v\n", id, *p.content[int32(id)])
	}
	for _, be := range p.backends {
		hash := make([]Pin, 0, len(be.refHash))
		for buf, c := range be.refHash {
			hash = append(hash, Pin{buf, int(c)})
		}
		sort.Slice(hash, func(i, j int) bool { return hash[i].Buffer < hash[j].Buffer })
		fmt.Fprintf(&b, "backend %s: array %v hash %v clock %d reserved %d overflowed %d\n  stats %+v\n",
			be.Name, be.refArray, hash, be.refClock, be.reserved, be.refOverflowed, be.Stats)
	}
	return b.String()
}

// RingForTest prints a strategy ring: its slots, the current slot, and
// whether the current buffer came from the ring.
func RingForTest(s *Strategy) string {
	if s == nil {
		return "no ring"
	}
	return fmt.Sprintf("ring %v current %d was-in-ring %v", s.buffers, s.current, s.currentWasInRing)
}
