package aio_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"bufferlab/engine/aio"
	"bufferlab/engine/readstream"
	"bufferlab/internal/goldentest"
)

// TestGolden runs the datadriven files in testdata/. Each case builds a
// System (the pool, one backend's AIO handles, the I/O method) and one
// stream, drains it as a heap scan does (aio.Consume: release, then
// read_stream_next_buffer, then bg scheduler steps), ends it and lets the
// workers go idle. The input lines are goldentest.Stream's (heapscan,
// blocks, cached), without heapscan's start=; a heapscan is configured as
// heap_beginscan does in 18 (SEQUENTIAL|USE_BATCHING, BULKREAD above
// NBuffers/4).
//
// Arguments: method=worker|io_uring|sync, workers=N (io_workers),
// order=roundrobin|newest|seed:N (the scheduler), bg=N (steps after each
// buffer; default 0), eic=N, icl=N (io_combine_limit), nbuffers=N,
// handles=N (io_max_concurrency), flags=sequential,batching,full,default,
// stop=K.
//
// Directives: summary (the reads, who made them, completion order,
// distance, waits) and trace (every step).
//
// Regenerate with: go test ./engine/aio -run Golden -rewrite
func TestGolden(t *testing.T) {
	goldentest.Run(t, "testdata/*.txt", goldentest.Shown(runCase, map[string]func(*aio.Log) string{
		"summary": (*aio.Log).Summary,
		"trace":   (*aio.Log).String,
	}))
}

func runCase(t *testing.T, d *goldentest.Case, show func(*aio.Log) string) (string, error) {
	args := goldentest.Args(d)
	cfg := aio.DefaultConfig(0)
	cfg.NBuffers = goldentest.Int(t, d, "nbuffers", aio.DefaultNBuffers)
	for k := range args {
		switch k {
		case "eic":
			cfg.EffectiveIOConcurrency = goldentest.Int(t, d, k, 0)
		case "icl":
			cfg.IOCombineLimitGUC = goldentest.Int(t, d, k, 0)
		case "workers":
			cfg.IOWorkers = goldentest.Int(t, d, k, 0)
		case "handles":
			cfg.IOMaxConcurrency = goldentest.Int(t, d, k, 0)
		case "method":
			m, ok := aio.ParseIOMethod(args[k])
			if !ok {
				return "", fmt.Errorf("method: unknown %q", args[k])
			}
			cfg.IOMethod = m
		case "nbuffers", "order", "bg", "stop", "flags":
		default:
			return "", fmt.Errorf("unknown argument %q", k)
		}
	}
	in, err := goldentest.ParseStream(d)
	if err != nil {
		return "", err
	}
	if in.StartGiven {
		return "", fmt.Errorf("heapscan: start= is engine/readstream's, not modelled here")
	}
	cb := aio.BlockList(goldentest.Blocks[aio.BlockNumber](in.Blocks))
	flagsFromInput := in.HeapScan
	if in.HeapScan {
		cfg = aio.HeapSequentialScanConfig(cfg, int(in.N))
		cb = aio.HeapScanSerial(aio.BlockNumber(in.N), 0)
	}
	cached := goldentest.Blocks[aio.BlockNumber](in.Cached)
	if v, ok := args["flags"]; ok {
		f, err := readstream.ParseFlags(v)
		if err != nil {
			return "", err
		}
		cfg.Flags = f
	} else if !flagsFromInput {
		cfg.Flags = readstream.UseBatching
	}
	sched, err := parseOrder(args["order"])
	if err != nil {
		return "", err
	}
	pool := aio.NewPool(cached...)
	log := &aio.Log{}
	sys, err := aio.NewSystem(cfg, pool, sched, log)
	if err != nil {
		return "", err
	}
	s, err := aio.Begin(sys.Backend(0), cb)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "begin %s io_method=%s", cfg.Flags, cfg.IOMethod)
	if cfg.IOMethod == aio.Worker {
		fmt.Fprintf(&b, " io_workers=%d", cfg.IOWorkers)
	}
	fmt.Fprintf(&b, " handles=%d ring=%d: %s\n", cfg.Handles(), cfg.Strategy.Buffers, s.Params())
	got := aio.Consume(s, goldentest.Int(t, d, "stop", -1), goldentest.Int(t, d, "bg", 0))
	st := s.Stats()
	s.End()
	sys.Quiesce()
	if len(got) != st.Delivered {
		return "", fmt.Errorf("consumer got %d buffers, stream delivered %d", len(got), st.Delivered)
	}
	b.WriteString(show(log))
	ss := sys.Stats()
	fmt.Fprintf(&b, "stream: %d StartReadBuffers, at most %d pinned of %d, %d I/Os in progress of %d, distance up to %d, %d reads held back by the pin limit\n",
		st.StartReads, st.MaxPinned, s.Params().MaxPinnedBuffers, st.MaxIOs, s.Params().MaxIOs, st.MaxDistance, st.PinLimited)
	fmt.Fprintf(&b, "aio: %d submissions of %d I/Os, %d synchronous, at most %d handles in flight, %d steps taken while the backend slept\n",
		ss.Submits, ss.Submitted, ss.Synchronous, ss.MaxInFlight, ss.BlockedSteps)
	fmt.Fprintf(&b, "pins: pool at most %d; after read_stream_end %d\n", pool.MaxPins, pool.Pins)
	return b.String(), nil
}

func parseOrder(v string) (aio.Scheduler, error) {
	switch {
	case v == "" || v == "roundrobin":
		return aio.RoundRobin(), nil
	case v == "newest":
		return aio.NewestFirst(), nil
	case strings.HasPrefix(v, "seed:"):
		n, err := strconv.ParseUint(v[5:], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("order: %v", err)
		}
		return aio.Seeded(n), nil
	}
	return nil, fmt.Errorf("order: unknown %q", v)
}
