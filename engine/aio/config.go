package aio

import (
	"fmt"

	"bufferlab/engine/readstream"
)

// BlockNumber and Buffer are the read stream's (block.h, buf.h): the same
// types as engine/readstream's, so that engine/bufmgr can serve both.
type (
	BlockNumber = readstream.BlockNumber
	Buffer      = readstream.Buffer
)

// InvalidBlockNumber and InvalidBuffer are block.h's and buf.h's.
const (
	InvalidBlockNumber = readstream.InvalidBlockNumber
	InvalidBuffer      = readstream.InvalidBuffer
)

// StrategyType and Strategy are engine/readstream's, the same in 18: a
// ring's type (bufmgr.h's BufferAccessStrategyType: no ring, BULKREAD,
// BULKWRITE, VACUUM) and size in buffers (BufferAccessStrategyData).
type StrategyType = readstream.StrategyType
type Strategy = readstream.Strategy

const NoStrategy, BulkRead, BulkWrite, Vacuum = readstream.NoStrategy, readstream.BulkRead, readstream.BulkWrite, readstream.Vacuum

// IOMethod is the io_method GUC (aio.h, PG 18: enum IoMethod).
type IOMethod uint8

const (
	// Sync is IOMETHOD_SYNC: every I/O is executed synchronously when it is
	// staged (method_sync.c: pgaio_sync_needs_synchronous_execution is
	// always true), and StartReadBuffers starts nothing: WaitReadBuffers
	// does the read, as in 17 (bufmgr.c: StartReadBuffersImpl).
	Sync IOMethod = iota
	// Worker is IOMETHOD_WORKER, the default (aio.h: DEFAULT_IO_METHOD):
	// I/O workers take staged I/Os from a queue in shared memory.
	Worker
	// IOUring is IOMETHOD_IO_URING: the issuing backend submits to its own
	// ring; completions are reaped by whoever waits (method_io_uring.c).
	IOUring
)

// String is the GUC's spelling.
func (m IOMethod) String() string {
	switch m {
	case Sync:
		return "sync"
	case Worker:
		return "worker"
	case IOUring:
		return "io_uring"
	}
	return fmt.Sprintf("IOMethod(%d)", uint8(m))
}

// ParseIOMethod reads io_method's spelling: "worker", "io_uring" or
// "sync" (guc_tables.c's io_method_options).
func ParseIOMethod(s string) (IOMethod, bool) {
	for m := Sync; m <= IOUring; m++ {
		if m.String() == s {
			return m, true
		}
	}
	return 0, false
}

// PostgreSQL 18.4's defaults and limits on Linux (64-bit, BLCKSZ 8192),
// with where each is defined.
const (
	// DefaultEffectiveIOConcurrency is DEFAULT_EFFECTIVE_IO_CONCURRENCY
	// (bufmgr.h, PG 18): 16, on every platform (17: 1 with USE_PREFETCH).
	DefaultEffectiveIOConcurrency = 16
	// DefaultMaintenanceIOConcurrency is DEFAULT_MAINTENANCE_IO_CONCURRENCY
	// (bufmgr.h, PG 18): 16 (17: 10).
	DefaultMaintenanceIOConcurrency = 16
	// MaxIOConcurrency is MAX_IO_CONCURRENCY (bufmgr.h).
	MaxIOConcurrency = 1000
	// MaxIOCombineLimit is MAX_IO_COMBINE_LIMIT = PG_IOV_MAX =
	// Min(IOV_MAX, 128) (bufmgr.h, port/pg_iovec.h, PG 18; 17: 32).
	MaxIOCombineLimit = readstream.MaxIOCombineLimit18
	// DefaultIOCombineLimit is DEFAULT_IO_COMBINE_LIMIT =
	// Min(MAX_IO_COMBINE_LIMIT, 128kB/BLCKSZ) = 16 blocks (bufmgr.h), the
	// default of both io_combine_limit and io_max_combine_limit
	// (guc_tables.c).
	DefaultIOCombineLimit = 16
	// DefaultIOWorkers is io_workers' default (guc_tables.c): 3, range
	// 1..MAX_IO_WORKERS.
	DefaultIOWorkers = 3
	// MaxIOWorkers is MAX_IO_WORKERS (proc.h, PG 18): 32.
	MaxIOWorkers = 32
	// NumAuxiliaryProcs is NUM_AUXILIARY_PROCS = 6 + MAX_IO_WORKERS
	// (proc.h, PG 18): 38 (17: 6). It divides the pool in
	// MaxProportionalPins.
	NumAuxiliaryProcs = 6 + MaxIOWorkers
	// DefaultNBuffers is shared_buffers = 128MB in 8kB buffers.
	DefaultNBuffers = 16384
	// DefaultMaxBackends is MaxBackends with every GUC at its default in
	// 18: max_connections 100 + autovacuum_worker_slots 16 +
	// max_worker_processes 8 + max_wal_senders 10 +
	// NUM_SPECIAL_WORKER_PROCS 2 = 136. 18 counts autovacuum_worker_slots
	// (guc_tables.c: 16; pmchild.c sizes the autovacuum pool with it) where
	// 17 counted autovacuum_max_workers (3): InitializeMaxBackends
	// (postinit.c, REL_18_4) sums MaxConnections + autovacuum_worker_slots
	// + max_worker_processes + max_wal_senders + NUM_SPECIAL_WORKER_PROCS.
	DefaultMaxBackends = 136
	// RefcountArrayEntries is REFCOUNT_ARRAY_ENTRIES (bufmgr.c): 8.
	RefcountArrayEntries = 8
	// IOWorkerQueueSize is io_worker_queue_size (method_worker.c, a static
	// 64, rounded up to a power of two: pg_nextpower2_32).
	IOWorkerQueueSize = 64
	// IOWorkerWakeupFanout is IO_WORKER_WAKEUP_FANOUT (method_worker.c): a
	// worker that takes an I/O wakes up to 2 idle peers.
	IOWorkerWakeupFanout = 2
	// SubmitBatchSize is PGAIO_SUBMIT_BATCH_SIZE (aio_internal.h): at most
	// 32 staged I/Os; acquiring a handle with 32 staged submits them.
	SubmitBatchSize = 32
	// RelSegSize is RELSEG_SIZE: 1GB segments of 8kB blocks. A read never
	// crosses one (md.c: mdmaxcombine, via smgrmaxcombine).
	RelSegSize = 131072
)

// MaxProportionalPins is MaxProportionalPins (bufmgr.c,
// InitBufferManagerAccess): NBuffers / (MaxBackends + NUM_AUXILIARY_PROCS).
// GetPinLimit returns it. At 128MB with the defaults: 16384 / 174 = 94.
func MaxProportionalPins(nBuffers, maxBackends int) int {
	return nBuffers / (maxBackends + NumAuxiliaryProcs)
}

// AioChooseMaxConcurrency (aio_init.c, PG 18) is io_max_concurrency's
// value when it is -1 (the default): the proportional pin share, at least
// 1, at most 64. Each backend owns that many AIO handles.
func AioChooseMaxConcurrency(nBuffers, maxBackends int) int {
	return min(max(MaxProportionalPins(nBuffers, maxBackends), 1), 64)
}

// GetAccessStrategy is GetAccessStrategy (freelist.c, PG 18.4) for a pool
// of nBuffers under the given GUCs. BULKREAD's ring grows in 18:
//
//	ring_size_kb = 256
//	ring_max_kb  = Max(256, GetPinLimit() * 8)          -- MaxProportionalPins
//	ring_size_kb += 8 * io_combine_limit * effective_io_concurrency
//	ring_size_kb = Min(ring_size_kb, ring_max_kb)
//
// then GetAccessStrategyWithSize: kB / 8 buffers, capped at NBuffers/8.
// At 128MB with the defaults: 256 + 8·16·16 = 2304kB, capped at
// 94·8 = 752kB: 94 buffers (17: 256kB, 32 buffers).
func GetAccessStrategy(t StrategyType, nBuffers, maxBackends, ioCombineLimit, eic int) Strategy {
	if t != BulkRead {
		return readstream.RingStrategy(t, nBuffers) // BULKWRITE's and VACUUM's rings are 17's
	}
	kb := 256
	maxKB := max(kb, MaxProportionalPins(nBuffers, maxBackends)*8)
	kb += 8 * ioCombineLimit * eic
	kb = min(kb, maxKB)
	return Strategy{Type: t, Buffers: min(nBuffers/8, kb/8)}
}

// GetAccessStrategyPinLimit (freelist.c, unchanged in 18) is
// engine/readstream's: NBuffers with no ring, the whole ring for
// BULKREAD, half of any other ring.
func GetAccessStrategyPinLimit(s Strategy, nBuffers int) int {
	return readstream.GetAccessStrategyPinLimit(s, nBuffers)
}

// Config is what the model reads: the stream's flags and strategy, and the
// GUCs of PostgreSQL 18.4 it consults. Start from DefaultConfig.
type Config struct {
	Flags    readstream.Flags
	Strategy Strategy

	IOMethod                 IOMethod
	IOWorkers                int // io_workers
	EffectiveIOConcurrency   int // effective_io_concurrency
	MaintenanceIOConcurrency int // maintenance_io_concurrency
	IOCombineLimitGUC        int // io_combine_limit (the GUC)
	IOMaxCombineLimit        int // io_max_combine_limit
	IOMaxConcurrency         int // io_max_concurrency; -1: AioChooseMaxConcurrency

	NBuffers    int
	MaxBackends int

	// IOLatencyUS and IOBlockUS are the latency model (engine/bufmgr's
	// Options of the same names): a preadv of n blocks takes IOLatencyUS
	// + n × IOBlockUS simulated microseconds of whoever executes it. Zero:
	// no simulated time (every clock stays 0).
	IOLatencyUS, IOBlockUS int

	// DirectIOData is io_direct including "data": no advice.
	DirectIOData bool
	// DisableFastPath is a build with READ_STREAM_DISABLE_FAST_PATH.
	DisableFastPath bool
}

// DefaultConfig is PostgreSQL 18.4's defaults at shared_buffers = 128MB
// for a stream with the given flags, no strategy, io_method=worker.
func DefaultConfig(flags readstream.Flags) Config {
	return Config{
		Flags:                    flags,
		IOMethod:                 Worker,
		IOWorkers:                DefaultIOWorkers,
		EffectiveIOConcurrency:   DefaultEffectiveIOConcurrency,
		MaintenanceIOConcurrency: DefaultMaintenanceIOConcurrency,
		IOCombineLimitGUC:        DefaultIOCombineLimit,
		IOMaxCombineLimit:        DefaultIOCombineLimit,
		IOMaxConcurrency:         -1,
		NBuffers:                 DefaultNBuffers,
		MaxBackends:              DefaultMaxBackends,
	}
}

// IOCombineLimit is the io_combine_limit variable the code uses: the
// smaller of the two GUCs (bufmgr.h, PG 18: "min of the two GUCs below";
// the assign hooks keep it so).
func (c Config) IOCombineLimit() int { return min(c.IOCombineLimitGUC, c.IOMaxCombineLimit) }

// Handles is io_max_concurrency as the AIO subsystem sizes each backend's
// handles.
func (c Config) Handles() int {
	if c.IOMaxConcurrency == -1 {
		return AioChooseMaxConcurrency(c.NBuffers, c.MaxBackends)
	}
	return c.IOMaxConcurrency
}

// validate checks 18's own GUCs here, and those read_stream.c shares
// with 17 (the concurrency GUCs, shared_buffers, MaxBackends, the ring) as
// engine/readstream checks them.
func (c Config) validate() error {
	switch {
	case c.IOCombineLimitGUC < 1 || c.IOCombineLimitGUC > MaxIOCombineLimit:
		return fmt.Errorf("aio: io_combine_limit %d outside 1..%d", c.IOCombineLimitGUC, MaxIOCombineLimit)
	case c.IOMaxCombineLimit < 1 || c.IOMaxCombineLimit > MaxIOCombineLimit:
		return fmt.Errorf("aio: io_max_combine_limit %d outside 1..%d", c.IOMaxCombineLimit, MaxIOCombineLimit)
	case c.IOMethod > IOUring:
		return fmt.Errorf("aio: unknown io_method %d", c.IOMethod)
	case c.IOMethod == Worker && (c.IOWorkers < 1 || c.IOWorkers > MaxIOWorkers):
		return fmt.Errorf("aio: io_workers %d outside 1..%d", c.IOWorkers, MaxIOWorkers)
	case c.IOMaxConcurrency != -1 && (c.IOMaxConcurrency < 1 || c.IOMaxConcurrency > 1024):
		return fmt.Errorf("aio: io_max_concurrency %d outside -1, 1..1024", c.IOMaxConcurrency)
	case c.IOLatencyUS < 0 || c.IOBlockUS < 0:
		return fmt.Errorf("aio: a negative I/O latency (%d us a call, %d us a block)", c.IOLatencyUS, c.IOBlockUS)
	}
	return c.streamConfig(c.Flags, c.Strategy).Validate(readstream.V18)
}

// streamConfig is what read_stream_begin_impl (read_stream.c, PG 18.4)
// reads for a stream with these flags and strategy: the concurrency GUCs,
// io_combine_limit (the smaller of the two GUCs), shared_buffers,
// MaxBackends, io_direct, and sync_mode (io_method=sync).
func (c Config) streamConfig(flags readstream.Flags, strategy Strategy) readstream.Config {
	return readstream.Config{
		Flags:                    flags,
		Strategy:                 strategy,
		EffectiveIOConcurrency:   c.EffectiveIOConcurrency,
		MaintenanceIOConcurrency: c.MaintenanceIOConcurrency,
		IOCombineLimit:           c.IOCombineLimit(),
		NBuffers:                 c.NBuffers,
		MaxBackends:              c.MaxBackends,
		DirectIOData:             c.DirectIOData,
		DisableFastPath:          c.DisableFastPath,
		SyncMode:                 c.IOMethod == Sync,
	}
}
