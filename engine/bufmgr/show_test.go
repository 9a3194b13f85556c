package bufmgr

import (
	"strings"
	"testing"

	"bufferlab/engine/trace"
)

// An error event is described by the mechanism that raised it: every
// buffer manager code by its own text, and another package's code (the
// free space map's "row is too big" is its code 2, as the buffer
// manager's read past the end is) never by the buffer manager's table.
func TestDescribeErrors(t *testing.T) {
	for code := ErrNoUnpinnedBuffers; code <= ErrPinnedInInvalidate; code++ {
		e := trace.Event{Kind: trace.KError, Class: trace.OStrategy, Arg: uint64(code)}
		got := Describe(e, nil)
		if !strings.HasSuffix(got, ": "+code.String()) || strings.Contains(code.String(), "error ") {
			t.Errorf("code %d: %q, want it to end with its own text %q", code, got, code.String())
		}
	}
	if got := Describe(trace.Event{Kind: trace.KError, Class: trace.OStrategy, Arg: uint64(ErrPinnedInInvalidate)}, nil); !strings.Contains(got, "buffer is pinned in InvalidateBuffer") {
		t.Errorf("ErrPinnedInInvalidate: %q", got)
	}
	fsmErr := trace.Event{Kind: trace.KError, Class: trace.OFSMRel, Arg: uint64(ErrReadBeyondEOF)}
	if got := Describe(fsmErr, nil); strings.Contains(got, ErrReadBeyondEOF.String()) || !strings.Contains(got, "ERROR code 2 of the") {
		t.Errorf("an FSM error event: %q: want no buffer manager text", got)
	}
}

// A listing's actor column is three letters wide: an I/O worker is W0,
// W1, ... and the kernel K there (their lanes' names), whatever the
// scenario calls them in words; a backend keeps its own name.
func TestDescribeActorColumn(t *testing.T) {
	words := func(a trace.Actor) string {
		if i, ok := IOWorkerOf(a); ok {
			return "io worker " + string(rune('0'+i))
		}
		if a == KernelActor() {
			return "kernel"
		}
		return trace.ActorName(a)
	}
	for _, c := range []struct {
		actor trace.Actor
		want  string
	}{{1, "A  "}, {IOWorkerActor(0), "W0 "}, {IOWorkerActor(2), "W2 "}, {KernelActor(), "K  "}} {
		got := DescribeWith(trace.Event{Seq: 7, Actor: c.actor, Kind: trace.KLoad, Class: trace.OBuffer}, nil, words)
		if col := got[6:10]; col != c.want+" " {
			t.Errorf("actor %d: column %q in %q, want %q", c.actor, col, got, c.want)
		}
	}
}
