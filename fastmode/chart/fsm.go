package chart

import (
	"fmt"

	"gonum.org/v1/plot/plotter"

	"bufferlab/fastmode/exp"
)

func init() { Register("fsm", plotFSM) }

// plotFSM draws the fsm experiment's search cost: one search for free
// space through the three-level FSM against a linear scan of the leaf
// level, by heap size (both axes logarithmic).
func plotFSM(r *exp.Report, file string) error {
	p := newChart(fmt.Sprintf("bufferlab bench fsm (%s): finding a page with free space", measuredOn(r)),
		"heap size (blocks)", "time per search (ns)", true, true)
	search := series{label: "fsm_search_avail through the tree of FSM pages"}
	scan := series{label: "linear scan of the leaf level"}
	for _, row := range r.Rows {
		n := row.PerOp["heap_blocks"]
		if !(n > 0 && row.Median > 0) {
			continue
		}
		switch {
		case len(row.Name) >= 10 && row.Name[:10] == "fsm_search":
			search.xy = append(search.xy, plotter.XY{X: n, Y: row.Median})
		case len(row.Name) >= 9 && row.Name[:9] == "leaf_scan":
			scan.xy = append(scan.xy, plotter.XY{X: n, Y: row.Median})
		}
	}
	if len(search.xy)+len(scan.xy) == 0 {
		return fmt.Errorf("fsm report has no search rows")
	}
	ymax, err := lines(p, []series{search, scan})
	if err != nil {
		return err
	}
	p.Y.Max = ymax * 30
	return save(p, file)
}
