// Package viewkit is what every view derived from trace events shares
// (DESIGN §4): the undo history, and the methods a timeline needs
// (timeline.State) written once over it. The pool's view (viz/poolview), the
// SLRU's (viz/slruview) and the free space map's (viz/fsmview) each keep
// their own state, Apply, Unapply, Check and Diff; the rest comes from here.
//
// History[D] is a view's history: a persistent chain of applied events
// (Node[D]), one per event the view applied, each linked to the event
// applied before it (Prev) and to the same backend's previous one
// (ActorPrev), and carrying D, what the view derived from the event and
// cannot get back from the event alone (the pool's lane information, the
// SLRU's lookup, the FSM's search). A view's Apply ends with Push; its
// Unapply begins with Pop, which returns the node, so that the view can
// undo what the node's Data says.
//
// The helpers implement the rest from a view's own methods:
// ApplyChecked (Check, then Apply), Snapshot (Clone, then TrimHistory(0)),
// Equal (Diff is empty), UnapplyLast (Unapply of History.Last). Diffs
// collects the lines of a Diff (the first MaxDiffs), DiffTail adds what
// every view compares last (lanes, counters, events applied, current
// event), and SignificantLanes says how many lanes take part (those with
// events, and those whose Lane Holds something). NewLanes and LaneOf set
// up and grow a view's lanes (one per backend, "sys" when none is named);
// LaneHead is the start of the SLRU's and the FSM's Lane (HeadOf reads
// it, its Diff compares it). Hasher, PutHistory and PutLane write the
// parts of a Fingerprint the views share; Bit and WordsEqual serve the
// hand-written encodings of a lane's derived state. Written is the value
// a view's mutate stores (After, or Before when undoing), MinusOne the
// delta its counters take when undoing; SiteCounts counts events by the
// site that logged them; Name is the String of a
// view's small enumerations; TrailShown is the rule every view's trails
// follow (what an operation went through, shown while it runs and until
// the next operation begins in the view), LaneTrailShown that rule for
// one lane's operation among all lanes'.
//
// Apply and Unapply stay concrete: a view's hot path (one Apply per event
// while playing) makes no interface call; Push and Pop are small methods
// of a concrete generic type.
//
// Invariants:
//   - Nodes are immutable once pushed and shared by clones: Clone of a
//     History copies the per-backend tops (a few words per backend) and
//     shares every node, so both copies can Pop what was applied so far
//     and neither sees the other's later pushes.
//   - Len (what Pop can still undo) ≤ Applied, and Pop panics, naming the
//     view, when Len is 0 or when the event is not the last one applied:
//     it never undoes the wrong event.
//   - Trim(keep) leaves Current, Applied, every backend's top and every
//     node's Data as they were; only Len becomes min(Len, keep). Nodes
//     beyond the kept ones become stubs (event and Data, no links), so the
//     dropped part of the chain is garbage once no clone holds it, and Pop
//     after keep more pops stops cleanly (Last reports false, Pop panics)
//     instead of following a stub.
//   - Snapshot equals its source (Equal) and has Len 0.
//
// The conformance suite, package viewkit/viewtest, checks these (and that
// a view equals its engine at every event) for every view.
//
// Usage (a view's own types: lane information in D):
//
//	type View struct {
//		h viewkit.History[*laneInfo]
//		…
//	}
//	func (v *View) Apply(e trace.Event) {
//		… // write the state e changed
//		v.h.Push(e, nextInfo(v.h.ActorTop(e.Actor), e))
//	}
//	func (v *View) Unapply(e trace.Event) {
//		n := v.h.Pop(e, "myview")
//		… // write the state back to e's Before values
//	}
//	func (v *View) UnapplyLast() (trace.Event, bool) { return viewkit.UnapplyLast(v, &v.h) }
package viewkit
