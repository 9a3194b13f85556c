package trace

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"strings"

	"bufferlab/engine/internal/enum"
)

// Actor identifies who performed an event: 0 is the system (initialisation,
// the scenario runner), 1.. are simulated backends in declaration order.
type Actor uint16

// System is the actor of events that no backend performs.
const System Actor = 0

// Kind says what happened.
type Kind uint8

// The event kinds. Values are part of the trace hash: append, never reorder.
const (
	KNone Kind = iota
	// State word (BufferDesc.state) operations.
	KLoad    // atomic read of a word; After = value read
	KCAS     // successful compare-and-swap; Before → After
	KCASFail // failed compare-and-swap; Before = expected, After = value found
	KLockHdr // LockBufHdr succeeded (fetch_or BM_LOCKED); Before → After
	KSpin    // LockBufHdr or WaitBufHdrUnlocked found BM_LOCKED set; Arg = spins so far
	KUnlockHdr
	// Lightweight locks and spinlocks.
	KLWAcquire // Arg = mode (LWShared/LWExclusive); Before/After = holder mask
	KLWWait    // could not get the lock now; Arg = mode
	KLWRelease // Arg = mode
	KLWCondFail
	KSpinAcquire // buffer_strategy_lock
	KSpinRelease
	// Mapping table (buf_table.c).
	KMapLookup // Arg = packed tag; After = buffer id or NoBuffer
	KMapInsert // Arg = packed tag; After = NoBuffer if inserted, else the existing id
	KMapDelete // Arg = packed tag; Before = buffer id
	// Replacement (freelist.c).
	KFreelistPop  // Before = old first free, After = new first free; Obj = buffer taken
	KFreelistPush // Obj = buffer pushed
	KClockTick    // Before = nextVictimBuffer before the fetch_add, After = victim
	KClockWrap    // completePasses incremented; After = completePasses
	KUsageDown    // usage count decremented by the sweep; Before/After = state
	KSkipPinned   // the sweep passed a pinned buffer; Arg = trycounter left
	KVictim       // a buffer was chosen as victim; Arg = source (VictimFree/Sweep/Ring)
	KRingAdd      // Arg = ring slot
	KRingReject   // a ring slot's buffer could not be reused
	// Buffer life cycle (bufmgr.c).
	KHit
	KMiss
	KRetag   // Arg = new packed tag, Before = old packed tag
	KIORead  // simulated smgrread of one page; Arg = packed tag; in a read of several blocks (PG 17's smgrreadv: one event per block) Before = the block's place in it, After = its blocks (0 for a one-block read)
	KIOWrite // simulated smgrwrite of a dirty victim; Arg = packed tag
	KIOWait  // waiting for another backend's I/O (WaitIO)
	KPrivRef // private (per-backend) pin count changed; Before → After, Obj = buffer
	KDirty   // MarkBufferDirty
	KError   // a PostgreSQL-level ERROR; Arg = error code
	KOp      // a scenario operation begins; Arg = op code, Obj = relation
	KOpDone  // a scenario operation ended
	KWake    // ProcSendSignal to a waiting backend; Arg = its actor
	// SLRU caches (engine/slru: slru.c, clog.c), on the SLRU classes
	// OBank, OSlot, OSlotIO and OSLRU. A slot word (slru.SlotWord) packs a
	// slot's page number (bits 8–63), page_dirty (bit 2) and page_status
	// (bits 0–1). The SLRU also uses the generic kinds: KLoad (a plain
	// read), KLW* on bank and slot I/O locks, KMapLookup/Insert/Delete on
	// a bank's page → slot table (Arg = page number), KHit, KMiss,
	// KVictim, KIORead, KIOWrite, KIOWait, KDirty (page_dirty set: Before →
	// After slot words), KError, KOp and KOpDone.
	KSlotScan   // a search for a page compares slot Obj; After = its slot word, Arg = the page sought
	KSlotState  // slot Obj's page number, status or dirty flag changed; Before → After (slot words), Arg = page
	KLRUCount   // an LRU counter moved: bank_cur_lru_count of bank Obj, or page_lru_count of slot Obj; Before → After
	KLRUTouch   // SlruRecentlyUsed made slot Obj its bank's newest: page_lru_count Before → After, and bank_cur_lru_count Arg → After
	KCandidate  // the victim search weighs slot Obj (VALID or under I/O): Before = page_lru_count, After = age, Arg = verdict
	KSkipLatest // the victim search passes slot Obj, which holds latest_page_number: Before = page_lru_count, After = age, Arg = the page
	KStore      // a plain store: a byte of slot Obj's page (Before → After, Arg = offset) or latest_page_number (OSLRU, Before → After)
	// The free space map and the heap insert path (engine/fsm:
	// freespace.c, fsmpage.c, hio.c, heapam.c), on the FSM classes
	// OFSMRel, OFSMPage, OFSMNode, OHeapPage and OLocalMap. Obj is the
	// relation's relfilenode (the backend's actor for OLocalMap); Arg packs
	// fork, block and node or line pointer (fsm.PackAddr) unless said
	// otherwise. The FSM also uses the generic kinds KLoad (a value read,
	// a decision), KOp and KOpDone (an operation: heap_insert,
	// RelationGetBufferForTuple, GetPageWithFreeSpace, …) and KError; its
	// pages are read through the buffer pool, whose events interleave.
	KNodeStore    // an inner node of an FSM page's tree written (propagation, rebuild, zeroing): Before → After
	KCategory     // a leaf (slot) of an FSM page written: the category recorded for a heap block or a child page, Before → After
	KSearchStep   // fsm_search_avail reads node Arg: After = its value, Before = the category sought; on OLocalMap, fsm_local_search reads entry Arg
	KNextSlot     // an FSM page's fp_next_slot Before → After (int32 as uint64(int64))
	KFSMSkip      // fsm_readbuf finds the page past the fork's end and reads nothing: Before = the fork exists (0/1), After = its size
	KPageTried    // RelationGetBufferForTuple found heap page Arg too full and let it go: Before = the free space wanted, After = the page's
	KHeapPage     // a heap page's layout changed (init, tuple added or deleted, pruned, all-visible): Before → After page words (fsm.HeapPage.Word)
	KLocalMap     // an entry of backend Obj's small-skip local map: Before → After (0 NOT_AVAIL, 1 AVAIL), Arg = the block
	KLocalMapSize // backend Obj's local map size Before → After (0: no map), Arg = the relation it is for
	KForkSize     // a fork of relation Obj created or extended: Before → After fork words (fsm.ForkWord: exists, blocks)
	KTarget       // backend Actor's cached target block (smgr_targblock) for relation Obj: Before → After
	// A modelled call that frames other events, in PostgreSQL 17's read
	// path (StartReadBuffers, WaitReadBuffers: engine/bufmgr/read17.go):
	// Obj = relation, Before = its first block, After = blocks asked or to
	// read at its start (Arg 0), blocks covered or reads made at its end
	// (Arg 1). The Site says which call.
	KCall
	// A step in the life of an AIO handle, PostgreSQL 18's asynchronous
	// read (engine/aio through engine/bufmgr's read18.go), on class OAIO:
	// Obj = the handle's id, Before = its first block, After = its blocks,
	// Arg = the step (AIOStage, AIOSubmit, ...; the Site says the function)
	// | the relation's number << 8.
	// The actor is who took the step: the issuing backend, or an I/O
	// worker (bufmgr.IOWorkerActor).
	KAIO
	numKinds
)

// The steps of an AIO handle's life (KAIO's Arg), in the order a read
// asynchronously executed goes through them.
const (
	AIOStage    = iota // pgaio_io_stage: the I/O defined and its buffers staged (STAGED)
	AIOSyncIO          // pgaio_io_stage: executed at once by the issuing backend (READ_BUFFERS_SYNCHRONOUSLY, io_method=sync)
	AIOSubmit          // pgaio_submit_staged: SUBMITTED, into the workers' queue
	AIODequeue         // an I/O worker took it from the queue
	AIOComplete        // pgaio_io_process_completion: the buffers valid (COMPLETED_SHARED)
	AIOReclaim         // pgaio_io_reclaim by the issuing backend: IDLE again
	AIOWait            // a backend sleeps until it is complete (pgaio_io_wait)
	NumAIOSteps
)

var kindNames = [numKinds]string{
	KNone: "none", KLoad: "load", KCAS: "cas", KCASFail: "cas-fail", KLockHdr: "lock-hdr",
	KSpin: "spin", KUnlockHdr: "unlock-hdr", KLWAcquire: "lw-acquire", KLWWait: "lw-wait",
	KLWRelease: "lw-release", KLWCondFail: "lw-cond-fail", KSpinAcquire: "spin-acquire",
	KSpinRelease: "spin-release", KMapLookup: "map-lookup", KMapInsert: "map-insert",
	KMapDelete: "map-delete", KFreelistPop: "freelist-pop", KFreelistPush: "freelist-push",
	KClockTick: "clock-tick", KClockWrap: "clock-wrap", KUsageDown: "usage-down",
	KSkipPinned: "skip-pinned", KVictim: "victim", KRingAdd: "ring-add", KRingReject: "ring-reject",
	KHit: "hit", KMiss: "miss", KRetag: "retag", KIORead: "io-read", KIOWrite: "io-write",
	KIOWait: "io-wait", KPrivRef: "private-ref", KDirty: "dirty", KError: "error",
	KOp: "op", KOpDone: "op-done", KWake: "wake",
	KSlotScan: "slot-scan", KSlotState: "slot-state", KLRUCount: "lru-count", KLRUTouch: "lru-touch",
	KCandidate: "candidate", KSkipLatest: "skip-latest", KStore: "store",
	KNodeStore: "node-store", KCategory: "category", KSearchStep: "search-step", KNextSlot: "next-slot",
	KFSMSkip: "fsm-skip", KPageTried: "page-tried", KHeapPage: "heap-page", KLocalMap: "local-map",
	KLocalMapSize: "local-map-size", KForkSize: "fork-size", KTarget: "target-block",
	KCall: "call", KAIO: "aio",
}

func (k Kind) String() string { return enum.Name(kindNames[:], k, "kind") }

// NumKinds is the number of event kinds (KNone included), for tests that
// walk them.
const NumKinds = int(numKinds)

// ObjClass says what kind of object Event.Obj names.
type ObjClass uint8

// Object classes.
const (
	ONone      ObjClass = iota
	OBuffer             // a buffer descriptor; Obj = buf_id
	OPartition          // a buffer-mapping partition; Obj = partition number
	OContent            // a buffer's content lock; Obj = buf_id
	OStrategy           // BufferStrategyControl
	ORelation           // a relation; Obj = relNumber
	OBackend            // a backend's private state; Obj = actor
	// SLRU caches (engine/slru). Pool views ignore these classes (IsSLRU).
	OBank   // an SLRU bank: its lock (PG ≤ 16: ControlLock, bank 0), LRU counter and page table; Obj = bank number
	OSlot   // an SLRU buffer slot (page_number, page_status, page_dirty, page_lru_count); Obj = slot number
	OSlotIO // an SLRU slot's buffer lock, held during its I/O; Obj = slot number
	OSLRU   // an SLRU as a whole (latest_page_number, an operation); Obj = 0, or an operation's operand
	// The free space map and the heap insert path (engine/fsm). Pool views
	// ignore these classes (IsFSM); the buffer accesses they make are the
	// pool's own events.
	OFSMRel   // a relation as the FSM and the insert path see it (fork sizes, target blocks, operations); Obj = relfilenode
	OFSMPage  // an FSM page as a whole (fp_next_slot, a page searched or skipped); Obj = relfilenode, Arg = fsm.PackAddr
	OFSMNode  // a node of an FSM page's binary tree; Obj = relfilenode, Arg = fsm.PackAddr(fsm fork, block, node)
	OHeapPage // a heap page (its layout, a page tried); Obj = relfilenode, Arg = fsm.PackAddr(main fork, block, line pointer)
	OLocalMap // a backend's small-skip local map (PG 12 devel); Obj = the backend's actor
	// PostgreSQL 18's asynchronous I/O (engine/aio through engine/bufmgr).
	OAIO // an AIO handle (PgAioHandle); Obj = its id
	numObjClasses
)

var objNames = [numObjClasses]string{"-", "buf", "part", "content", "strategy", "rel", "backend",
	"bank", "slot", "slot-io", "slru", "fsm-rel", "fsm-page", "fsm-node", "heap-page", "local-map", "aio"}

// Mechanism is the engine package that owns an object class: its events
// are that mechanism's, and only that mechanism's view applies them. A
// class added without an owner belongs to no view (MNone), and
// TestEveryClassHasAnOwner fails until it is given one.
type Mechanism uint8

// Mechanisms.
const (
	MNone Mechanism = iota // no mechanism: ONone (idle padding), or a class not yet given an owner
	MPool                  // the shared buffer pool and its pins, rings and drops (engine/bufmgr)
	MSLRU                  // the SLRU caches, the commit log's (engine/slru)
	MFSM                   // the free space map and the heap insert path (engine/fsm)
	numMechanisms
)

var mechanismNames = [numMechanisms]string{"none", "pool", "slru", "fsm"}

func (m Mechanism) String() string { return enum.Name(mechanismNames[:], m, "mechanism") }

// classOwner is each class's mechanism, beside the class list above.
var classOwner = [numObjClasses]Mechanism{
	ONone:   MNone,
	OBuffer: MPool, OPartition: MPool, OContent: MPool, OStrategy: MPool, ORelation: MPool, OBackend: MPool,
	OBank: MSLRU, OSlot: MSLRU, OSlotIO: MSLRU, OSLRU: MSLRU,
	OFSMRel: MFSM, OFSMPage: MFSM, OFSMNode: MFSM, OHeapPage: MFSM, OLocalMap: MFSM,
	OAIO: MPool,
}

// Owner is the mechanism whose events c's are (MNone for ONone and for a
// class out of range).
func (c ObjClass) Owner() Mechanism {
	if c < numObjClasses {
		return classOwner[c]
	}
	return MNone
}

// NumObjClasses is the number of object classes, for tests that walk them.
const NumObjClasses = int(numObjClasses)

// IsSLRU reports whether c is one of the SLRU classes (OBank, OSlot,
// OSlotIO, OSLRU): events of an SLRU cache, which no buffer-pool view reads.
func (c ObjClass) IsSLRU() bool { return c.Owner() == MSLRU }

// IsFSM reports whether c is one of the free space map classes (OFSMRel,
// OFSMPage, OFSMNode, OHeapPage, OLocalMap): events of the FSM and the
// heap insert path, which no buffer-pool view reads.
func (c ObjClass) IsFSM() bool { return c.Owner() == MFSM }

func (c ObjClass) String() string { return enum.Name(objNames[:], c, "obj") }

// NoBuffer is the value recorded for "no buffer" (PostgreSQL's -1).
const NoBuffer = ^uint64(0)

// Event is one shared-memory operation. It has no pointers and a fixed size.
type Event struct {
	Seq    uint64
	Before uint64
	After  uint64
	Arg    uint64
	Obj    uint32
	Site   Site
	Actor  Actor
	Kind   Kind
	Class  ObjClass
}

// ActorName is how String prints an actor: "sys" for System, then A, B, …, Z,
// then B27, B28, ….
func ActorName(a Actor) string {
	switch {
	case a == System:
		return "sys"
	case a <= 26:
		return string(rune('A' + a - 1))
	default:
		return fmt.Sprintf("B%d", a)
	}
}

// String is the golden text of an event. Values are printed in hex; the
// engine's own formatters decode state words and tags (see bufmgr.Describe).
func (e Event) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%05d %-3s %-12s %-28s %s[%d]", e.Seq, ActorName(e.Actor), e.Kind,
		e.Site, e.Class, e.Obj)
	if e.Before != 0 || e.After != 0 {
		fmt.Fprintf(&b, " %#x->%#x", e.Before, e.After)
	}
	if e.Arg != 0 {
		fmt.Fprintf(&b, " arg=%#x", e.Arg)
	}
	return b.String()
}

// String is the golden text of the whole log, one event per line.
func (l *Log) String() string {
	var b strings.Builder
	for e := range l.Range(0, l.Len()) {
		b.WriteString(e.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// Hash is a stable 64-bit FNV-1a hash of every field of every event, in
// order, over a fixed little-endian encoding, with each site by its name.
// It depends neither on the platform nor on which packages the program
// links, and a nil or empty log hashes to the FNV offset basis.
func (l *Log) Hash() uint64 {
	h := fnv.New64a()
	var buf [40]byte
	for e := range l.Range(0, l.Len()) {
		binary.LittleEndian.PutUint64(buf[0:], e.Seq)
		binary.LittleEndian.PutUint64(buf[8:], e.Before)
		binary.LittleEndian.PutUint64(buf[16:], e.After)
		binary.LittleEndian.PutUint64(buf[24:], e.Arg)
		binary.LittleEndian.PutUint32(buf[32:], e.Obj)
		// The site by name, not by number: site numbers depend on which
		// packages a program links and in what order they register their
		// pseudo-code, names do not.
		binary.LittleEndian.PutUint16(buf[36:], 0)
		buf[38] = byte(e.Kind)
		buf[39] = byte(e.Class)
		h.Write(buf[:])
		h.Write([]byte(e.Site.String()))
		var a [2]byte
		binary.LittleEndian.PutUint16(a[:], uint16(e.Actor))
		h.Write(a[:])
	}
	return h.Sum64()
}
