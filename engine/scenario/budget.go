package scenario

import (
	"fmt"

	"bufferlab/engine/trace"
)

// Budget bounds the memory of one traced Runner: its event log and what
// its caller makes of each event (a run's text, `run --json`'s events).
// A run that would log more events than the budget allows stops with an
// error giving the numbers, and the log never holds more (trace.Log's
// limit), so no scenario can make the process run out of memory.
//
// The engine does not look at the machine: `bufferlab run` derives Bytes
// from it and its output mode (cmd/bufferlab/budget.go) and passes it in
// with SetBudget. Everything else (tests, lessons, the browser) runs with
// DefaultBudget, the same everywhere, so results do not depend on where
// they run.
type Budget struct {
	Bytes      int64  // memory the runner's events may take
	EventBytes int64  // what one event costs: the log entry and what is made of it
	Source     string // where Bytes comes from, for the error message
}

// DefaultBudget is 256 MiB at 128 bytes per event (a 48-byte event in a
// log that grows by doubling, and its share of a run's text): 2097152
// events, more than any lesson or embedded scenario logs by far.
var DefaultBudget = Budget{Bytes: 256 << 20, EventBytes: 128, Source: "the engine's default"}

// MaxEvents is the number of events the budget allows (at least 1).
func (b Budget) MaxEvents() int {
	if b.EventBytes <= 0 || b.Bytes <= b.EventBytes {
		return 1
	}
	return int(b.Bytes / b.EventBytes)
}

// String gives the numbers: "2097152 events (256 MiB at 128 B per event,
// the engine's default)".
func (b Budget) String() string {
	return fmt.Sprintf("%d events (%s at %d B per event, %s)", b.MaxEvents(), formatBytes(b.Bytes), b.EventBytes, b.Source)
}

func formatBytes(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d kiB", n>>10)
}

// SetBudget sets the memory budget of a traced runner (before its first
// run; NewRunner starts with DefaultBudget). An untraced runner logs
// nothing and needs none.
func (r *Runner) SetBudget(b Budget) {
	r.budget = b
	if r.log != nil {
		r.log.SetLimit(b.MaxEvents())
	}
}

// Budget is the runner's memory budget.
func (r *Runner) Budget() Budget { return r.budget }

// checkMaxSteps refuses, before anything runs, a max_steps whose run
// would exceed the budget: every step of a run logs at least one event.
func (r *Runner) checkMaxSteps() error {
	if r.log == nil || r.cfg.MaxStepsPos.Line == 0 || r.cfg.MaxSteps <= r.budget.MaxEvents() {
		return nil
	}
	return r.errf(r.cfg.MaxStepsPos, "max_steps=%d: a run of that many steps logs at least as many events, more than this run's memory budget allows: %s; expected max_steps at most %d",
		r.cfg.MaxSteps, r.budget, r.budget.MaxEvents())
}

// budgetErr is the error of a run stopped by the budget.
func (r *Runner) budgetErr(st *RunStmt, steps int) error {
	return r.errf(st.Pos, "run stopped after %d steps: its event log reached this run's memory budget of %s; expected a smaller run (fewer blocks or operations, a lower max_steps)",
		steps, r.budget)
}

// YieldEvery is how many scheduler steps go between calls of a Script's
// Yield: a step logs a few dozen events at most, so the hook costs one
// call per tens of thousands of events.
//
// Yield, when set, is called by every run with the number of events its
// log holds (0 untraced); an error it returns stops the run there, as the
// budget does, with that error in the message. It is for a program that
// has one thread and must stay responsive while a run goes on: the
// browser's tab (cmd/wasm) sets it on the scripts it runs off its app's
// lock, to show the run's progress, let the page breathe and offer a
// Cancel. A run's result never depends on it: it can only stop a run,
// never change one.
const YieldEvery = 4096

// yieldErr is the error of a run that Yield stopped.
func (r *Runner) yieldErr(st *RunStmt, steps int, err error) error {
	return r.errf(st.Pos, "run stopped after %d steps (%d events): %v", steps, r.log.Len(), err)
}

// QuietStorage is how a run whose events are summarised or left out, not
// printed (`bufferlab run --summary`, `--no-events`, `bench step`), keeps
// them: compact (about 15 bytes an event) and, past 32 MiB of them,
// written to the spill file spill opens (internal/spillfile: an unlinked
// temporary file; nil: kept in memory), so that its memory stays flat
// however long it runs (trace.Storage).
func QuietStorage(spill func() (trace.SpillFile, error)) trace.Storage {
	return trace.Storage{Compact: true, SpillAfter: 32 << 20, Spill: spill}
}

// PlayerBudget is the budget of a run the player (viz/player) opens from a
// scenario: its events kept compact (QuietStorage without the spill: a
// player seeks back and forth) at about 15 bytes, its timelines'
// keyframes and the decode cache, 64 bytes an event in all at most:
// 4,194,304 events, a 100k-row insert (2.9M) among them.
var PlayerBudget = Budget{Bytes: 256 << 20, EventBytes: 64, Source: "the player's, events kept compact"}
