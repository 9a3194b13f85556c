package scenario

import (
	"strings"
	"testing"
)

// The drop operation in the scenario language: auto decides as
// PostgreSQL does (the lookup in recovery below NBuffers/32 blocks, the
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

func mustParse(t *testing.T, src string) *Script {
	t.Helper()
	s, err := Parse("drop.scn", src)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestDropParseErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"relation t blocks=1\nbackend A: drop", "2:16: drop: expected a relation name"},
		{"relation t blocks=1\nbackend A: drop x", "2:17: drop: expected a relation defined above, found \"x\""},
		{"relation t blocks=1\nbackend A: drop t strategy=fast", "2:19: strategy: expected auto, scan, lookup or dlist, found \"fast\""},
		{"relation t blocks=1\nbackend A: drop t strategy=dlist", "2:19: strategy=dlist needs the per-relation lists: expected config dlist=on"},
		{"relation t blocks=1\nbackend A: drop t now=1", "2:19: drop: expected strategy=auto|scan|lookup|dlist, found \"now=1\""},
		{"relation t blocks=1\nbackend A: drop q*", "2:17: no relation defined above matches \"q*\""},
		{"relation t blocks=1\nbackend A: release t* 0", "2:20: release: expected a relation defined above (PREFIX* works with read, touch, write and drop), found \"t*\""},
		{"config in_recovery=maybe", "1:8: in_recovery: expected on or off, found \"maybe\""},
		{"relation r blocks=1 count=0", "1:21: count: expected at least 1, found 0"},
		{"relation r0 blocks=1\nrelation r blocks=1 count=2", "2:10: relation \"r0\" (of count=2) is already defined"},
		{"relation r blocks=1 count=20000", "1:21: count: 20000 is too large (at most 10000)"},
	} {
		_, err := Parse("f.scn", c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n got  %v\n want …%s", c.src, err, c.want)
		}
	}
}
