package app

import (
	"fmt"
	"math"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/fastmode/exp"
	_ "bufferlab/fastmode/exp/all" // registers every experiment
	"bufferlab/viz/layout"
	"bufferlab/viz/render"
)

// fastState is the fast-mode panel: an experiment run natively (or, in the
// browser, as WebAssembly) in the background, its progress, then its
// table and chart.
type fastState struct {
	name        string
	running     bool
	done, total int
	what        string
	rep         *exp.Report
	err         error
	started     time.Time
	elapsed     time.Duration
}

// FastState is what the JS API reports of the fast-mode panel.
type FastState struct {
	Experiment string             `json:"experiment"`
	Running    bool               `json:"running"`
	Done       int                `json:"done"`
	Total      int                `json:"total"`
	Timer      string             `json:"timer,omitempty"`
	Summary    map[string]float64 `json:"summary,omitempty"`
	Error      string             `json:"error,omitempty"`
}

// StartFast runs experiment name with the quick settings and shows the
// fast-mode panel. A run already going on is not interrupted.
func (a *App) StartFast(name string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.startFast(name)
}

func (a *App) startFast(name string) error {
	e, ok := exp.Lookup(name)
	if !ok {
		return fmt.Errorf("no experiment %q (experiments: %s)", name, strings.Join(exp.Names(), ", "))
	}
	if a.fast != nil && a.fast.running {
		return fmt.Errorf("experiment %s is still running", a.fast.name)
	}
	fs := &fastState{name: name, running: true, started: time.Now()}
	a.fast, a.p, a.help = fs, nil, false
	go func() {
		rep, err := e.Run(exp.Options{Quick: true, OnStep: func(done, total int, what string) {
			a.mu.Lock()
			fs.done, fs.total, fs.what = done, total, what
			a.mu.Unlock()
			pauseForFrame()
		}})
		a.mu.Lock()
		fs.rep, fs.err, fs.running, fs.elapsed = rep, err, false, time.Since(fs.started)
		a.mu.Unlock()
	}()
	return nil
}

// pauseForFrame lets the browser draw a frame between two measured points:
// WebAssembly runs Go on the page's only thread, so a measurement that
// never sleeps would freeze the page. Natively it does nothing.
func pauseForFrame() {
	if runtime.GOOS == "js" {
		time.Sleep(20 * time.Millisecond)
	}
}

func (a *App) fastState() *FastState {
	fs := a.fast
	if fs == nil {
		return nil
	}
	out := &FastState{Experiment: fs.name, Running: fs.running, Done: fs.done, Total: fs.total}
	if fs.rep != nil {
		out.Summary = fs.rep.Summary
		out.Timer = fs.rep.Timer.Source
	}
	if fs.err != nil {
		out.Error = fs.err.Error()
	}
	return out
}

func (a *App) drawFast(dst *ebiten.Image) {
	th := a.th
	fs := a.fast
	r := render.Rect{X: 0, Y: 0, W: float64(a.w), H: float64(a.h)}.Inset(16 * th.Scale)
	title := th.Face(layout.Bold, 20)
	body := th.Face(layout.Regular, 13)
	mono := th.Face(layout.Mono, 12)
	lh := render.LineHeight(body)
	render.Text(dst, "Fast mode: bench "+fs.name+" --quick", title, r.X, r.Y, th.Text, render.Left)
	back := render.Button{Rect: render.Rect{X: r.X + r.W - 90*th.Scale, Y: r.Y, W: 90 * th.Scale, H: render.LineHeight(title)}, Label: "Menu", Enabled: !fs.running}
	back.Draw(dst, th, a.ui.hover(back.Rect))
	if !fs.running {
		a.ui.add(back.Rect, func() { a.fast = nil })
	}
	y := r.Y + render.LineHeight(title) + 6
	intro := "The same engine, with no trace and no scheduler, timed against the hardware clock: a read hit and a miss that runs the clock sweep, beside the machine's own limits (a dependent load, streaming the descriptor array)."
	for _, l := range render.Wrap(intro, body, r.W) {
		render.Text(dst, l, body, r.X, y, th.Text, render.Left)
		y += lh
	}
	if runtime.GOOS == "js" {
		warn := "In the browser: the timer is performance.now(), which is coarse (microseconds or worse), so each sample batches many operations; and these are WebAssembly's figures, not native ones (run `bufferlab bench pool` for those)."
		for _, l := range render.Wrap(warn, body, r.W) {
			render.Text(dst, l, body, r.X, y, th.Error, render.Left)
			y += lh
		}
	}
	y += lh / 2
	if fs.running {
		bar := render.Rect{X: r.X, Y: y, W: min(r.W, 600*th.Scale), H: lh}
		render.Fill(dst, bar, th.Free)
		if fs.total > 0 {
			render.Fill(dst, render.Rect{X: bar.X, Y: bar.Y, W: bar.W * float64(fs.done) / float64(fs.total), H: bar.H}, th.Accent)
		}
		render.Stroke(dst, bar, 1, th.PanelEdge)
		render.Text(dst, fmt.Sprintf("measuring… %d of %d points   %s", fs.done, fs.total, fs.what), body, r.X, y+lh+4, th.Text, render.Left)
		return
	}
	if fs.err != nil {
		render.Text(dst, "The experiment failed: "+fs.err.Error(), body, r.X, y, th.Error, render.Left)
		return
	}
	rep := fs.rep
	render.Text(dst, fmt.Sprintf("timer: %v   machine: %s/%s, %d CPUs   (%.1f s)", rep.Timer, rep.Machine.GOOS, rep.Machine.GOARCH, rep.Machine.CPUs, fs.elapsed.Seconds()), body, r.X, y, th.Muted, render.Left)
	y += lh * 1.5
	// The table: one line per measured point.
	render.Text(dst, fmt.Sprintf("%-12s %-14s %12s %24s", "measured", "shared_buffers", "median", "p10 – p90"), mono, r.X, y, th.Text, render.Left)
	y += render.LineHeight(mono)
	for _, row := range rep.Rows {
		sb := row.SharedBuffers
		if sb == "" {
			sb = "-"
		}
		render.Text(dst, fmt.Sprintf("%-12s %-14s %8.3g %-7s %9.3g – %-9.3g", row.Name, sb, row.Median, row.Unit, row.P10, row.P90), mono, r.X, y, th.Text, render.Left)
		y += render.LineHeight(mono)
	}
	y += lh / 2
	var keys []string
	for k := range rep.Summary {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %.3g", k, rep.Summary[k]))
	}
	render.Text(dst, "summary: "+strings.Join(parts, "   "), body, r.X, y, th.Text, render.Left)
	y += lh * 1.5
	a.drawFastChart(dst, render.Rect{X: r.X, Y: y, W: r.W, H: r.Y + r.H - y}, rep)
}

// drawFastChart draws the time-per-operation rows as horizontal bars on a
// log scale, labelled with their values (the chart reads without colour).
func (a *App) drawFastChart(dst *ebiten.Image, r render.Rect, rep *exp.Report) {
	th := a.th
	face := th.Face(layout.Regular, 12)
	lh := render.LineHeight(face)
	type bar struct {
		label string
		v     float64
		unit  string
	}
	var bars []bar
	for _, row := range rep.Rows {
		if !strings.HasPrefix(row.Unit, "ns") || !(row.Median > 0) {
			continue
		}
		l := row.Name
		if row.SharedBuffers != "" {
			l += " @ " + row.SharedBuffers
		}
		bars = append(bars, bar{l, row.Median, row.Unit})
	}
	if len(bars) == 0 || r.H < lh*2 {
		return
	}
	lo, hi := math.Inf(1), 0.0
	for _, b := range bars {
		lo, hi = min(lo, b.v), max(hi, b.v)
	}
	lo = math.Pow(10, math.Floor(math.Log10(lo)))
	hi = math.Pow(10, math.Ceil(math.Log10(hi)))
	if hi <= lo {
		hi = lo * 10
	}
	labelW := 0.0
	for _, b := range bars {
		labelW = max(labelW, render.TextWidth(b.label, face))
	}
	rowH := min(lh*1.4, r.H/float64(len(bars)+1))
	plot := render.Rect{X: r.X + labelW + 12, Y: r.Y, W: r.W - labelW - 12 - 120, H: rowH * float64(len(bars))}
	scale := func(v float64) float64 { return plot.W * math.Log10(v/lo) / math.Log10(hi/lo) }
	// Decade grid lines, labelled.
	for d := lo; d <= hi*1.001; d *= 10 {
		x := plot.X + scale(d)
		render.Line(dst, x, plot.Y, x, plot.Y+plot.H, 1, th.PanelEdge)
		render.Text(dst, fmt.Sprintf("%g ns", d), face, x, plot.Y+plot.H+2, th.Muted, render.Center)
	}
	for i, b := range bars {
		y := plot.Y + float64(i)*rowH
		render.Text(dst, b.label, face, plot.X-8, y+(rowH-lh)/2, th.Text, render.Right)
		w := max(2, scale(b.v))
		render.Fill(dst, render.Rect{X: plot.X, Y: y + rowH*0.15, W: w, H: rowH * 0.7}, th.Accent)
		render.Text(dst, fmt.Sprintf("%.3g %s", b.v, b.unit), face, plot.X+w+6, y+(rowH-lh)/2, th.Text, render.Left)
	}
}
