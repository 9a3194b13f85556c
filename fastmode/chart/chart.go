package chart

import (
	"bufferlab/fastmode/exp"

	"fmt"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// PlotFormat returns the image format for a file name (png or svg) or an
// error.
func PlotFormat(file string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(file)); ext {
	case ".png", ".svg":
		return ext[1:], nil
	default:
		return "", fmt.Errorf("unsupported image format %q (want .png or .svg)", ext)
	}
}

// Plot draws the report's times per operation against shared_buffers
// (both axes logarithmic) and saves it as PNG or SVG, by file's extension.
// Streaming bandwidth is drawn as the time to stream one 64-byte
// descriptor; rows measured once (CAS, step mode) are horizontal lines.
func Plot(r *exp.Report, file string) error {
	if _, err := PlotFormat(file); err != nil {
		return err
	}
	switch r.Experiment {
	case "pin":
		return plotPin(r, file)
	case "slru":
		return plotSlru(r, file)
	case "fsm":
		return plotFSM(r, file)
	case "drop":
		return plotDrop(r, file)
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("bufferlab bench %s (timer %s, %s/%s)", r.Experiment, r.Timer.Source, r.Machine.GOOS, r.Machine.GOARCH)
	p.X.Label.Text = "shared_buffers (MB)"
	p.Y.Label.Text = "time per operation (ns)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())

	szs := exp.Sizes(r)
	mb := func(row exp.Row) float64 { return float64(row.NBuffers) * 8 / 1024 }
	xmin, xmax := mb(szs[0]), mb(szs[0])
	for _, s := range szs {
		xmin, xmax = min(xmin, mb(s)), max(xmax, mb(s))
	}
	if xmin == xmax {
		xmin, xmax = xmin/2, xmax*2
	}
	var names []string
	series := map[string]plotter.XYs{}
	label := map[string]string{}
	for _, row := range r.Rows {
		y := row.Median
		lbl := fmt.Sprintf("%s (%s)", row.Name, row.Unit)
		if row.Name == "stream" {
			y = exp.DescBytes / row.Median // GB/s = bytes/ns
			lbl = "stream (ns per 64 B descriptor)"
		}
		if !(y > 0) {
			continue
		}
		if _, ok := series[row.Name]; !ok {
			names = append(names, row.Name)
			label[row.Name] = lbl
		}
		if row.SharedBuffers == "" {
			series[row.Name] = plotter.XYs{{X: xmin, Y: y}, {X: xmax, Y: y}}
			label[row.Name] = lbl + ", size-independent"
			continue
		}
		series[row.Name] = append(series[row.Name], plotter.XY{X: mb(row), Y: y})
	}
	for i, n := range names {
		l, pts, err := plotter.NewLinePoints(series[n])
		if err != nil {
			return err
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i)
		l.Width = vg.Points(1.5)
		pts.Color = plotutil.Color(i)
		pts.Shape = plotutil.Shape(i)
		p.Add(l, pts)
		p.Legend.Add(label[n], l, pts)
	}
	p.X.Min, p.X.Max = xmin/1.5, xmax*1.5
	// Headroom above the highest line for the legend.
	ymax := 0.0
	for _, xy := range series {
		for _, pt := range xy {
			ymax = max(ymax, pt.Y)
		}
	}
	if ymax > 0 {
		p.Y.Max = ymax * 30
	}
	return p.Save(8*vg.Inch, 5*vg.Inch, file)
}

// plotPin draws the pin experiment: throughput (million pin/unpin
// operations per second) against worker count, one line per variant, the
// worker axis logarithmic with a tick at each measured count.
func plotPin(r *exp.Report, file string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("bufferlab bench pin (timer %s, %s/%s, %d CPUs)", r.Timer.Source, r.Machine.GOOS, r.Machine.GOARCH, r.Machine.CPUs)
	p.X.Label.Text = "workers (goroutines)"
	p.Y.Label.Text = "throughput (M pin+unpin per second)"
	p.X.Scale = plot.LogScale{}
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())
	ws := exp.PinWorkers(r)
	if len(ws) == 0 {
		return fmt.Errorf("pin report has no rows")
	}
	var ticks []plot.Tick
	for _, w := range ws {
		ticks = append(ticks, plot.Tick{Value: float64(w), Label: fmt.Sprint(w)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	ymax := 0.0
	for i, v := range exp.PinVariants {
		var xy plotter.XYs
		for _, row := range r.Rows {
			if row.Name == v.String() && row.Workers > 0 && row.Median > 0 {
				xy = append(xy, plotter.XY{X: float64(row.Workers), Y: row.Median / 1e6})
				ymax = max(ymax, row.Median/1e6)
			}
		}
		if len(xy) == 0 {
			continue
		}
		l, pts, err := plotter.NewLinePoints(xy)
		if err != nil {
			return err
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i)
		l.Width = vg.Points(1.5)
		pts.Color = plotutil.Color(i)
		pts.Shape = plotutil.Shape(i)
		p.Add(l, pts)
		lbl := "atomic state word (9.6+)"
		if v == exp.PinSpinlock {
			lbl = "header spinlock (pre-9.6)"
		}
		p.Legend.Add(lbl, l, pts)
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
	return p.Save(8*vg.Inch, 5*vg.Inch, file)
}
