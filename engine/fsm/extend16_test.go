package fsm_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/sched"
	"bufferlab/engine/trace"
)

// ExtendByPages is hio.c's extend_by_pages without a BulkInsertState:
// num_pages * (1 + waitcount), at most MAX_BUFFERS_TO_EXTEND_BY (64),
// which binds from 64 backends asking on (the model runs at most 64, so
// the golden cases reach the cap but cannot pass it).
func TestExtendByPages(t *testing.T) {
	for _, c := range []struct{ pages, waiters, want int }{
		{1, 0, 1}, {1, 1, 2}, {1, 3, 4}, {1, 63, 64}, {1, 64, 64}, {1, 1000, 64}, {4, 3, 16}, {4, 20, 64},
	} {
		if got := fsm.ExtendByPages(c.pages, c.waiters); got != c.want {
			t.Errorf("ExtendByPages(%d, %d) = %d, want %d", c.pages, c.waiters, got, c.want)
		}
	}
}

// No page is lost: under seeded schedules, with several inserters of
// rows of random sizes at PostgreSQL 15, 16, 17 and 18 and pools large and
// small (at 15 the new page's RBM_ZERO_AND_LOCK keeps the others off it,
// where the model used to panic), every page the heap was extended by is either used (initialised,
// by its extender or by whoever found it) or recorded in the FSM with
// free space; every row is there; the extension lock and every new
// page's content lock are let go; no pin is left.
func TestExtend16NoPageLost(t *testing.T) {
	bulk, waits := 0, 0
	for _, pg := range []int{15, 16, 17, 18} {
		for _, nbuf := range []int{32, 2048, 16384} {
			for seed := uint64(1); seed <= 12; seed++ {
				t.Run(fmt.Sprintf("pg%d/buffers%d/seed%d", pg, nbuf, seed), func(t *testing.T) {
					b, w := checkNoPageLost(t, pg, nbuf, seed)
					bulk += b
					waits += w
				})
			}
		}
	}
	// The schedules do contend: backends queue on the lock, and some
	// extend by more than one page.
	if bulk == 0 || waits == 0 {
		t.Errorf("%d extensions of more than one page, %d waits for the lock: the test contends for nothing", bulk, waits)
	}
	t.Logf("%d extensions of more than one page, %d waits for the extension lock", bulk, waits)
}

// checkNoPageLost runs one schedule and checks it; it returns how many
// extensions were of more than one page and how many times a backend
// queued for the extension lock.
func checkNoPageLost(t *testing.T, pg, nbuf int, seed uint64) (bulk, waits int) {
	opt := bufmgr.Options{Version: pg}
	if pg >= 18 {
		opt.IOMethod = "sync"
	}
	pool, err := bufmgr.NewPoolWith(nbuf, trace.NewLog(), opt)
	if err != nil {
		t.Fatal(err)
	}
	st, err := fsm.NewStore(pool, fsm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rel := &bufmgr.Relation{Name: "t", Number: bufmgr.FirstNormalObjectId, Permanent: true}
	h, err := st.NewHeap(rel, 100)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 16))
	backends := 2 + rng.IntN(6)
	sc := sched.New(sched.NewRandom(seed))
	rows := 0
	for i := 0; i < backends; i++ {
		b, err := pool.NewBackend(fmt.Sprintf("S%d", i+1))
		if err != nil {
			t.Fatal(err)
		}
		s, err := st.NewSession(b)
		if err != nil {
			t.Fatal(err)
		}
		var lens []int
		for n := 1 + rng.IntN(8); n > 0; n-- {
			lens = append(lens, fsm.HeapTupleLen(4+rng.IntN(6000)))
		}
		rows += len(lens)
		b.Spawn(sc, func(sched.Yield) error {
			for _, ln := range lens {
				if _, err := s.HeapInsert(h, ln); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err := sc.Run(); err != nil {
		t.Fatal(err)
	}
	for _, p := range sc.Procs() {
		if p.Err() != nil {
			t.Fatalf("%s: %v", p.Name, p.Err())
		}
	}
	if err := pool.CheckQuiescent(); err != nil {
		t.Fatal(err)
	}
	live := 0
	for blk := uint32(0); blk < h.NBlocks(); blk++ {
		p := h.HeapPage(blk)
		live += p.Live()
		if p.IsNew() && h.RecordedCat(blk) == 0 {
			t.Errorf("block %d of %d is new and not in the FSM: lost", blk, h.NBlocks())
		}
	}
	if live != rows {
		t.Errorf("%d rows in the heap, %d inserted", live, rows)
	}
	if l := h.ExtensionLock(); l.Holder != 0 || len(l.Queue) != 0 {
		t.Errorf("extension lock left %+v", l)
	}
	if n := h.NewPagesLocked(); n != 0 {
		t.Errorf("%d new pages left content-locked", n)
	}
	for _, e := range pool.Log().Events() {
		switch e.Site.String() {
		case "extend.fork":
			_, b := fsm.UnpackForkWord(e.Before)
			_, a := fsm.UnpackForkWord(e.After)
			if a-b > 1 {
				bulk++
			}
		case "extlock.wait":
			waits++
		}
	}
	return bulk, waits
}
