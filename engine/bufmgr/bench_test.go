package bufmgr_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
)

// Benchmarks of the read path at shared_buffers 128MB, 1GB and 20GB, with
// tracing off (nil log: the fast path) and on.
//
//   - BenchmarkReadHitRelease: ReadBuffer of a resident block (partition
//     lock shared, lookup, PinBuffer CAS, unlock) + ReleaseBuffer (UnpinBuffer
//     CAS), cycling through every block of a full pool.
//   - BenchmarkReadMissSweep: ReadBuffer of a block that is not resident in
//     a full pool + ReleaseBuffer: StrategyGetBuffer runs the clock sweep,
//     BufferAlloc retags the victim (two partition locks, insert, delete)
//     and "reads" the block. The pool is conditioned so that usage counts
//     alternate 1, 0 along the clock: every miss then decrements one
//     buffer and takes the next, so each costs two clock ticks (rarely
//     three) instead of N-1 cheap misses followed by one full pass.
//
// Pools are built once per process and shared by the log=off and log=on
// runs and by every b.N round; setup is reported with b.Logf. With
// logging on, the pool gets a fresh trace.Log whenever the current one
// holds 1<<16 events; the check is one comparison per operation and the
// replacement is amortised into the measurement (no StopTimer, which costs
// more than the operation itself).
//
// The hooks' cost: run the same benchmarks with -tags bufferlab_nohooks
// (make hooks-cost) and compare the log=off numbers.

var benchSizes = []string{"128MB", "1GB", "20GB"}

type benchPool struct {
	p     *bufmgr.Pool
	b     *bufmgr.Backend
	rel   *bufmgr.Relation
	next  uint32 // hit: next block to read; miss: next block never read
	setup time.Duration
}

var (
	benchMu    sync.Mutex
	benchPools = map[string]*benchPool{}
)

func benchRel(n int) *bufmgr.Relation {
	return testRel("bench", bufmgr.FirstNormalObjectId, 1<<30-1) // the largest block a packed tag holds
}

func mustRead(tb testing.TB, bp *benchPool, blk uint32, wantHit bool) {
	buf, hit, err := bp.b.ReadBuffer(bp.rel, bufmgr.MainForkNum, blk, nil)
	if err != nil || hit != wantHit {
		tb.Fatalf("setup: reading block %d: hit %v (want %v), err %v", blk, hit, wantHit, err)
	}
	if err := bp.b.ReleaseBuffer(buf); err != nil {
		tb.Fatal(err)
	}
}

// getBenchPool returns the pool for kind ("hit" or "miss") at size, built
// with a nil log: every buffer filled with blocks 0..N-1 (buffer i holds
// block i, usage 1); a miss pool is then conditioned as described above.
func getBenchPool(b *testing.B, kind, size string) *benchPool {
	benchMu.Lock()
	defer benchMu.Unlock()
	key := kind + "/" + size
	if bp := benchPools[key]; bp != nil {
		return bp
	}
	start := time.Now()
	p, be := sizedPool(b, size, bufmgr.Options{})
	n := p.NBuffers
	bp := &benchPool{p: p, b: be, rel: benchRel(n)}
	for blk := 0; blk < n; blk++ {
		mustRead(b, bp, uint32(blk), false)
	}
	if kind == "miss" {
		// One miss sweeps a whole pass (every usage 1 → 0) and takes
		// buffer 0; then a hit on every odd buffer's block sets usage
		// 1, 0, 1, 0, … from the hand (buffer 1) on.
		mustRead(b, bp, uint32(n), false)
		for blk := 1; blk < n; blk += 2 {
			mustRead(b, bp, uint32(blk), true)
		}
		bp.next = uint32(n + 1)
		if p.NextVictimBuffer() != 1 {
			b.Fatalf("setup: clock hand at %d, want 1", p.NextVictimBuffer())
		}
	}
	if err := p.CheckQuiescent(); err != nil {
		b.Fatal(err)
	}
	bp.setup = time.Since(start)
	benchPools[key] = bp
	b.Logf("setup of the %s pool at %s (%d buffers): %v", kind, size, n, bp.setup)
	return bp
}

const benchLogEvents = 1 << 16

func runBench(b *testing.B, kind string) {
	for _, size := range benchSizes {
		for _, logged := range []bool{false, true} {
			name := fmt.Sprintf("shared_buffers=%s/log=%s", size, map[bool]string{false: "off", true: "on"}[logged])
			b.Run(name, func(b *testing.B) {
				bp := getBenchPool(b, kind, size)
				p, be, rel := bp.p, bp.b, bp.rel
				n := uint32(p.NBuffers)
				var log *trace.Log
				if logged {
					log = trace.NewLog()
				}
				bufmgr.SetLogForTest(p, log)
				defer bufmgr.SetLogForTest(p, nil)
				before := be.Stats
				bp.next = timeReads(b, be, rel, bp.next, func(blk uint32) uint32 {
					if blk++; kind == "hit" && blk == n {
						blk = 0
					} else if blk == rel.NBlocks[bufmgr.MainForkNum] {
						blk = n + 1 // long evicted: a miss again
					}
					if logged && log.Len() >= benchLogEvents {
						log = trace.NewLog()
						bufmgr.SetLogForTest(p, log)
					}
					return blk
				})
				// The benchmark measured what it says.
				d := be.Stats
				hits, misses := d.Hits-before.Hits, d.Misses-before.Misses
				ticks := d.ClockTicks - before.ClockTicks
				if kind == "hit" && (hits != uint64(b.N) || misses != 0) || kind == "miss" && (misses != uint64(b.N) || hits != 0) {
					b.Fatalf("%s benchmark: %d hits, %d misses in %d reads", kind, hits, misses, b.N)
				}
				if kind == "miss" {
					b.ReportMetric(float64(ticks)/float64(b.N), "ticks/op")
					if b.N >= 16 && (ticks < 2*uint64(b.N)-2 || ticks > 2*uint64(b.N)+uint64(b.N)/8+4) {
						b.Fatalf("miss benchmark: %d clock ticks for %d misses, want about 2 per miss", ticks, b.N)
					}
				}
			})
		}
	}
}

func BenchmarkReadHitRelease(b *testing.B) { runBench(b, "hit") }

func BenchmarkReadMissSweep(b *testing.B) { runBench(b, "miss") }
