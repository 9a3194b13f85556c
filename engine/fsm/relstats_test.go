package fsm

import (
	"testing"

	"bufferlab/engine/bufmgr"
)

// What `bufferlab verify` found against PostgreSQL 15.18 (package verify's
// ctid-random, fsm-two-leaves and vacuum-buffers checks), held here
// without a server.

// A VACUUM that leaves relpages, reltuples, relallvisible and relfrozenxid
// as they were does not rewrite pg_class, so no backend forgets its target
// block; one that changes any of them does.
func TestVacuumInvalidatesOnlyWhenPgClassChanges(t *testing.T) {
	e := newEnv(t, Options{}, 64)
	h := e.heap(100, 0)
	row := HeapTupleLen(8 + 1000) // 1032 bytes, 7 a page
	a, b := e.s, e.session("B")
	var tids []TID
	for i := 0; i < 10; i++ {
		tid, err := b.HeapInsert(h, row)
		e.ok(err)
		tids = append(tids, tid)
	}
	e.ok(b.Vacuum(h))
	if _, err := a.HeapInsert(h, row); err != nil {
		t.Fatal(err)
	}
	if a.TargetBlock(h) != 1 {
		t.Fatalf("A's target block %d, want 1", a.TargetBlock(h))
	}
	// Delete a row that is not the oldest: reltuples is back to 10,
	// relfrozenxid unchanged: pg_class is not rewritten.
	e.ok(b.HeapDelete(h, tids[1]))
	e.ok(b.Vacuum(h))
	if a.TargetBlock(h) != 1 {
		t.Errorf("after a VACUUM that changed nothing in pg_class, A's target block is %d, want 1 (kept)", a.TargetBlock(h))
	}
	// Delete the oldest row and insert one: reltuples unchanged, but
	// relfrozenxid advances: invalidated.
	e.ok(b.HeapDelete(h, tids[0]))
	_, err := b.HeapInsert(h, row)
	e.ok(err)
	e.ok(b.Vacuum(h))
	if a.TargetBlock(h) != InvalidBlockNumber {
		t.Errorf("after a VACUUM that advanced relfrozenxid, A's target block is %d, want none", a.TargetBlock(h))
	}
}

// VACUUM skips runs of 32 or more all-visible pages (never the last
// page): it does not read them, and reltuples becomes an estimate.
func TestVacuumSkipsAllVisibleRuns(t *testing.T) {
	e := newEnv(t, Options{}, 256)
	h := e.heap(100, 0)
	e.insert(e.s, h, 40*RowsPerPage(intRow, 100), intRow) // 40 full pages
	e.ok(e.s.Vacuum(h))
	if h.pgclass.tuples != float32(40*RowsPerPage(intRow, 100)) || h.pgclass.allVisible != 40 {
		t.Fatalf("after the first VACUUM: %+v", h.pgclass)
	}
	// Dirty block 35 only: blocks 0..34 (35 pages) are skipped, 35..39
	// scanned (36..38 form a run too short to skip, 39 is the last).
	e.ok(e.s.HeapDelete(h, TID{Block: 35, Offset: 1}))
	before := e.s.Stats.Reads[bufmgr.MainForkNum]
	e.ok(e.s.Vacuum(h))
	if got := e.s.Stats.Reads[bufmgr.MainForkNum] - before; got != 5 {
		t.Errorf("VACUUM read %d heap pages, want 5 (0..34 skipped)", got)
	}
	// 5 pages scanned of 40 with the size unchanged: 5 >= 2% of 40, so the
	// estimate is the old density over the 35 unscanned pages plus the
	// scanned count: 226*35 + 4*226 - 1.
	if want := float32(226*35 + 226*5 - 1); h.pgclass.tuples != want {
		t.Errorf("reltuples %v, want %v", h.pgclass.tuples, want)
	}
}

func TestVacEstimateRelTuples(t *testing.T) {
	old := relStats{pages: 100, tuples: 1000}
	for _, c := range []struct {
		old            relStats
		total, scanned uint32
		tuples         float64
		want           float32
	}{
		{old, 100, 100, 950, 950},                             // everything scanned
		{old, 100, 1, 3, 1000},                                // under 2% of an unchanged size
		{relStats{pages: 10, tuples: 100}, 100, 1, 3, 100},    // one page
		{relStats{pages: 0, tuples: -1}, 100, 10, 50, 500},    // no old density: scale up
		{old, 100, 10, 50, 950},                               // 10*90 + 50
		{relStats{pages: 100, tuples: 1000}, 120, 30, 2, 902}, // 10*90 + 2
	} {
		if got := vacEstimateRelTuples(c.old, c.total, c.scanned, c.tuples); got != c.want {
			t.Errorf("vac_estimate_reltuples(%+v, %d, %d, %v) = %v, want %v", c.old, c.total, c.scanned, c.tuples, got, c.want)
		}
	}
}

// heap_vacuum_rel's visibilitymap_count reads the map page once more: on
// PostgreSQL 15.18 a vacuumed table's map page has usage count 2.
func TestVacuumCountsTheVisibilityMap(t *testing.T) {
	e := newEnv(t, Options{}, 64)
	h := e.heap(100, 0)
	e.insert(e.s, h, 1, intRow)
	e.ok(e.s.Vacuum(h))
	if e.s.Stats.Reads[bufmgr.VMForkNum] != 2 {
		t.Errorf("VACUUM read the map %d times, want 2 (visibilitymap_pin, visibilitymap_count)", e.s.Stats.Reads[bufmgr.VMForkNum])
	}
	id, ok := e.pool.Lookup(h.Rel.Tag(bufmgr.VMForkNum, 0))
	if !ok || bufmgr.StateUsagecount(e.pool.Desc(id).State()) != 2 {
		t.Errorf("map page cached %v, usage count %d, want 2", ok, bufmgr.StateUsagecount(e.pool.Desc(id).State()))
	}
}
