package readstream_test

import (
	"fmt"
	"strings"
	"testing"

	"bufferlab/engine/readstream"
	"bufferlab/internal/goldentest"
)

// TestGolden runs the datadriven files in testdata/. Each case builds one
// stream over a MemPool, drains it as a heap scan does (Consume: release
// the previous buffer, then read_stream_next_buffer) and ends it. The
// input lines are goldentest.Stream's (heapscan, blocks, cached); a
// heapscan's callback is heap_scan_stream_read_next_serial, with the
// configuration heap_beginscan gives its stream.
//
// Directive arguments override the configuration (PG 17.9's defaults on
// Linux unless the input says heapscan): flags=(sequential,maintenance,
// full) or flags=default, eic=N (effective_io_concurrency), mic=N
// (maintenance_io_concurrency), icl=N (io_combine_limit), nbuffers=N,
// strategy=none|bulkread|vacuum|bulkwrite, prefetch=off (no USE_PREFETCH),
// fastpath=off (READ_STREAM_DISABLE_FAST_PATH), stop=K (take K buffers,
// then read_stream_end).
//
// Directives:
//
//	stream  the parameters Begin chose, the StartReadBuffers calls, the
//	        smgrreadv calls, the distance's changes, the blocks delivered
//	        and the pins
//	trace   the parameters, then every step with the stream's state after
//	        it, then the pins
//
// Regenerate with: go test ./engine/readstream -run Golden -rewrite
func TestGolden(t *testing.T) {
	goldentest.Run(t, "testdata/*.txt", goldentest.Shown(runCase, map[string]func(*readstream.Log) string{
		"stream": (*readstream.Log).Summary,
		"trace":  (*readstream.Log).String,
	}))
}

// runCase builds, drains and ends the case's stream; its output is the
// parameters, show's text of the log, and the pins.
func runCase(t *testing.T, d *goldentest.Case, show func(*readstream.Log) string) (string, error) {
	args := goldentest.Args(d)
	nbuffers := goldentest.Int(t, d, "nbuffers", readstream.DefaultNBuffers)
	cfg := readstream.DefaultConfig(0)
	cfg.NBuffers = nbuffers
	in, err := goldentest.ParseStream(d)
	if err != nil {
		return "", err
	}
	cb := readstream.BlockList(goldentest.Blocks[readstream.BlockNumber](in.Blocks))
	if in.HeapScan {
		cfg = readstream.HeapSequentialScanConfig(int(in.N), nbuffers)
		cb = readstream.HeapScanSerial(readstream.BlockNumber(in.N), readstream.BlockNumber(in.Start))
	}
	cached := goldentest.Blocks[readstream.BlockNumber](in.Cached)
	if err := applyArgs(t, d, args, &cfg); err != nil {
		return "", err
	}

	pool := readstream.NewMemPool(cached...)
	log := &readstream.Log{}
	s, err := readstream.Begin(cfg, pool, cb, log)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "begin %s: %s\n", cfg.Flags, s.Params())
	got := readstream.Consume(s, goldentest.Int(t, d, "stop", -1))
	if len(got) != s.Stats().Delivered {
		return "", fmt.Errorf("consumer got %d buffers, stream delivered %d", len(got), s.Stats().Delivered)
	}
	maxPinned := s.Stats().MaxPinned
	s.End()
	b.WriteString(show(log))
	fmt.Fprintf(&b, "pins: stream at most %d of max_pinned_buffers %d; pool at most %d; after read_stream_end %d\n",
		maxPinned, s.Params().MaxPinnedBuffers, pool.MaxPins, pool.Pins)
	return b.String(), nil
}

// applyArgs sets the configuration the directive's arguments name.
func applyArgs(t *testing.T, d *goldentest.Case, args map[string]string, cfg *readstream.Config) error {
	for k, v := range args {
		switch k {
		case "nbuffers", "stop":
			// read elsewhere
		case "flags":
			f, err := readstream.ParseFlags(v)
			if err != nil {
				return err
			}
			cfg.Flags = f
		case "eic":
			cfg.EffectiveIOConcurrency = goldentest.Int(t, d, k, 0)
		case "mic":
			cfg.MaintenanceIOConcurrency = goldentest.Int(t, d, k, 0)
		case "icl":
			cfg.IOCombineLimit = goldentest.Int(t, d, k, 0)
		case "strategy":
			types := map[string]readstream.StrategyType{"none": readstream.NoStrategy,
				"bulkread": readstream.BulkRead, "bulkwrite": readstream.BulkWrite, "vacuum": readstream.Vacuum}
			st, ok := types[v]
			if !ok {
				return fmt.Errorf("strategy: unknown %q", v)
			}
			cfg.Strategy = readstream.RingStrategy(st, cfg.NBuffers)
		case "prefetch":
			if v != "off" {
				return fmt.Errorf("prefetch: only prefetch=off")
			}
			cfg.NoPrefetch = true
		case "fastpath":
			if v != "off" {
				return fmt.Errorf("fastpath: only fastpath=off")
			}
			cfg.DisableFastPath = true
		default:
			return fmt.Errorf("unknown argument %q", k)
		}
	}
	return nil
}
