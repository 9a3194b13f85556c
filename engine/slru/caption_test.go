package slru_test

import (
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"bufferlab/engine/internal/narrate/narratetest"
	"bufferlab/engine/scenario"
	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
)

// MomentOf: a compare that finds the page sought, a slot given up as a
// victim, an ERROR; not their near misses.
func TestNarrateMomentOf(t *testing.T) {
	site := trace.SiteOf
	narratetest.Moments(t, slru.MomentOf, []narratetest.Moment{
		{Name: "compare finds the page", E: trace.Event{Kind: trace.KSlotScan, Class: slru.ClassSlot, Site: site("slru.ro.scan"),
			After: slru.SlotWord(12, slru.PageValid, false), Arg: 12}, Want: trace.MomentSLRUMatch},
		{Name: "compare finds it being read", E: trace.Event{Kind: trace.KSlotScan, Class: slru.ClassSlot, Site: site("slru.sel.scan"),
			After: slru.SlotWord(12, slru.PageReadInProgress, false), Arg: 12}, Want: trace.MomentSLRUMatch},
		{Name: "compare finds another page", E: trace.Event{Kind: trace.KSlotScan, Class: slru.ClassSlot, Site: site("slru.ro.scan"),
			After: slru.SlotWord(11, slru.PageValid, false), Arg: 12}, Want: trace.MomentNone},
		{Name: "compare finds an empty slot", E: trace.Event{Kind: trace.KSlotScan, Class: slru.ClassSlot, Site: site("slru.ro16.scan"),
			After: slru.SlotWord(0, slru.PageEmpty, false), Arg: 0}, Want: trace.MomentNone},
		{Name: "clean victim", E: trace.Event{Kind: trace.KVictim, Class: slru.ClassSlot, Site: site("slru.sel.victim"), Arg: slru.VictimClean}, Want: trace.MomentSLRUVictim},
		{Name: "dirty victim", E: trace.Event{Kind: trace.KVictim, Class: slru.ClassSlot, Site: site("slru.sel.write"), Arg: slru.VictimDirty}, Want: trace.MomentSLRUVictim},
		{Name: "empty slot taken", E: trace.Event{Kind: trace.KVictim, Class: slru.ClassSlot, Site: site("slru.sel.empty"), Arg: slru.VictimEmpty}, Want: trace.MomentNone},
		{Name: "read failed", E: trace.Event{Kind: trace.KError, Class: slru.ClassSlot, Site: site("slru.read.error"), Arg: uint64(slru.ErrReadFailed)}, Want: trace.MomentError},
		{Name: "hit", E: trace.Event{Kind: trace.KHit, Class: slru.ClassSlot, Site: site("slru.ro.hit"), Arg: 12}, Want: trace.MomentNone},
	})
}

// Every kind of event, on every SLRU class, at every SLRU site (PG 17's
// and PG 16's) and at none, with a few sets of values, has a caption in
// words (narratetest.Synthetic.InWords).
func TestNarrateEveryKindInWords(t *testing.T) {
	actor := func(a trace.Actor) string { return trace.ActorName(a) }
	narratetest.Synthetic{
		Classes: []trace.ObjClass{slru.ClassBank, slru.ClassSlot, slru.ClassSlotIO, slru.ClassSLRU},
		Sites:   narratetest.Sites(func(s trace.Site) bool { return strings.HasPrefix(s.String(), "slru.") }),
		Values: []trace.Event{
			{},
			{Before: 3, After: trace.NoBuffer, Arg: 2, Obj: 7},
			{Before: slru.SlotWord(5, slru.PageValid, true), After: slru.SlotWord(5, slru.PageReadInProgress, false), Arg: 5, Obj: 37},
		},
		Actor: 1,
	}.InWords(t, func(e trace.Event) string { return slru.Caption([]trace.Event{e}, 0, actor) })
}

// Every event of the SLRU's golden scripts (testdata/*.txt, which
// TestGolden runs) has a caption of its own, in words
// (narratetest.GoldenCaptions).
func TestNarrateGoldenScripts(t *testing.T) {
	narratetest.GoldenCaptions(t, func(t *testing.T, f string, d *datadriven.TestData) ([]trace.Event, scenario.Names) {
		var args []string
		for _, a := range d.CmdArgs {
			args = append(args, a.String())
		}
		sc, err := parseScript(args, d.Input)
		if err != nil {
			return nil, scenario.Names{} // a script the error directive expects to fail
		}
		log := trace.NewLog()
		sc.run(t, log) // a failed run's events are captioned too
		return log.Events(), scenario.Names{}
	})
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
