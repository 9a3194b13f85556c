package drop

import (
	"fmt"
	"sync/atomic"
	"unsafe"

	"bufferlab/engine/bufmgr"
)

// The full scan over PostgreSQL's descriptor layout (issue 13, item 18).
//
// The engine's BufferDesc is compact: 36 bytes (DescSize), the content
// lock kept apart. PostgreSQL 15's is 52 bytes, padded to a cache line:
// BufferDescPadded, 64 bytes on 64-bit machines (BUFFERDESC_PAD_TO_SIZE,
// buf_internals.h, PG 9.5+), in an array that starts on a cache-line
// boundary (ShmemAllocRaw's CACHELINEALIGN, shmem.c). The full scan of
// DropRelFileNodeBuffers and DropRelFileNodesAllBuffers reads each
// descriptor's tag.rnode (relNode, dbNode, spcNode: RelFileNodeEquals,
// relfilenode.h) without the header lock, so it touches one cache line per
// buffer; over the compact layout it touches 36/64 of one, and a scan
// timed there streams about half the bytes PostgreSQL's does.
//
// A DropPool built without the per-relation lists keeps a copy of its
// descriptors in PostgreSQL's layout (PaddedDescs), in step with the pool:
// every read writes its buffer's tag and state word there, and the scan
// writes the tag it finds after the locked part (cleared when the buffer
// was invalidated, as CLEAR_BUFFERTAG does in InvalidateBuffer). The drop
// experiment's full scan of the table's cells and of the one-block speedup
// runs over it (dropScanPadded): the unlocked pre-check on the padded
// array, then, for a buffer of the relation, the engine's locked half
// (Backend.DropBufferLocked: LockBufHdr, the re-check, InvalidateBuffer).
// That locked half works on the engine's descriptor, a second cache line
// PostgreSQL's scan does not touch: one extra line per buffer dropped,
// nothing for a one-block relation against a pass over NBuffers lines, but
// enough per block to move the threshold finder's crossover, so the finder
// combines the engine's scan with the two pre-check passes instead
// (DropSweepPoint). The engine's own scan over its compact descriptors is
// kept as a labelled what-if.

// PGBufferTag is BufferTag (buf_internals.h, PG 15): rnode (RelFileNode:
// spcNode, dbNode, relNode), forkNum, blockNum. 20 bytes.
type PGBufferTag struct {
	SpcNode, DbNode, RelNode uint32
	ForkNum                  int32
	BlockNum                 uint32
}

// PGLWLock is LWLock (lwlock.h, PG 15, without LOCK_DEBUG): tranche,
// the atomic state, and the waiters' proclist_head (head, tail). 16 bytes.
type PGLWLock struct {
	Tranche                  uint16
	State                    atomic.Uint32
	WaitersHead, WaitersTail int32
}

// PGBufferDesc is BufferDesc (buf_internals.h, PG 15): the tag, buf_id,
// the state word, wait_backend_pgprocno, freeNext and content_lock. 52
// bytes.
type PGBufferDesc struct {
	Tag                 PGBufferTag
	BufID               int32
	State               atomic.Uint32
	WaitBackendPgprocno int32
	FreeNext            int32
	ContentLock         PGLWLock
}

// BufferDescPadToSize is BUFFERDESC_PAD_TO_SIZE on a 64-bit machine: one
// cache line.
const BufferDescPadToSize = 64

// PGBufferDescPadded is BufferDescPadded: a BufferDesc padded to
// BUFFERDESC_PAD_TO_SIZE bytes.
type PGBufferDescPadded struct {
	Desc PGBufferDesc
	_    [BufferDescPadToSize - unsafe.Sizeof(PGBufferDesc{})]byte
}

// PaddedDescBytes is the size of PGBufferDescPadded: 64.
const PaddedDescBytes = int(unsafe.Sizeof(PGBufferDescPadded{}))

// NewPaddedDescs returns n descriptors in PostgreSQL's layout, the first
// on a 64-byte boundary (as BufferDescriptors is in shared memory), with
// buf_id set and empty tags. The type holds no pointers, so the array can
// live in a byte slice allocated a cache line larger and sliced at the
// boundary.
func NewPaddedDescs(n int) []PGBufferDescPadded {
	if n <= 0 {
		return nil
	}
	raw := make([]byte, n*PaddedDescBytes+BufferDescPadToSize-1)
	off := 0
	if m := int(uintptr(unsafe.Pointer(&raw[0])) % BufferDescPadToSize); m != 0 {
		off = BufferDescPadToSize - m
	}
	d := unsafe.Slice((*PGBufferDescPadded)(unsafe.Pointer(&raw[off])), n)
	for i := range d {
		d[i].Desc.BufID = int32(i)
		d[i].Desc.FreeNext = -2 // FREENEXT_NOT_IN_LIST: not kept in step
	}
	return d
}

// setPaddedTag copies a buffer's tag into the padded copy.
func setPaddedTag(d *PGBufferDesc, t bufmgr.BufferTag) {
	d.Tag = PGBufferTag{SpcNode: t.SpcNode, DbNode: t.DbNode, RelNode: t.RelNode, ForkNum: int32(t.ForkNum), BlockNum: t.BlockNum}
}

// syncPadded copies buffer id's tag and state word from the pool into the
// padded copy.
func (dp *DropPool) syncPadded(id int) {
	src := dp.Pool.Desc(id)
	d := &dp.Padded[id].Desc
	setPaddedTag(d, src.Tag())
	d.State.Store(src.State())
}

// dropScanPadded is DropRelFileNodeBuffers' full scan (bufmgr.c, PG 14–15)
// over PostgreSQL's layout, for fork fork from block first: for every
// descriptor, the unlocked pre-check of tag.rnode (RelFileNodeEquals:
// relNode, then dbNode, then spcNode); for a buffer of the relation, the
// locked half in the engine, and the tag written back. Nothing is
// allocated.
func (dp *DropPool) dropScanPadded(rel *bufmgr.Relation, fork bufmgr.ForkNumber, first uint32) error {
	descs := dp.Padded
	if descs == nil {
		return fmt.Errorf("drop pool: no descriptors in PostgreSQL's layout (a pool with the per-relation lists)")
	}
	be := dp.Backend
	be.Stats.DropDescsTouched += uint64(len(descs))
	r := rel.RelFileNode()
	for i := range descs {
		t := &descs[i].Desc.Tag
		if t.RelNode != r.RelNode || t.DbNode != r.DbNode || t.SpcNode != r.SpcNode {
			continue
		}
		gone, err := be.DropBufferLocked(i, rel, fork, first)
		if err != nil {
			return err
		}
		if gone {
			*t = PGBufferTag{} // CLEAR_BUFFERTAG, in InvalidateBuffer
		} else {
			dp.syncPadded(i) // a false positive: the tag had moved on
		}
	}
	return nil
}
