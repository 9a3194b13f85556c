package scenario

import (
	"errors"
	"strings"
	"testing"
)

// Every bad input gets an error naming line:col and what was expected.
func TestParseErrors(t *testing.T) {
	cases := []struct {
		src, want string
	}{
		{"bogus", "1:1: expected a statement (config, relation, backend, schedule, run, show, expect), found \"bogus\""},
		{"relation t1 blocks=4\nconfig shared_buffers=16", "2:1: config must be the first statement"},
		{"config shared_buffers=16\nconfig shared_buffers=16", "2:1: config given twice"},
		{"config shared_buffers=1kB", "1:8: shared_buffers: \"1kB\" is 0 buffers; PostgreSQL's minimum is 16"},
		{"config shared_buffers=8kB", "1:8: shared_buffers: \"8kB\" is 1 buffers; PostgreSQL's minimum is 16 (128kB)"},
		{"config shared_buffers=0", "1:8: shared_buffers: \"0\" is 0 buffers"},
		{"config shared_buffers=1TB", "1:8: shared_buffers: \"1TB\" is 134217728 buffers; BufferLab simulates at most 16777216 (128GB)"},
		{"config shared_buffers=10XB", "1:8: shared_buffers: unknown unit \"XB\" in \"10XB\" (valid units are B, kB, MB, GB, TB)"},
		{"config shared_buffers=99999999999999999999GB", "1:8: shared_buffers: \"99999999999999999999GB\" is too large"},
		{"config shared_buffers=x", "1:8: shared_buffers: want a size such as 128kB"},
		{"config schedule=fifo", "1:8: schedule: expected rr or random, found \"fifo\""},
		{"config seed=-1", "1:8: seed: expected a non-negative integer, found \"-1\""},
		{"config max_steps=0", "1:8: max_steps: expected at least 1, found 0"},
		{"config colour=red", "1:8: unknown config key \"colour\""},
		{"config pins=both", "1:8: pins: expected atomic, spinlock or both in pane order (atomic,spinlock), found \"both\""},
		{"config pins=atomic,", "1:8: pins: expected atomic, spinlock or both in pane order"},
		{"config pins=atomic,atomic", "1:8: pins: atomic is named twice in \"atomic,atomic\""},
		{"expect spinlock: pool spins=1", "1:8: expect spinlock: the scenario does not run pins=spinlock (its config runs pins=atomic)"},
		{"config pins=spinlock\nexpect atomic: pool spins=1", "2:8: expect atomic: the scenario does not run pins=atomic (its config runs pins=spinlock)"},
		{"expect fast: pool spins=1", "1:8: expect: expected a variant the config runs (atomic) before ':', found \"fast\""},
		{"config pins=atomic,spinlock\nexpect atomic:", "2:15: expected a subject after 'expect'"},
		{"config drop=scan,fast", "1:8: drop: expected strategies among auto, scan, lookup, dlist in pane order (scan,lookup,dlist), found \"scan,fast\""},
		{"config drop=scan,scan", "1:8: drop: scan is named twice"},
		{"config pins=atomic,spinlock drop=scan,lookup", "1:29: drop: names several variants, and so does pins= at 1:8; only one of pins=, drop=, slru=, fsm= or pg= may name several variants"},
		{"config drop=scan,lookup slru=banks,banks+hash", "1:25: slru: names several variants, and so does drop= at 1:8; only one of pins=, drop=, slru=, fsm= or pg= may name several variants"},
		// issue 14.1: a key given twice is an error naming both places
		{"config shared_buffers=128kB shared_buffers=1MB", "1:29: shared_buffers given twice (first at 1:8): expected each config key once"},
		{"config drop=scan drop=lookup", "1:18: drop given twice (first at 1:8)"},
		{"config seed=1 schedule=random seed=2", "1:31: seed given twice (first at 1:8)"},
		// issue 14.7: bank_size=0 is not "the default"
		{"config slru=banks bank_size=0", "1:19: bank_size: expected a power of two from 2 to 4096 (or no bank_size= for SLRU_BANK_SIZE, 16), found 0"},
		// issue 14.2: an empty scenario, and work queued with no run
		{"relation t blocks=2\nbackend A: touch t 0", "2:1: backend A: its operations are queued, but no 'run' follows to run them"},
		{"relation t blocks=2\nbackend A: touch t 0\nrun\nbackend B: touch t 1\nbackend A: touch t 1\nshow", "4:1: backend B: its operations are queued, but no 'run' follows"},
		{"relation t blocks=2\nbackend A: touch t 0\nrun\nschedule A", "4:1: schedule: no 'run' follows to use it"},
		{"config slru=banks,fast", "1:8: slru: expected single, banks, banks+hash or several in pane order (banks,banks+hash), found \"banks,fast\""},
		{"config slru=banks,banks", "1:8: slru: banks is named twice in \"banks,banks\""},
		{"config slru=single,banks slru_buffers=24", "1:1: slru: 24 slots is not a multiple of the bank size 16"},
		{"config slru=banks\nexpect single: slru reads=0", "2:8: expect single: the scenario does not run slru=single (its config runs slru=banks)"},
		{"config slru=single,banks\nexpect banks+hash: slru reads=0", "2:8: expect banks+hash: the scenario does not run slru=banks+hash (its config runs slru=single,banks)"},
		{"expect banks: slru reads=0", "1:8: expect banks: the scenario does not run slru=banks (its config runs none)"},
		{"config drop=scan,lookup\nexpect dlist: pool hits=0", "2:8: expect dlist: the scenario does not run drop=dlist (its config runs drop=scan,lookup)"},
		{"config shared_buffers", "1:8: expected KEY=VALUE"},
		{"relation", "1:9: expected a relation name after 'relation'"},
		{"relation 1t blocks=2", "1:10: expected a relation name (letters, digits, _), found \"1t\""},
		{"relation t", "1:11: relation t: expected blocks=N"},
		{"relation t blocks=x", "1:12: blocks: expected a non-negative integer, found \"x\""},
		{"relation t blocks=2000000000", "1:12: blocks: 2000000000 blocks is more than BufferLab simulates: expected at most 1073741824 (8 TB; PostgreSQL's own limit is MaxBlockNumber+1 = 4294967295 blocks, 32 TB)"},
		{"relation t blocks=1 fsm=99999999999999", "1:21: fsm: 99999999999999 blocks is more than BufferLab simulates"},
		{"relation t blocks=2\nrelation t blocks=3", "2:10: relation \"t\" is already defined"},
		{"relation t blocks=2 colour=3", "1:21: unknown relation key \"colour\""},
		{"backend", "1:8: expected a backend name after 'backend', found end of line"},
		{"backend A read t 0", "1:11: expected ':' after the backend name, found \"read\""},
		{"backend A:", "1:11: expected an operation after ':'"},
		{"relation t blocks=2\nbackend A: read t 0;", "2:21: expected an operation after ';'"},
		{"relation t blocks=2\nbackend A: ; read t 0", "2:12: expected an operation before ';'"},
		{"backend A: read u 0", "1:17: read: expected a relation defined above, found \"u\""},
		{"relation t blocks=2\nbackend A: read t", "2:18: read: expected a block number or range B..E after t"},
		{"relation t blocks=2\nbackend A: read t x", "2:19: block: expected a non-negative integer, found \"x\""},
		{"relation t blocks=2\nbackend A: read t 3..1", "2:19: block range 3..1: expected the end to be at least the start"},
		{"relation t blocks=2\nbackend A: read t 0..9999999", "2:19: block range 0..9999999 has 10000000 blocks; one operation takes at most 1048576"},
		{"relation t blocks=2\nbackend A: read t 0 fork=heap", "2:21: fork: expected main, fsm, vm or init, found \"heap\""},
		{"relation t blocks=2\nbackend A: read t 0 now", "2:21: read: expected fork=main|fsm|vm|init, found \"now\""},
		{"relation t blocks=2\nbackend A: release t 5", "2:22: release: block 5 is beyond t's main fork (2 blocks)"},
		{"relation t blocks=2\nbackend A: scan t 0", "2:19: scan: expected pages=N (a cursor paused after N pages) or nothing after the relation name, found \"0\""},
		{"schedule", "1:9: expected backend names after 'schedule'"},
		{"backend A\nschedule A B", "2:12: schedule: expected the name of a backend declared above, found \"B\""},
		// issue 13.22: repetition, bounded
		{"backend A\nschedule A*2 B*3", "2:14: schedule: expected the name of a backend declared above, found \"B\""},
		{"backend A\nschedule A*0", "2:10: schedule: A*0: expected NAME*N with N a repeat count from 1 to 50000000, found \"0\""},
		{"backend A\nschedule A*", "2:10: schedule: A*: expected NAME*N with N a repeat count from 1 to 50000000, found \"\""},
		{"backend A\nschedule A*x", "2:10: schedule: A*x: expected NAME*N"},
		{"backend A\nschedule A*99999999999999999999", "2:10: schedule: A*99999999999999999999: expected NAME*N with N a repeat count from 1 to 50000000"},
		{"backend A\nschedule A*50000001", "2:10: schedule: A*50000001: expected NAME*N"},
		{"backend A\nschedule A*30000000\nschedule A A*20000000", "3:12: schedule: A*20000000 brings the schedule before the next run to 50000001 steps; at most 50000000"},
		{"run now", "1:5: run: expected steps=N or nothing, found \"now\""},
		{"run steps=0", "1:5: steps: expected at least 1, found 0"},
		{"show all", "1:6: show: expected pool, map, slru or heap, found \"all\""},
		{"show pool all now", "1:15: show: expected nothing after 'pool all', found \"now\""},
		{"show map all", "1:10: show: expected at most one word (pool, map, slru or heap) or 'pool all', found \"all\""},
		{"expect", "1:7: expected a subject after 'expect'"},
		{"expect pools hits=1", "1:8: expect: expected pool, buffer, block, backend, slru, page, heap or fsm, found \"pools\""},
		{"expect pool", "1:12: expect pool: expected at least one KEY=VALUE"},
		{"expect pool hit=1", "1:13: expect pool: expected KEY=VALUE with KEY one of"},
		{"expect buffer 16 rc=0", "1:15: buffer number: 16 is too large (at most 15)"},
		{"expect block u 0 in=1", "1:14: expect block: expected a relation defined above, found \"u\""},
		{"expect backend Z pins=none", "1:16: expect backend: expected a backend declared above, found \"Z\""},
		{"backend A\nexpect backend A error=\"oops", "2:24: unterminated string"},
		{strings.Repeat("x", maxLineLen+1), "1:1: line is 65537 bytes long"},
		// PostgreSQL versions and 17's read stream settings (pg.go)
		{"config pg=19", `1:8: pg: expected 15, 16, 17 or 18, or several in pane order (15,18), found "19"`},
		{"config pg=017", `1:8: pg: expected 15, 16, 17 or 18, or several in pane order (15,18), found "017"`},
		{"config io_method=posix pg=18", `1:8: io_method: expected worker, io_uring or sync, found "posix"`},
		{"config io_workers=0 pg=18", `1:8: io_workers: expected at least 1, found 0`},
		{"config io_workers=33 pg=18", `1:8: io_workers`},
		{"config pg=15,15", `1:8: pg: 15 is named twice in "15,15"`},
		{"config pg=15,17 pins=atomic,spinlock", "1:17: pins: names several variants, and so does pg= at 1:8"},
		{"config io_combine_limit=12kB", `1:8: io_combine_limit: "12kB" is not a whole number of 8kB blocks`},
		{"config io_combine_limit=33", `1:8: io_combine_limit: "33" is outside 1 to 32 blocks (8kB to 256kB)`},
		{"config io_combine_limit=1MB", `1:8: io_combine_limit: expected a number of blocks (1 to 32) or a size in kB (8kB to 256kB), found "1MB"`},
		{"config effective_io_concurrency=1001", "1:8: effective_io_concurrency: 1001 is too large (at most 1000)"},
		{"config io_latency=2h", `1:8: io_latency: expected a time from 0 to 1s in simulated microseconds (100us, 2ms, or a bare number of µs), found "2h"`},
		{"config io_block_time=2s", `1:8: io_block_time: expected a time from 0 to 1s in simulated microseconds (100us, 2ms, or a bare number of µs), found "2s"`},
		{"expect pool reads=1x0", `1:13: expect pool reads: expected read calls as BLOCKS[xCOUNT],… (1,2,4,8,16x9,1) or none, found "1x0"`},
		{"expect pool reads=16x", `1:13: expect pool reads: expected read calls as BLOCKS[xCOUNT],… (1,2,4,8,16x9,1) or none, found "16x"`},
	}
	for _, c := range cases {
		_, err := Parse("f.scn", c.src)
		if err == nil {
			t.Errorf("%q: parsed without error, want %q", c.src, c.want)
			continue
		}
		var se *Error
		if !errors.As(err, &se) {
			t.Errorf("%q: error %v is not a positioned *Error", c.src, err)
			continue
		}
		if !strings.HasPrefix(err.Error(), "f.scn:"+c.want) {
			t.Errorf("%q:\n got  %v\n want f.scn:%s…", c.src, err, c.want)
		}
	}
}

// Every mechanism's bad inputs get an error naming line:col (most of
// them) and what was expected: one table over the mechanisms' keys,
// operations and subjects.
func TestMechanismParseErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		// drop: DROP TABLE's DropRelFileNodesAllBuffers, its strategies, count= relations
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
		// truncate: smgrtruncate's DropRelFileNodeBuffers
		{"relation t blocks=1\nbackend A: truncate", "2:20: truncate: expected a relation name"},
		{"relation t blocks=1\nbackend A: truncate x", "2:21: truncate: expected a relation defined above, found \"x\""},
		{"relation t blocks=4\nbackend A: truncate t to", "truncate: expected a number of blocks to keep after 'to'"},
		{"relation t blocks=4\nbackend A: truncate t to 5", "2:26: truncate: t has 4 blocks: expected to N with N at most that"},
		{"relation t blocks=4\nbackend A: truncate t to x", "2:26: truncate to: expected"},
		{"relation t blocks=4\nbackend A: truncate t now", "2:23: truncate: expected 'to N' or strategy=auto|scan|lookup|dlist, found \"now\""},
		{"relation t blocks=4\nbackend A: truncate t strategy=dlist", "2:23: strategy=dlist needs the per-relation lists"},
		{"config fsm=always\nrelation h heap\nbackend A: truncate h", "3:21: truncate: h is a heap of the free space map model"},
		// the free space map model: its variants, heaps, insert, delete and vacuum
		{"config fsm=sometimes", "1:8: fsm: expected always, small-skip or both in pane order (always,small-skip), found \"sometimes\""},
		{"config fsm=always,always", "1:8: fsm: always is named twice"},
		{"config drop=scan,lookup fsm=always,small-skip", "1:25: fsm: names several variants, and so does drop= at 1:8; only one of pins=, drop=, slru=, fsm= or pg= may name several variants"},
		{"config fsm=always\nexpect small-skip: pool hits=0", "2:8: expect small-skip: the scenario does not run fsm=small-skip (its config runs pins=atomic)"},
		{"config fsm_threshold=8", "1:1: fsm_threshold: applies to the free space map model"},
		{"relation t heap", "1:12: heap: heaps need the free space map model"},
		{"relation t blocks=1 fillfactor=20", "1:21: fillfactor: heaps need the free space map model"},
		{"config fsm=always\nrelation t heap fillfactor=5", "2:17: fillfactor: expected 10..100, found 5"},
		{"config fsm=always\nrelation t blocks=2\nbackend A: insert t", "3:19: insert: expected a heap defined above"},
		{"config fsm=always\nrelation t heap\nbackend A: insert t 0", "3:21: rows: expected at least 1, found 0"},
		{"config fsm=always\nrelation t heap\nbackend A: insert t 3 width=2", "3:23: insert: expected size=B, found \"width=2\""},
		{"config fsm=always\nrelation t heap\nbackend A: delete t 1", "3:21: delete: expected a ctid written B.O"},
		{"config fsm=always\nrelation t heap\nbackend A: delete t 1.0", "3:21: ctid offset: expected at least 1"},
		{"config fsm=always\nrelation t heap\nbackend A: vacuum t now", "3:21: vacuum: expected nothing after the relation name"},
		{"backend A: insert t", "1:12: insert: heaps need the free space map model"},
		{"expect fsm inserts=1", "1:8: expect fsm: the scenario has no free space map model"},
		{"config fsm=always\nrelation t blocks=1\nexpect heap t rows=1", "3:13: expect heap: expected a heap defined above"},
		// the commit log's SLRU: its variants, sizes and clog operations
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

// A scenario to run must have a statement (issue 14.2); Parse accepts an
// empty one, as a lesson's prose may come without a scenario.
func TestRequireStatements(t *testing.T) {
	for _, src := range []string{"", "# only a comment\n\n   # another\n"} {
		s, err := Parse("f.scn", src)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		err = s.RequireStatements()
		if err == nil || err.Error() != "f.scn:1:1: the scenario has no statements (only blank lines and comments): expected at least relation, backend and run lines" {
			t.Errorf("%q: %v", src, err)
		}
	}
	if err := mustParse(t, "relation t blocks=1").RequireStatements(); err != nil {
		t.Errorf("a relation: %v", err)
	}
}

// Runtime errors are positioned too, and a failed expect is marked Check.
func TestRunErrors(t *testing.T) {
	cases := []struct {
		src, want string
		check     bool
	}{
		{"relation t blocks=2\nbackend A: release t 0\nrun", "f.scn:2:12: release t 0: expected backend A to hold a pin on t/0", false},
		{"relation t blocks=2\nbackend A: dirty t 1\nrun", "f.scn:2:12: dirty t 1: expected backend A to hold a pin on t/1", false},
		{"relation t blocks=2\nbackend A: touch t 0\nrun\nexpect pool hits=1", "f.scn:4:13: expect pool hits: expected 1, the engine has 0", true},
		{"relation t blocks=2\nbackend A: touch t 0\nbackend B: touch t 1\nschedule A A A A A A A A A A A A A A A A A A A A A A A A A A A A A A A A A A\nrun",
			"f.scn:4:", false},
		{"config max_steps=5\nrelation t blocks=2\nbackend A: touch t 0..1\nrun", "f.scn:4:1: run stopped after max_steps=5 steps", false},
		{"relation t blocks=2\nbackend A: read t 0\nrun steps=2\nbackend A: read t 1\nrun", "f.scn:4:1: backend A is still running", false},
		{"relation t blocks=2\nbackend A: touch t 0\nbackend B: touch t 1\nschedule A*3\nschedule B A*40\nrun", "f.scn:5:12: run: schedule step 23 names A, which has no operation left to run", false},
		// issue 13.20: a block that is not resident fails the check (exit 1)
		{"relation t blocks=2\nbackend A: touch t 0\nrun\nexpect block t 1 usage=1", "f.scn:4:18: expect block t 1 usage: expected 1, but the block is not resident (not in the pool)", true},
		{"relation t blocks=2\nbackend A: touch t 0\nrun\nexpect block t 1 rc=0", "f.scn:4:18: expect block t 1 rc: expected 0, but the block is not resident", true},
	}
	for _, c := range cases {
		_, _, err := Run("f.scn", c.src, true)
		if err == nil {
			t.Errorf("%q: ran without error, want %q", c.src, c.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got  %v\n want %s…", c.src, err, c.want)
		}
		var se *Error
		if !errors.As(err, &se) || se.Check != c.check {
			t.Errorf("%q: error %#v: want a *Error with Check=%v", c.src, err, c.check)
		}
	}
}

// Quoted strings take \" and \\ escapes, and comments end a line.
func TestLexer(t *testing.T) {
	toks, err := lexLine("f", 1, `expect backend A error="say \"hi\" \\ ok" # comment`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tk := range toks {
		got = append(got, tk.Text)
	}
	want := []string{"expect", "backend", "A", `error=say "hi" \ ok`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("tokens %q, want %q", got, want)
	}
	if !toks[3].Quoted || toks[3].Pos.Col != 18 {
		t.Fatalf("token %+v: want quoted at column 18", toks[3])
	}
}

// Every operation kind is registered by exactly one mechanism (release
// all is release's), and the parser's errors for an unknown operation and
// an unknown config key name every registered one: the lists come from
// the registry and cannot fall behind it.
func TestRegistryNamesEveryOperationAndKey(t *testing.T) {
	seen := map[OpKind]string{}
	for _, m := range Mechanisms() {
		for _, o := range m.Ops {
			if prev, dup := seen[o.Kind]; dup {
				t.Errorf("operation kind %d registered as %q and %q", o.Kind, prev, o.Name)
			}
			seen[o.Kind] = o.Name
		}
	}
	for k := OpRead; k <= OpTruncate; k++ {
		if _, ok := seen[k]; !ok && k != OpReleaseAll {
			t.Errorf("operation kind %d (%v) is registered by no mechanism", k, k)
		}
	}
	_, err := Parse("t.scn", "relation r blocks=1\nbackend A: frobnicate r 0\nrun\n")
	if err == nil {
		t.Fatal("an unknown operation parsed")
	}
	for _, name := range seen {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("the unknown-operation error does not name %q: %v", name, err)
		}
	}
	_, err = Parse("t.scn", "config frob=1\n")
	if err == nil {
		t.Fatal("an unknown config key parsed")
	}
	for _, k := range scenarioKeys {
		if !strings.Contains(err.Error(), k.Name) {
			t.Errorf("the unknown-key error does not name %q: %v", k.Name, err)
		}
	}
	for _, m := range Mechanisms() {
		for _, k := range m.Keys {
			if !strings.Contains(err.Error(), k.Name) {
				t.Errorf("the unknown-key error does not name %s's %q: %v", m.Name, k.Name, err)
			}
			if _, err2 := Parse("t.scn", "config "+k.Name+"\n"); err2 == nil || !strings.Contains(err2.Error(), k.Name) {
				t.Errorf("config %s (no value): error %v does not name the keys", k.Name, err2)
			}
		}
	}
}

// Every variant a key registers is a value its key accepts, and `expect
// NAME:` for one the config does not run names that key: the expect
// error finds the key by the registered names, the config by the
// mechanism's own parser, and the two must agree.
func TestRegistryVariantsParse(t *testing.T) {
	for _, m := range Mechanisms() {
		for _, k := range m.Keys {
			for _, vi := range k.Variants {
				if _, err := Parse("t.scn", "config "+k.Name+"="+vi.Name+"\n"); err != nil {
					t.Errorf("config %s=%s: %v", k.Name, vi.Name, err)
				}
				if vi.Name == "atomic" {
					continue // the default config runs it
				}
				_, err := Parse("t.scn", "expect "+vi.Name+": pool hits=0\n")
				if want := "does not run " + k.Name + "=" + vi.Name; err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("expect %s: with the default config: error %v, want one saying it %s", vi.Name, err, want)
				}
			}
		}
	}
}
