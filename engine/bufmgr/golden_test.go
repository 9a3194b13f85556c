package bufmgr_test

import (
	"fmt"
	"strings"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
	"bufferlab/internal/goldentest"
)

// TestGolden runs the datadriven files in testdata/. Each case is a
// scenario; its expected output is below "----". Directives:
//
//	events   every event, then the final picture of the pool
//	summary  one line per read (hit or miss, the victim and what the sweep
//	         did), then the final picture
//	stats    the engine's counters, then the final picture
//	error    the scenario must fail; the output is the positioned error
//	reads    each read call (smgrread, or PostgreSQL 17's smgrreadv) with
//	         its blocks, in order, then the pool's read calls as expect
//	         pool reads= writes them, then the final picture
//
// Regenerate with: go test ./engine/bufmgr -run Golden -rewrite
func TestGolden(t *testing.T) {
	goldentest.Run(t, "testdata/*.txt", goldentest.Directives{
		"events": scenarioGolden(func(r *scenario.Runner, events string) string { return events }),
		"summary": scenarioGolden(func(r *scenario.Runner, _ string) string {
			return r.Summarize(r.Log().Events())
		}),
		"stats": scenarioGolden(func(r *scenario.Runner, _ string) string {
			st := r.Pool().Stats()
			return fmt.Sprintf("hits %d misses %d writes %d; victims: freelist %d, sweep %d, ring %d; ticks %d, decrements %d\n",
				st.Hits, st.Misses, st.Writes, st.FreelistVictims, st.SweepVictims, st.RingVictims, st.ClockTicks, st.UsageDecrements)
		}),
		"reads": scenarioGolden(func(r *scenario.Runner, _ string) string {
			return readSpans(r.Log().Events()) + "reads=" + bufmgr.FormatReadRuns(r.Pool().ReadCalls()) + "\n"
		}),
		"error": goldentest.Fails(func(t *testing.T, d *goldentest.Case) (string, error) {
			_, _, err := scenario.Run("scenario", d.Input, true)
			return "", err
		}),
	})
}

// scenarioGolden is the handler of a directive that runs the case's
// scenario (which must leave no pin) and prints head's text of it (given
// the scenario's event lines), then the final picture of the pool.
func scenarioGolden(head func(r *scenario.Runner, events string) string) goldentest.Handler {
	return func(t *testing.T, d *goldentest.Case) (string, error) {
		r, events, err := scenario.Run("scenario", d.Input, true)
		if err != nil {
			return "", err
		}
		if err := r.Pool().CheckQuiescent(); err != nil {
			return "", fmt.Errorf("after the scenario: %w", err)
		}
		return head(r, events) + r.Pool().Picture(r.RelName), nil
	}
}

// TestDropGolden runs the datadriven files in testdata/drop/ (a folder of
// their own: TestGolden runs testdata/*.txt through the scenario language,
// whose drop and truncate are in testdata/drop_truncate.txt). Each case,
// directive run, is a small script (runDropScript, drop_golden_test.go)
// run by one or more backends, one after another, without a scheduler:
//
//	pool N [recovery] [dlist]            the pool (first line)
//	rel NAME main=N [fsm=N] [vm=N] [init=N]
//	read B REL[/FORK] BLK...             read and release (B is a backend name)
//	dirty B REL[/FORK] BLK...            read, MarkBufferDirty, release
//	trace                                print the events from here on
//	drop B REL [FORK:FIRST...] strategy=S          DropRelationBuffers
//	dropall B REL... strategy=S                    DropRelationsAllBuffers
//
// The output is every event after "trace" (decoded by DescribeDrop, else
// Describe), a result line per drop, the pool's picture and, with dlist,
// each relation's list. Regenerate with:
//
//	go test ./engine/bufmgr -run DropGolden -rewrite
func TestDropGolden(t *testing.T) {
	goldentest.Run(t, "testdata/drop/*.txt", goldentest.Directives{
		"run": func(t *testing.T, d *goldentest.Case) (string, error) { return runDropScript(d.Input) },
	})
}

// readSpans writes each read call of events as its blocks, "0", "1..2",
// up to ten calls a line after the backend that made them (a new line
// when another backend reads), as the strace of a real server lists a
// backend's preads (docs/pg17-read-stream.md, section 8).
func readSpans(events []trace.Event) string {
	var b strings.Builder
	n := 0
	last := trace.Actor(0)
	for _, e := range events {
		if e.Kind != trace.KIORead || e.Before != 0 {
			continue // not a call's first block
		}
		tag := bufmgr.UnpackTag(e.Arg)
		span := fmt.Sprint(tag.BlockNum)
		if e.After > 1 {
			span = fmt.Sprintf("%d..%d", tag.BlockNum, tag.BlockNum+uint32(e.After)-1)
		}
		sep := " · "
		if e.Actor != last {
			n = 0
		}
		if n%10 == 0 {
			sep = ""
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			fmt.Fprintf(&b, "%s: ", trace.ActorName(e.Actor))
		}
		b.WriteString(sep + span)
		n++
		last = e.Actor
	}
	if b.Len() > 0 {
		b.WriteByte('\n')
	}
	return b.String()
}
