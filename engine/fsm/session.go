package fsm

import (
	"errors"
	"fmt"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/internal/counters"
	"bufferlab/engine/trace"
)

// Session is one backend working on a store's heaps: its bufmgr.Backend
// (every page it touches is read through it), its per-relation cached
// insertion target (smgr_targblock, RelationGetTargetBlock), the
// small-skip patch's backend-local map, and its counters. Events go to the
// pool's log under the backend's actor.
type Session struct {
	store *Store
	b     *bufmgr.Backend
	log   *trace.Log
	targ  map[*Heap]cachedTarget
	local localMap
	// Stats are the session's counters.
	Stats Stats
}

type cachedTarget struct {
	blk uint32
	gen uint64
}

// Stats counts what a session did.
type Stats struct {
	// Reads counts ReadBuffer calls by fork (main, fsm, vm): buffer
	// accesses, hits and misses alike.
	Reads [bufmgr.VMForkNum + 1]uint64
	// Extends counts pages added to each fork.
	Extends [bufmgr.VMForkNum + 1]uint64
	// FSMSkipped counts fsm_readbuf calls that read nothing because the
	// fork does not exist or does not reach the page.
	FSMSkipped uint64
	// Searches counts fsm_search calls; Restarts its restarts (a stale
	// parent fixed, or a block past the heap's end zeroed); StaleParents
	// the first kind.
	Searches, Restarts, StaleParents uint64
	// TornRepairs counts fsm_rebuild_page calls made because a search
	// found a torn page.
	TornRepairs uint64
	// PagesTried counts heap pages RelationGetBufferForTuple read and
	// found too full.
	PagesTried uint64
	// LocalMapBuilds and LocalMapChecks count fsm_local_set calls and
	// entries fsm_local_search looked at (small-skip).
	LocalMapBuilds, LocalMapChecks uint64
	Inserts, Deletes, Vacuums      uint64
}

// Add adds o to s.
func (s *Stats) Add(o Stats) { counters.Add(s, o) }

// Sub returns s - o (counters since a snapshot o).
func (s Stats) Sub(o Stats) Stats {
	counters.Sub(&s, o)
	return s
}

// NewSession starts a session on backend b, which must belong to the
// store's pool. A new session, like a new PostgreSQL backend, has no
// cached target blocks and no local map.
func (st *Store) NewSession(b *bufmgr.Backend) (*Session, error) {
	if b == nil {
		return nil, errors.New("fsm: NewSession needs a backend")
	}
	if b.Pool() != st.pool {
		return nil, fmt.Errorf("fsm: backend %s belongs to another buffer pool than the store's", b.Name)
	}
	return &Session{store: st, b: b, log: b.Pool().Log(), targ: map[*Heap]cachedTarget{},
		local: localMap{m: make([]uint8, st.thr)}}, nil
}

// Backend returns the session's backend.
func (s *Session) Backend() *bufmgr.Backend { return s.b }

// Store returns the session's store.
func (s *Session) Store() *Store { return s.store }

// TargetBlock is RelationGetTargetBlock: the block this session last
// inserted into h, or InvalidBlockNumber (a new session, or after a VACUUM
// of h that changed pg_class invalidated the relation's cache entry).
func (s *Session) TargetBlock(h *Heap) uint32 {
	if t, ok := s.targ[h]; ok && t.gen == h.gen {
		return t.blk
	}
	return InvalidBlockNumber
}

// LocalMap returns the small-skip local map: the heap size it was built
// for (0: no map) and its entries (1 = available to try).
func (s *Session) LocalMap() (nblocks uint32, m []uint8) {
	return s.local.nblocks, append([]uint8(nil), s.local.m...)
}

// Abort is what an ERROR does to the session: the transaction aborts,
// every pin the backend holds is released (bufmgr's AbortTransaction), and
// the small-skip local map is cleared (FSMClearLocalMap on abort).
func (s *Session) Abort() {
	s.b.AbortTransaction()
	s.clearLocalMap()
	for _, h := range s.store.heaps {
		if h.newLocked != nil {
			s.unlockNewPage(h) // the content lock of an extension's new page
		}
	}
}

// check validates a heap argument (a caller mistake is an error, not an
// abort).
func (s *Session) check(h *Heap) error {
	if h == nil {
		return errors.New("fsm: no heap given")
	}
	if h.store != s.store {
		return fmt.Errorf("fsm: heap %s belongs to another store than the session's", h.Rel.Name)
	}
	return nil
}

// checkLocal refuses a direct GetPageWithFreeSpace or
// RecordAndGetPageWithFreeSpace on h while the small-skip local map, left
// set by such a call on its own (a lesson's steps), describes another
// heap: the patch's map did not say which relation it was for, and using
// it for another could point past that one's end. (HeapInsert clears a
// leftover map instead.)
func (s *Session) checkLocal(h *Heap) error {
	if s.local.nblocks > 0 && s.local.heap != h {
		return fmt.Errorf("fsm: the session's local map was built for %s, not %s (Abort clears it)", s.local.heap.Rel.Name, h.Rel.Name)
	}
	return nil
}

// guard aborts after a PostgreSQL-level error, as the transaction would.
func (s *Session) guard(err *error) {
	if *err != nil && isPGError(*err) {
		s.Abort()
	}
}

// emit appends an event when the pool has a log.
func (s *Session) emit(k trace.Kind, site trace.Site, c trace.ObjClass, obj uint32, before, after, arg uint64) {
	if s.log != nil {
		s.log.Append(trace.Event{Actor: s.b.Actor, Kind: k, Site: site, Class: c, Obj: obj,
			Before: before, After: after, Arg: arg})
	}
}

// tr returns the tracer of FSM block phys of h (nil when untraced).
func (s *Session) tr(h *Heap, phys uint32) *tracer {
	if s.log == nil {
		return nil
	}
	return &tracer{s: s, rel: h.Rel.Number, phys: phys}
}

// readBuffer reads a block through the buffer pool and counts the access.
func (s *Session) readBuffer(h *Heap, f bufmgr.ForkNumber, blk uint32, strategy *bufmgr.Strategy) (bufmgr.Buffer, error) {
	buf, _, err := s.b.ReadBuffer(h.Rel, f, blk, strategy)
	if err != nil {
		return bufmgr.InvalidBuffer, err
	}
	s.Stats.Reads[f]++
	h.touch(f, blk)
	return buf, nil
}

// release is ReleaseBuffer of a buffer this package pinned; failing is a
// broken invariant.
func (s *Session) release(buf bufmgr.Buffer) {
	if err := s.b.ReleaseBuffer(buf); err != nil {
		panic(fmt.Sprintf("fsm: releasing buffer %d that the session pinned: %v", buf, err))
	}
}

// dirty is MarkBufferDirty (also standing for MarkBufferDirtyHint, which
// bufmgr does not model separately) of a pinned buffer.
func (s *Session) dirty(buf bufmgr.Buffer) {
	if err := s.b.MarkBufferDirty(buf); err != nil {
		panic(fmt.Sprintf("fsm: dirtying buffer %d that the session pinned: %v", buf, err))
	}
}

func (s *Session) setTargetBlock(h *Heap, blk uint32) {
	old := s.TargetBlock(h)
	s.targ[h] = cachedTarget{blk: blk, gen: h.gen}
	s.emit(trace.KTarget, sHioSetTarget, trace.OFSMRel, h.Rel.Number, uint64(old), uint64(blk), PackAddr(bufmgr.MainForkNum, blk, NodePage))
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
