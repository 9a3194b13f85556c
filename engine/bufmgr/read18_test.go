package bufmgr_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/sched"
	"bufferlab/engine/trace"
)

// aioRun is one scheduled run at pg=18: clients backends each scanning
// their relation, the pool's I/O workers as processes of their own, under
// policy, with the pool's invariants checked after every event when watch
// is set. It returns the log, the pool and the first error.
func aioRun(t *testing.T, nbuffers int, opt bufmgr.Options, policy sched.Policy, watch bool, rels ...*bufmgr.Relation) (*trace.Log, *bufmgr.Pool, error) {
	t.Helper()
	log := trace.NewLog()
	opt.Version = 18
	p := testPool(t, nbuffers, log, opt)
	check := func() error { return nil }
	if watch {
		check = watchInvariants(log, p)
	}
	s := sched.New(policy)
	var clients []*sched.Proc
	for i, rel := range rels {
		b := testBackend(t, p, string(rune('A'+i)))
		clients = append(clients, b.Spawn(s, func(sched.Yield) error {
			return b.SeqScan(rel)
		}))
	}
	done := func() bool {
		for _, c := range clients {
			if !c.Done() {
				return false
			}
		}
		return true
	}
	for i := range p.IOWorkers() {
		s.Spawn(bufmgr.IOWorkerActor(i), fmt.Sprintf("io worker %d", i), func(y sched.Yield) error {
			return p.RunIOWorker(i, y, done)
		})
	}
	if p.UsesKernel() {
		// The kernel finishes the newest read in flight first.
		s.Spawn(bufmgr.KernelActor(), "kernel", func(y sched.Yield) error {
			return p.RunKernel(y, done, func(n int) int { return n - 1 })
		})
	}
	err := s.Run()
	for _, c := range s.Procs() {
		if err == nil && c.Err() != nil {
			err = c.Err()
		}
	}
	if err == nil {
		err = check()
	}
	if err == nil {
		err = p.CheckQuiescent()
	}
	return log, p, err
}

// completions lists the first block of each AIO handle completed, in the
// order completed, and who completed it.
func completions(log *trace.Log) (blocks []uint64, by []trace.Actor) {
	for e := range log.Range(0, log.Len()) {
		if e.Kind == trace.KAIO && e.Arg&0xff == trace.AIOComplete {
			blocks = append(blocks, e.Before)
			by = append(by, e.Actor)
		}
	}
	return blocks, by
}

// PostgreSQL 18 with io_method=worker: a cold scan's reads are the read
// stream's (the same calls as 17: 1, 2, 4, 8, then 16) whatever the
// schedule, and the I/O workers, not the scanning backend, make and
// complete them. Under seeded random schedules the workers complete the
// reads in flight together out of their order in the table (the
// done-when of issue 21), the pool's invariants hold after every event
// (refcount = pins + the AIO subsystem's), and the same seed gives the
// same trace hash.
func TestAIOWorkersCompleteOutOfOrder(t *testing.T) {
	outOfOrder := 0
	for seed := uint64(1); seed <= 6; seed++ {
		log, p, err := aioRun(t, 16384, bufmgr.Options{EffectiveIOConcurrency: -1}, sched.NewRandom(seed), seed <= 2, testRel("t", 16384, 160))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if got := bufmgr.FormatReadRuns(p.ReadCalls()); got != "1,2,4,8,16x9,1" {
			t.Errorf("seed %d: read calls %s, want 1,2,4,8,16x9,1", seed, got)
		}
		blocks, by := completions(log)
		if len(blocks) != 14 {
			t.Fatalf("seed %d: %d completions, want 14", seed, len(blocks))
		}
		for _, a := range by {
			if _, ok := p.IOWorker(a); !ok {
				t.Errorf("seed %d: a read completed by %s, not an I/O worker", seed, trace.ActorName(a))
			}
		}
		if !slices.IsSorted(blocks) {
			outOfOrder++
		}
		again, _, err := aioRun(t, 16384, bufmgr.Options{EffectiveIOConcurrency: -1}, sched.NewRandom(seed), false, testRel("t", 16384, 160))
		if err != nil || again.Hash() != log.Hash() {
			t.Errorf("seed %d: a second run hashed %x, the first %x (%v)", seed, again.Hash(), log.Hash(), err)
		}
	}
	if outOfOrder == 0 {
		t.Error("no seed of 6 had the I/O workers complete reads out of order")
	}
}

// Two backends scanning at once in a small pool at pg=18: their streams
// share the I/O workers and the pool; rings, eviction and the AIO pins
// keep the invariants, every block of both tables is read, and no pin is
// left.
func TestAIOTwoScansSmallPool(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		_, p, err := aioRun(t, 64, bufmgr.Options{IOWorkers: 2, EffectiveIOConcurrency: -1}, sched.NewRandom(seed), true,
			testRel("t", 16384, 40), testRel("u", 16385, 24))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		blocks := 0
		for _, r := range p.ReadCalls() {
			blocks += r.Blocks * r.Count
		}
		if st := p.Stats(); blocks != 64 || st.Misses != 64 {
			t.Errorf("seed %d: %d blocks read, %d misses; want 64 each", seed, blocks, st.Misses)
		}
	}
}

// io_method=sync at 18: the backend makes every read itself in
// WaitReadBuffers, as 17 does, with 18's stream: the same read calls, no
// handle submitted to a worker.
func TestAIOMethodSync(t *testing.T) {
	log, p, err := aioRun(t, 16384, bufmgr.Options{IOMethod: "sync", EffectiveIOConcurrency: -1}, &sched.RoundRobin{}, false, testRel("t", 16384, 160))
	if err != nil {
		t.Fatal(err)
	}
	if got := bufmgr.FormatReadRuns(p.ReadCalls()); got != "1,2,4,8,16x9,1" || p.IOWorkers() != 0 {
		t.Errorf("read calls %s with %d workers; want 1,2,4,8,16x9,1 with none", got, p.IOWorkers())
	}
	for e := range log.Range(0, log.Len()) {
		if step := e.Arg & 0xff; e.Kind == trace.KAIO && (step == trace.AIOSubmit || step == trace.AIODequeue) {
			t.Fatalf("io_method=sync submitted a handle: %v", e)
		}
	}
}

// Bad settings are refused with what was expected.
func TestAIOOptions(t *testing.T) {
	for _, c := range []struct {
		opt  bufmgr.Options
		want string
	}{
		{bufmgr.Options{Version: 17, IOMethod: "worker"}, "io_method and io_workers are PostgreSQL 18's"},
		{bufmgr.Options{Version: 18, IOMethod: "posix"}, `io_method "posix": expected worker, io_uring or sync`},
		{bufmgr.Options{Version: 18, IOWorkers: 99}, "io_workers 99 outside 1..32"},
	} {
		if _, err := bufmgr.NewPoolWith(64, nil, c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error with %q", c.opt, err, c.want)
		}
	}
}

// Each version's rings at shared_buffers = 128MB: BULKREAD is 256kB (32
// buffers) up to 17, and at 18 256kB + io_combine_limit ×
// effective_io_concurrency blocks capped by the pin limit (94 buffers:
// engine/aio's GetAccessStrategy); VACUUM is 256kB up to 16 and
// vacuum_buffer_usage_limit's 2MB default (256 buffers) from 17.
func TestRingSizesByVersion(t *testing.T) {
	for _, c := range []struct{ version, bulkread, vacuum int }{
		{15, 32, 32}, {16, 32, 32}, {17, 32, 256}, {18, 94, 256},
	} {
		p := testPool(t, 16384, nil, bufmgr.Options{Version: c.version, EffectiveIOConcurrency: -1})
		if got := p.GetAccessStrategy(bufmgr.BASBulkRead).RingSize(); got != c.bulkread {
			t.Errorf("pg %d: BULKREAD ring %d buffers, want %d", c.version, got, c.bulkread)
		}
		if got := p.GetAccessStrategy(bufmgr.BASVacuum).RingSize(); got != c.vacuum {
			t.Errorf("pg %d: VACUUM ring %d buffers, want %d", c.version, got, c.vacuum)
		}
	}
}

// io_method=io_uring at 18: the backend hands its reads to the kernel (a
// process of its own here), which finishes them newest first; the
// completions wait in the backend's ring until it waits and drains them,
// completing each I/O itself (uring.drain). The reads are the stream's
// (1, 2, 4, 8, then 16), no I/O worker runs, the kernel makes every read,
// the backend every completion, and the pool's invariants hold at every
// event.
func TestAIOURing(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		log, p, err := aioRun(t, 16384, bufmgr.Options{IOMethod: "io_uring", EffectiveIOConcurrency: -1}, sched.NewRandom(seed), seed == 1, testRel("t", 16384, 160))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if got := bufmgr.FormatReadRuns(p.ReadCalls()); got != "1,2,4,8,16x9,1" || p.IOWorkers() != 0 || !p.UsesKernel() {
			t.Errorf("seed %d: read calls %s, %d workers, kernel %v", seed, got, p.IOWorkers(), p.UsesKernel())
		}
		drained := 0
		for e := range log.Range(0, log.Len()) {
			switch {
			case e.Kind == trace.KIORead && e.Actor != bufmgr.KernelActor():
				t.Fatalf("seed %d: a read by %s, not the kernel: %v", seed, trace.ActorName(e.Actor), e)
			case e.Kind == trace.KAIO && e.Arg&0xff == trace.AIOComplete:
				if e.Actor != 1 || e.Site.String() != "uring.drain" {
					t.Fatalf("seed %d: a completion by %s at %s, want A draining its ring", seed, trace.ActorName(e.Actor), e.Site)
				}
				drained++
			}
		}
		if drained != 14 {
			t.Errorf("seed %d: %d completions drained, want 14", seed, drained)
		}
	}
}
