package bufmgr_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
)

// This file holds the differential tests of the mapping table and of the
// replacement policy for a single backend with no scheduler:
//
//   - TestMappingTableAgainstGoMap keeps a plain Go map tag → buffer from
//     what ReadBuffer reports (and, with a log, a second one from the
//     map-insert/map-delete events) and compares the engine's mapping table
//     (MappingEntries, Lookup, PartitionLen) and descriptors with it after
//     every operation.
//   - TestReplacementPolicyAgainstReferenceModel runs an independent model of
//     PostgreSQL 15's freelist + clock sweep + usage counts + BULKREAD ring
//     (refModel below) next to the engine and requires the same victim, the
//     same hit/miss and error, and the same whole-pool state after each of
//     20 000 random operations.

// relsForPool returns relations sized around a pool of n buffers: small ones,
// one of exactly NBuffers/4 blocks (no ring), one just above (ring), and
// ones larger than the pool; one is unlogged and has an init fork.
func relsForPool(n int) []*bufmgr.Relation {
	mk := func(i int, main uint32, perm bool) *bufmgr.Relation {
		r := &bufmgr.Relation{Name: fmt.Sprintf("r%d", i), Number: uint32(bufmgr.FirstNormalObjectId + i), Permanent: perm}
		r.NBlocks[bufmgr.MainForkNum] = main
		return r
	}
	rels := []*bufmgr.Relation{
		mk(0, 3, true),
		mk(1, 1, true),
		mk(2, uint32(n/4), true),
		mk(3, uint32(n/4+1), true),
		mk(4, uint32(n+5), true),
		mk(5, uint32(3*n), false),
	}
	rels[0].NBlocks[bufmgr.FSMForkNum] = 3
	rels[0].NBlocks[bufmgr.VMForkNum] = 1
	rels[5].NBlocks[bufmgr.InitForkNum] = 1
	return rels
}

// randomBlock chooses a fork and block of rel (a non-main fork now and then),
// and with probability eofPct/1000 a block just past the end.
func randomBlock(rng *rand.Rand, rel *bufmgr.Relation, eofPermille int) (bufmgr.ForkNumber, uint32) {
	f := bufmgr.MainForkNum
	if rng.IntN(8) == 0 {
		var forks []bufmgr.ForkNumber
		for g := bufmgr.FSMForkNum; g <= bufmgr.MaxForkNum; g++ {
			if rel.NBlocks[g] > 0 {
				forks = append(forks, g)
			}
		}
		if len(forks) > 0 {
			f = forks[rng.IntN(len(forks))]
		}
	}
	if rng.IntN(1000) < eofPermille {
		return f, rel.NBlocks[f] + uint32(rng.IntN(2))
	}
	// Skew towards the first blocks so that hits are common.
	nb := int(rel.NBlocks[f])
	if rng.IntN(2) == 0 {
		nb = min(nb, 4)
	}
	return f, uint32(rng.IntN(nb))
}

func errCodeOf(err error) bufmgr.ErrCode {
	if err == nil {
		return 0
	}
	var pe *bufmgr.PGError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return 255
}

// ---------------------------------------------------------------------------
// Mapping table against a Go map.

func TestMappingTableAgainstGoMap(t *testing.T) {
	for _, n := range []int{16, 64} {
		for _, logged := range []bool{false, true} {
			t.Run(fmt.Sprintf("nbuffers=%d/log=%v", n, logged), func(t *testing.T) {
				testMappingTable(t, n, logged, uint64(n)*7+map[bool]uint64{false: 0, true: 1}[logged])
			})
		}
	}
}

func testMappingTable(t *testing.T, n int, logged bool, seed uint64) {
	var log *trace.Log
	evModel := map[bufmgr.BufferTag]int{} // built only from map events
	var evErr error
	if logged {
		log = trace.NewLog()
		log.OnAppend = func(e trace.Event) {
			if evErr != nil {
				return
			}
			switch e.Kind {
			case trace.KMapInsert:
				tag := bufmgr.UnpackTag(e.Arg)
				if e.After == trace.NoBuffer {
					if _, dup := evModel[tag]; dup {
						evErr = fmt.Errorf("event %v inserts %v, already mapped", e, tag)
					}
					evModel[tag] = int(int64(e.Before))
				} else if old, ok := evModel[tag]; !ok || old != int(int64(e.After)) {
					evErr = fmt.Errorf("event %v reports a collision with buffer %d, map model has %d (%v)", e, int64(e.After), old, ok)
				}
			case trace.KMapDelete:
				tag := bufmgr.UnpackTag(e.Arg)
				if old, ok := evModel[tag]; !ok || old != int(int64(e.Before)) {
					evErr = fmt.Errorf("event %v deletes %v→%d, map model has %d (%v)", e, tag, int64(e.Before), old, ok)
				}
				delete(evModel, tag)
			case trace.KMapLookup:
				tag := bufmgr.UnpackTag(e.Arg)
				id, ok := evModel[tag]
				got := int64(e.After)
				if ok && got != int64(id) || !ok && got != -1 {
					evErr = fmt.Errorf("event %v: lookup of %v found %d, map model has %d (%v)", e, tag, got, id, ok)
				}
			}
		}
	}
	p := testPool(t, n, log, bufmgr.Options{})
	be := testBackend(t, p, "A")
	rels := relsForPool(n)
	rng := rand.New(rand.NewPCG(seed, 0xfeed))
	ring := p.GetAccessStrategy(bufmgr.BASBulkRead)

	model := map[bufmgr.BufferTag]int{} // tag → buffer id, from ReadBuffer results
	rev := map[int]bufmgr.BufferTag{}   // buffer id → tag
	var held []bufmgr.Buffer            // pins this backend holds, with repeats
	var evicted []bufmgr.BufferTag      // tags known to be gone

	read := func(op int, rel *bufmgr.Relation, f bufmgr.ForkNumber, blk uint32, s *bufmgr.Strategy) (bufmgr.Buffer, bool) {
		buf, hit, err := be.ReadBuffer(rel, f, blk, s)
		tag := rel.Tag(f, blk)
		switch code := errCodeOf(err); {
		case code == bufmgr.ErrReadBeyondEOF:
			if blk < rel.NBlocks[f] {
				t.Fatalf("seed %d op %d: %v beyond EOF but the fork has %d blocks", seed, op, tag, rel.NBlocks[f])
			}
			return 0, false
		case code == bufmgr.ErrNoUnpinnedBuffers:
			if pinned := len(be.Pins()); pinned < n {
				t.Fatalf("seed %d op %d: no unpinned buffers with only %d of %d buffers pinned", seed, op, pinned, n)
			}
			be.AbortTransaction()
			held = held[:0]
			return 0, false
		case err != nil:
			t.Fatalf("seed %d op %d: ReadBuffer(%v): %v", seed, op, tag, err)
		}
		if blk >= rel.NBlocks[f] {
			t.Fatalf("seed %d op %d: read of %v past EOF succeeded", seed, op, tag)
		}
		id := int(buf) - 1
		if hit {
			if got, ok := model[tag]; !ok || got != id {
				t.Fatalf("seed %d op %d: hit on %v in buffer %d, map model says %d (%v)", seed, op, tag, id, got, ok)
			}
		} else {
			if got, ok := model[tag]; ok {
				t.Fatalf("seed %d op %d: miss on %v, but the map model has it in buffer %d", seed, op, tag, got)
			}
			if old, ok := rev[id]; ok {
				delete(model, old)
				evicted = append(evicted, old)
			}
			model[tag] = id
			rev[id] = tag
		}
		return buf, true
	}

	ops := 20000
	if testing.Short() {
		ops = 4000
	}
	for op := 0; op < ops; op++ {
		rel := rels[rng.IntN(len(rels))]
		f, blk := randomBlock(rng, rel, 10)
		switch k := rng.IntN(100); {
		case k < 55:
			if buf, ok := read(op, rel, f, blk, nil); ok {
				if err := be.ReleaseBuffer(buf); err != nil {
					t.Fatal(err)
				}
			}
		case k < 70:
			if buf, ok := read(op, rel, f, blk, ring); ok {
				if err := be.ReleaseBuffer(buf); err != nil {
					t.Fatal(err)
				}
			}
		case k < 82:
			if buf, ok := read(op, rel, f, blk, nil); ok {
				held = append(held, buf)
			}
		case k < 97:
			if len(held) > 0 {
				i := rng.IntN(len(held))
				if err := be.ReleaseBuffer(held[i]); err != nil {
					t.Fatalf("seed %d op %d: %v", seed, op, err)
				}
				held = slices.Delete(held, i, i+1)
			}
		default:
			if len(held) > 0 {
				if err := be.MarkBufferDirty(held[rng.IntN(len(held))]); err != nil {
					t.Fatal(err)
				}
			}
		}
		if evErr != nil {
			t.Fatalf("seed %d op %d: %v", seed, op, evErr)
		}
		compareMapping(t, p, model, evicted, logged, evModel, fmt.Sprintf("seed %d op %d", seed, op))
		if len(evicted) > 64 {
			evicted = evicted[len(evicted)-16:]
		}
	}
	be.AbortTransaction()
	if err := p.CheckQuiescent(); err != nil {
		t.Fatalf("seed %d: after the run: %v", seed, err)
	}
	if got := len(p.MappingEntries()); got != n {
		t.Errorf("seed %d: %d mapping entries after %d operations, want every one of the %d buffers mapped", seed, got, ops, n)
	}
}

func compareMapping(t *testing.T, p *bufmgr.Pool, model map[bufmgr.BufferTag]int, evicted []bufmgr.BufferTag,
	logged bool, evModel map[bufmgr.BufferTag]int, where string) {
	t.Helper()
	// The table, entry by entry.
	var want []bufmgr.MapEntry
	for tag, id := range model {
		want = append(want, bufmgr.MapEntry{Tag: tag, BufID: id, Partition: bufmgr.BufTableHashPartition(bufmgr.BufTableHashCode(tag))})
	}
	sort.Slice(want, func(a, b int) bool { return want[a].BufID < want[b].BufID })
	got := p.MappingEntries()
	if !slices.Equal(got, want) {
		t.Fatalf("%s: mapping table\n  got  %v\n  want %v", where, got, want)
	}
	total := 0
	for i := 0; i < bufmgr.NumBufferPartitions; i++ {
		total += p.PartitionLen(i)
		if l := p.PartitionLock(i); !l.Free() {
			t.Fatalf("%s: partition %d lock held between operations", where, i)
		}
	}
	if total != len(model) {
		t.Fatalf("%s: partitions hold %d entries, model %d", where, total, len(model))
	}
	for tag, id := range model {
		if got, ok := p.Lookup(tag); !ok || got != id {
			t.Fatalf("%s: Lookup(%v) = %d, %v; want %d", where, tag, got, ok, id)
		}
	}
	for _, tag := range evicted {
		if _, in := model[tag]; in {
			continue
		}
		if got, ok := p.Lookup(tag); ok {
			t.Fatalf("%s: Lookup(%v) = %d for an evicted tag", where, tag, got)
		}
	}
	// The descriptors say the same thing as the table.
	derived := map[bufmgr.BufferTag]int{}
	for i := 0; i < p.NBuffers; i++ {
		d := p.Desc(i)
		s := d.State()
		if s&bufmgr.BmTagValid == 0 {
			continue
		}
		if prev, dup := derived[d.Tag()]; dup {
			t.Fatalf("%s: buffers %d and %d both hold %v", where, prev, i, d.Tag())
		}
		derived[d.Tag()] = i
		if s&bufmgr.BmValid == 0 || s&(bufmgr.BmLocked|bufmgr.BmIOInProgress) != 0 {
			t.Fatalf("%s: buffer %d between operations: %s", where, i, bufmgr.StateString(s))
		}
	}
	if len(derived) != len(model) {
		t.Fatalf("%s: %d tagged buffers, map model has %d", where, len(derived), len(model))
	}
	for tag, id := range derived {
		if model[tag] != id {
			t.Fatalf("%s: buffer %d holds %v, map model says buffer %d", where, id, tag, model[tag])
		}
	}
	if logged {
		if len(evModel) != len(model) {
			t.Fatalf("%s: map events leave %d entries, model %d", where, len(evModel), len(model))
		}
		for tag, id := range model {
			if evModel[tag] != id {
				t.Fatalf("%s: map events map %v to %d, model %d", where, tag, evModel[tag], id)
			}
		}
	}
}

// ---------------------------------------------------------------------------
// The reference model: PostgreSQL 15's replacement policy for one backend.

type refBuf struct {
	tagged    bool
	tag       bufmgr.BufferTag
	refcount  int
	usage     int
	dirty     bool
	permanent bool
}

type refRing struct {
	slots   []int // buffer ids, -1 for an empty slot
	current int
}

func newRefRing(size int) *refRing {
	r := &refRing{slots: make([]int, size)}
	for i := range r.slots {
		r.slots[i] = -1
	}
	return r
}

type refStats struct {
	hits, misses, writes                           uint64
	freelistVictims, sweepVictims, ringVictims     uint64
	ringRejects, usageDown, skipped, ticks, errors uint64
}

type refModel struct {
	n      int
	bufs   []refBuf
	table  map[bufmgr.BufferTag]int
	free   []int // the freelist, head first
	hand   int   // nextVictimBuffer mod NBuffers
	ticked bool
	passes uint32
	allocs uint32
	pins   map[int]int // the backend's private pin counts
	st     refStats
}

func newRefModel(n int) *refModel {
	m := &refModel{n: n, bufs: make([]refBuf, n), table: map[bufmgr.BufferTag]int{}, pins: map[int]int{}}
	for i := 0; i < n; i++ {
		m.free = append(m.free, i)
	}
	return m
}

// pin: PinBuffer. A buffer this backend already pins only gets its private
// count raised; otherwise refcount+1 and the usage count goes up by one, to
// at most 5 (default strategy) or only from 0 to 1 (a ring).
func (m *refModel) pin(id int, ring *refRing) {
	if m.pins[id] > 0 {
		m.pins[id]++
		return
	}
	b := &m.bufs[id]
	b.refcount++
	if ring == nil {
		if b.usage < 5 {
			b.usage++
		}
	} else if b.usage == 0 {
		b.usage = 1
	}
	m.pins[id] = 1
}

func (m *refModel) unpin(id int) {
	m.pins[id]--
	if m.pins[id] == 0 {
		delete(m.pins, id)
		m.bufs[id].refcount--
	}
}

func (m *refModel) abort() {
	for id := range m.pins {
		m.bufs[id].refcount--
	}
	m.pins = map[int]int{}
}

// tick: the clock hand gives the buffer under it and moves on; each time
// it comes back to buffer 0 a pass is complete.
func (m *refModel) tick() int {
	v := m.hand
	if v == 0 && m.ticked {
		m.passes++
	}
	m.ticked = true
	m.hand = (m.hand + 1) % m.n
	m.st.ticks++
	return v
}

// victim: StrategyGetBuffer. -1 means "no unpinned buffers available".
func (m *refModel) victim(ring *refRing) int {
	if ring != nil {
		ring.current = (ring.current + 1) % len(ring.slots)
		if id := ring.slots[ring.current]; id >= 0 {
			if b := m.bufs[id]; b.refcount == 0 && b.usage <= 1 {
				m.st.ringVictims++
				return id
			}
			m.st.ringRejects++
		}
	}
	m.allocs++
	for len(m.free) > 0 {
		id := m.free[0]
		m.free = m.free[1:]
		if b := m.bufs[id]; b.refcount == 0 && b.usage == 0 {
			if ring != nil {
				ring.slots[ring.current] = id
			}
			m.st.freelistVictims++
			return id
		}
	}
	try := m.n
	for {
		id := m.tick()
		b := &m.bufs[id]
		switch {
		case b.refcount > 0:
			m.st.skipped++
			if try--; try == 0 {
				m.st.errors++
				return -1
			}
		case b.usage > 0:
			b.usage--
			m.st.usageDown++
			try = m.n
		default:
			if ring != nil {
				ring.slots[ring.current] = id
			}
			m.st.sweepVictims++
			return id
		}
	}
}

// read: ReadBuffer → BufferAlloc. It returns the buffer id (or -1), whether
// it was a hit, and the error code.
func (m *refModel) read(rel *bufmgr.Relation, f bufmgr.ForkNumber, blk uint32, ring *refRing) (int, bool, bufmgr.ErrCode) {
	if blk >= rel.NBlocks[f] {
		m.st.errors++
		return -1, false, bufmgr.ErrReadBeyondEOF
	}
	tag := rel.Tag(f, blk)
	if id, ok := m.table[tag]; ok {
		m.pin(id, ring)
		m.st.hits++
		return id, true, 0
	}
	id := m.victim(ring)
	if id < 0 {
		return -1, false, bufmgr.ErrNoUnpinnedBuffers
	}
	b := &m.bufs[id]
	b.refcount++ // PinBuffer_Locked: the usage count is not touched
	m.pins[id] = 1
	if b.dirty {
		m.st.writes++
	}
	if b.tagged {
		delete(m.table, b.tag)
	}
	m.table[tag] = id
	*b = refBuf{tagged: true, tag: tag, refcount: b.refcount, usage: 1, permanent: rel.Permanent || f == bufmgr.InitForkNum}
	m.st.misses++
	return id, false, 0
}

// seqScan: a heap scan, with a fresh BULKREAD ring when the relation has
// more than NBuffers/4 blocks, holding one pin at a time.
func (m *refModel) seqScan(rel *bufmgr.Relation) bufmgr.ErrCode {
	var ring *refRing
	if int(rel.NBlocks[bufmgr.MainForkNum]) > m.n/4 {
		ring = newRefRing(min(32, m.n/8))
	}
	cur := -1
	for blk := uint32(0); blk < rel.NBlocks[bufmgr.MainForkNum]; blk++ {
		if cur >= 0 {
			m.unpin(cur)
			cur = -1
		}
		id, _, code := m.read(rel, bufmgr.MainForkNum, blk, ring)
		if code != 0 {
			return code
		}
		cur = id
	}
	if cur >= 0 {
		m.unpin(cur)
	}
	return 0
}

// compareRef checks the whole pool against the model.
func compareRef(t *testing.T, p *bufmgr.Pool, be *bufmgr.Backend, m *refModel, where string) {
	t.Helper()
	for i := range m.bufs {
		d, b := p.Desc(i), m.bufs[i]
		s := d.State()
		flag := func(f uint32) bool { return s&f != 0 }
		ok := int(bufmgr.StateRefcount(s)) == b.refcount &&
			int(bufmgr.StateUsagecount(s)) == b.usage &&
			flag(bufmgr.BmTagValid) == b.tagged &&
			flag(bufmgr.BmValid) == b.tagged &&
			flag(bufmgr.BmDirty) == b.dirty &&
			flag(bufmgr.BmJustDirtied) == b.dirty &&
			flag(bufmgr.BmPermanent) == (b.tagged && b.permanent) &&
			!flag(bufmgr.BmLocked|bufmgr.BmIOInProgress|bufmgr.BmIOError|bufmgr.BmPinCountWaiter|bufmgr.BmCheckpointNeeded) &&
			(!b.tagged || d.Tag() == b.tag)
		if !ok {
			t.Fatalf("%s: buffer %d is %s tag %v; model: %+v", where, i, bufmgr.StateString(s), d.Tag(), b)
		}
	}
	if p.NextVictimBuffer() != m.hand || p.CompletePasses() != m.passes || p.NumBufferAllocs() != m.allocs {
		t.Fatalf("%s: hand %d passes %d allocs %d; model hand %d passes %d allocs %d", where,
			p.NextVictimBuffer(), p.CompletePasses(), p.NumBufferAllocs(), m.hand, m.passes, m.allocs)
	}
	fl := p.Freelist()
	if len(fl) != len(m.free) {
		t.Fatalf("%s: freelist %v, model %v", where, fl, m.free)
	}
	for i := range fl {
		if int(fl[i]) != m.free[i] {
			t.Fatalf("%s: freelist %v, model %v", where, fl, m.free)
		}
	}
	if got := p.MappingEntries(); len(got) != len(m.table) {
		t.Fatalf("%s: %d mapping entries, model %d", where, len(got), len(m.table))
	}
	for tag, id := range m.table {
		if got, ok := p.Lookup(tag); !ok || got != id {
			t.Fatalf("%s: Lookup(%v) = %d, %v; model %d", where, tag, got, ok, id)
		}
	}
	pins := be.Pins()
	if len(pins) != len(m.pins) {
		t.Fatalf("%s: backend pins %v, model %v", where, pins, m.pins)
	}
	for _, pin := range pins {
		if m.pins[int(pin.Buffer)-1] != pin.Count || be.PrivateRefCount(pin.Buffer) != pin.Count {
			t.Fatalf("%s: backend pins %v, model %v", where, pins, m.pins)
		}
	}
	st := be.Stats
	got := refStats{st.Hits, st.Misses, st.Writes, st.FreelistVictims, st.SweepVictims, st.RingVictims,
		st.RingRejects, st.UsageDecrements, st.SkippedPinned, st.ClockTicks, st.Errors}
	if got != m.st {
		t.Fatalf("%s: stats\n  engine %+v\n  model  %+v", where, got, m.st)
	}
	if st.CASFailures != 0 || st.Spins != 0 || st.PartitionWaits != 0 || st.IOWaits != 0 || st.ContentLockFails != 0 {
		t.Fatalf("%s: a lone backend met contention: %+v", where, st)
	}
}

func TestReplacementPolicyAgainstReferenceModel(t *testing.T) {
	for _, c := range []struct {
		n, ops int
		logged bool
	}{
		{16, 20000, false},
		{64, 20000, false},
		{16, 3000, true},
		{64, 3000, true},
	} {
		t.Run(fmt.Sprintf("nbuffers=%d/log=%v", c.n, c.logged), func(t *testing.T) {
			ops := c.ops
			if testing.Short() {
				ops /= 4
			}
			if raceEnabled && !c.logged {
				// One goroutine: little for the race detector to find.
				// The logged streams are short already (shorter ones
				// produce no ring rejects).
				ops /= 4
			}
			testReference(t, c.n, ops, c.logged, uint64(1000+c.n))
		})
	}
}

func testReference(t *testing.T, n, ops int, logged bool, seed uint64) {
	var log *trace.Log
	if logged {
		log = trace.NewLog()
	}
	p := testPool(t, n, log, bufmgr.Options{})
	be := testBackend(t, p, "A")
	invErr := func() error { return nil } // unlogged: nothing to watch
	if logged {
		invErr = watchInvariants(log, p)
	}
	m := newRefModel(n)
	rels := relsForPool(n)
	rng := rand.New(rand.NewPCG(seed, 0xabc))
	ring, mring := p.GetAccessStrategy(bufmgr.BASBulkRead), newRefRing(min(32, n/8))
	caps := []int{0, 2, n / 4, n / 2, n + 4}
	holdCap := 2
	var errCounts [4]int
	var held []bufmgr.Buffer // with repeats
	kinds := map[string]int{}

	for op := 0; op < ops; op++ {
		if op%max(ops/20, 100) == 0 {
			holdCap = caps[rng.IntN(len(caps))]
		}
		where := fmt.Sprintf("seed %d op %d", seed, op)
		rel := rels[rng.IntN(len(rels))]
		f, blk := randomBlock(rng, rel, 15)
		// readBoth reads in the engine and the model and compares the outcome.
		readBoth := func(s *bufmgr.Strategy, r *refRing) (bufmgr.Buffer, bool) {
			buf, hit, err := be.ReadBuffer(rel, f, blk, s)
			id, mhit, mcode := m.read(rel, f, blk, r)
			code := errCodeOf(err)
			if code != mcode || int(buf)-1 != id || hit != mhit {
				t.Fatalf("%s: ReadBuffer(%v, ring=%v) = buffer %d hit %v err %v; model buffer %d hit %v code %d",
					where, rel.Tag(f, blk), s != nil, int(buf)-1, hit, err, id, mhit, mcode)
			}
			errCounts[code&3]++
			if code == bufmgr.ErrNoUnpinnedBuffers {
				be.AbortTransaction()
				m.abort()
				held = held[:0]
			}
			return buf, err == nil
		}
		release := func(buf bufmgr.Buffer) {
			if err := be.ReleaseBuffer(buf); err != nil {
				t.Fatalf("%s: ReleaseBuffer(%d): %v", where, buf, err)
			}
			m.unpin(int(buf) - 1)
		}
		k := rng.IntN(100)
		if holdCap > n && (k < 45 || k >= 96) {
			// Pressure phase: pin until the pool runs out.
			k = 50
		}
		switch {
		case k < 45:
			kinds["read+release"]++
			if buf, ok := readBoth(nil, nil); ok {
				release(buf)
			}
		case k < 55:
			kinds["read+hold"]++
			if len(m.pins) < holdCap { // distinct buffers pinned
				if buf, ok := readBoth(nil, nil); ok {
					held = append(held, buf)
				}
			}
		case k < 65:
			kinds["release held"]++
			if len(held) > 0 {
				i := rng.IntN(len(held))
				release(held[i])
				held = slices.Delete(held, i, i+1)
			}
		case k < 73:
			kinds["read+dirty+release"]++
			if buf, ok := readBoth(nil, nil); ok {
				if err := be.MarkBufferDirty(buf); err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				m.bufs[int(buf)-1].dirty = true
				release(buf)
			}
		case k < 78:
			kinds["seqscan"]++
			err := be.SeqScan(rel)
			code := m.seqScan(rel)
			if errCodeOf(err) != code {
				t.Fatalf("%s: SeqScan(%s) = %v; model %d", where, rel.Name, err, code)
			}
			if code == bufmgr.ErrNoUnpinnedBuffers {
				be.AbortTransaction()
				m.abort()
				held = held[:0]
			}
		case k < 88:
			kinds["ring read"]++
			if buf, ok := readBoth(ring, mring); ok {
				if len(m.pins) < holdCap && rng.IntN(4) == 0 {
					held = append(held, buf)
				} else {
					release(buf)
				}
			}
		case k < 92:
			kinds["dirty held"]++
			if len(held) > 0 {
				buf := held[rng.IntN(len(held))]
				if err := be.MarkBufferDirty(buf); err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				m.bufs[int(buf)-1].dirty = true
			}
		case k < 96:
			kinds["caller mistakes"]++
			// Releasing or dirtying a buffer this backend does not pin is
			// the caller's mistake: an error, and nothing changes.
			buf := []bufmgr.Buffer{-1, 0, bufmgr.Buffer(n + 1)}[rng.IntN(3)]
			if rng.IntN(2) == 0 {
				// A valid buffer number this backend does not pin, if any.
				start := rng.IntN(n)
				for i := 0; i < n; i++ {
					if id := (start + i) % n; m.pins[id] == 0 {
						buf = bufmgr.Buffer(id + 1)
						break
					}
				}
			}
			if err := be.ReleaseBuffer(buf); errCodeOf(err) != bufmgr.ErrBufferNotPinned {
				t.Fatalf("%s: ReleaseBuffer(%d) of an unpinned buffer: %v", where, buf, err)
			}
			if err := be.MarkBufferDirty(buf); errCodeOf(err) != bufmgr.ErrBufferNotPinned {
				t.Fatalf("%s: MarkBufferDirty(%d) of an unpinned buffer: %v", where, buf, err)
			}
		default:
			kinds["abort"]++
			be.AbortTransaction()
			m.abort()
			held = held[:0]
		}
		if err := invErr(); err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		compareRef(t, p, be, m, where)
		if err := p.CheckQuiescent(); err != nil {
			t.Fatalf("%s: %v", where, err)
		}
	}
	// Every path was taken.
	st := be.Stats
	t.Logf("nbuffers %d: %d ops %v; %+v; errors by code %v", n, ops, kinds, st, errCounts)
	for name, v := range map[string]uint64{"hits": st.Hits, "misses": st.Misses, "writes": st.Writes,
		"freelist victims": st.FreelistVictims, "sweep victims": st.SweepVictims, "ring victims": st.RingVictims,
		"ring rejects": st.RingRejects, "usage decrements": st.UsageDecrements, "skipped pinned": st.SkippedPinned,
		"complete passes": uint64(p.CompletePasses())} {
		if v == 0 {
			t.Errorf("seed %d: the stream never produced %s", seed, name)
		}
	}
	if ops >= 20000 && (errCounts[bufmgr.ErrNoUnpinnedBuffers] == 0 || errCounts[bufmgr.ErrReadBeyondEOF] == 0) {
		t.Errorf("seed %d: errors by code %v: want both no-unpinned-buffers and read-beyond-EOF", seed, errCounts)
	}
}

// ---------------------------------------------------------------------------
// Checkable facts of the reference sheet (section 6), on a 128MB pool.

func TestFactColdScanLeavesRing(t *testing.T) {
	// Fact 14: a cold seq scan of a table > NBuffers/4 (5070 pages) leaves
	// exactly 32 of its buffers, usagecount ≤ 1.
	nb, err := bufmgr.ParseSharedBuffers("128MB")
	if err != nil || nb != 16384 { // fact 1
		t.Fatalf("128MB = %d buffers, %v", nb, err)
	}
	p := testPool(t, nb, nil, bufmgr.Options{})
	be, _ := p.NewBackend("A")
	rel := testRel("big", bufmgr.FirstNormalObjectId, 5070)
	if err := be.SeqScan(rel); err != nil {
		t.Fatal(err)
	}
	resident := 0
	for _, e := range p.MappingEntries() {
		resident++
		s := p.Desc(e.BufID).State()
		if u := bufmgr.StateUsagecount(s); u > 1 {
			t.Errorf("buffer %d (%v) has usage %d after a ring scan", e.BufID, e.Tag, u)
		}
		if s&bufmgr.BmPermanent == 0 || bufmgr.StateRefcount(s) != 0 {
			t.Errorf("buffer %d after the scan: %s", e.BufID, bufmgr.StateString(s))
		}
	}
	if resident != 32 {
		t.Errorf("cold scan of 5070 pages left %d buffers, PostgreSQL leaves 32", resident)
	}
	if st := be.Stats; st.Misses != 5070 || st.FreelistVictims != 32 || st.RingVictims != 5070-32 {
		t.Errorf("scan stats %+v: want 5070 misses, 32 from the freelist, the rest from the ring", st)
	}
	if got := len(p.Freelist()); got != nb-32 {
		t.Errorf("freelist has %d buffers after the scan, want %d", got, nb-32)
	}
	// Each further cold-ring scan takes 32 more buffers from the freelist
	// (its ring starts empty, and an empty slot means a normal allocation,
	// which prefers the freelist), and hits the previous scans' last 32
	// blocks without raising their usage count above 1. Checked on PG 15.18
	// (shared_buffers=128MB, max_parallel_workers_per_gather=0,
	// synchronize_seqscans=off, after VACUUM FREEZE and a restart): 32, 64,
	// then 96 buffers of the table, all usagecount 1, and 32 fewer free
	// buffers after each scan.
	for scan := 2; scan <= 3; scan++ {
		if err := be.SeqScan(rel); err != nil {
			t.Fatal(err)
		}
		if got := len(p.MappingEntries()); got != 32*scan {
			t.Errorf("after %d scans %d buffers are mapped, PostgreSQL shows %d", scan, got, 32*scan)
		}
		if got := len(p.Freelist()); got != nb-32*scan {
			t.Errorf("after %d scans the freelist has %d buffers, want %d", scan, got, nb-32*scan)
		}
		for _, e := range p.MappingEntries() {
			if u := bufmgr.StateUsagecount(p.Desc(e.BufID).State()); u != 1 {
				t.Errorf("after %d scans buffer %d (%v) has usage %d, PostgreSQL shows 1", scan, e.BufID, e.Tag, u)
			}
		}
	}
}

func TestFactUsageCountPerScan(t *testing.T) {
	// Fact 2: scanning a 1-page table gives usagecount 1, after 2 scans 2,
	// after ≥5 scans 5 (fact 3: never more).
	p := testPool(t, 16384, nil, bufmgr.Options{})
	be, _ := p.NewBackend("A")
	rel := testRel("one", bufmgr.FirstNormalObjectId, 1)
	for scan := 1; scan <= 8; scan++ {
		if err := be.SeqScan(rel); err != nil {
			t.Fatal(err)
		}
		id, ok := p.Lookup(rel.Tag(bufmgr.MainForkNum, 0))
		if !ok {
			t.Fatalf("block 0 not mapped after scan %d", scan)
		}
		if got, want := bufmgr.StateUsagecount(p.Desc(id).State()), uint32(min(scan, 5)); got != want {
			t.Errorf("after %d scans usagecount = %d, PostgreSQL shows %d", scan, got, want)
		}
	}
	// Fact 15: a pinned block shows one pinning backend, 0 after release.
	buf := pinBlock(t, be, rel, 0)
	if _, _, err := be.ReadBuffer(rel, bufmgr.MainForkNum, 0, nil); err != nil {
		t.Fatal(err)
	}
	if rc := bufmgr.StateRefcount(p.Desc(int(buf) - 1).State()); rc != 1 || be.PrivateRefCount(buf) != 2 {
		t.Errorf("pinned twice by one backend: shared refcount %d (want 1), private %d (want 2)", rc, be.PrivateRefCount(buf))
	}
	be.AbortTransaction()
	if rc := bufmgr.StateRefcount(p.Desc(int(buf) - 1).State()); rc != 0 || be.PrivateRefCount(buf) != 0 {
		t.Errorf("after abort: refcount %d, private %d", rc, be.PrivateRefCount(buf))
	}
}

// TestPrivateRefCountOverflow pins more buffers than REFCOUNT_ARRAY_ENTRIES
// so that entries spill into the hash and come back, and checks the
// private and shared counts throughout.
func TestPrivateRefCountOverflow(t *testing.T) {
	p := testPool(t, 64, nil, bufmgr.Options{})
	be, _ := p.NewBackend("A")
	rel := testRel("t", bufmgr.FirstNormalObjectId, 40)
	want := map[bufmgr.Buffer]int{}
	rng := rand.New(rand.NewPCG(5, 6))
	maxPinned := 0
	for op := 0; op < 5000; op++ {
		if rng.IntN(5) < 3 || len(want) == 0 {
			buf := pinBlock(t, be, rel, uint32(rng.IntN(40)))
			want[buf]++
		} else {
			keys := make([]bufmgr.Buffer, 0, len(want))
			for b := range want {
				keys = append(keys, b)
			}
			slices.Sort(keys)
			buf := keys[rng.IntN(len(keys))]
			if err := be.ReleaseBuffer(buf); err != nil {
				t.Fatal(err)
			}
			if want[buf]--; want[buf] == 0 {
				delete(want, buf)
			}
		}
		for b := bufmgr.Buffer(1); int(b) <= p.NBuffers; b++ {
			if got := be.PrivateRefCount(b); got != want[b] {
				t.Fatalf("op %d: PrivateRefCount(%d) = %d, want %d", op, b, got, want[b])
			}
			if got := be.HasPrivateRefEntry(b); got != (want[b] > 0) {
				t.Fatalf("op %d: HasPrivateRefEntry(%d) = %v, want %v", op, b, got, want[b] > 0)
			}
			rc := bufmgr.StateRefcount(p.Desc(int(b) - 1).State())
			if (rc == 1) != (want[b] > 0) || rc > 1 {
				t.Fatalf("op %d: buffer %d refcount %d with private count %d", op, b, rc, want[b])
			}
		}
		maxPinned = max(maxPinned, len(want))
		if len(be.Pins()) != len(want) {
			t.Fatalf("op %d: Pins() lists %d buffers, want %d", op, len(be.Pins()), len(want))
		}
		if err := p.CheckInvariants(); err != nil {
			t.Fatalf("op %d: %v", op, err)
		}
	}
	if maxPinned <= 2*bufmgr.RefcountArrayEntries {
		t.Errorf("at most %d buffers pinned at once: PrivateRefCountHash barely exercised", maxPinned)
	}
}
