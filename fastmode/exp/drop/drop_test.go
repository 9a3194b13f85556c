package drop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/exp/exptest"
	"bufferlab/fastmode/harness"
)

// The pure logic: the crossover, the extrapolation decision and estimate,
// the fine points, the formatting.

func TestDropCrossover(t *testing.T) {
	interp := func(khi, klo, rhi, rlo float64) float64 {
		x0, x1, y0, y1 := math.Log(khi), math.Log(klo), math.Log(rhi), math.Log(rlo)
		return math.Exp(x0 + (x1-x0)*y0/(y0-y1))
	}
	for _, c := range []struct {
		ks    []int
		ratio []float64
		want  float64
		bound int
	}{
		// Between 128 (1.1) and 64 (0.9): 128 × 0.5^(ln 1.1 / (ln 1.1 − ln 0.9)) ≈ 92.094.
		{[]int{512, 256, 128, 64, 32}, []float64{3, 1.5, 1.1, 0.9, 0.8}, interp(128, 64, 1.1, 0.9), 0},
		// The same points in another order.
		{[]int{64, 512, 32, 128, 256}, []float64{0.9, 3, 0.8, 1.1, 1.5}, interp(128, 64, 1.1, 0.9), 0},
		// Noise: a loss at 256, then a win at 128: the two are pooled into
		// their geometric mean, √(0.9 × 1.2) ≈ 1.039 ≥ 1, so the crossing
		// is between 128 and 64.
		{[]int{512, 256, 128, 64, 32}, []float64{3, 0.9, 1.2, 0.8, 0.7}, interp(128, 64, math.Sqrt(0.9*1.2), 0.8), 0},
		// A noisy win after a loss, pooled below 1: √(0.91 × 1.05) ≈ 0.977,
		// so the crossing stays between 128 and 64.
		{[]int{512, 256, 128, 64, 32, 16}, []float64{2.3, 1.5, 1.14, 0.91, 1.05, 0.85}, interp(128, 64, 1.14, math.Sqrt(0.91*1.05)), 0},
		// A tie at 64 counts as a win: the crossing is at 64 itself.
		{[]int{512, 256, 128, 64, 32}, []float64{3, 2, 1.5, 1, 0.5}, 64, 0},
		// Fine points between coarse ones.
		{[]int{128, 108, 91, 76, 64}, []float64{1.11, 1.05, 0.99, 0.98, 0.9}, interp(108, 91, 1.05, 0.99), 0},
		// The lookup never wins: beyond the smallest relation measured.
		{[]int{512, 256}, []float64{0.9, 0.8}, 1024, 1},
		// It always wins: at or below the largest relation measured.
		{[]int{16, 8, 4}, []float64{3, 2, 1.5}, 4, -1},
	} {
		got, bound := DropCrossover(c.ks, c.ratio)
		if bound != c.bound || math.Abs(got-c.want) > 1e-9 {
			t.Errorf("DropCrossover(%v, %v) = %v, %d; want %v, %d", c.ks, c.ratio, got, bound, c.want, c.bound)
		}
	}
	if got, _ := DropCrossover(nil, nil); !math.IsNaN(got) {
		t.Errorf("no points: %v", got)
	}
	if got := interp(128, 64, 1.1, 0.9); math.Abs(got-92.094) > 0.001 {
		t.Errorf("interpolation check: %v, want about 92.094", got)
	}
}

func TestMonotoneRatios(t *testing.T) {
	// 0.9 < 1.2 pools into √(0.9 × 1.2) ≈ 1.039; then 0.8 < 2 pools into
	// √1.6 ≈ 1.265, which rises above 1.039, so all four pool into their
	// geometric mean (0.9 × 1.2 × 0.8 × 2)^¼ ≈ 1.147.
	got := MonotoneRatios([]float64{3, 0.9, 1.2, 0.8, 2, 0.5})
	m := math.Pow(0.9*1.2*0.8*2, 0.25)
	want := []float64{3, m, m, m, m, 0.5}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("MonotoneRatios = %v, want %v", got, want)
		}
	}
	got = MonotoneRatios([]float64{3, 0.9, 1.2, 0.8, 0.7})
	if g := math.Sqrt(0.9 * 1.2); math.Abs(got[1]-g) > 1e-12 || math.Abs(got[2]-g) > 1e-12 || math.Abs(got[3]-0.8) > 1e-12 || math.Abs(got[0]-3) > 1e-12 {
		t.Errorf("MonotoneRatios(3, 0.9, 1.2, 0.8, 0.7) = %v", got)
	}
	// A rise that spans a pooled run pools it all: 1, then 2, 2 → the
	// geometric mean of the three.
	got = MonotoneRatios([]float64{1, 0.5, 8})
	if c := math.Cbrt(4); math.Abs(got[0]-c) > 1e-12 || math.Abs(got[2]-c) > 1e-12 {
		t.Errorf("MonotoneRatios(1, 0.5, 8) = %v, want all %v", got, c)
	}
	if got := MonotoneRatios([]float64{4, 2, 1}); fmt.Sprint(got) != "[4 2 1]" {
		t.Errorf("a monotone sequence changed: %v", got)
	}
}

func TestDropFineKs(t *testing.T) {
	for _, c := range []struct {
		hi, lo int
		want   []int
	}{
		{128, 64, []int{108, 91, 76}}, // 128 × 2^(−1/4, −1/2, −3/4) = 107.6, 90.5, 76.1
		{512, 256, []int{431, 362, 304}},
		{4, 2, []int{3}}, // 3.36 and 2.83 round to 3, 2.38 to 2 (= lo)
		{3, 2, nil},
	} {
		if got := DropFineKs(c.hi, c.lo); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("DropFineKs(%d, %d) = %v, want %v", c.hi, c.lo, got, c.want)
		}
	}
}

func TestDropSampleDecision(t *testing.T) {
	// 8 scan drops at 20GB took 40 ms: 163840 of them would take 819.2 s.
	est, sample := DropSampleDecision(40e6, 8, 163840, 60, false)
	if math.Abs(est-819.2) > 1e-9 || !sample {
		t.Errorf("20GB/16 scan: estimate %v, sample %v; want 819.2 s and sampled", est, sample)
	}
	if _, sample := DropSampleDecision(40e6, 8, 163840, 60, true); sample {
		t.Error("--full sampled a cell")
	}
	// 5120 such drops: 25.6 s, under the minute.
	if est, sample := DropSampleDecision(40e6, 8, 5120, 60, false); sample || math.Abs(est-25.6) > 1e-9 {
		t.Errorf("20GB/512 scan: estimate %v, sample %v; want 25.6 s, timed in full", est, sample)
	}
	// A cell no longer than its pilot is never sampled, whatever the budget.
	if _, sample := DropSampleDecision(1e12, 8, 8, 0, false); sample {
		t.Error("a cell of 8 drops, all in the pilot, was sampled")
	}
	if est, _ := DropSampleDecision(1, 0, 8, 1, false); !math.IsNaN(est) {
		t.Errorf("no pilot: estimate %v", est)
	}
}

func TestDropExtrapolate(t *testing.T) {
	// Drops of 1…5 ms, 1000 relations: median 3 ms → 3 s; p10 and p90
	// 1.4 and 4.6 ms → 1.4 s and 4.6 s.
	s := DropExtrapolate([]float64{5e6, 1e6, 3e6, 2e6, 4e6}, 1000)
	if math.Abs(s.Median-3) > 1e-12 || math.Abs(s.P10-1.4) > 1e-12 || math.Abs(s.P90-4.6) > 1e-12 || s.Samples != 5 || s.Batch != 1 {
		t.Errorf("DropExtrapolate = %+v", s)
	}
}

func TestDropTieRange(t *testing.T) {
	pts := []DropSweepRow{
		{SharedBuffers: "1GB", K: 128, Ratio: 1.093}, {SharedBuffers: "1GB", K: 108, Ratio: 1.038}, {SharedBuffers: "1GB", K: 91, Ratio: 0.999},
		{SharedBuffers: "1GB", K: 76, Ratio: 0.943}, {SharedBuffers: "1GB", K: 64, Ratio: 0.977}, {SharedBuffers: "1GB", K: 32, Ratio: 0.864},
		{SharedBuffers: "128MB", K: 512, Ratio: 1.01},
	}
	if hi, lo, ok := DropTieRange(pts, "1GB", 0.05); !ok || hi != 108 || lo != 64 {
		t.Errorf("DropTieRange = %d, %d, %v; want 108, 64", hi, lo, ok)
	}
	if _, _, ok := DropTieRange(pts, "1GB", 0.0001); ok {
		t.Error("a tie within 0.01%")
	}
}

func TestFmtSeconds(t *testing.T) {
	for _, c := range []struct {
		s    float64
		want string
	}{{537.978, "538 s"}, {17.2, "17.2 s"}, {1.5, "1.50 s"}, {0.00344, "3.44 ms"}, {4.81e-6, "4.81 µs"}, {3.2e-7, "320 ns"}, {0, "-"}, {math.NaN(), "-"}} {
		if got := fmtSeconds(c.s); got != c.want {
			t.Errorf("fmtSeconds(%v) = %q, want %q", c.s, got, c.want)
		}
	}
}

func TestDropSizes(t *testing.T) {
	for _, c := range []struct {
		size          string
		tables, sweep int // DropPoolTables; NBuffers/32
	}{{"128kB", 1, 0}, {"128MB", 1024, 512}, {"1GB", 8192, 4096}, {"20GB", 163840, 81920}, {"50GB", 409600, 204800}} {
		nb := mustNBuffers(c.size)
		if got := DropPoolTables(nb); got != c.tables {
			t.Errorf("%s: DropPoolTables = %d, want %d", c.size, got, c.tables)
		}
		if got := int(bufmgr.BufDropFullScanThreshold(nb)); got != c.sweep {
			t.Errorf("%s: threshold %d, want %d", c.size, got, c.sweep)
		}
	}
	if DropTables(131072, 512) != 256 || DropTables(16, 512) != 1 {
		t.Error("DropTables")
	}
	if DescSize != 36 {
		t.Errorf("the engine's BufferDesc is %d bytes; the memory estimates assume 36", DescSize)
	}
	if DropBytesPerBuffer != 100+PaddedDescBytes {
		t.Errorf("DropBytesPerBuffer %d does not count the %d-byte padded copy", DropBytesPerBuffer, PaddedDescBytes)
	}
}

// The table, from a synthetic report with known values.
func TestDropTableText(t *testing.T) {
	nb := mustNBuffers("20GB")
	r := &exp.Report{Experiment: "drop", Summary: map[string]float64{
		"crossover_k": 55.3, "crossover_k_20GB": 55.3, "crossover_bound_20GB": 0, "crossover_nbuffers": float64(nb),
		"crossover_k_compact": 93.7, "crossover_k_compact_20GB": 93.7, "crossover_bound_compact_20GB": 0,
		"speedup_1block_20GB": 2645, "speedup_1block_extrapolated": 0, "dlist_overhead_miss_pct": 34.7, "dlist_overhead_hit_pct": -2.2,
	}}
	sec := func(v float64) harness.Summary { return harness.Summary{Median: v, P10: v, P90: v, Samples: 1} }
	r.Rows = append(r.Rows,
		cellRow(dropRowCell, "20GB", nb, 512, DropCell{Strategy: bufmgr.DropScan, Tables: 5120, Seconds: sec(17.2), Extrapolated: true, Sampled: 40, EstimateS: 17.5}),
		cellRow(dropRowCell, "20GB", nb, 512, DropCell{Strategy: bufmgr.DropLookup, Tables: 5120, Seconds: sec(0.00344)}),
		cellRow(dropRowCell, "20GB", nb, 512, DropCell{Strategy: bufmgr.DropDList, Tables: 5120, Seconds: sec(0.00516)}),
		exp.Row{Name: dropRowSkipped, SharedBuffers: "50GB", NBuffers: mustNBuffers("50GB"), Note: "needs about 1.1 GiB, more than the 96 MiB this run may use"},
		exp.Row{Name: dropRowSweep + "scan", SharedBuffers: "20GB", NBuffers: nb, Summary: sec(50000), PerOp: map[string]float64{"k": 64, "blocks": 40960, "ratio": 1.25}},
		exp.Row{Name: dropRowSweep + "lookup", SharedBuffers: "20GB", NBuffers: nb, Summary: sec(40000), PerOp: map[string]float64{"k": 64, "blocks": 40960, "ratio": 1.25}},
		exp.Row{Name: dropRowSweep + "scan-compact", SharedBuffers: "20GB", NBuffers: nb, Summary: sec(30000), PerOp: map[string]float64{"k": 64, "blocks": 40960, "ratio": 0.75}},
		exp.Row{Name: dropRowSpeedup + "scan", SharedBuffers: "20GB", NBuffers: nb, Summary: harness.Summary{Median: 3.71e6, Samples: 15}, PerOp: map[string]float64{"ratio": 2645, "ratio_p10": 2464, "ratio_p90": 2900}},
		exp.Row{Name: dropRowSpeedup + "lookup", SharedBuffers: "20GB", NBuffers: nb, Summary: harness.Summary{Median: 1402, Samples: 15}},
		exp.Row{Name: dropRowUpkeep + "hit/off", SharedBuffers: DropUpkeepSize, Summary: sec(75.1)},
		exp.Row{Name: dropRowUpkeep + "hit/on", SharedBuffers: DropUpkeepSize, Summary: sec(73.4)},
		exp.Row{Name: dropRowUpkeep + "hit/overhead", SharedBuffers: DropUpkeepSize, Summary: harness.Summary{Median: -2.2, P10: -5.1, P90: 1, Samples: 9}},
		exp.Row{Name: dropRowUpkeep + "miss/off", SharedBuffers: DropUpkeepSize, Summary: sec(227)},
		exp.Row{Name: dropRowUpkeep + "miss/on", SharedBuffers: DropUpkeepSize, Summary: sec(306)},
		exp.Row{Name: dropRowUpkeep + "miss/overhead", SharedBuffers: DropUpkeepSize, Summary: harness.Summary{Median: 34.7, P10: 13.9, P90: 65.7, Samples: 9}, PerOp: map[string]float64{"list_links_per_read": 1}},
	)
	if row := r.Rows[0]; row.PerOp["extrapolated"] != 1 || row.PerOp["sampled_drops"] != 40 || !strings.Contains(row.Note, "40 of 5120 drops") {
		t.Errorf("extrapolated cell's row: %+v", row)
	}
	if row := r.Rows[1]; row.PerOp["extrapolated"] != 0 || row.Note != "" {
		t.Errorf("a cell timed in full: %+v", row)
	}
	var b bytes.Buffer
	dropTable(r, &b)
	out := b.String()
	for _, want := range []string{
		"sizes measured: 20GB; skipped: 50GB",
		"50GB skipped: needs about 1.1 GiB",
		"17.2 s*", "3.44 ms", "5.16 ms",
		"lookup ×5000.0 faster", "dlist ×3333.3 faster",
		"94.493 s / 1.511 s", // seed 000, quoted
		"thread at 50GB (not measured in this run; master / patched): NBuffers/512 537.978 s / 3.815 s, NBuffers/256 867.453 s / 7.524 s",
		"* extrapolated (1 cells)",
		"NBuffers/64", "1.25", "lookup ×1.2 faster",
		"the lookup stops winning at about NBuffers/55 = 47404 blocks", "NBuffers/32 = 81920 blocks",
		"scan (64 B)", "what-if: scan (36 B)", "30.0 µs", "0.75", // the layouts, labelled
		"crossover at 20GB (64-byte descriptors, PostgreSQL's layout): the lookup stops winning at about NBuffers/55",
		"what-if at 20GB (the engine's compact 36-byte descriptors): the lookup stops winning at about NBuffers/94 = 27977 blocks",
		"scan 3.71 ms, lookup 1.40 µs", "×2645.0 faster", "measured at 20GB",
		"-2.2%", "+34.7%", "+13.9% – +65.7%",
		"77416.76", "-1.63%", // seed 001, quoted
		"not run with --quick",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "NOT measured") {
		t.Errorf("a measured speedup is called not measured:\n%s", out)
	}

	// The same at a smaller size, scaled.
	r.Summary["speedup_1block_extrapolated"] = 1
	for i := range r.Rows {
		if strings.HasPrefix(r.Rows[i].Name, dropRowSpeedup) {
			r.Rows[i].SharedBuffers, r.Rows[i].Note = "1GB", "20GB does not fit in this machine's memory: measured at 1GB"
		}
	}
	b.Reset()
	dropTable(r, &b)
	if out := b.String(); !strings.Contains(out, "one one-block relation at 1GB") || !strings.Contains(out, "is NOT measured at 20GB: 20GB does not fit") {
		t.Errorf("scaled speedup not said so:\n%s", out)
	}
}

// The pools and the measurements, on small pools, checked against the
// engine: each strategy drops exactly the relations asked, touches no other
// buffer, and the cell counters are what the strategy does.

// fullPlan is the quick plan with every cell timed in full.
func fullPlan() DropPlan { return dropPlanFor(exp.Options{Quick: true, Full: true}) }

func checkDropPool(t *testing.T, dp *DropPool) {
	t.Helper()
	p := dp.Pool
	if p.FirstFreeBuffer() >= 0 {
		t.Errorf("pool not full: first free %d", p.FirstFreeBuffer())
	}
	if err := p.CheckQuiescent(); err != nil {
		t.Error(err)
	}
	for i := range dp.Tables {
		if _, ok := p.Lookup(dp.Tables[i].Tag(bufmgr.MainForkNum, 0)); !ok {
			t.Fatalf("relation %d not resident", dp.Tables[i].Number)
		}
	}
	for blk := uint32(0); blk < dp.Filler.NBlocks[bufmgr.MainForkNum]; blk++ {
		if _, ok := p.Lookup(dp.Filler.Tag(bufmgr.MainForkNum, blk)); !ok {
			t.Fatalf("filler block %d was dropped", blk)
		}
	}
}

func TestDropPoolCells(t *testing.T) {
	const nb = 4096
	tables := DropPoolTables(nb) // 256
	for _, st := range dropStrategies {
		dp, err := NewDropPool(nb, tables, st == bufmgr.DropDList)
		if err != nil {
			t.Fatal(err)
		}
		checkDropPool(t, dp)
		plan := fullPlan()
		c, err := dp.MeasureCell(plan, 64, st)
		if err != nil {
			t.Fatal(err)
		}
		if c.Extrapolated || c.Tables != 64 || c.Seconds.Samples < 1 || !(c.Seconds.Median > 0) {
			t.Errorf("%s: full cell %+v", st, c)
		}
		want := map[bufmgr.DropStrategy][3]float64{ // descs, lookups, list hops per drop
			bufmgr.DropScan:   {nb, 0, 0},
			bufmgr.DropLookup: {1, 1, 0},
			bufmgr.DropDList:  {1, 0, 2}, // the head, then the one node
		}[st]
		if got := [3]float64{c.DescsPerDrop, c.LookupsPerDrop, c.HopsPerDrop}; got != want {
			t.Errorf("%s: per drop (descs, lookups, hops) = %v, want %v", st, got, want)
		}
		checkDropPool(t, dp)

		// A budget of nothing: every cell longer than its pilot is sampled.
		plan.Full, plan.BudgetS, plan.SampleS = false, 0, 0
		c, err = dp.MeasureCell(plan, 200, st)
		if err != nil {
			t.Fatal(err)
		}
		if !c.Extrapolated || c.Sampled != plan.MinSample || c.Seconds.Samples != plan.MinSample || !(c.Seconds.Median > 0) {
			t.Errorf("%s: sampled cell %+v", st, c)
		}
		checkDropPool(t, dp)
		// The pilot is the whole cell: never sampled.
		c, err = dp.MeasureCell(plan, dropPilot, st)
		if err != nil || c.Extrapolated {
			t.Errorf("%s: a cell of %d drops: %+v, %v", st, dropPilot, c, err)
		}
		// --full: the same budget, timed in full.
		plan.Full = true
		if c, err = dp.MeasureCell(plan, 200, st); err != nil || c.Extrapolated {
			t.Errorf("%s: --full cell %+v, %v", st, c, err)
		}
		checkDropPool(t, dp)
		if _, err := dp.MeasureCell(plan, tables+1, st); err == nil {
			t.Errorf("%s: a cell of more relations than the pool holds", st)
		}
	}
}

// Dropping and reading back allocates nothing (the timed regions run on
// the engine's fast path).
func TestDropNoAllocs(t *testing.T) {
	for _, st := range dropStrategies {
		dp, err := NewDropPool(1024, 64, st == bufmgr.DropDList)
		if err != nil {
			t.Fatal(err)
		}
		if a := testing.AllocsPerRun(20, func() {
			if err := dp.dropTables(0, 16, st); err != nil {
				t.Fatal(err)
			}
			if err := dp.readTables(0, 16); err != nil {
				t.Fatal(err)
			}
		}); a != 0 {
			t.Errorf("%s: %.1f allocations per 16 drops and reads", st, a)
		}
	}
}

func TestDropSweep(t *testing.T) {
	const nb = 2048
	dp, err := NewDropPool(nb, DropPoolTables(nb), false)
	if err != nil {
		t.Fatal(err)
	}
	plan := fullPlan()
	plan.Rounds = 3
	var seen int
	pts, err := dp.Sweep(plan, func(DropSweepPoint) { seen++ })
	if err != nil {
		t.Fatal(err)
	}
	if seen != len(pts) || len(pts) < 2 {
		t.Fatalf("%d points, %d reported", len(pts), seen)
	}
	blocks := map[int]bool{}
	for i, pt := range pts {
		if i > 0 && pt.K >= pts[i-1].K {
			t.Errorf("points not in decreasing k: %d after %d", pt.K, pts[i-1].K)
		}
		if pt.Blocks != nb/pt.K || blocks[pt.Blocks] || pt.Blocks > nb/2 {
			t.Errorf("point k=%d: %d blocks", pt.K, pt.Blocks)
		}
		blocks[pt.Blocks] = true
		if pt.Rounds < plan.Rounds || !(pt.Ratio.Median > 0) || !(pt.Scan.Median > 0) || !(pt.Lookup.Median > 0) ||
			!(pt.Compact.Median > 0) || !(pt.RatioCompact.Median > 0) || pt.RatioCompact.Samples != pt.Rounds ||
			!(pt.Pass64.Median > 0) || !(pt.Pass36.Median > 0) || pt.Pass64.Samples != pt.Rounds {
			t.Errorf("point %+v", pt)
		}
	}
	if pts[0].K < 512 {
		t.Errorf("the sweep starts at k=%d, want 512 or more", pts[0].K)
	}
	k, bound := SweepCrossover(pts)
	if !(k > 0) || bound < -1 || bound > 1 {
		t.Errorf("crossover %v, %d", k, bound)
	}
	if k, bound := SweepCrossoverCompact(pts); !(k > 0) || bound < -1 || bound > 1 {
		t.Errorf("compact crossover %v, %d", k, bound)
	}
	rows := sweepRows("16MB", nb, pts)
	if len(rows) != 3*len(pts) {
		t.Fatalf("%d rows for %d points", len(rows), len(pts))
	}
	for _, row := range rows {
		want := map[string]float64{"sweep/scan": 64, "sweep/lookup": 0, "sweep/scan-compact": 36}[row.Name]
		if row.PerOp["descriptor_bytes"] != want {
			t.Errorf("row %s: descriptor_bytes %v, want %v", row.Name, row.PerOp["descriptor_bytes"], want)
		}
		if _, ok := row.PerOp["precheck_pass_ns"]; ok != (want > 0) {
			t.Errorf("row %s: precheck_pass_ns present %v", row.Name, ok)
		}
	}
	back := DropSweepRows(&exp.Report{Rows: rows})
	if len(back) != len(pts) || back[0].RatioCompact != pts[0].RatioCompact.Median || back[0].CompactNs != pts[0].Compact.Median ||
		back[0].Ratio != pts[0].Ratio.Median || back[0].LookupNs != pts[0].Lookup.Median {
		t.Errorf("the rows read back: %+v, from %+v", back, pts[0])
	}
	if _, ok := dp.Pool.Lookup(dp.victim.Tag(bufmgr.MainForkNum, 0)); ok {
		t.Error("the finder's relation is still in the pool")
	}
	if err := dp.Pool.CheckQuiescent(); err != nil {
		t.Error(err)
	}
	if _, err := dp.MeasureSweepPoint(plan, 1); err == nil {
		t.Error("a relation as large as the pool was accepted")
	}
}

func TestDropSpeedupRounds(t *testing.T) {
	dp, err := NewDropPool(4096, 128, false)
	if err != nil {
		t.Fatal(err)
	}
	s, err := dp.MeasureSpeedup(fullPlan(), "32MB", 5)
	if err != nil {
		t.Fatal(err)
	}
	if s.Ratio.Samples != 5 || !(s.Scan.Median > 0) || !(s.Lookup.Median > 0) || s.Lookup.Batch != dropLookupRun {
		t.Errorf("speedup %+v", s)
	}
	checkDropPool(t, dp)
}

func TestUpkeepBench(t *testing.T) {
	const nb, n = 1024, 5000
	for _, miss := range []bool{false, true} {
		for _, dlist := range []bool{false, true} {
			u, err := NewUpkeepBench(nb, dlist, miss)
			if err != nil {
				t.Fatal(err)
			}
			if err := u.Run(n); err != nil {
				t.Fatal(err)
			}
			st := u.Backend.Stats
			if err := u.Check(); err != nil {
				t.Error(err)
			}
			wantMiss, wantLinks := uint64(0), uint64(0)
			if miss {
				wantMiss = n
				if dlist {
					wantLinks = n // every miss moves a buffer from one relation's list to the other's
				}
			}
			if st.Misses != wantMiss || st.Hits != n-wantMiss || st.DListLinks != wantLinks || st.DListUnlinks != wantLinks {
				t.Errorf("miss %v dlist %v: %d hits, %d misses, %d links, %d unlinks", miss, dlist, st.Hits, st.Misses, st.DListLinks, st.DListUnlinks)
			}
			if err := u.Pool.CheckInvariants(); err != nil {
				t.Error(err)
			}
			if a := testing.AllocsPerRun(10, func() { _ = u.Run(100) }); a != 0 {
				t.Errorf("miss %v dlist %v: %.1f allocations per 100 reads", miss, dlist, a)
			}
		}
	}
	ups, err := MeasureUpkeep(harness.Config{Samples: 3, SampleNs: 2e5}, nb, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ups) != 2 || ups[0].Path != "hit" || ups[1].Path != "miss" || ups[0].OverheadPct.Samples != 3 || ups[1].LinksPerOp != 1 || ups[0].LinksPerOp != 0 {
		t.Errorf("upkeep %+v", ups)
	}
}

func heapAlloc() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// The memory check's estimate is an upper bound of what a pool takes.
func TestDropMemoryEstimate(t *testing.T) {
	nb := mustNBuffers("1GB")
	tables := DropPoolTables(nb)
	for _, dlist := range []bool{false, true} {
		h0 := heapAlloc()
		dp, err := NewDropPool(nb, tables, dlist)
		if err != nil {
			t.Fatal(err)
		}
		used := int64(heapAlloc()) - int64(h0)
		est := DropPoolBytes(nb, tables, dlist)
		if used > est || used < est/3 {
			t.Errorf("dlist %v: the pool takes %d bytes (%.1f per buffer), the estimate is %d", dlist, used, float64(used)/float64(nb), est)
		}
		runtime.KeepAlive(dp)
	}
}

// A size beyond the memory is skipped with a message, and the one-block
// speedup, if 20GB does not fit, is measured at a smaller size and scaled,
// and said so.
func TestDropSkipsWhatDoesNotFit(t *testing.T) {
	saved := dropMemory
	defer func() { dropMemory = saved }()
	dropMemory = func() (int64, bool) { return 32 << 20, true }
	cfg := harness.Quick
	cfg.Samples = 3
	r, err := dropExperiment.Run(exp.Options{Sizes: []string{"128kB", "20GB"}, Quick: true, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	skipped, ok := exp.Find(r, dropRowSkipped, "20GB")
	if !ok || !strings.Contains(skipped.Note, "needs about") || !strings.Contains(skipped.Note, "the 32 MiB this run may use") {
		t.Errorf("20GB not skipped as it should: %+v (%v)", skipped, ok)
	}
	if r.Summary["speedup_1block_extrapolated"] != 1 || r.Summary["speedup_1block_nbuffers"] != float64(mustNBuffers("1GB")) {
		t.Errorf("speedup summary %v", r.Summary)
	}
	checkLayoutJSON(t, r)
	sc := r.Row(dropRowSpeedup+"scan", "1GB")
	if want := sc.PerOp["ratio"] * 20; math.Abs(r.Summary["speedup_1block_20GB"]-want) > 1e-9*want {
		t.Errorf("speedup_1block_20GB = %v, want the 1GB ratio × 20 = %v", r.Summary["speedup_1block_20GB"], want)
	}
	var b bytes.Buffer
	dropExperiment.WriteTable(r, &b)
	for _, want := range []string{"skipped: 20GB", "20GB skipped: needs about", "NOT measured at 20GB", "scaled ×20.0"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
	for _, row := range r.Rows {
		if strings.HasPrefix(row.Name, dropRowCell) && row.SharedBuffers == "20GB" {
			t.Errorf("a 20GB cell was measured: %+v", row)
		}
	}
}

// checkLayoutJSON: a drop report says, in its JSON, which descriptor
// layout each crossover and each scan row was timed over.
func checkLayoutJSON(t *testing.T, r *exp.Report) {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Summary map[string]float64 `json:"summary"`
		Rows    []struct {
			Name  string             `json:"name"`
			PerOp map[string]float64 `json:"per_op"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Summary["descriptor_bytes"] != 64 || back.Summary["descriptor_bytes_compact"] != 36 {
		t.Errorf("descriptor_bytes %v, descriptor_bytes_compact %v; want 64 and 36", back.Summary["descriptor_bytes"], back.Summary["descriptor_bytes_compact"])
	}
	for _, k := range []string{"crossover_k", "crossover_k_compact"} {
		if v := back.Summary[k]; !(v > 0) {
			t.Errorf("summary %s = %v, want positive", k, v)
		}
	}
	seen := map[string]int{}
	for _, row := range back.Rows {
		want, ok := map[string]float64{"sweep/scan": 64, "sweep/scan-compact": 36, "drop/scan": 64}[row.Name]
		if !ok {
			continue
		}
		seen[row.Name]++
		if row.PerOp["descriptor_bytes"] != want {
			t.Errorf("row %s: descriptor_bytes %v, want %v", row.Name, row.PerOp["descriptor_bytes"], want)
		}
	}
	if seen["sweep/scan"] == 0 || seen["sweep/scan"] != seen["sweep/scan-compact"] || seen["drop/scan"] == 0 {
		t.Errorf("scan rows by name: %v", seen)
	}
}

// testing.B twins, for go test -bench and benchstat:
//
//	go test -run - -bench Drop ./fastmode/exp
//
// Sizes as benchSizes (128MB, 1GB, 20GB; -short: 128MB, 1GB).

var (
	dropBenchMu    sync.Mutex
	dropBenchPools = map[string]*DropPool{}
)

// getDropPool returns the pool of a size, built once; sweep pools are
// apart, since reading the finder's relation in evicts other relations.
func getDropPool(b *testing.B, size string, dlist, sweep bool) *DropPool {
	dropBenchMu.Lock()
	defer dropBenchMu.Unlock()
	key := fmt.Sprint(size, dlist, sweep)
	if dp := dropBenchPools[key]; dp != nil {
		return dp
	}
	nb := exptest.NBuffers(b, size)
	dp, err := NewDropPool(nb, DropPoolTables(nb), dlist)
	if err != nil {
		b.Fatal(err)
	}
	dropBenchPools[key] = dp
	return dp
}

// BenchmarkDropRecovery: one operation is one one-block relation truncated
// to nothing in a full pool in recovery (a drop of the 000 table; the scan
// over PostgreSQL's 64-byte layout, as in bench drop); when the
// pool's relations are all dropped they are read back, timer stopped.
func BenchmarkDropRecovery(b *testing.B) {
	for _, size := range exptest.Sizes() {
		for _, st := range dropStrategies {
			b.Run(fmt.Sprintf("shared_buffers=%s/strategy=%s", size, st), func(b *testing.B) {
				dp := getDropPool(b, size, st == bufmgr.DropDList, false)
				before := dp.Backend.Stats
				next := 0
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if next == len(dp.Tables) {
						b.StopTimer()
						if err := dp.readTables(0, next); err != nil {
							b.Fatal(err)
						}
						next = 0
						b.StartTimer()
					}
					if err := dp.dropTables(next, next+1, st); err != nil {
						b.Fatal(err)
					}
					next++
				}
				b.StopTimer()
				if err := dp.readTables(0, next); err != nil {
					b.Fatal(err)
				}
				d := dp.Backend.Stats
				b.ReportMetric(float64(d.DropDescsTouched-before.DropDescsTouched)/float64(b.N), "descs/op")
			})
		}
	}
}

// BenchmarkDropThreshold: around PostgreSQL's k = 32, one operation drops
// one resident relation of NBuffers/k blocks (read in with the timer
// stopped) by the lookup (strategy=lookup) or the engine's scan over its
// 36-byte descriptors (strategy=scan-compact), or is a pre-check pass that
// finds nothing over the 64-byte or the 36-byte layout (strategy=pass64,
// pass36). As in bench drop, the scan over PostgreSQL's layout is
// scan-compact + pass64 − pass36.
func BenchmarkDropThreshold(b *testing.B) {
	for _, size := range exptest.Sizes() {
		for _, k := range []int{256, 128, 64, 32} {
			for _, way := range []string{"lookup", "scan-compact", "pass64", "pass36"} {
				b.Run(fmt.Sprintf("shared_buffers=%s/k=%d/strategy=%s", size, k, way), func(b *testing.B) {
					dp := getDropPool(b, size, false, true)
					blocks := dp.Pool.NBuffers / k
					pass := strings.HasPrefix(way, "pass")
					if pass {
						dp.victim.NBlocks[bufmgr.MainForkNum] = uint32(blocks) // not resident: the pass finds nothing
					}
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						if !pass {
							b.StopTimer()
							if err := dp.loadVictim(blocks); err != nil {
								b.Fatal(err)
							}
							b.StartTimer()
						}
						var err error
						switch way {
						case "lookup":
							err = dp.dropRel(&dp.victim, bufmgr.DropLookup, false)
						case "scan-compact", "pass36":
							err = dp.dropRel(&dp.victim, bufmgr.DropScan, true)
						case "pass64":
							err = dp.dropScanPadded(&dp.victim, bufmgr.MainForkNum, 0)
						}
						if err != nil {
							b.Fatal(err)
						}
					}
					b.StopTimer()
					for i := range dp.Padded {
						dp.syncPadded(i) // the engine's drops left the relation's tags in the padded copy
					}
				})
			}
		}
	}
}

// BenchmarkDropUpkeep: ReadBuffer + ReleaseBuffer at 128MB, hits and
// misses, without and with the per-relation lists (compare dlist=off and
// dlist=on with benchstat).
func BenchmarkDropUpkeep(b *testing.B) {
	for _, path := range []string{"hit", "miss"} {
		for _, dlist := range []bool{false, true} {
			b.Run(fmt.Sprintf("path=%s/dlist=%v", path, map[bool]string{false: "off", true: "on"}[dlist]), func(b *testing.B) {
				u, err := NewUpkeepBench(exptest.NBuffers(b, DropUpkeepSize), dlist, path == "miss")
				if err != nil {
					b.Fatal(err)
				}
				exptest.Time(b, u.Run)
				b.StopTimer()
				if err := u.Check(); err != nil {
					b.Fatal(err)
				}
			})
		}
	}
}
