package player

import (
	"runtime"
	"testing"

	"bufferlab/engine/scenario"
	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
	"bufferlab/internal/testmem"
	"bufferlab/lessons"
	"bufferlab/viz/mech"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/timeline"
)

const compareLesson = `---
title: Side by side
config: shared_buffers=128kB pins=atomic,spinlock
---

## Warm

` + "```scenario" + `
relation t blocks=1
backend A: touch t 0
run
` + "```" + `

## Race

` + "```scenario" + `
backend A: read t 0
backend B: read t 0
run
` + "```" + `

` + "```expect" + `
expect atomic: pool cas_failures=1 spins=0
expect spinlock: pool cas_failures=0 spins=1
expect block t 0 rc=2 usage=3
` + "```" + `

## Release

` + "```scenario" + `
backend A: release all
backend B: release all
run
` + "```" + `
`

// sameState reports whether two views show the same pool and counters.
func sameState(a, b *view.Pool) bool {
	if a.NBuffers() != b.NBuffers() || a.Counters() != b.Counters() {
		return false
	}
	for i := 0; i < a.NBuffers(); i++ {
		if a.State(i) != b.State(i) || a.Tag(i) != b.Tag(i) {
			return false
		}
	}
	return true
}

// replay applies events to a fresh view.
func replay(nbuf int, backends []string, evs []trace.Event) *view.Pool {
	v := view.New(nbuf, nil, backends)
	for _, e := range evs {
		v.Apply(e)
	}
	return v
}

// A lesson whose config names two pin variants plays both, padded to the
// same steps: one position is the same step in both panes, each pane ends
// every step in the state its own run reached, and the padding changes
// nothing.
func TestCompareLessonPanes(t *testing.T) {
	l, err := lessons.Parse("compare.md", []byte(compareLesson))
	if err != nil {
		t.Fatal(err)
	}
	pl, err := lessons.Play(l)
	if err != nil {
		t.Fatal(err)
	}
	if len(pl.Alts) != 1 || pl.Variant.String() != "pins=atomic" || pl.Alts[0].Variant.String() != "pins=spinlock" {
		t.Fatalf("Play: %d alts, variant %v; want a spinlock run beside the atomic one", len(pl.Alts), pl.Variant)
	}
	p, err := FromLesson(l)
	if err != nil {
		t.Fatal(err)
	}
	if p.Panes() != 2 || p.PaneVariant(0).Name() != "atomic" || p.PaneVariant(1).Name() != "spinlock" {
		t.Fatalf("player: %d panes, %v/%v", p.Panes(), p.PaneVariant(0), p.PaneVariant(1))
	}
	alt := p.PaneTimeline(1)
	if p.TL.Len() != alt.Len() {
		t.Fatalf("padded lengths differ: %d and %d", p.TL.Len(), alt.Len())
	}
	if p.TL.Len() < max(len(pl.Events), len(pl.Alts[0].Events)) {
		t.Fatalf("padded length %d is shorter than a run (%d, %d)", p.TL.Len(), len(pl.Events), len(pl.Alts[0].Events))
	}
	for k := range p.Steps {
		p.GotoStep(k)
		if p.Gated() {
			if _, err := p.Answer(0); err != nil {
				t.Fatal(err)
			}
		}
		p.Seek(p.StepEnd[k])
		want := replay(pl.NBuffers, pl.Backends, pl.Events[:pl.StepEnd[k]])
		if !sameState(p.View(), want) {
			t.Fatalf("step %d: the atomic pane differs from its run at the step's end", k)
		}
		a := pl.Alts[0]
		wantAlt := replay(a.NBuffers, a.Backends, a.Events[:a.StepEnd[k]])
		if !sameState(p.AltView(), wantAlt) {
			t.Fatalf("step %d: the spinlock pane differs from its run at the step's end", k)
		}
	}
	// Padding is idle: applying it changes no state.
	for i, e := range trace.All(alt.Events()) {
		if uint64(i) != e.Seq {
			t.Fatalf("event %d numbered %d", i, e.Seq)
		}
		if e.Kind == trace.KNone {
			if e.Actor != trace.System {
				t.Fatalf("padding event %d from actor %d", i, e.Actor)
			}
			p.Seek(i)
			before := p.AltView().Clone()
			p.Seek(i + 1)
			if !sameState(before, p.AltView()) {
				t.Fatalf("padding event %d changed the spinlock pane", i)
			}
		}
	}
	// The race step: the atomic pane shows a failed CAS, the spinlock pane a spin.
	k := 1
	fails, spins := 0, 0
	for _, e := range trace.All(p.TL.Events())[p.StepStart[k]:p.StepEnd[k]] {
		if e.Kind == trace.KCASFail && e.Class == trace.OBuffer {
			fails++
		}
	}
	for _, e := range trace.All(alt.Events())[p.StepStart[k]:p.StepEnd[k]] {
		if e.Kind == trace.KSpin && e.Class == trace.OBuffer {
			spins++
		}
	}
	if fails != 1 || spins != 1 {
		t.Fatalf("race step: %d failed CAS in the atomic pane and %d spins in the spinlock pane; want 1 and 1", fails, spins)
	}
}

// A scenario with two variants opens with two panes too.
func TestCompareScenario(t *testing.T) {
	src := "config pins=spinlock,atomic\nrelation t blocks=2\nbackend A: touch t 0..1\nbackend B: touch t 0..1\nrun\n"
	p := mustPlayer(t, "two.scn", src)
	if p.Panes() != 2 || p.PaneVariant(0).Name() != "spinlock" || p.PaneVariant(1).Name() != "atomic" || p.TL.Len() != p.PaneTimeline(1).Len() {
		t.Fatalf("%d panes %v/%v lengths %d", p.Panes(), p.PaneVariant(0), p.PaneVariant(1), p.TL.Len())
	}
	p.End()
	if p.View().Counters().Hits != 2 || p.AltView().Counters().Hits != 2 {
		t.Fatalf("hits %d and %d, want 2 in both panes", p.View().Counters().Hits, p.AltView().Counters().Hits)
	}
}

// Align pads the shorter side of each step (and of the part before the
// first step) with idle system events and renumbers both logs.
func TestAlign(t *testing.T) {
	ev := func(a trace.Actor, k trace.Kind) trace.Event { return trace.Event{Actor: a, Kind: k, Seq: 99} }
	// a: prefix 1, step 0 has 3 events, step 1 has 1; b: prefix 0, step 0 has 1, step 1 has 2.
	a := []trace.Event{ev(1, trace.KOp), ev(1, trace.KLoad), ev(1, trace.KCAS), ev(2, trace.KLoad), ev(2, trace.KOpDone)}
	b := []trace.Event{ev(1, trace.KLockHdr), ev(2, trace.KLockHdr), ev(2, trace.KUnlockHdr)}
	pa, pb, start, end := Align(a, []int{1, 4}, []int{4, 5}, b, []int{0, 1}, []int{1, 3})
	if len(pa) != 6 || len(pb) != 6 {
		t.Fatalf("lengths %d and %d, want 6 (1 + 3 + 2)", len(pa), len(pb))
	}
	if want := []int{1, 4}; start[0] != want[0] || start[1] != want[1] || end[0] != 4 || end[1] != 6 {
		t.Fatalf("steps %v..%v, want [1 4]..[4 6]", start, end)
	}
	kinds := func(x []trace.Event) (s []trace.Kind) {
		for i, e := range x {
			if e.Seq != uint64(i) {
				t.Fatalf("event %d numbered %d", i, e.Seq)
			}
			s = append(s, e.Kind)
		}
		return s
	}
	gotA, gotB := kinds(pa), kinds(pb)
	wantA := []trace.Kind{trace.KOp, trace.KLoad, trace.KCAS, trace.KLoad, trace.KOpDone, trace.KNone}
	wantB := []trace.Kind{trace.KNone, trace.KLockHdr, trace.KNone, trace.KNone, trace.KLockHdr, trace.KUnlockHdr}
	for i := range wantA {
		if gotA[i] != wantA[i] || gotB[i] != wantB[i] {
			t.Fatalf("padded kinds\n a %v\n b %v\nwant\n a %v\n b %v", gotA, gotB, wantA, wantB)
		}
	}
	for _, e := range append(pa, pb...) {
		if e.Kind == trace.KNone && e.Actor != trace.System {
			t.Fatalf("padding from actor %d", e.Actor)
		}
	}
	if a[0].Seq != 99 {
		t.Fatal("Align renumbered its input")
	}
}

// A drop race runs three strategies on three pools; each pane ends with
// the relation's buffers gone, and the padding lets the fast strategies
// wait for the scan.
func TestCompareDropRace(t *testing.T) {
	src := `config shared_buffers=1MB in_recovery=on drop=scan,lookup,dlist
relation t blocks=2
relation other blocks=10
backend A: touch t 0..1; touch other 0..9
run
backend S: drop t
run
expect block t 0 resident=no
expect block other 9 resident=yes
expect scan: pool in_use=10
`
	p := mustPlayer(t, "race.scn", src)
	if p.Panes() != 3 {
		t.Fatalf("%d panes, want 3", p.Panes())
	}
	p.End()
	for i := 0; i < 3; i++ {
		c := p.PaneView(i).Counters()
		if c.DropInvalidated != 2 {
			t.Errorf("pane %v invalidated %d buffers, want 2", p.PaneVariant(i), c.DropInvalidated)
		}
		switch p.PaneVariant(i).Name() {
		case "scan":
			if c.DropDescsTouched != 128 || c.DropLookups != 0 {
				t.Errorf("scan: %d descriptors, %d lookups", c.DropDescsTouched, c.DropLookups)
			}
		case "lookup":
			if c.DropLookups != 2 || c.DropDescsTouched != 2 {
				t.Errorf("lookup: %d lookups, %d descriptors", c.DropLookups, c.DropDescsTouched)
			}
		case "dlist":
			if c.DropListHops == 0 || c.DListLinks != 12 {
				t.Errorf("dlist: %d hops, %d links (want 12: one per buffer read)", c.DropListHops, c.DListLinks)
			}
		}
	}
	// The scan takes the most events: the others end with idle padding.
	idle := func(i int) int {
		n := 0
		for _, e := range trace.All(p.PaneTimeline(i).Events()) {
			if e.Kind == trace.KNone {
				n++
			}
		}
		return n
	}
	if idle(0) != 0 || idle(1) == 0 || idle(2) == 0 {
		t.Errorf("padding: scan %d, lookup %d, dlist %d idle events; want none for the scan only", idle(0), idle(1), idle(2))
	}
}

// Paced by time, each pane's events sit at their cumulative cost: with the
// scan's descriptor checks at 1 and the lookup's map lookups at 10 (and
// every other event at 1), the scan pane needs more positions than the
// lookup pane's events, both end each step together, and switching back
// to events restores the event alignment.
func TestPaceByCost(t *testing.T) {
	src := `config shared_buffers=1MB in_recovery=on drop=scan,lookup
relation t blocks=2
backend A: touch t 0..1
run
backend S: drop t
run
`
	p := mustPlayer(t, "race.scn", src)
	byEvents := p.TL.Len()
	cost := func(pane int, e trace.Event) float64 {
		if e.Kind == trace.KMapLookup && e.Site.String() == "lookup.lookup" {
			return 10
		}
		return 1
	}
	if err := p.PaceByCost(cost, 1); err != nil {
		t.Fatal(err)
	}
	if p.Pacing() != "time" || p.TL.Len() != p.PaneTimeline(1).Len() {
		t.Fatalf("pacing %s, lengths %d and %d", p.Pacing(), p.TL.Len(), p.PaneTimeline(1).Len())
	}
	// Every event keeps its order and each lands no earlier than its
	// cumulative cost.
	for i := 0; i < 2; i++ {
		at, total := 0, 0.0
		for k, e := range trace.All(p.PaneTimeline(i).Events()) {
			if e.Kind == trace.KNone {
				continue
			}
			if float64(k) < total {
				t.Fatalf("pane %d: event at position %d before its time %v", i, k, total)
			}
			total += cost(i, e)
			at++
		}
		if want := len(p.sources[i].events); at != want {
			t.Fatalf("pane %d keeps %d of %d events", i, at, want)
		}
	}
	// The lookup's two lookups cost 20: its pane is padded after them, so
	// the scene is longer than the scan's event count alone.
	if p.TL.Len() < len(p.sources[0].events) {
		t.Fatalf("time-paced length %d shorter than the scan's %d events", p.TL.Len(), len(p.sources[0].events))
	}
	p.End()
	if p.View().Counters().DropInvalidated != 2 || p.PaneView(1).Counters().DropInvalidated != 2 {
		t.Fatal("a pane did not finish its drop at the end")
	}
	p.PaceByEvents()
	if p.Pacing() != "events" || p.TL.Len() != byEvents {
		t.Fatalf("back to events: %s, length %d, want %d", p.Pacing(), p.TL.Len(), byEvents)
	}
	if err := p.PaceByCost(func(int, trace.Event) float64 { return -1 }, 1); err == nil {
		t.Fatal("a negative cost was accepted")
	}
}

// fsm=always,small-skip runs the free space map both ways: each pane has
// its own FSM view, and only the left one reads FSM pages.
func TestCompareFSMVariants(t *testing.T) {
	src := "config shared_buffers=128MB fsm=always,small-skip\nrelation t heap fillfactor=20\nbackend A: insert t; vacuum t\nrun\nbackend B: insert t 150\nrun\n"
	p := mustPlayer(t, "fsm.scn", src)
	if p.Panes() != 2 || p.PaneVariant(1).String() != "fsm=small-skip" {
		t.Fatalf("%d panes, %v", p.Panes(), p.PaneVariant(1))
	}
	p.End()
	left, right := p.PaneFSMView(0), p.PaneFSMView(1)
	if left == nil || right == nil {
		t.Fatal("a pane has no FSM view")
	}
	l, r := left.Counters().Stats(), right.Counters().Stats()
	if l.Inserts != 151 || r.Inserts != 151 || l.Reads[1] != 20 || r.Reads[1] != 0 {
		t.Fatalf("inserts %d/%d, FSM reads %d/%d; want 151/151 and 20/0", l.Inserts, r.Inserts, l.Reads[1], r.Reads[1])
	}
}

// pg=15,16 with the free space map: each pane has its FSM view, which
// counts the heap's extensions and the pages they added. At 15 each adds
// one page; at 16 RelationAddBlocks adds one a backend holding or
// awaiting the extension lock, so the same rows take fewer extensions of
// more pages (engine/scenario's TestPG16BulkExtensionSideBySide counts the
// same 13 and 9 extensions from the events, and 16 pages, the heap's size).
func TestComparePGExtensions(t *testing.T) {
	src := "config shared_buffers=128MB fsm=always pg=15,16\nrelation t heap\n" +
		"backend A: insert t 6 size=3000\nbackend B: insert t 6 size=3000\nbackend C: insert t 6 size=3000\nbackend D: insert t 6 size=3000\nrun\n"
	p := mustPlayer(t, "ext.scn", src)
	if p.Panes() != 2 || p.PaneVariant(1).String() != "pg=16" {
		t.Fatalf("%d panes, %v", p.Panes(), p.PaneVariant(1))
	}
	p.End()
	for i, want := range []struct{ extensions, pages uint64 }{{13, 13}, {9, 16}} {
		v := p.PaneFSMView(i)
		if v == nil {
			t.Fatalf("pane %d has no FSM view", i)
		}
		c := v.Counters()
		if c.HeapExtensions != want.extensions || c.HeapExtends != want.pages {
			t.Errorf("pane %d (%v): %d extensions, %d pages; want %d and %d", i, p.PaneVariant(i), c.HeapExtensions, c.HeapExtends, want.extensions, want.pages)
		}
		h, ok := v.Heap(v.Heaps()[0].Rel)
		if !ok || uint64(h.NBlocks) != c.HeapExtends {
			t.Errorf("pane %d: heap %+v, %d pages added", i, h, c.HeapExtends)
		}
	}
}

// slru=single,banks,banks+hash: three panes, each with its own SLRU view,
// each view's counters equal to what that variant's engine counted, and
// the three searches telling apart (every slot; one bank; the table).
func TestCompareSLRUVariants(t *testing.T) {
	src := "config shared_buffers=128MB slru=single,banks,banks+hash slru_buffers=64 clog_pages=40\n" +
		"backend A: clog get 100000; clog get 40000; clog get 100001\nbackend B: clog read-only 5\nrun\n"
	p := mustPlayer(t, "slru.scn", src)
	if p.Panes() != 3 || p.PaneVariant(2).String() != "slru=banks+hash" {
		t.Fatalf("%d panes, last %v", p.Panes(), p.PaneVariant(p.Panes()-1))
	}
	s, err := scenario.Parse("slru.scn", src)
	if err != nil {
		t.Fatal(err)
	}
	p.End()
	var stats []slru.Stats
	for i := 0; i < 3; i++ {
		v := p.PaneSLRUView(i)
		if v == nil {
			t.Fatalf("pane %d has no SLRU view", i)
		}
		if want, ok := p.PaneVariant(i).SLRU(); !ok || v.Geometry().Variant != want {
			got := v.Geometry().Variant
			t.Errorf("pane %d shows the %v SLRU, want %v", i, got, want)
		}
		r, err := scenario.NewVariantRunner(s, false, i)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.RunAll(); err != nil {
			t.Fatal(err)
		}
		got, want := v.Counters().Stats(), r.SLRU().Stats()
		if got != want {
			t.Errorf("pane %d (%v): the view counted %+v, the engine %+v", i, p.PaneVariant(i), got, want)
		}
		stats = append(stats, got)
	}
	single, banks, hash := stats[0], stats[1], stats[2]
	if single.Hits != 1 || banks.Hits != 1 || hash.Hits != 1 || single.Reads != 3 {
		t.Errorf("hits %d/%d/%d, single reads %d: want 1/1/1 and 3", single.Hits, banks.Hits, hash.Hits, single.Reads)
	}
	if !(single.SlotsScanned > banks.SlotsScanned && banks.SlotsScanned > 0 && hash.SlotsScanned == 0 && hash.Probes > 0 && banks.Probes == 0) {
		t.Errorf("slots scanned %d/%d/%d, probes %d/%d/%d: want single > banks > 0 = hash, and probes only with the hash",
			single.SlotsScanned, banks.SlotsScanned, hash.SlotsScanned, single.Probes, banks.Probes, hash.Probes)
	}
}

// A view of many slots gets fewer keyframes: their copies stay within
// mech.KeyframeBudget, and a small view keeps the default interval.
func TestKeyframeEveryBudget(t *testing.T) {
	if k := mech.KeyframeEvery(5000, 32); k != timeline.DefaultKeyframeEvery {
		t.Errorf("32 slots: every %d events, want %d", k, timeline.DefaultKeyframeEvery)
	}
	for _, c := range []struct{ n, size int }{{262163, 131072}, {1 << 20, 4096}, {300, 1 << 17}} {
		k := mech.KeyframeEvery(c.n, c.size)
		if copies := (c.n/k + 1) * c.size; copies > mech.KeyframeBudget+c.size {
			t.Errorf("%d events over %d slots: every %d events keeps %d slot copies, over the budget %d", c.n, c.size, k, copies, mech.KeyframeBudget)
		}
		if k < timeline.DefaultKeyframeEvery {
			t.Errorf("%d events over %d slots: every %d events, below the default", c.n, c.size, k)
		}
	}
	// The player builds such a scenario and still seeks exactly.
	src := "config slru=single slru_buffers=131072 clog_pages=40\nbackend A: clog get 100000\nrun\n"
	p := mustPlayer(t, "big.scn", src)
	if p.SLRU.Keyframes() > mech.KeyframeBudget/131072+2 {
		t.Errorf("%d keyframes of a 131072-slot view", p.SLRU.Keyframes())
	}
	p.End()
	end := p.SLRUView().Counters()
	if end.SlotsCompared != 2*131072 || end.Misses != 1 {
		t.Errorf("at the end: %d slots compared, %d misses; want %d and 1", end.SlotsCompared, end.Misses, 2*131072)
	}
}

// The app side of the largest pg_xact: a player over clog_pages=131072
// (every pane, the three SLRU variants) that touches a few pages holds
// memory for its slots and events, not for the 131072 pages, and shows
// latest_page_number 131071.
func TestSLRUPlayerLargestClog(t *testing.T) {
	src := "config shared_buffers=128MB slru=single,banks,banks+hash clog_pages=131072\n" +
		"backend A: clog get 100000; clog set 100000 committed; clog get 4294967000\nbackend B: clog read-only 5\nrun\n"
	h0 := testmem.HeapInUse()
	p := mustPlayer(t, "big.scn", src)
	p.End()
	if used := int64(testmem.HeapInUse()) - int64(h0); used > 50<<20 {
		t.Errorf("the player holds %d MB for a run touching 3 pages of pg_xact", used>>20)
	}
	for i := 0; i < p.Panes(); i++ {
		if v := p.PaneSLRUView(i); v == nil || v.LatestPage() != 131071 {
			t.Errorf("pane %d: view %v", i, v)
		}
	}
	runtime.KeepAlive(p)
}
