package poolview_test

import (
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/trace"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/poolview/pooltest"
)

// fsmRun runs the seed workload of the free space map (tables pre-filled
// and vacuumed, then filled to five pages) in both variants, then a
// delete, a VACUUM and a direct search, on a small pool so that FSM, heap
// and visibility map pages are evicted and read again. The pool is
// snapshotted after every event.
func fsmRun(t *testing.T, v fsm.Variant) (*bufmgr.Pool, []trace.Event, []*pooltest.Snap) {
	t.Helper()
	log := trace.NewLog()
	w, err := fsm.NewSeed(fsm.SeedConfig{Tables: 1, FillFactor: 30, Blocks: 6, Options: fsm.Options{Variant: v}, NBuffers: 16, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	var snaps []*pooltest.Snap
	// The events of NewSeed were logged before the hook: replaying them
	// from the start is checked against the final snapshot of that part.
	pre := log.Len()
	snaps = make([]*pooltest.Snap, pre)
	snaps[pre-1] = pooltest.TakeSnap(w.Pool, true)
	log.OnAppend = func(trace.Event) { snaps = append(snaps, pooltest.TakeSnap(w.Pool, true)) }
	if err := w.Fill(); err != nil {
		t.Fatal(err)
	}
	s, h := w.FillSession(), w.Heaps[0]
	if err := s.HeapDelete(h, fsm.TID{Block: 2, Offset: 3}); err != nil {
		t.Fatal(err)
	}
	if err := s.Vacuum(h); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetPageWithFreeSpace(h, 500); err != nil {
		t.Fatal(err)
	}
	return w.Pool, log.Events(), snaps
}

// The pool view ignores the free space map's events entirely and keeps
// interpreting the buffer accesses they interleave with: applied (checked)
// in log order it agrees with the pool after every event, it equals a view
// fed the buffer events only, and FSM events applied or unapplied in any
// number change nothing it shows.
func TestFSMEventsLeavePoolUnchanged(t *testing.T) {
	for _, variant := range []fsm.Variant{fsm.Always, fsm.SmallSkip} {
		pool, evs, snaps := fsmRun(t, variant)
		names := map[uint32]string{}
		backends := []string{"sys"}
		for _, b := range pool.Backends() {
			backends = append(backends, b.Name)
		}
		classes := map[trace.ObjClass]int{}
		for _, e := range evs {
			if e.Class.IsFSM() {
				classes[e.Class]++
				names[e.Obj] = "t"
			}
		}
		want := []trace.ObjClass{trace.OFSMRel, trace.OFSMPage, trace.OFSMNode, trace.OHeapPage}
		if variant == fsm.SmallSkip {
			want = append(want, trace.OLocalMap)
		}
		for _, c := range want {
			if classes[c] == 0 {
				t.Fatalf("%v: no %s event in the FSM trace", variant, c)
			}
		}
		all := view.New(pool.NBuffers, nil, backends)
		poolOnly := view.New(pool.NBuffers, nil, backends)
		var fsmEvents []trace.Event
		for i, e := range evs {
			if err := all.ApplyChecked(e); err != nil {
				t.Fatalf("%v: event %d: %v", variant, i, err)
			}
			if e.Class.IsFSM() {
				fsmEvents = append(fsmEvents, e)
				// Unapplying an FSM event, or applying one again, is a no-op.
				all.Unapply(e)
				all.Apply(fsmEvents[len(fsmEvents)/2])
			} else {
				poolOnly.Apply(e)
			}
			if s := snaps[i]; s != nil {
				var next *trace.Event
				if i+1 < len(evs) {
					next = &evs[i+1]
				}
				if d := pooltest.Compare(all, s, &evs[i], next); d != "" {
					t.Fatalf("%v: after %s:\n  %s", variant, fsm.Describe(e, nil), d)
				}
			}
			if all.Fingerprint() != poolOnly.Fingerprint() {
				t.Fatalf("%v: after %s: %s", variant, fsm.Describe(e, nil), all.Diff(poolOnly))
			}
		}
		if all.Applied() != len(evs)-len(fsmEvents) || all.Counters() != poolOnly.Counters() {
			t.Fatalf("%v: applied %d of %d events (%d FSM)", variant, all.Applied(), len(evs), len(fsmEvents))
		}
		if c, ok := all.Current(); !ok || c.Class.IsFSM() {
			t.Fatalf("%v: current event %v", variant, c)
		}
		t.Logf("%v: %d events, %d of them FSM %v", variant, len(evs), len(fsmEvents), classes)
	}
}
