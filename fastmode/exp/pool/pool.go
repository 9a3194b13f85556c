package pool

import (
	"fmt"
	"io"
	"runtime"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/scenario"
	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/exp/limits"
	"bufferlab/fastmode/harness"
)

func init() {
	exp.Register(&exp.Experiment{
		Name:         "pool",
		Doc:          "simulated read hit and miss at each shared_buffers beside the limits, and step mode's cost per event",
		TakesSizes:   true,
		DefaultSizes: limits.DefaultSizes,
		QuickSizes:   limits.QuickSizes,
		SummaryKeys:  []string{"hit_ns", "miss_ns", "step_event_ns", "chase_ns", "stream_gbps"},
		Measure:      runPool,
		Table:        poolTable,
	})
}

// BenchPool is a full simulated pool ready for hit or miss reads.
type BenchPool struct {
	Pool    *bufmgr.Pool
	Backend *bufmgr.Backend
	Rel     *bufmgr.Relation
	Next    uint32
	Miss    bool
}

func (bp *BenchPool) read(blk uint32) (bool, error) {
	_, hit, err := exp.ReadRelease(bp.Backend, bp.Rel, blk)
	return hit, err
}

// NewBenchPool builds a pool of nbuffers buffers (nil log), every buffer
// holding block i. For misses it is conditioned as in
// engine/bufmgr/bench_test.go: usage counts alternate 1, 0 along the clock
// from the hand, so each miss runs the sweep for about two ticks.
func NewBenchPool(nbuffers int, miss bool) (*BenchPool, error) {
	p, err := bufmgr.NewPool(nbuffers, nil)
	if err != nil {
		return nil, err
	}
	be, err := p.NewBackend("bench")
	if err != nil {
		return nil, err
	}
	rel := &bufmgr.Relation{Name: "bench", Number: bufmgr.FirstNormalObjectId, Permanent: true}
	rel.NBlocks[bufmgr.MainForkNum] = 1<<30 - 1
	bp := &BenchPool{Pool: p, Backend: be, Rel: rel, Miss: miss}
	for blk := 0; blk < nbuffers; blk++ {
		if _, err := bp.read(uint32(blk)); err != nil {
			return nil, err
		}
	}
	if miss {
		if _, err := bp.read(uint32(nbuffers)); err != nil {
			return nil, err
		}
		for blk := 1; blk < nbuffers; blk += 2 {
			if _, err := bp.read(uint32(blk)); err != nil {
				return nil, err
			}
		}
		bp.Next = uint32(nbuffers + 1)
		if p.NextVictimBuffer() != 1 {
			return nil, fmt.Errorf("miss pool setup: clock hand at %d, want 1", p.NextVictimBuffer())
		}
	}
	return bp, p.CheckQuiescent()
}

// Run performs n reads (+ releases): hits cycle through the resident
// blocks, misses read blocks never read before.
func (bp *BenchPool) Run(n int) error {
	be, rel, next := bp.Backend, bp.Rel, bp.Next
	nb := uint32(bp.Pool.NBuffers)
	last := rel.NBlocks[bufmgr.MainForkNum]
	for i := 0; i < n; i++ {
		if _, _, err := exp.ReadRelease(be, rel, next); err != nil {
			return err
		}
		if next++; !bp.Miss && next == nb {
			next = 0
		} else if next == last {
			next = nb + 1
		}
	}
	bp.Next = next
	return nil
}

// StepScenario is the scenario whose traced, scheduled run measures step
// mode: two backends interleaved by the scheduler, hits and misses with
// the clock sweep.
const StepScenario = `config shared_buffers=1MB
relation t blocks=400
backend A: touch t 0..199
backend B: touch t 100..299
run
`

// RunStep parses and runs the step scenario traced and returns the number
// of events it logged.
func RunStep(script *scenario.Script) (int, error) {
	r, err := scenario.NewRunner(script, true)
	if err != nil {
		return 0, err
	}
	r.SetEventText(false)
	for !r.Done() {
		if _, err := r.Step(); err != nil {
			return 0, err
		}
	}
	return r.Log().Len(), nil
}

func measurePool(cfg harness.Config, size string, nb int, miss bool) (exp.Row, error) {
	bp, err := NewBenchPool(nb, miss)
	if err != nil {
		return exp.Row{}, err
	}
	name := "hit"
	if miss {
		name = "miss"
	}
	before := bp.Backend.Stats
	s, err := harness.MeasureErr(cfg, bp.Run)
	if err != nil {
		return exp.Row{}, err
	}
	d := bp.Backend.Stats
	row := exp.Row{Name: name, SharedBuffers: size, NBuffers: nb, Unit: "ns/op", Summary: s}
	if miss {
		if d.Hits != before.Hits {
			return exp.Row{}, fmt.Errorf("miss run at %s: %d hits", size, d.Hits-before.Hits)
		}
		row.Note = fmt.Sprintf("%.2f clock ticks per miss", float64(d.ClockTicks-before.ClockTicks)/float64(d.Misses-before.Misses))
	} else if d.Misses != before.Misses {
		return exp.Row{}, fmt.Errorf("hit run at %s: %d misses", size, d.Misses-before.Misses)
	}
	return row, nil
}

func runPool(o exp.Options, r *exp.Report) error {
	p := harness.NewProgressFunc(o.Progress, "bench pool", 4*len(o.Sizes)+1, o.OnStep)
	defer p.Done()
	for _, size := range o.Sizes {
		nb, err := bufmgr.ParseSharedBuffers(size)
		if err != nil {
			return err
		}
		for _, miss := range []bool{false, true} {
			p.Step(fmt.Sprintf("pool %s miss=%v", size, miss))
			row, err := measurePool(o.Config, size, nb, miss)
			if err != nil {
				return err
			}
			r.Rows = append(r.Rows, row)
			runtime.GC()
		}
		r.Rows = append(r.Rows, limits.ReferenceRows(o.Config, size, nb, p)...)
	}
	p.Step("step mode")
	script, err := scenario.Parse("step", StepScenario)
	if err != nil {
		return err
	}
	events, err := RunStep(script)
	if err != nil {
		return err
	}
	s, err := harness.MeasureErr(o.Config, func(n int) error {
		var first error
		for i := 0; i < n; i++ {
			if _, err := RunStep(script); err != nil && first == nil {
				first = err
			}
		}
		return first
	})
	if err != nil {
		return err
	}
	per := s
	per.Median, per.P10, per.P90 = s.Median/float64(events), s.P10/float64(events), s.P90/float64(events)
	r.Rows = append(r.Rows, exp.Row{Name: "step_event", Unit: "ns/event", Summary: per,
		Note: fmt.Sprintf("traced scheduled run of a 2-backend scenario, %d events", events)})
	first := o.Sizes[0]
	for _, k := range []struct{ key, name string }{{"hit_ns", "hit"}, {"miss_ns", "miss"}, {"chase_ns", "chase"}, {"stream_gbps", "stream"}} {
		row := r.Row(k.name, first)
		r.Summary[k.key] = row.Median
	}
	r.Summary["step_event_ns"] = per.Median
	return nil
}

func poolTable(r *exp.Report, w io.Writer) {
	tw := exp.NewTable(w)
	fmt.Fprintln(tw, "shared_buffers\tbuffers\thit ns/op\tmiss ns/op\tchase ns/load\tstream GB/s\thit vs miss\thit vs chase\t")
	for _, s := range exp.Sizes(r) {
		h := r.Row("hit", s.SharedBuffers)
		m := r.Row("miss", s.SharedBuffers)
		c := r.Row("chase", s.SharedBuffers)
		st := r.Row("stream", s.SharedBuffers)
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\thit %s\tchase %s\t\n", s.SharedBuffers, s.NBuffers, exp.Num(h.Median), exp.Num(m.Median),
			exp.Num(c.Median), exp.Num(st.Median), exp.Faster(h.Median, m.Median), exp.Faster(c.Median, h.Median))
	}
	tw.Flush()
	if m, ok := exp.Find(r, "miss", r.Rows[0].SharedBuffers); ok && m.Note != "" {
		fmt.Fprintf(w, "miss at %s: %s\n", m.SharedBuffers, m.Note)
	}
	st := r.Row("step_event", "")
	h := r.Row("hit", r.Rows[0].SharedBuffers)
	fmt.Fprintf(w, "\nstep mode: %s ns per event (%s); native hit at %s: %s ns/op, native %s\n",
		exp.Num(st.Median), st.Note, h.SharedBuffers, exp.Num(h.Median), exp.Faster(h.Median, st.Median))
}
