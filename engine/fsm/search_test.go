package fsm

import (
	"errors"
	"testing"

	"pgregory.net/rapid"

	"bufferlab/engine/bufmgr"
)

// genCats draws a heap of up to three leaf pages' worth of blocks, most
// recorded as full, a few with space.
func genCats(t *rapid.T) (uint32, map[uint32]uint8) {
	nb := uint32(rapid.OneOf(rapid.IntRange(1, 50), rapid.IntRange(1, 3*SlotsPerFSMPage+100)).Draw(t, "nblocks"))
	cats := map[uint32]uint8{}
	for i := rapid.IntRange(0, 30).Draw(t, "nfree"); i > 0; i-- {
		blk := uint32(rapid.IntRange(0, int(nb)-1).Draw(t, "blk"))
		cats[blk] = uint8(rapid.IntRange(0, 255).Draw(t, "cat"))
	}
	return nb, cats
}

// builtMap is a new heap of e whose map BuildFSM wrote for nb blocks
// recorded as cats (full where cats has none).
func builtMap(rt *rapid.T, e *env, nb uint32, cats map[uint32]uint8) *Heap {
	h := e.heap(100, 0)
	if err := h.BuildFSM(nb, func(b uint32) uint8 { return cats[b] }); err != nil {
		rt.Fatal(err)
	}
	return h
}

// GetPageWithFreeSpace against a linear scan of the leaf level: on a map
// whose upper levels are up to date and whose fp_next_slots are 0 (as
// VACUUM leaves it), the tree search returns the first heap block with
// enough recorded space, reading 3 FSM pages where the scan reads every
// leaf page up to it.
func TestTreeSearchMatchesLinearScan(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		nb, cats := genCats(rt)
		e := newEnv(t, Options{}, 64)
		h := builtMap(rt, e, nb, cats)
		need := rapid.IntRange(0, MaxFSMRequestSize).Draw(rt, "need")
		want, err := e.s.LinearSearch(h, need)
		e.ok(err)
		before := e.s.Stats
		got, err := e.s.GetPageWithFreeSpace(h, need)
		e.ok(err)
		if got != want {
			rt.Fatalf("%d blocks, need %d: tree search %d, linear scan %d", nb, need, got, want)
		}
		if d := e.s.Stats.Sub(before); got != InvalidBlockNumber && (d.Reads[bufmgr.FSMForkNum] != 3 || d.Restarts != 0) {
			rt.Fatalf("a hit read %d FSM pages with %d restarts, want 3 and 0", d.Reads[bufmgr.FSMForkNum], d.Restarts)
		}
	})
}

// The same map built through the engine (RecordPageWithFreeSpace on the
// leaves, then FreeSpaceMapVacuum) is the map BuildFSM writes.
func TestRecordAndVacuumBuildTheSameMap(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		nb, cats := genCats(rt)
		e := newEnv(t, Options{}, 64)
		a := e.heap(100, nb)
		for blk, c := range cats {
			e.ok(e.s.RecordPageWithFreeSpace(a, blk, CatToAvail(c)))
		}
		e.ok(e.s.FreeSpaceMapVacuum(a))
		b := builtMap(rt, e, nb, cats)
		if len(cats) == 0 {
			return // RecordPageWithFreeSpace never ran: no fork at all
		}
		// The recorded fork reaches the highest recorded block's leaf;
		// BuildFSM's the last block's. Compare the pages both have.
		for phys := uint32(0); phys < min(a.FSMBlocks(), b.FSMBlocks()); phys++ {
			pa, _ := a.FSMPage(phys)
			pb, _ := b.FSMPage(phys)
			if pa.Nodes() != pb.Nodes() || pa.NextSlot() != 0 || !pa.Consistent() {
				rt.Fatalf("FSM page %d differs (next slot %d)", phys, pa.NextSlot())
			}
		}
	})
}

// With stale upper levels (leaves changed after the last
// FreeSpaceMapVacuum), the search still returns only blocks that the
// leaves say have room, fixes the parents it finds stale, and returns
// InvalidBlockNumber when no leaf qualifies.
func TestTreeSearchWithStaleParents(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		nb, cats := genCats(rt)
		e := newEnv(t, Options{}, 64)
		h := builtMap(rt, e, nb, cats)
		for i := rapid.IntRange(0, 20).Draw(rt, "nchanges"); i > 0; i-- {
			blk := uint32(rapid.IntRange(0, int(nb)-1).Draw(rt, "blk"))
			e.ok(e.s.RecordPageWithFreeSpace(h, blk, rapid.IntRange(0, BLCKSZ).Draw(rt, "avail")))
		}
		for i := rapid.IntRange(1, 5).Draw(rt, "nsearch"); i > 0; i-- {
			need := rapid.IntRange(0, MaxFSMRequestSize).Draw(rt, "need")
			cat, _ := SpaceNeededToCat(need)
			linear, err := e.s.LinearSearch(h, need)
			e.ok(err)
			got, err := e.s.GetPageWithFreeSpace(h, need)
			e.ok(err)
			if got != InvalidBlockNumber && (got >= nb || h.RecordedCat(got) < cat) {
				rt.Fatalf("need %d: got block %d recorded as %d", need, got, h.RecordedCat(got))
			}
			if linear == InvalidBlockNumber && got != InvalidBlockNumber {
				rt.Fatalf("need %d: got %d where no leaf qualifies", need, got)
			}
		}
		for phys := uint32(0); phys < h.FSMBlocks(); phys++ {
			if p, _ := h.FSMPage(phys); !p.Consistent() {
				rt.Fatalf("FSM page %d is inconsistent", phys)
			}
		}
	})
}

// An upper slot that promises space the leaf page no longer has is fixed
// by the search (the stale-parent fix): once at each level, then the
// root's answer is final.
func TestStaleParentFix(t *testing.T) {
	e := newEnv(t, Options{}, 64)
	h := e.heap(100, 10)
	e.ok(e.s.RecordPageWithFreeSpace(h, 3, 5000))
	e.ok(e.s.FreeSpaceMapVacuum(h))
	e.ok(e.s.RecordPageWithFreeSpace(h, 3, 100)) // the leaf page only
	root, _ := h.FSMPage(0)
	if root.MaxAvail() != SpaceAvailToCat(5000) {
		t.Fatalf("root %d, want the stale %d", root.MaxAvail(), SpaceAvailToCat(5000))
	}
	before := e.s.Stats
	blk, err := e.s.GetPageWithFreeSpace(h, 1000)
	e.ok(err)
	d := e.s.Stats.Sub(before)
	if blk != InvalidBlockNumber || d.StaleParents != 2 || d.Restarts != 2 {
		t.Fatalf("block %d, %d stale parents, %d restarts; want none, 2, 2", blk, d.StaleParents, d.Restarts)
	}
	for phys := uint32(0); phys < 2; phys++ {
		if p, _ := h.FSMPage(phys); p.GetAvail(0) != SpaceAvailToCat(100) {
			t.Errorf("FSM page %d slot 0 = %d after the fix, want %d", phys, p.GetAvail(0), SpaceAvailToCat(100))
		}
	}
	// Now a search costs the root page only.
	before = e.s.Stats
	blk, err = e.s.GetPageWithFreeSpace(h, 1000)
	e.ok(err)
	if d := e.s.Stats.Sub(before); blk != InvalidBlockNumber || d.Reads[bufmgr.FSMForkNum] != 1 {
		t.Fatalf("second search: block %d, %d FSM pages read", blk, d.Reads[bufmgr.FSMForkNum])
	}
}

// A slot for a block past the heap's end is zeroed and the search
// restarts (fsm_does_block_exist); RecordAndGetPageWithFreeSpace does
// not return such a block from the same page either.
func TestBlocksPastTheEnd(t *testing.T) {
	e := newEnv(t, Options{}, 64)
	h := e.heap(100, 4)
	e.ok(e.s.RecordPageWithFreeSpace(h, 9, 6000))
	e.ok(e.s.RecordPageWithFreeSpace(h, 2, 3000))
	e.ok(e.s.FreeSpaceMapVacuum(h))
	blk, err := e.s.GetPageWithFreeSpace(h, 5000)
	e.ok(err)
	if blk != InvalidBlockNumber || h.RecordedCat(9) != 0 {
		t.Fatalf("block %d, slot 9 = %d; want none and 0", blk, h.RecordedCat(9))
	}
	e.ok(e.s.RecordPageWithFreeSpace(h, 9, 6000))
	blk, err = e.s.RecordAndGetPageWithFreeSpace(h, 0, 0, 2000)
	e.ok(err)
	if blk != 2 {
		t.Fatalf("RecordAndGet returned %d, want 2 (9 is past the end)", blk)
	}
	blk, err = e.s.GetPageWithFreeSpace(h, 2000)
	e.ok(err)
	if blk != 2 {
		t.Fatalf("search returned %d, want 2", blk)
	}
}

// RecordPageWithFreeSpace creates the fork lazily and zero-extends it
// to the leaf page it writes; a search never extends.
func TestForkCreatedAndExtendedLazily(t *testing.T) {
	e := newEnv(t, Options{}, 64)
	h := e.heap(100, 9000)
	blk, err := e.s.GetPageWithFreeSpace(h, 100)
	e.ok(err)
	if blk != InvalidBlockNumber || h.FSMExists() || e.s.Stats.FSMSkipped != 1 {
		t.Fatalf("search on no fork: %d, exists %v, skipped %d", blk, h.FSMExists(), e.s.Stats.FSMSkipped)
	}
	e.ok(e.s.RecordPageWithFreeSpace(h, 0, 100))
	if h.FSMBlocks() != 3 {
		t.Fatalf("after recording block 0: %d FSM blocks, want 3", h.FSMBlocks())
	}
	e.ok(e.s.RecordPageWithFreeSpace(h, 8500, 100)) // leaf page 2: physical 4
	if h.FSMBlocks() != 5 {
		t.Fatalf("after recording block 8500: %d FSM blocks, want 5", h.FSMBlocks())
	}
	// Heap block 4069² is on leaf page 4069, below level-1 page 1: physical 4072.
	e.ok(e.s.RecordPageWithFreeSpace(h, SlotsPerFSMPage*SlotsPerFSMPage, 100))
	if h.FSMBlocks() != 4073 || e.s.Stats.Extends[bufmgr.FSMForkNum] != 4073 {
		t.Fatalf("after recording block 4069²: %d FSM blocks (%d extended), want 4073", h.FSMBlocks(), e.s.Stats.Extends[bufmgr.FSMForkNum])
	}
	if e.s.Stats.Reads[bufmgr.FSMForkNum] != 3 {
		t.Fatalf("%d FSM reads, want 3 (extension writes through smgr, not the pool)", e.s.Stats.Reads[bufmgr.FSMForkNum])
	}
}

// The seed thread's small-table claim, one insert at a time: with a map
// the first insert of a new session reads the root, the level-1 page and
// the leaf; without one it reads no FSM page.
func TestFirstInsertReads(t *testing.T) {
	for _, c := range []struct {
		v       Variant
		fsm     uint64
		skipped uint64
	}{{Always, 3, 0}, {SmallSkip, 0, 1}} {
		e := newEnv(t, Options{Variant: c.v}, 64)
		h := e.heap(100, 0)
		e.insert(e.s, h, 1, intRow)
		e.ok(e.s.Vacuum(h))
		b := e.session("B")
		e.insert(b, h, 1, intRow)
		if b.Stats.Reads[bufmgr.FSMForkNum] != c.fsm || b.Stats.Reads[bufmgr.MainForkNum] != 1 || b.Stats.FSMSkipped != c.skipped {
			t.Errorf("%v: FSM reads %d, heap reads %d, skipped %d; want %d, 1, %d", c.v,
				b.Stats.Reads[bufmgr.FSMForkNum], b.Stats.Reads[bufmgr.MainForkNum], b.Stats.FSMSkipped, c.fsm, c.skipped)
		}
	}
}

// The local map: every other block from the last, the cached target
// taken off, tried from the end, cleared on a hit, on extension, on abort.
func TestLocalMapRules(t *testing.T) {
	e := newEnv(t, Options{Variant: SmallSkip}, 64)
	h := e.heap(100, 4) // 4 new pages
	blk, err := e.s.GetPageWithFreeSpace(h, 100)
	e.ok(err)
	n, m := e.s.LocalMap()
	if blk != 3 || n != 4 || m[3] != 1 || m[2] != 0 || m[1] != 1 || m[0] != 0 {
		t.Fatalf("4 blocks, no target: block %d, map %d %v; want 3, [0 1 0 1]", blk, n, m)
	}
	// Block 3 proves too full: try 1, then nothing.
	blk, err = e.s.RecordAndGetPageWithFreeSpace(h, 3, 0, 100)
	e.ok(err)
	if blk != 1 {
		t.Fatalf("after 3: %d, want 1", blk)
	}
	blk, err = e.s.RecordAndGetPageWithFreeSpace(h, 1, 0, 100)
	e.ok(err)
	if blk != InvalidBlockNumber || h.FSMExists() {
		t.Fatalf("after 1: %d (fork exists %v), want none and no fork", blk, h.FSMExists())
	}
	if n, _ := e.s.LocalMap(); n != 4 {
		t.Fatalf("the exhausted map was cleared (%d); PG clears it when hio extends", n)
	}
	e.s.Abort()
	if n, _ := e.s.LocalMap(); n != 0 {
		t.Fatal("abort did not clear the local map")
	}
	// A cached target is marked not available.
	e.insert(e.s, h, 1, intRow) // map built, block 3 initialised and used, map cleared
	if n, _ := e.s.LocalMap(); n != 0 || e.s.TargetBlock(h) != 3 {
		t.Fatalf("after an insert: map %d, target %d; want cleared, 3", n, e.s.TargetBlock(h))
	}
	// Two big rows fit block 3, the third does not: the map marks 3 and
	// 1, takes 3 off (the target just tried) and block 1 takes the row.
	e.insert(e.s, h, 3, HeapTupleLen(4000))
	if e.s.TargetBlock(h) != 1 || e.s.Stats.LocalMapBuilds != 3 {
		t.Fatalf("target %d after block 3 filled, %d map builds; want 1, 3", e.s.TargetBlock(h), e.s.Stats.LocalMapBuilds)
	}
	// A row that fits neither 1 nor 3: both tried, then the heap extends
	// to 5 blocks, still without a map.
	e.insert(e.s, h, 1, HeapTupleLen(8000))
	if h.NBlocks() != 5 || h.FSMExists() || e.s.TargetBlock(h) != 4 {
		t.Fatalf("%d blocks, FSM %v, target %d; want 5, none, 4", h.NBlocks(), h.FSMExists(), e.s.TargetBlock(h))
	}
	// Block 4 is at the threshold: recording it creates the map.
	e.insert(e.s, h, 1, HeapTupleLen(8000))
	if !h.FSMExists() || h.FSMBlocks() != 3 || h.RecordedCat(4) != SpaceAvailToCat(8164-8028) {
		t.Fatalf("after block 4 filled: FSM %v, %d blocks, slot 4 = %d", h.FSMExists(), h.FSMBlocks(), h.RecordedCat(4))
	}
}

// fsm_allow_writes' answers, one per return.
func TestAllowWrites(t *testing.T) {
	e := newEnv(t, Options{Variant: SmallSkip, Threshold: 4}, 64)
	h := e.heap(100, 3)
	for _, c := range []struct {
		blk, nblocks uint32
		relpages     uint32
		exists       bool
		want         bool
	}{
		{4, InvalidBlockNumber, 0, false, true},
		{0, 5, 0, false, true},
		{0, 3, 0, false, false},
		{0, InvalidBlockNumber, 5, false, true},
		{0, InvalidBlockNumber, 0, true, true},
		{0, InvalidBlockNumber, 0, false, false}, // counted: 3 blocks
	} {
		h.relpages, h.fsmExists = c.relpages, c.exists
		if got, _ := e.s.allowWrites(h, c.blk, c.nblocks); got != c.want {
			t.Errorf("%+v: %v", c, got)
		}
	}
}

// The threshold is configurable: with 8 (as the thread built it) an
// 8-page heap never gets a map.
func TestThresholdEight(t *testing.T) {
	for _, c := range []struct {
		thr int
		fsm bool
	}{{4, true}, {8, false}} {
		w, err := NewSeed(SeedConfig{Tables: 1, FillFactor: 20, Blocks: 8, Options: Options{Variant: SmallSkip, Threshold: c.thr}, NBuffers: 64})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Fill(); err != nil {
			t.Fatal(err)
		}
		if got := w.Heaps[0].FSMExists(); got != c.fsm {
			t.Errorf("threshold %d, 8 blocks: FSM exists %v, want %v", c.thr, got, c.fsm)
		}
	}
}

// Bad input is an error, never a panic; an ERROR releases the pins.
func TestErrors(t *testing.T) {
	pool, _ := bufmgr.NewPool(16, nil)
	if _, err := NewStore(nil, Options{}); err == nil {
		t.Error("NewStore without a pool")
	}
	for _, opt := range []Options{{Variant: 7}, {Variant: SmallSkip, Threshold: -1}, {Variant: SmallSkip, Threshold: MaxLocalMapThreshold + 1}} {
		if _, err := NewStore(pool, opt); err == nil {
			t.Errorf("NewStore(%+v) accepted", opt)
		}
	}
	st, _ := NewStore(pool, Options{})
	if _, err := st.NewHeap(nil, 100); err == nil {
		t.Error("NewHeap(nil)")
	}
	rel := &bufmgr.Relation{Name: "t", Number: 1}
	for _, ff := range []int{0, 9, 101} {
		if _, err := st.NewHeap(rel, ff); err == nil {
			t.Errorf("fillfactor %d accepted", ff)
		}
	}
	h, err := st.NewHeap(rel, 100)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.NewHeap(rel, 100); err == nil {
		t.Error("a second heap for the same relation")
	}
	if _, err := st.NewSession(nil); err == nil {
		t.Error("NewSession(nil)")
	}
	other, _ := bufmgr.NewPool(16, nil)
	ob, _ := other.NewBackend("X")
	if _, err := st.NewSession(ob); err == nil {
		t.Error("a session on another pool's backend")
	}
	b, _ := pool.NewBackend("A")
	s, _ := st.NewSession(b)
	st2, _ := NewStore(pool, Options{})
	h2, _ := st2.NewHeap(&bufmgr.Relation{Name: "u", Number: 2}, 100)
	if _, err := s.HeapInsert(h2, intRow); err == nil {
		t.Error("a heap of another store")
	}
	if _, err := s.HeapInsert(nil, intRow); err == nil {
		t.Error("HeapInsert(nil)")
	}
	if _, err := s.GetPageWithFreeSpace(h, MaxFSMRequestSize+1); err == nil {
		t.Error("a request above MaxFSMRequestSize")
	}
	if err := s.RecordPageWithFreeSpace(h, InvalidBlockNumber, 10); err == nil {
		t.Error("recording InvalidBlockNumber")
	}
	if err := h.BuildFSM(10, func(uint32) uint8 { return 1 }); err != nil {
		t.Fatal(err)
	}
	if err := h.BuildFSM(10, func(uint32) uint8 { return 1 }); err == nil {
		t.Error("BuildFSM twice")
	}
	if err := h.TearFSMNode(0, NodesPerPage, 1); err == nil {
		t.Error("tearing node 8164")
	}
	// An ERROR inside: a pool whose every buffer is pinned.
	var pins []bufmgr.Buffer
	filler := &bufmgr.Relation{Name: "f", Number: 3}
	filler.NBlocks[bufmgr.MainForkNum] = 16
	fb, _ := pool.NewBackend("F")
	for blk := uint32(0); blk < 16; blk++ {
		buf, _, err := fb.ReadBuffer(filler, bufmgr.MainForkNum, blk, nil)
		if err != nil {
			t.Fatal(err)
		}
		pins = append(pins, buf)
	}
	h3, _ := st.NewHeap(&bufmgr.Relation{Name: "v", Number: 4}, 100)
	_, err = s.HeapInsert(h3, intRow)
	var pe *bufmgr.PGError
	if !errors.As(err, &pe) || pe.Code != bufmgr.ErrNoUnpinnedBuffers {
		t.Fatalf("insert into a full pool: %v, want no unpinned buffers", err)
	}
	if len(b.Pins()) != 0 {
		t.Fatalf("the failed insert left pins: %v", b.Pins())
	}
	for _, buf := range pins {
		if err := fb.ReleaseBuffer(buf); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.HeapInsert(h3, intRow); err != nil {
		t.Fatalf("after the pool freed up: %v", err)
	}
	if err := pool.CheckQuiescent(); err != nil {
		t.Fatal(err)
	}
}

// Odd but legal calls do not panic: a relation declared with billions of
// blocks, a lesson calling GetPageWithFreeSpace twice in small-skip (the
// patch asserted no local map was set), page methods given numbers out of
// range.
func TestNoPanicsOnOddInput(t *testing.T) {
	pool, _ := bufmgr.NewPool(32, nil)
	st, _ := NewStore(pool, Options{})
	b, _ := pool.NewBackend("A")
	s, _ := st.NewSession(b)
	rel := &bufmgr.Relation{Name: "huge", Number: 1}
	rel.NBlocks[bufmgr.MainForkNum] = 4_000_000_000
	h, err := st.NewHeap(rel, 100)
	if err != nil {
		t.Fatal(err)
	}
	tid, err := s.HeapInsert(h, intRow) // no map: the last page, 3999999999
	if err != nil || tid.Block != 3_999_999_999 {
		t.Fatalf("insert into a 4e9-block heap: %v %v", tid, err)
	}
	if p := h.HeapPage(tid.Block); len(p.Items) != 1 {
		t.Fatalf("page %d has %d tuples", tid.Block, len(p.Items))
	}
	big := &bufmgr.Relation{Name: "bigfsm", Number: 2}
	big.NBlocks[bufmgr.FSMForkNum] = MaxFSMBlocks + 1
	if _, err := st.NewHeap(big, 100); err == nil {
		t.Error("an FSM fork larger than any map was accepted")
	}
	h2, _ := st.NewHeap(&bufmgr.Relation{Name: "b", Number: 3}, 100)
	if err := h2.BuildFSM(MaxBuildFSMBlocks+1, func(uint32) uint8 { return 0 }); err == nil {
		t.Error("BuildFSM beyond its bound")
	}

	sst, _ := NewStore(pool, Options{Variant: SmallSkip})
	ss, _ := sst.NewSession(b)
	rs := &bufmgr.Relation{Name: "small", Number: 4}
	rs.NBlocks[bufmgr.MainForkNum] = 3
	hs, _ := sst.NewHeap(rs, 100)
	for i := 0; i < 2; i++ {
		if blk, err := ss.GetPageWithFreeSpace(hs, 10); err != nil || blk != 2 {
			t.Fatalf("search %d: %d %v", i, blk, err)
		}
	}
	ro := &bufmgr.Relation{Name: "other", Number: 5}
	ro.NBlocks[bufmgr.MainForkNum] = 2
	ho, _ := sst.NewHeap(ro, 100)
	if _, err := ss.GetPageWithFreeSpace(ho, 10); err == nil {
		t.Error("a search on another heap while the local map is set")
	}
	if _, err := ss.RecordAndGetPageWithFreeSpace(ho, 0, 0, 10); err == nil {
		t.Error("RecordAndGet on another heap while the local map is set")
	}
	ss.Abort()
	if _, err := ss.GetPageWithFreeSpace(ho, 10); err != nil {
		t.Errorf("after the abort: %v", err)
	}

	var p Page
	if p.SetAvail(-1, 5) || p.SetAvail(SlotsPerFSMPage, 5) || p.SetNode(NodesPerPage, 1) || p.TruncateAvail(-1) ||
		p.Node(-1) != 0 || p.GetAvail(SlotsPerFSMPage) != 0 || !p.Consistent() {
		t.Error("page methods accepted numbers out of range")
	}
	if err := pool.CheckQuiescent(); err != nil {
		t.Fatal(err)
	}
}

// Random operation streams on two heaps by two sessions, both variants:
// inserts of mixed sizes, deletes, VACUUM, direct map calls. After every
// operation: no pin is left, the pool's invariants hold, every heap page's
// layout adds up, every FSM page is consistent, and an insert left no
// local map behind.
func TestRandomOperationStreams(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		v := rapid.SampledFrom([]Variant{Always, SmallSkip}).Draw(rt, "variant")
		e := newEnv(t, Options{Variant: v, Threshold: rapid.IntRange(0, 8).Draw(rt, "threshold")}, 32)
		ss := []*Session{e.s, e.session("B")}
		hs := []*Heap{e.heap(rapid.SampledFrom([]int{10, 20, 50, 100}).Draw(rt, "ff0"), 0), e.heap(100, 0)}
		var live [2][]TID
		for i := rapid.IntRange(1, 80).Draw(rt, "nops"); i > 0; i-- {
			s := ss[rapid.IntRange(0, 1).Draw(rt, "session")]
			k := rapid.IntRange(0, 1).Draw(rt, "heap")
			h := hs[k]
			var err error
			switch op := rapid.IntRange(0, 9).Draw(rt, "op"); {
			case op < 5:
				ln := rapid.SampledFrom([]int{intRow, 100, 1000, 4000, 8160}).Draw(rt, "len")
				var tid TID
				tid, err = s.HeapInsert(h, ln)
				if err == nil {
					live[k] = append(live[k], tid)
					if n, _ := s.LocalMap(); n != 0 {
						rt.Fatal("an insert left the local map set")
					}
				}
			case op == 5 && len(live[k]) > 0:
				j := rapid.IntRange(0, len(live[k])-1).Draw(rt, "victim")
				err = s.HeapDelete(h, live[k][j])
				live[k] = append(live[k][:j], live[k][j+1:]...)
			case op == 6:
				err = s.Vacuum(h)
			case op == 7:
				_, err = s.GetPageWithFreeSpace(h, rapid.IntRange(0, MaxFSMRequestSize).Draw(rt, "need"))
			case op == 8 && h.NBlocks() > 0:
				blk := uint32(rapid.IntRange(0, int(h.NBlocks())-1).Draw(rt, "blk"))
				err = s.RecordPageWithFreeSpace(h, blk, rapid.IntRange(0, BLCKSZ).Draw(rt, "avail"))
			case op == 9:
				err = s.FreeSpaceMapVacuum(h)
			}
			if err != nil && isPGError(err) {
				rt.Fatalf("ERROR: %v", err)
			}
			if err != nil {
				// A caller mistake the stream may make: a map left by
				// GetPageWithFreeSpace for the other heap.
				s.Abort()
			}
			if err := e.pool.CheckQuiescent(); err != nil {
				rt.Fatalf("after an operation: %v", err)
			}
			if err := e.pool.CheckInvariants(); err != nil {
				rt.Fatal(err)
			}
			for _, h := range hs {
				checkHeap(rt, h)
			}
		}
	})
}

func checkHeap(t *rapid.T, h *Heap) {
	for blk := uint32(0); blk < h.NBlocks(); blk++ {
		p := h.HeapPage(blk)
		if p.IsNew() {
			continue
		}
		used := 0
		for _, it := range p.Items {
			if it.Flags == LPNormal {
				used += MaxAlign(int(it.Len))
			}
		}
		if int(p.Lower) != SizeOfPageHeaderData+SizeOfItemID*len(p.Items) || int(p.Upper) != BLCKSZ-used || p.Lower > p.Upper {
			t.Fatalf("%s block %d: lower %d upper %d, %d pointers, %d bytes of tuples", h.Rel.Name, blk, p.Lower, p.Upper, len(p.Items), used)
		}
	}
	for phys := uint32(0); phys < h.FSMBlocks(); phys++ {
		if p, _ := h.FSMPage(phys); !p.Consistent() {
			t.Fatalf("%s FSM page %d is inconsistent", h.Rel.Name, phys)
		}
	}
}
