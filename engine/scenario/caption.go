package scenario

import (
	"fmt"

	"bufferlab/engine/internal/narrate"
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

// CaptionWindow is how far back a caption may look (narrate.Window): a
// caption of the last event of any slice holding at least this many
// events before it is the caption of that event in the whole run.
const CaptionWindow = narrate.Window

// Caption says event i of evs in plain English, in one line, by the
// mechanism that owns its class: what happened, to what, and why it
// matters ("A's CAS fails: B changed buffer 0's state word first
// (refcount 1 → 2). A retries with the new word."), naming backends and
// relations as n does. evs is the run's log as recorded or as a player
// pads it (idle trace.KNone events are skipped by context lookups); "" for
// an idle event or an index out of range.
//
// Cost, by path:
//   - the dispatch: one lookup of the class's owner among the registered
//     mechanisms (a handful), then the owner's Caption;
//   - most events: O(1), the event's own values and site;
//   - the few that name an earlier event (who changed a word first, the
//     page a dirty victim is written for, the bank a slot search is in,
//     the relation a list walk is on): a look back through evs that stops
//     at the event it wants and never goes further than narrate.Window
//     entries (4096, padding included);
//   - the runner's own events (class none) go to the pool's captions, at
//     the same costs.
//
// So a caption costs O(narrate.Window) at worst, whatever the length of
// the run, and a narration of n events O(n · narrate.Window). Over a Log
// (not a Slice) it first copies the window's events out of it: 4096
// events, a few microseconds.
func Caption(es trace.Events, i int, n Names) string {
	if i < 0 || i >= es.Len() || es.At(i).Kind == trace.KNone {
		return ""
	}
	evs, ok := es.(trace.Slice)
	if !ok {
		from := max(0, i-narrate.Window)
		evs, i = trace.Collect(es, from, i+1), i-from
	}
	if n.Rel == nil {
		n.Rel = func(rel uint32) string { return fmt.Sprint(rel) }
	}
	if n.Actor == nil {
		n.Actor = trace.ActorName
	}
	if m := captioner(evs[i].Class.Owner()); m != nil {
		return m.Caption(evs, i, n)
	}
	// The pool owns the classes with no owner's caption (ONone: the
	// runner's own events).
	if m := captioner(trace.MPool); m != nil {
		return m.Caption(evs, i, n)
	}
	return narrate.Who(evs[i].Actor, n.Actor) + narrate.Generic + "the engine: an event no mechanism captions."
}

// captioner is the first registered mechanism owning o's classes that
// has a Caption (nil if none): a walk of the registry, which holds a
// handful of mechanisms, without allocating.
func captioner(o trace.Mechanism) *Mechanism {
	for _, m := range registry.mechs {
		if m.Owner == o && m.Caption != nil {
			return m
		}
	}
	return nil
}

// CaptionMaxLen is the longest caption, in runes, that the tests accept
// over every embedded scenario and lesson (narrate.MaxLen).
const CaptionMaxLen = narrate.MaxLen

// CheckCaption reports what is wrong with a caption, or nil: empty, over
// CaptionMaxLen runes, not one line, a raw kind name such as "cas-fail",
// the layout of an event's description (its columns, "->", "rc="), a name
// that looks like code and is not one of the PostgreSQL 15 functions,
// fields and flags checked against its source (narrate.PG15Names), or a
// generic caption that says only what kind of thing happened.
func CheckCaption(caption string) error { return narrate.Check(caption) }

// MomentOf says which lesson moment e is, by the mechanism that owns its
// class (trace.MomentNone for most events). O(1).
func MomentOf(e trace.Event) trace.Moment {
	o := e.Class.Owner()
	for _, m := range registry.mechs {
		if m.Owner == o && m.Moment != nil {
			return m.Moment(e)
		}
	}
	return trace.MomentNone
}
