package viewkit_test

import (
	"fmt"
	"strings"
	"testing"

	"bufferlab/engine/trace"
	"bufferlab/viz/viewkit"
)

// ev is event i of a log where actors 1, 2 and 3 take turns (Seq = i).
func ev(i int) trace.Event {
	return trace.Event{Seq: uint64(i), Actor: trace.Actor(1 + i%3), Kind: trace.KLoad}
}

// check verifies h after events [0, n) were pushed, each with Data = its
// index, and n-undo of them were trimmed away: the current event, each
// actor's top and its previous events as far as the history reaches, and
// Len, Applied and Last.
func check(t *testing.T, h *viewkit.History[int], n, undo int) {
	t.Helper()
	if h.Applied() != n || h.Len() != undo {
		t.Fatalf("applied %d, len %d; want %d, %d", h.Applied(), h.Len(), n, undo)
	}
	cur, ok := h.Current()
	if ok != (n > 0) || (ok && (cur != ev(n-1) || h.Top().Data != n-1)) {
		t.Fatalf("current %v %v after %d events", cur, ok, n)
	}
	last, ok := h.Last()
	if ok != (undo > 0) || (ok && last != ev(n-1)) {
		t.Fatalf("Last %v %v with %d to undo", last, ok, undo)
	}
	for a := trace.Actor(1); a <= 3; a++ {
		want := n - 1
		for want >= 0 && ev(want).Actor != a {
			want--
		}
		top := h.ActorTop(a)
		if want < 0 {
			if top != nil {
				t.Fatalf("actor %d has a top %v before its first event", a, top.Ev)
			}
			continue
		}
		if top == nil || top.Ev != ev(want) || top.Data != want {
			t.Fatalf("actor %d's top %+v, want event %d", a, top, want)
		}
		// Within the kept history, ActorPrev is the actor's previous event.
		if want >= n-undo && want >= 3 {
			if p := top.ActorPrev; p == nil || p.Data != want-3 {
				t.Fatalf("actor %d's previous event %+v, want %d", a, p, want-3)
			}
		}
	}
	if h.ActorTop(40) != nil {
		t.Fatal("an actor never seen has a top")
	}
}

func TestPushPop(t *testing.T) {
	var h viewkit.History[int]
	check(t, &h, 0, 0)
	for i := 0; i < 10; i++ {
		if n := h.Push(ev(i), i); n != h.Top() || n.Ev != ev(i) {
			t.Fatalf("Push returned %+v", n)
		}
		check(t, &h, i+1, i+1)
	}
	for i := 9; i >= 0; i-- {
		if n := h.Pop(ev(i), "test"); n.Ev != ev(i) || n.Data != i {
			t.Fatalf("Pop %d returned %+v", i, n)
		}
		check(t, &h, i, i)
	}
}

func mustPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if s, _ := r.(string); !strings.Contains(s, want) {
			t.Fatalf("panic %v, want one mentioning %q", r, want)
		}
	}()
	f()
}

func TestPopMisuse(t *testing.T) {
	var h viewkit.History[int]
	mustPanic(t, "myview: Unapply(", func() { h.Pop(ev(0), "myview") })
	mustPanic(t, "no history left", func() { h.Pop(ev(0), "myview") })
	h.Push(ev(0), 0)
	h.Push(ev(1), 1)
	mustPanic(t, "the last event applied is", func() { h.Pop(ev(0), "myview") })
	check(t, &h, 2, 2) // a refused Pop changes nothing
}

// Clones share nodes but not tops: each pops and pushes on its own.
func TestCloneIndependence(t *testing.T) {
	var h viewkit.History[int]
	for i := 0; i < 6; i++ {
		h.Push(ev(i), i)
	}
	c := h.Clone()
	c.Pop(ev(5), "test")
	c.Pop(ev(4), "test")
	check(t, &c, 4, 4)
	check(t, &h, 6, 6)
	h.Push(ev(6), 6)
	check(t, &h, 7, 7)
	check(t, &c, 4, 4)
	c.Push(ev(4), 4)
	check(t, &c, 5, 5)
	check(t, &h, 7, 7)
}

func TestTrim(t *testing.T) {
	for _, keep := range []int{0, 1, 2, 5, 19, 20, 30, -3} {
		t.Run(fmt.Sprint(keep), func(t *testing.T) {
			var h viewkit.History[int]
			for i := 0; i < 20; i++ {
				h.Push(ev(i), i)
			}
			src := h.Clone()
			h.Trim(keep)
			kept := min(max(keep, 0), 20)
			check(t, &h, 20, kept)
			check(t, &src, 20, 20) // the source's chain is untouched
			for i := 19; i >= 20-kept; i-- {
				h.Pop(ev(i), "test")
				check(t, &h, i, i-(20-kept))
			}
			// Past the trim point: Last says so, Pop refuses, nothing moves.
			if _, ok := h.Last(); ok {
				t.Fatal("Last past the trim point")
			}
			if kept < 20 {
				mustPanic(t, "no history left", func() { h.Pop(ev(19-kept), "test") })
				if cur, _ := h.Current(); cur != ev(19-kept) || h.Top().Data != 19-kept {
					t.Fatalf("current %v after popping to the trim point", cur)
				}
			}
			// Forward again from there.
			for i := 20 - kept; i < 20; i++ {
				h.Push(ev(i), i)
			}
			check(t, &h, 20, kept)
		})
	}
}

func TestDiffs(t *testing.T) {
	var d viewkit.Diffs
	if d.String() != "" || d.Full() {
		t.Fatal("empty Diffs")
	}
	for i := 0; i < 20; i++ {
		d.Add("line %d", i)
	}
	lines := strings.Split(d.String(), "\n")
	if !d.Full() || len(lines) != viewkit.MaxDiffs || lines[0] != "line 0" || lines[11] != "line 11" {
		t.Fatalf("Diffs kept %q", lines)
	}
}

func TestDiffTail(t *testing.T) {
	var a, b viewkit.History[int]
	a.Push(ev(0), 0)
	b.Push(ev(1), 1)
	b.Push(ev(2), 2)
	var d viewkit.Diffs
	lanes := func(x trace.Actor) string {
		if x == 2 {
			return "differs"
		}
		return ""
	}
	viewkit.DiffTail(&d, 4, lanes, 1, 2, &a, &b)
	want := "lane 2: differs\ncounters 1 vs 2\napplied 1 vs 2\ncurrent event " + fmt.Sprint(ev(0)) + " vs " + fmt.Sprint(ev(2))
	if d.String() != want {
		t.Fatalf("DiffTail:\n%s\nwant:\n%s", d.String(), want)
	}
	var e viewkit.Diffs
	viewkit.DiffTail(&e, 4, func(trace.Actor) string { return "" }, 3, 3, &a, &a)
	if e.String() != "" {
		t.Fatalf("DiffTail of equal things: %s", e.String())
	}
}

type holder bool

func (h holder) Holds() bool { return bool(h) }

// A lane counts from the first initial ones up to the last with events
// or with something held.
func TestSignificantLanes(t *testing.T) {
	var h viewkit.History[int]
	h.Push(trace.Event{Actor: 4}, 0)
	lanes := make([]holder, 10)
	lanes[1], lanes[6] = true, true
	for _, c := range []struct{ initial, lanes, want int }{{3, 3, 3}, {3, 10, 7}, {3, 6, 5}, {8, 10, 8}, {3, 4, 3}} {
		if got := viewkit.SignificantLanes(&h, c.initial, lanes[:c.lanes]); got != c.want {
			t.Errorf("SignificantLanes(%d, %d lanes) = %d, want %d", c.initial, c.lanes, got, c.want)
		}
	}
}
