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
	goldentest.Run(t, "testdata/*.txt", goldentest.Directives{
		"events":  slruGolden(true),
		"picture": slruGolden(false),
		"error": goldentest.Fails(func(t *testing.T, d *goldentest.Case) (string, error) {
			_, _, _, err := runCase(t, d)
			return "", err
		}),
	})
}

// runCase parses the case's script (its settings from the directive's
// arguments) and runs it with a log.
func runCase(t *testing.T, d *goldentest.Case) (*slru.SLRU, []string, *trace.Log, error) {
	var args []string
	for _, a := range d.CmdArgs {
		args = append(args, a.String())
	}
	sc, err := parseScript(args, d.Input)
	if err != nil {
		return nil, nil, nil, err
	}
	log := trace.NewLog()
	s, results, err := sc.run(t, log)
	return s, results, log, err
}

// slruGolden is the handler of events (withEvents) and picture: the
// events, each operation's result and the final picture; the script must
// leave the SLRU quiescent.
func slruGolden(withEvents bool) goldentest.Handler {
	return func(t *testing.T, d *goldentest.Case) (string, error) {
		s, results, log, err := runCase(t, d)
		if err != nil {
			return "", err
		}
		if err := s.CheckQuiescent(); err != nil {
			return "", fmt.Errorf("after the script: %w\n%s", err, s.Picture())
		}
		var b strings.Builder
		if withEvents {
			b.WriteString(eventText(log))
		}
		for _, r := range results {
			b.WriteString(r + "\n")
		}
		b.WriteString(s.Picture())
		return b.String(), nil
	}
}
