package slru_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"bufferlab/engine/sched"
	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
)

// Several backends under the scheduler, interleaved one shared-memory step
// at a time by a seeded random policy, with the invariants checked after
// every event. Each backend owns the xids x with x % nbackends == its index
// on pages 0..npages-1 (pages preformatted on disk), and runs a random
// slru.Mix with Own: status lookups (of its own xids, which must read what
// it set, or of anybody's, which must read a status somebody set or
// in-progress), status updates of its own xids (once each, plus now and
// then a forbidden change, which must fail with ErrStatusChange), read-only
// page lookups, checkpoints. Backend 0 also extends the log past npages
// (ExtendCLOG of the first xid of a new page), which moves
// latest_page_number. At the end: no lock held, no I/O in progress, every
// status readable, and after a checkpoint the disk holds every status.

type concCase struct {
	cfg                      slru.Config
	backends, ops, npages    int
	seed                     uint64
	policy                   sched.Policy // nil: sched.NewRandom(seed)
	checkEveryEvent, wantLog bool
}

type concResult struct {
	hash   uint64
	events int
	record []trace.Actor
	stats  slru.Stats
	sites  map[trace.Site]int // events per site (when logged)
}

func runConcurrent(t testing.TB, c concCase) concResult {
	var log *trace.Log
	if c.wantLog || c.checkEveryEvent {
		log = trace.NewLog()
	}
	s, err := slru.New(c.cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	s.Disk().FormatPages(0, int64(c.npages-1))
	s.StartupCLOG(uint32(c.npages-1) * slru.ClogXactsPerPage)
	if c.checkEveryEvent {
		log.OnAppend = func(e trace.Event) {
			if err := s.CheckInvariants(); err != nil {
				t.Fatalf("after %s: %v\n%s", slru.Describe(e), err, s.Picture())
			}
		}
	}
	policy := c.policy
	if policy == nil {
		policy = sched.NewRandom(c.seed)
	}
	sch := sched.New(policy)
	sch.MaxSteps = 5_000_000
	nb := uint32(c.backends)
	r := rand.New(rand.NewPCG(c.seed, 0xc0ffee))
	plans := slru.Mix{GetStatus: 35, GetAny: 15, SetStatus: 25, ReadOnly: 17, WriteAll: 4, Extend: 4,
		Pages: c.npages, XidSpread: 40, AnySpread: 200, Own: true,
		Statuses: []slru.XidStatus{slru.StatusCommitted, slru.StatusAborted}}.Plans(c.backends, c.ops, r.IntN)
	set := make([]map[uint32]slru.XidStatus, c.backends) // what each backend set
	everSet := map[uint32]bool{}
	for k, ops := range plans {
		set[k] = map[uint32]slru.XidStatus{}
		for _, o := range ops {
			if o.Code == slru.OpSetStatus {
				everSet[o.Xid] = true
			}
		}
	}
	var backends []*slru.Backend
	for k := range plans {
		b, _ := s.NewBackend(fmt.Sprint("B", k))
		backends = append(backends, b)
		b.Spawn(sch, func(sched.Yield) error {
			for i, o := range plans[k] {
				res, err := b.Do(o)
				switch o.Code {
				case slru.OpSetStatus:
					prev, had := set[k][o.Xid]
					if had && prev != o.Status {
						if pe, ok := err.(*slru.PGError); !ok || pe.Code != slru.ErrStatusChange {
							return fmt.Errorf("op %d %v: changing %s to %s: %v, want ErrStatusChange", i, o, prev, o.Status, err)
						}
						continue
					}
					if err != nil {
						return fmt.Errorf("op %d %v: %v", i, o, err)
					}
					set[k][o.Xid] = o.Status
				case slru.OpGetStatus:
					if err != nil {
						return fmt.Errorf("op %d %v: %v", i, o, err)
					}
					if o.Xid%nb == uint32(k) {
						if want := set[k][o.Xid].String(); res != want {
							return fmt.Errorf("op %d %v: read %s, but this backend set %s", i, o, res, want)
						}
					} else if res != "in-progress" && !everSet[o.Xid] {
						return fmt.Errorf("op %d %v: read %s, but nobody sets it", i, o, res)
					}
				default:
					if err != nil {
						return fmt.Errorf("op %d %v: %v", i, o, err)
					}
				}
				if len(b.HeldLocks()) != 0 {
					return fmt.Errorf("op %d %v: holds %v after it", i, o, b.HeldLocks())
				}
			}
			return nil
		})
	}
	if err := sch.Run(); err != nil {
		t.Fatalf("%v\n%s", err, s.Picture())
	}
	for _, p := range sch.Procs() {
		if p.Err() != nil {
			t.Fatalf("%s: %v", p.Name, p.Err())
		}
	}
	if err := s.CheckQuiescent(); err != nil {
		t.Fatalf("%v\n%s", err, s.Picture())
	}
	res := concResult{hash: log.Hash(), events: log.Len(), record: sch.Record(), stats: s.Stats(), sites: map[trace.Site]int{}}
	for _, e := range log.Events() {
		res.sites[e.Site]++
	}
	// Every status reads back, and after a checkpoint it is on disk.
	if log != nil {
		log.OnAppend = nil
	}
	checker, _ := s.NewBackend("check")
	for k := range set {
		for xid, st := range set[k] {
			if got, err := checker.TransactionIdGetStatus(xid); err != nil || got != st {
				t.Fatalf("xid %d: %v, %v; want %v", xid, got, err, st)
			}
		}
	}
	if err := checker.WriteAll(); err != nil {
		t.Fatal(err)
	}
	for k := range set {
		for xid, st := range set[k] {
			d, err := s.Disk().ReadPage(slru.TransactionIdToPage(xid))
			if err != nil {
				t.Fatal(err)
			}
			if got := slru.XidStatus(d[slru.TransactionIdToByte(xid)]>>slru.BitShift(xid)) & 3; got != st {
				t.Fatalf("xid %d on disk: %v, want %v", xid, got, st)
			}
		}
	}
	return res
}

func concCases() []concCase {
	ops := 300
	if testing.Short() || raceEnabled {
		ops = 100
	}
	return []concCase{
		{cfg: slru.Config{Variant: slru.Banks, Slots: 8, BankSize: 4}, backends: 3, ops: ops, npages: 12, seed: 1},
		{cfg: slru.Config{Variant: slru.Banks, Slots: 4, BankSize: 2}, backends: 4, ops: ops, npages: 9, seed: 2},
		{cfg: slru.Config{Variant: slru.Single, Slots: 4}, backends: 3, ops: ops, npages: 7, seed: 3},
		{cfg: slru.Config{Variant: slru.BanksHash, Slots: 8, BankSize: 4}, backends: 3, ops: ops, npages: 12, seed: 4},
		{cfg: slru.Config{Variant: slru.BanksHash, Slots: 6, BankSize: 2, HashTable: slru.HashGoMap}, backends: 5, ops: ops, npages: 10, seed: 5},
		{cfg: slru.Config{Variant: slru.Banks, Slots: 32}, backends: 2, ops: ops, npages: 40, seed: 6},
		{cfg: slru.Config{Variant: slru.Banks, Slots: 12, BankSize: 4, BankRule: slru.BankMask}, backends: 3, ops: ops, npages: 12, seed: 7},
	}
}

func TestConcurrentBackends(t *testing.T) {
	for _, c := range concCases() {
		c.checkEveryEvent = true
		t.Run(fmt.Sprintf("%s/slots=%d/bank=%d/backends=%d", c.cfg.Variant, c.cfg.Slots, c.cfg.BankSize, c.backends), func(t *testing.T) {
			r := runConcurrent(t, c)
			if r.stats.LockWaits == 0 {
				t.Errorf("no lock wait in %d events: the schedule never made backends meet", r.events)
			}
			t.Logf("%d events, stats %+v", r.events, r.stats)
		})
	}
}

// The small caches make the rare paths happen somewhere in these runs:
// waits for I/O (for a read, for a write, for every candidate busy), dirty
// victims written back, statuses set on pages being written. (LRU counts
// lost by racing SlruRecentlyUsed calls and reset by SlruSelectLRUPage
// need a precise schedule: testdata/concurrency.txt has one.)
func TestConcurrentRarePathsHappen(t *testing.T) {
	var total slru.Stats
	sites := map[trace.Site]int{}
	for _, c := range concCases() {
		c.wantLog = true
		r := runConcurrent(t, c)
		total.Add(r.stats)
		for k, v := range r.sites {
			sites[k] += v
		}
	}
	if total.IOWaits == 0 || total.DirtyVictims == 0 || total.Errors == 0 {
		t.Errorf("rare paths not reached: %+v", total)
	}
	for _, name := range []string{"slru.read.wait", "slru.write.wait", "slru.sel.wait", "slru.sel.busy",
		"slru.sel.latest", "slru.waitio.io-lock", "slru.clog.set-dirty", "slru.sel16.latest"} {
		site, _ := trace.LookupSite(name)
		if sites[site] == 0 {
			t.Errorf("no event at %s", name)
		}
	}
	t.Logf("%+v", total)
}

// Same seed and schedule, same trace; a recorded schedule replays it; a
// different schedule gives another trace.
func TestDeterminism(t *testing.T) {
	for _, c := range concCases()[:3] {
		c.wantLog = true
		r1 := runConcurrent(t, c)
		r2 := runConcurrent(t, c)
		if r1.hash != r2.hash || r1.events != r2.events || !slices.Equal(r1.record, r2.record) {
			t.Fatalf("seed %d: two runs differ: %#x/%#x, %d/%d events", c.seed, r1.hash, r2.hash, r1.events, r2.events)
		}
		c3 := c
		c3.policy = &sched.Script{Actors: r1.record}
		if r3 := runConcurrent(t, c3); r3.hash != r1.hash {
			t.Fatalf("seed %d: replaying the schedule gives %#x, want %#x", c.seed, r3.hash, r1.hash)
		}
		c4 := c
		c4.policy = sched.NewRandom(c.seed + 1000)
		if r4 := runConcurrent(t, c4); r4.hash == r1.hash {
			t.Fatalf("seed %d: another schedule gives the same trace", c.seed)
		}
	}
}

// goldenHash is the trace hash of goldenCase. It must be the same natively
// and under GOOS=js GOARCH=wasm:
//
//	go test ./engine/slru -run GoldenHash
//	PATH=$PATH:$(go env GOROOT)/lib/wasm GOOS=js GOARCH=wasm go test ./engine/slru -run GoldenHash
//
// A deliberate change to the events or to the stream changes it: update it
// then, and say why. Sites are hashed by name, so the packages linked into
// the test binary do not matter.
//
// 0xb8d0ccb296250eea → 0xfa3b90978fc3e2cf: the events moved to engine/trace's
// SLRU kinds and classes (the same events in the same order, with new Kind
// and Class values). 0xfa3b90978fc3e2cf → 0xb564363bdd810b8b: Log.Hash
// hashes each site by name instead of by number.
const (
	goldenHash   = 0xb564363bdd810b8b
	goldenEvents = 14758
)

func goldenCase() concCase {
	return concCase{cfg: slru.Config{Variant: slru.Banks, Slots: 8, BankSize: 4}, backends: 3, ops: 150, npages: 12, seed: 42, wantLog: true}
}

func TestGoldenHash(t *testing.T) {
	r := runConcurrent(t, goldenCase())
	if r.hash != goldenHash || r.events != goldenEvents {
		t.Fatalf("trace hash %#x with %d events, want %#x with %d", r.hash, r.events, uint64(goldenHash), goldenEvents)
	}
}
