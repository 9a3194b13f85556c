package viewkit

import (
	"fmt"

	"bufferlab/engine/trace"
)

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

// LaneHead is what the SLRU's and the FSM's views show of a backend
// first, embedded in their Lane: who it is, its last event, its counters
// (C, the view's Counters). The views add what they derive (the SLRU's
// lookup, the FSM's search and local map).
type LaneHead[C comparable] struct {
	Actor trace.Actor
	Name  string
	// Last is the backend's last event the view applied (HasLast false
	// before its first).
	Last    trace.Event
	HasLast bool
	// Stats counts this backend's events (the view's Counters.Stats gives
	// the engine's statistics of the backend).
	Stats C
}

// HeadOf is actor a's lane head: name and stats as the view keeps them
// (for an actor never seen, trace.ActorName(a) and zero counters), the
// last event a's top in h. It costs no allocation.
func HeadOf[C comparable, D any](h *History[D], a trace.Actor, name string, stats C) LaneHead[C] {
	l := LaneHead[C]{Actor: a, Name: name, Stats: stats}
	if top := h.ActorTop(a); top != nil {
		l.Last, l.HasLast = top.Ev, true
	}
	return l
}

// Diff describes the first way x and y differ, in the order name, last
// event, counters ("" when they do not): the start of a view's laneDiff.
func (x LaneHead[C]) Diff(y LaneHead[C]) string {
	switch {
	case x.Name != y.Name:
		return fmt.Sprintf("name %q vs %q", x.Name, y.Name)
	case x.HasLast != y.HasLast || x.Last != y.Last:
		return fmt.Sprintf("last event %v vs %v", x.Last, y.Last)
	case x.Stats != y.Stats:
		return fmt.Sprintf("stats %+v vs %+v", x.Stats, y.Stats)
	}
	return ""
}
