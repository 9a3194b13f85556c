package slru_test

import (
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"bufferlab/engine/internal/goldentest"
	"bufferlab/engine/trace"
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
	goldentest.Run(t, "testdata/*.txt", func(t *testing.T, d *datadriven.TestData) string {
		var args []string
		for _, a := range d.CmdArgs {
			args = append(args, a.String())
		}
		sc, err := parseScript(args, d.Input)
		if err != nil {
			if d.Cmd == "error" {
				return err.Error() + "\n"
			}
			t.Fatalf("%s: %v", d.Pos, err)
		}
		log := trace.NewLog()
		s, results, err := sc.run(t, log)
		if d.Cmd == "error" {
			if err == nil {
				t.Fatalf("%s: expected an error", d.Pos)
			}
			return err.Error() + "\n"
		}
		if err != nil {
			t.Fatalf("%s: %v", d.Pos, err)
		}
		if err := s.CheckQuiescent(); err != nil {
			t.Fatalf("%s: after the script: %v\n%s", d.Pos, err, s.Picture())
		}
		var b strings.Builder
		switch d.Cmd {
		case "events":
			b.WriteString(eventText(log))
		case "picture":
		default:
			t.Fatalf("%s: unknown directive %q", d.Pos, d.Cmd)
		}
		for _, r := range results {
			b.WriteString(r + "\n")
		}
		b.WriteString(s.Picture())
		return b.String()
	})
}
