package chart

import (
	"fmt"

	"gonum.org/v1/plot/plotter"

	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/exp/pin"
)

func init() { Register("pin", plotPin) }

// plotPin draws the pin experiment: throughput (million pin/unpin
// operations per second) against worker count, one line per variant, the
// worker axis logarithmic with a tick at each measured count.
func plotPin(r *exp.Report, file string) error {
	p := newChart(fmt.Sprintf("bufferlab bench pin (%s, %d CPUs)", measuredOn(r), r.Machine.CPUs),
		"workers (goroutines)", "throughput (M pin+unpin per second)", true, false)
	ws := pin.PinWorkers(r)
	if len(ws) == 0 {
		return fmt.Errorf("pin report has no rows")
	}
	p.X.Tick.Marker = intTicks(ws)
	var ss []series
	for _, v := range pin.PinVariants {
		s := series{label: "atomic state word (9.6+)"}
		if v == pin.PinSpinlock {
			s.label = "header spinlock (pre-9.6)"
		}
		for _, row := range r.Rows {
			if row.Name == v.String() && row.Workers > 0 && row.Median > 0 {
				s.xy = append(s.xy, plotter.XY{X: float64(row.Workers), Y: row.Median / 1e6})
			}
		}
		ss = append(ss, s)
	}
	ymax, err := lines(p, ss)
	if err != nil {
		return err
	}
	xmin, xmax := float64(ws[0]), float64(ws[len(ws)-1])
	if xmin == xmax {
		xmin, xmax = xmin/2, xmax*2
	}
	p.X.Min, p.X.Max = xmin/1.3, xmax*1.3
	p.Y.Min = 0
	if ymax > 0 {
		p.Y.Max = ymax * 1.3
	}
	return save(p, file)
}
