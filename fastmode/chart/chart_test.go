package chart

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/harness"
)

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
			row(exp.SlruLinear, 20+float64(n)/2, map[string]float64{"bank_slots": float64(n)}),
			row(exp.SlruHash, 30, map[string]float64{"bank_slots": float64(n)}))
	}
	fsmR := &exp.Report{Experiment: "fsm", Summary: map[string]float64{}}
	for _, n := range []float64{4069, 1e5, 1e6} {
		fsmR.Rows = append(fsmR.Rows,
			row("fsm_search heap_blocks=x", 300, map[string]float64{"heap_blocks": n}),
			row("leaf_scan heap_blocks=x", n/3, map[string]float64{"heap_blocks": n}))
	}
	for _, r := range []*exp.Report{slru, fsmR} {
		f := filepath.Join(dir, r.Experiment+".png")
		if err := Plot(r, f); err != nil {
			t.Fatalf("%s: %v", r.Experiment, err)
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil || img.Bounds().Dx() < 400 {
			t.Fatalf("%s: not a chart: %v", r.Experiment, err)
		}
		empty := &exp.Report{Experiment: r.Experiment, Summary: map[string]float64{}}
		if err := Plot(empty, filepath.Join(dir, "empty.png")); err == nil {
			t.Fatalf("%s: an empty report was plotted without an error", r.Experiment)
		}
	}
}
