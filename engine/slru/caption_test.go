package slru_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cockroachdb/datadriven"

	"bufferlab/engine/internal/narrate"
	"bufferlab/engine/scenario"
	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
)

// MomentOf: a compare that finds the page sought, a slot given up as a
// victim, an ERROR; not their near misses.
func TestNarrateMomentOf(t *testing.T) {
	site := trace.SiteOf
	for _, c := range []struct {
		name string
		e    trace.Event
		want trace.Moment
	}{
		{"compare finds the page", trace.Event{Kind: trace.KSlotScan, Class: slru.ClassSlot, Site: site("slru.ro.scan"),
			After: slru.SlotWord(12, slru.PageValid, false), Arg: 12}, trace.MomentSLRUMatch},
		{"compare finds it being read", trace.Event{Kind: trace.KSlotScan, Class: slru.ClassSlot, Site: site("slru.sel.scan"),
			After: slru.SlotWord(12, slru.PageReadInProgress, false), Arg: 12}, trace.MomentSLRUMatch},
		{"compare finds another page", trace.Event{Kind: trace.KSlotScan, Class: slru.ClassSlot, Site: site("slru.ro.scan"),
			After: slru.SlotWord(11, slru.PageValid, false), Arg: 12}, trace.MomentNone},
		{"compare finds an empty slot", trace.Event{Kind: trace.KSlotScan, Class: slru.ClassSlot, Site: site("slru.ro16.scan"),
			After: slru.SlotWord(0, slru.PageEmpty, false), Arg: 0}, trace.MomentNone},
		{"clean victim", trace.Event{Kind: trace.KVictim, Class: slru.ClassSlot, Site: site("slru.sel.victim"), Arg: slru.VictimClean}, trace.MomentSLRUVictim},
		{"dirty victim", trace.Event{Kind: trace.KVictim, Class: slru.ClassSlot, Site: site("slru.sel.write"), Arg: slru.VictimDirty}, trace.MomentSLRUVictim},
		{"empty slot taken", trace.Event{Kind: trace.KVictim, Class: slru.ClassSlot, Site: site("slru.sel.empty"), Arg: slru.VictimEmpty}, trace.MomentNone},
		{"read failed", trace.Event{Kind: trace.KError, Class: slru.ClassSlot, Site: site("slru.read.error"), Arg: uint64(slru.ErrReadFailed)}, trace.MomentError},
		{"hit", trace.Event{Kind: trace.KHit, Class: slru.ClassSlot, Site: site("slru.ro.hit"), Arg: 12}, trace.MomentNone},
	} {
		if got := slru.MomentOf(c.e); got != c.want {
			t.Errorf("%s: MomentOf = %s, want %s", c.name, got, c.want)
		}
		if got := scenario.MomentOf(c.e); got != c.want {
			t.Errorf("%s: scenario.MomentOf = %s, want %s", c.name, got, c.want)
		}
	}
}

var digitRuns = regexp.MustCompile(`[0-9]+`)

// Every kind of event, on every SLRU class, at every SLRU site (PG 17's
// and PG 16's) and at none, with a few sets of values, has a caption in
// words (narrate.CheckWords, with every number counted as one digit: the
// values are made up). The pairs the SLRU never emits get the generic
// caption, in words too.
func TestNarrateEveryKindInWords(t *testing.T) {
	actor := func(a trace.Actor) string { return trace.ActorName(a) }
	var sites []trace.Site
	sites = append(sites, 0)
	for s := trace.Site(1); int(s) < trace.Sites(); s++ {
		if strings.HasPrefix(s.String(), "slru.") {
			sites = append(sites, s)
		}
	}
	values := []trace.Event{
		{},
		{Before: 3, After: trace.NoBuffer, Arg: 2, Obj: 7},
		{Before: slru.SlotWord(5, slru.PageValid, true), After: slru.SlotWord(5, slru.PageReadInProgress, false), Arg: 5, Obj: 37},
	}
	checked := map[string]bool{}
	n := 0
	for k := trace.Kind(1); int(k) < trace.NumKinds; k++ {
		for _, c := range []trace.ObjClass{slru.ClassBank, slru.ClassSlot, slru.ClassSlotIO, slru.ClassSLRU} {
			for _, s := range sites {
				for _, v := range values {
					e := v
					e.Kind, e.Class, e.Site, e.Actor = k, c, s, 1
					got := slru.Caption([]trace.Event{e}, 0, actor)
					n++
					if checked[got] {
						continue
					}
					err := narrate.CheckWords(got)
					if err != nil && utf8.RuneCountInString(got) > narrate.MaxLen {
						err = narrate.CheckWords(digitRuns.ReplaceAllString(got, "0"))
					}
					if err != nil {
						t.Fatalf("%s on %s at %s: %v", k, c, s, err)
					}
					checked[got] = true
				}
			}
		}
	}
	t.Logf("%d synthetic events captioned", n)
}

// Every event of the SLRU's golden scripts (testdata/*.txt, which
// TestGolden runs) has a caption of its own, in words (narrate.Check):
// no event the SLRU emits falls back to the generic caption.
func TestNarrateGoldenScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	events := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		datadriven.RunTestFromString(t, string(src), func(t *testing.T, d *datadriven.TestData) string {
			var args []string
			for _, a := range d.CmdArgs {
				args = append(args, a.String())
			}
			sc, err := parseScript(args, d.Input)
			if err != nil {
				return d.Expected // a script the error directive expects to fail
			}
			log := trace.NewLog()
			sc.run(t, log) // a failed run's events are captioned too
			evs := log.Events()
			for i := range evs {
				events++
				if err := narrate.Check(scenario.Caption(evs, i, scenario.Names{})); err != nil {
					t.Errorf("%s:%s: event %d (%s at %s): %v", f, d.Pos, i, evs[i].Kind, evs[i].Site, err)
				}
			}
			return d.Expected // TestGolden compares the output; this test reads the events
		})
	}
	t.Logf("%d events captioned", events)
}

// A slot compare names the bank searched (the backend's latest bank
// event) and says whether the slot holds the page sought; a single SLRU's
// has no bank.
func TestNarrateSlotScan(t *testing.T) {
	actor := func(a trace.Actor) string { return trace.ActorName(a) }
	lock := trace.Event{Actor: 1, Kind: trace.KLWAcquire, Class: slru.ClassBank, Obj: 2, Site: trace.SiteOf("slru.ro.lock"), Arg: 1}
	other := trace.Event{Actor: 2, Kind: trace.KLWAcquire, Class: slru.ClassBank, Obj: 5, Site: trace.SiteOf("slru.ro.lock"), Arg: 1}
	scan := trace.Event{Actor: 1, Kind: trace.KSlotScan, Class: slru.ClassSlot, Obj: 37, Site: trace.SiteOf("slru.ro.scan"),
		After: slru.SlotWord(12, slru.PageValid, false), Arg: 12}
	evs := []trace.Event{lock, {Kind: trace.KNone}, other, scan}
	if got, want := slru.Caption(evs, 3, actor), "A's search of bank 2 compares slot 37: page 12 — the page sought."; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	scan.Site = trace.SiteOf("slru.ro16.scan")
	scan.After = slru.SlotWord(11, slru.PageValid, true)
	if got, want := slru.Caption([]trace.Event{scan}, 0, actor), "A's search compares slot 37: page 11, not page 12."; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
