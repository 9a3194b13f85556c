package aio_test

import (
	"testing"

	"bufferlab/engine/aio"
)

// TestDefaults pins 18.4's numbers derived in docs/pg18-aio.md §1–3.
func TestDefaults(t *testing.T) {
	cfg := aio.DefaultConfig(0)
	check := func(what string, got, want int) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %d, want %d", what, got, want)
		}
	}
	check("MaxProportionalPins at 128MB", aio.MaxProportionalPins(cfg.NBuffers, cfg.MaxBackends), 94)
	check("io_max_concurrency -1 at 128MB", cfg.Handles(), 64)
	check("io_max_concurrency -1 at 16 buffers", aio.AioChooseMaxConcurrency(16, aio.DefaultMaxBackends), 1)
	check("io_combine_limit", cfg.IOCombineLimit(), 16)
	check("BULKREAD ring at 128MB", aio.GetAccessStrategy(aio.BulkRead, 16384, aio.DefaultMaxBackends, 16, 16).Buffers, 94)
	check("BULKREAD ring with eic 0", aio.GetAccessStrategy(aio.BulkRead, 16384, aio.DefaultMaxBackends, 16, 0).Buffers, 32)
	check("BULKREAD ring at 1GB", aio.GetAccessStrategy(aio.BulkRead, 131072, aio.DefaultMaxBackends, 16, 16).Buffers, 288)
	check("BULKREAD ring at 16MB", aio.GetAccessStrategy(aio.BulkRead, 2048, aio.DefaultMaxBackends, 16, 16).Buffers, 32)
	check("VACUUM ring", aio.GetAccessStrategy(aio.Vacuum, 16384, aio.DefaultMaxBackends, 16, 16).Buffers, 256)

	sys, err := aio.NewSystem(aio.HeapSequentialScanConfig(cfg, 1_000_000), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := aio.Begin(sys.Backend(0), aio.HeapScanSerial(10, 0))
	if err != nil {
		t.Fatal(err)
	}
	p := s.Params()
	check("max_pinned_buffers of a large scan (ring 94)", p.MaxPinnedBuffers, 94)
	check("max_ios", p.MaxIOs, 16)
	if p.AdviceEnabled || !p.BatchMode || p.SyncMode {
		t.Errorf("heap scan stream: %v", p)
	}
}
