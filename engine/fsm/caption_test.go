package fsm_test

import (
	"testing"

	"github.com/cockroachdb/datadriven"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/internal/narrate/narratetest"
	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
)

// MomentOf: a read of an FSM page past the fork's end, the creation of
// the FSM fork, an ERROR; not their near misses.
func TestNarrateMomentOf(t *testing.T) {
	site := trace.SiteOf
	fsmPage0 := fsm.PackAddr(bufmgr.FSMForkNum, 0, fsm.NodePage)
	narratetest.Moments(t, fsm.MomentOf, []narratetest.Moment{
		{Name: "no FSM fork: nothing read", E: trace.Event{Kind: trace.KFSMSkip, Class: trace.OFSMPage, Site: site("fsmread.beyond"), Arg: fsmPage0}, Want: trace.MomentFSMSkip},
		{Name: "FSM fork created", E: trace.Event{Kind: trace.KForkSize, Class: trace.OFSMRel, Site: site("fsmext.create"),
			Before: fsm.ForkWord(false, 0), After: fsm.ForkWord(true, 0), Arg: fsmPage0}, Want: trace.MomentFSMCreate},
		{Name: "FSM fork extended", E: trace.Event{Kind: trace.KForkSize, Class: trace.OFSMRel, Site: site("fsmext.extend"),
			Before: fsm.ForkWord(true, 0), After: fsm.ForkWord(true, 3), Arg: fsm.PackAddr(bufmgr.FSMForkNum, 2, fsm.NodePage)}, Want: trace.MomentNone},
		{Name: "visibility map created", E: trace.Event{Kind: trace.KForkSize, Class: trace.OFSMRel, Site: site("vm.extend"),
			Before: fsm.ForkWord(false, 0), After: fsm.ForkWord(true, 1), Arg: fsm.PackAddr(bufmgr.VMForkNum, 0, fsm.NodePage)}, Want: trace.MomentNone},
		{Name: "heap extended", E: trace.Event{Kind: trace.KForkSize, Class: trace.OFSMRel, Site: site("hio.extend"),
			Before: fsm.ForkWord(true, 0), After: fsm.ForkWord(true, 1), Arg: fsm.PackAddr(bufmgr.MainForkNum, 0, fsm.NodePage)}, Want: trace.MomentNone},
		{Name: "row too big", E: trace.Event{Kind: trace.KError, Class: trace.OFSMRel, Site: site("hio.too-big"), Before: 9000, Arg: uint64(fsm.ErrRowTooBig)}, Want: trace.MomentError},
		{Name: "search step", E: trace.Event{Kind: trace.KSearchStep, Class: trace.OFSMNode, Site: site("srchavail.root"), Before: 206, After: 254}, Want: trace.MomentNone},
	})
}

// Every kind of event, on every FSM class, at every FSM site and at none,
// with a few sets of values, has a caption in words
// (narratetest.Synthetic.InWords).
func TestNarrateEveryKindInWords(t *testing.T) {
	names := func(rel uint32) string { return "orders" }
	actor := func(a trace.Actor) string { return trace.ActorName(a) }
	own := map[*trace.Func]bool{}
	for _, f := range fsm.Funcs() {
		own[f] = true
	}
	narratetest.Synthetic{
		Classes: []trace.ObjClass{trace.OFSMRel, trace.OFSMPage, trace.OFSMNode, trace.OHeapPage, trace.OLocalMap},
		Sites:   narratetest.Sites(func(s trace.Site) bool { return own[s.Info().Func] }),
		Values: []trace.Event{
			{},
			{Before: 3, After: trace.NoBuffer, Arg: fsm.PackAddr(bufmgr.FSMForkNum, 2, 4100), Obj: 16384},
			{Before: fsm.ForkWord(true, 3), After: fsm.NoSlot, Arg: fsm.PackAddr(bufmgr.MainForkNum, 7, 3), Obj: 16384},
		},
		Actor: 1,
	}.InWords(t, func(e trace.Event) string { return fsm.Caption([]trace.Event{e}, 0, names, actor) })
}

// Every event of the FSM's golden scripts (testdata/*.txt, which
// TestGolden runs), the pool's included, has a caption of its own, in
// words (narratetest.GoldenCaptions).
func TestNarrateGoldenScripts(t *testing.T) {
	narratetest.GoldenCaptions(t, func(t *testing.T, f string, d *datadriven.TestData) ([]trace.Event, scenario.Names) {
		opt, pc, _, err := goldenOptions(d)
		if err != nil {
			t.Fatalf("%s: %v", d.Pos, err)
		}
		g, _ := runScript(d.Input, opt, pc) // a failed script's events are captioned too
		if g == nil {
			return nil, scenario.Names{}
		}
		return g.pool.Log().Events(), scenario.Names{Rel: g.names}
	})
}
