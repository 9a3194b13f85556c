package aio_test

import (
	"testing"

	"bufferlab/engine/aio"
)

// scanTime runs a cold 160-block heap scan (shared_buffers 128MB, 18.4's
// defaults otherwise) under the latency model at latencyUS a call and 8 us
// a block, with io_method m and workers I/O workers, and returns the
// backend's simulated clock at the end and the preadv calls made
// (latencyUS -1: no latency model at all).
func scanTime(t *testing.T, m aio.IOMethod, workers, latencyUS int, sched aio.Scheduler) (now uint64, reads int) {
	t.Helper()
	cfg := aio.DefaultConfig(0)
	cfg.IOMethod, cfg.IOWorkers = m, workers
	if latencyUS >= 0 {
		cfg.IOLatencyUS, cfg.IOBlockUS = latencyUS, 8
	}
	cfg = aio.HeapSequentialScanConfig(cfg, 160)
	sys, err := aio.NewSystem(cfg, aio.NewPool(), sched, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := aio.Begin(sys.Backend(0), aio.HeapScanSerial(160, 0))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(aio.Consume(s, -1, 0)); got != 160 {
		t.Fatalf("%s: the scan returned %d blocks, want 160", m, got)
	}
	s.End()
	sys.Quiesce()
	if err := sys.CheckQuiet(); err != nil {
		t.Fatal(err)
	}
	return sys.Backend(0).Now(), sys.Stats().Reads
}

// The latency model: the backend's clock is the time it read or waited.
//   - io_method=sync: the backend makes every preadv itself, one after
//     another: the 14 calls' latencies and the 160 blocks' cost
//     (14×100 + 160×8 = 2680 us), as PostgreSQL 17's stream.
//   - One I/O worker reads as serially: the same 2680 us.
//   - io_uring's device serves every I/O from its own submission: no
//     queueing. With as many workers as the most I/Os ever in flight (6
//     here), the workers are as fast as that.
//   - More workers are never slower; without the model the clock stays 0.
func TestLatencyModel(t *testing.T) {
	const serial = 14*100 + 160*8
	if now, reads := scanTime(t, aio.Sync, 1, 100, aio.RoundRobin()); now != serial || reads != 14 {
		t.Errorf("io_method=sync: %d us in %d reads, want %d us in 14", now, reads, serial)
	}
	if now, _ := scanTime(t, aio.Worker, 1, 100, aio.EarliestFirst()); now != serial {
		t.Errorf("one I/O worker: %d us, want %d (serial)", now, serial)
	}
	uring, _ := scanTime(t, aio.IOUring, 0, 100, aio.EarliestFirst())
	if uring >= serial {
		t.Errorf("io_uring: %d us, not below the serial %d", uring, serial)
	}
	prev := uint64(serial)
	for w := 2; w <= 8; w++ {
		now, _ := scanTime(t, aio.Worker, w, 100, aio.EarliestFirst())
		if now > prev || now < uring {
			t.Errorf("%d I/O workers: %d us; want between io_uring's %d and %d workers' %d", w, now, uring, w-1, prev)
		}
		prev = now
	}
	if prev != uring {
		t.Errorf("8 I/O workers: %d us, want io_uring's %d (at most 6 I/Os in flight)", prev, uring)
	}
	if now, _ := scanTime(t, aio.Worker, 3, -1, aio.EarliestFirst()); now != 0 {
		t.Errorf("no latency model: the clock is %d, want 0", now)
	}
}

// Under io_uring every I/O's end follows from its submission alone, so
// the backend's clock does not depend on the order the kernel's steps
// are taken in.
func TestLatencyModelURingOrderFree(t *testing.T) {
	want, _ := scanTime(t, aio.IOUring, 0, 100, aio.EarliestFirst())
	for name, s := range map[string]aio.Scheduler{
		"roundrobin": aio.RoundRobin(), "newest": aio.NewestFirst(),
		"seed:1": aio.Seeded(1), "seed:7": aio.Seeded(7), "seed:42": aio.Seeded(42),
	} {
		if got, _ := scanTime(t, aio.IOUring, 0, 100, s); got != want {
			t.Errorf("io_uring under %s: %d us, want %d (as under earliest-first)", name, got, want)
		}
	}
}
