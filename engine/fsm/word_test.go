package fsm

import (
	"testing"

	"pgregory.net/rapid"
)

// A page word says everything a viewer needs about a heap page: its
// unpacked free space, category, line pointers and flags are the page's
// own, through inserts, deletes and VACUUM, up to MaxHeapTuplesPerPage
// line pointers (where PageGetHeapFreeSpace turns to 0).
func TestHeapWordMatchesPage(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, p HeapPage) {
		i := UnpackHeapWord(p.Word())
		if i.Lower != p.Lower || i.Upper != p.Upper || i.AllVisible != p.AllVisible || i.HasFreeLines != p.HasFreeLines {
			t.Fatalf("word %+v of page lower %d upper %d", i, p.Lower, p.Upper)
		}
		if i.FreeSpace() != p.HeapFreeSpace() || i.IsNew() != p.IsNew() || i.Category() != SpaceAvailToCat(p.HeapFreeSpace()) {
			t.Fatalf("word %+v: free %d, page %d", i, i.FreeSpace(), p.HeapFreeSpace())
		}
		if !p.IsNew() && i.LinePointers() != len(p.Items) {
			t.Fatalf("word %+v: %d line pointers, page %d", i, i.LinePointers(), len(p.Items))
		}
		if i.Live != p.Live() {
			t.Fatalf("word %+v: %d live, page %d", i, i.Live, p.Live())
		}
	}
	rapid.Check(t, func(rt *rapid.T) {
		var p HeapPage
		check(rt, p)
		p.Init()
		check(rt, p)
		for n := rapid.IntRange(1, 400).Draw(rt, "ops"); n > 0; n-- {
			switch rapid.IntRange(0, 9).Draw(rt, "op") {
			case 0:
				p.vacuum()
			case 1, 2:
				if len(p.Items) > 0 {
					k := rapid.IntRange(0, len(p.Items)-1).Draw(rt, "victim")
					if p.Items[k].Flags == LPNormal {
						p.Items[k].Deleted = true
					}
				}
			case 3:
				p.AllVisible = !p.AllVisible
			default:
				p.AddItem(rapid.SampledFrom([]int{24, 28, 40, 200}).Draw(rt, "len"))
			}
			check(rt, p)
		}
	})
	// A page full of line pointers: free space 0 until one is unused.
	var p HeapPage
	p.Init()
	for p.AddItem(24) != 0 {
	}
	if len(p.Items) != MaxHeapTuplesPerPage || p.HeapFreeSpace() != 0 || UnpackHeapWord(p.Word()).FreeSpace() != 0 {
		t.Fatalf("%d pointers, free %d", len(p.Items), p.HeapFreeSpace())
	}
	p.Items[5].Deleted = true
	p.vacuum()
	if i := UnpackHeapWord(p.Word()); i.FreeSpace() != p.HeapFreeSpace() || i.FreeSpace() == 0 || i.Unused() != 1 {
		t.Fatalf("after VACUUM: word %+v free %d, page %d", i, i.FreeSpace(), p.HeapFreeSpace())
	}
}

func TestForkWord(t *testing.T) {
	for _, c := range []struct {
		exists bool
		n      uint32
	}{{false, 0}, {true, 0}, {true, 3}, {true, MaxFSMBlocks}, {true, MaxBlockNumber + 1}} {
		if e, n := UnpackForkWord(ForkWord(c.exists, c.n)); e != c.exists || n != c.n {
			t.Errorf("ForkWord(%v, %d) unpacks as %v, %d", c.exists, c.n, e, n)
		}
	}
}
