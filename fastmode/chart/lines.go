package chart

import (
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
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
