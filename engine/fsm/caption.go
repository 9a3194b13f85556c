package fsm

import (
	"fmt"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
)

// Caption says event i of evs in plain English, in one line, with the
// scenario's names: the free space map's and the heap insert path's events.
func Caption(evs []trace.Event, i int, names bufmgr.RelNamer, actor func(trace.Actor) string) string {
	e := evs[i]
	d := DescribeWith(e, names, actor)
	if f := strings.Fields(d); len(f) > 4 {
		d = strings.Join(f[4:], " ")
	}
	return fmt.Sprintf("%s: %s %s", actor(e.Actor), e.Kind, d)
}
