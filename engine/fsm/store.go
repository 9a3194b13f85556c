package fsm

import (
	"errors"
	"fmt"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/internal/enum"
	"bufferlab/engine/trace"
)

// Variant selects how a heap's free space is found (DESIGN "Variants, not
// versions").
type Variant uint8

// Variants.
const (
	// Always is PostgreSQL as released (8.4–18): every heap gets a free
	// space map as soon as something records free space in it.
	Always Variant = iota
	// SmallSkip is the PostgreSQL 12 development patch "Avoid creation of
	// the free space map for small heap relations" (b0eaa4c51b, "take 2",
	// with its follow-ups; reverted by 7db0cde6b5 before 12 shipped): no
	// map while the heap has at most Options.Threshold pages; instead a
	// backend-local map of every other page, counting back from the last.
	SmallSkip
)

var variantNames = [...]string{Always: "always", SmallSkip: "small-skip"}

func (v Variant) String() string { return enum.Name(variantNames[:], v, "variant") }

// ParseVariant parses "always" or "small-skip".
func ParseVariant(s string) (Variant, bool) { return enum.Parse[Variant](variantNames[:], s) }

// Options are a store's variant choices; the zero value is PostgreSQL 15.
type Options struct {
	Variant Variant
	// Threshold is HEAP_FSM_CREATION_THRESHOLD for SmallSkip (0: the
	// patch's 4; the seed thread also built it with 8). It is ignored by
	// Always.
	Threshold int
}

// Store holds what is on disk for a set of relations, and the variant
// that the whole simulated server runs: the contents of every heap page,
// FSM page and visibility map bit, keyed by relation, fork and block. The
// buffer pool only knows which blocks are cached; every access to a page
// goes through it (Session).
type Store struct {
	opt   Options
	thr   uint32
	pool  *bufmgr.Pool
	heaps []*Heap
	byRel map[uint32]*Heap
	// nextXid is the next transaction id (ReadNextTransactionId): every
	// HeapInsert and HeapDelete is one transaction and takes one.
	nextXid uint64
}

// NewStore returns an empty store whose sessions use backends of pool.
func NewStore(pool *bufmgr.Pool, opt Options) (*Store, error) {
	if pool == nil {
		return nil, errors.New("fsm: NewStore needs a buffer pool")
	}
	if opt.Variant > SmallSkip {
		return nil, fmt.Errorf("fsm: unknown variant %d (want always or small-skip)", opt.Variant)
	}
	thr := opt.Threshold
	if thr == 0 {
		thr = HeapFSMCreationThreshold
	}
	if thr < 1 || thr > MaxLocalMapThreshold {
		return nil, fmt.Errorf("fsm: small-skip threshold %d out of range [1, %d]", opt.Threshold, MaxLocalMapThreshold)
	}
	opt.Threshold = thr
	return &Store{opt: opt, thr: uint32(thr), pool: pool, byRel: map[uint32]*Heap{}, nextXid: firstXid}, nil
}

// Options returns the store's options (Threshold filled in).
func (st *Store) Options() Options { return st.opt }

// Pool returns the buffer pool the store's sessions use.
func (st *Store) Pool() *bufmgr.Pool { return st.pool }

// Heaps lists the store's heaps in creation order.
func (st *Store) Heaps() []*Heap { return st.heaps }

// HeapOf returns the heap whose relfilenode is relNumber.
func (st *Store) HeapOf(relNumber uint32) (*Heap, bool) { h, ok := st.byRel[relNumber]; return h, ok }

// Heap is one heap relation (relkind 'r'): its bufmgr.Relation (whose
// NBlocks are the fork sizes), its fillfactor, relpages as the last VACUUM
// set it, and the contents of its pages.
type Heap struct {
	store      *Store
	Rel        *bufmgr.Relation
	fillfactor int

	pages     []*HeapPage          // main fork by block below denseHeapPages; nil: an all-zero (new) page
	farPages  map[uint32]*HeapPage // blocks from denseHeapPages on
	fsm       []*Page              // FSM fork by physical block; nil: an all-zero page
	fsmExists bool                 // smgrexists(FSM_FORKNUM)
	vmExists  bool                 // smgrexists(VISIBILITYMAP_FORKNUM)
	fsmTorn   map[uint32]bool
	relpages  uint32 // pg_class.relpages (the small-skip patch's fsm_allow_writes reads it)
	pgclass   relStats
	// gen counts the relcache invalidations VACUUM sends (its update of
	// pg_class, when a value changed): every backend then forgets its
	// cached target block.
	gen uint64

	touched [bufmgr.VMForkNum + 1][]bool

	// ext is the relation extension lock (PostgreSQL 16's path takes it:
	// extend16.go).
	ext ExtLock
	// newLocked holds the page each extender added for itself and has not
	// yet put its tuple on, by block: its content lock (EB_LOCK_FIRST at
	// 16, RBM_ZERO_AND_LOCK at 15; extend16.go).
	newLocked map[uint32]newPageLock
}

// NewHeap adds a heap for rel with the given fillfactor (10..100). rel's
// NBlocks may already be non-zero: those pages read as new (all zeroes),
// a non-empty FSM fork as zeroed FSM pages.
func (st *Store) NewHeap(rel *bufmgr.Relation, fillfactor int) (*Heap, error) {
	if rel == nil {
		return nil, errors.New("fsm: NewHeap needs a relation")
	}
	if fillfactor < HeapMinFillFactor || fillfactor > 100 {
		return nil, fmt.Errorf("value %d out of bounds for option \"fillfactor\": valid values are between \"%d\" and \"100\"", fillfactor, HeapMinFillFactor)
	}
	if _, dup := st.byRel[rel.Number]; dup {
		return nil, fmt.Errorf("fsm: relation %d already has a heap in this store", rel.Number)
	}
	for f := bufmgr.InitForkNum; f <= bufmgr.MaxForkNum; f++ {
		if rel.NBlocks[f] != 0 {
			return nil, fmt.Errorf("fsm: relation %s has an init fork; unlogged relations are not modelled", rel.Name)
		}
	}
	if n := rel.NBlocks[bufmgr.FSMForkNum]; n > MaxFSMBlocks {
		return nil, fmt.Errorf("fsm: relation %s has %d FSM blocks; a free space map has at most %d", rel.Name, n, MaxFSMBlocks)
	}
	h := &Heap{store: st, Rel: rel, fillfactor: fillfactor, fsmTorn: map[uint32]bool{},
		fsmExists: rel.NBlocks[bufmgr.FSMForkNum] > 0, vmExists: rel.NBlocks[bufmgr.VMForkNum] > 0,
		pgclass: relStats{tuples: -1, frozenXid: st.nextXid}}
	h.fsm = make([]*Page, rel.NBlocks[bufmgr.FSMForkNum])
	st.heaps = append(st.heaps, h)
	st.byRel[rel.Number] = h
	return h, nil
}

// FillFactor is the heap's fillfactor.
func (h *Heap) FillFactor() int { return h.fillfactor }

// NBlocks is the size of the main fork.
func (h *Heap) NBlocks() uint32 { return h.Rel.NBlocks[bufmgr.MainForkNum] }

// FSMExists reports whether the FSM fork exists (it may have 0 blocks).
func (h *Heap) FSMExists() bool { return h.fsmExists }

// FSMBlocks is the size of the FSM fork (0 when it does not exist).
func (h *Heap) FSMBlocks() uint32 { return h.Rel.NBlocks[bufmgr.FSMForkNum] }

// VMExists reports whether the visibility map fork exists.
func (h *Heap) VMExists() bool { return h.vmExists }

// RelPages is pg_class.relpages: the heap's size at the last VACUUM.
func (h *Heap) RelPages() uint32 { return h.relpages }

// HeapPage returns a copy of block blk's layout (a zero, new page when it
// was never written).
func (h *Heap) HeapPage(blk uint32) HeapPage {
	if pg := h.peek(blk); pg != nil {
		p := *pg
		p.Items = append([]ItemID(nil), p.Items...)
		return p
	}
	return HeapPage{}
}

// FSMPage returns a copy of FSM block phys, and false when the fork does
// not reach it.
func (h *Heap) FSMPage(phys uint32) (Page, bool) {
	if phys >= h.FSMBlocks() {
		return Page{}, false
	}
	if p := h.fsm[phys]; p != nil {
		return *p, true
	}
	return Page{}, true
}

// RecordedCat is the category the leaf of heap block blk holds, read
// without the buffer pool or events (an inspection for views and tests);
// 0 when the leaf page does not exist.
func (h *Heap) RecordedCat(blk uint32) uint8 {
	a, slot := Location(blk)
	phys := a.Physical()
	if phys >= h.FSMBlocks() || h.fsm[phys] == nil {
		return 0
	}
	return h.fsm[phys].GetAvail(int(slot))
}

// TearFSMNode writes node of FSM block phys without fixing its parents or
// children: a torn page, as a crash during a write that was not WAL-logged
// can leave one. The next search or update through it detects and
// rebuilds it. The write is logged as the system's (site torn.node), so
// that a viewer sees the page as the engine has it.
func (h *Heap) TearFSMNode(phys uint32, node int, v uint8) error {
	if phys >= h.FSMBlocks() {
		return fmt.Errorf("fsm: FSM block %d of %s does not exist (the fork has %d)", phys, h.Rel.Name, h.FSMBlocks())
	}
	if node < 0 || node >= NodesPerPage {
		return fmt.Errorf("fsm: node %d out of range [0, %d)", node, NodesPerPage)
	}
	p := h.fsmPage(phys)
	old := p.Node(node)
	p.SetNode(node, v)
	k, _ := storeKind(node)
	h.emitSystem(k, sTornNode, trace.OFSMNode, uint64(old), uint64(v), PackAddr(bufmgr.FSMForkNum, phys, node))
	return nil
}

// emitSystem logs an event of the system actor (a crash, not a backend)
// when the pool has a log.
func (h *Heap) emitSystem(k trace.Kind, site trace.Site, c trace.ObjClass, before, after, arg uint64) {
	if l := h.store.pool.Log(); l != nil {
		l.Append(trace.Event{Actor: trace.System, Kind: k, Site: site, Class: c, Obj: h.Rel.Number,
			Before: before, After: after, Arg: arg})
	}
}

// TearFSMHeader marks FSM block phys as having a torn page header: the
// next read zeroes it, as fsm_readbuf's RBM_ZERO_ON_ERROR does with a page
// that fails verification. It is logged as the system's (site torn.header).
func (h *Heap) TearFSMHeader(phys uint32) error {
	if phys >= h.FSMBlocks() {
		return fmt.Errorf("fsm: FSM block %d of %s does not exist (the fork has %d)", phys, h.Rel.Name, h.FSMBlocks())
	}
	h.fsmTorn[phys] = true
	h.emitSystem(trace.KLoad, sTornHeader, trace.OFSMPage, 0, 0, PackAddr(bufmgr.FSMForkNum, phys, NodePage))
	return nil
}

// PagesAccessed is how many distinct blocks of fork f were read through
// the buffer pool since the last ResetAccessed: the seed thread's "pages
// accessed via shared buffers". Blocks from 2^20 on are not counted.
func (h *Heap) PagesAccessed(f bufmgr.ForkNumber) int {
	n := 0
	for _, t := range h.touched[f] {
		if t {
			n++
		}
	}
	return n
}

// ResetAccessed forgets which blocks were accessed.
func (h *Heap) ResetAccessed() {
	for f := range h.touched {
		h.touched[f] = h.touched[f][:0]
	}
}

// maxTrackedBlock is the last block PagesAccessed counts: the seed's
// tables have a handful of pages.
const maxTrackedBlock = 1<<20 - 1

func (h *Heap) touch(f bufmgr.ForkNumber, blk uint32) {
	if f > bufmgr.VMForkNum {
		return
	}
	t := h.touched[f]
	if int64(blk) >= int64(len(t)) {
		if blk > maxTrackedBlock {
			return
		}
		t = append(t, make([]bool, int(blk)+1-len(t))...)
		h.touched[f] = t
	}
	t[blk] = true
}

// denseHeapPages is how many heap pages live in a slice; pages beyond go
// in a map, so that a relation declared with billions of blocks costs
// memory only for the pages touched.
const denseHeapPages = 1 << 16

// page returns block blk's page, creating an all-zero (new) one.
// pageIfExists is block blk's page, nil when it was never written (a new
// page), without making one.
func (h *Heap) pageIfExists(blk uint32) *HeapPage {
	if blk >= denseHeapPages {
		return h.farPages[blk]
	}
	if int64(blk) >= int64(len(h.pages)) {
		return nil
	}
	return h.pages[blk]
}

func (h *Heap) page(blk uint32) *HeapPage {
	if blk >= denseHeapPages {
		p := h.farPages[blk]
		if p == nil {
			if h.farPages == nil {
				h.farPages = map[uint32]*HeapPage{}
			}
			p = &HeapPage{}
			h.farPages[blk] = p
		}
		return p
	}
	if int64(blk) >= int64(len(h.pages)) {
		h.pages = append(h.pages, make([]*HeapPage, int(blk)+1-len(h.pages))...)
	}
	if h.pages[blk] == nil {
		h.pages[blk] = &HeapPage{}
	}
	return h.pages[blk]
}

// peek returns block blk's page if it was ever written, else nil.
func (h *Heap) peek(blk uint32) *HeapPage {
	if blk >= denseHeapPages {
		return h.farPages[blk]
	}
	if int64(blk) < int64(len(h.pages)) {
		return h.pages[blk]
	}
	return nil
}

// fsmPage returns FSM block phys's page, creating a zero one.
func (h *Heap) fsmPage(phys uint32) *Page {
	if h.fsm[phys] == nil {
		h.fsm[phys] = &Page{}
	}
	return h.fsm[phys]
}

func (h *Heap) fsmNBlocks() uint32 {
	if !h.fsmExists {
		return 0
	}
	return h.Rel.NBlocks[bufmgr.FSMForkNum]
}

// BuildFSM gives an empty heap nblocks pages and writes its free space map
// as a VACUUM and FreeSpaceMapVacuum would leave it, with cat(blk) in each
// leaf: every level consistent, every fp_next_slot 0. It goes through
// neither the buffer pool nor the trace; it exists for experiments and
// tests that need maps of millions of pages. The heap pages themselves
// stay new (all zeroes).
func (h *Heap) BuildFSM(nblocks uint32, cat func(blk uint32) uint8) error {
	if h.NBlocks() != 0 || h.fsmExists {
		return fmt.Errorf("fsm: BuildFSM needs an empty heap without a map; %s has %d blocks", h.Rel.Name, h.NBlocks())
	}
	if nblocks > MaxBuildFSMBlocks {
		return fmt.Errorf("fsm: BuildFSM of %d blocks: at most %d (its map would take %d MB)", nblocks, MaxBuildFSMBlocks, uint64(ForkPagesFor(MaxBuildFSMBlocks))*BLCKSZ>>20)
	}
	size := ForkPagesFor(nblocks)
	h.Rel.NBlocks[bufmgr.MainForkNum] = nblocks
	h.Rel.NBlocks[bufmgr.FSMForkNum] = size
	h.fsmExists = true
	h.fsm = make([]*Page, size)
	for phys := range h.fsm {
		h.fsm[phys] = &Page{}
	}
	for blk := uint32(0); blk < nblocks; blk++ {
		if c := cat(blk); c != 0 {
			a, slot := Location(blk)
			h.fsm[a.Physical()].nodes[NonLeafNodesPerPage+int(slot)] = c
		}
	}
	// Bottom-up: rebuild each page, then copy its root into its parent's slot.
	for level := FSMBottomLevel; level <= FSMRootLevel; level++ {
		for phys := uint32(0); phys < size; phys++ {
			a := AddressOf(phys)
			if a.Level != level {
				continue
			}
			p := h.fsm[phys]
			p.rebuild(nil)
			if level < FSMRootLevel {
				parent, slot := a.Parent()
				if pp := parent.Physical(); pp < size {
					h.fsm[pp].nodes[NonLeafNodesPerPage+int(slot)] = p.nodes[0]
				}
			}
		}
	}
	return nil
}

// relStats are the pg_class columns VACUUM writes (vac_update_relstats,
// vacuum.c, PG 15): relpages, reltuples (-1 until the first VACUUM, PG
// 14+), relallvisible and relfrozenxid. It rewrites the row in place, which
// sends the relcache invalidation that closes every backend's SMgrRelation
// and with it smgr_targblock, only when one of them changed.
type relStats struct {
	pages      uint32
	tuples     float32
	allVisible uint32
	frozenXid  uint64
}

// firstXid is the store's first transaction id (FirstNormalTransactionId).
const firstXid = 3
