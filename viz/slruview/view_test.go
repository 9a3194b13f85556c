package slruview_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"bufferlab/engine/sched"
	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
	"bufferlab/viz/slruview"
	"bufferlab/viz/viewkit/viewtest"
)

// workload is a random multi-backend SLRU run under a seeded random
// schedule: each backend runs a mix of status lookups (some of pages not on
// disk, which fail), status updates (some of them forbidden changes, which
// fail), read-only and exclusive page reads and checkpoints; backend A also
// extends the commit log, which zeroes new pages and moves
// latest_page_number. The caches are small, so that victims, dirty
// write-backs, waits for I/O and lock waits happen often.
type workload struct {
	name     string
	cfg      slru.Config
	backends int
	ops      int
	npages   int // pages 0 .. npages-1 are on disk
	seed     uint64
}

func workloads() []workload {
	ops := viewtest.Size(90, 40)
	return []workload{
		{"banks-2x4", slru.Config{Variant: slru.Banks, Slots: 8, BankSize: 4}, 3, ops, 12, 1},
		{"banks-4x2", slru.Config{Variant: slru.Banks, Slots: 8, BankSize: 2}, 4, ops, 10, 2},
		{"single-6", slru.Config{Variant: slru.Single, Slots: 6}, 3, ops, 9, 3},
		{"hash-2x4", slru.Config{Variant: slru.BanksHash, Slots: 8, BankSize: 4}, 3, ops, 12, 4},
		{"hash-gomap-3x2", slru.Config{Variant: slru.BanksHash, Slots: 6, BankSize: 2, HashTable: slru.HashGoMap}, 4, ops, 9, 5},
		{"banks-mask-3x4", slru.Config{Variant: slru.Banks, Slots: 12, BankSize: 4, BankRule: slru.BankMask}, 3, ops, 12, 6},
		{"banks-2x16", slru.Config{Variant: slru.Banks, Slots: 32}, 2, ops, 40, 7},
	}
}

// plan draws each backend's operations.
func (w workload) plan() [][]slru.Op {
	r := rand.New(rand.NewPCG(w.seed, 0x5eed))
	return slru.Mix{GetStatus: 40, GetMissing: 2, SetStatus: 23, ReadOnly: 17, Read: 8, WriteAll: 5, Extend: 5,
		Pages: w.npages, XidFrom: 3, XidSpread: 64,
		Statuses: []slru.XidStatus{slru.StatusCommitted, slru.StatusAborted}}.Plans(w.backends, w.ops, r.IntN)
}

// run executes the workload with a log whose OnAppend calls onEvent (when
// not nil) after every event, with the SLRU and the scheduler.
func (w workload) run(t testing.TB, onEvent func(*slru.SLRU, *sched.Scheduler, trace.Event)) (*slru.SLRU, *trace.Log, slruview.Geometry) {
	t.Helper()
	log := trace.NewLog()
	s, err := slru.New(w.cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	s.Disk().FormatPages(0, int64(w.npages-1))
	s.StartupCLOG(uint32(w.npages-1) * slru.ClogXactsPerPage)
	g := slruview.GeometryOf(s)
	sch := sched.New(sched.NewRandom(w.seed))
	sch.MaxSteps = 2_000_000
	if onEvent != nil {
		log.OnAppend = func(e trace.Event) { onEvent(s, sch, e) }
	}
	for k, ops := range w.plan() {
		b, err := s.NewBackend(trace.ActorName(trace.Actor(k + 1)))
		if err != nil {
			t.Fatal(err)
		}
		b.Spawn(sch, func(sched.Yield) error {
			return b.DoAll(ops)
		})
	}
	viewtest.RunProcs(t, sch, s.Picture)
	if err := s.CheckQuiescent(); err != nil {
		t.Fatal(err)
	}
	return s, log, g
}

func names(n int) []string {
	out := []string{"sys"}
	for a := 1; a <= n; a++ {
		out = append(out, trace.ActorName(trace.Actor(a)))
	}
	return out
}

// compare checks the view against the SLRU's own state: every slot (page,
// status, dirty flag, LRU count and age, buffer lock), every bank (lock,
// LRU counter, hash table), latest_page_number, and the counters, in total
// and per backend. It returns "" when they agree.
func compare(v *slruview.View, s *slru.SLRU) string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if v.NumSlots() != s.NumSlots() || v.NumBanks() != s.NumBanks() || v.BankSize() != s.BankSize() {
		return fmt.Sprintf("geometry %d/%d/%d vs engine %d/%d/%d", v.NumSlots(), v.NumBanks(), v.BankSize(), s.NumSlots(), s.NumBanks(), s.BankSize())
	}
	for i := 0; i < s.NumSlots(); i++ {
		es, vs := s.Slot(i), v.Slot(i)
		if es.Page != vs.Page || es.Status != vs.Status || es.Dirty != vs.Dirty || es.LRUCount != vs.LRUCount {
			bad("slot %d: view page %d %s dirty %v lru %d, engine page %d %s dirty %v lru %d", i,
				vs.Page, vs.Status, vs.Dirty, vs.LRUCount, es.Page, es.Status, es.Dirty, es.LRUCount)
		}
		if s.Age(i) != vs.Age {
			bad("slot %d: age %d, engine %d", i, vs.Age, s.Age(i))
		}
		if l := s.BufferLock(i); l.HolderWord() != vs.IOLock {
			bad("slot %d buffer lock %s, engine %s", i, slruview.HoldersString(vs.IOLock), l)
		}
		if latest := es.Status != slru.PageEmpty && es.Page == s.LatestPageNumber(); latest != vs.Latest {
			bad("slot %d: latest %v, engine %v", i, vs.Latest, latest)
		}
	}
	for b := 0; b < s.NumBanks(); b++ {
		vb := v.Bank(b)
		if l := s.BankLock(b); l.HolderWord() != vb.Lock {
			bad("bank %d lock %s, engine %s", b, slruview.HoldersString(vb.Lock), l)
		}
		if s.BankCounter(b) != vb.CurCount {
			bad("bank %d counter %d, engine %d", b, vb.CurCount, s.BankCounter(b))
		}
		var want, got []string
		for _, e := range s.MappingEntries(b) {
			want = append(want, fmt.Sprintf("%d->%d", e[0], e[1]))
		}
		for _, e := range v.TableEntries(b) {
			got = append(got, fmt.Sprintf("%d->%d", e.Page, e.Slot))
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			bad("bank %d table %v, engine %v", b, got, want)
		}
	}
	if v.LatestPage() != s.LatestPageNumber() {
		bad("latest_page_number %d, engine %d", v.LatestPage(), s.LatestPageNumber())
	}
	if st := v.Counters().Stats(); st != s.Stats() {
		bad("stats\n   view   %+v\n   engine %+v", st, s.Stats())
	}
	for _, b := range s.Backends() {
		if st := v.Lane(b.Actor).Stats.Stats(); st != b.Stats {
			bad("backend %s stats\n   view   %+v\n   engine %+v", b.Name, st, b.Stats)
		}
	}
	if c := v.Counters(); c.Lookups != c.Hits+c.Misses {
		bad("lookups %d != hits %d + misses %d", c.Lookups, c.Hits, c.Misses)
	}
	if len(out) > 8 {
		out = append(out[:8], "…")
	}
	return strings.Join(out, "\n  ")
}

// roUnlock are the sites where SimpleLruReadPage_ReadOnly gives up its
// shared lock after a miss, in each variant.
var roUnlock = func() map[trace.Site]bool {
	m := map[trace.Site]bool{}
	for _, n := range []string{"slru.ro.unlock", "slru.ro16.unlock", "slru.roh.unlock"} {
		s, ok := trace.LookupSite(n)
		if !ok {
			panic("no site " + n)
		}
		m[s] = true
	}
	return m
}()

// checkLookup checks what the acting backend's lookup says after e against
// the engine and the rules of the search.
func checkLookup(v *slruview.View, s *slru.SLRU, e trace.Event) string {
	l := v.Lane(e.Actor).Lookup
	if l.Bank >= v.NumBanks() || l.Examining >= v.NumSlots() || (l.HasOp && l.Phase == slruview.PhaseNone) {
		return fmt.Sprintf("lookup out of range: %+v", l)
	}
	switch e.Kind {
	case trace.KSlotScan:
		first, _ := s.BankSlots(s.BankOf(int64(e.Arg)))
		es := s.Slot(int(e.Obj))
		match := es.Status != slru.PageEmpty && es.Page == int64(e.Arg)
		if l.Phase != slruview.PhaseScan || l.Examining != int(e.Obj) || l.Page != int64(e.Arg) ||
			l.Bank != s.BankOf(int64(e.Arg)) || l.ScanFrom != first || l.Match != match {
			return fmt.Sprintf("scan step: lookup %+v (bank start %d, match %v)", l, first, match)
		}
	case trace.KMapLookup:
		slot, ok := s.Find(int64(e.Arg))
		if !ok {
			slot = -1
		}
		if l.Phase != slruview.PhaseProbe || !l.Probed || l.ProbeSlot != slot || l.Bank != int(e.Obj) {
			return fmt.Sprintf("probe: lookup %+v, engine slot %d", l, slot)
		}
	case trace.KHit:
		if es := s.Slot(int(e.Obj)); l.Phase != slruview.PhaseFound || l.Result != slruview.ResultHit || l.Slot != int(e.Obj) || es.Page != l.Page {
			return fmt.Sprintf("hit: lookup %+v, engine slot %+v", l, es)
		}
	case trace.KLRUCount:
		if e.Class == trace.OBank && (l.Phase != slruview.PhaseVictim || l.CurCount != int32(e.Before) || len(l.Candidates) != 0) {
			return fmt.Sprintf("victim pass: lookup %+v", l)
		}
	case trace.KVictim:
		if l.Victim != int(e.Obj) || len(l.Candidates) == 0 {
			return fmt.Sprintf("victim: lookup %+v", l)
		}
		if e.Arg == slru.VictimEmpty {
			for _, c := range l.Candidates[:len(l.Candidates)-1] {
				if c.Kind == slruview.CandEmpty {
					return fmt.Sprintf("victim: EMPTY slot %d was passed over: %+v", c.Slot, l.Candidates)
				}
			}
			return ""
		}
		if len(l.Candidates) != v.BankSize() {
			return fmt.Sprintf("victim chosen after weighing %d of %d slots", len(l.Candidates), v.BankSize())
		}
		best := int32(-1)
		for i, c := range l.Candidates {
			if first, _ := s.BankSlots(l.Bank); c.Slot != first+i {
				return fmt.Sprintf("candidates out of bank order: %+v", l.Candidates)
			}
			if c.Kind == slruview.CandValid {
				best = max(best, c.Age)
			}
			if c.Slot == int(e.Obj) && c.Kind != slruview.CandValid {
				return fmt.Sprintf("victim slot %d is a %s candidate", c.Slot, c.Kind)
			}
		}
		if l.VictimAge != best || int32(e.After) != best {
			return fmt.Sprintf("victim age %d, but the oldest VALID candidate's age is %d: %+v", l.VictimAge, best, l.Candidates)
		}
		if v.Slot(int(e.Obj)).Latest {
			return "the victim holds latest_page_number"
		}
	case trace.KLWRelease:
		if roUnlock[e.Site] != (l.Phase == slruview.PhaseRelock) {
			return fmt.Sprintf("release at %s: lookup phase %s", e.Site, l.Phase)
		}
	case trace.KOpDone:
		if l.Phase != slruview.PhaseDone || l.DoneValue != e.After {
			return fmt.Sprintf("op done: lookup %+v", l)
		}
	case trace.KError:
		if l.Phase != slruview.PhaseError || l.Err != slru.ErrCode(e.Arg) {
			return fmt.Sprintf("error: lookup %+v", l)
		}
	}
	return ""
}

// The key test, and the conformance suite every view passes (viewtest.Run),
// on every workload (each variant: banks, one bank, banks+hash, the mask
// rule): a view applying a random multi-backend run's events, all of
// them, agrees with the SLRU after every one of them; the lookups follow
// the engine's search; a backend shows as waiting exactly when the
// scheduler has it retrying a lock; and the suite's round trip, clones,
// trimming and seeks hold.
func TestConformance(t *testing.T) {
	seen := viewtest.Seen{}
	for _, w := range workloads() {
		all := func(trace.Event) bool { return true } // an SLRU run logs only SLRU events
		viewtest.Run(t, viewtest.Case[*slruview.View]{Name: w.name, Applies: all, Play: func(t testing.TB, begin func(*slruview.View), at func(trace.Event, func(*slruview.View) string)) []trace.Event {
			// A first run gives the geometry as it is before the first
			// event; the second, identical, is compared event by event.
			_, _, g := w.run(t, nil)
			begin(slruview.New(g, names(w.backends)))
			var last *slruview.View
			s, log, _ := w.run(t, func(s *slru.SLRU, sch *sched.Scheduler, e trace.Event) {
				at(e, func(v *slruview.View) string {
					last = v
					seen[e.Kind]++
					if d := compare(v, s); d != "" {
						return fmt.Sprintf("%s\nengine:\n%s", d, s.Picture())
					}
					if d := checkLookup(v, s, e); d != "" {
						return d
					}
					l := v.Lane(e.Actor).Lookup
					seen[l.Phase]++
					for _, c := range l.Candidates {
						seen[c.Kind]++
					}
					for _, p := range sch.Procs() {
						if p.Actor == e.Actor || p.Done() {
							continue
						}
						if lw := v.Lane(p.Actor); lw.Waiting != p.Pending().Wait {
							return fmt.Sprintf("view says %s waiting=%v, the scheduler %v", lw.Name, lw.Waiting, p.Pending().Wait)
						}
					}
					return ""
				})
			})
			if last != nil {
				if d := compare(last, s); d != "" {
					t.Errorf("after the run: %s", d)
				}
			}
			t.Logf("%d events, %+v", log.Len(), s.Stats())
			return log.Events()
		}})
	}
	// The runs reach every kind the view derives state from, every phase
	// and every kind of candidate.
	viewtest.Covered(t, seen, []trace.Kind{trace.KSlotScan, trace.KSlotState, trace.KLRUCount, trace.KLRUTouch, trace.KCandidate,
		trace.KSkipLatest, trace.KStore, trace.KDirty, trace.KLWAcquire, trace.KLWRelease, trace.KLWWait, trace.KMapLookup,
		trace.KMapInsert, trace.KMapDelete, trace.KHit, trace.KMiss, trace.KVictim, trace.KIORead, trace.KIOWrite,
		trace.KIOWait, trace.KError, trace.KOp, trace.KOpDone}, "no %s event in the workloads")
	viewtest.Covered(t, seen, viewtest.Span(slruview.PhaseStart, slruview.PhaseError), "no lookup in phase %s")
	viewtest.Covered(t, seen, viewtest.Span(slruview.CandEmpty, slruview.CandLatest), "no %s candidate")
	t.Logf("reached %v", seen)
}

// Keyframes and seeks as a player keeps them (viewtest.Keyframes):
// snapshots every K events with the live history trimmed, seeks from the
// nearest one, steps back by Unapply; all equal the live view.
func TestSnapshotsAndSeeks(t *testing.T) {
	w := workloads()[3] // banks+hash
	_, log, g := w.run(t, nil)
	viewtest.Keyframes(t, slruview.New(g, names(w.backends)), log.Events(), 64, 60)
}

// The view ignores events of other mechanisms (the buffer pool's), and
// Unapply of anything but the last event panics.
func TestIgnoresOtherClassesAndChecksOrder(t *testing.T) {
	v := slruview.New(slruview.Geometry{Variant: slru.Banks, Slots: 32}, nil)
	viewtest.Ignores(t, v, []trace.Event{
		{Kind: trace.KCAS, Class: trace.OBuffer, Obj: 3, Before: 1, After: 2},
		{Kind: trace.KLWAcquire, Class: trace.OPartition, Obj: 100, After: 1 << 48},
		{Kind: trace.KMapInsert, Class: trace.OPartition, Obj: 7, Arg: 99, After: trace.NoBuffer},
		{Kind: trace.KHit, Class: trace.OBuffer, Obj: 1},
	})
	if v.NumBanks() != 2 || v.BankSize() != 16 {
		t.Fatalf("%d banks of %d", v.NumBanks(), v.BankSize())
	}
	e1 := trace.Event{Seq: 0, Actor: 1, Kind: trace.KLWAcquire, Class: trace.OBank, Obj: 1, After: 1, Arg: uint64(slru.LWShared)}
	e2 := trace.Event{Seq: 1, Actor: 2, Kind: trace.KLWWait, Class: trace.OBank, Obj: 1, Before: 1, After: 1, Arg: uint64(slru.LWExclusive)}
	for _, e := range []trace.Event{e1, e2} {
		if err := v.ApplyChecked(e); err != nil {
			t.Fatal(err)
		}
	}
	if b := v.Bank(1); b.Lock != 1 || len(b.Waiters) != 1 || b.Waiters[0] != (slruview.Waiter{Actor: 2, Mode: slru.LWExclusive}) {
		t.Fatalf("bank 1: %+v", b)
	}
	if v.HeldBy(1, 1) != slru.LWShared || v.HeldBy(1, 2) != 0 {
		t.Fatal("HeldBy")
	}
	if err := v.Check(trace.Event{Actor: 3, Kind: trace.KLWAcquire, Class: trace.OBank, Obj: 1, Before: 0, After: 4}); err == nil {
		t.Fatal("Check accepted an acquire whose Before holders are not the view's")
	}
	if err := v.Check(trace.Event{Kind: trace.KSlotState, Class: trace.OSlot, Obj: 40}); err == nil {
		t.Fatal("Check accepted slot 40 of 32")
	}
	viewtest.MustPanic(t, "last event applied", func() { v.Unapply(e1) })
}
