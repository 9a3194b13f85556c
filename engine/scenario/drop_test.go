package scenario

import (
	"strings"
	"testing"
)

// The drop operation in the scenario language (DROP TABLE at commit:
// DropRelFileNodesAllBuffers, for one relation as for many): auto decides
// as PostgreSQL does (the lookup in recovery below NBuffers/32 blocks, the
// scan otherwise), forced strategies are taken, count=N and PREFIX* name
// many relations, and the summary says what each drop did.
func TestDropScenario(t *testing.T) {
	src := `config shared_buffers=1MB in_recovery=%s dlist=on
relation t blocks=3
relation u blocks=4
relation r blocks=1 count=6
backend A: touch t 0..2; touch u 0..3; touch r* 0
run
expect pool in_use=13
backend S: drop t
backend S: drop u
backend S: drop r0 strategy=scan
backend S: drop r1 strategy=dlist
backend S: drop r*
run
expect pool in_use=0 free=128
`
	for _, rec := range []string{"on", "off"} {
		s := strings.Replace(src, "%s", rec, 1)
		r, err := NewRunner(mustParse(t, s), true)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.RunAll(); err != nil {
			t.Fatalf("in_recovery=%s: %v", rec, err)
		}
		sum := r.Summarize(r.Log().Events())
		wantT := "S drop t            scan (auto)"
		if rec == "on" {
			// 3 blocks < 1MB/8kB/32 = 4: the per-block lookup.
			wantT = "S drop t            lookup (auto): 3 mapping lookups, 3 buffers invalidated"
		}
		for _, want := range []string{wantT,
			"S drop u            scan (auto): 128 descriptors checked, 4 buffers invalidated", // 4 is not < 4
			"S drop r0           scan: 128 descriptors checked, 1 buffers invalidated",
			"S drop r1           dlist: 2 list hops, 1 buffers invalidated",
			"S drop 6 relations  scan (auto)"} {
			if !strings.Contains(sum, want) {
				t.Errorf("in_recovery=%s: summary lacks %q:\n%s", rec, want, sum)
			}
		}
	}
}

// truncate is VACUUM's tail truncation (DropRelFileNodeBuffers through
// smgrtruncate): under every drop= variant it removes exactly the blocks
// from N on, and the relation is N blocks long afterwards.
func TestTruncateScenario(t *testing.T) {
	src := `config shared_buffers=1MB in_recovery=on drop=scan,lookup,dlist
relation t blocks=6
relation u blocks=2
backend A: touch t 0..5; touch u 0..1
run
backend S: truncate t to 4; truncate u
run
expect pool in_use=4
expect block t 3 resident=yes
expect block t 4 resident=no
expect block u 0 resident=no
`
	for i, want := range []string{
		"S truncate t            scan: 128 descriptors checked, 2 buffers invalidated",
		"S truncate t            lookup: 2 mapping lookups, 2 buffers invalidated",
		"S truncate t            dlist: 7 list hops, 2 buffers invalidated",
	} {
		r, _ := runVariant(t, src, i)
		if sum := r.Summarize(r.Log().Events()); !strings.Contains(sum, want) {
			t.Errorf("variant %d: summary lacks %q:\n%s", i, want, sum)
		}
		for rel, n := range map[string]uint32{"t": 4, "u": 0} {
			if got := r.rels[rel].NBlocks[0]; got != n {
				t.Errorf("variant %d: %s has %d blocks after the truncation, want %d", i, rel, got, n)
			}
		}
	}
	// A truncation never extends: the second one is a positioned error.
	_, _, err := Run("t.scn", "relation t blocks=6\nbackend S: truncate t to 3\nrun\nbackend S: truncate t to 5\nrun\n", false)
	if err == nil || !strings.Contains(err.Error(), "t.scn:4:12: truncate t to 5: t has only 3 blocks now") {
		t.Fatalf("second truncation: %v", err)
	}
}
