package main

import (
	"bytes"
	"encoding/json"
	"image"
	"path/filepath"
	"strings"
	"testing"

	"bufferlab/internal/xvfbtest"
)

type benchReport struct {
	Experiment string `json:"experiment"`
	Timer      struct {
		Source       string  `json:"source"`
		ResolutionNs float64 `json:"resolution_ns"`
		ReadNs       float64 `json:"read_ns"`
	} `json:"timer"`
	Machine struct {
		GOOS, GOARCH string
		CPUs         int     `json:"cpus"`
		CPUModel     *string `json:"cpu_model"`
	} `json:"machine"`
	Rows    []map[string]any   `json:"rows"`
	Summary map[string]float64 `json:"summary"`
}

func runBench(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"bench"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// skipUnderRace skips a benchmark whose timed loops run one goroutine:
// under the race detector they take minutes (`bench drop --quick` took
// 7 of `make race`'s 10) and measure the detector, with nothing for it to
// find. test-native runs them; the pin benchmark (real goroutines on real
// atomics) runs under the race detector too.
func skipUnderRace(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("a single-goroutine timing run: skipped under -race (`make test-native` runs it)")
	}
}

func decodeReport(t *testing.T, out string) benchReport {
	t.Helper()
	var r benchReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, out)
	}
	if r.Timer.Source == "" || !(r.Timer.ResolutionNs > 0) || !(r.Timer.ReadNs > 0) {
		t.Errorf("timer info %+v", r.Timer)
	}
	if r.Machine.GOOS == "" || r.Machine.GOARCH == "" || r.Machine.CPUs < 1 || r.Machine.CPUModel == nil {
		t.Errorf("machine info %+v", r.Machine)
	}
	if len(r.Rows) == 0 {
		t.Error("no rows")
	}
	return r
}

func TestBenchLimitsJSON(t *testing.T) {
	code, out, errs := runBench(t, "limits", "--quick", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	r := decodeReport(t, out)
	if r.Experiment != "limits" {
		t.Errorf("experiment %q", r.Experiment)
	}
	wantPositive(t, r, "stream_gbps", "chase_ns", "cas_ns", "cas_contended_ns")
}

func TestBenchPoolPlot(t *testing.T) {
	r := benchPlot(t, "pool")
	wantPositive(t, r, "hit_ns", "miss_ns", "step_event_ns")
}

// benchPlot runs `bench EXP --quick --json --plot FILE` and returns its
// report, having checked the exit status, the report's timer and machine,
// its experiment, and that the chart has something drawn.
func benchPlot(t *testing.T, exp string) benchReport {
	t.Helper()
	file := filepath.Join(t.TempDir(), exp+".png")
	code, out, errs := runBench(t, exp, "--quick", "--json", "--plot", file)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	r := decodeReport(t, out)
	if r.Experiment != exp {
		t.Errorf("experiment %q, want %q", r.Experiment, exp)
	}
	if blank(xvfbtest.LoadPNG(t, file)) {
		t.Errorf("%s is blank", file)
	}
	return r
}

// wantPositive checks that the report's summary has each key, positive.
func wantPositive(t *testing.T, r benchReport, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if v, ok := r.Summary[k]; !ok || !(v > 0) {
			t.Errorf("summary %s = %v (present %v), want positive", k, v, ok)
		}
	}
}

func blank(img image.Image) bool {
	b := img.Bounds()
	r0, g0, b0, _ := img.At(b.Min.X, b.Min.Y).RGBA()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			if r, g, bb, _ := img.At(x, y).RGBA(); r != r0 || g != g0 || bb != b0 {
				return false
			}
		}
	}
	return true
}

func TestBenchTable(t *testing.T) {
	code, out, errs := runBench(t, "limits", "--quick", "--shared-buffers", "128kB")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"stream GB/s", "chase ns/load", "faster", "128kB", "cas_contended_ns"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "%") {
		t.Errorf("table has a percentage:\n%s", out)
	}
}

func TestBenchBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"pool", "--shared-buffers", "0"}, "--shared-buffers"},
		{[]string{"pool", "--shared-buffers", "1kB"}, "--shared-buffers"},
		{[]string{"pool", "--shared-buffers", "100TB"}, "--shared-buffers"},
		{[]string{"limits", "--shared-buffers", "128MB,junk"}, "--shared-buffers"},
		{[]string{"pool", "--plot", "out.gif"}, "--plot"},
		{[]string{"nosuch"}, "limits, pin, pool"},
		{[]string{"limits", "--nosuch"}, "nosuch"},
		{[]string{"pool", "--full"}, "--full"},
		{[]string{"nosuch", "--full"}, "unknown experiment"},
		{[]string{"drop", "--full", "--shared-buffers", "junk"}, "--shared-buffers"},
		{[]string{}, "expected one experiment"},
	} {
		code, out, errs := runBench(t, c.args...)
		if code != exitBadInput || !strings.Contains(errs, c.want) {
			t.Errorf("bench %v: exit %d, stderr %q; want exit 2 and a message naming %q", c.args, code, errs, c.want)
		}
		if out != "" {
			t.Errorf("bench %v: wrote to stdout: %q", c.args, out)
		}
	}
}

// A pool larger than the machine's memory is refused before anything runs.
func TestBenchSizeBeyondMemory(t *testing.T) {
	saved := memTotal
	defer func() { memTotal = saved }()
	memTotal = func() (int64, bool) { return 256 << 20, true } // a 256MB machine
	code, out, errs := runBench(t, "pool", "--shared-buffers", "128MB,20GB")
	if code != exitBadInput || !strings.Contains(errs, "--shared-buffers 20GB") || !strings.Contains(errs, "this machine has 256MB") || out != "" {
		t.Fatalf("exit %d, stderr %q, stdout %q", code, errs, out)
	}
}

func TestBenchPinPlot(t *testing.T) {
	r := benchPlot(t, "pin")
	wantPositive(t, r, "atomic_ns_uncontended", "spinlock_ns_uncontended", "speedup_at_max_workers")
}

func TestBenchPinTable(t *testing.T) {
	code, out, errs := runBench(t, "pin", "--quick", "--workers", "2")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"atomic Mops/s", "spinlock Mops/s", "reported in the thread", "330280", "133586", "speedup_at_max_workers"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "faster") && !strings.Contains(out, "slower") {
		t.Errorf("table has no ratio:\n%s", out)
	}
	if strings.Contains(out, "%") {
		t.Errorf("table has a percentage:\n%s", out)
	}
}

// Bad --workers and --students values, and either given to an
// experiment that takes none, exit 2 with a message naming the flag.
func TestBenchBadCounts(t *testing.T) {
	for _, args := range [][]string{
		{"pin", "--workers", "0"},
		{"pin", "--workers", "5000"},
		{"pin", "--workers", "-3"},
		{"limits", "--workers", "4"},
		{"classroom", "--students", "0"},
		{"classroom", "--students", "5001"},
		{"pin", "--students", "10"},
		{"classroom", "--plot", "x.png"},
	} {
		code, out, errs := runBench(t, args...)
		if code != exitBadInput || !strings.Contains(errs, args[1]) {
			t.Errorf("bench %v: exit %d, stderr %q; want exit 2 and a message naming %s", args, code, errs, args[1])
		}
		if out != "" {
			t.Errorf("bench %v: wrote to stdout: %q", args, out)
		}
	}
}

// bench classroom --students 10 --json: a class over loopback sockets,
// nothing lost.
func TestBenchClassroom(t *testing.T) {
	code, out, errs := runBench(t, "classroom", "--students", "10", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r benchReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Summary["students"] != 10 || r.Summary["lost_updates"] != 0 || r.Summary["answers_counted"] != r.Summary["answers_sent"] || !(r.Summary["step_to_all_p99_ms"] > 0) {
		t.Fatalf("summary %v: want 10 students, none lost, every answer counted", r.Summary)
	}
}

// bench drop --quick --json --plot: the summary keys, every cell of the
// 000 table marked as extrapolated or not, the quick sizes, a chart.
func TestBenchDropPlot(t *testing.T) {
	skipUnderRace(t)
	r := benchPlot(t, "drop")
	wantPositive(t, r, "crossover_k", "crossover_k_compact", "speedup_1block_20GB")
	// crossover_k is timed over PostgreSQL's 64-byte padded descriptors,
	// the what-if crossover_k_compact over the engine's 36-byte ones.
	if r.Summary["descriptor_bytes"] != 64 || r.Summary["descriptor_bytes_compact"] != 36 {
		t.Errorf("descriptor_bytes %v, descriptor_bytes_compact %v; want 64 and 36", r.Summary["descriptor_bytes"], r.Summary["descriptor_bytes_compact"])
	}
	scans := map[string]int{}
	for _, row := range r.Rows {
		name, _ := row["name"].(string)
		want, ok := map[string]float64{"sweep/scan": 64, "sweep/scan-compact": 36, "drop/scan": 64}[name]
		if !ok {
			continue
		}
		scans[name]++
		per, _ := row["per_op"].(map[string]any)
		if b, _ := per["descriptor_bytes"].(float64); b != want {
			t.Errorf("row %s: per_op.descriptor_bytes = %v, want %v", name, per["descriptor_bytes"], want)
		}
	}
	if scans["sweep/scan"] == 0 || scans["sweep/scan"] != scans["sweep/scan-compact"] || scans["drop/scan"] != 12 {
		t.Errorf("scan rows by name %v: want as many compact as padded finder points, and 12 table cells", scans)
	}
	for _, k := range []string{"dlist_overhead_miss_pct", "dlist_overhead_hit_pct"} {
		if v, ok := r.Summary[k]; !ok || v != v {
			t.Errorf("summary %s = %v (present %v), want a number", k, v, ok)
		}
	}
	cells := map[string]int{}
	for _, row := range r.Rows {
		name, _ := row["name"].(string)
		if !strings.HasPrefix(name, "drop/") {
			continue
		}
		size, _ := row["shared_buffers"].(string)
		cells[size]++
		per, _ := row["per_op"].(map[string]any)
		e, ok := per["extrapolated"].(float64)
		if !ok || e != 0 && e != 1 {
			t.Errorf("cell %v: per_op.extrapolated = %v", row, per["extrapolated"])
		}
		if e == 1 && (per["sampled_drops"].(float64) < 1 || row["note"] == nil) {
			t.Errorf("extrapolated cell without its sample: %v", row)
		}
	}
	if len(cells) != 2 || cells["128MB"] != 18 || cells["1GB"] != 18 {
		t.Errorf("cells per size %v, want 18 (6 sizes × 3 strategies) at each of 128MB and 1GB", cells)
	}
}

// bench drop --quick as text: the 000 table beside the thread's figures,
// the crossover beside PostgreSQL's NBuffers/32, the dlist overhead.
func TestBenchDropTable(t *testing.T) {
	skipUnderRace(t)
	code, out, errs := runBench(t, "drop", "--quick")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"sizes measured: 128MB, 1GB", "NBuffers/512", "NBuffers/16", "lookup ×", "dlist ×", "faster", "94.493 s / 1.511 s",
		"crossover at 128MB (64-byte descriptors, PostgreSQL's layout)", "crossover at 1GB", "NBuffers/32", "one one-block relation at ",
		"what-if at 128MB (the engine's compact 36-byte descriptors)", "what-if: scan (36 B)", "descriptor_bytes_compact",
		"what the dlist's upkeep costs reads", "hit", "miss", "77416.76", "not run with --quick",
		"crossover_k", "speedup_1block_20GB", "dlist_overhead_miss_pct", "dlist_overhead_hit_pct",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

// bench step --quick --json reports every key of issue 20's table, and a
// quiet run keeps at most 64 bytes of memory per event (the issue's
// target; memory, not time, so it is asserted here). The times are
// reported, not asserted.
func TestBenchStepJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: bench step runs a million-block read and a 2.9M-event player (about half a minute)")
	}
	code, out, errs := runBench(t, "step", "--quick", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	r := decodeReport(t, out)
	wantPositive(t, r, "step_event_ns", "bytes_per_event", "run_ms", "touch_1m_ms", "open_ms", "seek_ms", "heatmap_frame_ms_128mb", "heatmap_frame_ms_1gb")
	if v, ok := r.Summary["wasm_br_bytes"]; !ok || v < 0 {
		t.Errorf("wasm_br_bytes %v (present %v)", v, ok)
	}
	if b := r.Summary["bytes_per_event"]; b > 64 {
		t.Errorf("a quiet run keeps %.1f bytes an event; the target is 64", b)
	}
	for k, v := range r.Summary {
		t.Logf("%s = %v", k, v)
	}
}
