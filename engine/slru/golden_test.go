package slru_test

import (
	"fmt"
	"strings"
	"testing"

	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
	"bufferlab/internal/goldentest"
)

// TestGolden runs the datadriven files in testdata/. Each case is a script
// (see script_test.go): its settings as the directive's arguments, its
// operations as the input. Directives:
//
//	events   every event (Describe), the result of each operation, then
//	         the final picture of the SLRU
//	picture  the results and the final picture only
//	error    the configuration or script must fail; the output is the error
//
// The invariants are checked after every event. Regenerate with:
//
//	go test ./engine/slru -run Golden -rewrite
func TestGolden(t *testing.T) {
	goldentest.Run(t, "testdata/*.txt", goldentest.Scripted(runCase, goldenRun.output))
}

// goldenRun is a case's script, run: the SLRU it left, each operation's
// result and the log of its events.
type goldenRun struct {
	s       *slru.SLRU
	results []string
	log     *trace.Log
}

// runCase parses the case's script (its settings from the directive's
// arguments) and runs it with a log.
func runCase(t *testing.T, d *goldentest.Case) (goldenRun, error) {
	var args []string
	for _, a := range d.CmdArgs {
		args = append(args, a.String())
	}
	sc, err := parseScript(args, d.Input)
	if err != nil {
		return goldenRun{}, err
	}
	g := goldenRun{log: trace.NewLog()}
	g.s, g.results, err = sc.run(t, g.log)
	return g, err
}

// output is the output of events (withEvents) and picture: the events,
// each operation's result and the final picture; the script must leave
// the SLRU quiescent.
func (g goldenRun) output(withEvents bool) (string, error) {
	if err := g.s.CheckQuiescent(); err != nil {
		return "", fmt.Errorf("after the script: %w\n%s", err, g.s.Picture())
	}
	var b strings.Builder
	if withEvents {
		b.WriteString(eventText(g.log))
	}
	for _, r := range g.results {
		b.WriteString(r + "\n")
	}
	b.WriteString(g.s.Picture())
	return b.String(), nil
}
