package fsm

import (
	"fmt"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
)

// Page is the contents of one FSM page (FSMPageData, fsm_internals.h)
// after its 24-byte page header: fp_next_slot and the binary max-tree of
// NodesPerPage one-byte nodes, stored as an implicit heap. Node 0 is the
// root, the children of node i are 2i+1 and 2i+2, its parent (i-1)/2; slot
// s is leaf node NonLeafNodesPerPage+s. Every inner node holds the maximum
// of its children, except on a torn page (FSM pages are not WAL-logged, so
// a crash can leave a partial write), which the search detects and
// rebuilds. The zero value is an initialised empty page.
type Page struct {
	nodes    [NodesPerPage]uint8
	nextSlot int32 // fp_next_slot: where the next search starts
}

// Node returns node i (0 for a number outside [0, NodesPerPage)).
func (p *Page) Node(i int) uint8 {
	if i < 0 || i >= NodesPerPage {
		return 0
	}
	return p.nodes[i]
}

// Nodes returns a copy of the tree.
func (p *Page) Nodes() [NodesPerPage]uint8 { return p.nodes }

// NextSlot is fp_next_slot.
func (p *Page) NextSlot() int32 { return p.nextSlot }

// SetNextSlot sets fp_next_slot (any value: the search treats one out of
// range as 0, as PostgreSQL does with a garbled hint).
func (p *Page) SetNextSlot(v int32) { p.nextSlot = v }

// SetNode writes node i without fixing anything above or below it: how a
// test or a lesson makes a torn page. It reports false, changing nothing,
// for a node number outside [0, NodesPerPage).
func (p *Page) SetNode(i int, v uint8) bool {
	if i < 0 || i >= NodesPerPage {
		return false
	}
	p.nodes[i] = v
	return true
}

// GetAvail is fsm_get_avail: the value of slot (0 for a slot outside
// [0, SlotsPerFSMPage)).
func (p *Page) GetAvail(slot int) uint8 {
	if slot < 0 || slot >= SlotsPerFSMPage {
		return 0
	}
	return p.nodes[NonLeafNodesPerPage+slot]
}

// MaxAvail is fsm_get_max_avail: the root's value.
func (p *Page) MaxAvail() uint8 { return p.nodes[0] }

// SetAvail is fsm_set_avail without events; see setAvail. A slot outside
// [0, SlotsPerFSMPage) changes nothing and reports false.
func (p *Page) SetAvail(slot int, value uint8) bool {
	if slot < 0 || slot >= SlotsPerFSMPage {
		return false
	}
	return p.setAvail(nil, slot, value)
}

// SearchAvail is fsm_search_avail without events; see searchAvail.
func (p *Page) SearchAvail(minValue uint8, advanceNext bool) int {
	slot, _ := p.searchAvail(nil, minValue, advanceNext, nil)
	return slot
}

// Rebuild is fsm_rebuild_page without events.
func (p *Page) Rebuild() bool { return p.rebuild(nil) }

// TruncateAvail is fsm_truncate_avail (fsmpage.c): zero every slot from
// nslots on and rebuild the inner nodes if that changed anything. nslots
// outside [0, SlotsPerFSMPage) changes nothing.
func (p *Page) TruncateAvail(nslots int) bool {
	if nslots < 0 || nslots >= SlotsPerFSMPage {
		return false
	}
	changed := false
	for i := NonLeafNodesPerPage + nslots; i < NodesPerPage; i++ {
		if p.nodes[i] != 0 {
			changed = true
			p.nodes[i] = 0
		}
	}
	if changed {
		p.rebuild(nil)
	}
	return changed
}

// Consistent reports whether every inner node is the maximum of its
// children (the invariant a torn page breaks).
func (p *Page) Consistent() bool {
	for n := NonLeafNodesPerPage - 1; n >= 0; n-- {
		if p.nodes[n] != p.childMax(n) {
			return false
		}
	}
	return true
}

func leftChild(x int) int { return 2*x + 1 }
func parentOf(x int) int  { return (x - 1) / 2 }

// rightNeighbor is rightneighbor (fsmpage.c): the next node to the right
// on the same level, wrapping to the level's leftmost node. Stepping past
// the rightmost node lands on the leftmost node of the level below,
// numbered 2^k - 1, which the (x+1)&x test recognises; its parent is the
// leftmost node of x's level.
func rightNeighbor(x int) int {
	x++
	if (x+1)&x == 0 {
		x = parentOf(x)
	}
	return x
}

func (p *Page) childMax(n int) uint8 {
	var v uint8
	l := leftChild(n)
	if l < NodesPerPage {
		v = p.nodes[l]
	}
	if l+1 < NodesPerPage {
		v = max(v, p.nodes[l+1])
	}
	return v
}

// setAvail is fsm_set_avail (fsmpage.c, PG 8.4–18): set a leaf and
// propagate the change upwards until a node already holds the maximum of
// its children. When the new value is still above the root afterwards the
// page was torn and is rebuilt. It reports whether the page changed (the
// caller then marks the buffer dirty with MarkBufferDirtyHint: FSM changes
// are not WAL-logged). The caller holds the page exclusively.
func (p *Page) setAvail(t *tracer, slot int, value uint8) bool {
	nodeno := NonLeafNodesPerPage + slot
	old := p.nodes[nodeno]
	if old == value && value <= p.nodes[0] {
		return false
	}
	p.nodes[nodeno] = value
	t.store(sSetAvailLeaf, nodeno, uint64(old), uint64(value))
	for {
		nodeno = parentOf(nodeno)
		nv := p.childMax(nodeno)
		ov := p.nodes[nodeno]
		if ov == nv {
			break
		}
		p.nodes[nodeno] = nv
		t.store(sSetAvailParent, nodeno, uint64(ov), uint64(nv))
		if nodeno == 0 {
			break
		}
	}
	if value > p.nodes[0] {
		t.load(sSetAvailCorrupt, 0, p.nodes[0])
		p.rebuild(t)
	}
	return true
}

// rebuild is fsm_rebuild_page (fsmpage.c): recompute every inner node from
// the last one up to the root. It reports whether any changed.
func (p *Page) rebuild(t *tracer) bool {
	changed := false
	for n := NonLeafNodesPerPage - 1; n >= 0; n-- {
		nv := p.childMax(n)
		if ov := p.nodes[n]; ov != nv {
			p.nodes[n] = nv
			changed = true
			t.store(sRebuildNode, n, uint64(ov), uint64(nv))
		}
	}
	return changed
}

// maxTornRepairs bounds the search's restarts after a rebuild. One rebuild
// makes the page consistent, after which the descent cannot fail, so the
// bound is never reached; it guards against a bug looping for ever.
const maxTornRepairs = 2

// searchAvail is fsm_search_avail (fsmpage.c, PG 8.4–18): find a slot
// whose value is at least minValue, or -1. If the root is too small there
// is none. Otherwise start at fp_next_slot's leaf (0 when out of range) and
// climb: while the node is too small, step to its right neighbour
// (wrapping within the level) and up to that one's parent. Each step
// doubles the searched triangle without looking left of the start (except
// by wrapping), so N slots cost O(log N). Then descend, preferring the left
// child. If neither child qualifies the page is torn: rebuild it and
// restart. Finally fp_next_slot = slot (+1 if advanceNext), even under a
// shared lock. It returns the slot and how many torn-page repairs it made
// (the caller dirties the buffer if any); each repair also adds one to
// *torn (when not nil) as it is found, before its event.
func (p *Page) searchAvail(t *tracer, minValue uint8, advanceNext bool, torn *uint64) (slot, repaired int) {
restart:
	t.step(sSearchRoot, 0, p.nodes[0], minValue)
	if p.nodes[0] < minValue {
		return -1, repaired
	}
	target := int(p.nextSlot)
	if target < 0 || target >= LeafNodesPerPage {
		target = 0
	}
	nodeno := NonLeafNodesPerPage + target
	for nodeno > 0 {
		t.step(sSearchClimb, nodeno, p.nodes[nodeno], minValue)
		if p.nodes[nodeno] >= minValue {
			break
		}
		nodeno = parentOf(rightNeighbor(nodeno))
	}
	for nodeno < NonLeafNodesPerPage {
		c := leftChild(nodeno)
		if c < NodesPerPage {
			t.step(sSearchLeft, c, p.nodes[c], minValue)
			if p.nodes[c] >= minValue {
				nodeno = c
				continue
			}
		}
		c++
		if c < NodesPerPage {
			t.step(sSearchRight, c, p.nodes[c], minValue)
			if p.nodes[c] >= minValue {
				nodeno = c
				continue
			}
		}
		// The parent promised a child with enough, neither has it: a
		// torn page. PostgreSQL logs "fixing corrupt FSM block",
		// takes the lock exclusively, rebuilds and starts over.
		if torn != nil {
			*torn++
		}
		t.step(sSearchTorn, nodeno, p.nodes[nodeno], minValue)
		if repaired >= maxTornRepairs {
			panic(fmt.Sprintf("fsm: page still inconsistent after %d rebuilds (node %d)", repaired, nodeno))
		}
		p.rebuild(t)
		repaired++
		goto restart
	}
	slot = nodeno - NonLeafNodesPerPage
	old := p.nextSlot
	p.nextSlot = int32(slot)
	if advanceNext {
		p.nextSlot++
	}
	t.store(sSearchNextSlot, NodeNextSlot, uint64(int64(old)), uint64(int64(p.nextSlot)))
	return slot, repaired
}

// Special node numbers in an event's address (see PackAddr).
const (
	// NodeNextSlot stands for fp_next_slot.
	NodeNextSlot = 0xFFFE
	// NodePage stands for the whole page (or block).
	NodePage = 0xFFFF
)

// PackAddr packs what an event of this package touches into its Arg:
// fork<<48 | block<<16 | node. For FSM pages node is a tree node
// (NodeNextSlot for fp_next_slot), for heap pages a line pointer (offset
// number), NodePage for the page as a whole.
func PackAddr(f bufmgr.ForkNumber, blk uint32, node int) uint64 {
	return uint64(f&3)<<48 | uint64(blk)<<16 | uint64(node&0xFFFF)
}

// UnpackAddr decodes PackAddr.
func UnpackAddr(a uint64) (f bufmgr.ForkNumber, blk uint32, node int) {
	return bufmgr.ForkNumber(a >> 48 & 3), uint32(a >> 16), int(a & 0xFFFF)
}

// tracer sends the events of one FSM page to a session's log. A nil
// *tracer sends nothing, which is what untraced sessions pass.
type tracer struct {
	s    *Session
	rel  uint32
	phys uint32
}

// load is a plain read of a node (KLoad).
func (t *tracer) load(site trace.Site, node int, v uint8) {
	if t != nil {
		t.s.emit(trace.KLoad, site, trace.OFSMNode, t.rel, 0, uint64(v), PackAddr(bufmgr.FSMForkNum, t.phys, node))
	}
}

// step is a node read by fsm_search_avail looking for minValue
// (KSearchStep: After = the node's value, Before = minValue).
func (t *tracer) step(site trace.Site, node int, v, minValue uint8) {
	if t != nil {
		t.s.emit(trace.KSearchStep, site, trace.OFSMNode, t.rel, uint64(minValue), uint64(v), PackAddr(bufmgr.FSMForkNum, t.phys, node))
	}
}

// store records a write, made just before, of a node (KCategory for a
// leaf, KNodeStore for an inner node) or of fp_next_slot (KNextSlot).
func (t *tracer) store(site trace.Site, node int, old, v uint64) {
	if t != nil {
		k, c := storeKind(node)
		t.s.emit(k, site, c, t.rel, old, v, PackAddr(bufmgr.FSMForkNum, t.phys, node))
	}
}

// storeKind is the kind and class of a write of node (or NodeNextSlot).
func storeKind(node int) (trace.Kind, trace.ObjClass) {
	switch {
	case node == NodeNextSlot:
		return trace.KNextSlot, trace.OFSMPage
	case node >= NonLeafNodesPerPage:
		return trace.KCategory, trace.OFSMNode
	}
	return trace.KNodeStore, trace.OFSMNode
}
