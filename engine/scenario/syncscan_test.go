package scenario

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"bufferlab/engine/bufmgr"
)

// residentBlocks lists the main-fork blocks of rel in the pool, ascending.
func residentBlocks(r *Runner, rel string) []int {
	var out []int
	for _, m := range r.Pool().MappingEntries() {
		if r.RelName(m.Tag.RelNode) == rel && m.Tag.ForkNum == bufmgr.MainForkNum {
			out = append(out, int(m.Tag.BlockNum))
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// Synchronized scans (syncscan.c): A's cursor pauses after 18 pages of a
// 20-block table (over NBuffers/4 = 4 blocks), having reported its
// position at page 16; B's whole scan then starts at block 16, and reports
// 16 again when it wraps back there. With synchronize_seqscans=off B
// starts at block 0.
func TestSyncScanStartsAtReportedLocation(t *testing.T) {
	src := `config shared_buffers=16 synchronize_seqscans=%s
relation big blocks=20
backend A: scan big pages=18
run
expect backend A pins=big/17
backend B: scan big
run
backend A: release all
run
`
	for _, c := range []struct {
		on        string
		initLine  string
		syncLine  string
		lastReads string
	}{
		{"on", "B   op            scan.init                rel big: 20 blocks, ring 2, starts at block 16",
			"B   load          scan.sync-start          rel big: shared scan location 16, start at block 16", "B read big/14, B read big/15"},
		{"off", "B   op            scan.init                rel big: 20 blocks, ring 2\n", "", "B read big/18, B read big/19"},
	} {
		r, out, err := Run("sync.scn", fmt.Sprintf(src, c.on), true)
		if err != nil {
			t.Fatalf("synchronize_seqscans=%s: %v", c.on, err)
		}
		if !strings.Contains(out, c.initLine) {
			t.Errorf("synchronize_seqscans=%s: no %q in\n%s", c.on, c.initLine, out)
		}
		if c.syncLine != "" && !strings.Contains(out, c.syncLine) {
			t.Errorf("synchronize_seqscans=%s: no %q", c.on, c.syncLine)
		}
		if c.on == "off" && strings.Contains(out, "scan.sync") {
			t.Errorf("synchronize_seqscans=off: sync-scan events in the trace")
		}
		// The last two blocks B read (its ring keeps them): 14 and 15
		// when it started at 16 and wrapped, 18 and 19 from block 0.
		var reads []string
		for _, e := range r.Log().Events() {
			if e.Actor == 2 && e.Site.String() == "read.begin" {
				reads = append(reads, "B read "+bufmgr.TagString(bufmgr.UnpackTag(e.Arg), r.RelName))
			}
		}
		if got := strings.Join(reads[len(reads)-2:], ", "); got != c.lastReads {
			t.Errorf("synchronize_seqscans=%s: B's last reads %s, want %s", c.on, got, c.lastReads)
		}
		if loc, ok := r.Pool().SyncScanLocation(r.rels["big"]); c.on == "on" && (!ok || loc != 16) {
			t.Errorf("synchronize_seqscans=on: location after B's scan %d, %v; want 16 (a whole scan reports its start last)", loc, ok)
		}
	}
}

// The measured case of issue 13 (PostgreSQL 15.18, shared_buffers=16MB): a
// 520-block table, A's cursor paused on block 99, then B's whole scan. A's
// ring holds 68–99; B starts at A's last report, 96, and its ring ends
// with the 32 blocks before it, 36–67: the server's 64 buffers, 36–99.
func TestSyncScanMeasuredCase(t *testing.T) {
	for _, c := range []struct {
		on   string
		want [][2]int // the runs of resident blocks, first and last
	}{
		{"on", [][2]int{{36, 99}}},
		{"off", [][2]int{{68, 99}, {488, 519}}},
	} {
		src := "config shared_buffers=16MB synchronize_seqscans=" + c.on + `
relation t blocks=520
backend A: scan t pages=100
run
backend B: scan t
run
`
		r := mustRun(t, "measured.scn", src, false)
		var want []int
		for _, run := range c.want {
			for b := run[0]; b <= run[1]; b++ {
				want = append(want, b)
			}
		}
		if got := residentBlocks(r, "t"); !slices.Equal(got, want) {
			t.Errorf("synchronize_seqscans=%s: resident blocks %v, want the runs %v", c.on, got, c.want)
		}
	}
}

// The location list is an LRU of SYNC_SCAN_NELEM = 20 relations: after
// scans of 21 other big relations, the first one's entry is gone and a
// new scan of it starts at 0 again.
func TestSyncScanLRU(t *testing.T) {
	var b strings.Builder
	b.WriteString("config shared_buffers=16\nrelation big blocks=40\nrelation o blocks=5 count=21\n")
	b.WriteString("backend A: scan big pages=20\nrun\nbackend A: release all\nrun\n")
	for i := 0; i < 21; i++ {
		fmt.Fprintf(&b, "backend A: scan o%d\nrun\n", i)
	}
	r := mustRun(t, "lru.scn", b.String(), false)
	if _, ok := r.Pool().SyncScanLocation(r.rels["big"]); ok {
		t.Fatalf("big's scan location survived 21 scans of other relations")
	}
	if loc, ok := r.Pool().SyncScanLocation(r.rels["o1"]); !ok || loc != 0 {
		t.Fatalf("o1's location %d, %v; want 0 (a whole scan from 0 reports 0 last)", loc, ok)
	}
}
