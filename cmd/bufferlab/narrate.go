package main

import (
	"fmt"
	"io"
	"strings"

	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
)

// narrateRuns prints the narration of a scenario: every variant its config
// names, one after the other, each event as one line, its caption
// (scenario.Caption, with the scenario's names) after its sequence number:
//
//	00044 C's CAS on buffer 0 failed: B changed the state word first (…). C retries with the new word.
//
// When the config names several variants (side-by-side panes), each line
// starts with its pane's variant in brackets ("[pins=atomic] 00044 …").
// Nothing else is printed: not the show statements' pictures, not the
// final state. A run that fails stops its variant (the error goes to
// stderr, with the variant named) and the next variant runs; the exit
// status is the worst.
//
// Each step's events are captioned as soon as the step has run, over the
// whole log so far, so a caption's look back sees what came before. Cost:
// one caption per event, each O(1) or a bounded look back
// (scenario.Caption).
func narrateRuns(script *scenario.Script, budget func(variants int) scenario.Budget, stdout, stderr io.Writer) int {
	nv := len(scenario.Variants(script))
	code := exitOK
	for v := 0; v < nv; v++ {
		r, err := scenario.NewVariantRunner(script, true, v)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return exitBadInput
		}
		r.SetBudget(budget(nv))
		pane := ""
		if nv > 1 {
			pane = "[" + r.Variant().String() + "] "
		}
		names := r.Names()
		printed := 0
		// win holds the latest events, at least the narrate.Window a
		// caption may look back through: the narration costs O(events),
		// whatever the length of the run.
		var win []trace.Event
		for !r.Done() {
			_, err := r.Step()
			log := r.Log()
			for ; printed < log.Len(); printed++ {
				e := log.At(printed)
				if len(win) >= 2*scenario.CaptionWindow {
					win = append(win[:0], win[len(win)-scenario.CaptionWindow:]...)
				}
				win = append(win, e)
				fmt.Fprintf(stdout, "%s%05d %s\n", pane, e.Seq, scenario.Caption(trace.Slice(win), len(win)-1, names))
			}
			if err != nil {
				fmt.Fprintln(stderr, err)
				code = max(code, exitFor(err))
				break
			}
		}
	}
	return code
}

// conflicting lists the flags set among set, in a fixed order, for the
// error that rejects them beside --narrate ("--json and --summary").
func conflicting(set map[string]bool) string {
	var on []string
	for _, f := range []string{"--json", "--summary", "--no-events"} {
		if set[f] {
			on = append(on, f)
		}
	}
	return strings.Join(on, " or ")
}
