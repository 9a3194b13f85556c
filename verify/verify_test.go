package verify

import (
	"strings"
	"testing"

	"bufferlab/engine/fsm"
)

// The server-side runs of every check are in cmd/bufferlab's
// verify_test.go (they need a PostgreSQL server); these test the pieces
// that need none.

func TestChecksAreNamedOnce(t *testing.T) {
	seen := map[string]bool{}
	cs := Checks()
	if len(cs) < 15 {
		t.Fatalf("%d checks, want at least 15", len(cs))
	}
	readOnly := 0
	for _, c := range cs {
		if c.Name == "" || c.What == "" || c.run == nil || seen[c.Name] {
			t.Errorf("check %q: what %q, run %v, seen %v", c.Name, c.What, c.run != nil, seen[c.Name])
		}
		seen[c.Name] = true
		if !c.Writes && !c.OwnOnly {
			readOnly++
		}
	}
	if readOnly < 3 {
		t.Errorf("%d read-only checks for --dsn", readOnly)
	}
}

// SimpleLruShmemSize of PG 9.6–16: 529152 bytes at 32 slots (the
// reference sheet's fact 17, shared_buffers 128MB) and 66240 at 4
// (16MB, what pg_shmem_allocations showed on PostgreSQL 15.18).
func TestXactShmemSize(t *testing.T) {
	for slots, want := range map[int]int{32: 529152, 4: 66240} {
		if got := xactShmemSize(slots); got != want {
			t.Errorf("%d slots: %d bytes, want %d", slots, got, want)
		}
	}
}

// pageContents prints what pageinspect's fsm_page_contents prints.
func TestPageContents(t *testing.T) {
	var p fsm.Page
	p.SetAvail(0, 254)
	got := pageContents(p)
	want := "0: 254\n1: 254\n3: 254\n7: 254\n15: 254\n31: 254\n63: 254\n127: 254\n255: 254\n511: 254\n1023: 254\n2047: 254\n4095: 254\nfp_next_slot: 0\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if s := contentsSummary(got); s != "13 nodes, root 254, next 0" {
		t.Errorf("summary %q", s)
	}
}

func TestBlockRuns(t *testing.T) {
	got := blockRuns([]string{"(0,1)", "(0,2)", "(1,1)", "(0,3)"})
	if got != "4 rows: 0×2 1×1 0×1" {
		t.Errorf("blockRuns = %q", got)
	}
	if d := firstDiff("a\nb", "a\nc"); !strings.Contains(d, "line 2") {
		t.Errorf("firstDiff = %q", d)
	}
}

// Each check runs only against the PostgreSQL versions its engine side
// models, and says so when it does not: a 15 server runs every check, a
// 17 server the ones that hold through 17 (the 256kB ring, the usage cap,
// NBuffers), and an 18 server skips the ring, whose size 18 computes
// otherwise.
func TestVersionSkip(t *testing.T) {
	byName := map[string]Check{}
	for _, c := range Checks() {
		byName[c.Name] = c
		if first, last := c.versions(); first < 15 || last < first {
			t.Errorf("%s: versions %d to %d", c.Name, first, last)
		}
		if why := versionSkip(c, 150018, "15.18"); why != "" {
			t.Errorf("%s is skipped on PostgreSQL 15: %s", c.Name, why)
		}
	}
	for _, c := range []struct {
		check, version string
		num            int
		want           string
	}{
		{"bulkread-ring", "17.9", 170009, ""},
		{"usage-cap-catalog", "18.4", 180004, ""},
		{"bulkread-ring", "18.4", 180004, "the server is PostgreSQL 18.4; this check's engine side models PostgreSQL 15 to 17"},
		{"xact-slru-size", "17.9", 170009, "the server is PostgreSQL 17.9; this check's engine side models PostgreSQL 15 to 16"},
		{"fsm-one-row", "16.2", 160002, "the server is PostgreSQL 16.2; this check's engine side models PostgreSQL 15"},
	} {
		chk, ok := byName[c.check]
		if !ok {
			t.Fatalf("no check %s", c.check)
		}
		if got := versionSkip(chk, c.num, c.version); got != c.want {
			t.Errorf("%s on %s: %q, want %q", c.check, c.version, got, c.want)
		}
	}
}
