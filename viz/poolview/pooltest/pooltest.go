package pooltest

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
	"bufferlab/lessons"
	"bufferlab/viz/poolview"
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

// Run runs scenario src (named name in messages) to its end.
func Run(t testing.TB, name, src string) *scenario.Runner {
	t.Helper()
	r, _, err := scenario.Run(name, src, true)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return r
}

// RunHooked runs a scenario with the log's OnAppend calling onAppend after
// every event, with the runner (its pool then at that event).
func RunHooked(t testing.TB, name, src string, onAppend func(*scenario.Runner, trace.Event)) *scenario.Runner {
	t.Helper()
	s, err := scenario.Parse(name, src)
	if err != nil {
		t.Fatal(err)
	}
	r, err := scenario.NewRunner(s, true)
	if err != nil {
		t.Fatal(err)
	}
	r.Log().OnAppend = func(e trace.Event) { onAppend(r, e) }
	if _, err := r.RunAll(); err != nil {
		t.Fatal(err)
	}
	return r
}

// NewView is the view of r's pool before its first event: its size, the
// relations the scenario named, its backends.
func NewView(r *scenario.Runner) *poolview.Pool {
	names := map[uint32]string{}
	for n := uint32(bufmgr.FirstNormalObjectId); n < bufmgr.FirstNormalObjectId+64; n++ {
		if s := r.RelName(n); s != fmt.Sprint(n) {
			names[n] = s
		}
	}
	return poolview.New(r.Pool().NBuffers, names, r.BackendNames())
}
