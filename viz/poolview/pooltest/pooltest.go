package pooltest

import (
	"fmt"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
	"bufferlab/viz/poolview"
)

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

// Replay is a fresh view of r's run (NewView's) after its first n events.
func Replay(r *scenario.Runner, n int) *poolview.Pool {
	v := NewView(r)
	for _, e := range r.Log().Events()[:n] {
		v.Apply(e)
	}
	return v
}
