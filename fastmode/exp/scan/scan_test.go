package scan

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/harness"
)

// The latency model's figures at 100 us a call and 8 us a block, each
// derived by hand: 15 reads 160 blocks in 160 calls (160 × 108 us); 17's
// stream and 18 under io_method=sync in 14 calls (1, 2, 4, 8, 16×9, 1:
// 14 × 100 + 160 × 8); 18's I/O workers and io_uring make the same 14
// reads but overlap them, so the backend waits less than the 14 calls
// take one after another, and io_uring (every I/O served from its own
// submission) no longer than 3 workers.
func TestIOTime(t *testing.T) {
	got := map[string][2]uint64{}
	for _, v := range Variants {
		calls, us, err := IOTime(v, 100)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		got[v.Name] = [2]uint64{uint64(calls), us}
	}
	for name, want := range map[string][2]uint64{
		rowSync:               {160, 160 * 108},
		rowStream:             {14, 14*100 + 160*8},
		"pg18 io_method=sync": {14, 14*100 + 160*8},
	} {
		if got[name] != want {
			t.Errorf("%s: %d calls, %d us; want %d calls, %d us", name, got[name][0], got[name][1], want[0], want[1])
		}
	}
	w, u, st := got[rowAIO], got["pg18 aio io_uring"], got[rowStream]
	if w[0] != 14 || u[0] != 14 || !(u[1] <= w[1] && w[1] < st[1]) {
		t.Errorf("18: workers %v, io_uring %v; want 14 calls each and io_uring ≤ workers < 17's %d us", w, u, st[1])
	}
}

// A quick run reports every summary key and the table says what 18's rows
// are.
func TestRunScan(t *testing.T) {
	e, ok := exp.Lookup("scan")
	if !ok {
		t.Fatal("no scan experiment")
	}
	r := &exp.Report{Summary: map[string]float64{}}
	o := exp.Options{Quick: true, Config: harness.Config{Warmup: time.Millisecond, Samples: 3, SampleNs: 2e5}}
	if err := runScan(o, r); err != nil {
		t.Fatal(err)
	}
	for _, k := range e.SummaryKeys {
		if v, ok := r.Summary[k]; !ok || !(v > 0) {
			t.Errorf("summary %s = %v, %v; want a positive figure", k, v, ok)
		}
	}
	if r.Summary["speedup_aio_over_sync_at_100us"] <= r.Summary["speedup_stream_over_sync_at_100us"] {
		t.Errorf("18's reads (%.2f×) not faster than 17's stream (%.2f×) over 15", r.Summary["speedup_aio_over_sync_at_100us"], r.Summary["speedup_stream_over_sync_at_100us"])
	}
	var b strings.Builder
	scanTable(r, &b)
	for _, re := range []string{`pg18 aio io_uring\s+[0-9.]+\s+14 `, `pg18 aio worker\s+[0-9.]+\s+14 `, `the kernel \(io_uring\)`, `3 I/O workers`} {
		if !regexp.MustCompile(re).MatchString(b.String()) {
			t.Errorf("table lacks %s:\n%s", re, b.String())
		}
	}
}
