package fsm

import (
	"fmt"
	"strings"
	"testing"

	"bufferlab/engine/fsm"
	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/harness"
)

// testing.B twins of the fsm experiment:
//
//	go test -run - -bench FSM ./fastmode/exp
//
// BenchmarkFSMSeedFill times one fill of the seed's 100 tables per
// iteration (the untimed preparation runs with the timer stopped);
// BenchmarkFSMSearch one search per iteration (-short: the smaller heaps).

func BenchmarkFSMSeedFill(b *testing.B) {
	for _, cell := range FSMSeedCells {
		for _, opt := range FSMVariants {
			b.Run(fmt.Sprintf("variant=%s/ff=%d/blocks=%d", opt.Variant, cell[0], cell[1]), func(b *testing.B) {
				var c fsm.SeedCounts
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					w, err := NewFSMSeed(cell[0], cell[1], opt, FSMSeedTables)
					if err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					if err := w.Fill(); err != nil {
						b.Fatal(err)
					}
					b.StopTimer()
					if c, err = w.PerTable(); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e6/float64(b.N), "ms/100tables")
				b.ReportMetric(float64(c.Pages()), "pages/table")
				b.ReportMetric(float64(c.Reads()), "bufreads/table")
			})
		}
	}
}

func BenchmarkFSMSearch(b *testing.B) {
	sizes := FSMSearchSizes
	if testing.Short() {
		sizes = sizes[:2]
	}
	for _, n := range sizes {
		s, h, err := FSMSearchHeap(n)
		if err != nil {
			b.Fatal(err)
		}
		for _, linear := range []bool{false, true} {
			name := "tree"
			if linear {
				name = "leafscan"
			}
			b.Run(fmt.Sprintf("heap_blocks=%d/%s", n, name), func(b *testing.B) {
				if err := FSMSearchRun(s, h, b.N, linear); err != nil {
					b.Fatal(err)
				}
			})
		}
	}
}

// The experiment reproduces the thread's page counts (3 FSM + 4 heap
// against 4 heap), the engine's per-table counts, and prints its tables.
func TestFSMExperiment(t *testing.T) {
	cfg := harness.Quick
	cfg.Samples = 2
	e, ok := exp.Lookup("fsm")
	if !ok {
		t.Fatal("no fsm experiment")
	}
	r, err := e.Run(exp.Options{Quick: true, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if r.Summary["reads_always_4blocks"] != 7 || r.Summary["reads_small_skip_4blocks"] != 4 || !(r.Summary["speedup_ff20_4blocks"] > 0) {
		t.Fatalf("summary %v", r.Summary)
	}
	for _, want := range []struct {
		name                string
		fsmPages, heapPages float64
		fsmReads, heapReads float64
	}{
		{"fill always ff=20 blocks=4", 3, 4, 16, 178},
		{"fill small-skip ff=20 blocks=4", 0, 4, 0, 179},
		{"fill always ff=30 blocks=8", 3, 8, 24, 542},
		{"fill small-skip ff=30 blocks=8", 0, 8, 0, 551},
	} {
		row, ok := exp.Find(r, want.name, FSMSeedSharedBuffers)
		if !ok {
			t.Fatalf("no row %q", want.name)
		}
		if row.PerOp["fsm_pages"] != want.fsmPages || row.PerOp["heap_pages"] != want.heapPages ||
			row.PerOp["fsm_reads"] != want.fsmReads || row.PerOp["heap_reads"] != want.heapReads || !(row.Median > 0) {
			t.Errorf("%s: %v, median %v", want.name, row.PerOp, row.Median)
		}
	}
	for _, n := range FSMSearchSizes[:3] {
		s, ok1 := exp.Find(r, fmt.Sprintf("fsm_search heap_blocks=%d", n), FSMSeedSharedBuffers)
		l, ok2 := exp.Find(r, fmt.Sprintf("leaf_scan heap_blocks=%d", n), FSMSeedSharedBuffers)
		if !ok1 || !ok2 || s.PerOp["fsm_pages_read"] != 3 || l.PerOp["fsm_pages_read"] != float64(fsm.ForkPagesFor(n)-2) {
			t.Errorf("%d blocks: search %v, scan %v", n, s.PerOp, l.PerOp)
		}
	}
	var b strings.Builder
	e.WriteTable(r, &b)
	for _, s := range []string{"3 FSM + 4 heap", "0 FSM + 4 heap", "19.1", "leaf scan ns", "reads_always_4blocks"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("table lacks %q:\n%s", s, b.String())
		}
	}
}

// The typed result carries the same keys.
func TestFSMResultSummary(t *testing.T) {
	r := &FSMResult{ReadsAlways4Blocks: 7, ReadsSmallSkip4Blocks: 4, SpeedupFF20_4Blocks: 1.1}
	e, _ := exp.Lookup("fsm")
	for _, k := range e.SummaryKeys {
		if _, ok := r.Summary()[k]; !ok {
			t.Errorf("FSMResult.Summary lacks %s", k)
		}
	}
}
