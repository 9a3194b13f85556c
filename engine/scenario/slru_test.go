package scenario

import (
	"runtime"
	"strings"
	"testing"

	"bufferlab/internal/testmem"
)

// The commit log in scenarios: xid 100000 is on page 3 (byte 424), page 3
// maps to bank 1 of 2 (32 slots at 128MB), the first lookup misses and
// reads the page, the second (from another backend, waiting for the read)
// hits; setting a status dirties the page; expectations read the SLRU.
func TestSLRUScenario(t *testing.T) {
	src := `config shared_buffers=128MB slru=banks clog_pages=8
backend A: clog get 100000
backend B: clog get 100001
run
expect slru reads=1 hits=1 latest=7
expect page 3 slot=16 status=VALID dirty=no
expect page 4 slot=none
backend A: clog set 100000 committed
run
expect page 3 dirty=yes
backend A: clog get 100000
run
show slru
`
	r, out, err := Run("clog.scn", src, true)
	if err != nil {
		t.Fatal(err)
	}
	if r.SLRU() == nil || r.SLRU().NumBanks() != 2 || r.SLRU().NumSlots() != 32 {
		t.Fatalf("SLRU %v", r.SLRU())
	}
	for _, want := range []string{"get 100000 -> in-progress", "get 100000 -> committed", "byte 424", "16  page 3"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The same lookups on PostgreSQL 16's single SLRU: one lock, one
	// search over all 32 slots (CLOGShmemBuffers at 128MB); page 3 takes
	// the first empty slot, slot 0.
	single := "config shared_buffers=128MB slru=single clog_pages=8\nbackend A: clog get 100000\nbackend B: clog get 100001\nrun\nexpect page 3 slot=0\nexpect slru reads=1 hits=1\n"
	if r, _, err = Run("clog16.scn", single, true); err != nil {
		t.Fatal(err)
	}
	if r.SLRU().NumBanks() != 1 || r.SLRU().NumSlots() != 32 {
		t.Fatalf("single: %d banks, %d slots", r.SLRU().NumBanks(), r.SLRU().NumSlots())
	}
}

// Summarize writes one line per finished clog operation, from the SLRU's
// own events, and none of them as a buffer-pool read.
func TestSummarizeSLRU(t *testing.T) {
	for _, c := range []struct{ variant, want string }{
		{"banks", "  A clog get 100000 -> in-progress: page 3 miss, slot 16 taken, 32 slots compared\n" +
			"  A clog get 100001 -> in-progress: page 3 hit in slot 16, 1 slot compared\n"},
		{"banks+hash", "  A clog get 100000 -> in-progress: page 3 miss, slot 16 taken, 2 hash probes\n" +
			"  A clog get 100001 -> in-progress: page 3 hit in slot 16, 1 hash probe\n"},
	} {
		src := "config shared_buffers=128MB slru=" + c.variant + " clog_pages=40\nbackend A: clog get 100000; clog get 100001\nrun\n"
		r, _ := runVariant(t, src, 0)
		if got := r.Summarize(r.Log().Events()); got != c.want {
			t.Errorf("slru=%s: summary\n%s\nwant\n%s", c.variant, got, c.want)
		}
	}
}

// clog_pages is bounded by PostgreSQL's own limit: pg_xact holds at most
// 131072 pages (2^32 transaction ids / CLOG_XACTS_PER_PAGE), 4096
// segments; the message names the limit and where it comes from.
func TestSLRUClogPagesBound(t *testing.T) {
	if _, err := Parse("f.scn", "config slru=banks clog_pages=131072\n"); err != nil {
		t.Errorf("the largest pg_xact was refused: %v", err)
	}
	for _, c := range []struct{ src, at string }{
		{"config slru=banks clog_pages=131073", "1:19"}, {"config slru=banks clog_pages=1048576", "1:19"},
		{"config slru=single clog_pages=99999999999999999999999", "1:20"},
	} {
		src := c.src
		_, err := Parse("f.scn", src)
		if err == nil {
			t.Errorf("%q accepted", src)
			continue
		}
		for _, want := range []string{c.at + ": clog_pages: ", "is too large: pg_xact holds at most 131072 pages", "CLOG_XACTS_PER_PAGE = 32768", "clog.c", "4096 segments"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%q: %v\n  lacks %q", src, err, want)
			}
		}
	}
}

// A scenario with the largest pg_xact that touches a few pages takes
// memory for those pages, not for all 131072 (which, 8kB each, would be a
// gigabyte): the simulated disk keeps only the pages written.
func TestSLRUClogPagesMemory(t *testing.T) {
	src := `config shared_buffers=128MB slru=banks clog_pages=131072
backend A: clog get 100000
backend A: clog set 100000 committed
backend B: clog get 4294967000
backend B: clog set 4294967000 aborted
backend A: clog write-all
run
expect page 3 status=VALID
expect page 131071 status=VALID
`
	h0 := testmem.HeapInUse()
	r := mustRun(t, "big.scn", src, false)
	used := int64(testmem.HeapInUse()) - int64(h0)
	if used > 50<<20 {
		t.Errorf("a run with clog_pages=131072 touching 2 pages holds %d MB", used>>20)
	}
	if segs := r.SLRU().Disk().Segments(); len(segs) != 4096 || segs[0] != 0 || segs[4095] != 0xFFF {
		t.Errorf("pg_xact has %d segments, want 0000..0FFF", len(segs))
	}
	if n, ok := r.SLRU().Disk().FileSize(0xFFF); !ok || n != 32*8192 {
		t.Errorf("segment 0FFF is %d bytes (exists %v), want 32 pages", n, ok)
	}
	runtime.KeepAlive(r)
}
