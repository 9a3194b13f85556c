package scenario

import (
	"fmt"

	"bufferlab/engine/trace"
)

// Names names what events refer to by number: relations (by relation
// number) and backends (by actor), as the scenario calls them.
type Names struct {
	Rel   func(rel uint32) string
	Actor func(a trace.Actor) string
}

// Names is the runner's names: its relations' and its backends'.
func (r *Runner) Names() Names { return Names{Rel: r.relName, Actor: r.actorName} }

// Caption says event i of evs in plain English, in one line, by the
// mechanism that owns its class: what happened, to what, and why it
// matters ("A's CAS failed: B changed the state word first (refcount 1 →
// 2). A reloads the word and retries."). evs is the run's log as recorded
// or as a player pads it (idle trace.KNone events are skipped by context
// lookups); "" for an idle event. Cost: the owner's, O(1) for most events,
// a bounded look back for those that name an earlier event.
func Caption(evs []trace.Event, i int, n Names) string {
	if i < 0 || i >= len(evs) || evs[i].Kind == trace.KNone {
		return ""
	}
	if n.Rel == nil {
		n.Rel = func(rel uint32) string { return fmt.Sprint(rel) }
	}
	if n.Actor == nil {
		n.Actor = trace.ActorName
	}
	for _, m := range Owning(evs[i].Class.Owner()) {
		if m.Caption != nil {
			return m.Caption(evs, i, n)
		}
	}
	// The pool owns the classes with no owner's caption (ONone: the
	// runner's own events).
	for _, m := range Owning(trace.MPool) {
		if m.Caption != nil {
			return m.Caption(evs, i, n)
		}
	}
	return evs[i].Kind.String()
}

// MomentOf says which lesson moment e is, by the mechanism that owns its
// class (trace.MomentNone for most events). O(1).
func MomentOf(e trace.Event) trace.Moment {
	for _, m := range Owning(e.Class.Owner()) {
		if m.Moment != nil {
			return m.Moment(e)
		}
	}
	return trace.MomentNone
}
