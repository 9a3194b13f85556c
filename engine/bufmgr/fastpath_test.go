package bufmgr_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/sched"
	"bufferlab/engine/trace"
	"bufferlab/internal/linediff"
)

// TestFastPathMatchesModelled checks the fast path that backends with
// neither a log nor a scheduler take (Backend.hooked: lwAcquire, lwRelease,
// pinBuffer, unpinBuffer) against the modelled path. The same random
// operation streams (randomStreamConfig's, with several backends taking
// turns operation by operation, some under pin pressure) run on three
// pools:
//
//   - fast: no log, no scheduler, so the fast path;
//   - logged: a log, so the modelled path with its events;
//   - yielding: no log, but a scheduler hook that never switches, so the
//     modelled path with its yields and without events.
//
// After every operation the three must have returned the same results and
// be in the same state (StateForTest: descriptors, mapping table, locks,
// freelist, clock hand, each backend's private reference counts and
// statistics) with the same strategy rings. Now and then a buffer pinned by
// two backends or more gets BM_PIN_COUNT_WAITER, so that UnpinBuffer's
// wake-up runs on both paths. Built with bufferlab_nohooks, every pool takes
// the fast path and the test compares it with itself.
func TestFastPathMatchesModelled(t *testing.T) {
	type plan struct {
		nbuffers, backends, ops int
		pressure                bool
	}
	plans := []plan{
		{16, 1, 3000, false}, {16, 3, 3000, false}, {16, 4, 3000, true},
		{64, 2, 4000, false}, {64, 5, 4000, true}, {200, 3, 6000, false},
	}
	seeds := 2
	if testing.Short() || raceEnabled {
		seeds = 1
	}
	for i, pl := range plans {
		if raceEnabled {
			// One goroutine compares three pools: the race detector
			// has little to find here, and each operation costs ten
			// times as much.
			pl.ops /= 4
		}
		for s := 0; s < seeds; s++ {
			seed := uint64(0xfa57<<16 + i*16 + s)
			name := fmt.Sprintf("nbuffers=%d/backends=%d/pressure=%v/seed=%#x", pl.nbuffers, pl.backends, pl.pressure, seed)
			t.Run(name, func(t *testing.T) {
				testFastPath(t, randomStreamConfig(seed, pl.nbuffers, pl.backends, pl.ops, pl.pressure))
			})
		}
	}
}

// fastPathWorld is one pool of TestFastPathMatchesModelled with its
// backends, their BULKREAD rings and the buffers each holds pinned.
type fastPathWorld struct {
	name  string
	p     *bufmgr.Pool
	log   *trace.Log
	bs    []*bufmgr.Backend
	rings []*bufmgr.Strategy
	held  [][]bufmgr.Buffer // with repeats, in pinning order
}

func newFastPathWorld(t *testing.T, name string, cfg streamConfig, logged, yielding bool) *fastPathWorld {
	w := &fastPathWorld{name: name}
	if logged {
		w.log = trace.NewLog()
	}
	p := testPool(t, cfg.NBuffers, w.log, bufmgr.Options{})
	w.p = p
	for i := range cfg.Ops {
		b, err := p.NewBackend(fmt.Sprintf("B%d", i+1))
		if err != nil {
			t.Fatal(err)
		}
		if yielding {
			b.SetYield(func(sched.Point) {}) // runs on at once: the backend is never switched out
		}
		if want := bufmgr.HooksForTest && (logged || yielding); bufmgr.HookedForTest(b) != want {
			t.Fatalf("%s: backend %s hooked %v, want %v", name, b.Name, !want, want)
		}
		w.bs = append(w.bs, b)
		w.rings = append(w.rings, p.GetAccessStrategy(bufmgr.BASBulkRead))
		w.held = append(w.held, nil)
	}
	return w
}

// do runs op for backend bi and describes what the engine returned.
func (w *fastPathWorld) do(bi int, op streamOp, rels []*bufmgr.Relation, holdCap int) string {
	b := w.bs[bi]
	held := &w.held[bi]
	var out strings.Builder
	note := func(format string, args ...any) { fmt.Fprintf(&out, format+"; ", args...) }
	unhold := func(i int) { *held = slices.Delete(*held, i, i+1) }
	pick := func() int { return int(op.Pick) % len(*held) }
	read := func(rel *bufmgr.Relation, f bufmgr.ForkNumber, blk uint32, s *bufmgr.Strategy) bufmgr.Buffer {
		buf, hit, err := b.ReadBuffer(rel, f, blk, s)
		note("read %v: buf %d hit %v err %v", rel.Tag(f, blk), buf, hit, err)
		if errCodeOf(err) == bufmgr.ErrNoUnpinnedBuffers {
			b.AbortTransaction()
			*held = (*held)[:0]
		}
		if err != nil {
			return bufmgr.InvalidBuffer
		}
		*held = append(*held, buf)
		return buf
	}

	rel, f, blk := op.target(rels)
	switch op.Kind {
	case sopReadRelease, sopReadDirtyRelease, sopRingRead, sopReadHold:
		var s *bufmgr.Strategy
		if op.Kind == sopRingRead {
			s = w.rings[bi]
		}
		buf := read(rel, f, blk, s)
		if buf == bufmgr.InvalidBuffer {
			break
		}
		if op.Kind == sopReadDirtyRelease {
			note("dirty: %v", b.MarkBufferDirty(buf))
		}
		if keep := op.Kind == sopReadHold || op.Kind == sopRingRead && op.Pick%4 == 0; !keep || len(*held) > holdCap {
			note("release: %v", b.ReleaseBuffer(buf))
			unhold(len(*held) - 1)
		}
	case sopRelease:
		if len(*held) > 0 {
			i := pick()
			note("release %d: %v", (*held)[i], b.ReleaseBuffer((*held)[i]))
			unhold(i)
		}
	case sopDirtyHeld:
		if len(*held) > 0 {
			buf := (*held)[pick()]
			note("dirty %d: %v", buf, b.MarkBufferDirty(buf))
		}
	case sopScan:
		err := b.SeqScan(rel)
		note("scan %s: %v", rel.Name, err)
		if errCodeOf(err) == bufmgr.ErrNoUnpinnedBuffers {
			b.AbortTransaction()
			*held = (*held)[:0]
		}
	case sopReread:
		if len(*held) > 0 {
			tag := w.p.Desc(int((*held)[pick()]) - 1).Tag()
			for _, r := range rels {
				if r.Number == tag.RelNode {
					read(r, tag.ForkNum, tag.BlockNum, nil)
				}
			}
		}
	case sopReadEOF:
		read(rel, f, rel.NBlocks[f]+op.Blk%3, nil)
	case sopBadRelease:
		buf := bufmgr.Buffer(int(op.Pick)%(w.p.NBuffers+3) - 1)
		if slices.Contains(*held, buf) {
			buf = bufmgr.InvalidBuffer
		}
		note("bad release %d: %v, %v", buf, b.ReleaseBuffer(buf), b.MarkBufferDirty(buf))
	case sopAbort:
		b.AbortTransaction()
		*held = (*held)[:0]
		note("abort")
	}
	return out.String()
}

func testFastPath(t *testing.T, cfg streamConfig) {
	rels := relsForStream(cfg.NBuffers)
	worlds := []*fastPathWorld{
		newFastPathWorld(t, "fast", cfg, false, false),
		newFastPathWorld(t, "logged", cfg, true, false),
		newFastPathWorld(t, "yielding", cfg, false, true),
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0xfa57))
	next := make([]int, len(cfg.Ops)) // each backend's next operation
	total := 0
	for _, ops := range cfg.Ops {
		total += len(ops)
	}
	for n := 0; n < total; n++ {
		bi := rng.IntN(len(cfg.Ops))
		for next[bi] == len(cfg.Ops[bi]) {
			bi = (bi + 1) % len(cfg.Ops)
		}
		op := cfg.Ops[bi][next[bi]]
		next[bi]++
		// Now and then a pin-count waiter on a buffer pinned more than once.
		waiter := -1
		if rng.IntN(16) == 0 {
			for _, id := range rng.Perm(cfg.NBuffers) {
				if bufmgr.StateRefcount(worlds[0].p.Desc(id).State()) >= 2 {
					waiter = id
					break
				}
			}
		}
		var results []string
		for _, w := range worlds {
			if waiter >= 0 {
				bufmgr.SetPinCountWaiterForTest(w.p, waiter, w.bs[bi].Actor)
			}
			results = append(results, w.do(bi, op, rels, cfg.HoldCap))
		}
		where := fmt.Sprintf("seed %#x operation %d (%s by B%d)", cfg.Seed, n, op, bi+1)
		if waiter >= 0 {
			where += fmt.Sprintf(" after a pin-count waiter on buffer %d", waiter)
		}
		fast := worlds[0]
		for i, w := range worlds[1:] {
			if results[i+1] != results[0] {
				t.Fatalf("%s: results differ\n  fast:   %s\n  %-7s %s", where, results[0], w.name+":", results[i+1])
			}
		}
		// The whole state after every operation on small pools, every
		// 16th on larger ones (printing it costs more than the operation).
		if cfg.NBuffers > 16 && n%16 != 15 && n != total-1 {
			continue
		}
		if err := fast.p.CheckInvariants(); err != nil {
			t.Fatalf("%s: fast path: %v", where, err)
		}
		want := bufmgr.StateForTest(fast.p)
		for _, w := range worlds[1:] {
			if got := bufmgr.StateForTest(w.p); got != want {
				t.Fatalf("%s: the %s pool differs from the fast one:\n%s", where, w.name, lineDiff(want, got))
			}
			for bi := range w.rings {
				if g, f := bufmgr.RingForTest(w.rings[bi]), bufmgr.RingForTest(fast.rings[bi]); g != f {
					t.Fatalf("%s: B%d's ring: fast %s, %s %s", where, bi+1, f, w.name, g)
				}
			}
		}
	}
	if bufmgr.HooksForTest && worlds[1].log.Len() == 0 {
		t.Fatal("the logged pool recorded no events")
	}
}

// lineDiff lists the lines where a and b differ.
func lineDiff(a, b string) string {
	var out strings.Builder
	for _, d := range linediff.Differing(a, b) {
		fmt.Fprintf(&out, "  fast:  %s\n  other: %s\n", d[0], d[1])
	}
	return out.String()
}

// TestFastPathFallsBack checks what the fast path leaves to the modelled
// code: a partition lock another backend holds, and a buffer header locked
// when PinBuffer or UnpinBuffer reads the state word. A backend without a
// scheduler cannot wait, so both paths must stop with the same panic and
// leave the pool in the same state.
func TestFastPathFallsBack(t *testing.T) {
	rel := testRel("t", bufmgr.FirstNormalObjectId, 100)
	cases := []struct {
		name string
		run  func(p *bufmgr.Pool, a, b *bufmgr.Backend, kept bufmgr.Buffer)
	}{
		{"partition lock taken", func(p *bufmgr.Pool, a, b *bufmgr.Backend, kept bufmgr.Buffer) {
			bufmgr.LockPartitionForTest(p, rel.Tag(bufmgr.MainForkNum, 0), a.Actor)
			b.ReadBuffer(rel, bufmgr.MainForkNum, 0, nil)
		}},
		{"header locked at PinBuffer", func(p *bufmgr.Pool, a, b *bufmgr.Backend, kept bufmgr.Buffer) {
			id, _ := p.Lookup(rel.Tag(bufmgr.MainForkNum, 0))
			bufmgr.LockHeaderForTest(p, id)
			b.ReadBuffer(rel, bufmgr.MainForkNum, 0, nil)
		}},
		{"header locked at UnpinBuffer", func(p *bufmgr.Pool, a, b *bufmgr.Backend, kept bufmgr.Buffer) {
			bufmgr.LockHeaderForTest(p, int(kept)-1)
			a.ReleaseBuffer(kept)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var panics, states []string
			for _, logged := range []bool{false, true} {
				var log *trace.Log
				if logged {
					log = trace.NewLog()
				}
				p := testPool(t, 16, log, bufmgr.Options{})
				a, _ := p.NewBackend("A")
				b, _ := p.NewBackend("B")
				for blk := uint32(0); blk < 4; blk++ {
					buf := pinBlock(t, a, rel, blk)
					if blk != 1 {
						if err := a.ReleaseBuffer(buf); err != nil {
							t.Fatal(err)
						}
					}
				}
				kept, _ := p.Lookup(rel.Tag(bufmgr.MainForkNum, 1))
				func() {
					defer func() { panics = append(panics, fmt.Sprint(recover())) }()
					tc.run(p, a, b, bufmgr.Buffer(kept+1))
				}()
				states = append(states, bufmgr.StateForTest(p))
			}
			if !strings.Contains(panics[0], "runs unscheduled") || panics[1] != panics[0] {
				t.Fatalf("panics: fast path %q, modelled %q; want the same \"runs unscheduled\"", panics[0], panics[1])
			}
			if states[1] != states[0] {
				t.Fatalf("the pools differ after the panic:\n%s", lineDiff(states[0], states[1]))
			}
		})
	}
}
