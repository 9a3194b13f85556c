//go:build !js

package step

import (
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"runtime/metrics"
	"time"

	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/exp/pool"
	"bufferlab/fastmode/harness"
	"bufferlab/internal/spillfile"
	"bufferlab/internal/wasmsize"
	"bufferlab/viz/layout"
	"bufferlab/viz/player"
	"bufferlab/viz/scene"
)

// The scenarios it measures. Insert100k is issue 20's "100k-insert heap
// scenario" (2.9M events); Touch1M reads a million blocks into a 1GB pool
// (MaxOpBlocks is 2^20), each a miss that takes the clock sweep's victim.
const (
	Insert100k = `config shared_buffers=128MB fsm=always
relation t heap
backend A: insert t 100000
run
`
	Touch1M = `config shared_buffers=1GB
relation t blocks=1000000
backend A: touch t 0..999999
run
`
	// heatBlocks are read into the pool whose heat map is timed: enough
	// events for every frame to show new ones.
	heatBlocks = 2000
	// heatEventsPerFrame is what `desktop --measure` advances a frame.
	heatEventsPerFrame = 64
)

// Keys are the summary keys, in the order the table prints them.
var Keys = []string{"step_event_ns", "bytes_per_event", "run_ms", "touch_1m_ms", "open_ms", "seek_ms",
	"heatmap_frame_ms_128mb", "heatmap_frame_ms_1gb", "wasm_br_bytes"}

func init() {
	exp.Register(&exp.Experiment{
		Name:        "step",
		Doc:         "step mode at scale: cost of a traced event, memory kept per event, a 100k-row insert run and opened in the player, random seeks, a million-block read, the heat map's layout at 128MB and 1GB, the browser's download",
		SummaryKeys: Keys,
		SignedKeys:  []string{"wasm_br_bytes"},
		Measure:     measure,
		Table:       table,
	})
}

// WasmPath is the browser build, relative to the working directory (the
// repository's root, as `make` runs); wasm_br_bytes is its size as served
// (wasmsize.WasmBrotliBytes), 0 without a build, its row saying why.
var WasmPath = "web/bufferlab.wasm"

func measure(o exp.Options, r *exp.Report) error {
	p := harness.NewProgressFunc(o.Progress, "bench step", 8, o.OnStep)
	defer p.Done()
	samples := 3
	if o.Quick {
		samples = 1
	}
	add := func(key, name, unit, note string, s harness.Summary) {
		r.Rows = append(r.Rows, exp.Row{Name: name, Unit: unit, Summary: s, Note: note})
		r.Summary[key] = s.Median
	}

	p.Step("step mode: a traced, scheduled run")
	script, err := scenario.Parse("step", pool.StepScenario)
	if err != nil {
		return err
	}
	events, err := pool.RunStep(script)
	if err != nil {
		return err
	}
	s, err := harness.MeasureErr(o.Config, func(n int) error {
		for range n {
			if _, err := pool.RunStep(script); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.Median, s.P10, s.P90 = s.Median/float64(events), s.P10/float64(events), s.P90/float64(events)
	add("step_event_ns", "step_event", "ns/event", fmt.Sprintf("pool.StepScenario, %d events, event text off as the player runs it", events), s)

	p.Step("the 100k-row insert, as bufferlab run --summary keeps it")
	var runMs []float64
	var kept RunMemory
	for range samples {
		m, err := QuietRun(Insert100k)
		if err != nil {
			return err
		}
		runMs = append(runMs, m.Seconds*1000)
		kept = m
	}
	add("run_ms", "run_insert_100k", "ms", fmt.Sprintf("%d events, log compact and spilled past 32 MiB; peak heap %.0f MB", kept.Events, kept.PeakHeapMB), harness.Summarise(runMs))
	add("bytes_per_event", "kept_per_event", "B/event", fmt.Sprintf("heap kept after the run (GC'd) over its %d events; %.1f B an event in its spill file", kept.Events, kept.FilePerEvent),
		harness.Summarise([]float64{kept.BytesPerEvent}))

	p.Step("a million-block read at 1GB")
	m, err := QuietRun(Touch1M)
	if err != nil {
		return err
	}
	add("touch_1m_ms", "touch_1m", "ms", fmt.Sprintf("%d events in step mode; peak heap %.0f MB", m.Events, m.PeakHeapMB), harness.Summarise([]float64{m.Seconds * 1000}))

	p.Step("the 100k-row insert opened in the player")
	var openMs []float64
	var pl *player.Player
	for range samples {
		runtime.GC()
		t0 := time.Now()
		pl, err = player.FromScenario("insert-100k", Insert100k)
		if err != nil {
			return err
		}
		openMs = append(openMs, float64(time.Since(t0).Nanoseconds())/1e6)
	}
	add("open_ms", "open_insert_100k", "ms", fmt.Sprintf("player.FromScenario: the run and its timelines, %d events", pl.Len()), harness.Summarise(openMs))

	p.Step("random seeks in the player")
	seek, first := Seeks(pl, 200)
	add("seek_ms", "seek", "ms", fmt.Sprintf("200 random seeks over %d events, pool and FSM views; the first, which made the keyframes, %.0f ms", pl.Len(), first), seek)
	pl = nil

	for _, size := range []string{"128MB", "1GB"} {
		p.Step("the heat map at " + size)
		s, err := HeatFrames(size, 200)
		if err != nil {
			return err
		}
		key := "heatmap_frame_ms_128mb"
		if size == "1GB" {
			key = "heatmap_frame_ms_1gb"
		}
		add(key, "heatmap_frame_"+size, "ms", fmt.Sprintf("the pool scene's layout (every texel recomputed), %d events a frame, 1200×600; the GPU's upload and draw not included", heatEventsPerFrame), s)
	}

	p.Step("the browser's download")
	note := WasmPath + " as served to a browser that takes brotli (its .br copy when up to date)"
	br, err := wasmsize.WasmBrotliBytes(WasmPath)
	if err != nil {
		br, note = 0, fmt.Sprintf("not measured: %v (make wasm builds it)", err)
	}
	add("wasm_br_bytes", "wasm_br", "bytes", note, harness.Summarise([]float64{float64(br)}))
	return nil
}

// RunMemory is what a quiet run took.
type RunMemory struct {
	Events        int
	Seconds       float64
	PeakHeapMB    float64 // the heap's peak while it ran, sampled every 5 ms
	BytesPerEvent float64 // the heap it keeps at its end (after a GC), per event
	FilePerEvent  float64 // its spill file, per event
}

// QuietRun runs src as `bufferlab run --summary` does (traced, event text
// off, scenario.QuietStorage) and measures it.
func QuietRun(src string) (RunMemory, error) {
	script, err := scenario.Parse("quiet", src)
	if err != nil {
		return RunMemory{}, err
	}
	runtime.GC()
	before := heapBytes()
	stop := samplePeak()
	t0 := time.Now()
	r, err := scenario.NewRunner(script, true)
	if err != nil {
		return RunMemory{}, err
	}
	r.Log().SetStorage(scenario.QuietStorage(func() (trace.SpillFile, error) { return spillfile.Open("") }))
	defer r.Log().Close()
	r.SetBudget(scenario.Budget{Bytes: 4 << 30, EventBytes: 16, Source: "bench step"})
	r.SetEventText(false)
	if _, err := r.RunAll(); err != nil {
		stop()
		return RunMemory{}, err
	}
	secs := time.Since(t0).Seconds()
	peak := stop()
	runtime.GC()
	after := heapBytes()
	n := r.Log().Len()
	_, file := r.Log().Footprint()
	m := RunMemory{Events: n, Seconds: secs, PeakHeapMB: float64(peak) / (1 << 20),
		BytesPerEvent: float64(int64(after)-int64(before)) / float64(n), FilePerEvent: float64(file) / float64(n)}
	runtime.KeepAlive(r)
	return m, nil
}

// Seeks times n random seeks of the player (its pool view and its
// mechanism's track, as a frame shows them), after a first seek to the
// end that makes every keyframe; it returns the seeks' times and the
// first's, in ms.
func Seeks(pl *player.Player, n int) (harness.Summary, float64) {
	view := func() {
		pl.View()
		pl.FSMView()
		pl.SLRUView()
	}
	t0 := time.Now()
	pl.Seek(pl.Len())
	view()
	first := float64(time.Since(t0).Nanoseconds()) / 1e6
	rng := rand.New(rand.NewPCG(20, 5))
	xs := make([]float64, n)
	for i := range xs {
		pos := rng.IntN(pl.Len() + 1)
		t0 := time.Now()
		pl.Seek(pos)
		view()
		xs[i] = float64(time.Since(t0).Nanoseconds()) / 1e6
	}
	return harness.Summarise(xs), first
}

// HeatFrames times the pool scene's layout over frames frames of a pool
// of size (zoomed out: the heat map), heatEventsPerFrame events apart.
func HeatFrames(size string, frames int) (harness.Summary, error) {
	src := fmt.Sprintf("config shared_buffers=%s\nrelation t blocks=%d\nbackend A: touch t 0..%d\nrun\n", size, heatBlocks, heatBlocks-1)
	pl, err := player.FromScenario("heat-"+size, src)
	if err != nil {
		return harness.Summary{}, err
	}
	th := layout.Light(1)
	var sc scene.PoolScene
	var l layout.List
	rect := layout.Rect{W: 1200, H: 600}
	xs := make([]float64, 0, frames)
	for i := 0; i < frames; i++ {
		pl.Seek((i + 1) * heatEventsPerFrame % (pl.Len() + 1))
		v := pl.View()
		t0 := time.Now()
		l.Reset()
		sc.Layout(&l, rect, v, th)
		xs = append(xs, float64(time.Since(t0).Nanoseconds())/1e6)
	}
	if !sc.HeatShown() {
		return harness.Summary{}, fmt.Errorf("heat map at %s: the scene drew cells, not the heat map", size)
	}
	return harness.Summarise(xs), nil
}

// heapBytes is the live heap (runtime/metrics' objects).
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// samplePeak samples the heap every 5 ms until the function it returns is
// called, which returns the peak.
func samplePeak() func() uint64 {
	done := make(chan struct{})
	res := make(chan uint64)
	go func() {
		peak := heapBytes()
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				res <- max(peak, heapBytes())
				return
			case <-t.C:
				peak = max(peak, heapBytes())
			}
		}
	}()
	return func() uint64 { close(done); return <-res }
}

func table(r *exp.Report, w io.Writer) {
	exp.QuantileTable(w, r.Rows, "", "unit", func(row exp.Row) string { return row.Unit })
	for _, row := range r.Rows {
		if row.Note != "" {
			fmt.Fprintf(w, "%s: %s\n", row.Name, row.Note)
		}
	}
}
