package chart

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"bufferlab/fastmode/exp"
	_ "bufferlab/fastmode/exp/all"
	slruexp "bufferlab/fastmode/exp/slru"
	"bufferlab/fastmode/harness"
)

// plotted plots r into file (PNG or SVG by its extension) and returns
// what was written, failing t on an error.
func plotted(t *testing.T, r *exp.Report, file string) []byte {
	t.Helper()
	if err := Plot(r, file); err != nil {
		t.Fatalf("%s: %v", r.Experiment, err)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func row(name string, median float64, perOp map[string]float64) exp.Row {
	return exp.Row{Name: name, Unit: "ns", Summary: harness.Summary{Median: median}, PerOp: perOp}
}

// The slru and fsm charts are drawn from their experiments' rows; a
// report without those rows is an error, not an empty picture.
func TestPlotSlruAndFSM(t *testing.T) {
	dir := t.TempDir()
	slru := &exp.Report{Experiment: "slru", Summary: map[string]float64{"crossover_slots": 24}}
	for _, n := range []int{8, 16, 32, 64} {
		slru.Rows = append(slru.Rows,
			row(slruexp.SlruLinear, 20+float64(n)/2, map[string]float64{"bank_slots": float64(n)}),
			row(slruexp.SlruHash, 30, map[string]float64{"bank_slots": float64(n)}))
	}
	fsmR := &exp.Report{Experiment: "fsm", Summary: map[string]float64{}}
	for _, n := range []float64{4069, 1e5, 1e6} {
		fsmR.Rows = append(fsmR.Rows,
			row("fsm_search heap_blocks=x", 300, map[string]float64{"heap_blocks": n}),
			row("leaf_scan heap_blocks=x", n/3, map[string]float64{"heap_blocks": n}))
	}
	for _, r := range []*exp.Report{slru, fsmR} {
		img, err := png.Decode(bytes.NewReader(plotted(t, r, filepath.Join(dir, r.Experiment+".png"))))
		if err != nil || img.Bounds().Dx() < 400 {
			t.Fatalf("%s: not a chart: %v", r.Experiment, err)
		}
		empty := &exp.Report{Experiment: r.Experiment, Summary: map[string]float64{}}
		if err := Plot(empty, filepath.Join(dir, "empty.png")); err == nil {
			t.Fatalf("%s: an empty report was plotted without an error", r.Experiment)
		}
	}
}

// Every experiment has a chart registered under its name, and every chart
// names an experiment.
func TestEveryExperimentHasAChart(t *testing.T) {
	names := exp.Names()
	if len(names) < 6 {
		t.Fatalf("experiments registered: %v", names)
	}
	for _, n := range names {
		if _, ok := Lookup(n); !ok {
			t.Errorf("experiment %s has no chart", n)
		}
	}
	for n := range charts {
		if _, ok := exp.Lookup(n); !ok {
			t.Errorf("chart %s names no experiment", n)
		}
	}
}
