package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/engine/sched"
	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
	"bufferlab/internal/sceneshot"
	"bufferlab/viz/render"
	"bufferlab/viz/scenedraw"
	"bufferlab/viz/slruview"
)

func main() { os.Exit(run(os.Args[1:])) }

type options struct {
	variant               string
	slots, bank, backends int
	ops, pages            int
	seed                  uint64
	script                string
	sceneshot.Flags
}

func run(args []string) int {
	var o options
	fs := flag.NewFlagSet("slrushot", flag.ContinueOnError)
	fs.StringVar(&o.variant, "variant", "banks", "single, banks or banks+hash")
	fs.IntVar(&o.slots, "slots", 32, "number of slots")
	fs.IntVar(&o.bank, "bank", 0, "slots per bank (0: 16; single: all)")
	fs.IntVar(&o.backends, "backends", 3, "backends of the random workload")
	fs.IntVar(&o.ops, "ops", 30, "operations per backend of the random workload")
	fs.IntVar(&o.pages, "pages", 0, "pages on disk (0: twice the slots)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the workload and of the schedule")
	fs.StringVar(&o.script, "script", "", `operations instead of the random workload: "A: get 100000; B: read-only 3"`)
	o.Register(fs, "slru.png", "slru.Describe", "events to apply (-1: all)")
	return sceneshot.Main("slrushot", fs, &o.Flags, args, func() (sceneshot.Shot, error) {
		v, desc, err := build(o)
		if err != nil {
			return sceneshot.Shot{}, err
		}
		return sceneshot.Shot{Title: "BufferLab: SLRU scene", Caption: desc,
			Draw: func(c *ebiten.Image, r render.Rect, th *render.Theme) {
				body, counters := r.SplitBottom(46)
				scenedraw.DrawSLRUScene(c, body, v, th)
				scenedraw.DrawSLRUCounters(c, counters.Inset(2), v, th)
			}}, nil
	})
}

// build runs the workload and returns the view at the chosen position and
// a description of the event there.
func build(o options) (*slruview.View, string, error) {
	variant, err := slru.ParseVariant(o.variant)
	if err != nil {
		return nil, "", err
	}
	log := trace.NewLog()
	s, err := slru.New(slru.Config{Variant: variant, Slots: o.slots, BankSize: o.bank}, log)
	if err != nil {
		return nil, "", err
	}
	pages := o.pages
	if pages <= 0 {
		pages = 2 * o.slots
	}
	s.Disk().FormatPages(0, int64(pages-1))
	s.StartupCLOG(uint32(pages-1) * slru.ClogXactsPerPage)
	g := slruview.GeometryOf(s)

	plans, names, err := workload(o, pages)
	if err != nil {
		return nil, "", err
	}
	sch := sched.New(sched.NewRandom(o.seed))
	for k, ops := range plans {
		b, err := s.NewBackend(names[k+1])
		if err != nil {
			return nil, "", err
		}
		b.Spawn(sch, func(sched.Yield) error {
			return b.DoAll(ops)
		})
	}
	if err := sch.Run(); err != nil {
		return nil, "", err
	}
	for _, p := range sch.Procs() {
		if p.Err() != nil {
			return nil, "", fmt.Errorf("%s: %v", p.Name, p.Err())
		}
	}
	evs := log.Events()
	pos := o.Stop(evs, slru.Describe)
	v := slruview.New(g, names)
	for _, e := range evs[:pos] {
		if err := v.ApplyChecked(e); err != nil {
			return nil, "", err
		}
	}
	return v, sceneshot.Caption(evs, pos, slru.Describe), nil
}

// workload returns each backend's operations and the lane names.
func workload(o options, pages int) ([][]slru.Op, []string, error) {
	names := []string{"sys"}
	if o.script != "" {
		var plans [][]slru.Op
		idx := map[string]int{}
		for _, part := range strings.Split(o.script, ";") {
			if strings.TrimSpace(part) == "" {
				continue
			}
			name, text, ok := strings.Cut(part, ":")
			if !ok {
				return nil, nil, fmt.Errorf("--script %q: want BACKEND: OPERATION", part)
			}
			name = strings.TrimSpace(name)
			op, err := slru.ParseOp(text)
			if err != nil {
				return nil, nil, fmt.Errorf("--script %q: %v", part, err)
			}
			k, ok := idx[name]
			if !ok {
				k = len(plans)
				idx[name] = k
				plans = append(plans, nil)
				names = append(names, name)
			}
			plans[k] = append(plans[k], op)
		}
		return plans, names, nil
	}
	r := rand.New(rand.NewPCG(o.seed, 0x51))
	plans := slru.Mix{GetStatus: 50, SetStatus: 25, ReadOnly: 17, WriteAll: 4, Extend: 4,
		Pages: pages, XidFrom: 3, XidSpread: 1000}.Plans(o.backends, o.ops, r.IntN)
	for k, ops := range plans {
		names = append(names, trace.ActorName(trace.Actor(k+1)))
		for i := range ops {
			if ops[i].Code == slru.OpSetStatus {
				ops[i].Xid += uint32(k) // the same draw by two backends sets two xids
			}
		}
	}
	return plans, names, nil
}
