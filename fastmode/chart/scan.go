package chart

import (
	"fmt"

	"gonum.org/v1/plot/plotter"

	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/exp/scan"
)

func init() { Register("scan", plotScan) }

// plotScan draws the scan experiment's simulated I/O time of one cold
// scan against the latency of a read call, one line per variant (both
// axes logarithmic): fewer, larger reads pay the latency fewer times.
func plotScan(r *exp.Report, file string) error {
	p := newChart(fmt.Sprintf("bufferlab bench scan (%s): a cold scan of %d blocks", measuredOn(r), scan.ScanBlocks),
		"latency of one read call (simulated us)", "simulated I/O time of the scan (us)", true, true)
	var ss []series
	for _, row := range r.Rows {
		s := series{label: fmt.Sprintf("%s (%.0f read calls)", row.Name, row.PerOp["read_calls"])}
		for _, lat := range scan.Latencies {
			if us := row.PerOp[fmt.Sprintf("io_us_at_%dus", lat)]; us > 0 {
				s.xy = append(s.xy, plotter.XY{X: float64(lat), Y: us})
			}
		}
		ss = append(ss, s)
	}
	if len(ss) == 0 {
		return fmt.Errorf("scan report has no rows")
	}
	ymax, err := lines(p, ss)
	if err != nil {
		return err
	}
	p.Y.Max = ymax * 3
	return save(p, file)
}
