package poolview_test

import (
	"fmt"
	"testing"

	"bufferlab/engine/sched"
	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
	"bufferlab/viz/poolview/pooltest"
	"bufferlab/viz/viewkit/viewtest"
)

// slruLog runs a few backends on a small SLRU under a seeded random
// schedule: lookups that hit and miss, status updates, dirty victims
// written back, checkpoints, lock waits; for banks+hash also the table's
// probes, inserts and deletes.
func slruLog(t *testing.T, v slru.Variant, seed uint64) []trace.Event {
	t.Helper()
	log := trace.NewLog()
	cfg := slru.Config{Variant: v, Slots: 8, BankSize: 4}
	if v == slru.Single {
		cfg.BankSize = 0
	}
	s, err := slru.New(cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	s.Disk().FormatPages(0, 11)
	s.StartupCLOG(11 * slru.ClogXactsPerPage)
	sch := sched.New(sched.NewRandom(seed))
	for k := 0; k < 3; k++ {
		b, err := s.NewBackend(fmt.Sprint("B", k))
		if err != nil {
			t.Fatal(err)
		}
		b.Spawn(sch, func(sched.Yield) error {
			for i := 0; i < 40; i++ {
				xid := uint32((i*7+k*5)%12)*slru.ClogXactsPerPage + uint32(3+3*i+k)
				if _, err := b.TransactionIdGetStatus(xid); err != nil {
					return err
				}
				if i%3 == k {
					if err := b.TransactionIdSetStatus(xid, slru.StatusCommitted); err != nil {
						return err
					}
				}
				if i%17 == 16 {
					if err := b.WriteAll(); err != nil {
						return err
					}
				}
			}
			return nil
		})
	}
	viewtest.RunProcs(t, sch, s.Picture)
	return log.Events()
}

// The pool view ignores SLRU events entirely: applied (checked) or
// unapplied in any number, interleaved with the pool's own events, they
// change nothing the view shows, not its history, counters or current
// event; an SLRU slot is never read as a buffer, a bank as a partition.
func TestSLRUEventsLeavePoolUnchanged(t *testing.T) {
	r := pooltest.Run(t, "cleanup", pooltest.Scenarios(t)["cleanup"])
	pool := r.Log().Events()
	kinds := map[trace.Kind]bool{}
	var slruEvents []trace.Event
	for i, v := range []slru.Variant{slru.Banks, slru.BanksHash, slru.Single} {
		for _, e := range slruLog(t, v, uint64(11+i)) {
			if !e.Class.IsSLRU() {
				t.Fatalf("SLRU event %v has class %s", e, e.Class)
			}
			kinds[e.Kind] = true
			slruEvents = append(slruEvents, e)
		}
	}
	for _, k := range []trace.Kind{trace.KLWAcquire, trace.KLWWait, trace.KMapLookup, trace.KMapInsert,
		trace.KMapDelete, trace.KHit, trace.KMiss, trace.KVictim, trace.KIORead, trace.KIOWrite,
		trace.KSlotScan, trace.KSlotState, trace.KLRUTouch, trace.KCandidate, trace.KDirty, trace.KOp} {
		if !kinds[k] {
			t.Errorf("the SLRU logs have no %s event", k)
		}
	}

	// An untouched view, the reference.
	want := pooltest.NewView(r)
	initial := pooltest.NewView(r)
	for _, e := range slruEvents {
		if err := initial.Check(e); err != nil {
			t.Fatalf("Check(%v) on the initial pool: %v", e, err)
		}
		initial.Apply(e)
	}
	if d := initial.Diff(want); d != "" || initial.Fingerprint() != want.Fingerprint() || initial.Applied() != 0 ||
		initial.HistoryLen() != 0 || initial.Counters() != want.Counters() {
		t.Fatalf("SLRU events changed the initial pool view: %s", d)
	}
	if _, ok := initial.Current(); ok {
		t.Fatal("an SLRU event became the pool view's current event")
	}

	// Interleaved with the pool's events: after each pool event, a slice of
	// the SLRU log is applied (and some of it unapplied again).
	got := pooltest.NewView(r)
	j := 0
	for i, e := range pool {
		want.Apply(e)
		if err := got.ApplyChecked(e); err != nil {
			t.Fatalf("pool event %d: %v", i, err)
		}
		for n := 0; n < 1+i%5 && j < len(slruEvents); n, j = n+1, j+1 {
			if err := got.ApplyChecked(slruEvents[j]); err != nil {
				t.Fatalf("SLRU event %v: %v", slruEvents[j], err)
			}
			if n%2 == 1 {
				got.Unapply(slruEvents[j])
			}
		}
		if d := got.Diff(want); d != "" || got.Fingerprint() != want.Fingerprint() {
			t.Fatalf("after pool event %d and SLRU events up to %d: %s", i, j, d)
		}
		if got.Applied() != want.Applied() || got.HistoryLen() != want.HistoryLen() || got.Counters() != want.Counters() {
			t.Fatalf("after pool event %d: applied %d/%d, history %d/%d, counters %+v / %+v", i,
				got.Applied(), want.Applied(), got.HistoryLen(), want.HistoryLen(), got.Counters(), want.Counters())
		}
		if c1, _ := got.Current(); c1 != e {
			t.Fatalf("after pool event %d: the current event is %v", i, c1)
		}
	}
	// Unapplying the pool's events, with SLRU events in between, goes back
	// to the initial pool.
	for i := len(pool) - 1; i >= 0; i-- {
		got.Unapply(slruEvents[i%len(slruEvents)])
		got.Unapply(pool[i])
	}
	if d := got.Diff(pooltest.NewView(r)); d != "" {
		t.Fatalf("unapplied back to the start: %s", d)
	}
	t.Logf("%d pool events, %d SLRU events", len(pool), len(slruEvents))
}
