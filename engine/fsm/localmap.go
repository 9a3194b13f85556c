package fsm

import (
	"fmt"

	"bufferlab/engine/trace"
)

// The small-skip variant: the PostgreSQL 12 development patch "Avoid
// creation of the free space map for small heap relations" (John Naylor,
// Amit Kapila; b0eaa4c51b with its follow-ups, reverted by 7db0cde6b5 on
// 2019-05-07 before 12 was released). A heap of at most
// HEAP_FSM_CREATION_THRESHOLD pages gets no FSM; to find space an inserter
// builds a backend-local map marking every other page, counting back from
// the last, as worth trying, and tries them from the end before extending.

// Local map entries (FSM_LOCAL_NOT_AVAIL, FSM_LOCAL_AVAIL).
const (
	localNotAvail = 0
	localAvail    = 1
)

// localMap is FSMLocalMap: the heap size it was built for (0: no map) and
// one entry per block below the threshold. PostgreSQL keeps one per
// backend (a static variable), which is why it must be cleared before the
// backend looks at another relation.
type localMap struct {
	nblocks uint32
	m       []uint8
	heap    *Heap // which heap it was built for (the patch did not record it)
}

// allowWrites is fsm_allow_writes (freespace.c, PG 12 devel): may heap
// block heapblk's free space be written to an FSM? Yes for a block at or
// beyond the threshold, when nblocks (if known) or relpages exceeds the
// threshold, or when the fork exists; otherwise, when nblocks was not
// given, it counts the heap's blocks and returns them too.
func (s *Session) allowWrites(h *Heap, heapblk, nblocks uint32) (bool, uint32) {
	thr := s.store.thr
	rel := h.Rel.Number
	ev := func(site trace.Site, ok bool, v uint32) {
		s.emit(trace.KLoad, site, trace.OFSMRel, rel, uint64(heapblk), b2u(ok), uint64(v))
	}
	if heapblk >= thr {
		ev(sAllowBlk, true, heapblk)
		return true, nblocks
	}
	skipGetNblocks := false
	if nblocks != InvalidBlockNumber {
		if nblocks > thr {
			ev(sAllowNblocks, true, nblocks)
			return true, nblocks
		}
		skipGetNblocks = true
	} else if h.relpages > thr {
		ev(sAllowRelpages, true, h.relpages)
		return true, nblocks
	}
	if h.fsmExists {
		ev(sAllowExists, true, h.FSMBlocks())
		return true, nblocks
	}
	if skipGetNblocks {
		ev(sAllowNo, false, nblocks)
		return false, nblocks
	}
	n := h.NBlocks()
	ev(sAllowCounted, n > thr, n)
	return n > thr, n
}

// localSet is fsm_local_set (freespace.c, PG 12 devel): starting at the
// last block and going down by two, mark blocks available; remember the
// heap's size; mark the cached target block (just tried) not available.
// Trying every other block rather than all kept the patch from being
// slower than the FSM in the authors' tests.
//
// The patch asserts that no map is set. RelationGetBufferForTuple always
// clears it before returning, so only calls made one by one (a lesson
// stepping through GetPageWithFreeSpace) can find one; the model then does
// what a build without assertions did: it writes over the map, keeping
// the entries it does not rewrite.
func (s *Session) localSet(h *Heap, cur uint32) {
	if cur == 0 || cur > uint32(len(s.local.m)) {
		panic(fmt.Sprintf("fsm: fsm_local_set on %s for %d blocks; the map holds %d", h.Rel.Name, cur, len(s.local.m)))
	}
	for blk := cur - 1; ; blk -= 2 {
		s.localSetEntry(blk, localAvail, sLocalSetAvail)
		if blk < 2 {
			break
		}
	}
	old := s.local.nblocks
	s.local.nblocks = cur
	s.local.heap = h
	s.Stats.LocalMapBuilds++ // counted with the event that records the build
	s.emit(trace.KLocalMapSize, sLocalSetNblocks, trace.OLocalMap, uint32(s.b.Actor), uint64(old), uint64(cur), uint64(h.Rel.Number))
	if t := s.TargetBlock(h); t != InvalidBlockNumber && t < cur {
		s.localSetEntry(t, localNotAvail, sLocalSetTarget)
	}
}

func (s *Session) localSetEntry(blk uint32, v uint8, site trace.Site) {
	if int64(blk) >= int64(len(s.local.m)) {
		panic(fmt.Sprintf("fsm: local map entry %d of %d", blk, len(s.local.m)))
	}
	old := s.local.m[blk]
	s.local.m[blk] = v
	s.emit(trace.KLocalMap, site, trace.OLocalMap, uint32(s.b.Actor), uint64(old), uint64(v), uint64(blk))
}

// localSearch is fsm_local_search (freespace.c, PG 12 devel): the highest
// block the map marks available (the last page is likeliest to have room),
// or InvalidBlockNumber.
func (s *Session) localSearch(h *Heap) uint32 {
	if s.local.nblocks == 0 {
		panic("fsm: fsm_local_search without a local map")
	}
	for blk := s.local.nblocks; blk > 0; {
		blk--
		s.Stats.LocalMapChecks++
		v := s.local.m[blk]
		s.emit(trace.KSearchStep, sLocalSearchCheck, trace.OLocalMap, uint32(s.b.Actor), 0, uint64(v), uint64(blk))
		if v == localAvail {
			return blk
		}
	}
	s.emit(trace.KLoad, sLocalSearchNone, trace.OLocalMap, uint32(s.b.Actor), 0, uint64(InvalidBlockNumber), uint64(h.Rel.Number))
	return InvalidBlockNumber
}

// clearLocalMap is FSMClearLocalMap (freespace.c, PG 12 devel): called when
// a page with room was found, after extending the heap, and on abort.
func (s *Session) clearLocalMap() {
	if s.local.nblocks == 0 {
		return
	}
	// One event per entry that changes, then the size, so that a viewer
	// stepping back can restore the map from the events' Before values.
	for blk, v := range s.local.m {
		if v != localNotAvail {
			s.localSetEntry(uint32(blk), localNotAvail, sLocalClear)
		}
	}
	old, rel := s.local.nblocks, s.local.heap.Rel.Number
	s.local.nblocks = 0
	s.local.heap = nil
	s.emit(trace.KLocalMapSize, sLocalClear, trace.OLocalMap, uint32(s.b.Actor), uint64(old), 0, uint64(rel))
}
