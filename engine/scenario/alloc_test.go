package scenario

import (
	"runtime"
	"testing"
)

// TestStepAllocations: in the steady state a traced, scheduled run
// allocates next to nothing per event (issue 20.1): its log takes a new
// 4096-event chunk now and then, and nothing else allocates per step (the
// scheduler reuses its list of live backends; events are not formatted
// while event text is off). Two backends interleave hits and misses with
// the clock sweep.
func TestStepAllocations(t *testing.T) {
	s, err := Parse("alloc", `config shared_buffers=1MB
relation t blocks=20000
backend A: touch t 0..19999
backend B: touch t 5000..14999
run
`)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRunner(s, true)
	if err != nil {
		t.Fatal(err)
	}
	r.SetEventText(false)
	r.Log().SetStorage(QuietStorage(nil)) // compact; no spill file in the engine's tests
	defer r.Log().Close()
	// The whole script: its setup (a relation, two backends) allocates
	// once; the run's 800k events should add next to nothing.
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	e0 := r.Log().Len()
	if _, err := r.RunAll(); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&m1)
	events := r.Log().Len() - e0
	per := float64(m1.Mallocs-m0.Mallocs) / float64(events)
	t.Logf("%d events, %d allocations (%.5f an event), %d bytes", events, m1.Mallocs-m0.Mallocs, per, m1.TotalAlloc-m0.TotalAlloc)
	if events < 100000 || per > 0.01 {
		t.Fatalf("%d events, %.4f allocations an event: want at most one per hundred events", events, per)
	}
}
