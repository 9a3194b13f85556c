package bufmgr_test

import (
	"fmt"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
)

// A cold sequential scan of 160 blocks at shared_buffers = 128MB: 160
// one-block reads in PostgreSQL 15 and 16, and in 17 the read stream's
// ramp-up, one read of 1 block, then 2, 4, 8, and io_combine_limit (16)
// from then on (read_stream.c, REL_17_9; the same sequence a real 17.9
// made under strace, engine/readstream's golden seqscan case). Traced or
// not, the calls are the same and the pool's invariants hold after
// every event.
func TestColdScanReadCalls(t *testing.T) {
	// Each version's read calls, as FormatReadRuns writes them.
	want := map[int]string{15: "1x160", 16: "1x160", 17: "1,2,4,8,16x9,1", 18: "1,2,4,8,16x9,1"}
	for version := 15; version <= 18; version++ {
		for _, traced := range []bool{false, true} {
			var log *trace.Log
			if traced {
				log = trace.NewLog()
			}
			p := testPool(t, 16384, log, bufmgr.Options{Version: version})
			check := func() error { return nil }
			if traced {
				check = watchInvariants(log, p)
			}
			a := testBackend(t, p, "A")
			rel := testRel("t", 16384, 160)
			if err := a.SeqScan(rel); err != nil {
				t.Fatalf("pg %d: %v", version, err)
			}
			if got := bufmgr.FormatReadRuns(p.ReadCalls()); got != want[version] {
				t.Errorf("pg %d (traced %v): read calls %s, want %s", version, traced, got, want[version])
			}
			if err := check(); err != nil {
				t.Errorf("pg %d: %v", version, err)
			}
			if err := p.CheckInvariants(); err != nil {
				t.Errorf("pg %d: %v", version, err)
			}
			if pins := a.Pins(); len(pins) != 0 {
				t.Errorf("pg %d: the scan left pins %v", version, pins)
			}
			st := p.Stats()
			if st.Misses != 160 || st.Hits != 0 {
				t.Errorf("pg %d: %d misses, %d hits; want 160, 0", version, st.Misses, st.Hits)
			}
			// A second scan finds every block: no reads.
			if err := a.SeqScan(rel); err != nil {
				t.Fatal(err)
			}
			if got := bufmgr.FormatReadRuns(p.ReadCalls()); got != want[version] {
				t.Errorf("pg %d: a warm rescan read: %s", version, got)
			}
			if st := p.Stats(); st.Hits != 160 {
				t.Errorf("pg %d: warm rescan %d hits, want 160", version, st.Hits)
			}
		}
	}
}

// PostgreSQL 16's BufferAlloc never holds two mapping partition locks (the
// victim's old entry is deleted under its own partition's lock in
// InvalidateVictimBuffer, then the new partition is locked alone), where
// 15's holds the old and the new one together while it moves a victim.
// Three backends evicting from a 16-buffer pool under seeded random
// schedules: at most one partition lock per backend at any event in 16 and
// 17, two at some event in 15.
func TestOnePartitionLockAtATime(t *testing.T) {
	const src = `config shared_buffers=128kB pg=%d schedule=random seed=%d
relation t blocks=40
relation u blocks=40
backend A: touch t 0..39
backend B: write u 0..39
backend C: touch u 0..19; touch t 20..39
run
`
	for _, version := range []int{15, 16, 17} {
		most := 0
		for seed := 1; seed <= 5; seed++ {
			r, _, err := scenario.Run("locks", fmt.Sprintf(src, version, seed), true)
			if err != nil {
				t.Fatalf("pg %d seed %d: %v", version, seed, err)
			}
			held := map[trace.Actor]int{}
			for e := range r.Log().Range(0, r.Log().Len()) {
				if e.Class != trace.OPartition {
					continue
				}
				switch e.Kind {
				case trace.KLWAcquire:
					held[e.Actor]++
					most = max(most, held[e.Actor])
				case trace.KLWRelease:
					held[e.Actor]--
				}
			}
			if v := r.Pool().Stats(); v.SweepVictims == 0 {
				t.Fatalf("pg %d seed %d: no victim came from the sweep: the scenario tests nothing", version, seed)
			}
		}
		want := 1
		if version == 15 {
			want = 2
		}
		if most != want {
			t.Errorf("pg %d: a backend held at most %d mapping partition locks at once, want %d", version, most, want)
		}
	}
}

// The latency model charges each synchronous read call its latency plus
// a cost per block: a cold 160-block scan at 100 µs a call and 8 µs a
// block is 160 × 108 µs at PostgreSQL 15 and 14 × 100 + 160 × 8 µs at 17,
// whose read stream makes 14 calls. No event records it: the trace is the
// same with or without the model.
func TestLatencyModel(t *testing.T) {
	for _, c := range []struct {
		version int
		want    uint64
	}{{15, 160 * 108}, {17, 14*100 + 160*8}} {
		hashes := map[uint64]bool{}
		for _, lat := range []int{0, 100} {
			log := trace.NewLog()
			p := testPool(t, 16384, log, bufmgr.Options{Version: c.version, IOLatencyUS: lat, IOBlockUS: lat / 100 * 8})
			a := testBackend(t, p, "A")
			if err := a.SeqScan(testRel("t", 16384, 160)); err != nil {
				t.Fatal(err)
			}
			want := c.want
			if lat == 0 {
				want = 0
			}
			if got := a.Stats.IOTimeUS; got != want {
				t.Errorf("pg %d, latency %d µs: I/O time %d µs, want %d", c.version, lat, got, want)
			}
			hashes[log.Hash()] = true
		}
		if len(hashes) != 1 {
			t.Errorf("pg %d: the latency model changed the trace", c.version)
		}
	}
	if _, err := bufmgr.NewPoolWith(16, nil, bufmgr.Options{IOLatencyUS: bufmgr.MaxIOTimeUS + 1}); err == nil {
		t.Error("a latency over a second was accepted")
	}
}
