package chart

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"os"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/exp/drop"
)

func init() { Register("drop", plotDrop) }

// dropStrategies are the drop experiment's strategies, in the order of
// their colours and dashes.
var dropStrategies = []string{"scan", "lookup", "dlist"}

// plotDrop draws the drop experiment in two panels. Left, seed 000's
// table: the time to drop every one-block relation against their total
// size as a fraction of NBuffers (1/k), both axes logarithmic, one line per
// strategy (colour and dashes) and shared_buffers (glyph); cells that were
// sampled and extrapolated are ringed; the scan is over PostgreSQL's
// 64-byte descriptors, and its legend says so. Right, the threshold
// finder: scan time / lookup time for one relation of NBuffers/k blocks,
// one solid line per shared_buffers for the scan over PostgreSQL's 64-byte
// layout and a thin dotted one for the what-if over the engine's compact
// 36-byte descriptors (when the report has it), with the break-even line,
// PostgreSQL's NBuffers/32 and the crossovers found.
func plotDrop(r *exp.Report, file string) error {
	format, err := PlotFormat(file)
	if err != nil {
		return err
	}
	cells := drop.DropCells(r, false)
	if len(cells) == 0 {
		return fmt.Errorf("drop report has no cells to plot")
	}
	left, err := dropCellsPlot(r, cells)
	if err != nil {
		return err
	}
	right, err := dropSweepPlot(r)
	if err != nil {
		return err
	}
	const w, h = 14 * vg.Inch, 6 * vg.Inch
	c, err := draw.NewFormattedCanvas(w, h, format)
	if err != nil {
		return err
	}
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Points(24), PadTop: vg.Points(6), PadBottom: vg.Points(6), PadLeft: vg.Points(6), PadRight: vg.Points(6)}
	cs := plot.Align([][]*plot.Plot{{left, right}}, tiles, draw.New(c))
	left.Draw(cs[0][0])
	right.Draw(cs[0][1])
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if _, err := c.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// dropSizes lists the sizes of the cells, in report order.
func dropSizes(cells []drop.DropCellRow) []string {
	var out []string
	for _, c := range cells {
		if !slices.Contains(out, c.SharedBuffers) {
			out = append(out, c.SharedBuffers)
		}
	}
	return out
}

// kTicks labels 1/k as NBuffers/k.
func kTicks(ks []int) plot.ConstantTicks {
	var t []plot.Tick
	for _, k := range ks {
		t = append(t, plot.Tick{Value: 1 / float64(k), Label: fmt.Sprintf("N/%d", k)})
	}
	return plot.ConstantTicks(t)
}

func dropCellsPlot(r *exp.Report, cells []drop.DropCellRow) (*plot.Plot, error) {
	p := newChart(fmt.Sprintf("recovery after VACUUM: drop NBuffers/k one-block relations (%s)", measuredOn(r)),
		"relations' total size (NBuffers/k blocks)", "time to drop them all (s)", true, true)
	p.X.Tick.Marker = kTicks(drop.DropKs)
	var ring plotter.XYs
	ymin, ymax := 0.0, 0.0
	for si, size := range dropSizes(cells) {
		for sj, st := range dropStrategies {
			var xy plotter.XYs
			for _, c := range cells {
				if c.SharedBuffers != size || c.Strategy != st || !(c.Seconds > 0) || c.K <= 0 {
					continue
				}
				pt := plotter.XY{X: 1 / float64(c.K), Y: c.Seconds}
				xy = append(xy, pt)
				if c.Extrapolated {
					ring = append(ring, pt)
				}
				if ymin == 0 || pt.Y < ymin {
					ymin = pt.Y
				}
				ymax = max(ymax, pt.Y)
			}
			if len(xy) == 0 {
				continue
			}
			l, pts, err := linePoints(xy, sj, si, plotutil.Dashes(sj))
			if err != nil {
				return nil, err
			}
			p.Add(l, pts)
			label := st
			if st == "scan" {
				label = fmt.Sprintf("scan (%d B descriptors)", drop.BufferDescPadToSize)
			}
			p.Legend.Add(fmt.Sprintf("%s, %s", label, size), l, pts)
		}
	}
	if err := marks(p, ring, draw.RingGlyph{}, vg.Points(7), color.Black, "extrapolated from a sample of the drops"); err != nil {
		return nil, err
	}
	if ymax <= 0 {
		return nil, fmt.Errorf("drop report has no positive times to plot")
	}
	p.X.Min, p.X.Max = 1/float64(drop.DropKs[0])/1.4, 1/float64(drop.DropKs[len(drop.DropKs)-1])*1.4
	p.Y.Min, p.Y.Max = ymin/3, ymax*1e3 // headroom above for the legend
	return p, nil
}

func dropSweepPlot(r *exp.Report) (*plot.Plot, error) {
	p := newChart("threshold finder: one relation of NBuffers/k blocks", "relation size (NBuffers/k blocks)", "scan time / lookup time (> 1: the lookup wins)", false, true)
	pts := drop.DropSweepRows(r)
	var sizes []string
	ks := []int{drop.PGDropThresholdK}
	xmin, xmax, ymin, ymax := 1.0, 0.0, 1.0, 1.0
	for _, pt := range pts {
		if !slices.Contains(sizes, pt.SharedBuffers) {
			sizes = append(sizes, pt.SharedBuffers)
		}
	}
	var cross, crossCompact plotter.XYs
	for si, size := range sizes {
		var xy, xyc plotter.XYs
		for _, pt := range pts {
			if pt.SharedBuffers != size || !(pt.Ratio > 0) || pt.K <= 0 {
				continue
			}
			x := 1 / float64(pt.K)
			xy = append(xy, plotter.XY{X: x, Y: pt.Ratio})
			xmin, xmax = min(xmin, x), max(xmax, x)
			ymin, ymax = min(ymin, pt.Ratio), max(ymax, pt.Ratio)
			if pt.RatioCompact > 0 {
				xyc = append(xyc, plotter.XY{X: x, Y: pt.RatioCompact})
				ymin, ymax = min(ymin, pt.RatioCompact), max(ymax, pt.RatioCompact)
			}
			if slices.Contains(drop.DropSweepKs, pt.K) && !slices.Contains(ks, pt.K) {
				ks = append(ks, pt.K)
			}
		}
		if len(xy) == 0 {
			continue
		}
		l, lp, err := linePoints(xy, si, si, nil)
		if err != nil {
			return nil, err
		}
		p.Add(l, lp)
		p.Legend.Add(fmt.Sprintf("%s, %d B descriptors (PostgreSQL's layout)", size, drop.BufferDescPadToSize), l, lp)
		if len(xyc) > 0 {
			slices.SortFunc(xyc, func(a, b plotter.XY) int { return cmp.Compare(a.X, b.X) })
			lc, err := plotter.NewLine(xyc)
			if err != nil {
				return nil, err
			}
			lc.Color, lc.Width, lc.Dashes = plotutil.Color(si), vg.Points(1), []vg.Length{vg.Points(1), vg.Points(3)}
			p.Add(lc)
			p.Legend.Add(fmt.Sprintf("%s, what-if: compact %d B descriptors", size, drop.DescSize), lc)
		}
		if k := r.Summary["crossover_k_"+size]; k > 0 && r.Summary["crossover_bound_"+size] == 0 {
			cross = append(cross, plotter.XY{X: 1 / k, Y: 1})
		}
		if k := r.Summary["crossover_k_compact_"+size]; k > 0 && r.Summary["crossover_bound_compact_"+size] == 0 {
			crossCompact = append(crossCompact, plotter.XY{X: 1 / k, Y: 1})
		}
	}
	if len(sizes) == 0 {
		// No finder points (an old report): the panel says so.
		p.Title.Text += " (not measured)"
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 1.0/512, 0.5, 0.1, 10
		// Without a measured range there are no ratio ticks: gonum's
		// default ones, as plot.New gives.
		p.X.Tick.Marker, p.Y.Tick.Marker = kTicks(drop.DropSweepKs), plot.DefaultTicks{}
		return p, nil
	}
	slices.Sort(ks)
	slices.Reverse(ks)
	p.X.Tick.Marker = kTicks(ks)
	xmin, xmax = min(xmin, 1.0/drop.PGDropThresholdK), max(xmax, 1.0/drop.PGDropThresholdK)
	p.X.Min, p.X.Max = xmin/1.4, xmax*1.4
	p.Y.Min, p.Y.Max = ymin/1.5, ymax*4
	p.Y.Tick.Marker = ratioTicks(p.Y.Min, p.Y.Max)
	one, err := plotter.NewLine(plotter.XYs{{X: p.X.Min, Y: 1}, {X: p.X.Max, Y: 1}})
	if err != nil {
		return nil, err
	}
	one.Color, one.Width = color.Gray{Y: 90}, vg.Points(1)
	p.Add(one)
	pg, err := plotter.NewLine(plotter.XYs{{X: 1.0 / drop.PGDropThresholdK, Y: p.Y.Min}, {X: 1.0 / drop.PGDropThresholdK, Y: p.Y.Max}})
	if err != nil {
		return nil, err
	}
	pg.Color, pg.Width, pg.Dashes = color.Gray{Y: 60}, vg.Points(1.5), []vg.Length{vg.Points(2), vg.Points(3)}
	p.Add(pg)
	p.Legend.Add(fmt.Sprintf("PostgreSQL: lookup below NBuffers/%d", drop.PGDropThresholdK), pg)
	if err := marks(p, cross, draw.RingGlyph{}, vg.Points(6), color.Black, fmt.Sprintf("crossover found (%d B)", drop.BufferDescPadToSize)); err != nil {
		return nil, err
	}
	if err := marks(p, crossCompact, draw.CrossGlyph{}, vg.Points(5), color.Gray{Y: 80}, fmt.Sprintf("what-if crossover (compact %d B)", drop.DescSize)); err != nil {
		return nil, err
	}
	return p, nil
}

// marks adds the points xy, when there are any, as unconnected marks (a
// glyph of radius r in colour c) with the legend entry label.
func marks(p *plot.Plot, xy plotter.XYs, glyph draw.GlyphDrawer, r vg.Length, c color.Color, label string) error {
	if len(xy) == 0 {
		return nil
	}
	sc, err := plotter.NewScatter(xy)
	if err != nil {
		return err
	}
	sc.Shape, sc.Radius, sc.Color = glyph, r, c
	p.Add(sc)
	p.Legend.Add(label, sc)
	return nil
}

// ratioTicks labels a logarithmic ratio axis between lo and hi at 1, 2, 3,
// 5 and 7 times the powers of ten (LogTicks labels only the powers, which
// leaves a ratio between 0.5 and 3 with the single label 1).
func ratioTicks(lo, hi float64) plot.ConstantTicks {
	var t []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 1.5, 2, 3, 5, 7} {
			v := m * math.Pow(10, e)
			if v >= lo && v <= hi {
				t = append(t, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 3, 64)})
			}
		}
	}
	return plot.ConstantTicks(t)
}
