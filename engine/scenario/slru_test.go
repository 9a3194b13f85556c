package scenario

import (
	"strings"
	"testing"
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

func TestSLRUParseErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"config slru=lots", "1:8: slru: expected single, banks, banks+hash or several in pane order (banks,banks+hash), found \"lots\""},
		{"config bank_size=16", "1:8: bank_size: applies to the commit log's SLRU: expected slru=single|banks|banks+hash too"},
		{"config slru=banks slru_buffers=40", "1:1: slru:"},
		{"config slru=banks bank_size=3", "1:1: slru:"},
		{"backend A: clog get 5", "1:12: clog: the scenario has no SLRU"},
		{"config slru=banks\nbackend A: clog fetch 5", "2:17: clog: unknown operation \"fetch\""},
		{"config slru=banks\nbackend A: clog get x", "2:17: clog: get: transaction id \"x\""},
		{"config slru=banks\nbackend A: clog", "2:16: clog: empty operation"},
		{"expect slru hits=1", "1:8: expect slru: the scenario has no SLRU"},
		{"config slru=banks\nexpect page x slot=1", "2:13: page: expected a non-negative integer"},
		{"config slru=banks\nexpect slru lookups=1", "2:13: expect slru: expected KEY=VALUE with KEY one of"},
		{"show slru", "1:6: show slru: the scenario has no SLRU"},
	} {
		_, err := Parse("f.scn", c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n got  %v\n want …%s", c.src, err, c.want)
		}
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
		s, err := Parse("sum.scn", src)
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewRunner(s, true)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.RunAll(); err != nil {
			t.Fatal(err)
		}
		if got := r.Summarize(r.Log().Events()); got != c.want {
			t.Errorf("slru=%s: summary\n%s\nwant\n%s", c.variant, got, c.want)
		}
	}
}
