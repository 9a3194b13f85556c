package bufmgr_test

import (
	"testing"

	"bufferlab/engine/bufmgr"
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
	for _, c := range []struct {
		version int
		want    string
	}{
		{15, "1x160"},
		{16, "1x160"},
		{17, "1,2,4,8,16x9,1"},
	} {
		for _, traced := range []bool{false, true} {
			var log *trace.Log
			if traced {
				log = trace.NewLog()
			}
			p := testPool(t, 16384, log, bufmgr.Options{Version: c.version})
			check := func() error { return nil }
			if traced {
				check = watchInvariants(log, p)
			}
			a := testBackend(t, p, "A")
			rel := testRel("t", 16384, 160)
			if err := a.SeqScan(rel); err != nil {
				t.Fatalf("pg %d: %v", c.version, err)
			}
			if got := bufmgr.FormatReadRuns(p.ReadCalls()); got != c.want {
				t.Errorf("pg %d (traced %v): read calls %s, want %s", c.version, traced, got, c.want)
			}
			if err := check(); err != nil {
				t.Errorf("pg %d: %v", c.version, err)
			}
			if err := p.CheckInvariants(); err != nil {
				t.Errorf("pg %d: %v", c.version, err)
			}
			if pins := a.Pins(); len(pins) != 0 {
				t.Errorf("pg %d: the scan left pins %v", c.version, pins)
			}
			st := p.Stats()
			if st.Misses != 160 || st.Hits != 0 {
				t.Errorf("pg %d: %d misses, %d hits; want 160, 0", c.version, st.Misses, st.Hits)
			}
			// A second scan finds every block: no reads.
			if err := a.SeqScan(rel); err != nil {
				t.Fatal(err)
			}
			if got := bufmgr.FormatReadRuns(p.ReadCalls()); got != c.want {
				t.Errorf("pg %d: a warm rescan read: %s", c.version, got)
			}
			if st := p.Stats(); st.Hits != 160 {
				t.Errorf("pg %d: warm rescan %d hits, want 160", c.version, st.Hits)
			}
		}
	}
}
