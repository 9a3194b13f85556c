package chart

import (
	"bytes"
	"image/png"
	"path/filepath"
	"strings"
	"testing"

	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/exp/drop"
	"bufferlab/fastmode/harness"
)

// dropReport is a small drop report: two sizes, every strategy and k, one
// extrapolated cell, a threshold finder at each size.
func dropReport() *exp.Report {
	r := &exp.Report{Experiment: "drop", Summary: map[string]float64{
		"crossover_k_128MB": 92, "crossover_bound_128MB": 0, "crossover_k_1GB": 55, "crossover_bound_1GB": 0,
		"crossover_k_compact_128MB": 150, "crossover_bound_compact_128MB": 0, "crossover_k_compact_1GB": 90, "crossover_bound_compact_1GB": 0,
	}}
	for _, sz := range []struct {
		size string
		nb   int
	}{{"128MB", 16384}, {"1GB", 131072}} {
		for _, k := range drop.DropKs {
			tables := sz.nb / k
			for i, st := range []string{"scan", "lookup", "dlist"} {
				per := []float64{0.5 * float64(sz.nb), 150, 200}[i] // ns per drop
				extra := 0.0
				if sz.size == "1GB" && k == 16 && st == "scan" {
					extra = 1
				}
				r.Rows = append(r.Rows, exp.Row{Name: "drop/" + st, SharedBuffers: sz.size, NBuffers: sz.nb, Unit: "s",
					Summary: harness.Summary{Median: per * float64(tables) / 1e9},
					PerOp:   map[string]float64{"k": float64(k), "tables": float64(tables), "extrapolated": extra}})
			}
		}
		for _, k := range []int{512, 256, 128, 64, 32} {
			ratio := 150 / float64(k) * 0.6
			for _, st := range []string{"scan", "lookup", "scan-compact"} {
				rt := ratio
				if st == "scan-compact" {
					rt = ratio * 0.6
				}
				r.Rows = append(r.Rows, exp.Row{Name: "sweep/" + st, SharedBuffers: sz.size, NBuffers: sz.nb, Unit: "ns/drop",
					Summary: harness.Summary{Median: 1000}, PerOp: map[string]float64{"k": float64(k), "blocks": float64(sz.nb / k), "ratio": rt}})
			}
		}
	}
	r.Rows = append(r.Rows, exp.Row{Name: "skipped", SharedBuffers: "50GB", NBuffers: 6553600, Note: "needs more memory"})
	return r
}

// The drop chart is drawn, as PNG and SVG; a report without cells is an
// error, not an empty picture; a report without finder points still draws
// the table's panel.
func TestPlotDrop(t *testing.T) {
	dir := t.TempDir()
	r := dropReport()
	img, err := png.Decode(bytes.NewReader(plotted(t, r, filepath.Join(dir, "drop.png"))))
	if err != nil || img.Bounds().Dx() < 800 {
		t.Fatalf("not a two-panel chart: %v", err)
	}
	text := plotted(t, r, filepath.Join(dir, "drop.svg"))
	for _, want := range []string{"recovery after VACUUM", "threshold finder", "N/512", "N/16", "scan (64 B descriptors), 1GB", "lookup, 128MB", "dlist, 1GB",
		"extrapolated from a sample", "PostgreSQL: lookup below NBuffers/32", "crossover found (64 B)",
		"1GB, 64 B descriptors (PostgreSQL&#39;s layout)", "128MB, what-if: compact 36 B descriptors", "what-if crossover (compact 36 B)"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}

	var noSweep exp.Report = *r
	noSweep.Rows = nil
	for _, row := range r.Rows {
		if !strings.HasPrefix(row.Name, "sweep/") {
			noSweep.Rows = append(noSweep.Rows, row)
		}
	}
	if err := Plot(&noSweep, filepath.Join(dir, "nosweep.png")); err != nil {
		t.Errorf("a report without finder points: %v", err)
	}
	empty := &exp.Report{Experiment: "drop", Summary: map[string]float64{}}
	if err := Plot(empty, filepath.Join(dir, "empty.png")); err == nil {
		t.Error("an empty drop report was plotted without an error")
	}
}

func TestRatioTicks(t *testing.T) {
	var got []string
	for _, tk := range ratioTicks(0.6, 12) {
		got = append(got, tk.Label)
	}
	if strings.Join(got, " ") != "0.7 1 1.5 2 3 5 7 10" {
		t.Errorf("ticks %v", got)
	}
}
