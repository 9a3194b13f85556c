package chart

import (
	"cmp"
	"fmt"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"bufferlab/fastmode/exp"
)

// newChart is the frame every chart starts from: a plot titled title,
// its axes labelled x and y, the legend at the top (and on the left when
// left), and a grid under whatever is added next. The X axis is
// logarithmic, as every chart's is (sizes, worker counts and latencies
// that double from one point to the next), and so is the Y axis when
// logY; a logarithmic axis gets gonum's log ticks, which a chart with
// ticks of its own replaces.
func newChart(title, x, y string, left, logY bool) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = x, y
	p.Legend.Top, p.Legend.Left = true, left
	p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	if logY {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	}
	p.Add(plotter.NewGrid())
	return p
}

// measuredOn is where a report was measured, as the charts' titles say
// it: "timer SOURCE, GOOS/GOARCH".
func measuredOn(r *exp.Report) string {
	return fmt.Sprintf("timer %s, %s/%s", r.Timer.Source, r.Machine.GOOS, r.Machine.GOARCH)
}

// save writes a one-panel chart to file at the size every such chart
// has, 8 by 5 inches (PNG or SVG, by file's extension).
func save(p *plot.Plot, file string) error { return p.Save(8*vg.Inch, 5*vg.Inch, file) }

// intTicks puts a tick labelled with its number at each of xs.
func intTicks(xs []int) plot.ConstantTicks {
	var t []plot.Tick
	for _, x := range xs {
		t = append(t, plot.Tick{Value: float64(x), Label: fmt.Sprint(x)})
	}
	return plot.ConstantTicks(t)
}

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
		l, pts, err := linePoints(s.xy, i, i, plotutil.Dashes(i))
		if err != nil {
			return 0, err
		}
		p.Add(l, pts)
		p.Legend.Add(s.label, l, pts)
		for _, pt := range s.xy {
			ymax = max(ymax, pt.Y)
		}
	}
	return ymax, nil
}

// linePoints is the line through xy, sorted by X in place, with a mark at
// each point, as every chart draws a measured series: 1.5 pt wide in
// gonum's palette colour c, dashed as dashes (nil: the default solid
// line), the marks in colour c and shape shape.
func linePoints(xy plotter.XYs, c, shape int, dashes []vg.Length) (*plotter.Line, *plotter.Scatter, error) {
	slices.SortFunc(xy, func(a, b plotter.XY) int { return cmp.Compare(a.X, b.X) })
	l, pts, err := plotter.NewLinePoints(xy)
	if err != nil {
		return nil, nil, err
	}
	l.Color, l.Width = plotutil.Color(c), vg.Points(1.5)
	if dashes != nil {
		l.Dashes = dashes
	}
	pts.Color, pts.Shape = plotutil.Color(c), plotutil.Shape(shape)
	return l, pts, nil
}
