package slru

import (
	"fmt"
	"strings"

	"bufferlab/engine/trace"
)

// Caption says event i of evs in plain English, in one line, with the
// scenario's backend names: the SLRU's events.
func Caption(evs []trace.Event, i int, actor func(trace.Actor) string) string {
	e := evs[i]
	d := DescribeWith(e, actor)
	if f := strings.Fields(d); len(f) > 4 {
		d = strings.Join(f[4:], " ")
	}
	return fmt.Sprintf("%s: %s %s", actor(e.Actor), e.Kind, d)
}
