package fsmview

import (
	"fmt"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/trace"
	"bufferlab/viz/viewkit"
)

// OpKind is the operation a backend runs (the outermost KOp of the FSM
// classes it is in).
type OpKind uint8

// Operations.
const (
	OpNone         OpKind = iota
	OpInsert              // heap_insert (RelationGetBufferForTuple finds the page)
	OpDelete              // heap_delete
	OpVacuum              // VACUUM (lazy_scan_heap, then FreeSpaceMapVacuumRange)
	OpGetPage             // GetPageWithFreeSpace called on its own
	OpRecord              // RecordPageWithFreeSpace called on its own
	OpRecordAndGet        // RecordAndGetPageWithFreeSpace called on its own
	OpFSMVacuum           // FreeSpaceMapVacuum[Range] called on its own
	OpGetBuffer           // RelationGetBufferForTuple called on its own
)

var opNames = [...]string{"none", "heap_insert", "heap_delete", "VACUUM", "GetPageWithFreeSpace",
	"RecordPageWithFreeSpace", "RecordAndGetPageWithFreeSpace", "FreeSpaceMapVacuum", "RelationGetBufferForTuple"}

func (o OpKind) String() string { return viewkit.Name(opNames[:], o, "op") }

// Phase is where an operation is.
type Phase uint8

// Phases.
const (
	PhaseNone      Phase = iota
	PhaseStart           // the operation began
	PhaseFSM             // searching the map (fsm_search, fsm_search_avail)
	PhaseLocal           // small-skip: building or searching the local map
	PhaseTry             // reading a heap page to see whether the tuple fits
	PhaseExtend          // extending the heap by a page
	PhaseRecord          // recording a page's free space in the map
	PhasePut             // the tuple is on its page
	PhaseVacuum          // VACUUM scans the heap
	PhaseFSMVacuum       // FreeSpaceMapVacuum brings the upper levels up to date
	PhaseDone            // the operation ended
	PhaseError           // it ended with an ERROR
)

var phaseNames = [...]string{"none", "start", "fsm search", "local map", "try page", "extend", "record",
	"put", "vacuum", "fsm vacuum", "done", "error"}

func (p Phase) String() string { return viewkit.Name(phaseNames[:], p, "phase") }

// NotSearched is a Visit's Slot while the page was read but not (yet)
// searched.
const NotSearched = -2

// Step is one node an FSM page's tree search read, or one node a write
// changed, on the lit path.
type Step struct {
	Node  int
	Value uint8 // the value read, or written
	Old   uint8 // a write's previous value
	Want  uint8 // a read's category sought
	Write bool
	Site  trace.Site
}

// Qualifies reports whether a read found enough (Value >= Want).
func (s Step) Qualifies() bool { return !s.Write && s.Value >= s.Want }

// Visit is one FSM page an operation accessed: read (through the pool)
// or skipped (past the fork's end: fsm_readbuf read nothing).
type Visit struct {
	Phys    uint32
	Skipped bool
	// Slot is what fsm_search_avail returned on the page: a slot, -1 for
	// none, NotSearched when the page was not searched (a write, VACUUM).
	Slot int
}

// Addr is the visited page's logical address.
func (v Visit) Addr() fsm.Address { return fsm.AddressOf(v.Phys) }

// Verdict is what became of a heap page tried.
type Verdict uint8

// Verdicts.
const (
	TryReading Verdict = iota // read, not checked yet
	TryFull                   // too full: released, the next page asked for
	TryUsed                   // the tuple fits: the target
)

func (v Verdict) String() string {
	return [...]string{"reading", "full", "used"}[v]
}

// Try is one heap page RelationGetBufferForTuple read.
type Try struct {
	Block   uint32
	Free    int // PageGetHeapFreeSpace when checked (-1 before)
	Want    int // the free space wanted
	Verdict Verdict
	Init    bool // the page was new and initialised
}

// LocalCheck is one entry fsm_local_search looked at.
type LocalCheck struct {
	Block uint32
	Avail bool
}

// Caps on the lists a Search keeps (the oldest entries go first; Dropped
// counts them).
const (
	maxPath   = 48
	maxVisits = 48
	maxTries  = 32
	maxChecks = 32
)

// Search is one backend's operation and where its search for a page is:
// what a scene lights. Its lists are immutable (each event that changes
// one makes a new list), so a Search can be kept per event for stepping
// back.
type Search struct {
	HasOp bool
	Op    OpKind
	Rel   uint32
	Phase Phase
	Depth int // operations open (heap_insert > RelationGetBufferForTuple > GetPageWithFreeSpace)

	TupleLen int    // heap_insert's t_len
	Want     int    // the free space wanted on a page (tuple + fillfactor's reserve, or the request)
	MinCat   uint8  // the category the search wants
	Cached   uint32 // the cached target block when the operation looked (InvalidBlockNumber: none)
	Found    uint32 // the block the map (or the local map) returned last (InvalidBlockNumber: none)
	Result   uint32 // the operation's block (InvalidBlockNumber until known)
	Extended bool   // the heap was extended
	Restarts int    // fsm_search restarts

	// The FSM page whose tree is lit, and the path: the nodes the last
	// fsm_search_avail read, or the last fsm_set_avail wrote.
	HasPath    bool
	PathRel    uint32
	PathPage   uint32
	Path       []Step
	NextMoved  bool  // fp_next_slot of the path's page changed
	NextFrom   int32 // … from
	NextTo     int32 // … to
	VacBlock   uint32
	SearchFrom int // index in Visits where the last fsm_search began

	Visits      []Visit // FSM pages read or skipped, in order
	Tries       []Try   // heap pages tried
	LocalChecks []LocalCheck
	// Reads are the buffer accesses of this operation by fork (main, fsm, vm).
	Reads   [3]uint64
	Skips   int // FSM pages not read (fork missing or short)
	Dropped int // list entries dropped (the lists keep the last ones)
	Err     uint64

	// Trail is every node of an FSM page this operation read
	// (fsm_search_avail) or wrote (fsm_set_avail, the parents fixed), in
	// every path and on every page, newest first, at most maxTrail of them:
	// what the tree keeps lit after the path has moved on, until the next
	// operation begins (View.TrailShown). Its nodes are shared between
	// searches (a persistent list: one node an event). OpSeq is the Seq of
	// the operation's first KOp, EndSeq that of its end (0 while it runs).
	Trail         *TrailNode
	OpSeq, EndSeq uint64
}

// TrailNode is one node of a trail: node Node of FSM block Page of
// relation Rel, read or (Write) written; Prev is the one before (nil at
// the trail's start), N the trail's length up to it.
type TrailNode struct {
	Rel, Page uint32
	Node      int
	Write     bool
	Prev      *TrailNode
	N         int
}

// maxTrail is the most nodes a trail keeps: a search reads about 13 nodes
// a page and three pages, an insert writes as many back; a VACUUM that
// records many pages stops lighting more past it.
const maxTrail = 256

// OnTrail reports whether node n of FSM block phys of rel is on the
// trail, and whether the operation wrote it (rather than only read it).
// Cost: a walk of the trail, maxTrail nodes at most.
func (s Search) OnTrail(rel, phys uint32, n int) (on, written bool) {
	for t := s.Trail; t != nil; t = t.Prev {
		if t.Rel == rel && t.Page == phys && t.Node == n {
			on, written = true, written || t.Write
		}
	}
	return on, written
}

func (s *Search) addTrail(rel, phys uint32, node int, write bool) {
	n := 0
	if s.Trail != nil {
		n = s.Trail.N
	}
	if n >= maxTrail {
		return
	}
	s.Trail = &TrailNode{Rel: rel, Page: phys, Node: node, Write: write, Prev: s.Trail, N: n + 1}
}

var noSearch = Search{Cached: fsm.InvalidBlockNumber, Found: fsm.InvalidBlockNumber, Result: fsm.InvalidBlockNumber,
	VacBlock: fsm.InvalidBlockNumber}

var emptySearch = &noSearch

// Active reports whether the operation is between its start and its end.
func (s Search) Active() bool {
	return s.HasOp && s.Phase != PhaseDone && s.Phase != PhaseError && s.Phase != PhaseNone
}

// Current returns the visits of the last fsm_search (the pages it read
// or skipped, root first).
func (s Search) Current() []Visit {
	if s.SearchFrom >= 0 && s.SearchFrom <= len(s.Visits) {
		return s.Visits[s.SearchFrom:]
	}
	return nil
}

// Sites the search follows.
var (
	sHeapInsBegin  = trace.SiteOf("heapins.begin")
	sHeapInsPut    = trace.SiteOf("heapins.put")
	sHeapInsDone   = trace.SiteOf("heapins.done")
	sHeapDelBegin  = trace.SiteOf("heapdel.begin")
	sVacBegin      = trace.SiteOf("vacuum.begin")
	sVacDone       = trace.SiteOf("vacuum.done")
	sGPWFSBegin    = trace.SiteOf("gpwfs.begin")
	sGPWFSDone     = trace.SiteOf("gpwfs.done")
	sGPWFSLocal    = trace.SiteOf("gpwfs.local")
	sRPWFSBegin    = trace.SiteOf("rpwfs.begin")
	sRAGPBegin     = trace.SiteOf("ragp.begin")
	sRAGPLocalNew  = trace.SiteOf("ragp.local-new")
	sRAGPSamePage  = trace.SiteOf("ragp.same-page")
	sRAGPSearch    = trace.SiteOf("ragp.search")
	sFSMVacBegin   = trace.SiteOf("fsmvac.begin")
	sHioBegin      = trace.SiteOf("hio.begin")
	sHioCached     = trace.SiteOf("hio.cached")
	sHioRead       = trace.SiteOf("hio.read")
	sHioInit       = trace.SiteOf("hio.init")
	sHioCheck      = trace.SiteOf("hio.check")
	sHioUse        = trace.SiteOf("hio.use")
	sHioExtend     = trace.SiteOf("hio.extend")
	sHioExtended   = trace.SiteOf("hio.extended")
	sSearchBegin   = trace.SiteOf("fsmsearch.begin")
	sSearchSlot    = trace.SiteOf("fsmsearch.slot")
	sSearchFound   = trace.SiteOf("fsmsearch.found")
	sSearchNone    = trace.SiteOf("fsmsearch.none")
	sSearchRestart = trace.SiteOf("fsmsearch.restart")
	sSearchEOFRst  = trace.SiteOf("fsmsearch.eof-restart")
	sSearchFix     = trace.SiteOf("fsmsearch.fix-parent")
	sSrchRoot      = trace.SiteOf("srchavail.root")
	sRebuild       = trace.SiteOf("rebuild.node")
	sSetAvailLeaf  = trace.SiteOf("setavail.leaf")
	sZeroed        = trace.SiteOf("fsmread.zeroed")
	sLocalNblocks  = trace.SiteOf("localset.nblocks")
	sLocalNone     = trace.SiteOf("localsearch.none")
	sVacPrune      = trace.SiteOf("vacuum.prune")
	sVacEmpty      = trace.SiteOf("vacuum.empty")
	sVacNew        = trace.SiteOf("vacuum.new")
)

var opOfSite = map[trace.Site]OpKind{
	sHeapInsBegin: OpInsert, sHeapDelBegin: OpDelete, sVacBegin: OpVacuum, sGPWFSBegin: OpGetPage,
	sRPWFSBegin: OpRecord, sRAGPBegin: OpRecordAndGet, sFSMVacBegin: OpFSMVacuum, sHioBegin: OpGetBuffer,
}

// appendCapped returns list with x appended, as a new slice (the old one
// is shared with earlier searches), keeping at most n entries; dropped
// says whether the oldest went.
func appendCapped[T any](list []T, x T, n int) (out []T, dropped bool) {
	if len(list) >= n {
		out = make([]T, n)
		copy(out, list[len(list)-n+1:])
		out[n-1] = x
		return out, true
	}
	out = make([]T, len(list)+1)
	copy(out, list)
	out[len(list)] = x
	return out, false
}

// replaceLast returns list with its last entry set to x, as a new slice.
func replaceLast[T any](list []T, x T) []T {
	out := append([]T(nil), list...)
	out[len(out)-1] = x
	return out
}

// nextSearch returns the acting backend's search after e, given its search
// before (prev, never modified). It returns prev itself when e changes
// nothing of it.
func (v *View) nextSearch(prev *Search, e trace.Event) *Search {
	s := *prev
	changed := false
	set := func() { changed = true }
	switch {
	case e.Kind == trace.KHit || e.Kind == trace.KMiss:
		if !prev.Active() {
			break
		}
		tag := bufmgr.UnpackTag(e.Arg)
		if v.heap(tag.RelNode) == nil || tag.ForkNum > bufmgr.VMForkNum {
			break
		}
		s.Reads[tag.ForkNum]++
		if tag.ForkNum == bufmgr.FSMForkNum {
			s.addVisit(Visit{Phys: tag.BlockNum, Slot: NotSearched})
		}
		set()
	case e.Kind == trace.KError:
		if e.Class.IsFSM() || prev.Active() {
			s.Phase, s.Err, s.Depth, s.EndSeq = PhaseError, e.Arg, 0, e.Seq
			if !s.HasOp {
				s.HasOp, s.Rel = true, e.Obj
			}
			set()
		}
	case e.Kind == trace.KOp && e.Class.IsFSM():
		if !prev.Active() || prev.Depth == 0 {
			s = noSearch
			s.HasOp, s.Op, s.Rel, s.Phase = true, opOfSite[e.Site], e.Obj, PhaseStart
			s.OpSeq = e.Seq
		}
		s.Depth++
		switch e.Site {
		case sHeapInsBegin:
			s.TupleLen = int(e.Arg)
		case sHioBegin:
			s.Want = int(e.After)
		case sGPWFSBegin:
			s.MinCat, s.Phase = uint8(e.After), PhaseFSM
			if s.Want == 0 {
				s.Want = int(e.Arg)
			}
		case sRAGPBegin:
			s.MinCat, s.Phase = uint8(e.Arg), PhaseFSM
		case sRPWFSBegin:
			s.Phase = PhaseRecord
		case sFSMVacBegin:
			s.Phase = PhaseFSMVacuum
		case sVacBegin:
			s.Phase = PhaseVacuum
		}
		set()
	case e.Kind == trace.KOpDone && e.Class.IsFSM():
		if !prev.Active() {
			break
		}
		s.Depth--
		switch e.Site {
		case sGPWFSDone, sRAGPSamePage, sRAGPSearch:
			s.Found = uint32(e.After)
		case sHioUse, sHioExtended:
			s.Result = uint32(e.After)
			if e.Site == sHioUse && len(s.Tries) > 0 {
				t := s.Tries[len(s.Tries)-1]
				t.Verdict = TryUsed
				s.Tries = replaceLast(s.Tries, t)
			}
		case sHeapInsDone:
			s.Result = fsm.UnpackTID(e.After).Block
		}
		if s.Depth <= 0 {
			s.Depth, s.Phase, s.EndSeq = 0, PhaseDone, e.Seq
		}
		set()
	case !e.Class.IsFSM() || !prev.Active():
		// Events outside an operation (a lesson's direct calls of
		// functions without one, a torn write) light nothing.
	default:
		changed = s.follow(v, e)
	}
	if !changed {
		return prev
	}
	return &s
}

// follow applies an FSM event inside an active operation.
func (s *Search) follow(v *View, e trace.Event) bool {
	_, phys, node := fsm.UnpackAddr(e.Arg)
	switch e.Kind {
	case trace.KSearchStep:
		if e.Class == trace.OLocalMap {
			s.Phase = PhaseLocal
			var d bool
			s.LocalChecks, d = appendCapped(s.LocalChecks, LocalCheck{Block: uint32(e.Arg), Avail: e.After == 1}, maxChecks)
			s.drop(d)
			return true
		}
		s.Phase = PhaseFSM
		st := Step{Node: node, Value: uint8(e.After), Want: uint8(e.Before), Site: e.Site}
		if e.Site == sSrchRoot || !s.onPath(e.Obj, phys) {
			s.newPath(e.Obj, phys)
		}
		s.addStep(st)
		s.addTrail(e.Obj, phys, node, false)
		return true
	case trace.KCategory, trace.KNodeStore:
		if e.Site == sZeroed || e.Site == sRebuild {
			// A page zeroed or rebuilt rewrites thousands of nodes: the
			// path keeps what led there (the torn step stays lit until
			// the search restarts at the root).
			return false
		}
		st := Step{Node: node, Value: uint8(e.After), Old: uint8(e.Before), Write: true, Site: e.Site}
		if e.Site == sSetAvailLeaf || !s.onPath(e.Obj, phys) {
			s.newPath(e.Obj, phys)
		}
		s.addStep(st)
		s.addTrail(e.Obj, phys, node, true)
		return true
	case trace.KNextSlot:
		if !s.onPath(e.Obj, phys) {
			return false
		}
		s.NextMoved, s.NextFrom, s.NextTo = true, int32(int64(e.Before)), int32(int64(e.After))
		return true
	case trace.KFSMSkip:
		s.Skips++
		s.addVisit(Visit{Phys: phys, Skipped: true, Slot: NotSearched})
		return true
	case trace.KPageTried:
		if len(s.Tries) > 0 {
			t := s.Tries[len(s.Tries)-1]
			t.Verdict = TryFull
			s.Tries = replaceLast(s.Tries, t)
		}
		return true
	case trace.KHeapPage:
		switch e.Site {
		case sHioInit:
			if len(s.Tries) > 0 {
				t := s.Tries[len(s.Tries)-1]
				t.Init = true
				s.Tries = replaceLast(s.Tries, t)
			}
		case sHeapInsPut:
			s.Phase, s.Result = PhasePut, phys
		case sVacPrune:
			s.Phase, s.VacBlock = PhaseVacuum, phys
		default:
			return false
		}
		return true
	case trace.KForkSize:
		if e.Site == sHioExtend {
			s.Phase, s.Extended = PhaseExtend, true
			return true
		}
		return false
	case trace.KLocalMap, trace.KLocalMapSize:
		if e.Site == sLocalNblocks {
			s.Phase = PhaseLocal
			return true
		}
		return false
	case trace.KLoad:
		switch e.Site {
		case sSearchBegin:
			s.Phase, s.MinCat, s.SearchFrom, s.Found = PhaseFSM, uint8(e.After), len(s.Visits), fsm.InvalidBlockNumber
		case sSearchSlot:
			slot := int(int64(e.After))
			if e.After == fsm.NoSlot {
				slot = -1
			}
			for i := len(s.Visits) - 1; i >= s.SearchFrom && i >= 0; i-- {
				if s.Visits[i].Phys == phys && s.Visits[i].Slot == NotSearched {
					vis := append([]Visit(nil), s.Visits...)
					vis[i].Slot = slot
					s.Visits = vis
					return true
				}
			}
			s.addVisit(Visit{Phys: phys, Slot: slot})
		case sSearchFound:
			s.Found = uint32(e.After)
		case sSearchNone:
			s.Found = fsm.InvalidBlockNumber
		case sSearchRestart, sSearchEOFRst:
			s.Restarts++
		case sSearchFix:
			// The parent's slot is fixed next: a write on the parent page.
		case sGPWFSLocal, sRAGPLocalNew:
			s.Phase = PhaseLocal
		case sLocalNone:
			s.Found = fsm.InvalidBlockNumber
		case sHioCached:
			s.Cached = uint32(e.After)
		case sHioRead:
			s.Phase = PhaseTry
			var d bool
			s.Tries, d = appendCapped(s.Tries, Try{Block: uint32(e.After), Free: -1}, maxTries)
			s.drop(d)
		case sHioCheck:
			if len(s.Tries) > 0 {
				t := s.Tries[len(s.Tries)-1]
				t.Free, t.Want = int(e.After), int(e.Before)
				s.Tries = replaceLast(s.Tries, t)
			}
		case sVacEmpty, sVacNew:
			s.Phase, s.VacBlock = PhaseVacuum, phys
		default:
			return false
		}
		return true
	}
	return false
}

func (s *Search) drop(d bool) {
	if d {
		s.Dropped++
	}
}

func (s *Search) onPath(rel, phys uint32) bool {
	return s.HasPath && s.PathRel == rel && s.PathPage == phys
}

func (s *Search) newPath(rel, phys uint32) {
	s.HasPath, s.PathRel, s.PathPage, s.Path, s.NextMoved = true, rel, phys, nil, false
	s.NextFrom, s.NextTo = 0, 0
}

func (s *Search) addStep(st Step) {
	var d bool
	s.Path, d = appendCapped(s.Path, st, maxPath)
	s.drop(d)
}

func (s *Search) addVisit(vis Visit) {
	var d bool
	s.Visits, d = appendCapped(s.Visits, vis, maxVisits)
	if d {
		s.Dropped++
		s.SearchFrom = max(0, s.SearchFrom-1)
	}
}

// Text describes the search in one line, for a backend's row.
func (v *View) Text(s Search) string {
	if !s.HasOp {
		return "idle"
	}
	h, _ := v.Heap(s.Rel)
	name := h.Name
	if name == "" {
		name = fmt.Sprint(s.Rel)
	}
	out := fmt.Sprintf("%s %s", s.Op, name)
	if s.TupleLen > 0 {
		out += fmt.Sprintf(" (%d B tuple)", s.TupleLen)
	}
	if s.Want > 0 {
		out += fmt.Sprintf(", wants %d B free", s.Want)
	}
	// The category the request rounds up to: the search's own when it
	// searched, else fsm_space_needed_to_cat of what it wanted (a page
	// recorded one category lower does not qualify).
	minCat := int(s.MinCat)
	if minCat == 0 && s.Want > 0 {
		if c, err := fsm.SpaceNeededToCat(s.Want); err == nil {
			minCat = int(c)
		}
	}
	if minCat > 0 {
		out += fmt.Sprintf(" = category ≥ %d", minCat)
	}
	switch s.Phase {
	case PhaseFSM:
		out += ": searching the map"
		if s.HasPath {
			out += fmt.Sprintf(" (FSM block %d, %s)", s.PathPage, fsm.AddressOf(s.PathPage))
		}
	case PhaseLocal:
		out += ": local map"
	case PhaseTry:
		if n := len(s.Tries); n > 0 {
			t := s.Tries[n-1]
			out += fmt.Sprintf(": tries block %d", t.Block)
			if t.Free >= 0 {
				out += fmt.Sprintf(" (%d B free)", t.Free)
			}
		}
	case PhaseExtend:
		out += ": extends the heap"
	case PhaseRecord:
		out += ": records free space"
	case PhasePut:
		out += fmt.Sprintf(": tuple put on block %d", s.Result)
	case PhaseVacuum:
		if s.VacBlock != fsm.InvalidBlockNumber {
			out += fmt.Sprintf(": block %d", s.VacBlock)
		}
	case PhaseFSMVacuum:
		out += ": vacuums the map"
	case PhaseDone:
		if s.Result != fsm.InvalidBlockNumber {
			out += fmt.Sprintf(" → block %d", s.Result)
		} else if s.Found != fsm.InvalidBlockNumber {
			out += fmt.Sprintf(" → block %d", s.Found)
		}
		out += ", done"
	case PhaseError:
		out += fmt.Sprintf(": ERROR %d", s.Err)
	}
	return out
}
