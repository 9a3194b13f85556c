package chart

import (
	"fmt"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"bufferlab/fastmode/exp"
)

// series is one line of a chart.
type series struct {
	label string
	xy    plotter.XYs
}

// lines draws each series as a line with points, in the report order.
func lines(p *plot.Plot, ss []series) (ymax float64, err error) {
	for i, s := range ss {
		if len(s.xy) == 0 {
			continue
		}
		sort.Slice(s.xy, func(a, b int) bool { return s.xy[a].X < s.xy[b].X })
		l, pts, err := plotter.NewLinePoints(s.xy)
		if err != nil {
			return 0, err
		}
		l.Color, l.Dashes, l.Width = plotutil.Color(i), plotutil.Dashes(i), vg.Points(1.5)
		pts.Color, pts.Shape = plotutil.Color(i), plotutil.Shape(i)
		p.Add(l, pts)
		p.Legend.Add(s.label, l, pts)
		for _, pt := range s.xy {
			ymax = max(ymax, pt.Y)
		}
	}
	return ymax, nil
}

// plotSlru draws the slru experiment: time per read-only lookup against
// the bank size (slots per bank, logarithmic), the linear search of PG 17
// against the thread's hash table (and a Go map), with the crossover the
// run found.
func plotSlru(r *exp.Report, file string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("bufferlab bench slru (timer %s, %s/%s): crossover at %.0f slots", r.Timer.Source, r.Machine.GOOS, r.Machine.GOARCH, r.Summary["crossover_slots"])
	p.X.Label.Text = "slots per bank"
	p.Y.Label.Text = "time per lookup (ns)"
	p.X.Scale = plot.LogScale{}
	p.Legend.Top, p.Legend.Left = true, true
	p.Add(plotter.NewGrid())
	var ss []series
	ticks := map[int]bool{}
	for _, name := range []string{exp.SlruLinear, exp.SlruHash, exp.SlruGoMap} {
		slots, ns := exp.SlruPoints(r, name)
		s := series{label: map[string]string{exp.SlruLinear: "linear search of the bank (PG 17)",
			exp.SlruHash: "hash table (the thread's patch)", exp.SlruGoMap: "Go map"}[name]}
		for i := range slots {
			s.xy = append(s.xy, plotter.XY{X: float64(slots[i]), Y: ns[i]})
			ticks[slots[i]] = true
		}
		ss = append(ss, s)
	}
	if len(ticks) == 0 {
		return fmt.Errorf("slru report has no rows with a bank size")
	}
	ymax, err := lines(p, ss)
	if err != nil {
		return err
	}
	var tk []plot.Tick
	var xs []int
	for x := range ticks {
		xs = append(xs, x)
	}
	sort.Ints(xs)
	for _, x := range xs {
		tk = append(tk, plot.Tick{Value: float64(x), Label: fmt.Sprint(x)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(tk)
	p.X.Min, p.X.Max = float64(xs[0])/1.3, float64(xs[len(xs)-1])*1.3
	p.Y.Min, p.Y.Max = 0, ymax*1.3
	return p.Save(8*vg.Inch, 5*vg.Inch, file)
}

// plotFSM draws the fsm experiment's search cost: one search for free
// space through the three-level FSM against a linear scan of the leaf
// level, by heap size (both axes logarithmic).
func plotFSM(r *exp.Report, file string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("bufferlab bench fsm (timer %s, %s/%s): finding a page with free space", r.Timer.Source, r.Machine.GOOS, r.Machine.GOARCH)
	p.X.Label.Text = "heap size (blocks)"
	p.Y.Label.Text = "time per search (ns)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Legend.Top, p.Legend.Left = true, true
	p.Add(plotter.NewGrid())
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
	return p.Save(8*vg.Inch, 5*vg.Inch, file)
}
