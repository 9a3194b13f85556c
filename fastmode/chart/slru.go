package chart

import (
	"fmt"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/exp/slru"
)

func init() { Register("slru", plotSlru) }

// plotSlru draws the slru experiment: time per read-only lookup against
// the bank size (slots per bank, logarithmic), the linear search of PG 17
// against the thread's hash table (and a Go map), with the crossover the
// run found.
func plotSlru(r *exp.Report, file string) error {
	p := newChart(fmt.Sprintf("bufferlab bench slru (timer %s, %s/%s): crossover at %.0f slots", r.Timer.Source, r.Machine.GOOS, r.Machine.GOARCH, r.Summary["crossover_slots"]),
		"slots per bank", "time per lookup (ns)", true)
	p.X.Scale = plot.LogScale{}
	var ss []series
	ticks := map[int]bool{}
	for _, name := range []string{slru.SlruLinear, slru.SlruHash, slru.SlruGoMap} {
		slots, ns := slru.SlruPoints(r, name)
		s := series{label: map[string]string{slru.SlruLinear: "linear search of the bank (PG 17)",
			slru.SlruHash: "hash table (the thread's patch)", slru.SlruGoMap: "Go map"}[name]}
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
