package narrate

import (
	"strings"
	"testing"

	"bufferlab/engine/internal/lwlock"
	"bufferlab/engine/trace"
)

// Back skips idle padding, counts it toward the window, and never looks
// past the window or before the log's start.
func TestNarrateBack(t *testing.T) {
	evs := []trace.Event{
		{Kind: trace.KLoad, Obj: 1}, // 0
		{Kind: trace.KCAS, Obj: 2},  // 1
		{Kind: trace.KNone},         // 2: padding
		{Kind: trace.KNone},         // 3: padding
		{Kind: trace.KHit, Obj: 3},  // 4
	}
	isLoad := func(e trace.Event) bool { return e.Kind == trace.KLoad }
	if e, j, ok := Back(evs, 4, 10, isLoad); !ok || j != 0 || e.Obj != 1 {
		t.Errorf("Back over padding: %v %d %v, want the load at 0", e, j, ok)
	}
	if _, _, ok := Back(evs, 4, 3, isLoad); ok {
		t.Error("Back found an event 4 entries back with a window of 3")
	}
	offered := 0
	Back(evs, 5, 10, func(e trace.Event) bool {
		if e.Kind == trace.KNone {
			t.Error("Back offered idle padding")
		}
		offered++
		return false
	})
	if offered != 3 {
		t.Errorf("Back offered %d events, want the 3 that are not padding", offered)
	}
	if _, _, ok := Back(evs, 0, 10, isLoad); ok {
		t.Error("Back found something before the first event")
	}
	if _, _, ok := Back(evs, 99, 200, isLoad); !ok {
		t.Error("Back from past the end finds nothing")
	}
}

func TestNarrateWords(t *testing.T) {
	name := func(a trace.Actor) string { return string(rune('A' + a - 1)) }
	var l lwlock.Lock
	l.TryAcquire(1, lwlock.Shared)
	l.TryAcquire(3, lwlock.Shared)
	if got := Holders(l.HolderWord(), name); got != "A and C (shared)" {
		t.Errorf("Holders = %q", got)
	}
	if got := HolderVerb(l.HolderWord(), name); got != "A and C hold it shared" {
		t.Errorf("HolderVerb = %q", got)
	}
	var x lwlock.Lock
	x.TryAcquire(2, lwlock.Exclusive)
	if got := HolderVerb(x.HolderWord(), name); got != "B holds it exclusively" {
		t.Errorf("HolderVerb = %q", got)
	}
	if got := HolderVerb(0, name); got != "nobody holds it" {
		t.Errorf("HolderVerb(free) = %q", got)
	}
	for _, c := range []struct {
		in   []string
		want string
	}{
		{nil, ""}, {[]string{"A"}, "A"}, {[]string{"A", "B"}, "A and B"}, {[]string{"A", "B", "C"}, "A, B and C"},
		{[]string{"A", "B", "C", "D", "E"}, "A, B and 3 others"},
	} {
		if got := List(c.in); got != c.want {
			t.Errorf("List(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		n    uint64
		noun string
		want string
	}{{1, "block", "1 block"}, {2, "block", "2 blocks"}, {3, "try", "3 tries"}, {0, "entry", "0 entries"}, {2, "day", "2 days"}} {
		if got := Plural(c.n, c.noun); got != c.want {
			t.Errorf("Plural(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
	if Who(trace.System, name) != "The system" || Who(2, name) != "B" {
		t.Error("Who")
	}
}

func TestNarrateCheck(t *testing.T) {
	ok := "A's CAS fails: B changed buffer 0's state word first (refcount 1 → 2). A retries with the new word."
	if err := Check(ok); err != nil {
		t.Errorf("Check(%q): %v", ok, err)
	}
	for _, bad := range []string{
		"",
		strings.Repeat("x", MaxLen+1),
		"two\nlines",
		"00044 C   cas-fail      pin.cas                  buf 0: rc=0 usage=1",
		"A: cas-fail on buffer 0",
		"A: lw-acquire part 57",
		"buffer 0: rc=1 usage=2",
		"A's word 1 -> 2",
		"A at alloc.lookup",
		"A" + Generic + "buffer 0: a lock taken.",
		"B searches its local map (fsm_local_search).", // the reverted patch's function
		"A touches slot 3 (SlruRecentlyUsed).",         // a macro in PG 15
		"A bumps bank_cur_lru_count.",                  // PG 17's field
		"A reads the page (mdread).",                   // real, but not checked in
	} {
		if Check(bad) == nil {
			t.Errorf("Check(%q) accepts it", bad)
		}
	}
	for _, good := range []string{
		"A wants t/0 (ReadBuffer_common): is it in the pool already?",
		"A takes bank 1's lock (shared) to look for its page.",
		"S drops t's buffers (3 blocks): PostgreSQL's rule picks the per-block lookup.",
		"A sets BM_IO_IN_PROGRESS on buffer 0: the I/O is its to do.",
	} {
		if err := Check(good); err != nil {
			t.Errorf("Check(%q): %v", good, err)
		}
	}
	if err := CheckWords("A" + Generic + "buffer 0: a lock taken."); err != nil {
		t.Errorf("CheckWords rejects a generic caption in words: %v", err)
	}
}

// LockWords says a site's own sentence where it has one and the plain
// sentence elsewhere; a wait and a failure to take the lock at once name
// its holders.
func TestNarrateLockWords(t *testing.T) {
	name := func(a trace.Actor) string { return string(rune('A' + a - 1)) }
	var x lwlock.Lock
	x.TryAcquire(2, lwlock.Exclusive)
	w := LockWords{Take: map[trace.Site]string{1: "%s takes %s to look."}, Release: map[trace.Site]string{2: "%s lets go of %s."}}
	for _, c := range []struct {
		e    trace.Event
		want string
	}{
		{trace.Event{Kind: trace.KLWAcquire, Site: 1}, "A takes L to look."},
		{trace.Event{Kind: trace.KLWAcquire, Site: 2, Arg: uint64(lwlock.Exclusive)}, "A takes L exclusively."},
		{trace.Event{Kind: trace.KLWRelease, Site: 2}, "A lets go of L."},
		{trace.Event{Kind: trace.KLWRelease, Site: 1}, "A releases L."},
		{trace.Event{Kind: trace.KLWWait, Site: 1, Before: x.HolderWord()}, "A must wait for L: B holds it exclusively."},
		{trace.Event{Kind: trace.KLWCondFail, Site: 1, Before: x.HolderWord()}, "A does not get L without waiting: B holds it exclusively."},
	} {
		if got := w.Caption(c.e, c.e.Site, "A", "L", name); got != c.want {
			t.Errorf("%s at %d: %q, want %q", c.e.Kind, c.e.Site, got, c.want)
		}
	}
}
