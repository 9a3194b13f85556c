package main

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/trace"
	"bufferlab/internal/sceneshot"
	"bufferlab/viz/fsmview"
	"bufferlab/viz/render"
	"bufferlab/viz/scenedraw"
)

func main() { os.Exit(run(os.Args[1:])) }

type options struct {
	variant, workload, table string
	threshold, tables, ff    int
	blocks, ops, buffers     int
	seed                     uint64
	sceneshot.Flags
}

func run(args []string) int {
	var o options
	fs := flag.NewFlagSet("fsmshot", flag.ContinueOnError)
	fs.StringVar(&o.variant, "variant", "always", "always or small-skip")
	fs.IntVar(&o.threshold, "threshold", 0, "small-skip's threshold (0: 4)")
	fs.StringVar(&o.workload, "workload", "seed", "seed (the 002 thread's fill) or random")
	fs.IntVar(&o.tables, "tables", 2, "tables of the seed workload")
	fs.IntVar(&o.ff, "ff", 20, "fillfactor of the seed workload")
	fs.IntVar(&o.blocks, "blocks", 4, "pages each table of the seed workload ends with")
	fs.IntVar(&o.ops, "ops", 60, "operations of the random workload")
	fs.IntVar(&o.buffers, "buffers", 64, "shared buffers")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the random workload")
	fs.StringVar(&o.table, "table", "", "the heap to draw (default: the current event's)")
	o.Register(fs, "fsm.png", "fsm.Describe", "events to apply (-1: all, or none before --at and --match)")
	return sceneshot.Main("fsmshot", fs, &o.Flags, args, func() (sceneshot.Shot, error) {
		sh, err := build(o)
		if err != nil {
			return sceneshot.Shot{}, err
		}
		return sceneshot.Shot{Title: "BufferLab: FSM scene", Caption: sh.desc,
			Draw: func(c *ebiten.Image, r render.Rect, th *render.Theme) { scenedraw.DrawFSMScene(c, r, sh.v, sh.rel, th) }}, nil
	})
}

// build runs the workload and returns the shot: the view at the chosen
// position, the heap to draw and a description of the event there.
func build(o options) (*shot, error) {
	variant, ok := fsm.ParseVariant(o.variant)
	if !ok {
		return nil, fmt.Errorf("unknown variant %q (want always or small-skip)", o.variant)
	}
	opt := fsm.Options{Variant: variant, Threshold: o.threshold}
	log := trace.NewLog()
	var (
		st    *fsm.Store
		setup fsmview.Setup
		mark  int
	)
	switch o.workload {
	case "seed":
		w, err := fsm.NewSeed(fsm.SeedConfig{Tables: o.tables, FillFactor: o.ff, Blocks: o.blocks, Options: opt, NBuffers: o.buffers, Log: log})
		if err != nil {
			return nil, err
		}
		st, mark = w.Store, log.Len()
		setup = fsmview.SetupOf(st, w.FillSession())
		if err := w.Fill(); err != nil {
			return nil, err
		}
	case "random":
		var err error
		if st, setup, err = random(o, opt, log); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unknown workload %q (want seed or random)", o.workload)
	}
	names := func(rel uint32) string {
		if h, ok := st.HeapOf(rel); ok {
			return h.Rel.Name
		}
		return fmt.Sprint(rel)
	}
	evs := log.Events()[mark:]
	describe := func(e trace.Event) string { return fsm.Describe(e, names) }
	if o.Pos < 0 && (o.At != "" || o.Match != "") {
		o.Pos = 0 // search from the start
	}
	pos := o.Stop(evs, describe)
	v := fsmview.New(setup)
	for _, e := range evs[:pos] {
		if err := v.ApplyChecked(e); err != nil {
			return nil, err
		}
	}
	var rel uint32
	switch {
	case o.table != "":
		found := false
		for _, h := range st.Heaps() {
			if h.Rel.Name == o.table {
				rel, found = h.Rel.Number, true
			}
		}
		if !found {
			return nil, fmt.Errorf("no table %q", o.table)
		}
	default:
		rel = st.Heaps()[0].Rel.Number
		if e, ok := v.Current(); ok {
			if s := v.Lane(e.Actor).Search; s.HasOp {
				rel = s.Rel
			}
		}
	}
	return &shot{v: v, rel: rel, desc: sceneshot.Caption(evs, pos, describe)}, nil
}

// random runs a random mix of operations on three heaps by three sessions
// and returns the store and the setup taken before the first event.
func random(o options, opt fsm.Options, log *trace.Log) (*fsm.Store, fsmview.Setup, error) {
	pool, err := bufmgr.NewPool(o.buffers, log)
	if err != nil {
		return nil, fsmview.Setup{}, err
	}
	st, err := fsm.NewStore(pool, opt)
	if err != nil {
		return nil, fsmview.Setup{}, err
	}
	var heaps []*fsm.Heap
	for i, ff := range []int{o.ff, 100, 50} {
		rel := &bufmgr.Relation{Name: fmt.Sprintf("t%d", i+1), Number: bufmgr.FirstNormalObjectId + uint32(i), Permanent: true}
		h, err := st.NewHeap(rel, ff)
		if err != nil {
			return nil, fsmview.Setup{}, err
		}
		heaps = append(heaps, h)
	}
	var sessions []*fsm.Session
	for _, n := range []string{"A", "B", "C"} {
		b, err := pool.NewBackend(n)
		if err != nil {
			return nil, fsmview.Setup{}, err
		}
		s, err := st.NewSession(b)
		if err != nil {
			return nil, fsmview.Setup{}, err
		}
		sessions = append(sessions, s)
	}
	setup := fsmview.SetupOf(st, sessions...)
	rng := rand.New(rand.NewPCG(o.seed, 0xf5))
	tids := make([][]fsm.TID, len(heaps))
	for i := 0; i < o.ops; i++ {
		s := sessions[rng.IntN(len(sessions))]
		k := rng.IntN(len(heaps))
		h := heaps[k]
		var err error
		switch x := rng.IntN(100); {
		case x < 65:
			var tid fsm.TID
			if tid, err = s.HeapInsert(h, []int{28, 60, 200, 1200, 3000}[rng.IntN(5)]); err == nil {
				tids[k] = append(tids[k], tid)
			}
		case x < 85:
			if n := len(tids[k]); n > 0 {
				j := rng.IntN(n)
				err = s.HeapDelete(h, tids[k][j])
				tids[k] = append(tids[k][:j], tids[k][j+1:]...)
			}
		case x < 95:
			err = s.Vacuum(h)
		default:
			_, err = s.GetPageWithFreeSpace(h, rng.IntN(8000))
			s.Abort()
		}
		var pe *fsm.PGError
		if err != nil && !errors.As(err, &pe) {
			return nil, fsmview.Setup{}, err
		}
	}
	return st, setup, nil
}

// shot is what build chose to draw: the view at a position, the heap, and
// a description of the event there.
type shot struct {
	v    *fsmview.View
	rel  uint32
	desc string
}
