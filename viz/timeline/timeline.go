package timeline

import (
	"fmt"
	"sort"

	"bufferlab/engine/trace"
	view "bufferlab/viz/poolview"
)

// DefaultKeyframeEvery is K, the distance between keyframes, when New is
// given 0: a seek replays at most K-1 events from a keyframe.
const DefaultKeyframeEvery = 256

// nearSteps is what Seek counts a keyframe restore (a clone) as, in
// events: it applies or unapplies from the current position when that is
// at most nearSteps more work than replaying from the keyframe, so a few
// steps never cost a clone and keep the undo history.
const nearSteps = 16

// TicksPerSecond is how often Tick is called: Ebitengine's fixed update
// rate.
const TicksPerSecond = 60

// speeds are the playing speeds in events per second: 1 a second up to 64
// events a tick (64×). Below 1× (60 a second, one a tick) a student can
// follow events one by one; each speed is about twice the one before.
var speeds = [...]int{1, 2, 4, 8, 15, 30, 60, 120, 240, 480, 960, 1920, 3840}

var speedLabels = [...]string{"1/s", "2/s", "4/s", "8/s", "15/s", "30/s", "1×", "2×", "4×", "8×", "16×", "32×", "64×"}

const speed1x = 6 // index of 1×

// Speeds lists the playing speeds in events per second, slowest first.
func Speeds() []int { return append([]int(nil), speeds[:]...) }

// SpeedLabels are the speeds' labels, in Speeds' order: "1/s" … "30/s"
// below one event a tick, then "1×" … "64×" (events a tick).
func SpeedLabels() []string { return append([]string(nil), speedLabels[:]...) }

// Mark is a named position, such as the start of a lesson step.
type Mark struct {
	Pos  int
	Name string
}

// State is a view derived from events that a timeline can move: apply
// and unapply events (with a bounded undo history) and copy itself.
// *view.Pool (the buffer pool) and *slruview.View are states.
type State[S any] interface {
	Apply(trace.Event)
	Unapply(trace.Event)
	HistoryLen() int
	TrimHistory(keep int)
	Snapshot() S // a copy without undo history
	Clone() S    // a copy that shares history copy-on-write
}

// Timeline plays an event log over the buffer pool's view.
type Timeline = Of[*view.Pool]

// Of plays an event log: it holds the view (a State) at a position p (p
// events applied) and moves it by stepping, seeking and playing. See the
// package comment.
type Of[S State[S]] struct {
	events trace.Events
	n      int // events.Len()
	k      int
	keys   []S // keys[j]: snapshot after j*k events
	cur    S
	pos    int

	playing bool
	speed   int // index into speeds
	acc     int // sixtieths of an event carried to the next tick
	stopAt  int // PlayToOpEnd's target, -1 when none

	marks []Mark

	seekApplied, seekUnapplied int
	seekKeyframe               bool
}

// New builds a timeline over events, starting from initial (the view of the
// pool before the first event; it is not modified, except that cloning it
// renews its copy-on-write ownership), with a keyframe every keyframeEvery
// events (0: DefaultKeyframeEvery). It starts at position 0, paused, at 1×.
//
// Keyframes are made as the timeline first passes them, not up front: a
// new timeline costs one snapshot whatever the length of its events, and
// the first move past the last keyframe made applies the events between
// (what an up-front build would have applied once anyway), snapshotting at
// each multiple of K on the way. A 3M-event log then opens in the time its
// run takes, and a student who never goes to the end never pays for it.
// BuildKeyframes makes them all at once.
func New(events trace.Events, initial *view.Pool, keyframeEvery int) *Timeline {
	return NewOf(events, initial, keyframeEvery)
}

// NewOf is New for any State: a timeline over another view of the events.
func NewOf[S State[S]](events trace.Events, initial S, keyframeEvery int) *Of[S] {
	if keyframeEvery <= 0 {
		keyframeEvery = DefaultKeyframeEvery
	}
	n := events.Len()
	t := &Of[S]{events: events, n: n, k: keyframeEvery, speed: speed1x, stopAt: -1}
	t.keys = append(make([]S, 0, 16), initial.Snapshot())
	t.cur = t.keys[0].Clone()
	return t
}

// BuildKeyframes makes every keyframe not yet made (applying the events
// past the last one once), leaving the position where it is.
func (t *Of[S]) BuildKeyframes() {
	last := (len(t.keys) - 1) * t.k
	if last+t.k > t.n {
		return
	}
	w := t.keys[len(t.keys)-1].Clone()
	for i := last; i < t.n; i++ {
		w.Apply(t.events.At(i))
		t.passed(w, i+1)
	}
}

// passed records that view w (a working copy, never a keyframe) has
// reached position pos: the next keyframe when pos is its place and it is
// not made yet. It keeps w's undo history short.
func (t *Of[S]) passed(w S, pos int) {
	if pos%t.k != 0 || pos/t.k != len(t.keys) {
		return
	}
	t.keys = append(t.keys, w.Snapshot())
	if w.HistoryLen() > 2*t.k {
		w.TrimHistory(t.k)
	}
}

// Initial is the view before the first event (a snapshot: a timeline over
// other events can start from it).
func (t *Of[S]) Initial() S { return t.keys[0].Snapshot() }

// Len is the number of events.
func (t *Of[S]) Len() int { return t.n }

// Pos is the position: the number of events applied.
func (t *Of[S]) Pos() int { return t.pos }

// Current is the view at the position. The caller must not modify it; it
// stays valid until the next call that moves the timeline.
func (t *Of[S]) Current() S { return t.cur }

// Event is the event just applied (events[Pos-1]); ok is false at 0.
func (t *Of[S]) Event() (e trace.Event, ok bool) {
	if t.pos == 0 {
		return trace.Event{}, false
	}
	return t.events.At(t.pos - 1), true
}

// Next is the event the next step applies; ok is false at the end.
func (t *Of[S]) Next() (e trace.Event, ok bool) {
	if t.pos >= t.n {
		return trace.Event{}, false
	}
	return t.events.At(t.pos), true
}

// Events is the events the timeline plays.
func (t *Of[S]) Events() trace.Events { return t.events }

// KeyframeEvery is K.
func (t *Of[S]) KeyframeEvery() int { return t.k }

// Keyframes is the number of keyframes made so far: 1 for a new timeline,
// up to Len/K + 1 once the timeline has been to its end (or
// BuildKeyframes has run).
func (t *Of[S]) Keyframes() int { return len(t.keys) }

// LastSeek reports the work done by the last move: events applied and
// unapplied, and whether it restored a keyframe. Applied is below K when a
// keyframe was restored; otherwise applied + unapplied is below K+16.
func (t *Of[S]) LastSeek() (applied, unapplied int, keyframe bool) {
	return t.seekApplied, t.seekUnapplied, t.seekKeyframe
}

func (t *Of[S]) clamp(p int) int { return min(max(p, 0), t.n) }

// Seek moves to position p (clamped to [0, Len]) by the cheapest of:
// applying forward from the current position, unapplying back to it (while
// the view's history reaches), or restoring the nearest keyframe at or
// before p and applying forward from it. All three give the same view. It
// never applies or unapplies more than K+16 events. It does not change
// playing, but cancels a PlayToOpEnd target.
func (t *Of[S]) Seek(p int) {
	t.stopAt = -1 // a move by hand cancels PlayToOpEnd's target
	t.seek(p)
}

func (t *Of[S]) seek(p int) {
	p = t.clamp(p)
	t.seekApplied, t.seekUnapplied, t.seekKeyframe = 0, 0, false
	if p == t.pos {
		return
	}
	fromKey := p % t.k // events to apply after restoring keyframe p/k
	switch {
	case p > t.pos && p-t.pos <= fromKey+nearSteps:
		t.forward(p)
	case p < t.pos && t.pos-p <= t.cur.HistoryLen() && t.pos-p <= fromKey+nearSteps:
		for t.pos > p {
			t.pos--
			t.cur.Unapply(t.events.At(t.pos))
			t.seekUnapplied++
		}
	case p/t.k < len(t.keys):
		t.cur = t.keys[p/t.k].Clone()
		t.pos = p - fromKey
		t.seekKeyframe = true
		t.forward(p)
	default:
		// Past the last keyframe made: go on from the current position
		// when it is past that keyframe too, else from that keyframe, and
		// make the keyframes between on the way.
		if last := (len(t.keys) - 1) * t.k; t.pos < last {
			t.cur = t.keys[len(t.keys)-1].Clone()
			t.pos = last
			t.seekKeyframe = true
		}
		t.forward(p)
	}
	// Keep the undo history short: stepping back further restores a
	// keyframe anyway.
	if t.cur.HistoryLen() > 2*t.k {
		t.cur.TrimHistory(t.k)
	}
}

func (t *Of[S]) forward(p int) {
	for t.pos < p {
		t.cur.Apply(t.events.At(t.pos))
		t.pos++
		t.seekApplied++
		t.passed(t.cur, t.pos)
	}
}

// Step moves n events (negative: back).
func (t *Of[S]) Step(n int) { t.Seek(t.pos + n) }

// StepForward applies one event.
func (t *Of[S]) StepForward() { t.Step(1) }

// StepBack undoes one event.
func (t *Of[S]) StepBack() { t.Step(-1) }

// Start moves to position 0.
func (t *Of[S]) Start() { t.Seek(0) }

// End moves to the end of the log.
func (t *Of[S]) End() { t.Seek(t.n) }

// AtEnd reports whether every event is applied.
func (t *Of[S]) AtEnd() bool { return t.pos == t.n }

// --- Playing ---

// Play starts playing at the current speed; at the end of the log it
// starts again from the beginning.
func (t *Of[S]) Play() {
	if t.AtEnd() {
		t.Start()
	}
	t.playing = t.n > 0
	t.acc = 0
}

// Pause stops playing (and forgets a PlayToOpEnd target).
func (t *Of[S]) Pause() {
	t.playing = false
	t.stopAt = -1
}

// Toggle plays when paused and pauses when playing.
func (t *Of[S]) Toggle() {
	if t.playing {
		t.Pause()
	} else {
		t.Play()
	}
}

// Playing reports whether Tick advances.
func (t *Of[S]) Playing() bool { return t.playing }

// Speed is the playing speed in events per tick: 1/60 (one event a
// second) up to 64.
func (t *Of[S]) Speed() float64 { return float64(speeds[t.speed]) / TicksPerSecond }

// EventsPerSecond is the playing speed in events per second: 1, 2, 4, 8,
// 15, 30, 60 (1×), 120, … 3840 (64×).
func (t *Of[S]) EventsPerSecond() int { return speeds[t.speed] }

// SpeedLabel is the speed for display: "1/s" … "30/s", "1×" … "64×".
func (t *Of[S]) SpeedLabel() string { return speedLabels[t.speed] }

// Faster raises the speed one step (about twice as fast), up to 64×.
func (t *Of[S]) Faster() {
	if t.speed < len(speeds)-1 {
		t.speed++
	}
}

// Slower lowers the speed one step (about half as fast), down to one
// event a second.
func (t *Of[S]) Slower() {
	if t.speed > 0 {
		t.speed--
	}
}

// SetSpeed sets the speed in events per second; it must be one of Speeds
// (1, 2, 4, 8, 15, 30, 60, 120, … 3840).
func (t *Of[S]) SetSpeed(eventsPerSecond int) error {
	for i, q := range speeds {
		if q == eventsPerSecond {
			t.speed = i
			return nil
		}
	}
	return fmt.Errorf("timeline: speed %d events a second: want one of %v", eventsPerSecond, speeds)
}

// Tick is called once per frame (TicksPerSecond a second). While playing
// it advances by the speed, carrying fractions over (at 1/s one event
// every 60th tick, at 15/s one every fourth); it pauses at the end of the
// log and at a PlayToOpEnd target. It returns the number of events
// applied.
func (t *Of[S]) Tick() int {
	if !t.playing {
		return 0
	}
	t.acc += speeds[t.speed]
	n := t.acc / TicksPerSecond
	t.acc %= TicksPerSecond
	target := t.pos + n
	if t.stopAt >= 0 && target >= t.stopAt {
		target = t.stopAt
		t.playing, t.stopAt = false, -1
	}
	if target >= t.n {
		target = t.n
		t.playing, t.stopAt = false, -1
	}
	from := t.pos
	t.seek(target)
	return t.pos - from
}

// --- Operations ---

// OpEnd is the position where the operation of the backend that performed
// the current event ends: just before that backend's next KOp, or the end
// of the log. An operation runs from one KOp of a backend up to its next
// KOp; other backends' events in between belong to the timeline, not to
// it. When the operation already ended at the position (the next event is
// the backend's next KOp), OpEnd is the end of that next operation. At
// position 0 the backend is the one that performs the first event.
func (t *Of[S]) OpEnd() int {
	if t.n == 0 || t.AtEnd() {
		return t.pos
	}
	var a trace.Actor
	if t.pos > 0 {
		a = t.events.At(t.pos - 1).Actor
	} else {
		a = t.events.At(0).Actor
	}
	for j := t.pos + 1; j < t.n; j++ {
		if e := t.events.At(j); e.Kind == trace.KOp && e.Actor == a {
			return j
		}
	}
	return t.n
}

// PlayToOpEnd plays at the current speed until OpEnd, then pauses. It
// returns the target position.
func (t *Of[S]) PlayToOpEnd() int {
	target := t.OpEnd()
	if target == t.pos {
		return target
	}
	t.Play()
	t.stopAt = target
	return target
}

// ToOpEnd moves to OpEnd at once.
func (t *Of[S]) ToOpEnd() { t.Seek(t.OpEnd()) }

// NextOp moves to just before the next KOp of any backend (the next
// operation about to begin), or to the end; it reports whether it moved.
func (t *Of[S]) NextOp() bool {
	from := t.pos
	j := t.pos + 1
	for j < t.n && t.events.At(j).Kind != trace.KOp {
		j++
	}
	t.Seek(j)
	return t.pos != from
}

// PrevOp moves to just before the previous KOp of any backend, or to the
// start; it reports whether it moved.
func (t *Of[S]) PrevOp() bool {
	from := t.pos
	j := t.pos - 1
	for j > 0 && t.events.At(j).Kind != trace.KOp {
		j--
	}
	t.Seek(j)
	return t.pos != from
}

// --- Marks ---

// SetMarks sets unnamed marks at the given positions (clamped, sorted).
func (t *Of[S]) SetMarks(ps []int) {
	ms := make([]Mark, len(ps))
	for i, p := range ps {
		ms[i] = Mark{Pos: p}
	}
	t.SetNamedMarks(ms)
}

// SetNamedMarks sets named marks (positions clamped; kept sorted by
// position, stable for equal ones).
func (t *Of[S]) SetNamedMarks(ms []Mark) {
	t.marks = make([]Mark, len(ms))
	for i, m := range ms {
		t.marks[i] = Mark{Pos: t.clamp(m.Pos), Name: m.Name}
	}
	sort.SliceStable(t.marks, func(i, j int) bool { return t.marks[i].Pos < t.marks[j].Pos })
}

// Marks returns the marks, sorted by position.
func (t *Of[S]) Marks() []Mark { return append([]Mark(nil), t.marks...) }

// NextMark moves to the first mark after the position; false if none.
func (t *Of[S]) NextMark() bool {
	for _, m := range t.marks {
		if m.Pos > t.pos {
			t.Seek(m.Pos)
			return true
		}
	}
	return false
}

// PrevMark moves to the last mark before the position; false if none.
func (t *Of[S]) PrevMark() bool {
	for i := len(t.marks) - 1; i >= 0; i-- {
		if m := t.marks[i]; m.Pos < t.pos {
			t.Seek(m.Pos)
			return true
		}
	}
	return false
}

// MarkAt returns the index of the last mark at or before p: the lesson step
// that position p belongs to. ok is false when p precedes every mark.
func (t *Of[S]) MarkAt(p int) (i int, ok bool) {
	i = sort.Search(len(t.marks), func(i int) bool { return t.marks[i].Pos > p }) - 1
	return i, i >= 0
}
