package fsm

import (
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
)

// The constants and facts of the reference sheet (postgres-internals.md
// section 5 and facts 5–13), checked on the engine. Where a fact was
// measured on a server ([R]), the comment says what PostgreSQL 15.18 showed.

// env is a pool, a store and one session, every page access traced.
type env struct {
	t     *testing.T
	pool  *bufmgr.Pool
	store *Store
	s     *Session
	nrel  uint32
}

func newEnv(t *testing.T, opt Options, nbuffers int) *env {
	t.Helper()
	pool, err := bufmgr.NewPool(nbuffers, trace.NewLog())
	if err != nil {
		t.Fatal(err)
	}
	st, err := NewStore(pool, opt)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, pool: pool, store: st}
	e.s = e.session("A")
	return e
}

func (e *env) session(name string) *Session {
	e.t.Helper()
	b, err := e.pool.NewBackend(name)
	if err != nil {
		e.t.Fatal(err)
	}
	s, err := e.store.NewSession(b)
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

func (e *env) heap(fillfactor int, blocks uint32) *Heap {
	e.t.Helper()
	rel := &bufmgr.Relation{Name: "t" + itoa(e.nrel), Number: bufmgr.FirstNormalObjectId + e.nrel, Permanent: true}
	e.nrel++
	rel.NBlocks[bufmgr.MainForkNum] = blocks
	h, err := e.store.NewHeap(rel, fillfactor)
	if err != nil {
		e.t.Fatal(err)
	}
	return h
}

// ok fails on err and checks that no pin is left.
func (e *env) ok(err error) {
	e.t.Helper()
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.pool.CheckQuiescent(); err != nil {
		e.t.Fatalf("pins left: %v", err)
	}
}

func (e *env) insert(s *Session, h *Heap, n int, tupleLen int) {
	e.t.Helper()
	for i := 0; i < n; i++ {
		_, err := s.HeapInsert(h, tupleLen)
		e.ok(err)
	}
}

var intRow = HeapTupleLen(4) // one int4 column: t_len 28

func TestPageConstants(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"NodesPerPage", NodesPerPage, 8164},
		{"NonLeafNodesPerPage", NonLeafNodesPerPage, 4095},
		{"LeafNodesPerPage", LeafNodesPerPage, 4069},
		{"SlotsPerFSMPage", SlotsPerFSMPage, 4069},
		{"MaxHeapTupleSize", MaxHeapTupleSize, 8160},
		{"MaxFSMRequestSize", MaxFSMRequestSize, 8160},
		{"MaxHeapTuplesPerPage", MaxHeapTuplesPerPage, 291},
		{"nearlyEmptyFreeSpace", NearlyEmptyFreeSpace, 8016},
		{"FSM_CAT_STEP", FSMCatStep, 32},
		{"HEAPBLOCKS_PER_PAGE", VMHeapBlocksPerPage, 32672},
		{"MAXALIGN(23)", MaxAlign(SizeofHeapTupleHeader), 24},
		{"int4 row t_len", intRow, 28},
		{"fillfactor 20 reserve", TargetPageFreeSpace(20), 6553},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
	// FSM_TREE_DEPTH: 1626 is the least X with X^3 >= 2^32-1.
	if uint64(SlotsPerFSMPage)*SlotsPerFSMPage*SlotsPerFSMPage < 1<<32-1 || 1625*1625*1625 >= uint64(1<<32-1) || FSMTreeDepth != 3 {
		t.Error("FSM_TREE_DEPTH is not 3 for 4069 slots")
	}
	// 13 levels: the first leaf is node 4095 = 2^12 - 1.
	if depth := 0; true {
		for n := NonLeafNodesPerPage; n > 0; n = parentOf(n) {
			depth++
		}
		if depth != 12 {
			t.Errorf("leaf depth %d, want 12 (13 levels)", depth)
		}
	}
}

// Fact 12 and the category rules: pg_freespace reports 8160 for N >= 8160,
// else min(⌊N/32⌋, 254)×32; a request rounds up, 0 needs 1, 8160 needs 255,
// more is an ERROR.
func TestCategories(t *testing.T) {
	for n := 0; n <= BLCKSZ; n++ {
		want := min(n/32, 254) * 32
		if n >= 8160 {
			want = 8160
		}
		if got := CatToAvail(SpaceAvailToCat(n)); got != want {
			t.Fatalf("pg_freespace for %d free bytes = %d, want %d", n, got, want)
		}
	}
	for _, c := range []struct{ avail, cat int }{{0, 0}, {31, 0}, {32, 1}, {8127, 253}, {8128, 254}, {8159, 254}, {8160, 255}, {8192, 255}, {3128, 97}} {
		if got := SpaceAvailToCat(c.avail); int(got) != c.cat {
			t.Errorf("avail %d → cat %d, want %d", c.avail, got, c.cat)
		}
	}
	for _, c := range []struct{ need, cat int }{{0, 1}, {1, 1}, {32, 1}, {33, 2}, {6585, 206}, {8128, 254}, {8129, 255}, {8160, 255}} {
		got, err := SpaceNeededToCat(c.need)
		if err != nil || int(got) != c.cat {
			t.Errorf("need %d → cat %d (%v), want %d", c.need, got, err, c.cat)
		}
	}
	for _, n := range []int{8161, 9000, -1} {
		if _, err := SpaceNeededToCat(n); err == nil {
			t.Errorf("need %d: no error", n)
		} else if pe, ok := err.(*PGError); !ok || pe.Code != ErrInvalidRequestSize {
			t.Errorf("need %d: %v, want invalid FSM request size", n, err)
		}
	}
	// Any page of the category a request rounds up to holds the request.
	for need := 1; need <= MaxFSMRequestSize; need++ {
		cat, _ := SpaceNeededToCat(need)
		if CatToAvail(cat) < need {
			t.Fatalf("need %d → cat %d, whose pages may have only %d", need, cat, CatToAvail(cat))
		}
	}
}

// Addressing: depth-first physical numbering and the parent/child maths.
func TestAddresses(t *testing.T) {
	for _, c := range []struct {
		a    Address
		phys uint32
	}{
		{RootAddress, 0}, {Address{1, 0}, 1}, {Address{0, 0}, 2}, {Address{0, 4068}, 4070},
		{Address{1, 1}, 4071}, {Address{0, 4069}, 4072}, {Address{1, 2}, 8141}, {Address{0, 8138}, 8142},
	} {
		if got := c.a.Physical(); got != c.phys {
			t.Errorf("%+v → physical %d, want %d", c.a, got, c.phys)
		}
		if got := AddressOf(c.phys); got != c.a {
			t.Errorf("physical %d → %+v, want %+v", c.phys, got, c.a)
		}
	}
	for phys := uint32(0); phys < 3*4070+5; phys++ {
		if got := AddressOf(phys).Physical(); got != phys {
			t.Fatalf("AddressOf(%d).Physical() = %d", phys, got)
		}
	}
	for _, blk := range []uint32{0, 1, 4068, 4069, 4070, 4069 * 4069, 123456789, MaxBlockNumber} {
		a, slot := Location(blk)
		if a.Level != 0 || HeapBlock(a, slot) != blk {
			t.Errorf("block %d → %+v slot %d → %d", blk, a, slot, HeapBlock(a, slot))
		}
		p, ps := a.Parent()
		if p.Child(ps) != a {
			t.Errorf("block %d: parent %+v slot %d does not lead back", blk, p, ps)
		}
		r, rs := p.Parent()
		if r.Level != FSMRootLevel || r.LogPageNo != 0 || r.Child(rs) != p {
			t.Errorf("block %d: root %+v slot %d", blk, r, rs)
		}
	}
	// The largest block's leaf is addressable: leaf page 1055533, after
	// 1055534 leaves, 260 level-1 pages and the root.
	a, _ := Location(MaxBlockNumber)
	if a.LogPageNo != 1055533 || a.Physical() != 1055794 || AddressOf(a.Physical()) != a || MaxFSMBlocks != a.Physical()+1 {
		t.Errorf("the last block's leaf: %+v at physical %d", a, a.Physical())
	}
	// Fact 10 by arithmetic: 4069 heap pages need 3 FSM pages, 4070 need 4.
	for _, c := range []struct{ heap, fsm uint32 }{{0, 0}, {1, 3}, {4069, 3}, {4070, 4}, {2 * 4069, 4}, {2*4069 + 1, 5}} {
		if got := ForkPagesFor(c.heap); got != c.fsm {
			t.Errorf("ForkPagesFor(%d) = %d, want %d", c.heap, got, c.fsm)
		}
	}
	if rightNeighbor(6) != 3 || rightNeighbor(2) != 1 || rightNeighbor(4095) != 4096 || rightNeighbor(8190) != 4095 {
		t.Errorf("rightneighbor: 6→%d 2→%d 4095→%d 8190→%d", rightNeighbor(6), rightNeighbor(2), rightNeighbor(4095), rightNeighbor(8190))
	}
}

// Facts 5–8: one row and no VACUUM: no FSM. VACUUM: 3 FSM pages (24576
// bytes), 1 VM page (8192); the page has pd_lower 28, pd_upper 8160 and
// pg_freespace (0, 8128); FSM page 2 holds 254 on the leaf's path to the
// root (nodes 0,1,3,…,2047,4095) and fp_next_slot 0.
func TestFactsOneRowVacuum(t *testing.T) {
	e := newEnv(t, Options{}, 64)
	h := e.heap(100, 0)
	e.insert(e.s, h, 1, intRow)
	if h.FSMExists() || h.FSMBlocks() != 0 || h.VMExists() {
		t.Fatalf("fact 5: after one INSERT the FSM exists (%v, %d blocks) or the VM does", h.FSMExists(), h.FSMBlocks())
	}
	e.ok(e.s.Vacuum(h))
	if got := h.FSMBlocks() * BLCKSZ; got != 24576 {
		t.Errorf("fact 6: FSM %d bytes, want 24576", got)
	}
	if got := h.Rel.NBlocks[bufmgr.VMForkNum] * BLCKSZ; got != 8192 || !h.VMExists() {
		t.Errorf("fact 6: VM %d bytes, want 8192", got)
	}
	p := h.HeapPage(0)
	if p.Lower != 28 || p.Upper != 8160 || !p.AllVisible {
		t.Errorf("fact 7: pd_lower %d pd_upper %d all-visible %v, want 28, 8160, true", p.Lower, p.Upper, p.AllVisible)
	}
	free, err := e.s.GetRecordedFreeSpace(h, 0)
	e.ok(err)
	if free != 8128 {
		t.Errorf("fact 7: pg_freespace(t) = (0, %d), want (0, 8128)", free)
	}
	leaf, _ := h.FSMPage(2)
	path := map[int]bool{}
	for n := NonLeafNodesPerPage; ; n = parentOf(n) {
		path[n] = true
		if n == 0 {
			break
		}
	}
	if len(path) != 13 {
		t.Fatalf("path of %d nodes", len(path))
	}
	for n := 0; n < NodesPerPage; n++ {
		want := uint8(0)
		if path[n] {
			want = 254
		}
		if leaf.Node(n) != want {
			t.Fatalf("fact 8: FSM page 2 node %d = %d, want %d", n, leaf.Node(n), want)
		}
	}
	if leaf.NextSlot() != 0 {
		t.Errorf("fact 8: fp_next_slot %d, want 0", leaf.NextSlot())
	}
	for _, phys := range []uint32{0, 1} {
		p, _ := h.FSMPage(phys)
		if p.GetAvail(0) != 254 || p.MaxAvail() != 254 {
			t.Errorf("FSM page %d: slot 0 = %d, root %d, want 254 after FreeSpaceMapVacuum", phys, p.GetAvail(0), p.MaxAvail())
		}
	}
}

// Fact 9: a 2-page table built by INSERT only has a 3-page FSM (made when
// the first page filled up) whose root page is empty. The sheet says
// pg_freespace reports 32 for the full page; PostgreSQL 15.18 on this
// project's machine reported 0 for a one-int table (pd_lower 928,
// pd_upper 960: 960 - 928 - 4 = 28 bytes, category 0), and so does the
// engine.
func TestFactInsertOnlyTwoPages(t *testing.T) {
	e := newEnv(t, Options{}, 64)
	h := e.heap(100, 0)
	e.insert(e.s, h, 300, intRow)
	if h.NBlocks() != 2 || h.FSMBlocks() != 3 {
		t.Fatalf("%d heap blocks, %d FSM blocks; want 2 and 3", h.NBlocks(), h.FSMBlocks())
	}
	root, _ := h.FSMPage(0)
	for n := 0; n < NodesPerPage; n++ {
		if root.Node(n) != 0 {
			t.Fatalf("fact 9: root FSM page node %d = %d, want empty", n, root.Node(n))
		}
	}
	p := h.HeapPage(0)
	if p.Lower != 928 || p.Upper != 960 || len(p.Items) != 226 {
		t.Errorf("page 0: pd_lower %d pd_upper %d, %d tuples; PostgreSQL 15.18: 928, 960, 226", p.Lower, p.Upper, len(p.Items))
	}
	free, err := e.s.GetRecordedFreeSpace(h, 0)
	e.ok(err)
	if free != 0 {
		t.Errorf("fact 9: pg_freespace of the full page = %d; PostgreSQL 15.18 reports 0", free)
	}
}

// Fact 10: VACUUM of a 4069-page heap makes 3 FSM pages, of 4070 pages 4.
func TestFactForkSizeAfterVacuum(t *testing.T) {
	for _, c := range []struct{ blocks, fsm uint32 }{{4069, 3}, {4070, 4}} {
		e := newEnv(t, Options{}, 64)
		h := e.heap(100, c.blocks) // new (all-zero) pages: VACUUM records 8168 bytes each
		e.ok(e.s.Vacuum(h))
		if h.FSMBlocks() != c.fsm {
			t.Errorf("fact 10: %d heap pages → %d FSM pages, want %d", c.blocks, h.FSMBlocks(), c.fsm)
		}
		if h.RecordedCat(c.blocks-1) != 255 || h.RecordedCat(0) != 255 {
			t.Errorf("new pages recorded as %d and %d, want 255 (8168 bytes)", h.RecordedCat(0), h.RecordedCat(c.blocks-1))
		}
	}
}

// Fact 11: one char(5000) PLAIN row leaves 3128 bytes; pg_freespace 3104.
func TestFactBigRow(t *testing.T) {
	e := newEnv(t, Options{}, 64)
	h := e.heap(100, 0)
	row := HeapTupleLen(4 + 5000) // varlena header + 5000 characters
	e.insert(e.s, h, 1, row)
	if free := h.HeapPage(0).HeapFreeSpace(); free != 3128 {
		t.Errorf("page free space %d, want 3128", free)
	}
	e.ok(e.s.Vacuum(h))
	free, err := e.s.GetRecordedFreeSpace(h, 0)
	e.ok(err)
	if free != 3104 || h.RecordedCat(0) != 97 {
		t.Errorf("fact 11: pg_freespace %d (cat %d), want 3104 (97)", free, h.RecordedCat(0))
	}
}

// Fact 13: 226 one-int rows a page, 44 with fillfactor 20 (and 67 with 30,
// as PostgreSQL 15.18 placed them).
func TestFactRowsPerPage(t *testing.T) {
	for _, c := range []struct{ ff, want int }{{100, 226}, {20, 44}, {30, 67}} {
		if got := RowsPerPage(intRow, c.ff); got != c.want {
			t.Errorf("fillfactor %d: %d rows a page, want %d", c.ff, got, c.want)
		}
		e := newEnv(t, Options{}, 64)
		h := e.heap(c.ff, 0)
		e.insert(e.s, h, c.want+1, intRow)
		if h.NBlocks() != 2 || len(h.HeapPage(0).Items) != c.want || len(h.HeapPage(1).Items) != 1 {
			t.Errorf("fillfactor %d: %d blocks, %d rows on the first", c.ff, h.NBlocks(), len(h.HeapPage(0).Items))
		}
	}
	// The nearly-empty cap: at fillfactor 10 a 4000-byte tuple would want
	// 4000 + 7372 bytes; capped at 8016, an empty page takes it.
	if got := TargetFreeSpace(4000, 10, true); got != NearlyEmptyFreeSpace {
		t.Errorf("target for 4000 bytes at fillfactor 10 = %d, want 8016", got)
	}
	if RowsPerPage(4000, 10) != 1 {
		t.Errorf("a 4000-byte row does not fit an empty page at fillfactor 10")
	}
	if got := TargetFreeSpace(8160, 100, true); got != 8160 {
		t.Errorf("target for a maximal tuple = %d, want 8160", got)
	}
}

// PageGetHeapFreeSpace is 0 once MaxHeapTuplesPerPage line pointers are
// used and none is free, whatever pd_upper - pd_lower says.
func TestHeapFreeSpaceLinePointerCap(t *testing.T) {
	var p HeapPage
	p.Init()
	if p.HeapFreeSpace() != 8164 {
		t.Fatalf("empty page: %d free, want 8164", p.HeapFreeSpace())
	}
	for i := 0; i < MaxHeapTuplesPerPage; i++ {
		if p.AddItem(24) == 0 {
			t.Fatalf("tuple %d did not fit", i+1)
		}
	}
	if p.FreeSpace() == 0 || p.HeapFreeSpace() != 0 {
		t.Fatalf("291 pointers: PageGetFreeSpace %d, PageGetHeapFreeSpace %d, want >0 and 0", p.FreeSpace(), p.HeapFreeSpace())
	}
	if p.AddItem(24) != 0 {
		t.Fatal("a 292nd tuple was added")
	}
	p.Items[10].Deleted = true
	p.vacuum()
	if !p.HasFreeLines || p.HeapFreeSpace() == 0 {
		t.Fatalf("after removing one tuple: free lines %v, heap free space %d", p.HasFreeLines, p.HeapFreeSpace())
	}
	if off := p.AddItem(24); off != 11 {
		t.Fatalf("the freed pointer was not reused: offset %d", off)
	}
	// Trailing unused pointers are truncated, the first is kept.
	var q HeapPage
	q.Init()
	for i := 0; i < 3; i++ {
		q.AddItem(100)
	}
	for i := range q.Items {
		q.Items[i].Deleted = true
	}
	q.vacuum()
	if len(q.Items) != 1 || q.Lower != 28 || q.Upper != BLCKSZ || q.HeapFreeSpace() != 8160 {
		t.Fatalf("all deleted, vacuumed: %d pointers, lower %d upper %d free %d", len(q.Items), q.Lower, q.Upper, q.HeapFreeSpace())
	}
}
