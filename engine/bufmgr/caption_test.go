package bufmgr_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cockroachdb/datadriven"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/internal/narrate"
	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
)

// MomentOf: each moment from the one event that is it, and nothing from
// its near misses.
func TestNarrateMomentOf(t *testing.T) {
	site := trace.SiteOf
	tag := bufmgr.MakeTag(16384, bufmgr.MainForkNum, 3).Pack()
	for _, c := range []struct {
		name string
		e    trace.Event
		want trace.Moment
	}{
		{"failed CAS on a state word", trace.Event{Kind: trace.KCASFail, Class: trace.OBuffer, Site: site("pin.cas")}, trace.MomentCASFail},
		{"failed CAS of the clock hand", trace.Event{Kind: trace.KCASFail, Class: trace.OStrategy, Site: site("tick.cas")}, trace.MomentNone},
		{"successful CAS", trace.Event{Kind: trace.KCAS, Class: trace.OBuffer, Site: site("pin.cas")}, trace.MomentNone},
		{"spin on a header lock", trace.Event{Kind: trace.KSpin, Class: trace.OBuffer, Site: site("pin95.lock"), Arg: 1}, trace.MomentSpin},
		{"freelist victim", trace.Event{Kind: trace.KVictim, Class: trace.OBuffer, Site: site("sgb.free-victim"), Arg: bufmgr.VictimFreelist}, trace.MomentVictim},
		{"clock-sweep victim", trace.Event{Kind: trace.KVictim, Class: trace.OBuffer, Site: site("sgb.sweep-victim"), Arg: bufmgr.VictimSweep}, trace.MomentVictim},
		{"ring reuse", trace.Event{Kind: trace.KVictim, Class: trace.OBuffer, Site: site("ring.reuse"), Arg: bufmgr.VictimRing}, trace.MomentRingReuse},
		{"dirty victim written", trace.Event{Kind: trace.KIOWrite, Class: trace.OBuffer, Site: site("flush.write"), Arg: tag}, trace.MomentDirtyEvict},
		{"page read", trace.Event{Kind: trace.KIORead, Class: trace.OBuffer, Site: site("read.smgrread"), Arg: tag}, trace.MomentNone},
		{"lookup miss", trace.Event{Kind: trace.KMapLookup, Class: trace.OPartition, Site: site("alloc.lookup"), After: trace.NoBuffer, Arg: tag}, trace.MomentLookupMiss},
		{"lookup hit", trace.Event{Kind: trace.KMapLookup, Class: trace.OPartition, Site: site("alloc.lookup"), After: 4, Arg: tag}, trace.MomentLookupHit},
		{"drop lookup hit", trace.Event{Kind: trace.KMapLookup, Class: trace.OPartition, Site: site("lookup.lookup"), After: 4, Arg: tag}, trace.MomentNone},
		{"drop lookup miss", trace.Event{Kind: trace.KMapLookup, Class: trace.OPartition, Site: site("lookup.lookup"), After: trace.NoBuffer, Arg: tag}, trace.MomentLookupMiss},
		{"tag cleared by a drop", trace.Event{Kind: trace.KRetag, Class: trace.OBuffer, Site: site("inval.clear"), Before: tag, After: ^uint64(0)}, trace.MomentDrop},
		{"victim retagged", trace.Event{Kind: trace.KRetag, Class: trace.OBuffer, Site: site("alloc.retag"), Before: ^uint64(0), After: tag}, trace.MomentNone},
		{"no unpinned buffers", trace.Event{Kind: trace.KError, Class: trace.OStrategy, Site: site("sgb.error"), Arg: uint64(bufmgr.ErrNoUnpinnedBuffers)}, trace.MomentError},
		{"hit", trace.Event{Kind: trace.KHit, Class: trace.OBuffer, Site: site("read.hit"), Arg: tag}, trace.MomentNone},
	} {
		if got := bufmgr.MomentOf(c.e); got != c.want {
			t.Errorf("%s: MomentOf = %s, want %s", c.name, got, c.want)
		}
		if got := scenario.MomentOf(c.e); got != c.want {
			t.Errorf("%s: scenario.MomentOf = %s, want %s", c.name, got, c.want)
		}
	}
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
// valueSets, has a caption in words (narrate.CheckWords): no panic, no raw
// kind name, no description layout, within narrate.MaxLen. The kind and
// site pairs the pool never emits get the generic caption, in words too.
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
	sites := []trace.Site{0}
	for s := trace.Site(1); int(s) < trace.Sites(); s++ {
		if in := s.Info(); !strings.HasPrefix(in.Name, "slru.") && !fsmFuncs[in.Func] {
			sites = append(sites, s)
		}
	}
	n := 0
	for k := trace.Kind(1); int(k) < trace.NumKinds; k++ {
		for _, c := range classes {
			for _, s := range sites {
				for _, v := range valueSets {
					e := v
					e.Kind, e.Class, e.Site, e.Actor = k, c, s, 2
					got := bufmgr.Caption([]trace.Event{e}, 0, names, actor)
					if err := checkWordsAnyValues(got); err != nil {
						t.Fatalf("%s on %s at %s: %v", k, c, s, err)
					}
					n++
				}
			}
		}
	}
	t.Logf("%d synthetic events captioned", n)
}

// digitRuns are the numbers of a caption.
var digitRuns = regexp.MustCompile(`[0-9]+`)

// checkWordsAnyValues is narrate.CheckWords for a caption of made-up
// values: its length is measured with every number written as one digit,
// since a count of 2^46 buffers would make any sentence too long. Captions
// already checked are not checked again.
func checkWordsAnyValues(c string) error {
	if checkedWords[c] {
		return nil
	}
	err := narrate.CheckWords(c)
	if err != nil && utf8.RuneCountInString(c) > narrate.MaxLen {
		err = narrate.CheckWords(digitRuns.ReplaceAllString(c, "0"))
	}
	if err == nil {
		checkedWords[c] = true
	}
	return err
}

var checkedWords = map[string]bool{}

// Every event of the pool's golden scenarios (testdata/*.txt, which
// TestGolden runs) has a caption of its own, in words (narrate.Check): no
// event the engine emits falls back to the generic caption.
func TestNarrateGoldenScenarios(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	events := 0
	// By template (every digit written 0, so the length stays): Check says
	// the same of every caption of one.
	checked := map[string]bool{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		datadriven.RunTestFromString(t, string(src), func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd == "error" {
				return d.Expected
			}
			r, _, err := scenario.Run(f, d.Input, true)
			if err != nil {
				t.Fatalf("%s:%s: %v", f, d.Pos, err)
			}
			evs := r.Log().Events()
			for i := range evs {
				events++
				c := scenario.Caption(evs, i, r.Names())
				tpl := strings.Map(func(r rune) rune {
					if r >= '1' && r <= '9' {
						return '0'
					}
					return r
				}, c)
				if checked[tpl] {
					continue
				}
				checked[tpl] = true
				if err := narrate.Check(c); err != nil {
					t.Errorf("%s:%s: event %d (%s at %s): %v", f, d.Pos, i, evs[i].Kind, evs[i].Site, err)
				}
			}
			return d.Expected // TestGolden compares the output; this test reads the events
		})
	}
	t.Logf("%d events captioned", events)
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
			"A's CAS failed: B and C changed buffer 0's state word first (refcount 0 → 2). A retries with the new word."},
		{"no read in sight", []trace.Event{w(2, trace.KCAS, 0), w(3, trace.KUnlockHdr, 0), fail},
			"A's CAS failed: C changed buffer 0's state word first (refcount 0 → 2). A retries with the new word."},
		{"no writer in sight", []trace.Event{fail},
			"A's CAS failed: buffer 0's state word changed since A read it (refcount 0 → 2). A retries with the new word."},
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
