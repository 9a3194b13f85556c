package viewtest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"bufferlab/engine/trace"
	"bufferlab/viz/timeline"
	"bufferlab/viz/viewkit"
)

// View is what the suite needs of a view type S (a pointer): a timeline
// state that can also check events, compare and fingerprint itself.
type View[S any] interface {
	timeline.State[S]
	Check(trace.Event) error
	ApplyChecked(trace.Event) error
	UnapplyLast() (trace.Event, bool)
	Diff(S) string
	Equal(S) bool
	Applied() int
	Current() (trace.Event, bool)
	Fingerprint() uint64
}

// Case is one engine run.
type Case[S any] struct {
	Name string
	// Play runs the engine once. It calls begin once, before the first
	// event, with the view of the engine's state then (not applied to
	// afterwards by Play); then at(e, engine) right after the engine logs
	// each event e (the log's OnAppend), where engine compares a view with
	// the engine's state at that moment ("" when they agree; nil when
	// there is nothing to compare at that event). It returns the log.
	Play func(t testing.TB, begin func(initial S), at func(e trace.Event, engine func(S) string)) []trace.Event
	// KeyframeEvery is the timeline's K in the seek test (0: 16).
	KeyframeEvery int
	// Applies, when set, says which events of the log the view applies
	// (the others it ignores): ApplyChecked must then add exactly those
	// to Applied.
	Applies func(trace.Event) bool
}

// played is what the engine run gave: the log, the initial view (a
// snapshot), the live view after the whole log (full history), and the
// fingerprint after each number of events.
type played[S View[S]] struct {
	events []trace.Event
	init   S
	end    S
	fps    []uint64
}

// replay is a fresh view after the first p events.
func (p *played[S]) replay(n int) S {
	v := p.init.Clone()
	for _, e := range p.events[:n] {
		v.Apply(e)
	}
	return v
}

// differs explains why v, at position n, does not show the replay's state.
func (p *played[S]) differs(v S, n int) string {
	if d := v.Diff(p.replay(n)); d != "" {
		return d
	}
	return fmt.Sprintf("fingerprint %#x, a replay's %#x (Diff finds nothing: Fingerprint and Diff disagree)", v.Fingerprint(), p.fps[n])
}

// unapplyLast undoes w's last event, w being at position pos, and returns
// the new position: the index of the event undone, which must be the last
// one before pos that the view applied (the events skipped must not have
// changed it); w must then show the state before that event.
func (p *played[S]) unapplyLast(w S, pos int) (int, error) {
	e, ok := w.UnapplyLast()
	if !ok {
		return pos, fmt.Errorf("UnapplyLast failed at %d with history %d", pos, w.HistoryLen())
	}
	j := pos - 1
	for j >= 0 && p.events[j] != e {
		j--
	}
	switch {
	case j < 0:
		return pos, fmt.Errorf("UnapplyLast undid %v, not an event before position %d", e, pos)
	case p.fps[j+1] != p.fps[pos]:
		return pos, fmt.Errorf("UnapplyLast undid event %d, skipping events %d..%d that the view applied", j, j+1, pos-1)
	case w.Fingerprint() != p.fps[j]:
		return pos, fmt.Errorf("UnapplyLast of event %d (%v):\n%s", j, e, p.differs(w, j))
	}
	return j, nil
}

// Run runs the case and checks the view against the engine and the
// properties every view has (see the package comment), each as a subtest
// of c.Name.
func Run[S View[S]](t *testing.T, c Case[S]) {
	t.Run(c.Name, func(t *testing.T) {
		p, ok := play(t, c)
		if !ok {
			return
		}
		t.Run("roundtrip", func(t *testing.T) { roundTrip(t, p) })
		t.Run("clones", func(t *testing.T) { clones(t, p) })
		t.Run("trim", func(t *testing.T) { trim(t, p) })
		t.Run("seek", func(t *testing.T) { seek(t, p, c.KeyframeEvery) })
	})
}

// play runs the engine, applying each event to the live view as it is
// logged: ApplyChecked must accept it, the view must then equal the
// engine, and Unapply then Apply must give back the view before and after.
func play[S View[S]](t *testing.T, c Case[S]) (*played[S], bool) {
	p := &played[S]{}
	var v S
	began, failed := false, false
	fail := func(format string, args ...any) {
		if !failed {
			failed = true
			t.Errorf(format, args...)
		}
	}
	begin := func(s S) {
		if began {
			fail("%s: Play called begin twice", c.Name)
			return
		}
		began = true
		p.init = s.Snapshot()
		v = s
		p.fps = []uint64{v.Fingerprint()}
	}
	at := func(e trace.Event, engine func(S) string) {
		if failed {
			return
		}
		if !began {
			fail("%s: an event before begin: %v", c.Name, e)
			return
		}
		i := len(p.fps) - 1
		prev, fp := v.Clone(), p.fps[i]
		if err := v.ApplyChecked(e); err != nil {
			fail("event %d: ApplyChecked: %v\nview:\n%v", i, err, v)
			return
		}
		if c.Applies != nil && v.Applied()-prev.Applied() != int(viewkit.Bit(c.Applies(e))) {
			fail("event %d (%v): ApplyChecked added %d to Applied; the case says the view applies it: %v", i, e, v.Applied()-prev.Applied(), c.Applies(e))
			return
		}
		if engine != nil {
			if d := engine(v); d != "" {
				fail("after event %d (%v): view and engine differ:\n  %s\nview:\n%v", i, e, d, v)
				return
			}
		}
		after := v.Fingerprint()
		v.Unapply(e)
		if d := v.Diff(prev); d != "" || v.Fingerprint() != fp {
			fail("event %d (%v): Apply then Unapply does not give back the view before it:\n%s", i, e, d)
			return
		}
		v.Apply(e)
		if v.Fingerprint() != after {
			fail("event %d (%v): Apply after Unapply gives another view:\n%s", i, e, v.Diff(prev))
			return
		}
		p.fps = append(p.fps, after)
	}
	p.events = c.Play(t, begin, at)
	switch {
	case failed || t.Failed():
		return nil, false
	case !began:
		t.Errorf("%s: Play never called begin", c.Name)
		return nil, false
	case len(p.fps) != len(p.events)+1:
		t.Errorf("%s: at was called for %d events of a log of %d", c.Name, len(p.fps)-1, len(p.events))
		return nil, false
	case v.Applied() == 0:
		t.Errorf("%s: the view applied none of the log's %d events: the case tests nothing", c.Name, len(p.events))
		return nil, false
	case v.Applied() > len(p.events) || v.HistoryLen() != v.Applied():
		t.Errorf("%s: applied %d, history %d, of a log of %d", c.Name, v.Applied(), v.HistoryLen(), len(p.events))
		return nil, false
	}
	p.end = v
	return p, true
}

// roundTrip unapplies the whole log from the end, event by event.
func roundTrip[S View[S]](t *testing.T, p *played[S]) {
	w := p.end.Clone()
	for i := len(p.events) - 1; i >= 0; i-- {
		w.Unapply(p.events[i])
		if w.Fingerprint() != p.fps[i] {
			t.Fatalf("unapplying back to %d (%v):\n%s", i, p.events[i], p.differs(w, i))
		}
	}
	if d := w.Diff(p.init); d != "" || w.Applied() != 0 {
		t.Fatalf("after unapplying the whole log (applied %d):\n%s", w.Applied(), d)
	}
	if e, ok := w.UnapplyLast(); ok {
		t.Fatalf("UnapplyLast on the initial view undid %v", e)
	}
	if _, ok := w.Current(); ok {
		t.Fatal("a current event on the initial view")
	}
}

// clones takes clones and snapshots along the log, drives each one
// elsewhere, and checks that none disturbed another or the source.
func clones[S View[S]](t *testing.T, p *played[S]) {
	n := len(p.events)
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	v := p.init.Clone()
	var cs []S
	var at []int
	every := max(n/12, 1)
	for i, e := range p.events {
		if i%every == every/2 {
			c := v.Clone()
			if len(cs)%3 == 2 {
				c = v.Snapshot()
				if c.HistoryLen() != 0 {
					t.Fatalf("a snapshot at %d has history %d", i, c.HistoryLen())
				}
			}
			cs = append(cs, c)
			at = append(at, i)
		}
		v.Apply(e)
	}
	// The source moved on: every clone still shows where it was taken.
	for k, c := range cs {
		if c.Fingerprint() != p.fps[at[k]] {
			t.Fatalf("clone %d taken at %d changed when its source applied more:\n%s", k, at[k], p.differs(c, at[k]))
		}
	}
	// Drive each clone somewhere else: forward, or back as far as its
	// history reaches, then check every clone and the source.
	for k, c := range cs {
		if c.HistoryLen() > 0 && rng.IntN(2) == 0 {
			back := 1 + rng.IntN(min(c.HistoryLen(), 40))
			for range back {
				var err error
				if at[k], err = p.unapplyLast(c, at[k]); err != nil {
					t.Fatalf("clone %d: %v", k, err)
				}
			}
		} else {
			to := min(at[k]+1+rng.IntN(60), n)
			for _, e := range p.events[at[k]:to] {
				c.Apply(e)
			}
			at[k] = to
		}
	}
	for k, c := range cs {
		if c.Fingerprint() != p.fps[at[k]] {
			t.Fatalf("clone %d at %d:\n%s", k, at[k], p.differs(c, at[k]))
		}
	}
	if v.Fingerprint() != p.fps[n] || !v.Equal(p.end) {
		t.Fatalf("the clones' source changed:\n%s", p.differs(v, n))
	}
}

// trim trims clones of the end view's history, unapplies as far as the
// trimmed history reaches, tries to go further, and applies forward again.
func trim[S View[S]](t *testing.T, p *played[S]) {
	n, hist := len(p.events), p.end.HistoryLen()
	for _, keep := range []int{hist / 2, 37, 1, 0, hist, hist + 10} {
		w := p.end.Clone()
		w.TrimHistory(keep)
		kept := min(keep, hist)
		if w.HistoryLen() != kept || w.Applied() != p.end.Applied() || w.Fingerprint() != p.fps[n] || !w.Equal(p.end) {
			t.Fatalf("TrimHistory(%d) of %d: history %d, applied %d, and the view changed:\n%s", keep, hist, w.HistoryLen(), w.Applied(), w.Diff(p.end))
		}
		pos := n // w shows the state after pos events
		for k := 0; k < kept; k++ {
			var err error
			if pos, err = p.unapplyLast(w, pos); err != nil {
				t.Fatalf("trim %d, step %d: %v", keep, k, err)
			}
		}
		// At the trim point: nothing more to undo, and trying changes nothing.
		if e, ok := w.UnapplyLast(); ok {
			t.Fatalf("trim %d: UnapplyLast undid %v past the trim point", keep, e)
		}
		if w.HistoryLen() != 0 || w.Fingerprint() != p.fps[pos] {
			t.Fatalf("trim %d: a refused UnapplyLast changed the view", keep)
		}
		if w.Applied() > 0 {
			refused := false
			for j := pos - 1; j >= 0 && !refused; j-- {
				refused = panics(func() { w.Unapply(p.events[j]) })
				if w.Fingerprint() != p.fps[pos] {
					t.Fatalf("trim %d: Unapply of event %d past the trim point changed the view:\n%s", keep, j, p.differs(w, pos))
				}
			}
			if !refused {
				t.Fatalf("trim %d: Unapply past the trim point did not panic", keep)
			}
		}
		for _, e := range p.events[pos:] {
			w.Apply(e)
		}
		if d := w.Diff(p.end); d != "" || w.Fingerprint() != p.fps[n] {
			t.Fatalf("trim %d: forward again from %d:\n%s", keep, pos, d)
		}
	}
	if p.end.HistoryLen() != hist {
		t.Fatalf("trimming clones trimmed their source: history %d, was %d", p.end.HistoryLen(), hist)
	}
	s := p.end.Snapshot()
	if s.HistoryLen() != 0 || !s.Equal(p.end) || s.Fingerprint() != p.fps[n] {
		t.Fatalf("Snapshot: history %d:\n%s", s.HistoryLen(), s.Diff(p.end))
	}
}

func panics(f func()) (yes bool) {
	defer func() { yes = recover() != nil }()
	f()
	return false
}

// seek moves a timeline over the log at random and compares each position
// with the fingerprint of a replay (and, at some, with the replay itself).
func seek[S View[S]](t *testing.T, p *played[S], k int) {
	if k <= 0 {
		k = 16
	}
	n := len(p.events)
	tl := timeline.NewOf(trace.Slice(p.events), p.init, k)
	if !tl.Initial().Equal(p.init) || tl.Current().Fingerprint() != p.fps[0] {
		t.Fatal("a new timeline does not start at the initial view")
	}
	rng := rand.New(rand.NewPCG(uint64(n), 11))
	for m := range Size(120, 40) {
		var what string
		switch r := rng.IntN(10); {
		case r < 4:
			what = "seek"
			tl.Seek(rng.IntN(n + 1))
		case r < 7:
			what = "step"
			tl.Step(rng.IntN(2*k+1) - k)
		case r < 8:
			what = "step back"
			tl.StepBack()
		case r < 9:
			what = "start"
			tl.Start()
		default:
			what = "end"
			tl.End()
		}
		pos := tl.Pos()
		cur := tl.Current()
		if cur.Fingerprint() != p.fps[pos] {
			t.Fatalf("move %d (%s) to %d: the timeline's view is not a replay's:\n%s", m, what, pos, p.differs(cur, pos))
		}
		if m%10 == 0 {
			if d := cur.Diff(p.replay(pos)); d != "" {
				t.Fatalf("move %d (%s) to %d: Diff with a replay:\n%s", m, what, pos, d)
			}
		}
	}
}
