package scenario

import (
	"testing"

	"bufferlab/engine/fsm"
)

// PostgreSQL 15 against 16 side by side (config pg=15,16): four backends
// insert rows of 3000 bytes (two a page) at once. At 15 the heap grows a
// page at a time, the extension lock always granted; at 16 a backend that
// finds others holding or awaiting the extension lock extends by one page
// for each of them too (RelationAddBlocks) and records the extra pages in
// the FSM, where the others find them: fewer extensions of more pages.
func TestPG16BulkExtensionSideBySide(t *testing.T) {
	src := `config shared_buffers=128MB fsm=always pg=15,16
relation t heap
backend A: insert t 6 size=3000
backend B: insert t 6 size=3000
backend C: insert t 6 size=3000
backend D: insert t 6 size=3000
run
expect heap t rows=24
`
	rs := runVariants(t, src)
	if len(rs) != 2 {
		t.Fatalf("%d panes, want 2", len(rs))
	}
	type counts struct{ calls, pages, bulk int }
	var got []counts
	for _, r := range rs {
		var c counts
		for _, e := range r.Log().Events() {
			switch e.Site.String() {
			case "hio.extend":
				c.calls++
				c.pages++
			case "extend.fork":
				_, b := fsm.UnpackForkWord(e.Before)
				_, a := fsm.UnpackForkWord(e.After)
				c.calls++
				c.pages += int(a - b)
				if a-b > 1 {
					c.bulk++
				}
			}
		}
		if h, _ := r.FSM().HeapOf(r.rels["t"].Number); int(h.NBlocks()) != c.pages {
			t.Errorf("pg=%s: %d blocks, %d pages extended", r.PG(), h.NBlocks(), c.pages)
		}
		t.Logf("pg=%s: %d extensions, %d pages, %d of more than one page (%v)", r.PG(), c.calls, c.pages, c.bulk,
			r.Variant())
		got = append(got, c)
	}
	// 24 rows of 3000 bytes take 12 pages; at 15 one more here, as two
	// backends each extend while the other's new page still has room.
	if got[0].bulk != 0 || got[0].calls != got[0].pages || got[0].pages != 13 {
		t.Errorf("pg=15: %+v, want 13 extensions of one page", got[0])
	}
	// At 16: 9 extensions, 4 of them of several pages, 16 pages in all.
	if got[1] != (counts{calls: 9, pages: 16, bulk: 4}) {
		t.Errorf("pg=16: %+v, want 9 extensions, 4 of several pages, 16 pages", got[1])
	}
	if got[1].bulk == 0 || got[1].calls >= got[0].calls {
		t.Errorf("pg=16: %+v, want fewer extensions than 15's %d, some of several pages", got[1], got[0].calls)
	}
}
