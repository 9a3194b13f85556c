package viewkit

import (
	"fmt"

	"bufferlab/engine/trace"
)

// Node is one applied event in a History: an immutable link of a
// persistent chain shared by clones.
type Node[D any] struct {
	Ev        trace.Event
	Prev      *Node[D] // the event applied before (any backend); nil: none, or trimmed
	ActorPrev *Node[D] // the same backend's previous event; nil: none, or trimmed
	Data      D        // what the view derived from Ev (never modified once pushed)
}

// History is a view's undo history; its zero value is empty. See the
// package comment.
type History[D any] struct {
	top     *Node[D]   // the event applied last (nil: none)
	tops    []*Node[D] // by actor: that backend's last event (nil: none)
	applied int        // events applied, net of those unapplied
	undo    int        // how many of them Pop can still undo
}

// Clone returns a copy that shares every node: both can Pop the events
// applied so far, and pushes to one do not show in the other.
func (h *History[D]) Clone() History[D] {
	c := *h
	c.tops = append([]*Node[D](nil), h.tops...)
	return c
}

// Push records e, applied, with what the view derived from it, and
// returns the new node (the current one, and e.Actor's top).
func (h *History[D]) Push(e trace.Event, d D) *Node[D] {
	a := int(e.Actor)
	for a >= len(h.tops) {
		h.tops = append(h.tops, nil)
	}
	n := &Node[D]{Ev: e, Prev: h.top, ActorPrev: h.tops[a], Data: d}
	h.top, h.tops[a] = n, n
	h.applied++
	h.undo++
	return n
}

// Pop undoes the record of e, which must be the event applied last (it
// panics otherwise, or when Trim dropped it, with a message that starts
// with view), and returns its node: the current event and e.Actor's top
// become what they were before e.
func (h *History[D]) Pop(e trace.Event, view string) *Node[D] {
	n := h.top
	if h.undo == 0 || n == nil || n.Ev != e {
		h.refuse(e, view)
	}
	h.tops[e.Actor] = n.ActorPrev
	h.top = n.Prev
	h.applied--
	h.undo--
	return n
}

// refuse panics for Pop (kept out of Pop, which inlines).
func (h *History[D]) refuse(e trace.Event, view string) {
	if h.undo == 0 || h.top == nil {
		panic(fmt.Sprintf("%s: Unapply(%v) with no history left (applied %d)", view, e, h.applied))
	}
	panic(fmt.Sprintf("%s: Unapply(%v) but the last event applied is %v", view, e, h.top.Ev))
}

// Last is the event Pop would undo next; ok is false when there is none.
func (h *History[D]) Last() (e trace.Event, ok bool) {
	if h.undo == 0 || h.top == nil {
		return trace.Event{}, false
	}
	return h.top.Ev, true
}

// Top is the node of the event applied last (nil before the first).
func (h *History[D]) Top() *Node[D] { return h.top }

// ActorTop is the node of actor a's last event (nil before its first).
func (h *History[D]) ActorTop(a trace.Actor) *Node[D] {
	if int(a) >= len(h.tops) {
		return nil
	}
	return h.tops[a]
}

// Current is the event applied last, if any.
func (h *History[D]) Current() (trace.Event, bool) {
	if h.top == nil {
		return trace.Event{}, false
	}
	return h.top.Ev, true
}

// Applied is the number of events applied, net of those unapplied.
func (h *History[D]) Applied() int { return h.applied }

// Len is how many of the applied events Pop can still undo.
func (h *History[D]) Len() int { return h.undo }

// Trim forgets all but the last keep applied events, so that Pop can undo
// at most keep more; Current, every backend's top and their Data do not
// change. The dropped part of the chain becomes garbage unless a clone
// still uses it.
func (h *History[D]) Trim(keep int) {
	keep = max(keep, 0)
	if h.undo <= keep {
		return
	}
	kept := make([]*Node[D], 0, keep)
	for n := h.top; len(kept) < keep; n = n.Prev {
		kept = append(kept, n)
	}
	// Copies of the kept nodes, linked among themselves; nodes outside
	// become stubs that keep their event and data only.
	repl := make(map[*Node[D]]*Node[D], keep+len(h.tops)+1)
	get := func(o *Node[D]) *Node[D] {
		if o == nil {
			return nil
		}
		if r, ok := repl[o]; ok {
			return r
		}
		r := &Node[D]{Ev: o.Ev, Data: o.Data}
		repl[o] = r
		return r
	}
	for i := len(kept) - 1; i >= 0; i-- {
		o := kept[i]
		repl[o] = &Node[D]{Ev: o.Ev, Data: o.Data, Prev: get(o.Prev), ActorPrev: get(o.ActorPrev)}
	}
	h.top = get(h.top)
	for a := range h.tops {
		h.tops[a] = get(h.tops[a])
	}
	h.undo = keep
}
