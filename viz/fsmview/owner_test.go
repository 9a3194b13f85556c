package fsmview

import (
	"testing"

	"bufferlab/engine/trace"
)

// The FSM view reads its own classes and, of the pool's, only reads and
// errors: an SLRU error or hit, or a class added later for another
// mechanism, is not applied even where its kind is one the view counts.
func TestFSMViewReadsOnlyWhatItNames(t *testing.T) {
	future := trace.ObjClass(trace.NumObjClasses)
	for _, c := range []struct {
		e    trace.Event
		want bool
	}{
		{trace.Event{Kind: trace.KCategory, Class: trace.OFSMNode}, true},
		{trace.Event{Kind: trace.KError, Class: trace.OFSMRel}, true},
		{trace.Event{Kind: trace.KHit, Class: trace.OBuffer}, true},
		{trace.Event{Kind: trace.KError, Class: trace.OBuffer}, true},
		{trace.Event{Kind: trace.KError, Class: trace.ONone}, true},
		{trace.Event{Kind: trace.KError, Class: trace.OSlot}, false},
		{trace.Event{Kind: trace.KHit, Class: trace.OSlot}, false},
		{trace.Event{Kind: trace.KError, Class: future}, false},
		{trace.Event{Kind: trace.KMiss, Class: future}, false},
		{trace.Event{Kind: trace.KCAS, Class: trace.OBuffer}, false},
	} {
		if got := relevant(c.e); got != c.want {
			t.Errorf("relevant(%v on class %d, owned by %s) = %v, want %v", c.e.Kind, c.e.Class, c.e.Class.Owner(), got, c.want)
		}
	}
}
