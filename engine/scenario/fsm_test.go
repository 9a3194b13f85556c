package scenario

import (
	"errors"
	"strings"
	"testing"
)

// The seed 002 table in the scenario language: a one-row heap is
// vacuumed (which creates the 3-page FSM under PostgreSQL 15, and nothing
// under the small-table skip), then filled to 4 pages at fillfactor 20
// (44 rows of one int per page); the insert reads FSM pages only in the
// first variant.
func TestFSMScenario(t *testing.T) {
	src := `config shared_buffers=128MB fsm=%s
relation t heap fillfactor=20
backend A: insert t; vacuum t
run
expect heap t blocks=1 rows=1 fsm_blocks=%s
backend B: insert t 150
run
expect heap t blocks=4 rows=151
expect backend B ctid=3.19
expect fsm fsm_reads=%s pages_tried=%t
`
	for _, c := range []struct{ variant, fsmBlocks, fsmReads, tried string }{
		{"always", "3", "20", "3"},
		{"small-skip", "0", "0", "4"},
	} {
		s := strings.Replace(src, "fsm=%s", "fsm="+c.variant, 1)
		s = strings.Replace(s, "fsm_blocks=%s", "fsm_blocks="+c.fsmBlocks, 1)
		s = strings.Replace(s, "fsm_reads=%s", "fsm_reads="+c.fsmReads, 1)
		s = strings.Replace(s, "pages_tried=%t", "pages_tried="+c.tried, 1)
		r, _, err := Run("fsm.scn", s, true)
		if err != nil {
			t.Fatalf("%s: %v", c.variant, err)
		}
		if r.FSM() == nil {
			t.Fatal("no FSM store")
		}
	}
}

// The summary writes one line per finished insert, delete and VACUUM with
// the pages it read by fork, and `show heap` prints the heaps and what
// the map records for each page.
func TestSummarizeAndShowHeap(t *testing.T) {
	src := "config shared_buffers=128MB fsm=always\nrelation t heap fillfactor=20\n" +
		"backend A: insert t; vacuum t\nrun\nbackend B: insert t 45\nrun\nshow heap\n"
	r, outs := runVariant(t, src, 0)
	out := outputText(outs, func(st Stmt) bool {
		_, show := st.(*ShowStmt)
		return show
	})
	sum := strings.Split(r.Summarize(r.Log().Events()), "\n")
	want := map[int]string{
		0:  "  A insert t -> (0,1): 1 heap page read, 1 page added",
		1:  "  A vacuum t: 0 -> 1 pages: 1 heap page read, 4 FSM page reads, 2 visibility map reads, FSM fork created",
		2:  "  B insert t -> (0,2): 1 heap page read, 3 FSM page reads, 1 visibility map read",
		45: "  B insert t -> (1,1): 2 heap page reads, 9 FSM page reads, 1 page found too full, 1 page added",
	}
	for i, w := range want {
		if i >= len(sum) || sum[i] != w {
			got := "(none)"
			if i < len(sum) {
				got = sum[i]
			}
			t.Errorf("summary line %d: %q, want %q", i, got, w)
		}
	}
	for _, w := range []string{"heap t: 2 pages, fillfactor 20, relpages 1, FSM fork 3 pages",
		"  blk 0     44 rows   6580 B free (category 205)  map 205"} {
		if !strings.Contains(out, w+"\n") {
			t.Errorf("show heap: no line %q in\n%s", w, out)
		}
	}
}

// Lesson 5's point, pinned: a page that takes no more rows at fillfactor 20
// is recorded with its real free space (6580 B, category 205, as
// RecordAndGetPageWithFreeSpace in hio.c passes pageFreeSpace), not 0; the
// insert wants 32 + 6553 = 6585 B, category 206, so no page at 205
// qualifies and the table grows. A wrong expectation must fail.
func TestFSMFullPageRecordsRealFreeSpace(t *testing.T) {
	base := "config shared_buffers=128MB fsm=always\nrelation t heap fillfactor=20\n" +
		"backend A: insert t; vacuum t\nrun\nbackend B: insert t 150\nrun\n"
	ok := base + "expect heap t page=0 rows=44 free=6580 category=205 map=205\n" +
		"expect heap t page=3 rows=19\nexpect heap t blocks=4\n"
	if _, _, err := Run("ff.scn", ok, true); err != nil {
		t.Fatalf("the lesson's numbers: %v", err)
	}
	for _, bad := range []string{"expect heap t page=0 map=0", "expect heap t page=1 free=0", "expect heap t page=2 category=206"} {
		_, _, err := Run("ff.scn", base+bad+"\n", true)
		var se *Error
		if !errors.As(err, &se) || !se.Check {
			t.Errorf("%s: want a failed expect, got %v", bad, err)
		}
	}
	for _, c := range []struct{ src, want string }{
		{"expect heap t free=1", "7:15: expect heap: free= needs page=B"},
		{"expect heap t page=1 page=2 rows=1", "7:22: expect heap: page= is given twice"},
		{"expect heap t page=x rows=1", "7:15: page: expected"},
		{"expect heap t page=0 blocks=1", "7:22: expect heap page=0: blocks is not a key of one page"},
		{"expect heap t page=9 rows=0", "7:22: expect heap t page=9 rows: expected 0, the engine has (page 9 is past the heap's 4 pages)"},
	} {
		_, _, err := Run("ff.scn", base+c.src+"\n", true)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want …%s", c.src, err, c.want)
		}
	}
}

// Lesson 6's point, pinned: under the small-table skip the FSM is not
// created by VACUUM alone nor by adding a fifth page, but by the first
// insert that finds its target page too full on a heap of more than 4
// pages (RecordAndGetPageWithFreeSpace passes fsm_allow_writes once heapBlk
// is 4). 220 one-int rows at fillfactor 20 fill 5 pages with no fork; the
// 221st finds page 4 too full and creates it.
func TestSmallSkipInsertCreatesFSMPastThreshold(t *testing.T) {
	base := "config shared_buffers=128MB fsm=small-skip\nrelation t heap fillfactor=20\n" +
		"backend A: insert t; vacuum t\nrun\nbackend B: insert t 219\nrun\n"
	before := base + "expect heap t blocks=5 fsm_exists=no\n"
	if _, _, err := Run("skip.scn", before, true); err != nil {
		t.Fatalf("before the 221st row: %v", err)
	}
	after := base + "backend B: insert t\nrun\nexpect heap t blocks=6 fsm_exists=yes fsm_blocks=3\n" +
		"expect heap t page=4 map=205\nexpect heap t page=3 map=0\n"
	if _, _, err := Run("skip.scn", after, true); err != nil {
		t.Fatalf("the 221st row: %v", err)
	}
}
