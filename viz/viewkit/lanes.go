package viewkit

import "bufferlab/engine/trace"

// NewLanes returns a view's lanes as New sets them up: one per backend
// name (index = actor), lane i made by mk(names[i]); with no names, one
// lane, the system's, "sys". L is the view's own lane type.
func NewLanes[L any](names []string, mk func(name string) L) []L {
	if len(names) == 0 {
		names = []string{"sys"}
	}
	lanes := make([]L, len(names))
	for i, n := range names {
		lanes[i] = mk(n)
	}
	return lanes
}

// LaneOf returns actor a's lane, first adding lanes made by mk (named as
// trace.ActorName does) for the actors up to a that New was not told
// about. The pointer is valid until the next call that adds a lane.
func LaneOf[L any](lanes *[]L, a trace.Actor, mk func(name string) L) *L {
	for int(a) >= len(*lanes) {
		*lanes = append(*lanes, mk(trace.ActorName(trace.Actor(len(*lanes)))))
	}
	return &(*lanes)[a]
}
