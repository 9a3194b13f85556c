package fsm

import (
	"testing"

	"pgregory.net/rapid"
)

// linearSearchAvail is the reference for fsm_search_avail on a consistent
// page: the first slot at or after the start (fp_next_slot, 0 when out of
// range) whose value is at least min, wrapping around; -1 if none.
func linearSearchAvail(p *Page, minValue uint8) int {
	start := int(p.NextSlot())
	if start < 0 || start >= SlotsPerFSMPage {
		start = 0
	}
	for i := 0; i < SlotsPerFSMPage; i++ {
		s := (start + i) % SlotsPerFSMPage
		if p.GetAvail(s) >= minValue {
			return s
		}
	}
	return -1
}

// genPage draws a page: how many slots are set (often few, sometimes
// many), their values, how it is built (SetAvail one by one, or leaves
// then a rebuild), and fp_next_slot (sometimes out of range).
func genPage(t *rapid.T) *Page {
	p := &Page{}
	n := rapid.OneOf(rapid.IntRange(0, 8), rapid.IntRange(0, 200), rapid.IntRange(0, SlotsPerFSMPage)).Draw(t, "nset")
	byRebuild := rapid.Bool().Draw(t, "byRebuild")
	maxv := rapid.SampledFrom([]int{1, 8, 64, 255}).Draw(t, "maxv")
	for i := 0; i < n; i++ {
		slot := rapid.IntRange(0, SlotsPerFSMPage-1).Draw(t, "slot")
		v := uint8(rapid.IntRange(0, maxv).Draw(t, "v"))
		if byRebuild {
			p.nodes[NonLeafNodesPerPage+slot] = v
		} else {
			p.SetAvail(slot, v)
		}
	}
	if byRebuild {
		p.Rebuild()
	}
	p.SetNextSlot(int32(rapid.IntRange(-3, SlotsPerFSMPage+3).Draw(t, "next")))
	return p
}

// fsm_search_avail against a linear scan of the leaves: same slot (or -1),
// fp_next_slot moved to slot (+1 with advancenext), unchanged on a miss.
func TestSearchAvailMatchesLinearScan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genPage(t)
		if !p.Consistent() {
			t.Fatal("a page built by SetAvail/Rebuild is not consistent")
		}
		if root, want := p.MaxAvail(), maxLeaf(p); root != want {
			t.Fatalf("root %d, max leaf %d", root, want)
		}
		minv := uint8(rapid.IntRange(1, 255).Draw(t, "min"))
		adv := rapid.Bool().Draw(t, "advancenext")
		want := linearSearchAvail(p, minv)
		oldNext := p.NextSlot()
		got, rep := p.searchAvail(nil, minv, adv, nil)
		if got != want || rep != 0 {
			t.Fatalf("search for %d from %d: slot %d (repairs %d), linear scan %d", minv, oldNext, got, rep, want)
		}
		switch {
		case got < 0 && p.NextSlot() != oldNext:
			t.Fatalf("a miss moved fp_next_slot %d -> %d", oldNext, p.NextSlot())
		case got >= 0 && adv && p.NextSlot() != int32(got+1), got >= 0 && !adv && p.NextSlot() != int32(got):
			t.Fatalf("slot %d, advancenext %v: fp_next_slot %d", got, adv, p.NextSlot())
		}
	})
}

// A torn page whose inner nodes promise more than their children have:
// the search still returns what a linear scan does, rebuilding the page
// when it runs into a broken promise.
func TestSearchAvailRepairsTornPages(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genPage(t)
		ntorn := rapid.IntRange(1, 40).Draw(t, "ntorn")
		for i := 0; i < ntorn; i++ {
			n := rapid.IntRange(0, NonLeafNodesPerPage-1).Draw(t, "node")
			if rapid.Bool().Draw(t, "onPath") {
				// Tear along a path from the root, where searches go.
				n = rapid.IntRange(0, 11).Draw(t, "depth")
				n = (1 << n) - 1 + rapid.IntRange(0, (1<<n)-1).Draw(t, "pos")
			}
			v := rapid.IntRange(int(p.Node(n)), 255).Draw(t, "v")
			p.SetNode(n, uint8(v))
		}
		minv := uint8(rapid.IntRange(1, 255).Draw(t, "min"))
		want := linearSearchAvail(p, minv)
		got, rep := p.searchAvail(nil, minv, true, nil)
		if got != want {
			t.Fatalf("torn page, search for %d: slot %d (repairs %d), linear scan %d", minv, got, rep, want)
		}
		if rep > 0 && !p.Consistent() {
			t.Fatal("the page is still torn after a repair")
		}
	})
}

// fsm_set_avail keeps a consistent page consistent, and on a page whose
// upper nodes are too low (torn) it still leaves the root at least the
// new value: propagation, or the rebuild when the root did not take it.
func TestSetAvailPropagatesOrRebuilds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genPage(t)
		torn := rapid.Bool().Draw(t, "torn")
		if torn {
			for i := rapid.IntRange(1, 20).Draw(t, "ntorn"); i > 0; i-- {
				n := rapid.IntRange(0, NonLeafNodesPerPage-1).Draw(t, "node")
				p.SetNode(n, uint8(rapid.IntRange(0, int(p.Node(n))).Draw(t, "v")))
			}
		}
		slot := rapid.IntRange(0, SlotsPerFSMPage-1).Draw(t, "slot")
		v := uint8(rapid.IntRange(0, 255).Draw(t, "value"))
		p.SetAvail(slot, v)
		if p.GetAvail(slot) != v {
			t.Fatalf("slot %d = %d after setting %d", slot, p.GetAvail(slot), v)
		}
		if p.MaxAvail() < v {
			t.Fatalf("root %d below the value %d just set", p.MaxAvail(), v)
		}
		if !torn && (!p.Consistent() || p.MaxAvail() != maxLeaf(p)) {
			t.Fatal("SetAvail broke a consistent page")
		}
	})
}

func maxLeaf(p *Page) uint8 {
	var m uint8
	for s := 0; s < SlotsPerFSMPage; s++ {
		m = max(m, p.GetAvail(s))
	}
	return m
}

// The example of fsmpage.c's comment, on a tree of 8 leaves: searching
// for 6 from the leaf marked T (the fifth, value 2) steps right and up to
// the rightmost 5, then wraps and climbs to a 7, and returns the first
// suitable leaf to the right of T allowing for wraparound.
func TestSearchAvailCommentExample(t *testing.T) {
	p := &Page{}
	// Place the 8 leaves at slots 0..7 and keep the rest 0: the
	// climb covers them before reaching zeros.
	for i, v := range []uint8{4, 5, 5, 7, 2, 6, 5, 2} {
		p.SetAvail(i, v)
	}
	p.SetNextSlot(4)
	if got := p.SearchAvail(6, false); got != 5 {
		t.Fatalf("from slot 4 for 6: slot %d, want 5", got)
	}
	p.SetNextSlot(6)
	if got := p.SearchAvail(7, false); got != 3 {
		t.Fatalf("from slot 6 for 7 (wrapping): slot %d, want 3", got)
	}
	if got := p.SearchAvail(8, false); got != -1 || p.NextSlot() != 3 {
		t.Fatalf("for 8: slot %d, fp_next_slot %d; want -1 and 3", got, p.NextSlot())
	}
}

func TestTruncateAvail(t *testing.T) {
	p := &Page{}
	p.SetAvail(0, 10)
	p.SetAvail(100, 200)
	if !p.TruncateAvail(50) || p.GetAvail(100) != 0 || p.MaxAvail() != 10 || !p.Consistent() {
		t.Fatalf("after truncating at 50: slot 100 = %d, root %d", p.GetAvail(100), p.MaxAvail())
	}
	if p.TruncateAvail(50) {
		t.Fatal("a second truncation changed the page")
	}
}
