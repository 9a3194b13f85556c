package harness

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"golang.org/x/exp/stats"

	"bufferlab/fastmode/timer"
)

// Config says how to measure.
type Config struct {
	Clock    *timer.Clock  // nil: timer.Best()
	Warmup   time.Duration // time spent running the function before sampling
	Samples  int           // number of samples
	SampleNs float64       // the least length of one sample, in ns (raised to 1000 timer resolutions and reads)
}

// Default and Quick configurations.
var (
	Default = Config{Warmup: 50 * time.Millisecond, Samples: 21, SampleNs: 5e6}
	Quick   = Config{Warmup: 5 * time.Millisecond, Samples: 7, SampleNs: 1e6}
)

// Summary is the distribution of the per-operation time of the samples.
type Summary struct {
	Median  float64 `json:"median"`
	P10     float64 `json:"p10"`
	P90     float64 `json:"p90"`
	Samples int     `json:"samples"`
	Batch   int     `json:"batch"` // operations per sample
}

// Summarise computes the median, p10 and p90 of xs with
// golang.org/x/exp/stats.Quantiles (which has quantiles at the pinned
// version: Hyndman-Fan R-7, linear interpolation).
func Summarise(xs []float64) Summary {
	if len(xs) == 0 {
		return Summary{Median: math.NaN(), P10: math.NaN(), P90: math.NaN()}
	}
	q := stats.Quantiles(xs, 0.5, 0.1, 0.9)
	return Summary{Median: q[0], P10: q[1], P90: q[2], Samples: len(xs)}
}

// MeasureErr is Measure for an f that can fail: every call is still a
// sample, and the first error f returned comes back with the Summary
// (which the caller then discards).
func MeasureErr(cfg Config, f func(n int) error) (Summary, error) {
	var first error
	s := Measure(cfg, func(n int) {
		if err := f(n); err != nil && first == nil {
			first = err
		}
	})
	return s, first
}

// Measure runs f(n), which must perform n operations, and returns the
// time per operation in nanoseconds. Each call of f is one sample; n is
// chosen by doubling until a call lasts cfg.SampleNs (and at least 1000
// resolutions and 1000 reads of the clock).
func Measure(cfg Config, f func(n int)) Summary {
	c := cfg.Clock
	if c == nil {
		c = timer.Best()
	}
	info := c.Info()
	target := max(cfg.SampleNs, 1000*info.ResolutionNs, 1000*info.ReadNs)
	samples := max(cfg.Samples, 1)
	timeIt := func(n int) float64 {
		t0 := c.Now()
		f(n)
		return c.Nanos(c.Now() - t0)
	}
	// Warm-up and batch sizing.
	n := 1
	warmEnd := time.Now().Add(cfg.Warmup)
	for {
		d := timeIt(n)
		if d >= target {
			if !time.Now().Before(warmEnd) {
				break
			}
			continue
		}
		if d <= 0 {
			n *= 16
		} else {
			n = int(math.Min(float64(n)*16, math.Ceil(float64(n)*target*1.2/d)))
		}
		if n >= 1<<40 {
			break
		}
	}
	xs := make([]float64, samples)
	for i := range xs {
		xs[i] = timeIt(n) / float64(n)
	}
	s := Summarise(xs)
	s.Batch = n
	return s
}

// Progress reports steps: as a bar on a terminal, and to a callback (the
// app's fast-mode panel draws its own bar from it).
type Progress struct {
	w      io.Writer // nil unless a terminal
	label  string
	total  int
	done   int
	start  time.Time
	drawn  bool
	onStep func(done, total int, what string)
}

// IsTerminal reports whether w is a character device.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// NewProgress returns a bar of total steps that draws on w only if w is a
// terminal, and only once the run has lasted a second. A nil *Progress is
// valid and draws nothing.
func NewProgress(w io.Writer, label string, total int) *Progress {
	return NewProgressFunc(w, label, total, nil)
}

// NewProgressFunc is NewProgress that also calls onStep (if not nil) after
// every step, with the steps done, the total and what comes next.
func NewProgressFunc(w io.Writer, label string, total int, onStep func(done, total int, what string)) *Progress {
	if w != nil && !IsTerminal(w) {
		w = nil
	}
	if w == nil && onStep == nil {
		return nil
	}
	return &Progress{w: w, label: label, total: total, start: time.Now(), onStep: onStep}
}

// Step marks one step done, naming what comes next.
func (p *Progress) Step(what string) {
	if p == nil {
		return
	}
	p.done++
	if p.onStep != nil {
		p.onStep(p.done, p.total, what)
	}
	if p.w == nil || time.Since(p.start) < time.Second {
		return
	}
	const width = 30
	k := width * p.done / max(p.total, 1)
	fmt.Fprintf(p.w, "\r%s [%s%s] %d/%d %-30.30s", p.label, strings.Repeat("#", k), strings.Repeat(".", width-k), p.done, p.total, what)
	p.drawn = true
}

// Done erases the bar.
func (p *Progress) Done() {
	if p == nil || !p.drawn {
		return
	}
	fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", 100))
}
