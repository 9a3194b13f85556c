package bufmgr

import "fmt"

// CheckInvariants verifies the pool's invariants and returns the first one
// broken, or nil. It may be called after any event: each invariant is
// stated so that it holds at every point where a backend can be suspended.
//
//   - usage count ≤ BM_MAX_USAGE_COUNT for every buffer;
//   - refcount = the number of backends with a private entry for the buffer,
//     plus one while an AIO read owns it (PostgreSQL 18: its io_wref set);
//   - a buffer that is VALID has a tag; an untagged buffer has usage 0 and is
//     neither DIRTY nor VALID (nothing about a page is lost with its tag);
//   - every mapping entry sits in the partition its tag hashes to, so a tag
//     is mapped at most once;
//   - in every partition not held exclusively (no BufferAlloc mid-flight
//     there), each entry tag → id names a buffer holding that tag with
//     BM_TAG_VALID, and each tagged buffer whose tag belongs there is mapped
//     to itself;
//   - the freelist is acyclic and holds exactly the buffers whose freeNext
//     is not FREENEXT_NOT_IN_LIST;
//   - the mapping table never exceeds NBuffers + NUM_BUFFER_PARTITIONS entries;
//   - with Options.DropList, the per-relation buffer lists agree with the
//     tags (CheckDList).
func (p *Pool) CheckInvariants() error {
	holders := make(map[Buffer]int)
	for _, b := range p.backends {
		for _, pin := range b.Pins() {
			holders[pin.Buffer]++
			if pin.Count < 0 {
				return fmt.Errorf("backend %s has private count %d on buffer %d", b.Name, pin.Count, pin.Buffer)
			}
		}
	}
	for i := range p.descs {
		d := &p.descs[i]
		s := d.state.Load()
		if u := StateUsagecount(s); u > BmMaxUsageCount {
			return fmt.Errorf("buffer %d: usage count %d > %d", i, u, BmMaxUsageCount)
		}
		if rc, h := int(StateRefcount(s)), holders[Buffer(i+1)]+p.aioPins(int32(i)); rc != h {
			return fmt.Errorf("buffer %d: refcount %d but %d backends (and AIO) hold a pin", i, rc, h)
		}
		if s&BmTagValid == 0 {
			if s&(BmValid|BmDirty) != 0 || StateUsagecount(s) != 0 {
				return fmt.Errorf("buffer %d: untagged but %s", i, StateString(s))
			}
		}
	}
	total := 0
	mappedTo := make([]int8, len(p.descs))
	for part := range p.parts {
		pt := &p.parts[part]
		excl := pt.lock.Excl != 0
		total += len(pt.m)
		for tag, id := range pt.m {
			if h := BufTableHashPartition(BufTableHashCode(tag)); h != part {
				return fmt.Errorf("tag %v is in partition %d but hashes to %d", tag, part, h)
			}
			if id < 0 || int(id) >= len(p.descs) {
				return fmt.Errorf("tag %v maps to buffer %d, out of range", tag, id)
			}
			mappedTo[id]++
			if excl {
				continue
			}
			d := &p.descs[id]
			if d.state.Load()&BmTagValid == 0 || d.tag != tag {
				return fmt.Errorf("partition %d maps %v to buffer %d, which holds %v (%s)", part, tag, id, d.tag, StateString(d.state.Load()))
			}
		}
	}
	if total > p.NBuffers+NumBufferPartitions {
		return fmt.Errorf("mapping table has %d entries, more than NBuffers+%d", total, NumBufferPartitions)
	}
	for i := range p.descs {
		d := &p.descs[i]
		if d.state.Load()&BmTagValid == 0 {
			continue
		}
		part := BufTableHashPartition(BufTableHashCode(d.tag))
		if p.parts[part].lock.Excl != 0 {
			continue
		}
		if id, ok := p.parts[part].m[d.tag]; !ok || int(id) != i {
			return fmt.Errorf("buffer %d holds %v but the mapping table does not point to it", i, d.tag)
		}
	}
	// The freelist.
	onList := make([]bool, len(p.descs))
	n := 0
	for id := p.firstFreeBuffer; id != FreeNextEndOfList; id = p.descs[id].freeNext {
		if id < 0 || int(id) >= len(p.descs) {
			return fmt.Errorf("freelist link %d out of range", id)
		}
		if onList[id] {
			return fmt.Errorf("freelist has a cycle through buffer %d", id)
		}
		onList[id] = true
		n++
	}
	for i := range p.descs {
		if in := p.descs[i].freeNext != FreeNextNotInList; in != onList[i] {
			return fmt.Errorf("buffer %d: freeNext %d but on freelist = %v", i, p.descs[i].freeNext, onList[i])
		}
	}
	// The dlist variant's per-relation lists (dlist.go), when kept.
	return p.CheckDList()
}

// CheckQuiescent verifies what must hold when no backend is running: no
// lock of any kind is held and no header is locked or doing I/O.
func (p *Pool) CheckQuiescent() error {
	if !p.strategyLock.Free() {
		return fmt.Errorf("buffer_strategy_lock still held")
	}
	for i := range p.parts {
		if !p.parts[i].lock.Free() {
			return fmt.Errorf("buffer mapping partition %d lock still held", i)
		}
	}
	for id, l := range p.content {
		if !l.Free() {
			return fmt.Errorf("buffer %d content lock still held", id)
		}
	}
	for i := range p.descs {
		if s := p.descs[i].state.Load(); s&(BmLocked|BmIOInProgress) != 0 {
			return fmt.Errorf("buffer %d: %s with no backend running", i, StateString(s))
		}
	}
	return p.CheckInvariants()
}
