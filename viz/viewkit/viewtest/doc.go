// Package viewtest is the conformance suite every view derived from trace
// events passes (viz/poolview, viz/slruview, viz/fsmview): Run checks,
// on one engine run given as a Case,
//
//   - engine: the view equals the engine after every event (the case's
//     comparator), and ApplyChecked accepts every event of the log;
//   - roundtrip: Unapply(e) right after Apply(e) gives back exactly the
//     view before e (Diff empty, same Fingerprint), for every event, and
//     unapplying the whole log returns to the initial view, after which
//     UnapplyLast reports nothing left;
//   - clones: clones and snapshots taken along the log are independent:
//     driving one forward or back leaves the others and the source as
//     they were;
//   - trim: TrimHistory(keep) leaves the view as it was; unapplying after
//     it undoes exactly keep events, each back to the state before it,
//     then stops cleanly (UnapplyLast false, Unapply panics) without
//     changing the view; applying forward again gives the end state; the
//     source of the clone keeps its history; Snapshot has none;
//   - seek: a timeline over the log (small keyframe distance) shows, after
//     random seeks, steps and jumps, the view a fresh replay of the first
//     Pos events gives.
//
// With Case.Applies set, the engine check also requires ApplyChecked to
// apply exactly the events the case names (the others are another
// mechanism's).
//
// Fingerprints (one per position, recorded while the engine runs) make
// the positions cheap to compare; Diff against a fresh replay says what
// differs when one does not match.
//
// The pieces a view package's own tests share stand beside Run:
// Keyframes (a player's snapshots, seeks and steps back, written out),
// Ignores (another mechanism's events change nothing), MustPanic, Seen
// with Covered and Span (the values a workload must reach),
// EncodesEveryField, Size (a run's size under -short), RunProcs (a
// scheduler run that must not fail) and Benchmarks.
//
// Usage, in a view package's tests (the package's own specific tests stay):
//
//	viewtest.Run(t, viewtest.Case[*slruview.View]{Name: "banks", Play: func(t testing.TB,
//		begin func(*slruview.View), at func(trace.Event, func(*slruview.View) string)) []trace.Event {
//		… // build the engine; begin(the view of its state before the first event)
//		… // in the log's OnAppend: at(e, func(v) string { return compare(v, engine) })
//		return log.Events()
//	}})
package viewtest
