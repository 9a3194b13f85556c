package fsmview

import (
	"fmt"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/trace"
	"bufferlab/viz/viewkit"
)

// Counters count what the FSM and the insert path did. Those named like
// fsm.Stats fields count exactly what the engine counts there (Stats
// converts); the others are extra.
type Counters struct {
	// Buffer accesses (ReadBuffer calls that succeeded: the pool's KHit
	// and KMiss events) of the heaps' forks.
	HeapReads, FSMReads, VMReads uint64
	// Pages added to each fork (KForkSize).
	HeapExtends, FSMExtends, VMExtends uint64
	// HeapExtensions counts the heap's extensions: one a page at 15
	// (RelationGetBufferForTuple), one an ExtendBufferedRelBy call of up
	// to 64 pages at 16 and later (RelationAddBlocks).
	HeapExtensions            uint64
	FSMSkipped                uint64 // KFSMSkip: FSM pages not read, the fork missing or short
	Searches                  uint64 // fsm_search calls (fsmsearch.begin)
	Restarts                  uint64 // fsm_search restarts (a stale parent, a block past the end)
	StaleParents              uint64 // fsmsearch.fix-parent
	TornRepairs               uint64 // srchavail.torn: a torn page rebuilt
	PagesTried                uint64 // KPageTried: heap pages found too full
	LocalMapBuilds            uint64 // fsm_local_set calls (localset.nblocks)
	LocalMapChecks            uint64 // fsm_local_search entries read
	Inserts, Deletes, Vacuums uint64 // heap_insert, heap_delete, VACUUM done
	SearchSteps               uint64 // KSearchStep on an FSM page: nodes fsm_search_avail read
	NodeStores                uint64 // KCategory and KNodeStore: nodes written
	Errors                    uint64 // KError in an operation
}

// Stats returns the counters the engine keeps in fsm.Stats.
func (c Counters) Stats() fsm.Stats {
	var s fsm.Stats
	s.Reads[bufmgr.MainForkNum], s.Reads[bufmgr.FSMForkNum], s.Reads[bufmgr.VMForkNum] = c.HeapReads, c.FSMReads, c.VMReads
	s.Extends[bufmgr.MainForkNum], s.Extends[bufmgr.FSMForkNum], s.Extends[bufmgr.VMForkNum] = c.HeapExtends, c.FSMExtends, c.VMExtends
	s.FSMSkipped, s.Searches, s.Restarts, s.StaleParents = c.FSMSkipped, c.Searches, c.Restarts, c.StaleParents
	s.TornRepairs, s.PagesTried, s.LocalMapBuilds, s.LocalMapChecks = c.TornRepairs, c.PagesTried, c.LocalMapBuilds, c.LocalMapChecks
	s.Inserts, s.Deletes, s.Vacuums = c.Inserts, c.Deletes, c.Vacuums
	return s
}

// Reads is every buffer access counted.
func (c Counters) Reads() uint64 { return c.HeapReads + c.FSMReads + c.VMReads }

func (c Counters) fields() []uint64 {
	return []uint64{c.HeapReads, c.FSMReads, c.VMReads, c.HeapExtends, c.FSMExtends, c.VMExtends, c.HeapExtensions,
		c.FSMSkipped, c.Searches, c.Restarts, c.StaleParents, c.TornRepairs, c.PagesTried, c.LocalMapBuilds, c.LocalMapChecks,
		c.Inserts, c.Deletes, c.Vacuums, c.SearchSteps, c.NodeStores, c.Errors}
}

// Sites the counters follow (beyond those of search.go).
var (
	sSrchTornSite = trace.SiteOf("srchavail.torn")
	sLocalCheck   = trace.SiteOf("localsearch.check")
)

// The counters fed by where an event is logged, a table for each kind
// counted so: the pages a fork grew by (KForkSize: RelationGetBufferForTuple
// at 15, ExtendBufferedRelBy at 16 and later,
// fsm_extend, vm_extend), fsm_search's starts, restarts and fixed stale
// parents (KLoad), the operations that ended (KOpDone).
var extendCounts, extensionCounts, loadCounts, doneCounts = func() (x, n, l, d viewkit.SiteCounts[Counters]) {
	x, n, l, d = viewkit.SiteCounts[Counters]{}, viewkit.SiteCounts[Counters]{}, viewkit.SiteCounts[Counters]{}, viewkit.SiteCounts[Counters]{}
	x.Add(func(c *Counters) *uint64 { return &c.HeapExtends }, "hio.extend", "extend.fork")
	n.Add(func(c *Counters) *uint64 { return &c.HeapExtensions }, "hio.extend", "extend.fork")
	x.Add(func(c *Counters) *uint64 { return &c.FSMExtends }, "fsmext.extend")
	x.Add(func(c *Counters) *uint64 { return &c.VMExtends }, "vm.extend")
	l.Add(func(c *Counters) *uint64 { return &c.Searches }, "fsmsearch.begin")
	l.Add(func(c *Counters) *uint64 { return &c.Restarts }, "fsmsearch.restart", "fsmsearch.eof-restart")
	l.Add(func(c *Counters) *uint64 { return &c.StaleParents }, "fsmsearch.fix-parent")
	d.Add(func(c *Counters) *uint64 { return &c.Inserts }, "heapins.done")
	d.Add(func(c *Counters) *uint64 { return &c.Deletes }, "heapdel.done")
	d.Add(func(c *Counters) *uint64 { return &c.Vacuums }, "vacuum.done")
	return x, n, l, d
}()

// count adds d (1, or −1 as a wrapped uint64) to the counters e feeds.
// known says whether a read's relation is one of the view's heaps, active
// whether the backend was in an operation before e.
func (c *Counters) count(e trace.Event, d uint64, known, active bool) {
	switch e.Kind {
	case trace.KHit, trace.KMiss:
		if !known {
			return
		}
		switch bufmgr.UnpackTag(e.Arg).ForkNum {
		case bufmgr.MainForkNum:
			c.HeapReads += d
		case bufmgr.FSMForkNum:
			c.FSMReads += d
		case bufmgr.VMForkNum:
			c.VMReads += d
		}
	case trace.KError:
		if e.Class.IsFSM() || active {
			c.Errors += d
		}
	case trace.KForkSize:
		_, b := fsm.UnpackForkWord(e.Before)
		_, a := fsm.UnpackForkWord(e.After)
		extendCounts.Count(c, e, uint64(a-b)*d)
		extensionCounts.Count(c, e, d)
	case trace.KFSMSkip:
		c.FSMSkipped += d
	case trace.KPageTried:
		c.PagesTried += d
	case trace.KCategory, trace.KNodeStore:
		c.NodeStores += d
	case trace.KSearchStep:
		switch {
		case e.Site == sLocalCheck:
			c.LocalMapChecks += d
		case e.Class == trace.OFSMNode:
			c.SearchSteps += d
			if e.Site == sSrchTornSite {
				c.TornRepairs += d
			}
		}
	case trace.KLocalMapSize:
		if e.Site == sLocalNblocks {
			c.LocalMapBuilds += d
		}
	case trace.KLoad:
		loadCounts.Count(c, e, d)
	case trace.KOpDone:
		doneCounts.Count(c, e, d)
	}
}

// relevant reports whether the view applies e: the classes the FSM owns
// (trace.MFSM), and of the buffer pool's (trace.MPool, or no class) only
// the reads (KHit, KMiss) and errors, which the view counts. Everything
// else (the pool's locks, pins, CASes; the SLRU; a class a later
// mechanism adds) it ignores: the list says what it reads, not what it
// skips.
func relevant(e trace.Event) bool {
	switch o := e.Class.Owner(); {
	case o == trace.MFSM:
		return true
	case e.Kind == trace.KHit || e.Kind == trace.KMiss:
		return e.Class == trace.OBuffer
	case e.Kind == trace.KError:
		return o == trace.MPool || e.Class == trace.ONone
	}
	return false
}

// heapClass reports whether e's Obj is a relation (every FSM class but
// OLocalMap).
func heapClass(c trace.ObjClass) bool { return c.IsFSM() && c != trace.OLocalMap }

// Apply applies e: the view then shows the state just after e. Events must
// come in log order (ApplyChecked checks that each fits).
func (v *View) Apply(e trace.Event) {
	if !relevant(e) {
		return
	}
	created := false
	if heapClass(e.Class) && v.heap(e.Obj) == nil {
		// A heap the setup did not list: it starts empty.
		v.byRel[e.Obj] = len(v.heaps)
		v.heaps = append(v.heaps, &heapState{rel: e.Obj, forks: [3]uint64{fsm.ForkWord(true, 0), 0, 0}})
		created = true
	}
	prev := emptySearch
	if t := v.h.ActorTop(e.Actor); t != nil {
		prev = t.Data.search
	}
	var undo *stepUndo
	if created {
		undo = &stepUndo{created: true}
	}
	if e.Kind == trace.KTarget {
		undo = &stepUndo{created: created, prior: v.lane(e.Actor).rawTarget(e.Obj), hasPrior: true}
	}
	v.lane(e.Actor)
	v.mutate(e, false)
	known, active := v.knownRead(e), prev.Active()
	v.counters.count(e, 1, known, active)
	v.lane(e.Actor).stats.count(e, 1, known, active) // mutate may have added lanes
	v.h.Push(e, step{search: v.nextSearch(prev, e), undo: undo})
}

func (v *View) knownRead(e trace.Event) bool {
	if e.Kind != trace.KHit && e.Kind != trace.KMiss {
		return false
	}
	t := bufmgr.UnpackTag(e.Arg)
	return t.ForkNum <= bufmgr.VMForkNum && v.heap(t.RelNode) != nil
}

// Unapply undoes e, which must be the event applied last (it panics
// otherwise, or when TrimHistory dropped it): every value e wrote goes
// back to its Before, and the current event, the backend's search and the
// counters to what they were. Events the view ignores are ignored.
func (v *View) Unapply(e trace.Event) {
	if !relevant(e) {
		return
	}
	n := v.h.Pop(e, "fsmview")
	prev := emptySearch
	if n.ActorPrev != nil {
		prev = n.ActorPrev.Data.search
	}
	known, active := v.knownRead(e), prev.Active()
	v.counters.count(e, viewkit.MinusOne, known, active)
	v.lane(e.Actor).stats.count(e, viewkit.MinusOne, known, active)
	v.mutate(e, true)
	if u := n.Data.undo; u != nil && u.hasPrior {
		v.lane(e.Actor).restoreTarget(e.Obj, u.prior)
	}
	if u := n.Data.undo; u != nil && u.created {
		delete(v.byRel, e.Obj)
		v.heaps = v.heaps[:len(v.heaps)-1]
	}
}

// UnapplyLast undoes the event applied last and returns it; ok is false
// when there is no history left.
func (v *View) UnapplyLast() (e trace.Event, ok bool) { return viewkit.UnapplyLast(v, &v.h) }

// ApplyChecked is Check then Apply; it applies nothing when Check fails.
func (v *View) ApplyChecked(e trace.Event) error { return viewkit.ApplyChecked(v, e) }

// mutate writes what e changed: After, or back to Before.
func (v *View) mutate(e trace.Event, undo bool) {
	val := viewkit.Written(e, undo)
	switch e.Kind {
	case trace.KNodeStore, trace.KCategory:
		h := v.heap(e.Obj)
		_, phys, node := fsm.UnpackAddr(e.Arg)
		v.writable(h, phys).nodes[node] = uint8(val)
	case trace.KNextSlot:
		h := v.heap(e.Obj)
		_, phys, _ := fsm.UnpackAddr(e.Arg)
		v.writable(h, phys).next = int32(int64(val))
	case trace.KHeapPage:
		h := v.heap(e.Obj)
		_, blk, _ := fsm.UnpackAddr(e.Arg)
		if int64(blk) >= int64(len(h.pages)) {
			if val == 0 {
				return
			}
			h.pages = append(h.pages, make([]uint64, int(blk)+1-len(h.pages))...)
		}
		h.pages[blk] = val
	case trace.KForkSize:
		h := v.heap(e.Obj)
		f, _, _ := fsm.UnpackAddr(e.Arg)
		h.forks[f] = val
		if f == bufmgr.FSMForkNum {
			_, n := fsm.UnpackForkWord(val)
			if int64(n) < int64(len(h.fsm)) {
				h.fsm = h.fsm[:n:n] // a later extension must not reuse the pages cut off
			} else {
				h.fsm = append(h.fsm, make([]*fsmPage, int(n)-len(h.fsm))...)
			}
		}
	case trace.KTarget:
		// Undone by Unapply, which restores the target as it was set
		// (Before is only what RelationGetTargetBlock returned).
		if !undo {
			v.lane(e.Actor).setTarget(e.Obj, uint32(val), v.heap(e.Obj).gen)
		}
	case trace.KLocalMap:
		l := v.lane(trace.Actor(e.Obj))
		if int64(e.Arg) >= int64(len(l.local.m)) {
			l.local.m = append(l.local.m, make([]uint8, int(e.Arg)+1-len(l.local.m))...)
		}
		l.local.m[e.Arg] = uint8(val)
	case trace.KLocalMapSize:
		l := v.lane(trace.Actor(e.Obj))
		l.local.nblocks = uint32(val)
		l.local.rel = 0
		if val != 0 {
			l.local.rel = uint32(e.Arg)
		}
	case trace.KOpDone:
		if e.Site == sVacDone {
			// vac_update_relstats: relpages; Arg 0 says pg_class was
			// rewritten, which makes every backend forget its target.
			h := v.heap(e.Obj)
			h.relpages = uint32(val)
			if e.Arg == 0 {
				if undo {
					h.gen--
				} else {
					h.gen++
				}
			}
		}
	}
}

// Check verifies that e fits the view before it is applied: the page or
// node it names exists, and every value it read or replaced is the
// view's (a node, fp_next_slot, a heap page word, a fork's size, a target
// block, a local map entry or size, relpages, the free space a page
// check read). A log applied in order from the state the setup describes
// passes every check.
func (v *View) Check(e trace.Event) error {
	if !relevant(e) {
		return nil
	}
	bad := func(what string, have, want any) error {
		return fmt.Errorf("fsmview: event %v: %s is %v in the view, the event says %v", e, what, have, want)
	}
	h := v.heap(e.Obj)
	switch {
	case !heapClass(e.Class):
		h = nil
	case h == nil:
		// A heap the view has not seen: Apply adds it, empty.
		h = &heapState{rel: e.Obj, forks: [3]uint64{fsm.ForkWord(true, 0), 0, 0}}
	}
	f, phys, node := fsm.UnpackAddr(e.Arg)
	fsmPageOK := func() error {
		if h == nil || int64(phys) >= int64(len(h.fsm)) {
			n := 0
			if h != nil {
				n = len(h.fsm)
			}
			return fmt.Errorf("fsmview: event %v names FSM block %d of relation %d, whose fork has %d", e, phys, e.Obj, n)
		}
		return nil
	}
	switch e.Kind {
	case trace.KNodeStore, trace.KCategory, trace.KSearchStep:
		if e.Class == trace.OLocalMap {
			l := v.Lane(trace.Actor(e.Obj))
			if e.Arg >= uint64(l.LocalMap.NBlocks) {
				return fmt.Errorf("fsmview: event %v reads entry %d of a local map of %d", e, e.Arg, l.LocalMap.NBlocks)
			}
			if have := l.LocalMap.Entries[e.Arg]; uint64(have) != e.After {
				return bad(fmt.Sprintf("local map entry %d", e.Arg), have, e.After)
			}
			return nil
		}
		if err := fsmPageOK(); err != nil {
			return err
		}
		if node < 0 || node >= fsm.NodesPerPage {
			return fmt.Errorf("fsmview: event %v names node %d", e, node)
		}
		if leaf := node >= fsm.NonLeafNodesPerPage; e.Kind == trace.KCategory && !leaf || e.Kind == trace.KNodeStore && leaf {
			return fmt.Errorf("fsmview: event %v: a %s of node %d", e, e.Kind, node)
		}
		have := uint64(h.fsmAt(phys).nodes[node])
		want := e.Before
		if e.Kind == trace.KSearchStep {
			want = e.After
		}
		if have != want {
			return bad(fmt.Sprintf("node %d of FSM block %d", node, phys), have, want)
		}
	case trace.KNextSlot:
		if err := fsmPageOK(); err != nil {
			return err
		}
		if have := h.fsmAt(phys).next; uint64(int64(have)) != e.Before {
			return bad(fmt.Sprintf("fp_next_slot of FSM block %d", phys), have, int32(int64(e.Before)))
		}
	case trace.KFSMSkip:
		if h != nil {
			if have := fsm.ForkWord(e.Before != 0, uint32(e.After)); h.forks[bufmgr.FSMForkNum] != have {
				ex, n := fsm.UnpackForkWord(h.forks[bufmgr.FSMForkNum])
				return bad("the FSM fork", fmt.Sprintf("exists %v, %d blocks", ex, n), fmt.Sprintf("exists %v, %d blocks", e.Before != 0, e.After))
			}
			if int64(phys) < int64(len(h.fsm)) {
				return fmt.Errorf("fsmview: event %v skips FSM block %d, which exists", e, phys)
			}
		}
	case trace.KHeapPage:
		if have := h.page(phys); have != e.Before {
			return bad(fmt.Sprintf("heap block %d's page word", phys), fmt.Sprintf("%+v", fsm.UnpackHeapWord(have)), fmt.Sprintf("%+v", fsm.UnpackHeapWord(e.Before)))
		}
	case trace.KForkSize:
		if f > bufmgr.VMForkNum {
			return fmt.Errorf("fsmview: event %v: fork %d", e, f)
		}
		if have := h.forks[f]; have != e.Before {
			return bad(fmt.Sprintf("the %s fork", f), have, e.Before)
		}
	case trace.KTarget:
		if have := v.TargetBlock(e.Actor, e.Obj); uint64(have) != e.Before {
			return bad(fmt.Sprintf("%s's target block", v.LaneName(e.Actor)), blockString(have), blockString(uint32(e.Before)))
		}
	case trace.KLocalMap:
		l := v.Lane(trace.Actor(e.Obj))
		var have uint8
		if e.Arg < uint64(len(l.LocalMap.Entries)) {
			have = l.LocalMap.Entries[e.Arg]
		} else if int(trace.Actor(e.Obj)) < len(v.lanes) && e.Arg < uint64(len(v.lanes[e.Obj].local.m)) {
			have = v.lanes[e.Obj].local.m[e.Arg]
		}
		if uint64(have) != e.Before {
			return bad(fmt.Sprintf("local map entry %d", e.Arg), have, e.Before)
		}
	case trace.KLocalMapSize:
		if have := v.Lane(trace.Actor(e.Obj)).LocalMap.NBlocks; uint64(have) != e.Before {
			return bad("the local map's size", have, e.Before)
		}
	case trace.KLoad:
		if e.Site == sHioCheck && h != nil {
			if have := fsm.UnpackHeapWord(h.page(phys)).FreeSpace(); uint64(have) != e.After {
				return bad(fmt.Sprintf("heap block %d's free space", phys), have, e.After)
			}
		}
	case trace.KOpDone:
		if e.Site == sVacDone && h.relpages != uint32(e.Before) {
			return bad("relpages", h.relpages, e.Before)
		}
	}
	return nil
}

func blockString(b uint32) string {
	if b == fsm.InvalidBlockNumber {
		return "none"
	}
	return fmt.Sprint(b)
}
