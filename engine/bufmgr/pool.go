package bufmgr

import (
	"fmt"
	"sort"
	"sync"
	"sync/atomic"

	"bufferlab/engine/aio"
	"bufferlab/engine/internal/enum"
	"bufferlab/engine/internal/lwlock"
	"bufferlab/engine/internal/pgsize"
	"bufferlab/engine/readstream"
	"bufferlab/engine/sched"
	"bufferlab/engine/trace"
)

// Buffer is a buffer handle: buf_id+1; 0 is InvalidBuffer (bufmgr.h).
type Buffer int32

// InvalidBuffer is the zero handle.
const InvalidBuffer Buffer = 0

// Free-list link values (buf_internals.h).
const (
	FreeNextEndOfList int32 = -1
	FreeNextNotInList int32 = -2
)

// BufferDesc is a shared buffer header (buf_internals.h, PG15). The
// per-buffer content lock lives in Pool.content, created while it is held,
// so that a 100GB pool does not carry 13 million idle LWLocks.
type BufferDesc struct {
	tag      BufferTag     // guarded by the header lock
	state    atomic.Uint32 // see state.go for the layout
	bufID    int32         // immutable
	freeNext int32         // guarded by buffer_strategy_lock
	// waitBackend is wait_backend_pgprocno: the backend waiting for the
	// pin count to drop to one (LockBufferForCleanup), guarded by the
	// header lock.
	waitBackend trace.Actor
}

// ID is buf_id.
func (d *BufferDesc) ID() int { return int(d.bufID) }

// Tag returns the buffer's tag (meaningful while BM_TAG_VALID is set).
func (d *BufferDesc) Tag() BufferTag { return d.tag }

// State returns the state word.
func (d *BufferDesc) State() uint32 { return d.state.Load() }

// FreeNext returns the free-list link.
func (d *BufferDesc) FreeNext() int32 { return d.freeNext }

// partition is one of the NUM_BUFFER_PARTITIONS pieces of the shared buffer
// lookup table ("Shared Buffer Lookup Table", buf_table.c) with its
// BufMappingLock.
type partition struct {
	lock LWLock
	m    map[BufferTag]int32
}

// MaxNBuffers bounds the simulated pool: 16 777 216 buffers, 128GB of
// shared_buffers, which covers every size the seed threads measured. The
// descriptors cost about 40 bytes each; no page contents are stored.
const MaxNBuffers = 1 << 24

// MinNBuffers is PostgreSQL's minimum shared_buffers: 16 buffers (128kB).
const MinNBuffers = 16

// Pool is the shared buffer pool: descriptors, the mapping table, the
// freelist and clock-sweep state (BufferStrategyControl), and the backends
// attached to it.
type Pool struct {
	NBuffers int
	descs    []BufferDesc
	parts    [NumBufferPartitions]partition
	content  map[int32]*LWLock

	// BufferStrategyControl (freelist.c).
	strategyLock     LWLock        // buffer_strategy_lock, a spinlock
	nextVictimBuffer atomic.Uint32 // only increases; victim = value % NBuffers
	firstFreeBuffer  int32
	lastFreeBuffer   int32
	completePasses   uint32
	numBufferAllocs  atomic.Uint32

	log      *trace.Log
	backends []*Backend

	pins PinsMode // how PinBuffer and UnpinBuffer change the shared count

	// dl is the per-relation buffer lists of the dlist drop variant
	// (dlist.go); nil unless Options.DropList, so that BufferAlloc and
	// InvalidateBuffer pay one nil check for it.
	dl *dropList
	// inRecovery models InRecovery, the startup process's flag while it
	// replays WAL: only then does smgrnblocks_cached return a size, which
	// the drop's per-block lookup needs (drop.go).
	inRecovery bool
	// syncScans is synchronize_seqscans; ss is the shared list of scan
	// locations (syncscan.go).
	syncScans bool
	ss        ssList

	// version is the PostgreSQL read path the pool runs (Options.Version);
	// ioCombineLimit and effectiveIOConcurrency are its PG 17 settings.
	version                int
	ioCombineLimit         int
	effectiveIOConcurrency int
	// ioLatencyUS and ioBlockUS are the latency model (Options).
	ioLatencyUS, ioBlockUS uint64
	// reads is the sequence of read calls' lengths in blocks, run-length
	// encoded (noteRead, ReadCalls); readsMu guards it for fast-mode
	// backends on threads.
	readsMu sync.Mutex
	reads   []ReadRun

	// PostgreSQL 18's asynchronous I/O (read18.go), nil below 18: the AIO
	// model's shared state, the I/O workers (Backends of their own, not in
	// backends), the backends by their AIO number, and each buffer's
	// io_wref while an AIO read owns it (BufferDesc.io_wref, guarded by
	// the header lock; a map, so that pools below 18 pay nothing for it).
	aio       *aio.System
	ioWorkers []*Backend
	kernel    *Backend // io_method=io_uring: the kernel's reads
	aioOwners []*Backend
	ioWrefs   map[int32]aio.WaitRef
}

// PinsMode selects how PinBuffer and UnpinBuffer change a buffer's shared
// pin count (DESIGN "Variants, not versions").
type PinsMode uint8

// Pin variants.
const (
	// PinsAtomic is PostgreSQL 9.6–18: a CAS loop on the state word that
	// waits out BM_LOCKED (48354581a4, "Allow Pin/UnpinBuffer to operate in
	// a lockfree manner").
	PinsAtomic PinsMode = iota
	// PinsSpinlock is PostgreSQL up to 9.5 (the parent of 48354581a4):
	// every pin and unpin takes the buffer header spinlock, changes the
	// counts and releases it. See pinBuffer95 for how it maps onto the
	// state word.
	PinsSpinlock
)

var pinsModeNames = [...]string{PinsAtomic: "atomic", PinsSpinlock: "spinlock"}

func (m PinsMode) String() string { return enum.Name(pinsModeNames[:], m, "pins") }

// ParsePins parses a pins= setting: atomic or spinlock.
func ParsePins(s string) (PinsMode, bool) { return enum.Parse[PinsMode](pinsModeNames[:], s) }

// Options are a pool's variant choices. The zero value is PostgreSQL's
// current behaviour (what NewPool builds).
type Options struct {
	Pins PinsMode
	// DropList keeps a doubly linked list of buffers per relation, updated
	// on every retag and invalidation, for the dlist drop variant (the
	// pgsql-hackers thread's first patch; see dlist.go). Off, it costs one
	// nil check in BufferAlloc and InvalidateBuffer.
	DropList bool
	// InRecovery starts the pool as a server in recovery: the backend that
	// drops relations is the startup process replaying WAL (InRecovery),
	// for which relation sizes are cached; see SetInRecovery.
	InRecovery bool
	// SyncScans turns synchronize_seqscans on (PostgreSQL's default; the
	// scenario language's too): a scan of a relation over NBuffers/4
	// blocks starts where the last one reported being (syncscan.go).
	SyncScans bool
	// Version is the PostgreSQL major version whose read path the pool
	// runs (config pg=): 15 (0 means 15), 16 (BufferAlloc with one
	// partition lock at a time, alloc16.go) or 17 (StartReadBuffers,
	// WaitReadBuffers and read streams, read17.go).
	Version int
	// IOCombineLimit is io_combine_limit in blocks (PG 17; 0: 16, its
	// default of 128kB), EffectiveIOConcurrency effective_io_concurrency
	// (0 is a value: no look-ahead I/O; use -1 for the default, 1).
	IOCombineLimit         int
	EffectiveIOConcurrency int
	// IOLatencyUS and IOBlockUS are the latency model: a simulated read or
	// write call costs IOLatencyUS plus IOBlockUS per 8kB block, in
	// microseconds of the calling backend's time (Stats.IOTimeUS). No
	// event records it, so traces do not depend on it. At 18 a read costs
	// the process that executes it (an I/O worker), and the backend waits
	// for it only as long as it is not done (engine/aio's clocks).
	IOLatencyUS, IOBlockUS int
	// IOMethod is io_method at 18 ("" or "worker": the default, I/O
	// workers; "sync": the backend reads in WaitReadBuffers), IOWorkers
	// io_workers (0: 3, the default).
	IOMethod  string
	IOWorkers int
}

// MaxIOTimeUS bounds the latency model's settings: one second.
const MaxIOTimeUS = 1_000_000

// The PostgreSQL versions a pool can model (Options.Version).
const (
	MinVersion = 15
	MaxVersion = 18
)

// NewPoolWith is NewPool with variant options.
func NewPoolWith(nbuffers int, log *trace.Log, opt Options) (*Pool, error) {
	if opt.Pins > PinsSpinlock {
		return nil, fmt.Errorf("bufmgr: unknown pins variant %d", opt.Pins)
	}
	p, err := NewPool(nbuffers, log)
	if err != nil {
		return nil, err
	}
	switch v := opt.Version; {
	case v == 0:
		opt.Version = MinVersion
	case v < MinVersion || v > MaxVersion:
		return nil, fmt.Errorf("bufmgr: PostgreSQL %d's read path is not modelled (%d to %d are)", v, MinVersion, MaxVersion)
	}
	if opt.Version > 15 && opt.DropList {
		return nil, fmt.Errorf("bufmgr: the dlist drop variant is modelled on PostgreSQL 15's BufferAlloc only (pg=15)")
	}
	if opt.IOCombineLimit == 0 {
		opt.IOCombineLimit = readstream.DefaultIOCombineLimit
	}
	if opt.IOCombineLimit < 1 || opt.IOCombineLimit > readstream.MaxIOCombineLimit {
		return nil, fmt.Errorf("bufmgr: io_combine_limit %d blocks outside 1..%d", opt.IOCombineLimit, readstream.MaxIOCombineLimit)
	}
	if opt.EffectiveIOConcurrency < 0 {
		opt.EffectiveIOConcurrency = readstream.DefaultEffectiveIOConcurrency
		if opt.Version >= 18 {
			opt.EffectiveIOConcurrency = aio.DefaultEffectiveIOConcurrency // 16 from 18 on
		}
	}
	if opt.Version < 18 && (opt.IOMethod != "" || opt.IOWorkers != 0) {
		return nil, fmt.Errorf("bufmgr: io_method and io_workers are PostgreSQL 18's (pg=18), not %d's", opt.Version)
	}
	if opt.EffectiveIOConcurrency > readstream.MaxIOConcurrency {
		return nil, fmt.Errorf("bufmgr: effective_io_concurrency %d outside 0..%d", opt.EffectiveIOConcurrency, readstream.MaxIOConcurrency)
	}
	if opt.IOLatencyUS < 0 || opt.IOBlockUS < 0 || opt.IOLatencyUS > MaxIOTimeUS || opt.IOBlockUS > MaxIOTimeUS {
		return nil, fmt.Errorf("bufmgr: I/O latency %d µs and %d µs a block: each must be 0 to %d µs", opt.IOLatencyUS, opt.IOBlockUS, MaxIOTimeUS)
	}
	p.version = opt.Version
	p.ioCombineLimit, p.effectiveIOConcurrency = opt.IOCombineLimit, opt.EffectiveIOConcurrency
	p.ioLatencyUS, p.ioBlockUS = uint64(opt.IOLatencyUS), uint64(opt.IOBlockUS)
	p.pins = opt.Pins
	p.inRecovery = opt.InRecovery
	p.syncScans = opt.SyncScans
	if opt.DropList {
		p.dl = newDropList(nbuffers)
	}
	if opt.Version >= 18 {
		if err := p.initAIO(opt); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Pins returns the pool's pin variant.
func (p *Pool) Pins() PinsMode { return p.pins }

// ParseSharedBuffers converts a shared_buffers setting to a number of
// buffers as PostgreSQL's GUC code does (parse_int, convert_to_base_unit):
// a number, possibly fractional, optionally followed (after spaces) by a
// unit B, kB, MB, GB or TB (case-sensitive, multiples of 1024); without a
// unit it counts 8kB blocks. The value is rounded to the nearest whole block
// (half to even, as rint does), then must be at least PostgreSQL's minimum
// of 16 buffers and at most what BufferLab simulates. The parsing is
// engine/internal/pgsize's, shared with slru.
func ParseSharedBuffers(s string) (int, error) {
	nb, err := pgsize.Blocks(s, 1<<40)
	if err != nil {
		e, _ := err.(*pgsize.Error) // every error of Blocks is one
		switch e.Kind {
		case pgsize.BadUnit:
			return 0, fmt.Errorf("shared_buffers: unknown unit %q in %q (valid units are %s)", e.Unit, s, pgsize.Units)
		case pgsize.Range:
			return 0, fmt.Errorf("shared_buffers: %q is too large", s)
		}
		return 0, fmt.Errorf("shared_buffers: want a size such as 128kB, 128MB, 1GB or a number of 8kB buffers, found %q", s)
	}
	if nb < MinNBuffers {
		return 0, fmt.Errorf("shared_buffers: %q is %d buffers; PostgreSQL's minimum is %d (128kB)", s, nb, MinNBuffers)
	}
	if nb > MaxNBuffers {
		return 0, fmt.Errorf("shared_buffers: %q is %d buffers; BufferLab simulates at most %d (128GB)", s, nb, MaxNBuffers)
	}
	return int(nb), nil
}

// FormatSize prints a byte count the way PostgreSQL's SHOW does: the largest
// unit that divides it (pgsize.Format).
func FormatSize(bytes int64) string { return pgsize.Format(bytes) }

// NewPool builds a pool of nbuffers buffers, as InitBufferPool and
// StrategyInitialize do: every descriptor cleared and chained on the
// freelist in order, the last one ending the list. log may be nil.
func NewPool(nbuffers int, log *trace.Log) (*Pool, error) {
	if nbuffers < MinNBuffers || nbuffers > MaxNBuffers {
		return nil, fmt.Errorf("bufmgr: NBuffers %d out of range [%d, %d]", nbuffers, MinNBuffers, MaxNBuffers)
	}
	p := &Pool{NBuffers: nbuffers, descs: make([]BufferDesc, nbuffers), content: map[int32]*LWLock{}, log: log, ss: newSSList(),
		version: MinVersion, ioCombineLimit: readstream.DefaultIOCombineLimit, effectiveIOConcurrency: readstream.DefaultEffectiveIOConcurrency}
	for i := range p.descs {
		d := &p.descs[i]
		d.bufID = int32(i)
		d.freeNext = int32(i + 1)
	}
	p.descs[nbuffers-1].freeNext = FreeNextEndOfList
	p.firstFreeBuffer = 0
	p.lastFreeBuffer = int32(nbuffers - 1)
	// The table holds NBuffers + NUM_BUFFER_PARTITIONS entries at most
	// (StrategyShmemSize): PG15 inserts a new entry before deleting the old.
	per := (nbuffers+NumBufferPartitions)/NumBufferPartitions + 1
	if per > 1024 {
		per = 1024 // grow on demand beyond this; sizes never affect results
	}
	for i := range p.parts {
		p.parts[i].m = make(map[BufferTag]int32, per)
	}
	return p, nil
}

// Log returns the pool's event log (nil when tracing is off).
func (p *Pool) Log() *trace.Log { return p.log }

// Desc returns descriptor id.
func (p *Pool) Desc(id int) *BufferDesc { return &p.descs[id] }

// Backends returns the attached backends in creation order.
func (p *Pool) Backends() []*Backend { return p.backends }

// NextVictimBuffer is the clock hand: the next buffer the sweep will look at.
func (p *Pool) NextVictimBuffer() int { return int(p.nextVictimBuffer.Load() % uint32(p.NBuffers)) }

// CompletePasses is the number of times the clock hand has wrapped.
func (p *Pool) CompletePasses() uint32 { return p.completePasses }

// NextVictimCounter is the raw nextVictimBuffer counter (the hand is it
// modulo NBuffers).
func (p *Pool) NextVictimCounter() uint32 { return p.nextVictimBuffer.Load() }

// StrategyLock returns the state of buffer_strategy_lock.
func (p *Pool) StrategyLock() LWLock { return p.strategyLock }

// NumBufferAllocs is StrategyControl->numBufferAllocs.
func (p *Pool) NumBufferAllocs() uint32 { return p.numBufferAllocs.Load() }

// FirstFreeBuffer is the head of the freelist (-1 when empty).
func (p *Pool) FirstFreeBuffer() int32 { return p.firstFreeBuffer }

// Freelist returns the buffer ids on the freelist, head first.
func (p *Pool) Freelist() []int32 {
	var out []int32
	for id := p.firstFreeBuffer; id >= 0 && len(out) <= p.NBuffers; id = p.descs[id].freeNext {
		out = append(out, id)
	}
	return out
}

// Lookup finds the buffer holding tag in the mapping table without taking
// any lock or emitting an event: an inspection for views and tests, not a
// modelled operation.
func (p *Pool) Lookup(tag BufferTag) (int, bool) {
	id, ok := p.parts[BufTableHashPartition(BufTableHashCode(tag))].m[tag]
	return int(id), ok
}

// PartitionLock returns the state of mapping partition i's lock.
func (p *Pool) PartitionLock(i int) LWLock { return p.parts[i].lock }

// PartitionLen is the number of entries in mapping partition i.
func (p *Pool) PartitionLen(i int) int { return len(p.parts[i].m) }

// MappingEntries returns every entry of the mapping table, sorted by buffer id.
func (p *Pool) MappingEntries() []MapEntry {
	var out []MapEntry
	for i := range p.parts {
		for t, id := range p.parts[i].m {
			out = append(out, MapEntry{Tag: t, BufID: int(id), Partition: i})
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].BufID != out[b].BufID {
			return out[a].BufID < out[b].BufID
		}
		return out[a].Tag.Pack() < out[b].Tag.Pack()
	})
	return out
}

// MapEntry is one entry of the mapping table.
type MapEntry struct {
	Tag       BufferTag
	BufID     int
	Partition int
}

// Stats sums every backend's counters, and the I/O workers' (pg=18).
func (p *Pool) Stats() Stats {
	var s Stats
	for _, b := range p.backends {
		s.Add(b.Stats)
	}
	for _, w := range p.ioWorkers {
		s.Add(w.Stats)
	}
	return s
}

// MaxSimBackends bounds the backends attached to one simulated pool, so a
// lock's shared holders fit one 64-bit mask.
const MaxSimBackends = 64

// NewBackend attaches a backend. Its actor number is its position (1-based),
// which is how events name it.
func (p *Pool) NewBackend(name string) (*Backend, error) {
	if len(p.backends) >= MaxSimBackends {
		return nil, fmt.Errorf("bufmgr: at most %d backends per simulated pool", MaxSimBackends)
	}
	b := &Backend{pool: p, log: p.log, Actor: trace.Actor(len(p.backends) + 1), Name: name, reserved: -1,
		refHash: map[Buffer]int32{}}
	p.backends = append(p.backends, b)
	if p.aio != nil {
		p.attachAIO(b)
	}
	return b, nil
}

// SetYield installs the scheduler hook of a backend (nil: run straight through).
func (b *Backend) SetYield(y sched.Yield) { b.y = y }

// Spawn starts body as b's process on s, named and numbered as b: while
// body runs, b's operations yield to s at every step and wait (SetYield),
// and after it b runs straight through again. body gets the Yield too, for
// a wait of its own between operations.
func (b *Backend) Spawn(s *sched.Scheduler, body sched.Body) *sched.Proc {
	return s.SpawnDriving(b.Actor, b.Name, body, b)
}

// LWLock is a lightweight lock (lwlock.c) or, used only in exclusive mode,
// a spinlock: engine/internal/lwlock's, shared with slru, which records
// the holders so the views can show them.
type LWLock = lwlock.Lock

// LWLockMode is LW_SHARED or LW_EXCLUSIVE.
type LWLockMode = lwlock.Mode

// Lock modes.
const (
	LWShared    = lwlock.Shared
	LWExclusive = lwlock.Exclusive
)
