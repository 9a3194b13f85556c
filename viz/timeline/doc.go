// Package timeline is the player over an event log (DESIGN §4): it holds
// the view (package viz/poolview) at a position p, the number of events
// applied, 0 ≤ p ≤ Len, and moves it by stepping, seeking and playing. It
// reads its events through trace.Events: a trace.Log however it keeps
// them (plain, compact, spilled), or a trace.Slice.
//
// Seeking restores the nearest keyframe at or before the target and applies
// the events in between; keyframes are view snapshots taken every K events
// (256 by default), made the first time the timeline passes their place
// (by playing, stepping or seeking past the last one made; BuildKeyframes
// makes them all). New costs one snapshot: a 2.9M-event log opens in the
// time its run takes, and the events are applied once to make the
// keyframes only when the student first goes that far. A seek near the
// current position applies forward, or unapplies backward with the view's
// history, when that is cheaper. Snapshots share unchanged buffer chunks
// (copy-on-write), so a keyframe costs what changed in its K events: about
// 12 kB in a 16 384-buffer pool (25 MB of keyframes for 540 000 events,
// about the size of the log itself).
//
// Playing: Tick is called once per frame (60 per second) and advances by
// the speed, from one event a second to 64 a tick, each step about twice
// the one before: 1, 2, 4, 8, 15 and 30 events a second, then 1× (one a
// tick) to 64× (Faster, Slower, SetSpeed in events a second, SpeedLabel
// "1/s" … "30/s", "1×" … "64×"); fractions carry over, so 15/s applies one
// event every fourth tick and 1/s one every 60th. Playing pauses at the end of the log, and at the
// target of PlayToOpEnd: the end of the current operation of the backend
// that performed the current event (from one KOp of that backend up to,
// not including, its next KOp; other backends' events in between count).
// Marks (SetMarks, SetNamedMarks) name positions such as lesson steps.
//
// Invariants:
//   - Current() after any sequence of moves equals a fresh replay of the
//     first Pos() events on the initial view (tests compare fingerprints
//     after random seeks, steps and ticks).
//   - One move within the keyframes made applies or unapplies at most
//     K+16 events (LastSeek reports it), so seeking anywhere in a
//     million-event log fits in a frame; the first move past the last
//     keyframe made applies the events from it and makes the keyframes on
//     the way (Keyframes counts those made).
//   - The live view's undo history is trimmed to at most 2K events.
//
// Usage:
//
//	tl := timeline.New(r.Log(), view.New(n, rels, names), 0)
//	tl.Play()
//	// each frame:
//	tl.Tick()
//	scene.Draw(tl.Current())
package timeline
