package chart

import (
	"bufferlab/fastmode/exp"

	"fmt"
	"path/filepath"
	"strings"

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

// Func draws a report to file (PNG or SVG, by its extension).
type Func func(r *exp.Report, file string) error

// charts maps an experiment's name to its chart.
var charts = map[string]Func{}

// Register makes f the chart of experiment name. Each experiment's chart
// file registers itself in its init, under the name its package registers
// with exp. A second chart for the same name is a bug and panics.
func Register(name string, f Func) {
	if _, dup := charts[name]; dup {
		panic("chart: experiment " + name + " has two charts")
	}
	charts[name] = f
}

// Lookup returns the chart registered for experiment name.
func Lookup(name string) (Func, bool) { f, ok := charts[name]; return f, ok }

// Plot draws the report with its experiment's chart (Lookup) and saves it
// as PNG or SVG, by file's extension. A report of an experiment without a
// chart of its own is drawn as plotSizes draws limits and pool.
func Plot(r *exp.Report, file string) error {
	if _, err := PlotFormat(file); err != nil {
		return err
	}
	if f, ok := charts[r.Experiment]; ok {
		return f(r, file)
	}
	return plotSizes(r, file)
}

func init() {
	Register("limits", plotSizes)
	Register("pool", plotSizes)
}

// plotSizes draws the report's times per operation against shared_buffers
// (both axes logarithmic): the chart of limits and pool. Streaming
// bandwidth is drawn as the time to stream one 64-byte descriptor; rows
// measured once (CAS, step mode) are horizontal lines.
func plotSizes(r *exp.Report, file string) error {
	p := newChart(fmt.Sprintf("bufferlab bench %s (%s)", r.Experiment, measuredOn(r)),
		"shared_buffers (MB)", "time per operation (ns)", true, true)

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
	return save(p, file)
}
