package bufmgr_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"bufferlab/engine/internal/goldentest"
	"bufferlab/engine/scenario"
)

// TestGolden runs the datadriven files in testdata/. Each case is a
// scenario; its expected output is below "----". Directives:
//
//	events   every event, then the final picture of the pool
//	summary  one line per read (hit or miss, the victim and what the sweep
//	         did), then the final picture
//	stats    the engine's counters, then the final picture
//	error    the scenario must fail; the output is the positioned error
//
// Regenerate with: go test ./engine/bufmgr -run Golden -rewrite
func TestGolden(t *testing.T) {
	goldentest.Run(t, "testdata/*.txt", func(t *testing.T, d *datadriven.TestData) string {
		name := "scenario"
		r, out, err := scenario.Run(name, d.Input, true)
		switch d.Cmd {
		case "error":
			if err == nil {
				t.Fatalf("%s: expected an error, the scenario ran", d.Pos)
			}
			return err.Error() + "\n"
		case "events", "summary", "stats":
			if err != nil {
				t.Fatalf("%s: %v", d.Pos, err)
			}
			if perr := r.Pool().CheckQuiescent(); perr != nil {
				t.Fatalf("%s: after the scenario: %v", d.Pos, perr)
			}
			var b strings.Builder
			switch d.Cmd {
			case "events":
				b.WriteString(out)
			case "summary":
				b.WriteString(r.Summarize(r.Log().Events()))
			case "stats":
				st := r.Pool().Stats()
				fmt.Fprintf(&b, "hits %d misses %d writes %d; victims: freelist %d, sweep %d, ring %d; ticks %d, decrements %d\n",
					st.Hits, st.Misses, st.Writes, st.FreelistVictims, st.SweepVictims, st.RingVictims, st.ClockTicks, st.UsageDecrements)
			}
			b.WriteString(r.Pool().Picture(r.RelName))
			return b.String()
		}
		t.Fatalf("%s: unknown directive %q", d.Pos, d.Cmd)
		return ""
	})
}
