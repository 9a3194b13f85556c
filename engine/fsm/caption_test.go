package fsm_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/cockroachdb/datadriven"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/internal/narrate"
	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
)

// MomentOf: a read of an FSM page past the fork's end, the creation of
// the FSM fork, an ERROR; not their near misses.
func TestNarrateMomentOf(t *testing.T) {
	site := trace.SiteOf
	fsmPage0 := fsm.PackAddr(bufmgr.FSMForkNum, 0, fsm.NodePage)
	for _, c := range []struct {
		name string
		e    trace.Event
		want trace.Moment
	}{
		{"no FSM fork: nothing read", trace.Event{Kind: trace.KFSMSkip, Class: trace.OFSMPage, Site: site("fsmread.beyond"), Arg: fsmPage0}, trace.MomentFSMSkip},
		{"FSM fork created", trace.Event{Kind: trace.KForkSize, Class: trace.OFSMRel, Site: site("fsmext.create"),
			Before: fsm.ForkWord(false, 0), After: fsm.ForkWord(true, 0), Arg: fsmPage0}, trace.MomentFSMCreate},
		{"FSM fork extended", trace.Event{Kind: trace.KForkSize, Class: trace.OFSMRel, Site: site("fsmext.extend"),
			Before: fsm.ForkWord(true, 0), After: fsm.ForkWord(true, 3), Arg: fsm.PackAddr(bufmgr.FSMForkNum, 2, fsm.NodePage)}, trace.MomentNone},
		{"visibility map created", trace.Event{Kind: trace.KForkSize, Class: trace.OFSMRel, Site: site("vm.extend"),
			Before: fsm.ForkWord(false, 0), After: fsm.ForkWord(true, 1), Arg: fsm.PackAddr(bufmgr.VMForkNum, 0, fsm.NodePage)}, trace.MomentNone},
		{"heap extended", trace.Event{Kind: trace.KForkSize, Class: trace.OFSMRel, Site: site("hio.extend"),
			Before: fsm.ForkWord(true, 0), After: fsm.ForkWord(true, 1), Arg: fsm.PackAddr(bufmgr.MainForkNum, 0, fsm.NodePage)}, trace.MomentNone},
		{"row too big", trace.Event{Kind: trace.KError, Class: trace.OFSMRel, Site: site("hio.too-big"), Before: 9000, Arg: uint64(fsm.ErrRowTooBig)}, trace.MomentError},
		{"search step", trace.Event{Kind: trace.KSearchStep, Class: trace.OFSMNode, Site: site("srchavail.root"), Before: 206, After: 254}, trace.MomentNone},
	} {
		if got := fsm.MomentOf(c.e); got != c.want {
			t.Errorf("%s: MomentOf = %s, want %s", c.name, got, c.want)
		}
		if got := scenario.MomentOf(c.e); got != c.want {
			t.Errorf("%s: scenario.MomentOf = %s, want %s", c.name, got, c.want)
		}
	}
}

var digitRuns = regexp.MustCompile(`[0-9]+`)

// Every kind of event, on every FSM class, at every FSM site and at none,
// with a few sets of values, has a caption in words (narrate.CheckWords,
// with every number counted as one digit: the values are made up). The
// pairs the FSM never emits get the generic caption, in words too.
func TestNarrateEveryKindInWords(t *testing.T) {
	names := func(rel uint32) string { return "orders" }
	actor := func(a trace.Actor) string { return trace.ActorName(a) }
	sites := []trace.Site{0}
	own := map[*trace.Func]bool{}
	for _, f := range fsm.Funcs() {
		own[f] = true
	}
	for s := trace.Site(1); int(s) < trace.Sites(); s++ {
		if own[s.Info().Func] {
			sites = append(sites, s)
		}
	}
	values := []trace.Event{
		{},
		{Before: 3, After: trace.NoBuffer, Arg: fsm.PackAddr(bufmgr.FSMForkNum, 2, 4100), Obj: 16384},
		{Before: fsm.ForkWord(true, 3), After: fsm.NoSlot, Arg: fsm.PackAddr(bufmgr.MainForkNum, 7, 3), Obj: 16384},
	}
	checked := map[string]bool{}
	n := 0
	for k := trace.Kind(1); int(k) < trace.NumKinds; k++ {
		for _, c := range []trace.ObjClass{trace.OFSMRel, trace.OFSMPage, trace.OFSMNode, trace.OHeapPage, trace.OLocalMap} {
			for _, s := range sites {
				for _, v := range values {
					e := v
					e.Kind, e.Class, e.Site, e.Actor = k, c, s, 1
					got := fsm.Caption([]trace.Event{e}, 0, names, actor)
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

// Every event of the FSM's golden scripts (testdata/*.txt, which
// TestGolden runs), the pool's included, has a caption of its own, in
// words (narrate.Check): no event falls back to the generic caption.
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
			opt, buffers := fsm.Options{}, 32
			for _, a := range d.CmdArgs {
				switch a.Key {
				case "variant":
					opt.Variant, _ = fsm.ParseVariant(a.Vals[0])
				case "threshold":
					opt.Threshold, _ = strconv.Atoi(a.Vals[0])
				case "buffers":
					buffers, _ = strconv.Atoi(a.Vals[0])
				}
			}
			g, _ := runScript(d.Input, opt, buffers) // a failed script's events are captioned too
			if g == nil {
				return d.Expected
			}
			evs := g.pool.Log().Events()
			for i := range evs {
				events++
				if err := narrate.Check(scenario.Caption(evs, i, scenario.Names{Rel: g.names})); err != nil {
					t.Errorf("%s:%s: event %d (%s at %s): %v", f, d.Pos, i, evs[i].Kind, evs[i].Site, err)
				}
			}
			return d.Expected // TestGolden compares the output; this test reads the events
		})
	}
	t.Logf("%d events captioned", events)
}
