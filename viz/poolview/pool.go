package poolview

import (
	"fmt"
	"sort"
	"sync/atomic"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
	"bufferlab/viz/viewkit"
)

// NoTag is the packed tag of a buffer that has never been tagged (bufmgr's
// noTag, the Before of a KRetag for a buffer without BM_TAG_VALID).
const NoTag = ^uint64(0)

// NoObj is an event's Obj for "no object" (the engine's -1, e.g. a
// ring-reject event on an empty ring slot).
const NoObj = ^uint32(0)

// NumPartitions is NUM_BUFFER_PARTITIONS.
const NumPartitions = bufmgr.NumBufferPartitions

// Storage: everything a Clone shares is copy-on-write, in pieces small
// enough that a keyframe (Snapshot) costs what changed since the last, not
// what the pool holds. Each piece carries the token of the pool that
// exclusively owns it; a pool writes a piece in place when it owns it and
// copies it first otherwise. Clone gives both pools fresh tokens, so each
// copies what it writes next.
//
//	Pool.blocks   directory: one pointer per block (nbuffers/2048; copied by Clone)
//	  block       64 chunk pointers (528 B, 576 allocated; copied on the first write to any of its chunks)
//	    chunk     32 descriptors' words (1,024 B; copied on the first write to one of them)
//	Pool.parts    16 group pointers (inline in Pool, so copied with it)
//	  partGroup   8 partitions' lock and mark words and mapping tables (200 B)
//	    cowMap    a partition's entries in buckets by hash (cowmap.go)
//	Pool.lanes    one lane per backend (name, pin map: a cowMap; copied by Clone)
//	Pool.relNames shared by every clone, never written after New
//
// So Clone allocates the Pool, the directory (64 pointers at 131,072
// buffers, 8 at 16,384), the lanes and the history's per-backend tops;
// the first write after it to a descriptor copies its block and chunk (1.5
// kB), to a partition's words its group, to a mapping entry or a pin count
// one bucket and its map's header. Reads cost a pointer more than a flat
// array: Buffer(i) is blocks[i>>11].chunks[i>>5&63].state[i&31].
const (
	chunkBits  = 5
	chunkSize  = 1 << chunkBits
	chunkMask  = chunkSize - 1
	blockBits  = 6 // chunks per block, in bits
	blockSize  = 1 << blockBits
	blockMask  = blockSize - 1
	blockShift = chunkBits + blockBits // buffers per block, in bits: 2,048

	groupBits = 3 // partitions per group, in bits
	groupSize = 1 << groupBits
	groupMask = groupSize - 1
	numGroups = NumPartitions / groupSize
)

// token identifies the pool that exclusively owns a piece of storage; it
// is not zero-sized so that every new(token) is a distinct pointer.
type token struct{ _ byte }

// chunk is chunkSize descriptors' words: 1,024 bytes, a size class of the
// allocator. It has no owner token (with one it took 1,152 bytes): its
// block says which of its chunks are its owner's (block.owned).
type chunk struct {
	state    [chunkSize]uint32
	freeNext [chunkSize]int32
	tag      [chunkSize]uint64
	content  [chunkSize]uint64
	mark     [chunkSize]uint64 // the trail's mark words (trail.go)
}

// block is blockSize chunks (the last block of a pool whose size is not a
// multiple of 2,048 has nil chunks past its end). Bit c of owned says that
// chunks[c] belongs to the block's owner: made or copied by it through this
// block, and referenced by no other block. A block copied for a new owner
// starts with no chunk of its own.
type block struct {
	owner  *token
	owned  uint64
	chunks [blockSize]*chunk
}

// block.owned has one bit per chunk.
var _ [64 - blockSize]struct{}
var _ [blockSize - 64]struct{}

// partGroup is groupSize mapping partitions.
type partGroup struct {
	owner   *token
	holders [groupSize]uint64  // LWLock holder words: exclusive actor << 48 | shared mask
	mark    [groupSize]uint64  // the trail's mark words (trail.go)
	entries [groupSize]*cowMap // packed tag → buffer id; nil while empty and never written
}

type lane struct {
	name string
	pins *cowMap // buffer id → private count; nil while never written
}

// versions numbers the pools' contents (Version): every Apply and Unapply
// of any pool takes the next number, so two pools with the same version
// are one pool and its clones, none changed since.
var versions atomic.Uint64

// Version changes whenever the pool's content does (every Apply and
// Unapply) and is kept by Clone and Snapshot: equal versions mean equal
// contents, so a scene can tell in O(1) that nothing it draws changed (the
// heat map at 131,072 buffers need not recompute its texels). The numbers
// depend on what else ran in the process: compare them, never print them.
func (p *Pool) Version() uint64 { return p.gen }

// Holds reports whether the backend pins a buffer: its lane then takes
// part in comparisons even without events.
func (l lane) Holds() bool { return l.pins.len() > 0 }

// Pool is the view model of the shared buffer pool: everything the pool
// scene draws, derived from trace events only. See the package comment.
type Pool struct {
	n      int
	gen    uint64 // Version: new with every Apply and Unapply, kept by Clone
	tok    *token
	blocks []*block

	firstFree      int32
	counter        uint32 // nextVictimBuffer, the raw counter
	passes         uint32 // completePasses
	allocs         uint32 // numBufferAllocs
	strategyHolder trace.Actor

	parts [numGroups]*partGroup

	lanes    []lane
	nInitial int               // lanes given to New; later ones appear when an event names them
	relNames map[uint32]string // shared by every clone: never written after New

	counters Counters

	// h is the history: the events applied, each with its backend's
	// operation state after it (the lanes' last events are its tops) and
	// the trail marks it replaced.
	h viewkit.History[nodeData]
}

// nodeData is what the history keeps of an applied event beyond the
// event: its backend's lane information after it (shared between the
// nodes of an operation), and the trail's mark words it replaced
// (noMark: none), which Unapply puts back.
type nodeData struct {
	info               *laneInfo
	prevCell, prevPart uint64
}

// New returns the view of PostgreSQL's initial pool of nbuffers buffers
// (InitBufferPool, StrategyInitialize): every state word 0, no tag, buffer
// i's freeNext = i+1 with the last one ending the list, first free buffer 0,
// clock counter 0, no complete pass, no lock held, an empty mapping table,
// and one lane per backend name (index = actor; [0] is the system, "sys").
// relNames names relations by relfilenode (nil: print numbers).
func New(nbuffers int, relNames map[uint32]string, backendNames []string) *Pool {
	if nbuffers < 1 {
		panic(fmt.Sprintf("view: New with %d buffers", nbuffers))
	}
	p := &Pool{n: nbuffers, gen: versions.Add(1), tok: new(token), relNames: map[uint32]string{}}
	for k, v := range relNames {
		p.relNames[k] = v
	}
	p.blocks = make([]*block, (nbuffers+1<<blockShift-1)>>blockShift)
	for b := range p.blocks {
		p.blocks[b] = &block{owner: p.tok, owned: ^uint64(0)}
	}
	for c := 0; c < (nbuffers+chunkSize-1)/chunkSize; c++ {
		ch := &chunk{}
		for j := 0; j < chunkSize; j++ {
			i := c*chunkSize + j
			ch.freeNext[j] = int32(i + 1)
			ch.tag[j] = NoTag
		}
		p.blocks[c>>blockBits].chunks[c&blockMask] = ch
	}
	p.chunkOf(nbuffers - 1).freeNext[(nbuffers-1)&chunkMask] = bufmgr.FreeNextEndOfList
	for g := range p.parts {
		p.parts[g] = &partGroup{owner: p.tok}
	}
	p.lanes = viewkit.NewLanes(backendNames, newLane)
	p.nInitial = len(p.lanes)
	return p
}

// Clone returns an independent deep copy of p, history included (both can
// Unapply the events applied so far). It is cheap: it copies the Pool, its
// directory of buffer blocks (one pointer per 2,048 buffers), its lanes and
// the history's tops; everything else (blocks, chunks, partition groups,
// mapping and pin buckets, history) is shared and copied on the next write
// by either pool, piece by piece (see Storage above), which is why Clone
// also gives p a fresh ownership token.
func (p *Pool) Clone() *Pool {
	c := *p
	p.tok, c.tok = new(token), new(token)
	c.blocks = append([]*block(nil), p.blocks...)
	c.lanes = append([]lane(nil), p.lanes...)
	c.h = p.h.Clone()
	return &c
}

// Snapshot is Clone without history: the copy shows the same state but
// cannot Unapply anything, and keeps no event chain alive. Timelines keep
// snapshots as keyframes.
func (p *Pool) Snapshot() *Pool { return viewkit.Snapshot(p) }

// --- Writes (copy-on-write) ---

// chunkOf is buffer i's chunk, for reading (i must be in range).
func (p *Pool) chunkOf(i int) *chunk { return p.blocks[i>>blockShift].chunks[i>>chunkBits&blockMask] }

// wchunk is buffer i's chunk, owned by p, and i's index in it: the first
// write after a clone copies the block (528 B) and the chunk (1,024 B).
func (p *Pool) wchunk(i int) (*chunk, int) {
	b := p.blocks[i>>blockShift]
	if b.owner != p.tok {
		nb := *b
		nb.owner, nb.owned = p.tok, 0
		b = &nb
		p.blocks[i>>blockShift] = b
	}
	ci := i >> chunkBits & blockMask
	c := b.chunks[ci]
	if b.owned&(1<<ci) == 0 {
		nc := *c
		c = &nc
		b.chunks[ci] = c
		b.owned |= 1 << ci
	}
	return c, i & chunkMask
}

func (p *Pool) setState(i int, s uint32) { c, j := p.wchunk(i); c.state[j] = s }
func (p *Pool) setTag(i int, t uint64)   { c, j := p.wchunk(i); c.tag[j] = t }
func (p *Pool) setFreeNext(i int, f int32) {
	c, j := p.wchunk(i)
	c.freeNext[j] = f
}
func (p *Pool) setContent(i int, w uint64) { c, j := p.wchunk(i); c.content[j] = w }

// group is partition i's group and i's index in it, for reading.
func (p *Pool) group(i int) (*partGroup, int) { return p.parts[i>>groupBits], i & groupMask }

// wgroup is partition i's group, owned by p, and i's index in it: the
// first write after a clone copies the group (200 B).
func (p *Pool) wgroup(i int) (*partGroup, int) {
	g := p.parts[i>>groupBits]
	if g.owner != p.tok {
		ng := *g
		ng.owner = p.tok
		g = &ng
		p.parts[i>>groupBits] = g
	}
	return g, i & groupMask
}

// wpart is partition i's mapping table, owned by p (its buckets are
// copied as written: cowMap.put, cowMap.del).
func (p *Pool) wpart(i int) *cowMap {
	g, j := p.wgroup(i)
	m := g.entries[j]
	if m == nil || m.owner != p.tok {
		m = m.copyFor(p.tok)
		g.entries[j] = m
	}
	return m
}

// wpins is actor a's pin map, owned by p.
func (p *Pool) wpins(a trace.Actor) *cowMap {
	l := &p.lanes[a]
	if l.pins == nil || l.pins.owner != p.tok {
		l.pins = l.pins.copyFor(p.tok)
	}
	return l.pins
}

// lane returns actor a's lane, adding lanes (named as trace.ActorName does)
// for actors New was not told about.
func (p *Pool) lane(a trace.Actor) *lane { return viewkit.LaneOf(&p.lanes, a, newLane) }

func newLane(name string) lane { return lane{name: name} }

// --- Reads: buffers ---

// NBuffers is the number of buffers.
func (p *Pool) NBuffers() int { return p.n }

func (p *Pool) rchunk(i int) (*chunk, int) {
	if i < 0 || i >= p.n {
		panic(fmt.Sprintf("view: buffer %d out of range [0, %d)", i, p.n))
	}
	return p.chunkOf(i), i & chunkMask
}

// State is buffer i's state word (decode it with bufmgr.StateRefcount,
// bufmgr.StateUsagecount and the bufmgr.Bm* flags).
func (p *Pool) State(i int) uint32 { c, j := p.rchunk(i); return c.state[j] }

// Tag is buffer i's packed tag (bufmgr.UnpackTag), NoTag if it never had
// one. It is meaningful while the state has BM_TAG_VALID; between a retag
// and the header unlock that follows it, it already holds the new tag.
func (p *Pool) Tag(i int) uint64 { c, j := p.rchunk(i); return c.tag[j] }

// FreeNext is buffer i's freelist link: the next free buffer,
// bufmgr.FreeNextEndOfList (-1) or bufmgr.FreeNextNotInList (-2).
func (p *Pool) FreeNext(i int) int32 { c, j := p.rchunk(i); return c.freeNext[j] }

// ContentHolders is the holder word of buffer i's content lock (see
// HolderExclusive and HolderShared).
func (p *Pool) ContentHolders(i int) uint64 { c, j := p.rchunk(i); return c.content[j] }

// Buffer is one descriptor as the view sees it.
type Buffer struct {
	ID       int
	State    uint32
	Tag      uint64 // packed; NoTag if never tagged
	FreeNext int32
	Content  uint64 // content-lock holder word
}

// Buffer returns descriptor i.
func (p *Pool) Buffer(i int) Buffer {
	c, j := p.rchunk(i)
	return Buffer{ID: i, State: c.state[j], Tag: c.tag[j], FreeNext: c.freeNext[j], Content: c.content[j]}
}

// Refcount is BUF_STATE_GET_REFCOUNT.
func (b Buffer) Refcount() uint32 { return bufmgr.StateRefcount(b.State) }

// Usage is BUF_STATE_GET_USAGECOUNT.
func (b Buffer) Usage() uint32 { return bufmgr.StateUsagecount(b.State) }

// Has reports whether every bit of flags is set in the state word.
func (b Buffer) Has(flags uint32) bool { return b.State&flags == flags }

// TagValid reports BM_TAG_VALID.
func (b Buffer) TagValid() bool { return b.State&bufmgr.BmTagValid != 0 }

// OnFreelist reports whether the buffer is linked on the freelist.
func (b Buffer) OnFreelist() bool { return b.FreeNext != bufmgr.FreeNextNotInList }

// --- Reads: freelist and clock ---

// FirstFree is StrategyControl->firstFreeBuffer (-1: the freelist is empty).
func (p *Pool) FirstFree() int32 { return p.firstFree }

// Freelist returns the buffers on the freelist, head first. A cycle (which
// only an inconsistent event log can make) stops the walk after NBuffers.
func (p *Pool) Freelist() []int32 {
	var out []int32
	for id := p.firstFree; id >= 0 && int(id) < p.n && len(out) < p.n; id = p.FreeNext(int(id)) {
		out = append(out, id)
	}
	return out
}

// FreelistHead is the freelist's first n buffers and its length, without
// building the whole list: a walk of its length, no allocation beyond the
// n (131,072 steps in a 1GB pool before its first reads; Freelist would
// allocate half a megabyte a frame for the pool's header).
func (p *Pool) FreelistHead(n int) (head []int32, length int) {
	for id := p.firstFree; id >= 0 && int(id) < p.n && length < p.n; id = p.FreeNext(int(id)) {
		if len(head) < n {
			head = append(head, id)
		}
		length++
	}
	return head, length
}

// ClockCounter is the raw nextVictimBuffer counter: it grows by one per
// tick and is brought back into range when a backend lands on a multiple of
// NBuffers (ClockSweepTick).
func (p *Pool) ClockCounter() uint32 { return p.counter }

// Hand is the clock hand: the buffer the sweep looks at next,
// nextVictimBuffer % NBuffers.
func (p *Pool) Hand() int { return int(p.counter % uint32(p.n)) }

// CompletePasses is StrategyControl->completePasses.
func (p *Pool) CompletePasses() uint32 { return p.passes }

// NumBufferAllocs is StrategyControl->numBufferAllocs.
func (p *Pool) NumBufferAllocs() uint32 { return p.allocs }

// StrategyHolder is the backend holding buffer_strategy_lock (0: free).
func (p *Pool) StrategyHolder() trace.Actor { return p.strategyHolder }

// --- Reads: mapping table ---

// Entry is one mapping-table entry.
type Entry struct {
	Tag       uint64 // packed
	Buf       int32
	Partition int
}

// PartitionHolders is the holder word of mapping partition i's lock.
func (p *Pool) PartitionHolders(i int) uint64 { g, j := p.group(i); return g.holders[j] }

// PartitionLen is the number of entries in mapping partition i.
func (p *Pool) PartitionLen(i int) int { g, j := p.group(i); return g.entries[j].len() }

// PartitionEntries lists partition i's entries sorted by packed tag.
func (p *Pool) PartitionEntries(i int) []Entry {
	g, j := p.group(i)
	m := g.entries[j]
	if m == nil {
		return nil
	}
	es := m.sorted()
	out := make([]Entry, len(es))
	for k, e := range es {
		out[k] = Entry{Tag: e.key, Buf: e.val, Partition: i}
	}
	return out
}

// MappingLen is the number of entries in the whole mapping table.
func (p *Pool) MappingLen() int {
	n := 0
	for i := 0; i < NumPartitions; i++ {
		n += p.PartitionLen(i)
	}
	return n
}

// MappingEntries lists every entry sorted by buffer id, then tag (the order
// of bufmgr.Pool.MappingEntries).
func (p *Pool) MappingEntries() []Entry {
	var out []Entry
	for i := 0; i < NumPartitions; i++ {
		out = append(out, p.PartitionEntries(i)...)
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Buf != out[b].Buf {
			return out[a].Buf < out[b].Buf
		}
		return out[a].Tag < out[b].Tag
	})
	return out
}

// PartitionOf is the mapping partition of a packed tag:
// BufTableHashPartition(BufTableHashCode(tag)).
func PartitionOf(tag uint64) int {
	return bufmgr.BufTableHashPartition(bufmgr.BufTableHashCode(bufmgr.UnpackTag(tag)))
}

// Lookup finds the buffer a packed tag maps to.
func (p *Pool) Lookup(tag uint64) (int, bool) {
	g, j := p.group(PartitionOf(tag))
	id, ok := g.entries[j].get(tag)
	if !ok {
		return -1, false
	}
	return int(id), true
}

// --- Lock holder words ---

// HolderExclusive is the exclusive holder recorded in a holder word (0: none).
func HolderExclusive(w uint64) trace.Actor { return trace.Actor(w >> 48) }

// HolderShared lists the shared holders recorded in a holder word.
func HolderShared(w uint64) []trace.Actor {
	var out []trace.Actor
	for a := 1; a <= 48; a++ {
		if w&(1<<(a-1)) != 0 {
			out = append(out, trace.Actor(a))
		}
	}
	return out
}

// --- Reads: current event and counters ---

// Current is the event applied last, if any.
func (p *Pool) Current() (trace.Event, bool) { return p.h.Current() }

// Changed says what the current event touched, for highlighting; the zero
// Change (Buffer and Partition -1) when no event has been applied.
func (p *Pool) Changed() Change {
	e, ok := p.h.Current()
	if !ok {
		return Change{Buffer: -1, Partition: -1}
	}
	return EffectOf(e)
}

// Applied is the number of events applied, net of those unapplied.
func (p *Pool) Applied() int { return p.h.Applied() }

// HistoryLen is how many of the applied events Unapply can still undo.
func (p *Pool) HistoryLen() int { return p.h.Len() }

// Counters returns the event counters.
func (p *Pool) Counters() Counters { return p.counters }

// --- Names ---

// RelName names a relation number as New's relNames does (else the number).
func (p *Pool) RelName(n uint32) string {
	if s, ok := p.relNames[n]; ok {
		return s
	}
	return fmt.Sprint(n)
}

// TagString prints a packed tag as rel/block (rel/fork/block for forks
// other than main), "none" for NoTag.
func (p *Pool) TagString(tag uint64) string {
	if tag == NoTag {
		return "none"
	}
	return bufmgr.TagString(bufmgr.UnpackTag(tag), p.RelName)
}
