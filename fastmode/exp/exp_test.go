package exp

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/scenario"
	"bufferlab/fastmode/harness"
)

// testing.B twins of the experiments, for go test -bench and benchstat:
//
//	go test -run - -bench . ./fastmode/exp
//
// Sizes as in bench pool/limits (128MB, 1GB, 20GB; -short: 128MB, 1GB).

func benchSizes() []string {
	if testing.Short() {
		return []string{"128MB", "1GB"}
	}
	return []string{"128MB", "1GB", "20GB"}
}

func nbuf(b *testing.B, size string) int {
	n, err := bufmgr.ParseSharedBuffers(size)
	if err != nil {
		b.Fatal(err)
	}
	return n
}

func BenchmarkStream(b *testing.B) {
	for _, size := range benchSizes() {
		b.Run("shared_buffers="+size, func(b *testing.B) {
			a := NewStream(nbuf(b, size))
			b.SetBytes(int64(len(a) * 8))
			b.ResetTimer()
			var x uint64
			for i := 0; i < b.N; i++ {
				x += Stream(a)
			}
			Sink.Add(x)
		})
	}
}

func BenchmarkChase(b *testing.B) {
	for _, size := range benchSizes() {
		b.Run("shared_buffers="+size, func(b *testing.B) {
			a := NewChase(nbuf(b, size), 1)
			b.ResetTimer()
			Sink.Add(Chase(a, 0, b.N))
		})
	}
}

func BenchmarkCAS(b *testing.B) {
	b.Run("uncontended", func(b *testing.B) {
		var w atomic.Uint64
		CAS(&w, b.N)
	})
	b.Run("contended", func(b *testing.B) {
		var w atomic.Uint64
		stop := Contended(&w)
		b.ResetTimer()
		CAS(&w, b.N)
		b.StopTimer()
		stop()
	})
}

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
	bp, err := NewBenchPool(nbuf(b, size), miss)
	if err != nil {
		b.Fatal(err)
	}
	pools[key] = bp
	return bp
}

func benchPool(b *testing.B, miss bool) {
	for _, size := range benchSizes() {
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

// The experiments run and fill every summary key (128kB: tiny and fast).
// raceExperiments are the experiments whose loops run on several
// goroutines (limits: contended CAS; pin: the native pin loop): the ones
// TestExperiments runs under the race detector.
var raceExperiments = []string{"limits", "pin"}

func TestExperiments(t *testing.T) {
	cfg := harness.Quick
	cfg.Samples = 3
	names := Names()
	if raceEnabled {
		names = raceExperiments
	}
	for _, name := range names {
		e, ok := Lookup(name)
		if !ok {
			t.Fatalf("no experiment %q", name)
		}
		r, err := e.Run(Options{Sizes: []string{"128kB"}, Quick: true, Config: cfg})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, k := range e.SummaryKeys {
			v, ok := r.Summary[k]
			if slices.Contains(e.SignedKeys, k) {
				// A percentage change: any finite value.
				if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
					t.Errorf("%s: summary %s = %v (present %v)", name, k, v, ok)
				}
			} else if !ok || !(v > 0) {
				t.Errorf("%s: summary %s = %v", name, k, v)
			}
		}
	}
}

func TestChaseIsOneCycle(t *testing.T) {
	a := NewChase(1000, 7)
	seen := map[uint64]bool{}
	p := uint64(0)
	for i := 0; i < 1000; i++ {
		if seen[p] {
			t.Fatalf("cycle of length %d", i)
		}
		seen[p] = true
		p = a[p]
	}
	if p != 0 {
		t.Fatal("not back at the start after 1000 loads")
	}
}

func TestFaster(t *testing.T) {
	if got := Faster(10, 35); got != "×3.5 faster" {
		t.Fatal(got)
	}
}
