package bufmgr_test

import (
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/internal/narrate"
	"bufferlab/engine/internal/narrate/narratetest"
	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
)

// MomentOf: each moment from the one event that is it, and nothing from
// its near misses.
func TestNarrateMomentOf(t *testing.T) {
	site := trace.SiteOf
	tag := bufmgr.MakeTag(16384, bufmgr.MainForkNum, 3).Pack()
	narratetest.Moments(t, bufmgr.MomentOf, []narratetest.Moment{
		{Name: "failed CAS on a state word", E: trace.Event{Kind: trace.KCASFail, Class: trace.OBuffer, Site: site("pin.cas")}, Want: trace.MomentCASFail},
		{Name: "failed CAS of the clock hand", E: trace.Event{Kind: trace.KCASFail, Class: trace.OStrategy, Site: site("tick.cas")}, Want: trace.MomentNone},
		{Name: "successful CAS", E: trace.Event{Kind: trace.KCAS, Class: trace.OBuffer, Site: site("pin.cas")}, Want: trace.MomentNone},
		{Name: "spin on a header lock", E: trace.Event{Kind: trace.KSpin, Class: trace.OBuffer, Site: site("pin95.lock"), Arg: 1}, Want: trace.MomentSpin},
		{Name: "freelist victim", E: trace.Event{Kind: trace.KVictim, Class: trace.OBuffer, Site: site("sgb.free-victim"), Arg: bufmgr.VictimFreelist}, Want: trace.MomentVictim},
		{Name: "clock-sweep victim", E: trace.Event{Kind: trace.KVictim, Class: trace.OBuffer, Site: site("sgb.sweep-victim"), Arg: bufmgr.VictimSweep}, Want: trace.MomentVictim},
		{Name: "ring reuse", E: trace.Event{Kind: trace.KVictim, Class: trace.OBuffer, Site: site("ring.reuse"), Arg: bufmgr.VictimRing}, Want: trace.MomentRingReuse},
		{Name: "dirty victim written", E: trace.Event{Kind: trace.KIOWrite, Class: trace.OBuffer, Site: site("flush.write"), Arg: tag}, Want: trace.MomentDirtyEvict},
		{Name: "page read", E: trace.Event{Kind: trace.KIORead, Class: trace.OBuffer, Site: site("read.smgrread"), Arg: tag}, Want: trace.MomentNone},
		{Name: "lookup miss", E: trace.Event{Kind: trace.KMapLookup, Class: trace.OPartition, Site: site("alloc.lookup"), After: trace.NoBuffer, Arg: tag}, Want: trace.MomentLookupMiss},
		{Name: "lookup hit", E: trace.Event{Kind: trace.KMapLookup, Class: trace.OPartition, Site: site("alloc.lookup"), After: 4, Arg: tag}, Want: trace.MomentLookupHit},
		{Name: "drop lookup hit", E: trace.Event{Kind: trace.KMapLookup, Class: trace.OPartition, Site: site("lookup.lookup"), After: 4, Arg: tag}, Want: trace.MomentNone},
		{Name: "drop lookup miss", E: trace.Event{Kind: trace.KMapLookup, Class: trace.OPartition, Site: site("lookup.lookup"), After: trace.NoBuffer, Arg: tag}, Want: trace.MomentLookupMiss},
		{Name: "tag cleared by a drop", E: trace.Event{Kind: trace.KRetag, Class: trace.OBuffer, Site: site("inval.clear"), Before: tag, After: ^uint64(0)}, Want: trace.MomentDrop},
		{Name: "victim retagged", E: trace.Event{Kind: trace.KRetag, Class: trace.OBuffer, Site: site("alloc.retag"), Before: ^uint64(0), After: tag}, Want: trace.MomentNone},
		{Name: "no unpinned buffers", E: trace.Event{Kind: trace.KError, Class: trace.OStrategy, Site: site("sgb.error"), Arg: uint64(bufmgr.ErrNoUnpinnedBuffers)}, Want: trace.MomentError},
		{Name: "hit", E: trace.Event{Kind: trace.KHit, Class: trace.OBuffer, Site: site("read.hit"), Arg: tag}, Want: trace.MomentNone},
	})
}

// valueSets are the Before/After/Arg/Obj values a synthetic event takes:
// zeros, "none" values (NoBuffer, no tag: the -1 of PostgreSQL's buffer
// ids) beside small ones, and a plausible state word and tag.
var valueSets = []trace.Event{
	{},
	{Before: 3, After: trace.NoBuffer, Arg: 2, Obj: 7},
	{Before: trace.NoBuffer, After: 12, Arg: 1, Obj: ^uint32(0)},
	{Before: uint64(bufmgr.BmValid | bufmgr.BmTagValid | 1<<18 | 1), After: uint64(bufmgr.BmLocked | bufmgr.BmDirty | 2<<18 | 2),
		Arg: bufmgr.MakeTag(16384, bufmgr.FSMForkNum, 7).Pack(), Obj: 5},
}

// Every kind of event, on every class the pool owns (and the runner's
// own, class none), at every site of its pseudo-code and at none, with each of
// valueSets, has a caption in words (narratetest.Synthetic.InWords).
func TestNarrateEveryKindInWords(t *testing.T) {
	names := func(rel uint32) string { return "orders" }
	actor := func(a trace.Actor) string { return trace.ActorName(a) }
	classes := []trace.ObjClass{trace.ONone}
	for c := trace.ObjClass(0); int(c) < trace.NumObjClasses; c++ {
		if c.Owner() == trace.MPool {
			classes = append(classes, c)
		}
	}
	// The pool's sites (and none): not the SLRU's nor the FSM's.
	fsmFuncs := map[*trace.Func]bool{}
	for _, f := range fsm.Funcs() {
		fsmFuncs[f] = true
	}
	sites := narratetest.Sites(func(s trace.Site) bool {
		in := s.Info()
		return !strings.HasPrefix(in.Name, "slru.") && !fsmFuncs[in.Func]
	})
	narratetest.Synthetic{Classes: classes, Sites: sites, Values: valueSets, Actor: 2}.InWords(t, func(e trace.Event) string {
		return bufmgr.Caption([]trace.Event{e}, 0, names, actor)
	})
}

// Every event of the pool's golden scenarios (testdata/*.txt, which
// TestGolden runs) has a caption of its own, in words
// (narratetest.GoldenCaptions).
func TestNarrateGoldenScenarios(t *testing.T) {
	narratetest.GoldenCaptions(t, func(t *testing.T, f string, d *datadriven.TestData) ([]trace.Event, scenario.Names) {
		if d.Cmd == "error" {
			return nil, scenario.Names{}
		}
		r, _, err := scenario.Run(f, d.Input, true)
		if err != nil {
			t.Fatalf("%s:%s: %v", f, d.Pos, err)
		}
		return r.Log().Events(), r.Names()
	})
}

// The failed CAS names every backend that wrote the state word between
// the failing backend's read and its CAS, and only those; a read not in
// sight names the latest writer.
func TestNarrateCASFail(t *testing.T) {
	name := func(a trace.Actor) string { return trace.ActorName(a) }
	w := func(a trace.Actor, k trace.Kind, obj uint32) trace.Event {
		return trace.Event{Actor: a, Kind: k, Class: trace.OBuffer, Obj: obj, Site: trace.SiteOf("pin.cas")}
	}
	fail := w(1, trace.KCASFail, 0)
	fail.Before, fail.After = 0, 2 // refcount 0 → 2
	for _, c := range []struct {
		name string
		evs  []trace.Event
		want string
	}{
		{"two writers", []trace.Event{w(3, trace.KCAS, 0), w(1, trace.KLoad, 0), w(2, trace.KCAS, 0), {Kind: trace.KNone},
			w(3, trace.KCAS, 0), w(2, trace.KCAS, 7), fail},
			"A's CAS fails: B and C changed buffer 0's state word first (refcount 0 → 2). A retries with the new word."},
		{"no read in sight", []trace.Event{w(2, trace.KCAS, 0), w(3, trace.KUnlockHdr, 0), fail},
			"A's CAS fails: C changed buffer 0's state word first (refcount 0 → 2). A retries with the new word."},
		{"no writer in sight", []trace.Event{fail},
			"A's CAS fails: buffer 0's state word changed since A read it (refcount 0 → 2). A retries with the new word."},
	} {
		got := bufmgr.Caption(c.evs, len(c.evs)-1, nil, name)
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
		if err := narrate.Check(got); err != nil {
			t.Error(err)
		}
	}
	if s := bufmgr.Caption([]trace.Event{fail}, 0, nil, name); !strings.Contains(s, "retries") {
		t.Errorf("%q does not say that A retries", s)
	}
}
