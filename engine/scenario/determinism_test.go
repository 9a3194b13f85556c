package scenario

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"bufferlab/engine/trace"
)

// A scenario with several backends contending for a small pool under a
// seeded random schedule: reads, pins, dirty victims, a ring scan.
const contended = `config shared_buffers=16 schedule=random seed=42
relation t blocks=30
relation big blocks=12
backend A: touch t 0..20; write t 3; read t 5; dirty t 5; release t 5
backend B: read t 0..3; touch t 10..25; release all
backend C: scan big; touch t 0..9
backend D: write t 0..6; touch t 20..29
run
`

// goldenContendedHash is the trace hash of contended. It is the same on
// every platform: `make test` also runs this test under GOOS=js GOARCH=wasm.
// It changes only when the engine's behaviour or the event encoding changes
// on purpose; update it then. (c58575ecc70cbbae → af572d16d9df3d6d: sites
// are hashed by name; → ab9ddf28c352b181: an unpin's KPrivRef no longer
// carries its caller's site number in Arg; → 832464b031c896bb: C's scan
// of big, over NBuffers/4 blocks, is a synchronized scan: it takes an
// entry in the scan location list at initscan and reports its position at
// its end, one more step that shifts the random schedule.)
const goldenContendedHash = "832464b031c896bb"

func TestDeterminism(t *testing.T) {
	r1, r2 := mustRun(t, "contended", contended, true), mustRun(t, "contended", contended, true)
	h1, h2 := r1.Log().Hash(), r2.Log().Hash()
	if h1 != h2 {
		t.Fatalf("two runs of the same scenario: hashes %016x and %016x", h1, h2)
	}
	if r1.Log().Len() < 1000 {
		t.Fatalf("only %d events: the scenario should exercise much more", r1.Log().Len())
	}
	if got := fmt.Sprintf("%016x", h1); got != goldenContendedHash {
		t.Fatalf("trace hash %s, golden %s (%d events)", got, goldenContendedHash, r1.Log().Len())
	}
	// A different seed gives a different interleaving.
	r3 := mustRun(t, "contended", strings.Replace(contended, "seed=42", "seed=43", 1), true)
	if r3.Log().Hash() == h1 {
		t.Fatalf("seeds 42 and 43 gave the same trace")
	}
}

// The same contended scenario on PostgreSQL 16's and 17's read paths
// (config pg=): 16's BufferAlloc, and 17's StartReadBuffers,
// WaitReadBuffers and C's scan through a read stream. Pinned like
// goldenContendedHash, natively and under GOOS=js GOARCH=wasm.
func TestDeterminismVersions(t *testing.T) {
	for _, c := range []struct{ pg, hash string }{
		{"16", "27ce0e2e477d1003"},
		{"17", "6cfb3aa56c56c884"},
		{"18", "1f3c85cc56acabfa"},
		{"18 io_method=io_uring", "227fb409ffb18749"},
	} {
		src := strings.Replace(contended, "seed=42", "seed=42 pg="+c.pg, 1)
		r1, r2 := mustRun(t, "contended", src, true), mustRun(t, "contended", src, true)
		if h1, h2 := r1.Log().Hash(), r2.Log().Hash(); h1 != h2 {
			t.Fatalf("pg=%s: two runs of the same scenario: hashes %016x and %016x", c.pg, h1, h2)
		}
		if got := fmt.Sprintf("%016x", r1.Log().Hash()); got != c.hash {
			t.Errorf("pg=%s: trace hash %s, golden %s (%d events)", c.pg, got, c.hash, r1.Log().Len())
		}
	}
}

// aioScan is a cold scan at PostgreSQL 18 with its I/O workers: a
// 160-block table in 128MB (the stream's pins limited by nothing but
// io_combine_limit and effective_io_concurrency), a second backend
// reading the same table's blocks one at a time (ReadBuffer: synchronous,
// in the backend), under a seeded random schedule.
const aioScan = `config shared_buffers=128MB pg=18 schedule=random seed=3
relation t blocks=160
backend A: scan t
backend B: read t 150..159; release all
run
expect pool misses=160
`

// PostgreSQL 18: the I/O workers complete the scan's reads out of their
// order in the table under this seeded schedule, and the run's trace hash
// is pinned: the same natively and under GOOS=js GOARCH=wasm (make
// test-wasm runs this package), so the workers' interleaving is the
// schedule's and nothing else's.
func TestAIOOutOfOrderHash(t *testing.T) {
	r := mustRun(t, "aio", aioScan, true)
	var done []uint64
	for e := range r.Log().Range(0, r.Log().Len()) {
		if e.Kind == trace.KAIO && e.Arg&0xff == trace.AIOComplete {
			if _, ok := r.Pool().IOWorker(e.Actor); ok {
				done = append(done, e.Before)
			}
		}
	}
	if len(done) < 10 || slices.IsSorted(done) {
		t.Errorf("the workers completed reads from blocks %v: want more than 10, out of order", done)
	}
	if got := fmt.Sprintf("%016x", r.Log().Hash()); got != "cac76a4e6743a1c4" {
		t.Errorf("trace hash %s, golden cac76a4e6743a1c4 (%d events)", got, r.Log().Len())
	}
}

// The schedule a run records, written back as a schedule line, replays the
// run exactly: same events, same hash.
func TestReplay(t *testing.T) {
	for _, seed := range []int{1, 2, 3, 42} {
		src := strings.Replace(contended, "seed=42", fmt.Sprintf("seed=%d", seed), 1)
		r := mustRun(t, "contended", src, true)
		scheds := r.Schedules()
		if len(scheds) != 1 || len(scheds[0]) == 0 {
			t.Fatalf("seed %d: recorded schedules %v", seed, scheds)
		}
		names := r.BackendNames()
		var line []string
		for _, a := range scheds[0] {
			line = append(line, names[a])
		}
		// Replay under round-robin: if the script ran out, rr would take
		// over and the hash would differ.
		replay := strings.Replace(src, "schedule=random", "schedule=rr", 1)
		replay = strings.Replace(replay, "\nrun\n", "\nschedule "+strings.Join(line, " ")+"\nrun\n", 1)
		sameRun(t, fmt.Sprintf("seed %d", seed), mustRun(t, "replay", replay, true), r)
	}
}

// Tracing is observation only: the final state is the same with a nil log.
func TestNilLogSameOutcome(t *testing.T) {
	r1, r2 := mustRun(t, "contended", contended, true), mustRun(t, "contended", contended, false)
	if a, b := r1.Pool().Picture(r1.RelName), r2.Pool().Picture(r2.RelName); a != b {
		t.Fatalf("traced and untraced runs differ:\n%s\n%s", a, b)
	}
	if r1.Pool().Stats() != r2.Pool().Stats() {
		t.Fatalf("stats differ: %+v vs %+v", r1.Pool().Stats(), r2.Pool().Stats())
	}
	if r2.Log().Len() != 0 {
		t.Fatalf("nil log recorded %d events", r2.Log().Len())
	}
}
