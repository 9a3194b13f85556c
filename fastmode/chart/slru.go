package chart

import (
	"fmt"
	"sort"

	"gonum.org/v1/plot/plotter"

	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/exp/slru"
)

func init() { Register("slru", plotSlru) }

// plotSlru draws the slru experiment: time per read-only lookup against
// the bank size (slots per bank, logarithmic), the linear search of PG 17
// against the thread's hash table (and a Go map), with the crossover the
// run found.
func plotSlru(r *exp.Report, file string) error {
	p := newChart(fmt.Sprintf("bufferlab bench slru (%s): crossover at %.0f slots", measuredOn(r), r.Summary["crossover_slots"]),
		"slots per bank", "time per lookup (ns)", true, false)
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
	var xs []int
	for x := range ticks {
		xs = append(xs, x)
	}
	sort.Ints(xs)
	p.X.Tick.Marker = intTicks(xs)
	p.X.Min, p.X.Max = float64(xs[0])/1.3, float64(xs[len(xs)-1])*1.3
	p.Y.Min, p.Y.Max = 0, ymax*1.3
	return save(p, file)
}
