package fsmview

import (
	"fmt"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/trace"
	"bufferlab/viz/viewkit"
)

// Setup is what the view knows before its first event: the variant, the
// heaps with their forks and pages, the backends' names, cached target
// blocks and local maps. SetupOf reads it from a store; a zero Setup is
// an empty server (heaps then appear with their first event, empty).
type Setup struct {
	Variant   fsm.Variant
	Threshold int // small-skip's HEAP_FSM_CREATION_THRESHOLD (0: 4)
	Heaps     []HeapSetup
	// Backends are the lane names by actor ([0] is the system, "sys").
	Backends []string
	// Targets are cached target blocks (smgr_targblock) at the start.
	Targets []TargetSetup
	// LocalMaps are small-skip local maps set at the start.
	LocalMaps []LocalMapSetup
	// ExtensionsFirst asks the scene to keep the heap's extensions first
	// among its counters: the run is PostgreSQL 16's bulk extension
	// (RelationAddBlocks), or compares it with 15 side by side. It is how
	// the state is shown, not state: Diff and Equal ignore it.
	ExtensionsFirst bool
}

// HeapSetup is one heap at the start.
type HeapSetup struct {
	Rel        uint32
	Name       string
	FillFactor int
	// Main, FSM and VM are the fork sizes; FSMExists and VMExists whether
	// those forks exist (a fork may exist with 0 blocks).
	Main, FSM, VM       uint32
	FSMExists, VMExists bool
	RelPages            uint32
	// Pages are the heap page words (fsm.HeapPage.Word) by block; blocks
	// beyond are new (all-zero) pages.
	Pages []uint64
	// FSMPages are the FSM pages that are not all zero.
	FSMPages []FSMPageSetup
}

// FSMPageSetup is one FSM page's contents.
type FSMPageSetup struct {
	Phys     uint32
	Nodes    [fsm.NodesPerPage]uint8
	NextSlot int32
}

// TargetSetup is a backend's cached target block for a relation.
type TargetSetup struct {
	Actor trace.Actor
	Rel   uint32
	Block uint32
}

// LocalMapSetup is a backend's local map.
type LocalMapSetup struct {
	Actor   trace.Actor
	Rel     uint32
	Entries []uint8 // len = the heap size it was built for
}

// MaxSetupBlocks bounds the heap pages and FSM pages SetupOf copies per
// heap (pages beyond are taken as new); views are for scenes and lessons,
// whose heaps have a handful of pages.
const MaxSetupBlocks = 1 << 16

// SetupOf reads the current state of st: its variant, every heap (forks,
// relpages, page words, FSM pages), the lane names of its pool's backends,
// and the cached target blocks and local maps of the sessions given. Call
// it before the first event the view will apply.
func SetupOf(st *fsm.Store, sessions ...*fsm.Session) Setup {
	o := st.Options()
	s := Setup{Variant: o.Variant, Threshold: o.Threshold, Backends: []string{"sys"}}
	for _, b := range st.Pool().Backends() {
		for int(b.Actor) >= len(s.Backends) {
			s.Backends = append(s.Backends, trace.ActorName(trace.Actor(len(s.Backends))))
		}
		s.Backends[b.Actor] = b.Name
	}
	for _, h := range st.Heaps() {
		hs := HeapSetup{Rel: h.Rel.Number, Name: h.Rel.Name, FillFactor: h.FillFactor(), Main: h.NBlocks(),
			FSM: h.FSMBlocks(), VM: h.Rel.NBlocks[bufmgr.VMForkNum], FSMExists: h.FSMExists(), VMExists: h.VMExists(),
			RelPages: h.RelPages()}
		last := -1
		for blk := uint32(0); blk < min(h.NBlocks(), MaxSetupBlocks); blk++ {
			w := h.HeapPage(blk).Word()
			hs.Pages = append(hs.Pages, w)
			if w != 0 {
				last = int(blk)
			}
		}
		hs.Pages = hs.Pages[:last+1]
		for phys := uint32(0); phys < min(h.FSMBlocks(), MaxSetupBlocks); phys++ {
			p, _ := h.FSMPage(phys)
			if p.NextSlot() == 0 && p.MaxAvail() == 0 && allZero(p.Nodes()) {
				continue
			}
			hs.FSMPages = append(hs.FSMPages, FSMPageSetup{Phys: phys, Nodes: p.Nodes(), NextSlot: p.NextSlot()})
		}
		s.Heaps = append(s.Heaps, hs)
		for _, se := range sessions {
			if t := se.TargetBlock(h); t != fsm.InvalidBlockNumber {
				s.Targets = append(s.Targets, TargetSetup{Actor: se.Backend().Actor, Rel: h.Rel.Number, Block: t})
			}
		}
	}
	for _, se := range sessions {
		n, m := se.LocalMap()
		if n == 0 {
			continue
		}
		// The session does not say which heap its map is for; the map of
		// a lesson's step-by-step calls is for the heap they name, which
		// SetupOf cannot know: the first heap whose size matches.
		var rel uint32
		for _, h := range st.Heaps() {
			if h.NBlocks() == n {
				rel = h.Rel.Number
				break
			}
		}
		s.LocalMaps = append(s.LocalMaps, LocalMapSetup{Actor: se.Backend().Actor, Rel: rel, Entries: m[:n]})
	}
	return s
}

func allZero(n [fsm.NodesPerPage]uint8) bool {
	for _, v := range n {
		if v != 0 {
			return false
		}
	}
	return true
}

// fsmPage is one FSM page as the view holds it. Pages are copied on
// write: a page belongs to the view whose token it carries, and a clone
// gets new tokens for both, so that neither writes a page the other sees.
type fsmPage struct {
	nodes [fsm.NodesPerPage]uint8
	next  int32
	owner *byte
}

var zeroPage fsmPage

// heapState is one heap as the view holds it.
type heapState struct {
	rel        uint32
	name       string
	fillfactor int
	forks      [3]uint64 // fork words (fsm.ForkWord) of main, fsm, vm
	relpages   uint32
	gen        uint64     // relcache invalidations (VACUUM): a target block set before is forgotten
	pages      []uint64   // heap page words by block; beyond the slice: 0, a new page
	fsm        []*fsmPage // FSM pages by physical block (len = the fork's size); nil: all zero
}

func (h *heapState) clone() *heapState {
	c := *h
	c.pages = append([]uint64(nil), h.pages...)
	c.fsm = append([]*fsmPage(nil), h.fsm...)
	return &c
}

func (h *heapState) nblocks(f bufmgr.ForkNumber) uint32 {
	_, n := fsm.UnpackForkWord(h.forks[f])
	return n
}

func (h *heapState) exists(f bufmgr.ForkNumber) bool {
	e, _ := fsm.UnpackForkWord(h.forks[f])
	return e
}

func (h *heapState) page(blk uint32) uint64 {
	if int64(blk) < int64(len(h.pages)) {
		return h.pages[blk]
	}
	return 0
}

func (h *heapState) fsmAt(phys uint32) *fsmPage {
	if int64(phys) < int64(len(h.fsm)) && h.fsm[phys] != nil {
		return h.fsm[phys]
	}
	return &zeroPage
}

// target is a backend's cached target block for a relation, valid while
// the heap's gen is the one it was set under.
type target struct {
	rel uint32
	blk uint32
	gen uint64
}

type localMap struct {
	nblocks uint32
	rel     uint32
	m       []uint8
}

// step is what the history keeps of one applied event: Unapply steps back
// one node to restore the acting backend's previous search exactly, and,
// for the few events that need more, what undo holds.
type step struct {
	search *Search   // the backend's search after the event (immutable)
	undo   *stepUndo // nil for most events (keeps history nodes small)
}

// stepUndo is what Unapply needs to undo an event beyond its Before.
type stepUndo struct {
	created bool // the event made the view add its heap
	// prior is, for a KTarget event, the backend's cached target for the
	// relation before it as it was set (block and generation: the event's
	// Before is only what RelationGetTargetBlock returned, none when a
	// VACUUM had made it stale, and unapplying that VACUUM must bring the
	// old block back).
	prior    priorTarget
	hasPrior bool
}

// priorTarget is a backend's cached target for a relation (ok false: it
// had none).
type priorTarget struct {
	t  target
	ok bool
}

type lane struct {
	name    string
	stats   Counters
	targets []target
	local   localMap
}

// Holds reports whether the backend caches a target block or has a local
// map: its lane then takes part in comparisons even without events.
func (l lane) Holds() bool { return len(l.targets) > 0 || l.local.nblocks > 0 }

// View is the view model of the free space map and the heaps it
// describes, derived from trace events only. See the package comment.
type View struct {
	variant   fsm.Variant
	threshold int
	heaps     []*heapState
	byRel     map[uint32]int
	lanes     []lane
	nInitial  int
	nHeaps    int // heaps given by the setup (the others came with events)
	counters  Counters
	h         viewkit.History[step] // the events applied (the lanes' last events are its tops)
	token     *byte
	// extensionsFirst is Setup.ExtensionsFirst.
	extensionsFirst bool
}

// New returns the view of the state s describes.
func New(s Setup) *View {
	thr := s.Threshold
	if thr == 0 {
		thr = fsm.HeapFSMCreationThreshold
	}
	v := &View{variant: s.Variant, threshold: thr, byRel: map[uint32]int{}, token: new(byte), extensionsFirst: s.ExtensionsFirst}
	v.lanes = viewkit.NewLanes(s.Backends, newLane)
	v.nInitial = len(v.lanes)
	for _, hs := range s.Heaps {
		if _, dup := v.byRel[hs.Rel]; dup {
			panic(fmt.Sprintf("fsmview: relation %d given twice", hs.Rel))
		}
		h := &heapState{rel: hs.Rel, name: hs.Name, fillfactor: hs.FillFactor, relpages: hs.RelPages,
			pages: append([]uint64(nil), hs.Pages...)}
		h.forks[bufmgr.MainForkNum] = fsm.ForkWord(true, hs.Main)
		h.forks[bufmgr.FSMForkNum] = fsm.ForkWord(hs.FSMExists || hs.FSM > 0, hs.FSM)
		h.forks[bufmgr.VMForkNum] = fsm.ForkWord(hs.VMExists || hs.VM > 0, hs.VM)
		h.fsm = make([]*fsmPage, hs.FSM)
		for _, ps := range hs.FSMPages {
			if ps.Phys >= hs.FSM {
				panic(fmt.Sprintf("fsmview: FSM page %d of relation %d beyond its fork of %d", ps.Phys, hs.Rel, hs.FSM))
			}
			h.fsm[ps.Phys] = &fsmPage{nodes: ps.Nodes, next: ps.NextSlot, owner: v.token}
		}
		if h.fillfactor == 0 {
			h.fillfactor = fsm.HeapDefaultFillFactor
		}
		v.byRel[hs.Rel] = len(v.heaps)
		v.heaps = append(v.heaps, h)
	}
	v.nHeaps = len(v.heaps)
	for _, t := range s.Targets {
		l := v.lane(t.Actor)
		l.targets = append(l.targets, target{rel: t.Rel, blk: t.Block})
	}
	for _, m := range s.LocalMaps {
		l := v.lane(m.Actor)
		l.local = localMap{nblocks: uint32(len(m.Entries)), rel: m.Rel, m: append([]uint8(nil), m.Entries...)}
	}
	return v
}

// Clone returns an independent copy of v, history included (both can
// Unapply the events applied so far). FSM pages are shared until either
// view writes one (copy on write); heap page words, lanes and local maps
// are copied.
func (v *View) Clone() *View {
	c := *v
	c.heaps = make([]*heapState, len(v.heaps))
	for i, h := range v.heaps {
		c.heaps[i] = h.clone()
	}
	c.byRel = make(map[uint32]int, len(v.byRel))
	for k, i := range v.byRel {
		c.byRel[k] = i
	}
	c.lanes = append([]lane(nil), v.lanes...)
	for i := range c.lanes {
		c.lanes[i].targets = append([]target(nil), v.lanes[i].targets...)
		c.lanes[i].local.m = append([]uint8(nil), v.lanes[i].local.m...)
	}
	c.h = v.h.Clone()
	v.token, c.token = new(byte), new(byte)
	return &c
}

// Snapshot is Clone without history: the same state, nothing to Unapply.
// Timelines keep snapshots as keyframes.
func (v *View) Snapshot() *View { return viewkit.Snapshot(v) }

// TrimHistory forgets all but the last keep applied events, so that
// Unapply can undo at most keep more; the state shown does not change.
func (v *View) TrimHistory(keep int) { v.h.Trim(keep) }

// ExtensionsFirst says whether the scene keeps the heap's extensions
// first among its counters (Setup.ExtensionsFirst).
func (v *View) ExtensionsFirst() bool { return v.extensionsFirst }

// lane returns actor a's lane, adding lanes (named as trace.ActorName
// does) for actors New was not told about.
func (v *View) lane(a trace.Actor) *lane { return viewkit.LaneOf(&v.lanes, a, newLane) }

func newLane(name string) lane { return lane{name: name} }

func (v *View) heap(rel uint32) *heapState {
	if i, ok := v.byRel[rel]; ok {
		return v.heaps[i]
	}
	return nil
}

// writable returns FSM page phys of h for writing, copying it first when
// another view may see it.
func (v *View) writable(h *heapState, phys uint32) *fsmPage {
	if int64(phys) >= int64(len(h.fsm)) {
		panic(fmt.Sprintf("fsmview: write to FSM page %d of relation %d, whose fork has %d", phys, h.rel, len(h.fsm)))
	}
	p := h.fsm[phys]
	if p == nil || p.owner != v.token {
		np := &fsmPage{owner: v.token}
		if p != nil {
			np.nodes, np.next = p.nodes, p.next
		}
		h.fsm[phys] = np
		p = np
	}
	return p
}

// --- Reads: heaps and pages ---

// Variant is the variant the setup named.
func (v *View) Variant() fsm.Variant { return v.variant }

// Threshold is small-skip's HEAP_FSM_CREATION_THRESHOLD.
func (v *View) Threshold() int { return v.threshold }

// Heap is one heap as the view shows it.
type Heap struct {
	Rel        uint32
	Name       string
	FillFactor int
	NBlocks    uint32 // the main fork's size
	FSMExists  bool
	FSMBlocks  uint32
	VMExists   bool
	VMBlocks   uint32
	RelPages   uint32 // pg_class.relpages, as the last VACUUM set it
}

func (h *heapState) show() Heap {
	name := h.name
	if name == "" {
		name = fmt.Sprint(h.rel)
	}
	return Heap{Rel: h.rel, Name: name, FillFactor: h.fillfactor, NBlocks: h.nblocks(bufmgr.MainForkNum),
		FSMExists: h.exists(bufmgr.FSMForkNum), FSMBlocks: h.nblocks(bufmgr.FSMForkNum),
		VMExists: h.exists(bufmgr.VMForkNum), VMBlocks: h.nblocks(bufmgr.VMForkNum), RelPages: h.relpages}
}

// Heaps lists the heaps: the setup's in its order, then those that came
// with events.
func (v *View) Heaps() []Heap {
	out := make([]Heap, len(v.heaps))
	for i, h := range v.heaps {
		out[i] = h.show()
	}
	return out
}

// Heap returns the heap of relation rel.
func (v *View) Heap(rel uint32) (Heap, bool) {
	if h := v.heap(rel); h != nil {
		return h.show(), true
	}
	return Heap{}, false
}

// HeapPage is one heap page as the view shows it.
type HeapPage struct {
	Block    uint32
	Word     uint64       // fsm.HeapPage.Word
	Info     fsm.PageInfo // the word unpacked: pd_lower, pd_upper, tuples, flags
	Free     int          // PageGetHeapFreeSpace
	Category uint8        // the category of Free (what VACUUM would record)
	// Recorded is what the map's leaf says of the block (0 when the leaf
	// page does not exist: HasLeaf false).
	Recorded uint8
	HasLeaf  bool
}

// HeapPage returns block blk of relation rel (a new page when the view
// knows nothing of it).
func (v *View) HeapPage(rel, blk uint32) HeapPage {
	hp := HeapPage{Block: blk}
	h := v.heap(rel)
	if h == nil {
		return hp
	}
	hp.Word = h.page(blk)
	hp.Info = fsm.UnpackHeapWord(hp.Word)
	hp.Free = hp.Info.FreeSpace()
	hp.Category = fsm.SpaceAvailToCat(hp.Free)
	hp.Recorded, hp.HasLeaf = v.RecordedCat(rel, blk)
	return hp
}

// RecordedCat is the category the map's leaf records for heap block blk,
// and whether that leaf page exists.
func (v *View) RecordedCat(rel, blk uint32) (uint8, bool) {
	h := v.heap(rel)
	if h == nil {
		return 0, false
	}
	a, slot := fsm.Location(blk)
	phys := a.Physical()
	if int64(phys) >= int64(len(h.fsm)) {
		return 0, false
	}
	return h.fsmAt(phys).nodes[fsm.NonLeafNodesPerPage+int(slot)], true
}

// FSMPage is one page of the map as the view shows it.
type FSMPage struct {
	Phys     uint32      // the block in the FSM fork
	Addr     fsm.Address // its level and logical page number
	Root     uint8       // fp_nodes[0]: the most any slot below records
	NextSlot int32       // fp_next_slot
}

// FSMPages lists relation rel's FSM pages in physical order (every block
// of the fork).
func (v *View) FSMPages(rel uint32) []FSMPage {
	h := v.heap(rel)
	if h == nil {
		return nil
	}
	out := make([]FSMPage, len(h.fsm))
	for phys := range h.fsm {
		p := h.fsmAt(uint32(phys))
		out[phys] = FSMPage{Phys: uint32(phys), Addr: fsm.AddressOf(uint32(phys)), Root: p.nodes[0], NextSlot: p.next}
	}
	return out
}

// FSMPage returns FSM block phys of relation rel, and false when the fork
// does not reach it.
func (v *View) FSMPage(rel, phys uint32) (FSMPage, bool) {
	h := v.heap(rel)
	if h == nil || int64(phys) >= int64(len(h.fsm)) {
		return FSMPage{}, false
	}
	p := h.fsmAt(phys)
	return FSMPage{Phys: phys, Addr: fsm.AddressOf(phys), Root: p.nodes[0], NextSlot: p.next}, true
}

// Node returns node n of FSM block phys of relation rel (0 for a page or
// node that does not exist).
func (v *View) Node(rel, phys uint32, n int) uint8 {
	h := v.heap(rel)
	if h == nil || n < 0 || n >= fsm.NodesPerPage {
		return 0
	}
	return h.fsmAt(phys).nodes[n]
}

// Nodes returns a copy of FSM block phys's tree (all zero for a page the
// fork does not reach: ok false).
func (v *View) Nodes(rel, phys uint32) (nodes [fsm.NodesPerPage]uint8, ok bool) {
	h := v.heap(rel)
	if h == nil || int64(phys) >= int64(len(h.fsm)) {
		return nodes, false
	}
	return h.fsmAt(phys).nodes, true
}

// Slot returns slot s (leaf node NonLeafNodesPerPage+s) of FSM block phys.
func (v *View) Slot(rel, phys uint32, s int) uint8 {
	if s < 0 || s >= fsm.SlotsPerFSMPage {
		return 0
	}
	return v.Node(rel, phys, fsm.NonLeafNodesPerPage+s)
}

// --- Reads: backends ---

// NumLanes is the number of lanes (index = actor; lane 0 is the system).
func (v *View) NumLanes() int { return len(v.lanes) }

// LaneName is actor a's name.
func (v *View) LaneName(a trace.Actor) string {
	if int(a) < len(v.lanes) {
		return v.lanes[a].name
	}
	return trace.ActorName(a)
}

// TrailShown reports whether actor a's search's trail (Search.Trail) is
// shown, by the rule every view's trails follow (viewkit.TrailShown):
// while its operation runs, and after it ends until the next operation
// begins in the view, any backend's. Cost: a look at every lane.
func (v *View) TrailShown(a trace.Actor) bool {
	return viewkit.LaneTrailShown(a, len(v.lanes), func(b trace.Actor) viewkit.Span {
		s := v.Lane(b).Search
		return viewkit.Span{Has: s.HasOp, Done: s.Phase == PhaseDone || s.Phase == PhaseError, Seq: s.OpSeq, End: s.EndSeq}
	})
}

// LocalMap is a backend's small-skip local map.
type LocalMap struct {
	NBlocks uint32 // the heap size it was built for; 0: no map (or not yet: fsm_local_set sets it last)
	Rel     uint32 // the relation it is for (0 with no map)
	// Entries are the NBlocks entries, 1 AVAIL (worth trying), 0
	// NOT_AVAIL; with no size set, those up to the last AVAIL one (a map
	// being built).
	Entries []uint8
}

// Lane is what the view shows of one backend.
type Lane struct {
	// LaneHead: the backend, its last event the view applied, its
	// counters (Stats.Stats gives the engine's fsm.Stats of its session).
	viewkit.LaneHead[Counters]
	// Search is the backend's operation in progress (or its last one,
	// Phase PhaseDone or PhaseError): where the search for a page is.
	Search   Search
	LocalMap LocalMap
}

// Lane returns actor a's lane (an empty one for an actor never seen).
func (v *View) Lane(a trace.Actor) Lane {
	var l lane
	if int(a) < len(v.lanes) {
		l = v.lanes[a]
	}
	out := Lane{LaneHead: viewkit.HeadOf(&v.h, a, v.LaneName(a), l.stats), Search: noSearch, LocalMap: l.local.show()}
	if top := v.h.ActorTop(a); top != nil {
		out.Search = *top.Data.search
	}
	return out
}

// show is the local map as Lane gives it: the entries of the size it was
// built for or, while fsm_local_set writes them (before it sets the size)
// or after a clear, up to the last AVAIL one.
func (m localMap) show() LocalMap {
	n := min(int(m.nblocks), len(m.m))
	if m.nblocks == 0 {
		for n = len(m.m); n > 0 && m.m[n-1] == 0; n-- {
		}
	}
	if n == 0 {
		return LocalMap{}
	}
	return LocalMap{NBlocks: m.nblocks, Rel: m.rel, Entries: append([]uint8(nil), m.m[:n]...)}
}

// TargetBlock is actor a's cached target block for relation rel
// (RelationGetTargetBlock), or fsm.InvalidBlockNumber.
func (v *View) TargetBlock(a trace.Actor, rel uint32) uint32 {
	h := v.heap(rel)
	if h == nil || int(a) >= len(v.lanes) {
		return fsm.InvalidBlockNumber
	}
	for _, t := range v.lanes[a].targets {
		if t.rel == rel {
			if t.gen == h.gen {
				return t.blk
			}
			return fsm.InvalidBlockNumber
		}
	}
	return fsm.InvalidBlockNumber
}

// rawTarget is the backend's cached target for rel as set (stale or not).
func (l *lane) rawTarget(rel uint32) priorTarget {
	for _, t := range l.targets {
		if t.rel == rel {
			return priorTarget{t: t, ok: true}
		}
	}
	return priorTarget{}
}

// restoreTarget puts back what rawTarget returned for rel.
func (l *lane) restoreTarget(rel uint32, p priorTarget) {
	for i := range l.targets {
		if l.targets[i].rel == rel {
			if p.ok {
				l.targets[i] = p.t
			} else {
				l.targets = append(l.targets[:i], l.targets[i+1:]...)
			}
			return
		}
	}
	if p.ok {
		l.targets = append(l.targets, p.t)
	}
}

func (l *lane) setTarget(rel, blk uint32, gen uint64) {
	for i := range l.targets {
		if l.targets[i].rel == rel {
			l.targets[i] = target{rel: rel, blk: blk, gen: gen}
			return
		}
	}
	l.targets = append(l.targets, target{rel: rel, blk: blk, gen: gen})
}

// --- Reads: current event, counters ---

// Current is the event applied last, if any.
func (v *View) Current() (trace.Event, bool) { return v.h.Current() }

// Applied is the number of events applied, net of those unapplied
// (events the view ignores do not count).
func (v *View) Applied() int { return v.h.Applied() }

// HistoryLen is how many of the applied events Unapply can still undo.
func (v *View) HistoryLen() int { return v.h.Len() }

// Counters returns the counters of every backend together.
func (v *View) Counters() Counters { return v.counters }
