package bufmgr

import (
	"cmp"
	"fmt"

	"bufferlab/engine/trace"
)

// The dlist variant: a doubly linked list of buffers per relation.
//
// The pgsql-hackers thread "[Patch] Optimize dropping of relation buffers
// using dlist" (seeds 000 and 001; Kirk Jamison, 2019–2020) began by giving
// every relation a list of the buffers that hold its pages, so that
// dropping a small relation walks its list instead of every descriptor in
// the pool. The price is upkeep on the allocation path: every BufferAlloc
// that retags a buffer moves it from its old relation's list to the new
// one's, and InvalidateBuffer unlinks it, each under a lock. The patch was
// abandoned for the per-block lookup that PostgreSQL 14 shipped
// (FindAndDropRelFileNodeBuffers, see drop.go). The seed excerpts show only
// its benchmarks, not its code, so what follows is BufferLab's
// reconstruction [I], not the patch:
//
//   - a shared table of list heads keyed by RelFileNode, each head with its
//     own LWLock (the table's own locking, for creating entries, is not
//     modelled: an entry appears on first use and is never removed);
//   - per descriptor, the links relPrev/relNext and the list it is on
//     (kept beside the descriptors, allocated only when the option is on);
//   - lock order: buffer-mapping partition locks, then list locks (two in
//     BufferAlloc, lower RelFileNode first), then the header spinlock. The
//     upkeep in BufferAlloc runs after the retag while the mapping locks
//     are still held; InvalidateBuffer takes the list lock after the
//     mapping lock and before relocking the header, and unlinks the buffer
//     just after clearing its tag;
//   - the walk (dropListWalk in dropfind.go) holds the list lock shared only to
//     read a link, never while invalidating, and restarts from the head
//     when the next buffer left the list meanwhile (evicted by another
//     backend): the list only shrinks during a drop, because the dropper
//     holds AccessExclusiveLock on the relation, so restarts are bounded.
//
// Invariant (CheckDList, part of CheckInvariants when the option is on):
// outside a transition, a buffer is on relation R's list exactly when its
// tag is valid and belongs to R. A buffer is in transition while the
// mapping partition of its current tag is held exclusively (BufferAlloc
// between the retag and the upkeep), or while the list it is on, or the
// list of its tag's relation, is locked exclusively (upkeep or
// InvalidateBuffer under way).

// relListNone marks a descriptor that is on no relation's list, and the end
// of a list.
const relListNone int32 = -1

// RelFileNode identifies a relation's storage (relfilenode.h, PG ≤ 15;
// RelFileLocator in PG16+): the relation part of a buffer tag.
type RelFileNode struct {
	SpcNode, DbNode, RelNode uint32
}

// RelFileNode returns the relation part of the tag.
func (t BufferTag) RelFileNode() RelFileNode {
	return RelFileNode{SpcNode: t.SpcNode, DbNode: t.DbNode, RelNode: t.RelNode}
}

// RelFileNode is the relation's storage identity in the simulated
// tablespace and database.
func (r *Relation) RelFileNode() RelFileNode {
	return RelFileNode{SpcNode: DefaultTablespaceOid, DbNode: DefaultDatabaseOid, RelNode: r.Number}
}

// compareRelFileNode orders relfilenodes as rnode_comparator (bufmgr.c,
// PG ≤ 15; rlocator_comparator in PG16+) does: relNode, then dbNode, then
// spcNode.
func compareRelFileNode(a, b RelFileNode) int {
	switch {
	case a.RelNode != b.RelNode:
		return cmp.Compare(a.RelNode, b.RelNode)
	case a.DbNode != b.DbNode:
		return cmp.Compare(a.DbNode, b.DbNode)
	default:
		return cmp.Compare(a.SpcNode, b.SpcNode)
	}
}

// relList is one relation's list head in the shared table.
type relList struct {
	rnode RelFileNode
	lock  LWLock
	head  int32 // first buffer, relListNone when empty
	n     int32 // length
}

// dropList is the dlist variant's shared state: the table of list heads
// and the per-descriptor links.
type dropList struct {
	lists []*relList            // the heads, in creation order (pointers: a backend waiting for a list lock keeps its address across yields)
	index map[RelFileNode]int32 // rnode → position in lists
	prev  []int32               // per buffer: previous on its list
	next  []int32               // per buffer: next on its list
	owner []int32               // per buffer: its list (index into lists), or relListNone
}

func newDropList(nbuffers int) *dropList {
	dl := &dropList{index: map[RelFileNode]int32{}, prev: make([]int32, nbuffers),
		next: make([]int32, nbuffers), owner: make([]int32, nbuffers)}
	for i := range dl.owner {
		dl.prev[i], dl.next[i], dl.owner[i] = relListNone, relListNone, relListNone
	}
	return dl
}

// listFor returns the index of rnode's list head, creating it on first use.
func (dl *dropList) listFor(rnode RelFileNode) int32 {
	if i, ok := dl.index[rnode]; ok {
		return i
	}
	i := int32(len(dl.lists))
	dl.lists = append(dl.lists, &relList{rnode: rnode, head: relListNone})
	dl.index[rnode] = i
	return i
}

// find returns the index of rnode's list head, or relListNone.
func (dl *dropList) find(rnode RelFileNode) int32 {
	if i, ok := dl.index[rnode]; ok {
		return i
	}
	return relListNone
}

// unlink removes buffer id from its list (dlist_delete); the caller holds
// that list's lock exclusively.
func (dl *dropList) unlink(id int32) {
	l := dl.lists[dl.owner[id]]
	p, n := dl.prev[id], dl.next[id]
	if p == relListNone {
		l.head = n
	} else {
		dl.next[p] = n
	}
	if n != relListNone {
		dl.prev[n] = p
	}
	l.n--
	dl.prev[id], dl.next[id], dl.owner[id] = relListNone, relListNone, relListNone
}

// pushHead links buffer id at the head of list k (dlist_push_head); the
// caller holds that list's lock exclusively.
func (dl *dropList) pushHead(k, id int32) {
	l := dl.lists[k]
	dl.prev[id], dl.next[id], dl.owner[id] = relListNone, l.head, k
	if l.head != relListNone {
		dl.prev[l.head] = id
	}
	l.head = id
	l.n++
}

// listLock takes list k's lock in mode. Its events name the relation
// (class rel, Obj = relNumber).
func (b *Backend) listLock(k int32, mode LWLockMode, site trace.Site) {
	l := b.pool.dl.lists[k]
	b.lwAcquire(&l.lock, mode, trace.ORelation, int32(l.rnode.RelNode), site) // counts DListLocks
}

func (b *Backend) listUnlock(k int32, site trace.Site) {
	l := b.pool.dl.lists[k]
	b.lwRelease(&l.lock, trace.ORelation, int32(l.rnode.RelNode), site)
}

// dlistRetag is the dlist upkeep of BufferAlloc, called after the retag of
// d to newTag while the mapping partition locks are still held: take the
// old and the new relation's list locks exclusively (lower RelFileNode
// first, one lock when they are the same list), move d from its old list
// (if it is on one) to the head of the new relation's list, release.
//
// Events: lw-acquire/lw-release on class rel; a cas event at
// dlist.alloc-unlink for the unlink (Obj = old relation, Before = the
// buffer's previous neighbour, After = its next, Arg = buffer id) and one at
// dlist.alloc-link for the link (Obj = new relation, Before = old head,
// After = new head = the buffer, Arg = buffer id).
func (b *Backend) dlistRetag(d *BufferDesc, newTag BufferTag) {
	dl := b.pool.dl
	id := d.bufID
	newK := dl.listFor(newTag.RelFileNode())
	oldK := dl.owner[id]
	first, second := newK, relListNone
	if oldK != relListNone && oldK != newK {
		first, second = oldK, newK
		if compareRelFileNode(dl.lists[newK].rnode, dl.lists[oldK].rnode) < 0 {
			first, second = newK, oldK
		}
	}
	b.listLock(first, LWExclusive, sDListAllocLock)
	if second != relListNone {
		b.listLock(second, LWExclusive, sDListAllocLock)
	}
	// While this backend waited for the list locks, the buffer may have
	// left its old list: a victim taken from the sweep just after
	// InvalidateBuffer cleared its tag, but before that InvalidateBuffer
	// unlinked it (it yields in between, holding the old list's lock,
	// which this backend then waited for). Only InvalidateBuffer unlinks
	// a buffer that is not its own, so it is on its old list or on none.
	if oldK != relListNone && dl.owner[id] == oldK {
		b.step(sDListAllocUnlink)
		p, n := dl.prev[id], dl.next[id]
		dl.unlink(id)
		b.Stats.DListUnlinks++
		b.emit(trace.KCAS, sDListAllocUnlink, trace.ORelation, int32(dl.lists[oldK].rnode.RelNode),
			uint64(int64(p)), uint64(int64(n)), uint64(id))
	}
	b.step(sDListAllocLink)
	oldHead := dl.lists[newK].head
	dl.pushHead(newK, id)
	b.Stats.DListLinks++
	b.emit(trace.KCAS, sDListAllocLink, trace.ORelation, int32(newTag.RelNode),
		uint64(int64(oldHead)), uint64(id), uint64(id))
	if second != relListNone {
		b.listUnlock(second, sDListAllocUnlock)
	}
	b.listUnlock(first, sDListAllocUnlock)
}

// DropListEnabled reports whether the pool keeps per-relation buffer lists
// (Options.DropList).
func (p *Pool) DropListEnabled() bool { return p.dl != nil }

// RelListBuffers returns the buffers on rnode's list, head first (nil when
// the option is off or the list is empty). It takes no lock and emits no
// event: an inspection for views and tests.
func (p *Pool) RelListBuffers(rnode RelFileNode) []int {
	if p.dl == nil {
		return nil
	}
	k := p.dl.find(rnode)
	if k == relListNone {
		return nil
	}
	var out []int
	for id := p.dl.lists[k].head; id != relListNone && len(out) <= p.NBuffers; id = p.dl.next[id] {
		out = append(out, int(id))
	}
	return out
}

// RelLists returns the relations that have a list head, in creation order.
func (p *Pool) RelLists() []RelFileNode {
	if p.dl == nil {
		return nil
	}
	out := make([]RelFileNode, len(p.dl.lists))
	for i := range p.dl.lists {
		out[i] = p.dl.lists[i].rnode
	}
	return out
}

// RelListLock returns the state of rnode's list lock.
func (p *Pool) RelListLock(rnode RelFileNode) LWLock {
	if p.dl == nil {
		return LWLock{}
	}
	if k := p.dl.find(rnode); k != relListNone {
		return p.dl.lists[k].lock
	}
	return LWLock{}
}

// CheckDList verifies the dlist invariants (see the top of dlist.go) and
// returns the first one broken, or nil; nil too when the option is off.
// Every list is well formed at every point (links symmetric, acyclic,
// lengths right, each node's owner its list); membership is checked for
// every buffer not in transition.
func (p *Pool) CheckDList() error {
	dl := p.dl
	if dl == nil {
		return nil
	}
	seen := make([]bool, p.NBuffers)
	for k := range dl.lists {
		l := dl.lists[k]
		n := int32(0)
		prev := relListNone
		for id := l.head; id != relListNone; id = dl.next[id] {
			if id < 0 || int(id) >= p.NBuffers {
				return fmt.Errorf("dlist of %d: link %d out of range", l.rnode.RelNode, id)
			}
			if seen[id] {
				return fmt.Errorf("dlist of %d: buffer %d reached twice (a cycle, or on two lists)", l.rnode.RelNode, id)
			}
			seen[id] = true
			if dl.owner[id] != int32(k) {
				return fmt.Errorf("dlist of %d holds buffer %d, whose owner is list %d", l.rnode.RelNode, id, dl.owner[id])
			}
			if dl.prev[id] != prev {
				return fmt.Errorf("dlist of %d: buffer %d's prev is %d, want %d", l.rnode.RelNode, id, dl.prev[id], prev)
			}
			prev = id
			n++
		}
		if n != l.n {
			return fmt.Errorf("dlist of %d has %d buffers but records %d", l.rnode.RelNode, n, l.n)
		}
	}
	for i := range p.descs {
		if !seen[i] && (dl.owner[i] != relListNone || dl.prev[i] != relListNone || dl.next[i] != relListNone) {
			return fmt.Errorf("buffer %d is on no list but has owner %d, links %d/%d", i, dl.owner[i], dl.prev[i], dl.next[i])
		}
		d := &p.descs[i]
		s := d.state.Load()
		valid := s&BmTagValid != 0
		if p.dlistInTransition(i, valid) {
			continue
		}
		own := dl.owner[i]
		switch {
		case valid && own == relListNone:
			return fmt.Errorf("buffer %d holds %v but is on no relation's list", i, d.tag)
		case valid && dl.lists[own].rnode != d.tag.RelFileNode():
			return fmt.Errorf("buffer %d holds %v but is on the list of %d", i, d.tag, dl.lists[own].rnode.RelNode)
		case !valid && own != relListNone:
			return fmt.Errorf("buffer %d has no valid tag (%s) but is on the list of %d", i, StateString(s), dl.lists[own].rnode.RelNode)
		}
	}
	return nil
}

// dlistInTransition reports whether buffer i may legitimately disagree with
// the lists right now (see the top of dlist.go).
func (p *Pool) dlistInTransition(i int, valid bool) bool {
	dl := p.dl
	d := &p.descs[i]
	if own := dl.owner[i]; own != relListNone && dl.lists[own].lock.Excl != 0 {
		return true
	}
	if !valid {
		return false
	}
	if p.parts[BufTableHashPartition(BufTableHashCode(d.tag))].lock.Excl != 0 {
		return true
	}
	if k := dl.find(d.tag.RelFileNode()); k != relListNone && dl.lists[k].lock.Excl != 0 {
		return true
	}
	return false
}

// dlistUnlinkInvalidated unlinks d, just invalidated, from list k, whose
// lock the caller holds exclusively. Event: a cas at inval.unlink (class
// rel, Obj = relation, Before = the previous neighbour, After = the next,
// Arg = buffer id).
func (b *Backend) dlistUnlinkInvalidated(d *BufferDesc, k int32) {
	dl := b.pool.dl
	id := d.bufID
	switch dl.owner[id] {
	case k:
	case relListNone:
		return // never linked (cannot happen for a buffer with a valid tag)
	default:
		panic(fmt.Sprintf("bufmgr: InvalidateBuffer of buffer %d: it is on the list of %d, not %d",
			id, dl.lists[dl.owner[id]].rnode.RelNode, dl.lists[k].rnode.RelNode))
	}
	b.step(sInvalUnlink)
	p, n := dl.prev[id], dl.next[id]
	dl.unlink(id)
	b.Stats.DListUnlinks++
	b.emit(trace.KCAS, sInvalUnlink, trace.ORelation, int32(dl.lists[k].rnode.RelNode), uint64(int64(p)), uint64(int64(n)), uint64(id))
}
