package pool

import (
	"fmt"
	"sync"
	"testing"

	"bufferlab/engine/scenario"
	"bufferlab/fastmode/exp/exptest"
)

var (
	poolMu sync.Mutex
	pools  = map[string]*BenchPool{}
)

func getPool(b *testing.B, size string, miss bool) *BenchPool {
	poolMu.Lock()
	defer poolMu.Unlock()
	key := fmt.Sprint(size, miss)
	if bp := pools[key]; bp != nil {
		return bp
	}
	bp, err := NewBenchPool(exptest.NBuffers(b, size), miss)
	if err != nil {
		b.Fatal(err)
	}
	pools[key] = bp
	return bp
}

func benchPool(b *testing.B, miss bool) {
	for _, size := range exptest.Sizes() {
		b.Run("shared_buffers="+size, func(b *testing.B) {
			bp := getPool(b, size, miss)
			b.ResetTimer()
			if err := bp.Run(b.N); err != nil {
				b.Fatal(err)
			}
		})
	}
}

func BenchmarkPoolHit(b *testing.B) { benchPool(b, false) }

func BenchmarkPoolMiss(b *testing.B) { benchPool(b, true) }

func BenchmarkStepEvent(b *testing.B) {
	script, err := scenario.Parse("step", StepScenario)
	if err != nil {
		b.Fatal(err)
	}
	events := 0
	for i := 0; i < b.N; i++ {
		n, err := RunStep(script)
		if err != nil {
			b.Fatal(err)
		}
		events += n
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(events), "ns/event")
}
