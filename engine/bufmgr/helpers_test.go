package bufmgr_test

import (
	"fmt"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
)

// Helpers shared by this package's tests: building pools, backends and
// relations with a test failure instead of an error to check, reading a
// block and releasing it (and the benchmarks' timed loop of that), and
// checking the pool's invariants after every event.

// testRel builds a relation numbered num with the given fork sizes (main,
// fsm, vm, init; missing ones are 0).
func testRel(name string, num uint32, sizes ...uint32) *bufmgr.Relation {
	r := &bufmgr.Relation{Name: name, Number: num, Permanent: true}
	for f, n := range sizes {
		r.NBlocks[f] = n
	}
	return r
}

func testPool(tb testing.TB, nbuffers int, log *trace.Log, opt bufmgr.Options) *bufmgr.Pool {
	tb.Helper()
	p, err := bufmgr.NewPoolWith(nbuffers, log, opt)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

func testBackend(tb testing.TB, p *bufmgr.Pool, name string) *bufmgr.Backend {
	tb.Helper()
	b, err := p.NewBackend(name)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// sizedPool builds a benchmark's pool of shared_buffers = size, with a nil
// log (the fast path) and opt, and its backend "bench".
func sizedPool(b *testing.B, size string, opt bufmgr.Options) (*bufmgr.Pool, *bufmgr.Backend) {
	b.Helper()
	n, err := bufmgr.ParseSharedBuffers(size)
	if err != nil {
		b.Fatal(err)
	}
	p := testPool(b, n, nil, opt)
	return p, testBackend(b, p, "bench")
}

// pinBlock reads block blk of rel's main fork and keeps it pinned.
func pinBlock(tb testing.TB, b *bufmgr.Backend, rel *bufmgr.Relation, blk uint32) bufmgr.Buffer {
	tb.Helper()
	buf, _, err := b.ReadBuffer(rel, bufmgr.MainForkNum, blk, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return buf
}

// readRelease reads a block and releases it (optionally dirtying it).
func readRelease(tb testing.TB, b *bufmgr.Backend, rel *bufmgr.Relation, f bufmgr.ForkNumber, blk uint32, dirty bool) {
	tb.Helper()
	buf, _, err := b.ReadBuffer(rel, f, blk, nil)
	if err != nil {
		tb.Fatalf("reading %s/%v/%d: %v", rel.Name, f, blk, err)
	}
	if dirty {
		if err := b.MarkBufferDirty(buf); err != nil {
			tb.Fatal(err)
		}
	}
	if err := b.ReleaseBuffer(buf); err != nil {
		tb.Fatal(err)
	}
}

// timeReads is the timed loop of the read-path benchmarks: b.N times
// ReadBuffer of rel's main-fork block blk and ReleaseBuffer, blk = step(blk)
// after each, between b.ResetTimer and b.StopTimer. It returns the block
// that would come next.
func timeReads(b *testing.B, be *bufmgr.Backend, rel *bufmgr.Relation, blk uint32, step func(uint32) uint32) uint32 {
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf, _, err := be.ReadBuffer(rel, bufmgr.MainForkNum, blk, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := be.ReleaseBuffer(buf); err != nil {
			b.Fatal(err)
		}
		blk = step(blk)
	}
	b.StopTimer()
	return blk
}

// watchInvariants makes log check p's invariants after every event
// (CheckInvariants, O(NBuffers) each) and returns a func that reports the
// first one found broken, nil while none is. It replaces log.OnAppend;
// install it before the operations it is to watch.
func watchInvariants(log *trace.Log, p *bufmgr.Pool) func() error {
	var first error
	log.OnAppend = func(e trace.Event) {
		if first == nil {
			if err := p.CheckInvariants(); err != nil {
				first = fmt.Errorf("after event %v: %w", e, err)
			}
		}
	}
	return func() error { return first }
}
