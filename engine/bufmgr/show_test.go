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
