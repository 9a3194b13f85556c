package readstream_test

import (
	"fmt"
	"slices"
	"testing"

	"bufferlab/engine/readstream"

	"pgregory.net/rapid"
)

// genConfig draws a configuration PostgreSQL would accept: any flags, the
// GUCs over their ranges (io concurrency kept small so that runs stay
// short), pools from the toy 16 buffers up to 128MB, any ring, with or
// without prefetch, direct I/O and the fast path.
func genConfig(t *rapid.T) readstream.Config {
	var cfg readstream.Config
	if rapid.Bool().Draw(t, "maintenance") {
		cfg.Flags |= readstream.Maintenance
	}
	if rapid.Bool().Draw(t, "sequential") {
		cfg.Flags |= readstream.Sequential
	}
	if rapid.Bool().Draw(t, "full") {
		cfg.Flags |= readstream.Full
	}
	cfg.IOCombineLimit = rapid.IntRange(1, readstream.MaxIOCombineLimit).Draw(t, "io_combine_limit")
	cfg.NoPrefetch = rapid.Bool().Draw(t, "no_prefetch")
	if !cfg.NoPrefetch {
		cfg.EffectiveIOConcurrency = rapid.IntRange(0, 20).Draw(t, "effective_io_concurrency")
		cfg.MaintenanceIOConcurrency = rapid.IntRange(0, 20).Draw(t, "maintenance_io_concurrency")
	}
	cfg.NBuffers = rapid.SampledFrom([]int{16, 128, 1000, 3200, 16384}).Draw(t, "nbuffers")
	cfg.MaxBackends = readstream.DefaultMaxBackends
	cfg.PrivateRefCountOverflowed = rapid.IntRange(0, 3).Draw(t, "overflowed")
	st := rapid.SampledFrom([]readstream.StrategyType{readstream.NoStrategy, readstream.BulkRead,
		readstream.BulkWrite, readstream.Vacuum}).Draw(t, "strategy")
	cfg.Strategy = readstream.RingStrategy(st, cfg.NBuffers)
	cfg.DirectIOData = rapid.Bool().Draw(t, "direct_io")
	cfg.DisableFastPath = rapid.Bool().Draw(t, "no_fast_path")
	return cfg
}

// genBlocks draws a block sequence as runs of consecutive blocks from
// random starts: runs may touch, overlap and repeat blocks, as an index
// scan's or a bitmap's could.
func genBlocks(t *rapid.T) []readstream.BlockNumber {
	var bs []readstream.BlockNumber
	runs := rapid.IntRange(0, 12).Draw(t, "runs")
	for i := 0; i < runs; i++ {
		start := rapid.Uint32Range(0, 100).Draw(t, "start")
		n := rapid.IntRange(1, 40).Draw(t, "length")
		for k := 0; k < n; k++ {
			bs = append(bs, readstream.BlockNumber(start)+readstream.BlockNumber(k))
		}
	}
	return bs
}

// TestProperties drives a stream over any block sequence, cache state and
// configuration, like a heap scan (release, then next), and checks after
// every call and at the end:
//
//   - the consumer receives the callback's blocks exactly once each, in
//     order (all of them, or the first stop when it ends the stream early),
//     every one valid when received;
//   - every block read was asked for and not cached, and is read at most
//     once; with the whole stream consumed, every uncached block asked for
//     is read exactly once;
//   - every smgrreadv reads 1..io_combine_limit consecutive blocks (MemPool
//     checks consecutiveness and that each block's I/O was started);
//   - pinned_buffers stays within max_pinned_buffers, reads in progress
//     within max_ios, and the pool's pins are exactly the stream's plus
//     the consumer's one;
//   - read_stream_end leaves nothing pinned, pending or in progress.
func TestProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := genConfig(t)
		blocks := genBlocks(t)
		cachedList := rapid.SliceOfN(rapid.Uint32Range(0, 140), 0, 60).Draw(t, "cached")
		stop := rapid.IntRange(-1, len(blocks)).Draw(t, "stop")

		cached := map[readstream.BlockNumber]bool{}
		var cachedBlocks []readstream.BlockNumber
		for _, c := range cachedList {
			cached[readstream.BlockNumber(c)] = true
			cachedBlocks = append(cachedBlocks, readstream.BlockNumber(c))
		}
		pool := readstream.NewMemPool(cachedBlocks...)
		log := &readstream.Log{}
		s, err := readstream.Begin(cfg, pool, readstream.BlockList(blocks), log)
		if err != nil {
			t.Fatalf("Begin: %v", err)
		}
		p := s.Params()
		if p.IOCombineLimit != cfg.IOCombineLimit || p.MaxPinnedBuffers < 1 || p.MaxIOs < 1 {
			t.Fatalf("Begin chose %v", p)
		}

		var got []readstream.BlockNumber
		held := readstream.InvalidBuffer
		check := func(when string) {
			if s.PinnedBuffers() < 0 || s.PinnedBuffers() > p.MaxPinnedBuffers {
				t.Fatalf("%s: %d pinned, max_pinned_buffers %d", when, s.PinnedBuffers(), p.MaxPinnedBuffers)
			}
			if s.IOsInProgress() < 0 || s.IOsInProgress() > p.MaxIOs {
				t.Fatalf("%s: %d reads in progress, max_ios %d", when, s.IOsInProgress(), p.MaxIOs)
			}
			consumer := 0
			if held != readstream.InvalidBuffer {
				consumer = 1
			}
			if pool.Pins != s.PinnedBuffers()+consumer {
				t.Fatalf("%s: pool has %d pins, stream %d + consumer %d", when, pool.Pins, s.PinnedBuffers(), consumer)
			}
		}
		for stop < 0 || len(got) < stop {
			if held != readstream.InvalidBuffer {
				pool.ReleaseBuffer(held)
				held = readstream.InvalidBuffer
			}
			held = s.NextBuffer()
			check(fmt.Sprintf("after buffer %d", len(got)))
			if held == readstream.InvalidBuffer {
				break
			}
			b := pool.BufferGetBlockNumber(held)
			if !pool.Valid(b) {
				t.Fatalf("block %d delivered before it was read", b)
			}
			got = append(got, b)
		}
		if held != readstream.InvalidBuffer {
			pool.ReleaseBuffer(held)
			held = readstream.InvalidBuffer
		}
		full := len(got) == len(blocks)
		want := blocks
		if stop >= 0 && stop < len(blocks) {
			want = blocks[:stop]
		}
		if !slices.Equal(got, want) {
			t.Fatalf("delivered %v, callback gave %v", got, want)
		}

		s.End()
		check("after read_stream_end")
		if pool.Pins != 0 || s.PinnedBuffers() != 0 || s.IOsInProgress() != 0 {
			t.Fatalf("after read_stream_end: %d pool pins, %d pinned, %d in progress", pool.Pins, s.PinnedBuffers(), s.IOsInProgress())
		}
		if _, n := s.Pending(); n != 0 {
			t.Fatalf("after read_stream_end: %d blocks still pending", n)
		}

		asked := map[readstream.BlockNumber]bool{}
		for _, b := range blocks {
			asked[b] = true
		}
		for _, r := range pool.Reads {
			if r.N < 1 || r.N > cfg.IOCombineLimit {
				t.Fatalf("smgrreadv of %d blocks from %d, io_combine_limit %d", r.N, r.Block, cfg.IOCombineLimit)
			}
			for k := 0; k < r.N; k++ {
				b := r.Block + readstream.BlockNumber(k)
				if !asked[b] || cached[b] {
					t.Fatalf("block %d read: asked %v, cached %v", b, asked[b], cached[b])
				}
				if pool.ReadCount(b) != 1 {
					t.Fatalf("block %d read %d times", b, pool.ReadCount(b))
				}
			}
		}
		st := s.Stats()
		total := 0
		for _, r := range pool.Reads {
			total += r.N
		}
		if st.ReadVs != len(pool.Reads) || st.BlocksRead != total {
			t.Fatalf("stats: %d smgrreadv of %d blocks, pool saw %d of %d", st.ReadVs, st.BlocksRead, len(pool.Reads), total)
		}
		if !slices.Equal(log.Reads(), pool.Reads) {
			t.Fatalf("log's reads %v, pool's %v", log.Reads(), pool.Reads)
		}
		for _, b := range got {
			if !cached[b] && pool.ReadCount(b) != 1 {
				t.Fatalf("delivered uncached block %d read %d times", b, pool.ReadCount(b))
			}
		}
		if full {
			for b := range asked {
				if !cached[b] && pool.ReadCount(b) != 1 {
					t.Fatalf("uncached block %d read %d times", b, pool.ReadCount(b))
				}
			}
		}
	})
}

// TestFastPathChangesNothingWithoutAdvice runs each stream twice, with and
// without the fast path (READ_STREAM_DISABLE_FAST_PATH), and requires the
// same StartReadBuffers calls (block, asked, covered, wait), the same reads
// and the same deliveries when advice is off. read_stream.c says the fast
// path "is the same as the usual algorithm, but it is specialized for no
// I/O"; with advice on it is not quite: it asks for advice on any miss,
// where the usual path skips it for a block that continues the last read
// (seq_blocknum), and advice changes the distance rule (C instead of B).
// testdata/advice.txt shows such a stream both ways.
func TestFastPathChangesNothingWithoutAdvice(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := genConfig(t)
		cfg.Flags |= readstream.Sequential // advice off
		blocks := genBlocks(t)
		cachedList := rapid.SliceOfN(rapid.Uint32Range(0, 140), 0, 100).Draw(t, "cached")
		var cached []readstream.BlockNumber
		for _, c := range cachedList {
			cached = append(cached, readstream.BlockNumber(c))
		}
		run := func(disable bool) *readstream.Log {
			c := cfg
			c.DisableFastPath = disable
			log := &readstream.Log{}
			s, err := readstream.Begin(c, readstream.NewMemPool(cached...), readstream.BlockList(blocks), log)
			if err != nil {
				t.Fatalf("Begin: %v", err)
			}
			readstream.Consume(s, -1)
			s.End()
			return log
		}
		on, off := run(false), run(true)
		type call struct {
			block          readstream.BlockNumber
			asked, covered int
			wait           bool
		}
		calls := func(l *readstream.Log) []call {
			var cs []call
			for _, e := range l.Starts() {
				cs = append(cs, call{e.Block, e.Asked, e.N, e.Wait})
			}
			return cs
		}
		if !slices.Equal(calls(on), calls(off)) {
			t.Fatalf("StartReadBuffers calls differ:\nfast path:    %v\nno fast path: %v", calls(on), calls(off))
		}
		if !slices.Equal(on.Reads(), off.Reads()) || !slices.Equal(on.Delivered(), off.Delivered()) {
			t.Fatalf("reads or deliveries differ:\n%s\n%s", on.Summary(), off.Summary())
		}
	})
}

// TestBeginParams pins the sizes read_stream_begin_relation chooses, each
// worked out from the source (read_stream.c, freelist.c, bufmgr.c, PG 17.9).
func TestBeginParams(t *testing.T) {
	def := func(f readstream.Flags) readstream.Config { return readstream.DefaultConfig(f) }
	with := func(c readstream.Config, edit func(*readstream.Config)) readstream.Config { edit(&c); return c }
	for _, tc := range []struct {
		name string
		cfg  readstream.Config
		want string
	}{
		// Max(1*4, 16) = 16; no strategy: NBuffers; LimitAdditionalPins:
		// 16384/(123+6) - 8 = 119; advice off (SEQUENTIAL).
		{"heap seqscan, 128MB", readstream.HeapSequentialScanConfig(160, readstream.DefaultNBuffers),
			"max_ios=1 io_combine_limit=16 max_pinned_buffers=16 queue_size=17 distance=1 advice=off"},
		// 5000 > 16384/4: BULKREAD ring of 32, which does not bind.
		{"heap seqscan over NBuffers/4", readstream.HeapSequentialScanConfig(5000, readstream.DefaultNBuffers),
			"max_ios=1 io_combine_limit=16 max_pinned_buffers=16 queue_size=17 distance=1 advice=off"},
		// 16 buffers: ring Min(16/8, 32) = 2; LimitAdditionalPins: 16/129 - 8 < 0 → 1.
		{"heap seqscan, 16-buffer pool", readstream.HeapSequentialScanConfig(160, 16),
			"max_ios=1 io_combine_limit=16 max_pinned_buffers=1 queue_size=2 distance=1 advice=off"},
		// 3096 = (16+8)*129 is the smallest pool with 16 pins to spare.
		{"3096 buffers", with(def(readstream.Sequential), func(c *readstream.Config) { c.NBuffers = 3096 }),
			"max_ios=1 io_combine_limit=16 max_pinned_buffers=16 queue_size=17 distance=1 advice=off"},
		{"3095 buffers", with(def(readstream.Sequential), func(c *readstream.Config) { c.NBuffers = 3095 }),
			"max_ios=1 io_combine_limit=16 max_pinned_buffers=15 queue_size=16 distance=1 advice=off"},
		// ANALYZE: maintenance_io_concurrency 10 → Max(40, 16); BAS_VACUUM
		// ring 2048kB = 256 buffers, pin limit 128.
		{"analyze", with(def(readstream.Maintenance), func(c *readstream.Config) {
			c.Strategy = readstream.RingStrategy(readstream.Vacuum, c.NBuffers)
		}), "max_ios=10 io_combine_limit=16 max_pinned_buffers=40 queue_size=41 distance=1 advice=on"},
		// pg_prewarm (buffer mode): FULL starts at Min(16, 16).
		{"prewarm", def(readstream.Full),
			"max_ios=1 io_combine_limit=16 max_pinned_buffers=16 queue_size=17 distance=16 advice=on"},
		// effective_io_concurrency 0: max_ios 1, no advice.
		{"eic 0", with(def(0), func(c *readstream.Config) { c.EffectiveIOConcurrency = 0 }),
			"max_ios=1 io_combine_limit=16 max_pinned_buffers=16 queue_size=17 distance=1 advice=off"},
		// 1000*4 = 4000, clamped by LimitAdditionalPins to 119.
		{"eic 1000", with(def(0), func(c *readstream.Config) { c.EffectiveIOConcurrency = 1000 }),
			"max_ios=1000 io_combine_limit=16 max_pinned_buffers=119 queue_size=120 distance=1 advice=on"},
		// A BULKWRITE ring (16MB = 2048) pins at most half: 1024; VACUUM at
		// 128kB (16 buffers) only 8, below io_combine_limit.
		{"small vacuum ring", with(def(0), func(c *readstream.Config) {
			c.Strategy = readstream.Strategy{Type: readstream.Vacuum, Buffers: 16}
		}), "max_ios=1 io_combine_limit=16 max_pinned_buffers=8 queue_size=9 distance=1 advice=on"},
		// io_direct=data: no advice even for a random stream.
		{"direct io", with(def(0), func(c *readstream.Config) { c.DirectIOData = true }),
			"max_ios=1 io_combine_limit=16 max_pinned_buffers=16 queue_size=17 distance=1 advice=off"},
	} {
		s, err := readstream.Begin(tc.cfg, readstream.NewMemPool(), readstream.BlockList(nil), nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := s.Params().String(); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// TestBeginRejects checks the GUC ranges PostgreSQL enforces.
func TestBeginRejects(t *testing.T) {
	for _, edit := range []func(*readstream.Config){
		func(c *readstream.Config) { c.IOCombineLimit = 0 },
		func(c *readstream.Config) { c.IOCombineLimit = 33 },
		func(c *readstream.Config) { c.EffectiveIOConcurrency = 1001 },
		func(c *readstream.Config) { c.NoPrefetch = true }, // eic 1 needs posix_fadvise
		func(c *readstream.Config) { c.NBuffers = 15 },
	} {
		cfg := readstream.DefaultConfig(0)
		edit(&cfg)
		if _, err := readstream.Begin(cfg, readstream.NewMemPool(), readstream.BlockList(nil), nil); err == nil {
			t.Errorf("Begin accepted %+v", cfg)
		}
	}
}
