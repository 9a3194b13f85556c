package pooltest

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"bufferlab/engine/scenario"
	"bufferlab/lessons"
)

// contentionSrc is a multi-backend scenario under a seeded random schedule:
// four backends share a 16-buffer pool, hammer three hot blocks (pins, CAS
// loops, header locks, dirty victims written back), scan a relation larger
// than NBuffers/4 (BULKREAD rings), read a fork other than main, read past
// the end of a relation; a fifth backend then pins every buffer and gets
// "no unpinned buffers available".
const contentionSrc = `
config shared_buffers=16 schedule=random seed=%d
relation t blocks=24 fsm=3
relation hot blocks=3
backend A: touch hot 0..2; write hot 1; read t 0..3; touch hot 0..2; write hot 0..2; release t 0..3; scan t; touch hot 0..2
backend B: touch hot 0..2; scan t; write hot 0..2; touch hot 0..2; read hot 1; dirty hot 1; release hot 1; touch t 30
backend C: write hot 0..2; read t 5; read t 5; touch hot 0..2; touch t 0..2 fork=fsm; touch t 10..20; release t 5; release t 5; touch hot 0..2
backend D: touch hot 0..2; touch t 4..23; write hot 2; scan t; touch hot 0..2; write t 0 fork=fsm
run
backend E: read t 0..15; read t 16
run
`

// Contention is the contention scenario under the random schedule of
// seed.
func Contention(seed int) string { return fmt.Sprintf(contentionSrc, seed) }

// Lessons returns the embedded lesson scenarios by file name
// ("clock-sweep.scn").
func Lessons(t testing.TB) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := fs.WalkDir(lessons.Scenarios, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".scn") {
			return err
		}
		b, err := fs.ReadFile(lessons.Scenarios, path)
		out[path[strings.LastIndexByte(path, '/')+1:]] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"clock-sweep.scn", "seventeen-blocks.scn"} {
		if out[want] == "" {
			t.Fatalf("embedded scenario %s missing", want)
		}
	}
	return out
}

// scenarios are the logs every test replays: the lessons and several seeds
// of the contention scenario.
func Scenarios(t testing.TB) map[string]string {
	out := Lessons(t)
	for name, src := range out {
		if isLargePool(name, src) {
			delete(out, name) // see LargeScenarios
		}
	}
	for _, seed := range []int{1, 2, 3, 7, 11, 13} {
		out[fmt.Sprintf("contention-seed%d", seed)] = Contention(seed)
	}
	// PostgreSQL 16's BufferAlloc and 17's read path and read streams
	// (config pg=).
	for _, seed := range []int{4, 6} {
		for _, pg := range []string{"16", "17", "18"} {
			out[fmt.Sprintf("pg%s-seed%d", pg, seed)] = strings.Replace(Contention(seed), "seed=", "pg="+pg+" seed=", 1)
		}
	}
	// The pre-9.6 header-spinlock pins, and a cleanup waiter woken by an unpin.
	for _, seed := range []int{5, 9} {
		out[fmt.Sprintf("spinlock-seed%d", seed)] = strings.Replace(Contention(seed), "seed=", "pins=spinlock seed=", 1)
	}
	// Drops with every strategy, a reader pinning a block being dropped
	// (the dropper waits), under seeded random schedules.
	for _, seed := range []int{3, 8} {
		out[fmt.Sprintf("drop-seed%d", seed)] = fmt.Sprintf(`config shared_buffers=1MB schedule=random seed=%d in_recovery=on dlist=on
relation t blocks=3
relation big blocks=20
relation r blocks=1 count=8
backend A: touch t 0..2; touch big 0..19; touch r* 0
run
backend R: read t 1; touch big 0..5; release t 1
backend S: drop t; drop big strategy=scan; drop r0 strategy=dlist; drop r1 strategy=lookup; drop r*
backend B: touch r* 0; touch t 0..2
run
`, seed)
	}
	out["cleanup"] = `config shared_buffers=16
relation t blocks=4
backend V: read t 0
backend B: read t 0
run
backend V: cleanup t 0; release t 0
backend B: release t 0
run
`
	return out
}

// LargeScenarios are the embedded scenarios with large pools, which
// Scenarios leaves out: the per-event tests would take minutes and
// gigabytes on them, so only the final state is compared.
func LargeScenarios(t testing.TB) map[string]string {
	out := Lessons(t)
	for name, src := range out {
		if !isLargePool(name, src) {
			delete(out, name)
		}
	}
	return out
}

// isLargePool reports whether a scenario's pool is too large to snapshot
// after every event (the per-event comparison); the final-state comparison
// still covers it.
func isLargePool(name, src string) bool {
	sc, err := scenario.Parse(name, src)
	if err != nil || len(sc.Stmts) == 0 {
		return false
	}
	c, ok := sc.Stmts[0].(*scenario.ConfigStmt)
	return ok && c.NBuffers > 1024
}
