package readstream

import (
	"fmt"
	"strings"

	"bufferlab/engine/internal/enum"
)

// BlockNumber is a block of one relation fork (BlockNumber, block.h).
type BlockNumber uint32

// InvalidBlockNumber is what a callback returns at the end of its stream
// (InvalidBlockNumber, block.h: 0xFFFFFFFF).
const InvalidBlockNumber BlockNumber = 0xFFFFFFFF

// Buffer is a pool's buffer handle (Buffer, buf.h). InvalidBuffer is 0;
// read_stream_next_buffer returns it at the end of the stream.
type Buffer int32

// InvalidBuffer is InvalidBuffer (buf.h).
const InvalidBuffer Buffer = 0

// Flags are read_stream_begin_relation's flags (read_stream.h, PG 17 and
// 18):
//
//	bit   3              2      1           0
//	     +--------------+------+------------+-------------+
//	     | USE_BATCHING | FULL | SEQUENTIAL | MAINTENANCE |
//	     +--------------+------+------------+-------------+
//
// READ_STREAM_DEFAULT is 0; USE_BATCHING is new in 18.
type Flags uint8

const (
	// Maintenance is READ_STREAM_MAINTENANCE (0x01): max_ios comes from
	// maintenance_io_concurrency, not effective_io_concurrency (ANALYZE's
	// block sampler, analyze.c: acquire_sample_rows).
	Maintenance Flags = 0x01
	// Sequential is READ_STREAM_SEQUENTIAL (0x02): never issue advice,
	// whatever the pattern looks like (the heap's sequential scan,
	// heapam.c: heap_beginscan).
	Sequential Flags = 0x02
	// Full is READ_STREAM_FULL (0x04): skip the ramp-up, start at distance
	// Min(max_pinned_buffers, io_combine_limit) (pg_prewarm's buffer mode).
	Full Flags = 0x04
	// UseBatching is READ_STREAM_USE_BATCHING (0x08), new in 18: the
	// look-ahead runs in AIO batch mode (pgaio_enter_batchmode), so the
	// reads it starts are staged and submitted together when it ends.
	UseBatching Flags = 0x08
)

// String names the flags as PostgreSQL does, "0" for READ_STREAM_DEFAULT.
func (f Flags) String() string { return enum.Bits(flagNames[:], f, "DEFAULT") }

// flagNames name the flags' bits.
var flagNames = [...]string{"MAINTENANCE", "SEQUENTIAL", "FULL", "USE_BATCHING"}

// ParseFlags reads a comma-separated set of flags as the golden tests'
// flags= argument writes them: each bit by its PostgreSQL name without
// READ_STREAM_, in any case ("sequential", "full"; "batching" also names
// USE_BATCHING), and "default" (READ_STREAM_DEFAULT, no bit). The empty
// string is an error: say "default" for none.
func ParseFlags(s string) (Flags, error) {
	var f Flags
	for _, name := range strings.Split(s, ",") {
		switch up := strings.ToUpper(strings.TrimSpace(name)); up {
		case "DEFAULT":
		case "BATCHING":
			f |= UseBatching
		default:
			bit, ok := enum.Parse[uint8](flagNames[:], up)
			if !ok {
				return 0, fmt.Errorf("flags: unknown %q (want default, maintenance, sequential, full or batching, joined by commas)", name)
			}
			f |= 1 << bit
		}
	}
	return f, nil
}

// The GUC defaults and limits of PostgreSQL 17.9 on Linux (64-bit,
// BLCKSZ 8192), with where each is defined.
const (
	// DefaultEffectiveIOConcurrency is DEFAULT_EFFECTIVE_IO_CONCURRENCY
	// (bufmgr.h): 1 where USE_PREFETCH is defined (posix_fadvise exists,
	// pg_config_manual.h), as on Linux; 0 elsewhere (macOS, Windows).
	DefaultEffectiveIOConcurrency = 1
	// DefaultMaintenanceIOConcurrency is DEFAULT_MAINTENANCE_IO_CONCURRENCY
	// (bufmgr.h): 10 with USE_PREFETCH, else 0.
	DefaultMaintenanceIOConcurrency = 10
	// MaxIOConcurrency is MAX_IO_CONCURRENCY (bufmgr.h), both GUCs' maximum.
	MaxIOConcurrency = 1000
	// MaxIOCombineLimit is MAX_IO_COMBINE_LIMIT = PG_IOV_MAX =
	// Min(IOV_MAX, 32) (bufmgr.h, port/pg_iovec.h); Linux's IOV_MAX is 1024.
	MaxIOCombineLimit = 32
	// MaxIOCombineLimit18 is PostgreSQL 18's MAX_IO_COMBINE_LIMIT =
	// PG_IOV_MAX = Min(IOV_MAX, 128) (bufmgr.h, port/pg_iovec.h, PG 18).
	MaxIOCombineLimit18 = 128
	// DefaultIOCombineLimit is DEFAULT_IO_COMBINE_LIMIT =
	// Min(MAX_IO_COMBINE_LIMIT, 128kB / BLCKSZ) = 16 blocks (bufmgr.h).
	DefaultIOCombineLimit = 16
	// DefaultNBuffers is shared_buffers = 128MB in 8kB buffers.
	DefaultNBuffers = 16384
	// DefaultMaxBackends is MaxBackends with every GUC at its default
	// (postinit.c: InitializeMaxBackends): max_connections 100 +
	// autovacuum_max_workers 3 + max_worker_processes 8 + max_wal_senders
	// 10 + NUM_SPECIAL_WORKER_PROCS 2 (autovacuum launcher, slotsync worker).
	DefaultMaxBackends = 123
	// NumAuxiliaryProcs is NUM_AUXILIARY_PROCS (proc.h, PG 17): 6.
	NumAuxiliaryProcs = 6
	// RefcountArrayEntries is REFCOUNT_ARRAY_ENTRIES (bufmgr.c): the pins
	// LimitAdditionalPins assumes the backend already holds.
	RefcountArrayEntries = 8
	// int16Max is PG_INT16_MAX: the stream's counters are int16.
	int16Max = 32767
)

// StrategyType is a BufferAccessStrategyType (bufmgr.h) as far as the
// read stream cares: whether there is a ring, and which kind.
type StrategyType uint8

const (
	// NoStrategy is a NULL BufferAccessStrategy (BAS_NORMAL): the whole
	// pool. A heap scan of at most NBuffers/4 blocks has none
	// (heapam.c: initscan).
	NoStrategy StrategyType = iota
	// BulkRead is BAS_BULKREAD: 256kB, capped at NBuffers/8
	// (freelist.c: GetAccessStrategy, GetAccessStrategyWithSize).
	BulkRead
	// BulkWrite is BAS_BULKWRITE: 16MB.
	BulkWrite
	// Vacuum is BAS_VACUUM: vacuum_buffer_usage_limit, 2048kB by default in
	// 17 (guc_tables.c; vacuum.c: vacuum builds it for VACUUM and ANALYZE).
	Vacuum
)

// Strategy is the access strategy a stream's reads go through: its type
// and its ring's size in buffers (BufferAccessStrategyData.nbuffers).
type Strategy struct {
	Type    StrategyType
	Buffers int
}

// RingStrategy is GetAccessStrategy(btype) (freelist.c, PG 17) for a pool of
// nBuffers: the ring's default size in kB over 8kB blocks, capped at
// NBuffers/8 (GetAccessStrategyWithSize). NoStrategy gives the zero value.
func RingStrategy(t StrategyType, nBuffers int) Strategy {
	kb := 0
	switch t {
	case BulkRead:
		kb = 256
	case BulkWrite:
		kb = 16 * 1024
	case Vacuum:
		kb = 2048
	default:
		return Strategy{}
	}
	return Strategy{Type: t, Buffers: min(nBuffers/8, kb/8)}
}

// GetAccessStrategyPinLimit (freelist.c, PG 17): how many buffers a
// look-ahead through this strategy may pin at once. No strategy: NBuffers.
// BULKREAD: the whole ring (it rejects dirty buffers, StrategyRejectBuffer,
// so pinning all of it is safe). Any other ring: half of it, not to force
// writes and WAL flushes too often.
func GetAccessStrategyPinLimit(s Strategy, nBuffers int) int {
	switch s.Type {
	case NoStrategy:
		return nBuffers
	case BulkRead:
		return s.Buffers
	default:
		return s.Buffers / 2
	}
}

// LimitAdditionalPins (bufmgr.c, PG 17) clamps a batch's extra pins to this
// backend's share of the pool: NBuffers / (MaxBackends +
// NUM_AUXILIARY_PROCS), less the pins it may hold already (the overflowed
// ones plus all REFCOUNT_ARRAY_ENTRIES, assumed full), and at least 1. A
// request of at most 1 pin is left alone. Cost: arithmetic only.
func LimitAdditionalPins(additional, nBuffers, maxBackends, privateRefCountOverflowed int) int {
	if additional <= 1 {
		return additional
	}
	prop := nBuffers / (maxBackends + NumAuxiliaryProcs)
	prop -= privateRefCountOverflowed + RefcountArrayEntries
	if prop <= 0 {
		prop = 1
	}
	return min(additional, prop)
}

// Config is what read_stream_begin_relation reads: its flags and strategy
// argument, and the GUCs and build options it consults. The zero value is
// not usable; start from DefaultConfig.
type Config struct {
	Flags    Flags
	Strategy Strategy

	EffectiveIOConcurrency   int // effective_io_concurrency (no tablespace override modelled)
	MaintenanceIOConcurrency int // maintenance_io_concurrency
	IOCombineLimit           int // io_combine_limit, in blocks

	NBuffers    int // shared_buffers in 8kB buffers
	MaxBackends int // MaxBackends (InitializeMaxBackends)

	// PrivateRefCountOverflowed is the backend's PrivateRefCountOverflowed
	// when the stream begins (pins it holds beyond its 8-entry array).
	PrivateRefCountOverflowed int

	// NoPrefetch is a build without USE_PREFETCH (no posix_fadvise): no
	// advice, and effective_io_concurrency must then be 0.
	NoPrefetch bool
	// DirectIOData is io_direct including "data" (IO_DIRECT_DATA): no advice.
	DirectIOData bool
	// DisableFastPath is a build with READ_STREAM_DISABLE_FAST_PATH.
	DisableFastPath bool

	// SyncMode is io_method=sync (18's sync_mode): the reads happen in
	// WaitReadBuffers, and only then is advice issued.
	SyncMode bool
}

// DefaultConfig is PostgreSQL 17.9's defaults on Linux at shared_buffers =
// 128MB, for a stream with the given flags and no strategy.
func DefaultConfig(flags Flags) Config {
	return Config{
		Flags:                    flags,
		EffectiveIOConcurrency:   DefaultEffectiveIOConcurrency,
		MaintenanceIOConcurrency: DefaultMaintenanceIOConcurrency,
		IOCombineLimit:           DefaultIOCombineLimit,
		NBuffers:                 DefaultNBuffers,
		MaxBackends:              DefaultMaxBackends,
	}
}

// Validate checks the GUC ranges PostgreSQL v enforces (guc_tables.c and
// the check hooks), so that a caller's mistake is an error, not a stream
// that PostgreSQL could not build. Begin and Begin18 call it; engine/aio
// checks the GUCs it shares with the stream through it.
func (c Config) Validate(v Version) error {
	maxICL := MaxIOCombineLimit
	if v >= V18 {
		maxICL = MaxIOCombineLimit18
	}
	switch {
	case v != V17 && v != V18:
		return fmt.Errorf("readstream: no model of PostgreSQL %d's read stream", v)
	case c.SyncMode && v == V17:
		return fmt.Errorf("readstream: io_method is PostgreSQL 18's")
	case c.Flags&UseBatching != 0 && v == V17:
		return fmt.Errorf("readstream: READ_STREAM_USE_BATCHING is PostgreSQL 18's")
	case c.IOCombineLimit < 1 || c.IOCombineLimit > maxICL:
		return fmt.Errorf("readstream: io_combine_limit %d outside 1..%d", c.IOCombineLimit, maxICL)
	case c.EffectiveIOConcurrency < 0 || c.EffectiveIOConcurrency > MaxIOConcurrency:
		return fmt.Errorf("readstream: effective_io_concurrency %d outside 0..%d", c.EffectiveIOConcurrency, MaxIOConcurrency)
	case c.MaintenanceIOConcurrency < 0 || c.MaintenanceIOConcurrency > MaxIOConcurrency:
		return fmt.Errorf("readstream: maintenance_io_concurrency %d outside 0..%d", c.MaintenanceIOConcurrency, MaxIOConcurrency)
	case c.NoPrefetch && (c.EffectiveIOConcurrency != 0 || c.MaintenanceIOConcurrency != 0):
		// check_effective_io_concurrency / check_maintenance_io_concurrency
		return fmt.Errorf("readstream: io concurrency must be 0 on a platform without posix_fadvise")
	case c.NBuffers < 16:
		return fmt.Errorf("readstream: shared_buffers %d below 16 buffers", c.NBuffers)
	case c.MaxBackends < 1:
		return fmt.Errorf("readstream: MaxBackends %d below 1", c.MaxBackends)
	case c.PrivateRefCountOverflowed < 0:
		return fmt.Errorf("readstream: PrivateRefCountOverflowed %d below 0", c.PrivateRefCountOverflowed)
	case c.Strategy.Type != NoStrategy && c.Strategy.Buffers < 1:
		return fmt.Errorf("readstream: a ring strategy needs at least 1 buffer")
	}
	return nil
}
