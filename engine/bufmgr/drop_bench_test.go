package bufmgr_test

import (
	"fmt"
	"testing"
	"time"

	"bufferlab/engine/bufmgr"
)

// Benchmarks of dropping a one-block relation from a full pool at
// shared_buffers 128MB, 1GB and 20GB (2 621 440 buffers), tracing off (the
// fast path), one per strategy:
//
//   - BenchmarkDropScan: the full scan, O(NBuffers);
//   - BenchmarkDropLookup: the per-block lookup (forced, so that it does
//     not depend on the recovery flag), O(blocks);
//   - BenchmarkDropDList: the walk of the relation's list, O(its buffers),
//     in a pool built with Options.DropList.
//
// The pool holds a big relation and 1024 one-block relations; each
// operation drops the next one-block relation; when all are gone they are
// read back with the timer stopped. BenchmarkDListUpkeep measures what the
// list upkeep costs the read path (a miss retags a buffer; a hit does not),
// with the option off and on: the 001 thread's question.
//
// Pools are built once per process (setup is reported with b.Logf); the
// 20GB ones take a few seconds and about half a gigabyte each.

var dropBenchSizes = []string{"128MB", "1GB", "20GB"}

const dropBenchVictims = 1024

type dropBenchPool struct {
	p       *bufmgr.Pool
	be      *bufmgr.Backend
	victims []*bufmgr.Relation
	next    int
}

var dropBenchPools = map[string]*dropBenchPool{}

func getDropBenchPool(b *testing.B, size string, dlist bool) *dropBenchPool {
	key := fmt.Sprintf("%s/%v", size, dlist)
	if bp := dropBenchPools[key]; bp != nil {
		return bp
	}
	start := time.Now()
	p, be := sizedPool(b, size, bufmgr.Options{DropList: dlist})
	n := p.NBuffers
	big := testRel("big", bufmgr.FirstNormalObjectId, uint32(n-dropBenchVictims))
	for blk := uint32(0); blk < big.NBlocks[0]; blk++ {
		readRelease(b, be, big, bufmgr.MainForkNum, blk, false)
	}
	bp := &dropBenchPool{p: p, be: be}
	for i := 0; i < dropBenchVictims; i++ {
		r := testRel(fmt.Sprintf("v%d", i), uint32(bufmgr.FirstNormalObjectId+1+i), 1)
		bp.victims = append(bp.victims, r)
		readRelease(b, be, r, bufmgr.MainForkNum, 0, false)
	}
	dropBenchPools[key] = bp
	b.Logf("setup of the %s pool (%d buffers, dlist %v): %v", size, n, dlist, time.Since(start))
	return bp
}

func runDropBench(b *testing.B, st bufmgr.DropStrategy) {
	for _, size := range dropBenchSizes {
		b.Run("shared_buffers="+size, func(b *testing.B) {
			bp := getDropBenchPool(b, size, st == bufmgr.DropDList)
			before := bp.be.Stats
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if bp.next == len(bp.victims) {
					b.StopTimer()
					for _, r := range bp.victims {
						readRelease(b, bp.be, r, bufmgr.MainForkNum, 0, false)
					}
					bp.next = 0
					b.StartTimer()
				}
				res, err := bp.be.DropRelationBuffers(bp.victims[bp.next], nil, nil, st)
				if err != nil || res.Strategy != st || res.Invalidated != 1 {
					b.Fatalf("drop %d: %+v, %v", bp.next, res, err)
				}
				bp.next++
			}
			b.StopTimer()
			d := bp.be.Stats
			b.ReportMetric(float64(d.DropDescsTouched-before.DropDescsTouched)/float64(b.N), "descs/op")
		})
	}
}

func BenchmarkDropScan(b *testing.B) { runDropBench(b, bufmgr.DropScan) }

func BenchmarkDropLookup(b *testing.B) { runDropBench(b, bufmgr.DropLookup) }

func BenchmarkDropDList(b *testing.B) { runDropBench(b, bufmgr.DropDList) }

// BenchmarkDListUpkeep: ReadBuffer + ReleaseBuffer at 128MB with the
// per-relation lists off and on. "miss" reads a relation twice the pool's
// size in order, so every read is a miss that retags a buffer (two clock
// ticks a miss on average, the same with and without the lists); "hit"
// cycles through resident blocks. Compare dlist=off and dlist=on.
func BenchmarkDListUpkeep(b *testing.B) {
	for _, kind := range []string{"miss", "hit"} {
		for _, dlist := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/dlist=%v", kind, dlist), func(b *testing.B) {
				const n = 16384
				p := testPool(b, n, nil, bufmgr.Options{DropList: dlist})
				be := testBackend(b, p, "bench")
				rel := testRel("big", bufmgr.FirstNormalObjectId, 2*n)
				for blk := uint32(0); blk < n; blk++ {
					readRelease(b, be, rel, bufmgr.MainForkNum, blk, false)
				}
				before := be.Stats
				next := uint32(n)
				if kind == "hit" {
					next = 0
				}
				timeReads(b, be, rel, next, func(blk uint32) uint32 {
					if blk++; kind == "hit" && blk == n || blk == 2*n {
						blk = 0
					}
					return blk
				})
				d := be.Stats
				if kind == "miss" && d.Hits != before.Hits || kind == "hit" && d.Misses != before.Misses {
					b.Fatalf("%s benchmark: %d hits, %d misses", kind, d.Hits-before.Hits, d.Misses-before.Misses)
				}
			})
		}
	}
}
