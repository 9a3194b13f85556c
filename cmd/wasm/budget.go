package main

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"bufferlab/engine/scenario"
)

// browserBudget bounds one run in the browser: 1,048,576 events, half the
// engine's default. A tab has one thread and, on a phone, well under a
// gigabyte: a run that reaches this bound takes about 170 MB of the tab's
// memory and two seconds of its thread (measured in Node's WebAssembly on
// this project's machine, the player's runs printing no event text), with
// the progress bar and Cancel of runGate. Every
// embedded lesson and scenario fits (TestBrowserBudget); the largest, the
// 128MB pool warming up, logs 576,147 events. A larger run stops with the
// budget's error, at its run statement, naming this cap.
var browserBudget = scenario.Budget{Bytes: 128 << 20, EventBytes: 128,
	Source: "a browser tab's cap; `bufferlab run` takes larger runs"}

// errCancelled is what a run the student cancelled stops with.
var errCancelled = errors.New("cancelled")

// runGate is how the tab runs a scenario or lesson from text (the sandbox,
// a dropped file, a link) without freezing: one run at a time; every
// slice of work (scenario's Yield, every 4096 steps, looks at the clock)
// the run shows its progress and gives the page its turn (input, paint,
// the Cancel button), and a Cancel stops it at its next Yield. A run
// costs its pauses and nothing else: about a frame every slice.
type runGate struct {
	running atomic.Bool
	cancel  atomic.Bool
	last    time.Time
	// slice is the work between two turns of the page.
	slice time.Duration
	now   func() time.Time
	// pause shows the progress (events so far) and hands the thread to
	// the page until it is the run's turn again.
	pause func(events int)
}

// begin claims the gate for a run; it fails while another one runs.
func (g *runGate) begin() error {
	if !g.running.CompareAndSwap(false, true) {
		return errors.New("a scenario is still running: wait for it, or Cancel it (Escape)")
	}
	g.cancel.Store(false)
	g.last = g.now()
	return nil
}

// end releases the gate after a run.
func (g *runGate) end() { g.running.Store(false) }

// yield is the run's scenario.Script Yield.
func (g *runGate) yield(events int) error {
	if g.cancel.Load() {
		return errCancelled
	}
	if now := g.now(); now.Sub(g.last) >= g.slice {
		g.pause(events)
		g.last = g.now()
	}
	if g.cancel.Load() {
		return errCancelled
	}
	return nil
}

// stop asks the run going on to stop; false when none runs.
func (g *runGate) stop() bool {
	if !g.running.Load() {
		return false
	}
	g.cancel.Store(true)
	return true
}

// progressText is what the page shows during a run.
func progressText(events int, budget scenario.Budget) string {
	return fmt.Sprintf("Running: %s events so far (the browser allows %s).", thousands(events), thousands(budget.MaxEvents()))
}

// thousands writes n with commas: 1,048,576.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
