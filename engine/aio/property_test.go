package aio_test

import (
	"fmt"
	"testing"

	"bufferlab/engine/aio"
	"bufferlab/engine/readstream"

	"pgregory.net/rapid"
)

// TestProperties drives a stream over any block sequence, cache state,
// configuration, I/O method and seeded schedule, like a heap scan, with
// the workers (or the kernel) taking a random number of steps between
// buffers, and checks after every buffer and at the end:
//
//   - the consumer receives the callback's blocks exactly once each, in
//     order (all of them, or the first stop);
//   - every buffer delivered is BM_VALID with no I/O in progress and no AIO
//     pin: its I/O completed before it was delivered;
//   - every uncached block asked for is read exactly once when the whole
//     stream is consumed, and no block is read twice, nor a cached one;
//   - no preadv exceeds io_combine_limit (nor crosses a 1GB segment);
//   - pinned_buffers stays within max_pinned_buffers, I/Os in progress
//     within max_ios;
//   - read_stream_end and the workers going idle leave no pin, no I/O in
//     progress and every handle idle.
func TestProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := aio.DefaultConfig(0)
		cfg.IOMethod = rapid.SampledFrom([]aio.IOMethod{aio.Sync, aio.Worker, aio.IOUring}).Draw(t, "io_method")
		cfg.IOWorkers = rapid.IntRange(1, 4).Draw(t, "io_workers")
		cfg.EffectiveIOConcurrency = rapid.IntRange(0, 20).Draw(t, "eic")
		cfg.MaintenanceIOConcurrency = rapid.IntRange(0, 20).Draw(t, "mic")
		cfg.IOCombineLimitGUC = rapid.IntRange(1, 40).Draw(t, "io_combine_limit")
		cfg.IOMaxConcurrency = rapid.SampledFrom([]int{-1, 1, 2, 3, 8}).Draw(t, "io_max_concurrency")
		cfg.NBuffers = rapid.SampledFrom([]int{16, 1000, 3200, 16384}).Draw(t, "nbuffers")
		for _, f := range []readstream.Flags{readstream.Maintenance, readstream.Sequential, readstream.Full, readstream.UseBatching} {
			if rapid.Bool().Draw(t, f.String()) {
				cfg.Flags |= f
			}
		}
		st := rapid.SampledFrom([]aio.StrategyType{aio.NoStrategy, aio.BulkRead, aio.BulkWrite, aio.Vacuum}).Draw(t, "strategy")
		cfg.Strategy = aio.GetAccessStrategy(st, cfg.NBuffers, cfg.MaxBackends, cfg.IOCombineLimit(), cfg.EffectiveIOConcurrency)
		cfg.DisableFastPath = rapid.Bool().Draw(t, "no_fast_path")

		var blocks []aio.BlockNumber
		for runs := rapid.IntRange(0, 10).Draw(t, "runs"); runs > 0; runs-- {
			start := rapid.Uint32Range(0, 100).Draw(t, "start")
			if rapid.IntRange(0, 9).Draw(t, "segment") == 0 {
				start += aio.RelSegSize - 20 // near a segment boundary
			}
			n := rapid.IntRange(1, 40).Draw(t, "length")
			for k := 0; k < n; k++ {
				blocks = append(blocks, aio.BlockNumber(start)+aio.BlockNumber(k))
			}
		}
		cachedList := rapid.SliceOfN(rapid.Uint32Range(0, 140), 0, 60).Draw(t, "cached")
		cached := map[aio.BlockNumber]bool{}
		var cachedBlocks []aio.BlockNumber
		for _, c := range cachedList {
			cached[aio.BlockNumber(c)] = true
			cachedBlocks = append(cachedBlocks, aio.BlockNumber(c))
		}
		stop := rapid.IntRange(-1, len(blocks)).Draw(t, "stop")
		seed := rapid.Uint64().Draw(t, "schedule")

		pool := aio.NewPool(cachedBlocks...)
		log := &aio.Log{}
		sys, err := aio.NewSystem(cfg, pool, aio.Seeded(seed), log)
		if err != nil {
			t.Fatalf("NewSystem: %v", err)
		}
		s, err := aio.Begin(sys.Backend(0), aio.BlockList(blocks))
		if err != nil {
			t.Fatalf("Begin: %v", err)
		}
		p := s.Params()
		var got []aio.BlockNumber
		held := aio.InvalidBuffer
		for stop < 0 || len(got) < stop {
			if held != aio.InvalidBuffer {
				pool.ReleaseBuffer(held)
				held = aio.InvalidBuffer
			}
			held = s.NextBuffer()
			if s.PinnedBuffers() < 0 || s.PinnedBuffers() > p.MaxPinnedBuffers {
				t.Fatalf("%d pinned, max_pinned_buffers %d", s.PinnedBuffers(), p.MaxPinnedBuffers)
			}
			if s.IOsInProgress() < 0 || s.IOsInProgress() > p.MaxIOs {
				t.Fatalf("%d I/Os in progress, max_ios %d", s.IOsInProgress(), p.MaxIOs)
			}
			if held == aio.InvalidBuffer {
				break
			}
			b := pool.BufferGetBlockNumber(held)
			if !pool.Valid(b) || pool.IOInProgress(b) {
				t.Fatalf("block %d delivered before its I/O completed", b)
			}
			got = append(got, b)
			sys.Background(rapid.IntRange(0, 4).Draw(t, "bg"))
		}
		if held != aio.InvalidBuffer {
			pool.ReleaseBuffer(held)
		}
		s.End()
		sys.Quiesce()

		want := blocks
		if stop >= 0 && stop < len(blocks) {
			want = blocks[:stop]
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("delivered %v, want %v", got, want)
		}
		asked := map[aio.BlockNumber]bool{}
		for _, b := range blocks {
			asked[b] = true
		}
		for _, e := range log.Events {
			if e.Kind == aio.KindPreadv {
				if e.N < 1 || e.N > p.IOCombineLimit {
					t.Fatalf("preadv of %d blocks, io_combine_limit %d", e.N, p.IOCombineLimit)
				}
				if int(e.Block)/aio.RelSegSize != int(e.Block+aio.BlockNumber(e.N)-1)/aio.RelSegSize {
					t.Fatalf("preadv %d [%d] crosses a segment", e.Block, e.N)
				}
			}
		}
		for b := range asked {
			r := pool.Reads(b)
			if r > 1 || (cached[b] && r > 0) {
				t.Fatalf("block %d read %d times (cached %v)", b, r, cached[b])
			}
		}
		if len(got) == len(blocks) {
			for b := range asked {
				if !cached[b] && pool.Reads(b) != 1 {
					t.Fatalf("uncached block %d read %d times", b, pool.Reads(b))
				}
			}
		}
		if pool.Pins != 0 {
			t.Fatalf("%d pins after read_stream_end", pool.Pins)
		}
		if err := sys.CheckQuiet(); err != nil {
			t.Fatal(err)
		}
	})
}
