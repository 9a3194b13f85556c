package limits

import (
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	"bufferlab/engine/bufmgr"
	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/harness"
)

const words = exp.DescBytes / 8

// DefaultSizes and QuickSizes are the shared_buffers sizes the experiment
// measures by default and with --quick; pool, which prints these figures
// beside its own, measures at the same sizes.
var (
	DefaultSizes = []string{"128MB", "1GB", "20GB"}
	QuickSizes   = []string{"128MB", "1GB"}
)

func init() {
	exp.Register(&exp.Experiment{
		Name:         "limits",
		Doc:          "streaming bandwidth, dependent-load latency and CAS cost at the descriptor array's size",
		TakesSizes:   true,
		DefaultSizes: DefaultSizes,
		QuickSizes:   QuickSizes,
		SummaryKeys:  []string{"stream_gbps", "chase_ns", "cas_ns", "cas_contended_ns"},
		Measure:      runLimits,
		Table:        limitsTable,
	})
}

// Sink keeps results alive.
var Sink atomic.Uint64

// NewStream returns an array of nbuffers descriptors' size.
func NewStream(nbuffers int) []uint64 {
	a := make([]uint64, nbuffers*words)
	for i := range a {
		a[i] = uint64(i)
	}
	return a
}

// Stream reads a from start to end and returns a sum of it.
func Stream(a []uint64) uint64 {
	var s0, s1, s2, s3 uint64
	for i := 0; i+8 <= len(a); i += 8 {
		s0 += a[i] + a[i+4]
		s1 += a[i+1] + a[i+5]
		s2 += a[i+2] + a[i+6]
		s3 += a[i+3] + a[i+7]
	}
	return s0 + s1 + s2 + s3
}

// NewChase returns nbuffers 64-byte nodes linked in a random cyclic
// permutation (Sattolo's algorithm): the first word of node i holds the
// index of the next node's first word.
func NewChase(nbuffers int, seed uint64) []uint64 {
	perm := make([]uint32, nbuffers)
	for i := range perm {
		perm[i] = uint32(i)
	}
	r := rand.New(rand.NewPCG(seed, 1))
	for i := nbuffers - 1; i > 0; i-- {
		j := r.IntN(i)
		perm[i], perm[j] = perm[j], perm[i]
	}
	a := make([]uint64, nbuffers*words)
	for i := range perm {
		a[i*words] = uint64(perm[i]) * words
	}
	return a
}

// Chase follows n links from p and returns where it ends.
func Chase(a []uint64, p uint64, n int) uint64 {
	for i := 0; i < n; i++ {
		p = a[p]
	}
	return p
}

// CAS performs n successful compare-and-swaps on w.
func CAS(w *atomic.Uint64, n int) {
	v := w.Load()
	for i := 0; i < n; i++ {
		if !w.CompareAndSwap(v, v+1) {
			v = w.Load()
			continue
		}
		v++
	}
}

// Contended starts a goroutine that increments w with CAS until the
// returned function is called.
func Contended(w *atomic.Uint64) (stop func()) {
	var done atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	started := make(chan struct{})
	go func() {
		defer wg.Done()
		close(started)
		for !done.Load() {
			CAS(w, 64)
		}
	}()
	<-started
	return func() { done.Store(true); wg.Wait() }
}

// StreamRow measures streaming bandwidth over nbuffers descriptors.
func StreamRow(cfg harness.Config, size string, nbuffers int) exp.Row {
	a := NewStream(nbuffers)
	s := harness.Measure(cfg, func(n int) {
		var x uint64
		for i := 0; i < n; i++ {
			x += Stream(a)
		}
		Sink.Add(x)
	})
	b := float64(len(a) * 8)
	// One op is one pass; convert ns per pass to GB/s (the quantiles swap).
	g := s
	g.Median, g.P10, g.P90 = b/s.Median, b/s.P90, b/s.P10
	return exp.Row{Name: "stream", SharedBuffers: size, NBuffers: nbuffers, Bytes: int64(b), Unit: "GB/s", Summary: g}
}

// ChaseRow measures the dependent-load latency over nbuffers descriptors.
func ChaseRow(cfg harness.Config, size string, nbuffers int) exp.Row {
	a := NewChase(nbuffers, uint64(nbuffers))
	var p uint64
	s := harness.Measure(cfg, func(n int) { p = Chase(a, p, n) })
	Sink.Add(p)
	return exp.Row{Name: "chase", SharedBuffers: size, NBuffers: nbuffers, Bytes: int64(len(a) * 8), Unit: "ns/load", Summary: s}
}

func casRows(cfg harness.Config) []exp.Row {
	var w atomic.Uint64
	un := harness.Measure(cfg, func(n int) { CAS(&w, n) })
	note := ""
	if runtime.GOMAXPROCS(0) < 2 {
		note = "GOMAXPROCS < 2: the two goroutines take turns, so this is not truly contended"
	}
	stop := Contended(&w)
	con := harness.Measure(cfg, func(n int) { CAS(&w, n) })
	stop()
	return []exp.Row{
		{Name: "cas", Unit: "ns/op", Summary: un},
		{Name: "cas_contended", Unit: "ns/op", Summary: con, Note: note},
	}
}

// ReferenceRows measures the stream row, then the chase row, at one size
// (a progress step each) and collects the garbage after.
func ReferenceRows(cfg harness.Config, size string, nbuffers int, p *harness.Progress) []exp.Row {
	p.Step("stream " + size)
	stream := StreamRow(cfg, size, nbuffers)
	p.Step("chase " + size)
	chase := ChaseRow(cfg, size, nbuffers)
	runtime.GC()
	return []exp.Row{stream, chase}
}

// limitsAt measures the stream and chase rows for each size.
func limitsAt(o exp.Options, p *harness.Progress) ([]exp.Row, error) {
	var rows []exp.Row
	for _, size := range o.Sizes {
		nb, err := bufmgr.ParseSharedBuffers(size)
		if err != nil {
			return nil, err
		}
		rows = append(rows, ReferenceRows(o.Config, size, nb, p)...)
	}
	return rows, nil
}

func runLimits(o exp.Options, r *exp.Report) error {
	p := harness.NewProgressFunc(o.Progress, "bench limits", 2*len(o.Sizes)+1, o.OnStep)
	defer p.Done()
	rows, err := limitsAt(o, p)
	if err != nil {
		return err
	}
	p.Step("cas")
	rows = append(rows, casRows(o.Config)...)
	r.Rows = rows
	first := o.Sizes[0]
	for _, row := range rows {
		switch {
		case row.Name == "stream" && row.SharedBuffers == first:
			r.Summary["stream_gbps"] = row.Median
		case row.Name == "chase" && row.SharedBuffers == first:
			r.Summary["chase_ns"] = row.Median
		case row.Name == "cas":
			r.Summary["cas_ns"] = row.Median
		case row.Name == "cas_contended":
			r.Summary["cas_contended_ns"] = row.Median
		}
	}
	return nil
}

func limitsTable(r *exp.Report, w io.Writer) {
	tw := exp.NewTable(w)
	fmt.Fprintln(tw, "shared_buffers\tbuffers\tarray\tstream GB/s\t(p10–p90)\tchase ns/load\t(p10–p90)\t")
	for _, s := range exp.Sizes(r) {
		st := r.Row("stream", s.SharedBuffers)
		ch := r.Row("chase", s.SharedBuffers)
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s–%s\t%s\t%s–%s\t\n", s.SharedBuffers, s.NBuffers, bufmgr.FormatSize(st.Bytes),
			exp.Num(st.Median), exp.Num(st.P10), exp.Num(st.P90), exp.Num(ch.Median), exp.Num(ch.P10), exp.Num(ch.P90))
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = exp.NewTable(w)
	fmt.Fprintln(tw, "CAS\tns/op\t(p10–p90)\t")
	un := r.Row("cas", "")
	con := r.Row("cas_contended", "")
	fmt.Fprintf(tw, "uncontended\t%s\t%s–%s\t\n", exp.Num(un.Median), exp.Num(un.P10), exp.Num(un.P90))
	fmt.Fprintf(tw, "contended (2 goroutines)\t%s\t%s–%s\t\n", exp.Num(con.Median), exp.Num(con.P10), exp.Num(con.P90))
	tw.Flush()
	fmt.Fprintf(w, "uncontended CAS is %s than contended\n", exp.Faster(un.Median, con.Median))
	if con.Note != "" {
		fmt.Fprintln(w, "note:", con.Note)
	}
}
