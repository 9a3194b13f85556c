package fsmview_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/sched"
	"bufferlab/engine/trace"
	"bufferlab/viz/fsmview"
	"bufferlab/viz/viewkit/viewtest"
)

// workload is a random run of inserts (small and large tuples), deletes,
// VACUUMs, direct map calls (GetPageWithFreeSpace,
// RecordPageWithFreeSpace, FreeSpaceMapVacuum, GetRecordedFreeSpace) and
// the odd torn FSM page, by a few sessions on a few heaps (fillfactors 20
// and 100, one created with new pages), on a pool small enough that FSM,
// heap and map pages are evicted and read again.
type workload struct {
	name    string
	opt     fsm.Options
	ops     int
	seed    uint64
	buffers int
	// pg is the pool's PostgreSQL version (0: 15); concurrent runs the
	// inserts in rounds of all sessions side by side under a seeded
	// schedule (runConcurrent), so that at 16 they queue on the
	// extension lock and extend in bulk.
	pg         int
	concurrent bool
}

func workloads() []workload {
	ops := viewtest.Size(180, 80)
	return []workload{
		{"always-1", fsm.Options{Variant: fsm.Always}, ops, 1, 24, 0, false},
		{"small-skip-2", fsm.Options{Variant: fsm.SmallSkip}, ops, 2, 24, 0, false},
		{"always-3", fsm.Options{Variant: fsm.Always}, ops, 3, 16, 0, false},
		{"small-skip-8-4", fsm.Options{Variant: fsm.SmallSkip, Threshold: 8}, ops, 4, 32, 0, false},
		{"always-pg16-concurrent-5", fsm.Options{Variant: fsm.Always}, ops, 5, 2048, 16, true},
	}
}

type runState struct {
	pool     *bufmgr.Pool
	store    *fsm.Store
	heaps    []*fsm.Heap
	sessions []*fsm.Session
	log      *trace.Log
	tore     bool // tearOnce tore a page
	// concurrent is set for a workload whose sessions run side by side;
	// done once it has ended (compare's counters).
	concurrent, done bool
}

// setup builds the pool, store, heaps and sessions of a workload.
func (w workload) setup(t testing.TB) *runState {
	t.Helper()
	log := trace.NewLog()
	pool, err := bufmgr.NewPoolWith(w.buffers, log, bufmgr.Options{Version: w.pg})
	if err != nil {
		t.Fatal(err)
	}
	st, err := fsm.NewStore(pool, w.opt)
	if err != nil {
		t.Fatal(err)
	}
	r := &runState{pool: pool, store: st, log: log, concurrent: w.concurrent}
	for i, c := range []struct {
		ff, blocks int
	}{{20, 0}, {100, 0}, {50, 2}} {
		rel := &bufmgr.Relation{Name: fmt.Sprintf("t%d", i+1), Number: bufmgr.FirstNormalObjectId + uint32(i), Permanent: true}
		rel.NBlocks[bufmgr.MainForkNum] = uint32(c.blocks)
		h, err := st.NewHeap(rel, c.ff)
		if err != nil {
			t.Fatal(err)
		}
		r.heaps = append(r.heaps, h)
	}
	for _, n := range []string{"A", "B", "C"} {
		b, err := pool.NewBackend(n)
		if err != nil {
			t.Fatal(err)
		}
		s, err := st.NewSession(b)
		if err != nil {
			t.Fatal(err)
		}
		r.sessions = append(r.sessions, s)
	}
	return r
}

// run executes the workload's random operations.
func (w workload) run(t testing.TB, r *runState) {
	t.Helper()
	if w.concurrent {
		w.runConcurrent(t, r)
		return
	}
	rng := rand.New(rand.NewPCG(w.seed, 0xf5))
	var tids [][]fsm.TID
	tids = make([][]fsm.TID, len(r.heaps))
	for i := 0; i < w.ops; i++ {
		s := r.sessions[rng.IntN(len(r.sessions))]
		hi := rng.IntN(len(r.heaps))
		h := r.heaps[hi]
		var err error
		switch x := rng.IntN(100); {
		case x < 55:
			n := []int{28, 28, 60, 200, 1200, 3000}[rng.IntN(6)]
			var tid fsm.TID
			tid, err = s.HeapInsert(h, n)
			if err == nil {
				tids[hi] = append(tids[hi], tid)
			}
		case x < 72:
			if len(tids[hi]) > 0 {
				k := rng.IntN(len(tids[hi]))
				err = s.HeapDelete(h, tids[hi][k])
				tids[hi] = append(tids[hi][:k], tids[hi][k+1:]...)
			}
		case x < 80:
			err = s.Vacuum(h)
		case x < 85:
			_, err = s.GetPageWithFreeSpace(h, rng.IntN(8000))
			s.Abort() // clears a local map the call may leave (and nothing else: no pins are held)
		case x < 89:
			if nb := h.NBlocks(); nb > 0 {
				err = s.RecordPageWithFreeSpace(h, uint32(rng.IntN(int(nb))), rng.IntN(8200))
			}
		case x < 92:
			err = s.FreeSpaceMapVacuum(h)
		case x < 95:
			_, err = s.GetRecordedFreeSpace(h, uint32(rng.IntN(int(h.NBlocks())+2)))
		case x < 97:
			if h.FSMBlocks() > 0 {
				// The root page's root promising a page more than its
				// slots have: the search for that much finds it torn,
				// rebuilds it and starts again.
				if err = h.TearFSMNode(0, 0, 255); err == nil {
					_, err = s.GetPageWithFreeSpace(h, fsm.MaxFSMRequestSize)
					s.Abort()
				}
			}
		case x < 98:
			if h.FSMBlocks() > 0 {
				err = h.TearFSMHeader(uint32(rng.IntN(int(h.FSMBlocks()))))
			}
		default:
			_, err = s.GetPageWithFreeSpace(h, 9000) // ERROR invalid FSM request size
		}
		var pe *fsm.PGError
		if err != nil && !errors.As(err, &pe) {
			t.Fatalf("op %d: %v", i, err)
		}
	}
	r.tearOnce(t)
	if err := r.pool.CheckQuiescent(); err != nil {
		t.Fatal(err)
	}
}

// runConcurrent runs rounds in which every session inserts a few rows
// (small and page-sized) into a random heap at once, under a schedule
// drawn from the workload's seed, with a VACUUM of a heap now and then
// between rounds, and ends with the torn page of tearOnce.
func (w workload) runConcurrent(t testing.TB, r *runState) {
	t.Helper()
	rng := rand.New(rand.NewPCG(w.seed, 0xf6))
	for round := 0; round*len(r.sessions)*3 < w.ops; round++ {
		sc := sched.New(sched.NewRandom(w.seed + uint64(round)))
		for _, s := range r.sessions {
			h := r.heaps[rng.IntN(len(r.heaps))]
			var lens []int
			for n := 1 + rng.IntN(4); n > 0; n-- {
				lens = append(lens, []int{28, 200, 3000, 6000, 8000}[rng.IntN(5)])
			}
			b := s.Backend()
			b.Spawn(sc, func(sched.Yield) error {
				for _, n := range lens {
					if _, err := s.HeapInsert(h, n); err != nil {
						return err
					}
				}
				return nil
			})
		}
		if err := sc.Run(); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		for _, p := range sc.Procs() {
			if p.Err() != nil {
				t.Fatalf("round %d: %s: %v", round, p.Name, p.Err())
			}
		}
		if rng.IntN(4) == 0 {
			if err := r.sessions[0].Vacuum(r.heaps[rng.IntN(len(r.heaps))]); err != nil {
				t.Fatalf("round %d: vacuum: %v", round, err)
			}
		}
	}
	r.tearOnce(t)
	if err := r.pool.CheckQuiescent(); err != nil {
		t.Fatal(err)
	}
}

// tearOnce ends a workload with one torn page that is sure to be
// repaired, however few random operations ran before (a -short run's 80
// draw the random tear above rarely, and on a map that may not exist yet):
// the root of the first map whose root promises less than a whole page
// is set to 255, and a search for a whole page finds no child with that
// much, rebuilds the page and starts again (fsm_search_avail's "fixing
// corrupt FSM block", freespace.c). It sets r.tore when it tore a page: a
// workload whose heaps have no map has none to tear.
func (r *runState) tearOnce(t testing.TB) {
	t.Helper()
	for _, h := range r.heaps {
		if h.FSMBlocks() == 0 {
			continue
		}
		if p, _ := h.FSMPage(0); p.MaxAvail() == 255 {
			continue // a wholly free page: the search would find it, not a torn page
		}
		s := r.sessions[0]
		if err := h.TearFSMNode(0, 0, 255); err != nil {
			t.Fatal(err)
		}
		if _, err := s.GetPageWithFreeSpace(h, fsm.MaxFSMRequestSize); err != nil {
			t.Fatalf("search after the scripted tear: %v", err)
		}
		s.Abort()
		r.tore = true
		return
	}
}

// compare checks the view against the store: every heap's forks,
// relpages and page words; the FSM pages given (all of them when pages is
// nil); each session's target blocks and local map; and, when stats is
// set, each session's counters. In a concurrent workload the counters are
// compared only at the end (stats and r.done): the engine counts a read
// when ReadBuffer returns, the view at its hit or miss event, and another
// backend's events may come between the two. It returns "" when they
// agree.
func compare(v *fsmview.View, r *runState, pages map[[2]uint32]bool, stats bool) string {
	if r.concurrent && !r.done {
		stats = false
	}
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	for _, h := range r.store.Heaps() {
		rel := h.Rel.Number
		vh, ok := v.Heap(rel)
		if !ok {
			if h.NBlocks() != 0 || h.FSMExists() || h.VMExists() {
				bad("heap %s missing from the view", h.Rel.Name)
			}
			continue
		}
		if vh.NBlocks != h.NBlocks() || vh.FSMBlocks != h.FSMBlocks() || vh.FSMExists != h.FSMExists() ||
			vh.VMExists != h.VMExists() || vh.VMBlocks != h.Rel.NBlocks[bufmgr.VMForkNum] || vh.RelPages != h.RelPages() {
			bad("heap %s: view %+v, engine %d blocks, fsm %d (%v), vm %d (%v), relpages %d", h.Rel.Name, vh, h.NBlocks(),
				h.FSMBlocks(), h.FSMExists(), h.Rel.NBlocks[bufmgr.VMForkNum], h.VMExists(), h.RelPages())
		}
		for blk := uint32(0); blk < h.NBlocks(); blk++ {
			p := h.HeapPage(blk)
			vp := v.HeapPage(rel, blk)
			if vp.Word != p.Word() {
				bad("%s block %d: view %+v, engine %+v", h.Rel.Name, blk, vp.Info, fsm.UnpackHeapWord(p.Word()))
			}
			if vp.Free != p.HeapFreeSpace() || vp.Recorded != h.RecordedCat(blk) {
				bad("%s block %d: view free %d map %d, engine %d, %d", h.Rel.Name, blk, vp.Free, vp.Recorded, p.HeapFreeSpace(), h.RecordedCat(blk))
			}
		}
		if n := len(v.FSMPages(rel)); n != int(h.FSMBlocks()) {
			bad("%s: %d FSM pages in the view, %d in the fork", h.Rel.Name, n, h.FSMBlocks())
		}
		for phys := uint32(0); phys < h.FSMBlocks(); phys++ {
			if pages != nil && !pages[[2]uint32{rel, phys}] {
				continue
			}
			ep, _ := h.FSMPage(phys)
			vn, ok := v.Nodes(rel, phys)
			en := ep.Nodes()
			if !ok || !bytes.Equal(vn[:], en[:]) {
				for n := range en {
					if vn[n] != en[n] {
						bad("%s FSM block %d node %d: view %d, engine %d", h.Rel.Name, phys, n, vn[n], en[n])
						break
					}
				}
			}
			if fp, _ := v.FSMPage(rel, phys); fp.NextSlot != ep.NextSlot() || fp.Root != ep.MaxAvail() {
				bad("%s FSM block %d: view fp_next_slot %d root %d, engine %d %d", h.Rel.Name, phys, fp.NextSlot, fp.Root, ep.NextSlot(), ep.MaxAvail())
			}
		}
		for _, s := range r.sessions {
			if a, b := v.TargetBlock(s.Backend().Actor, rel), s.TargetBlock(h); a != b {
				bad("session %s target for %s: view %d, engine %d", s.Backend().Name, h.Rel.Name, int32(a), int32(b))
			}
		}
	}
	var total fsm.Stats
	for _, s := range r.sessions {
		l := v.Lane(s.Backend().Actor)
		n, m := s.LocalMap()
		want := m[:n]
		if n == 0 {
			// A map being built: its entries up to the last AVAIL one.
			k := len(m)
			for k > 0 && m[k-1] == 0 {
				k--
			}
			want = m[:k]
		}
		if l.LocalMap.NBlocks != n || !bytes.Equal(l.LocalMap.Entries, want) {
			bad("session %s local map: view %+v, engine %d %v", s.Backend().Name, l.LocalMap, n, m[:n])
		}
		if stats && l.Stats.Stats() != s.Stats {
			bad("session %s stats\n   view   %+v\n   engine %+v", s.Backend().Name, l.Stats.Stats(), s.Stats)
		}
		total.Add(s.Stats)
	}
	if stats && v.Counters().Stats() != total {
		bad("stats\n   view   %+v\n   engine %+v", v.Counters().Stats(), total)
	}
	if len(out) > 8 {
		out = append(out[:8], "…")
	}
	return strings.Join(out, "\n  ")
}

// comparedPages are the FSM pages compare looks at after the nth event,
// e: every page every 97 events (nil), else the page e names, if any.
func comparedPages(n int, e trace.Event) map[[2]uint32]bool {
	if n%97 == 0 {
		return nil
	}
	pages := map[[2]uint32]bool{}
	if e.Class == trace.OFSMNode || e.Class == trace.OFSMPage {
		_, phys, _ := fsm.UnpackAddr(e.Arg)
		pages[[2]uint32{e.Obj, phys}] = true
	}
	return pages
}

// checkSearch checks what the acting backend's search says after e.
func checkSearch(v *fsmview.View, e trace.Event) string {
	if e.Actor == trace.System {
		return ""
	}
	s := v.Lane(e.Actor).Search
	_, phys, node := fsm.UnpackAddr(e.Arg)
	switch {
	case e.Kind == trace.KSearchStep && e.Class == trace.OFSMNode && s.Active():
		last := s.Path[len(s.Path)-1]
		if !s.HasPath || s.PathPage != phys || last.Node != node || last.Write || s.Phase != fsmview.PhaseFSM {
			return fmt.Sprintf("search step: %+v", s)
		}
		if e.Site.String() == "srchavail.root" && len(s.Path) != 1 {
			return fmt.Sprintf("a search's root step starts a new path: %+v", s.Path)
		}
	case e.Kind == trace.KFSMSkip && s.Active():
		if vs := s.Visits[len(s.Visits)-1]; vs.Phys != phys || !vs.Skipped {
			return fmt.Sprintf("skip: visits %+v", s.Visits)
		}
	case e.Kind == trace.KPageTried:
		if t := s.Tries[len(s.Tries)-1]; t.Verdict != fsmview.TryFull || t.Block != phys || t.Free != int(e.After) {
			return fmt.Sprintf("page tried: %+v", s.Tries)
		}
	case e.Kind == trace.KOpDone && e.Site.String() == "hio.use":
		if t := s.Tries[len(s.Tries)-1]; t.Verdict != fsmview.TryUsed || t.Block != uint32(e.After) || s.Result != uint32(e.After) {
			return fmt.Sprintf("page used: %+v", s.Tries)
		}
	case e.Kind == trace.KOpDone && e.Site.String() == "heapins.done":
		if s.Phase != fsmview.PhaseDone || s.Result != fsm.UnpackTID(e.After).Block || s.Op != fsmview.OpInsert {
			return fmt.Sprintf("insert done: %+v", s)
		}
	case e.Kind == trace.KLoad && e.Site.String() == "fsmsearch.slot":
		cur := s.Current()
		if len(cur) == 0 || cur[len(cur)-1].Phys != phys || cur[len(cur)-1].Slot == fsmview.NotSearched {
			return fmt.Sprintf("page searched: current visits %+v", cur)
		}
		if e.After != fsm.NoSlot && cur[len(cur)-1].Slot != int(e.After) {
			return fmt.Sprintf("page searched: slot %d, visits %+v", e.After, cur)
		}
	case e.Kind == trace.KError:
		if s.Phase != fsmview.PhaseError || s.Err != e.Arg {
			return fmt.Sprintf("error: %+v", s)
		}
	}
	if s.Depth < 0 || s.HasOp && s.Phase == fsmview.PhaseNone {
		return fmt.Sprintf("search out of range: %+v", s)
	}
	return ""
}

// The key test, and the conformance suite every view passes (viewtest.Run),
// on every workload (both variants): a view applying a random run's
// events (the FSM's, and of the pool's the reads and errors) agrees with
// the store after every one of them; the searches follow the engine; a
// torn page is repaired; and the suite's round trip, clones, trimming and
// seeks hold.
func TestConformance(t *testing.T) {
	seen := viewtest.Seen{}
	var torn uint64
	applies := func(e trace.Event) bool {
		return e.Class.IsFSM() || e.Kind == trace.KHit || e.Kind == trace.KMiss || e.Kind == trace.KError
	}
	for _, w := range workloads() {
		viewtest.Run(t, viewtest.Case[*fsmview.View]{Name: w.name, KeyframeEvery: 64, Applies: applies, Play: func(t testing.TB, begin func(*fsmview.View), at func(trace.Event, func(*fsmview.View) string)) []trace.Event {
			r := w.setup(t)
			begin(fsmview.New(fsmview.SetupOf(r.store, r.sessions...)))
			var last *fsmview.View
			n := 0
			r.log.OnAppend = func(e trace.Event) {
				n++
				at(e, func(v *fsmview.View) string {
					last = v
					seen[e.Kind]++
					if d := compare(v, r, comparedPages(n, e), e.Class.IsFSM()); d != "" {
						return d
					}
					if d := checkSearch(v, e); d != "" {
						return d
					}
					s := v.Lane(e.Actor).Search
					seen[s.Phase]++
					seen[s.Op]++
					return ""
				})
			}
			w.run(t, r)
			r.done = true
			if last != nil {
				if d := compare(last, r, nil, true); d != "" {
					t.Errorf("after the run: %s", d)
				}
			}
			var st fsm.Stats
			for _, s := range r.sessions {
				st.Add(s.Stats)
			}
			if r.tore && st.TornRepairs == 0 {
				t.Error("the scripted torn page was not repaired")
			}
			torn += st.TornRepairs
			t.Logf("%d events, %+v", r.log.Len(), st)
			return r.log.Events()
		}})
	}
	// The runs reach every FSM kind, every phase and every operation.
	viewtest.Covered(t, seen, viewtest.Span(trace.KNodeStore, trace.KTarget), "no %s event in the workloads")
	viewtest.Covered(t, seen, viewtest.Span(fsmview.PhaseStart, fsmview.PhaseError), "no search in phase %s")
	viewtest.Covered(t, seen, []fsmview.OpKind{fsmview.OpInsert, fsmview.OpDelete, fsmview.OpVacuum, fsmview.OpGetPage, fsmview.OpRecord, fsmview.OpFSMVacuum}, "no %s operation")
	if torn == 0 {
		t.Error("no torn page was repaired")
	}
	t.Logf("reached %v", seen)
}

// A view set up from a store in mid-life (the seed workload after its
// preparation: heaps with one row, vacuumed, their maps made) and fed the
// fill's events agrees with the store after every event and at the end:
// the seed's counts (3 FSM pages + 4 heap pages a table with the map, 4
// without) are the view's too.
func TestSetupOfSeed(t *testing.T) {
	for _, c := range []struct {
		opt                  fsm.Options
		fsmReads, heapReads  uint64
		fsmSkipped, localMap bool
	}{{fsm.Options{Variant: fsm.Always}, 16, 178, false, false}, {fsm.Options{Variant: fsm.SmallSkip, Threshold: 8}, 0, 179, true, true}} {
		log := trace.NewLog()
		w, err := fsm.NewSeed(fsm.SeedConfig{Tables: 2, FillFactor: 20, Blocks: 4, Options: c.opt, NBuffers: 64, Log: log})
		if err != nil {
			t.Fatal(err)
		}
		setup := fsmview.SetupOf(w.Store, w.FillSession())
		v := fsmview.New(setup)
		r := &runState{pool: w.Pool, store: w.Store, heaps: w.Heaps, sessions: []*fsm.Session{w.FillSession()}, log: log}
		mark := log.Len()
		var failed error
		log.OnAppend = func(e trace.Event) {
			if failed != nil {
				return
			}
			if err := v.ApplyChecked(e); err != nil {
				failed = err
				return
			}
			if e.Class.IsFSM() && e.Class != trace.OLocalMap {
				pages := map[[2]uint32]bool{}
				_, phys, _ := fsm.UnpackAddr(e.Arg)
				pages[[2]uint32{e.Obj, phys}] = true
				// Stats: the setup session's counts are not the view's.
				if d := compare(v, r, pages, false); d != "" {
					failed = errors.New(d)
				}
			}
		}
		if err := w.Fill(); err != nil {
			t.Fatal(err)
		}
		if failed != nil {
			t.Fatalf("%v: %v", c.opt.Variant, failed)
		}
		if d := compare(v, r, nil, true); d != "" {
			t.Fatalf("%v: %s", c.opt.Variant, d)
		}
		fill := v.Lane(w.FillSession().Backend().Actor)
		got := fill.Stats
		if got.FSMReads != 2*c.fsmReads || got.HeapReads != 2*c.heapReads || (got.FSMSkipped > 0) != c.fsmSkipped || (got.LocalMapBuilds > 0) != c.localMap {
			t.Errorf("%v: view counts %+v", c.opt.Variant, got)
		}
		if fill.Search.Op != fsmview.OpInsert || fill.Search.Phase != fsmview.PhaseDone || fill.Search.Result != 3 {
			t.Errorf("%v: last search %+v", c.opt.Variant, fill.Search)
		}
		// The last insert of a table with a map read the three FSM pages
		// once each only if the target block was forgotten; here it was
		// cached: heap pages only.
		if fill.Search.Reads[bufmgr.FSMForkNum] != 0 || fill.Search.Reads[bufmgr.MainForkNum] != 1 {
			t.Errorf("%v: the last insert read %v", c.opt.Variant, fill.Search.Reads)
		}
		n := log.Len() - mark
		for i := 0; i < n; i++ {
			if _, ok := v.UnapplyLast(); !ok {
				break
			}
		}
		if d := v.Diff(fsmview.New(setup)); d != "" {
			t.Fatalf("%v: unapplied back to the setup:\n%s", c.opt.Variant, d)
		}
	}
}

// Keyframes and seeks as a player keeps them (viewtest.Keyframes):
// snapshots every K events with the live history trimmed, seeks from the
// nearest one, steps back by Unapply; all equal the live view, and the
// keyframes stay as taken (FSM pages are copied on write).
func TestSnapshotsAndSeeks(t *testing.T) {
	w := workloads()[1]
	w.ops = 120
	r := w.setup(t)
	setup := fsmview.SetupOf(r.store, r.sessions...)
	w.run(t, r)
	viewtest.Keyframes(t, fsmview.New(setup), r.log.Events(), 256, 40)
}

// The view ignores the buffer pool's other events and the SLRU's; Check
// refuses events that do not fit; Unapply of anything but the last event
// panics.
func TestIgnoresOtherEventsAndChecks(t *testing.T) {
	r := workloads()[0].setup(t)
	v := fsmview.New(fsmview.SetupOf(r.store, r.sessions...))
	viewtest.Ignores(t, v, []trace.Event{
		{Kind: trace.KCAS, Class: trace.OBuffer, Obj: 3, Before: 1, After: 2},
		{Kind: trace.KLWAcquire, Class: trace.OPartition, Obj: 100, After: 1 << 48},
		{Kind: trace.KSlotState, Class: trace.OSlot, Obj: 1, After: 0x302},
		{Kind: trace.KHit, Class: trace.OSlot, Obj: 1, Arg: 3},
		{Kind: trace.KOp, Class: trace.ORelation, Obj: bufmgr.FirstNormalObjectId},
	})
	before := v.Fingerprint()
	rel := uint32(bufmgr.FirstNormalObjectId)
	for _, e := range []trace.Event{
		{Actor: 1, Kind: trace.KCategory, Class: trace.OFSMNode, Obj: rel, Arg: fsm.PackAddr(bufmgr.FSMForkNum, 2, fsm.NonLeafNodesPerPage), After: 5},
		{Actor: 1, Kind: trace.KHeapPage, Class: trace.OHeapPage, Obj: rel, Before: 7, After: 8},
		{Actor: 1, Kind: trace.KForkSize, Class: trace.OFSMRel, Obj: rel, Arg: fsm.PackAddr(bufmgr.FSMForkNum, 2, fsm.NodePage), Before: fsm.ForkWord(true, 3), After: fsm.ForkWord(true, 4)},
		{Actor: 1, Kind: trace.KTarget, Class: trace.OFSMRel, Obj: rel, Before: 2, After: 3},
		{Actor: 1, Kind: trace.KLocalMapSize, Class: trace.OLocalMap, Obj: 1, Before: 3, After: 0, Arg: uint64(rel)},
	} {
		if err := v.Check(e); err == nil {
			t.Errorf("Check accepted %v", e)
		}
	}
	// A heap the setup did not list comes with its first event, empty, and
	// goes when that event is unapplied.
	e := trace.Event{Seq: 7, Actor: 1, Kind: trace.KForkSize, Class: trace.OFSMRel, Obj: 99999, Site: trace.SiteOf("hio.extend"),
		Arg: fsm.PackAddr(bufmgr.MainForkNum, 0, fsm.NodePage), Before: fsm.ForkWord(true, 0), After: fsm.ForkWord(true, 1)}
	if err := v.ApplyChecked(e); err != nil {
		t.Fatal(err)
	}
	if h, ok := v.Heap(99999); !ok || h.NBlocks != 1 || v.Counters().HeapExtends != 1 {
		t.Fatalf("new heap %+v %v", h, ok)
	}
	v.Unapply(e)
	if _, ok := v.Heap(99999); ok || v.Fingerprint() != before {
		t.Fatal("unapplying the first event of a heap left it")
	}
	v.Apply(e)
	viewtest.MustPanic(t, "last event applied", func() {
		v.Unapply(trace.Event{Seq: 3, Actor: 1, Kind: trace.KTarget, Class: trace.OFSMRel, Obj: rel})
	})
}

// A target block made stale by a VACUUM comes back when the VACUUM is
// unapplied, even after the backend set a new one: Unapply of a KTarget
// restores the target as it was set, not the event's Before (none, since
// RelationGetTargetBlock saw it stale). The conformance suite found this.
func TestUnapplyTargetAcrossVacuum(t *testing.T) {
	rel := uint32(bufmgr.FirstNormalObjectId)
	v := fsmview.New(fsmview.Setup{Backends: []string{"sys", "A"},
		Heaps:   []fsmview.HeapSetup{{Rel: rel, Name: "t", Main: 8, RelPages: 8}},
		Targets: []fsmview.TargetSetup{{Actor: 1, Rel: rel, Block: 4}}})
	before := v.Fingerprint()
	vac := trace.Event{Seq: 1, Actor: 1, Kind: trace.KOpDone, Site: trace.SiteOf("vacuum.done"), Class: trace.OFSMRel, Obj: rel, Before: 8, After: 8}
	set := trace.Event{Seq: 2, Actor: 1, Kind: trace.KTarget, Site: trace.SiteOf("hio.set-target"), Class: trace.OFSMRel, Obj: rel,
		Before: uint64(fsm.InvalidBlockNumber), After: 7}
	for _, e := range []trace.Event{vac, set} {
		if err := v.ApplyChecked(e); err != nil {
			t.Fatal(err)
		}
	}
	if b := v.TargetBlock(1, rel); b != 7 {
		t.Fatalf("target %d after the new one was set", b)
	}
	v.Unapply(set)
	if b := v.TargetBlock(1, rel); b != fsm.InvalidBlockNumber {
		t.Fatalf("target %d after unapplying the new one (the VACUUM made the old one stale)", b)
	}
	v.Unapply(vac)
	if b := v.TargetBlock(1, rel); b != 4 || v.Fingerprint() != before {
		t.Fatalf("target %d after unapplying the VACUUM, want 4", b)
	}
}
