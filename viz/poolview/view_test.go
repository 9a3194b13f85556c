package poolview_test

import (
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/poolview/pooltest"
	"bufferlab/viz/viewkit/viewtest"
)

func TestInitialState(t *testing.T) {
	v := view.New(20, map[uint32]string{16384: "t"}, []string{"sys", "A", "B"})
	if v.NBuffers() != 20 || v.FirstFree() != 0 || v.ClockCounter() != 0 || v.Hand() != 0 ||
		v.CompletePasses() != 0 || v.NumBufferAllocs() != 0 || v.StrategyHolder() != 0 ||
		v.Applied() != 0 || v.HistoryLen() != 0 || v.MappingLen() != 0 {
		t.Fatalf("initial view:\n%s", v)
	}
	for i := 0; i < 20; i++ {
		b := v.Buffer(i)
		want := int32(i + 1)
		if i == 19 {
			want = bufmgr.FreeNextEndOfList
		}
		if b.State != 0 || b.Tag != view.NoTag || b.FreeNext != want || b.Content != 0 || b.TagValid() || !b.OnFreelist() {
			t.Fatalf("buffer %d: %+v", i, b)
		}
	}
	if fl := v.Freelist(); len(fl) != 20 || fl[0] != 0 || fl[19] != 19 {
		t.Fatalf("freelist %v", fl)
	}
	for i := 0; i < view.NumPartitions; i++ {
		if v.PartitionHolders(i) != 0 || v.PartitionLen(i) != 0 || v.PartitionEntries(i) != nil {
			t.Fatalf("partition %d not empty", i)
		}
	}
	if v.NumLanes() != 3 {
		t.Fatalf("%d lanes", v.NumLanes())
	}
	for a := trace.Actor(0); a < 3; a++ {
		l := v.Lane(a)
		if l.HasLast || l.HasOp || l.HasErr || l.HasScan || l.Waiting || len(l.Pins) != 0 || v.OpLabel(a) != "" {
			t.Fatalf("lane %d: %+v", a, l)
		}
	}
	if v.Lane(1).Name != "A" || v.Lane(0).Name != "sys" || v.Lane(9).Name != "I" {
		t.Fatal("lane names")
	}
	if _, ok := v.Current(); ok {
		t.Fatal("a current event before any was applied")
	}
	if c := v.Changed(); c.Buffer != -1 || c.Partition != -1 {
		t.Fatalf("Changed %+v", c)
	}
	if v.RelName(16384) != "t" || v.RelName(16385) != "16385" || v.TagString(view.NoTag) != "none" ||
		v.TagString(bufmgr.MakeTag(16384, bufmgr.FSMForkNum, 3).Pack()) != "t/fsm/3" {
		t.Fatal("names")
	}
	if v.Counters() != (view.Counters{}) {
		t.Fatal("counters")
	}
	if !v.Equal(view.New(20, nil, []string{"sys", "A", "B"})) {
		t.Fatal("two initial views differ")
	}
}

// The key test: the view after the whole log agrees with the engine's final
// state, for every scenario.
func TestFinalStateMatchesEngine(t *testing.T) {
	all := pooltest.Scenarios(t)
	for name, src := range pooltest.LargeScenarios(t) {
		all[name] = src
	}
	for name, src := range all {
		t.Run(name, func(t *testing.T) {
			r := pooltest.Run(t, name, src)
			v := pooltest.NewView(r)
			for _, e := range r.Log().Events() {
				if err := v.ApplyChecked(e); err != nil {
					t.Fatal(err)
				}
			}
			if d := pooltest.Compare(v, pooltest.TakeSnap(r.Pool(), true), nil, nil); d != "" {
				t.Fatalf("view and engine differ:\n  %s\nview:\n%s\nengine:\n%s", d, v, r.Pool().Picture(r.RelName))
			}
			if err := r.Pool().CheckQuiescent(); err != nil {
				t.Fatal(err)
			}
			// The pool's events are applied; the SLRU's and the FSM's are
			// not the pool's (the view ignores them).
			want := 0
			for _, e := range r.Log().Events() {
				if !e.Class.IsSLRU() && !e.Class.IsFSM() {
					want++
				}
			}
			if v.Applied() != want {
				t.Fatalf("applied %d of the log's %d pool events", v.Applied(), want)
			}
		})
	}
}

// perEvent runs a scenario with the log's OnAppend hook capturing the
// engine state after every event.
func perEvent(t *testing.T, name, src string, entries bool) (*scenario.Runner, []*pooltest.Snap) {
	t.Helper()
	var snaps []*pooltest.Snap
	r := pooltest.RunHooked(t, name, src, func(r *scenario.Runner, _ trace.Event) { snaps = append(snaps, pooltest.TakeSnap(r.Pool(), entries)) })
	if len(snaps) != r.Log().Len() {
		t.Fatalf("%d snapshots for %d events", len(snaps), r.Log().Len())
	}
	return r, snaps
}

// Stronger: at every event index, the view after events [0..i] agrees with
// the engine as it was right after event i.
func TestEveryEventMatchesEngine(t *testing.T) {
	covered := viewtest.Seen{}
	collisions := 0
	for name, src := range pooltest.Scenarios(t) {
		t.Run(name, func(t *testing.T) {
			r, snaps := perEvent(t, name, src, true)
			evs := r.Log().Events()
			v := pooltest.NewView(r)
			for i, e := range evs {
				if err := v.ApplyChecked(e); err != nil {
					t.Fatalf("event %d: %v", i, err)
				}
				covered[e.Kind]++
				if e.Kind == trace.KMapInsert && e.After != trace.NoBuffer {
					collisions++
				}
				var next *trace.Event
				if i+1 < len(evs) {
					next = &evs[i+1]
				}
				if d := pooltest.Compare(v, snaps[i], &evs[i], next); d != "" {
					t.Fatalf("after event %d (%s):\n  %s\nview:\n%s", i, r.DescribeEvent(e), d, v)
				}
			}
		})
	}
	// The scenarios must exercise every kind the view derives state from,
	// and the contended paths.
	viewtest.Covered(t, covered, []trace.Kind{trace.KLoad, trace.KCAS, trace.KCASFail, trace.KLockHdr, trace.KSpin,
		trace.KUnlockHdr, trace.KLWAcquire, trace.KLWWait, trace.KLWRelease, trace.KSpinAcquire,
		trace.KSpinRelease, trace.KMapLookup, trace.KMapInsert, trace.KMapDelete, trace.KFreelistPop,
		trace.KClockTick, trace.KClockWrap, trace.KUsageDown, trace.KSkipPinned, trace.KVictim,
		trace.KRingAdd, trace.KRingReject, trace.KHit, trace.KMiss, trace.KRetag, trace.KIORead,
		trace.KIOWrite, trace.KIOWait, trace.KPrivRef, trace.KDirty, trace.KError, trace.KOp, trace.KOpDone}, "no scenario produced a %s event")
	if collisions == 0 {
		t.Error("no scenario produced a mapping-insert collision")
	}
	t.Logf("coverage: %v, collisions %d", covered, collisions)
}

// Apply then Unapply restores the fingerprint for every event; the whole
// log forward then backward returns to the initial state.
func TestApplyUnapply(t *testing.T) {
	for name, src := range pooltest.Scenarios(t) {
		t.Run(name, func(t *testing.T) {
			r := pooltest.Run(t, name, src)
			evs := r.Log().Events()
			v := pooltest.NewView(r)
			initial := v.Clone()
			fps := []uint64{v.Fingerprint()}
			for i, e := range evs {
				before := v.Fingerprint()
				var prev *view.Pool
				if i%97 == 0 {
					prev = v.Clone()
				}
				v.Apply(e)
				v.Unapply(e)
				if v.Fingerprint() != before {
					t.Fatalf("event %d %v: Apply+Unapply changed the fingerprint", i, e)
				}
				if prev != nil {
					if d := v.Diff(prev); d != "" {
						t.Fatalf("event %d: Apply+Unapply: %s", i, d)
					}
				}
				v.Apply(e)
				fps = append(fps, v.Fingerprint())
			}
			if v.HistoryLen() != len(evs) {
				t.Fatalf("history %d, want %d", v.HistoryLen(), len(evs))
			}
			for i := len(evs) - 1; i >= 0; i-- {
				v.Unapply(evs[i])
				if v.Fingerprint() != fps[i] {
					t.Fatalf("unapplying back to %d: fingerprint differs", i)
				}
			}
			if d := v.Diff(initial); d != "" {
				t.Fatalf("after unapplying everything:\n%s", d)
			}
			if _, ok := v.UnapplyLast(); ok {
				t.Fatal("UnapplyLast on an initial view")
			}
		})
	}
}

func TestUnapplyMisuse(t *testing.T) {
	r := pooltest.Run(t, "s", pooltest.Lessons(t)["seventeen-blocks.scn"])
	evs := r.Log().Events()
	v := pooltest.NewView(r)
	viewtest.MustPanic(t, "no history", func() { v.Unapply(evs[0]) })
	v.Apply(evs[0])
	v.Apply(evs[1])
	viewtest.MustPanic(t, "last event applied", func() { v.Unapply(evs[0]) })
	if e, ok := v.UnapplyLast(); !ok || e != evs[1] {
		t.Fatalf("UnapplyLast = %v, %v", e, ok)
	}
}

// Clones share chunks, partitions, pins and history copy-on-write: writes
// to one never show in the other.
func TestCloneIndependence(t *testing.T) {
	r := pooltest.Run(t, "c", pooltest.Contention(7))
	evs := r.Log().Events()
	rng := rand.New(rand.NewPCG(1, 2))
	v := pooltest.NewView(r)
	var clones []*view.Pool
	var at []int
	for i, e := range evs {
		if rng.IntN(50) == 0 {
			c := v.Clone()
			if rng.IntN(2) == 0 {
				c = v.Snapshot()
			}
			clones = append(clones, c)
			at = append(at, i)
		}
		v.Apply(e)
	}
	// Drive every clone somewhere else, then check the others.
	for k, c := range clones {
		n := at[k]
		if k%2 == 0 && n+40 <= len(evs) {
			for _, e := range evs[n : n+40] {
				c.Apply(e)
			}
			at[k] = n + 40
		} else if c.HistoryLen() >= 10 {
			for i := 0; i < 10; i++ {
				c.Unapply(evs[n-1-i])
			}
			at[k] = n - 10
		}
	}
	for k, c := range clones {
		if d := c.Diff(pooltest.Replay(r, at[k])); d != "" {
			t.Fatalf("clone %d at %d:\n%s", k, at[k], d)
		}
	}
	if d := v.Diff(pooltest.Replay(r, len(evs))); d != "" {
		t.Fatalf("the original changed:\n%s", d)
	}
}

func TestTrimHistory(t *testing.T) {
	r := pooltest.Run(t, "c", pooltest.Contention(3))
	evs := r.Log().Events()
	v := pooltest.NewView(r)
	fps := []uint64{v.Fingerprint()}
	for _, e := range evs {
		v.Apply(e)
		fps = append(fps, v.Fingerprint())
	}
	n := len(evs)
	for _, keep := range []int{500, 37, 1, 0} {
		w := v.Clone()
		w.TrimHistory(keep)
		if w.HistoryLen() != keep || w.Fingerprint() != fps[n] || w.Applied() != n {
			t.Fatalf("trim %d: history %d", keep, w.HistoryLen())
		}
		for i := 0; i < keep; i++ {
			w.Unapply(evs[n-1-i])
			if w.Fingerprint() != fps[n-1-i] {
				t.Fatalf("trim %d: unapply %d differs:\n%s", keep, i, w.Diff(v))
			}
		}
		viewtest.MustPanic(t, "no history", func() { w.Unapply(evs[n-1-keep]) })
		// and forward again
		for i := n - keep; i < n; i++ {
			w.Apply(evs[i])
		}
		if d := w.Diff(v); d != "" {
			t.Fatalf("trim %d: forward again: %s", keep, d)
		}
	}
	// Trimming more than there is does nothing; the source is unaffected.
	if v.HistoryLen() != n {
		t.Fatal("trimming a clone trimmed the original")
	}
	v.TrimHistory(n + 10)
	if v.HistoryLen() != n {
		t.Fatal("TrimHistory beyond the history changed it")
	}
	s := v.Snapshot()
	if s.HistoryLen() != 0 || !s.Equal(v) {
		t.Fatal("snapshot")
	}
}

// Check rejects events that do not fit the state.
func TestCheckRejects(t *testing.T) {
	r := pooltest.Run(t, "s", pooltest.Lessons(t)["seventeen-blocks.scn"])
	evs := r.Log().Events()
	byKind := map[trace.Kind]int{}
	for i, e := range evs {
		if _, ok := byKind[e.Kind]; !ok {
			byKind[e.Kind] = i
		}
	}
	// Replay each kind's first event with a corrupted value, on a view at
	// the right position.
	at := func(i int) *view.Pool {
		w := pooltest.NewView(r)
		for _, e := range evs[:i] {
			w.Apply(e)
		}
		return w
	}
	for _, c := range []struct {
		kind trace.Kind
		mut  func(*trace.Event)
	}{
		{trace.KCAS, func(e *trace.Event) { e.Before ^= 1 }},
		{trace.KLockHdr, func(e *trace.Event) { e.Before |= uint64(bufmgr.BmDirty) }},
		{trace.KUnlockHdr, func(e *trace.Event) { e.Before = 0 }},
		{trace.KLoad, func(e *trace.Event) { e.After += 7 }},
		{trace.KLWAcquire, func(e *trace.Event) { e.Before = 1 << 48 }},
		{trace.KLWRelease, func(e *trace.Event) { e.Before = 0 }},
		{trace.KSpinAcquire, func(e *trace.Event) { e.Before = 2 }},
		{trace.KSpinRelease, func(e *trace.Event) { e.Before = 0 }},
		{trace.KMapLookup, func(e *trace.Event) { e.After = 3 }},
		{trace.KMapInsert, func(e *trace.Event) { e.Obj = (e.Obj + 1) % 128 }},
		{trace.KMapDelete, func(e *trace.Event) { e.Before = 15 }},
		{trace.KFreelistPop, func(e *trace.Event) { e.After = 9 }},
		{trace.KClockTick, func(e *trace.Event) { e.Before = 3 }},
		{trace.KClockWrap, func(e *trace.Event) { e.Arg = 5 }},
		{trace.KUsageDown, func(e *trace.Event) { e.Before = 0 }},
		{trace.KVictim, func(e *trace.Event) { e.After = 1 }},
		{trace.KRetag, func(e *trace.Event) { e.Before = 42 }},
		{trace.KPrivRef, func(e *trace.Event) { e.Before = 3 }},
		{trace.KCAS, func(e *trace.Event) { e.Obj = 999 }},
	} {
		i, ok := byKind[c.kind]
		if !ok {
			t.Fatalf("no %s event in the log", c.kind)
		}
		w := at(i)
		if err := w.Check(evs[i]); err != nil {
			t.Fatalf("the genuine %s event fails: %v", c.kind, err)
		}
		e := evs[i]
		c.mut(&e)
		fp := w.Fingerprint()
		if err := w.ApplyChecked(e); err == nil {
			t.Errorf("a corrupted %s event passes Check: %v", c.kind, e)
		}
		if w.Fingerprint() != fp {
			t.Errorf("a rejected %s event was applied", c.kind)
		}
	}
	viewtest.MustPanic(t, "names buffer", func() {
		e := evs[byKind[trace.KCAS]]
		e.Obj = 999
		at(0).Apply(e)
	})
}

// Lanes: the current operation, scans, waits, errors and labels.
func TestLanes(t *testing.T) {
	src := pooltest.Lessons(t)["clock-sweep.scn"]
	r := pooltest.Run(t, "clock-sweep", src)
	evs := r.Log().Events()
	v := pooltest.NewView(r)
	sawScan, sawScanRead, sawErr := false, false, false
	for i, e := range evs {
		v.Apply(e)
		a := e.Actor
		l := v.Lane(a)
		if !l.HasLast || l.Last != e {
			t.Fatalf("event %d: lane's last event %v", i, l.Last)
		}
		if cur, _ := v.Current(); cur != e {
			t.Fatal("Current")
		}
		if e.Kind == trace.KOp {
			if l.Op != e || !l.HasOp || l.OpDone {
				t.Fatalf("event %d: op %v", i, l.Op)
			}
		}
		label := v.OpLabel(a)
		switch {
		case l.HasScan && l.Op.Site.String() == "scan.init":
			sawScan = true
			if label != "scan big (20 blocks, ring 2)" {
				t.Fatalf("label %q", label)
			}
		case l.HasScan:
			sawScanRead = true
			if !strings.HasPrefix(label, "scan big (20 blocks, ring 2): read big/") {
				t.Fatalf("label %q", label)
			}
		case l.HasOp && l.Op.Site.String() == "read.begin" && !l.OpDone:
			if want := "read " + v.TagString(l.Op.Arg); label != want {
				t.Fatalf("label %q, want %q", label, want)
			}
		}
		if e.Kind == trace.KOpDone && !strings.HasSuffix(label, " (done)") {
			t.Fatalf("label %q after op-done", label)
		}
		if e.Kind == trace.KError {
			sawErr = true
			if !l.HasErr || l.ErrCode() != bufmgr.ErrNoUnpinnedBuffers || !l.Failed() || l.HasScan || l.Errors != 1 {
				t.Fatalf("lane after error: %+v", l)
			}
		}
		c := v.Changed()
		if c.Lane != a {
			t.Fatal("Changed lane")
		}
	}
	if !sawScan || !sawScanRead || !sawErr {
		t.Fatalf("scan %v, scan read %v, error %v", sawScan, sawScanRead, sawErr)
	}
	if a := v.Lane(1); a.Ops != int(v.Counters().Ops)-v.Lane(2).Ops || a.Name != "A" {
		t.Fatalf("op counts %d + %d != %d", a.Ops, v.Lane(2).Ops, v.Counters().Ops)
	}
	// Waiting: in contention runs, every wait event leaves the lane waiting.
	waits := 0
	for _, seed := range []int{1, 2, 3, 7, 11, 13} {
		r := pooltest.Run(t, "c", pooltest.Contention(seed))
		v := pooltest.NewView(r)
		for _, e := range r.Log().Events() {
			v.Apply(e)
			w := e.Kind == trace.KLWWait || e.Kind == trace.KSpin || e.Kind == trace.KIOWait
			if v.Lane(e.Actor).Waiting != w {
				t.Fatalf("event %v: waiting %v", e, !w)
			}
			if w {
				waits++
			}
		}
		// B's "touch t 30" reads past the end of t.
		if l := v.Lane(2); l.ErrCode() != bufmgr.ErrReadBeyondEOF {
			t.Fatalf("seed %d: B's error %d", seed, l.ErrCode())
		}
	}
	if waits == 0 {
		t.Fatal("no waits in the contention runs")
	}
}

// Events of an actor New was not told about add a lane; unapplying them
// leaves an empty lane that does not count in comparisons.
func TestUnknownActor(t *testing.T) {
	v := view.New(16, nil, []string{"sys"})
	w := v.Clone()
	e := trace.Event{Actor: 3, Kind: trace.KOp, Site: 0, Class: trace.ORelation, Obj: 16384}
	v.Apply(e)
	if v.NumLanes() != 4 || v.Lane(3).Name != "C" || !v.Lane(3).HasOp || v.OpLabel(3) != "- 16384" {
		t.Fatalf("lane 3: %+v %q", v.Lane(3), v.OpLabel(3))
	}
	if v.Equal(w) {
		t.Fatal("equal after an event")
	}
	v.Unapply(e)
	if d := v.Diff(w); d != "" || v.Fingerprint() != w.Fingerprint() {
		t.Fatalf("after unapply: %s", d)
	}
}

// KFreelistPush (not emitted by the engine yet): StrategyFreeBuffer puts
// the buffer at the head.
func TestFreelistPush(t *testing.T) {
	v := view.New(16, nil, []string{"sys", "A"})
	pop := trace.Event{Actor: 1, Kind: trace.KFreelistPop, Class: trace.OBuffer, Obj: 0, Before: 0, After: 1}
	pop2 := trace.Event{Seq: 1, Actor: 1, Kind: trace.KFreelistPop, Class: trace.OBuffer, Obj: 1, Before: 1, After: 2}
	push := trace.Event{Seq: 2, Actor: 1, Kind: trace.KFreelistPush, Class: trace.OBuffer, Obj: 0, Before: 2, After: 0}
	for _, e := range []trace.Event{pop, pop2} {
		if err := v.ApplyChecked(e); err != nil {
			t.Fatal(err)
		}
	}
	before := v.Clone()
	if err := v.ApplyChecked(push); err != nil {
		t.Fatal(err)
	}
	if fl := v.Freelist(); len(fl) != 15 || fl[0] != 0 || fl[1] != 2 || v.FreeNext(1) != bufmgr.FreeNextNotInList {
		t.Fatalf("freelist %v", fl)
	}
	if c := v.Changed(); !c.Freelist || c.Buffer != 0 || !c.Shared {
		t.Fatalf("Changed %+v", c)
	}
	// pushing a buffer already on the list is rejected by Check
	again := push
	again.Seq, again.Before = 3, 0
	if err := v.Check(again); err == nil {
		t.Fatal("a second push of buffer 0 passes Check")
	}
	// a no-op push (After is not the buffer) changes nothing
	noop := trace.Event{Seq: 3, Actor: 1, Kind: trace.KFreelistPush, Class: trace.OBuffer, Obj: 5, Before: 0, After: 0}
	w := v.Clone()
	v.Apply(noop)
	if fl := v.Freelist(); len(fl) != 15 || v.FreeNext(5) != 6 {
		t.Fatalf("no-op push changed the freelist: %v", fl)
	}
	v.Unapply(noop)
	if !v.Equal(w) {
		t.Fatal("no-op push unapply")
	}
	v.Unapply(push)
	if d := v.Diff(before); d != "" {
		t.Fatal(d)
	}
}

func TestEffectOf(t *testing.T) {
	r := pooltest.Run(t, "s", pooltest.Lessons(t)["seventeen-blocks.scn"])
	for _, e := range r.Log().Events() {
		c := view.EffectOf(e)
		if c.Lane != e.Actor {
			t.Fatal("lane")
		}
		switch e.Kind {
		case trace.KCAS, trace.KLockHdr, trace.KUnlockHdr:
			if !c.Shared || !c.State || c.Buffer != int(e.Obj) {
				t.Fatalf("%v: %+v", e, c)
			}
		case trace.KLoad:
			if c.Shared != (e.Class == trace.OStrategy) {
				t.Fatalf("%v: %+v", e, c)
			}
		case trace.KFreelistPop:
			if !c.Freelist || c.Buffer != int(e.Obj) {
				t.Fatalf("%v: %+v", e, c)
			}
		case trace.KClockTick:
			if !c.Clock || c.Buffer != int(e.After) {
				t.Fatalf("%v: %+v", e, c)
			}
		case trace.KMapInsert, trace.KMapDelete:
			if !c.Mapping || c.Partition != int(e.Obj) || c.Buffer != int(e.Before) {
				t.Fatalf("%v: %+v", e, c)
			}
		case trace.KLWAcquire, trace.KLWRelease:
			if !c.PartLock || c.Partition != int(e.Obj) || c.Buffer != -1 {
				t.Fatalf("%v: %+v", e, c)
			}
		case trace.KSpinAcquire:
			if !c.StrategyLock || !c.Shared {
				t.Fatalf("%v: %+v", e, c)
			}
		case trace.KPrivRef:
			if !c.Pins || c.Shared {
				t.Fatalf("%v: %+v", e, c)
			}
		case trace.KOp:
			// A read or scan names a relation; a release or dirty a buffer.
			want := -1
			if e.Class == trace.OBuffer {
				want = int(e.Obj)
			}
			if !c.Op || c.Buffer != want {
				t.Fatalf("%v: %+v", e, c)
			}
		case trace.KHit, trace.KMiss, trace.KVictim:
			if c.Shared || c.Buffer != int(e.Obj) {
				t.Fatalf("%v: %+v", e, c)
			}
		}
	}
	if c := view.EffectOf(trace.Event{Kind: trace.KRingReject, Class: trace.OBuffer, Obj: view.NoObj}); c.Buffer != -1 {
		t.Fatal("ring reject of an empty slot names a buffer")
	}
}

// The mapping table listing is deterministic and agrees with Lookup.
func TestMapping(t *testing.T) {
	r := pooltest.Run(t, "c", pooltest.Contention(11))
	v := pooltest.NewView(r)
	for _, e := range r.Log().Events() {
		v.Apply(e)
	}
	ents := v.MappingEntries()
	if len(ents) != v.MappingLen() || len(ents) != len(r.Pool().MappingEntries()) {
		t.Fatalf("%d entries, MappingLen %d", len(ents), v.MappingLen())
	}
	if !sort.SliceIsSorted(ents, func(i, j int) bool { return ents[i].Buf < ents[j].Buf }) {
		t.Fatal("MappingEntries not sorted by buffer")
	}
	for _, me := range ents {
		if id, ok := v.Lookup(me.Tag); !ok || id != int(me.Buf) || view.PartitionOf(me.Tag) != me.Partition {
			t.Fatalf("entry %+v: lookup %d %v", me, id, ok)
		}
		pe := v.PartitionEntries(me.Partition)
		if !sort.SliceIsSorted(pe, func(i, j int) bool { return pe[i].Tag < pe[j].Tag }) {
			t.Fatal("PartitionEntries not sorted by tag")
		}
	}
	if _, ok := v.Lookup(bufmgr.MakeTag(1, 0, 0).Pack()); ok {
		t.Fatal("lookup of an absent tag")
	}
}

func TestHolders(t *testing.T) {
	w := uint64(3)<<48 | 1<<0 | 1<<4
	if view.HolderExclusive(w) != 3 || len(view.HolderShared(w)) != 2 || view.HolderShared(w)[1] != 5 {
		t.Fatal("holder decoding")
	}
	if s := view.HoldersString(w); s != "C(X),A,E" {
		t.Fatalf("HoldersString %q", s)
	}
	if view.HoldersString(0) != "none" {
		t.Fatal("none")
	}
}

func TestString(t *testing.T) {
	r := pooltest.Run(t, "s", pooltest.Lessons(t)["clock-sweep.scn"])
	v := pooltest.NewView(r)
	evs := r.Log().Events()
	for _, e := range evs[:len(evs)/2] {
		v.Apply(e)
	}
	s := v.String()
	for _, want := range []string{"view: 16 buffers", "clock ", "hand ", "passes ", "freelist ", "mapping: ", "lane A:", "hits "} {
		if !strings.Contains(s, want) {
			t.Errorf("String lacks %q:\n%s", want, s)
		}
	}
	// Large pools list only the interesting descriptors.
	big := view.New(1000, nil, nil)
	if n := strings.Count(big.String(), "\n"); n > 10 {
		t.Fatalf("String of an idle 1000-buffer view has %d lines", n)
	}
}

// A synchronized scan's lane names where it starts: B joins A's paused
// cursor at A's last reported location, block 16.
func TestLaneSyncScanLabel(t *testing.T) {
	r := pooltest.Run(t, "sync", `config shared_buffers=16
relation big blocks=20
backend A: scan big pages=18
run
backend B: scan big
run
backend A: release all
run
`)
	v := pooltest.NewView(r)
	want := "scan big (20 blocks, ring 2, synchronized: starts at block 16)"
	saw := false
	for _, e := range r.Log().Events() {
		v.Apply(e)
		if e.Actor == 2 && e.Kind == trace.KOp && e.Site.String() == "scan.init" {
			if got := v.OpLabel(2); got != want {
				t.Fatalf("B's label %q, want %q", got, want)
			}
			saw = true
		}
	}
	if !saw {
		t.Fatal("B's scan never began")
	}
}
