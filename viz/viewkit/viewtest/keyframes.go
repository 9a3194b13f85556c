package viewtest

import (
	"math/rand/v2"
	"testing"

	"bufferlab/engine/trace"
)

// Keyframes checks a view the way a player keeps it, written out by hand
// (the seek test drives timeline.Timeline instead): fresh, the view before
// the log evs, applies the whole log live, taking a Snapshot before every
// k-th event and trimming the live history to k/2 after it; then it seeks
// seeks random positions (a clone of the nearest keyframe at or before,
// applied forward) and steps back up to 5 events from each with Unapply.
// Every position must have the live view's fingerprint and Applied there,
// every keyframe no history and its fingerprint as taken; the live view
// must then undo exactly what its trimmed history keeps, each event back
// to the state before it, and no more. It costs a Fingerprint per event.
func Keyframes[S View[S]](t *testing.T, fresh S, evs []trace.Event, k, seeks int) {
	t.Helper()
	p := &played[S]{events: evs, init: fresh.Snapshot()}
	live := fresh
	var keys []S
	applied := []int{live.Applied()}
	p.fps = []uint64{live.Fingerprint()}
	for i, e := range evs {
		if i%k == 0 {
			keys = append(keys, live.Snapshot())
		}
		live.Apply(e)
		p.fps = append(p.fps, live.Fingerprint())
		applied = append(applied, live.Applied())
		if i%k == k-1 {
			before := live.HistoryLen()
			live.TrimHistory(k / 2)
			if live.HistoryLen() != min(k/2, before) {
				t.Fatalf("history %d after TrimHistory(%d) of %d", live.HistoryLen(), k/2, before)
			}
		}
	}
	for i, key := range keys {
		if key.HistoryLen() != 0 {
			t.Fatalf("keyframe %d has history %d", i, key.HistoryLen())
		}
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for range seeks {
		pos := rng.IntN(len(evs) + 1)
		ki := min(pos/k, len(keys)-1)
		c := keys[ki].Clone()
		for _, e := range evs[ki*k : pos] {
			c.Apply(e)
		}
		if c.Fingerprint() != p.fps[pos] || c.Applied() != applied[pos] {
			t.Fatalf("seek to %d: fingerprint %#x applied %d, want %#x, %d", pos, c.Fingerprint(), c.Applied(), p.fps[pos], applied[pos])
		}
		for i := 0; i < min(pos-ki*k, 5); i++ {
			c.Unapply(evs[pos-1-i])
			if c.Fingerprint() != p.fps[pos-1-i] {
				t.Fatalf("step back to %d from %d: fingerprint differs:\n%s", pos-1-i, pos, p.differs(c, pos-1-i))
			}
		}
	}
	// The clones that wrote did not disturb the keyframes.
	for i, key := range keys {
		if key.Fingerprint() != p.fps[i*k] {
			t.Fatalf("keyframe %d changed", i)
		}
	}
	// The live view still undoes what its trimmed history keeps.
	end, pos := live.Fingerprint(), len(evs)
	for n := live.HistoryLen(); n > 0; n-- {
		var err error
		if pos, err = p.unapplyLast(live, pos); err != nil {
			t.Fatalf("the live view after trimming: %v", err)
		}
	}
	if e, ok := live.UnapplyLast(); ok {
		t.Fatalf("UnapplyLast beyond the trimmed history undid %v", e)
	}
	if pos < len(evs) && live.Fingerprint() == end {
		t.Fatal("unapplying the trimmed history did not change the fingerprint")
	}
}
