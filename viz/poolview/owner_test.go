package poolview_test

import (
	"testing"

	"bufferlab/engine/trace"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/viewkit/viewtest"
)

// The pool view applies only the pool's classes and idle padding: events
// of the SLRU, of the FSM and of a class no mechanism owns leave it as it
// was (before, a new class nobody listed was silently applied to the pool).
func TestPoolViewAppliesOnlyItsClasses(t *testing.T) {
	v := view.New(4, map[uint32]string{16384: "t"}, []string{"sys", "A"})
	viewtest.Ignores(t, v, []trace.Event{
		{Seq: 0, Actor: 1, Kind: trace.KStore, Class: trace.OSlot, Obj: 0, Before: 0, After: 7},
		{Seq: 0, Actor: 1, Kind: trace.KStore, Class: trace.OFSMNode, Obj: 16384, Before: 0, After: 9},
		{Seq: 0, Actor: 1, Kind: trace.KStore, Class: trace.ObjClass(trace.NumObjClasses), Obj: 0, Before: 0, After: 1},
		// An unowned class naming buffer 0 as a pool store would: applied to
		// the pool it would change buffer 0's state word.
		{Seq: 0, Actor: 1, Kind: trace.KStore, Class: trace.ObjClass(trace.NumObjClasses + 1), Obj: 0, Before: 0, After: 0x40000},
	})
	idle := trace.Event{Actor: 0, Kind: trace.KNone, Class: trace.ONone}
	v.Apply(idle)
	if v.Applied() != 1 {
		t.Errorf("idle padding: applied %d, want 1 (the pool view counts it, as before)", v.Applied())
	}
}
