package main

// The tests of cmd/wasm's pure half, natively: the links it follows
// (planLink) and the sandbox's diagnostics and gallery.

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"bufferlab/engine/scenario"
	"bufferlab/internal/goldentest"
	"bufferlab/internal/permalink"
	"bufferlab/lessons"
)

// TestPlanLink: what the app opens for a link, and the notices.
func TestPlanLink(t *testing.T) {
	all := []linkLesson{{"shared-buffers", 14}, {"pinning", 6}}
	scn := "relation t blocks=1\nbackend A: touch t 0\nrun\n"
	for _, c := range []struct {
		hash string
		want linkPlan
	}{
		{"", linkPlan{}},
		{"lesson=shared-buffers&step=3", linkPlan{Lesson: "shared-buffers", Step: 2}},
		{"lesson=pinning", linkPlan{Lesson: "pinning"}},
		{"lesson=pinning&step=4&event=17", linkPlan{Lesson: "pinning", Step: 3, Event: 17}},
		{"lesson=shared-buffers&step=14", linkPlan{Lesson: "shared-buffers", Step: 13}},
		{"lesson=shared-buffers&step=15&event=3", linkPlan{Lesson: "shared-buffers", Step: 13,
			Notices: []string{"The link asked for step 15, but lesson shared-buffers has 14 steps: showing the last one."}}},
		{"lesson=pinning&step=0", linkPlan{Lesson: "pinning",
			Notices: []string{`The link's step "0" is not a step number (steps count from 1): it was ignored.`}}},
		{"lesson=nope&step=2", linkPlan{
			Notices: []string{`The link asked for lesson "nope", which does not exist: choose one from the list (shared-buffers, pinning).`}}},
		{"step=2", linkPlan{Step: 1, Notices: []string{"The link #step=2 names nothing to open (expected #lesson=NAME&step=N): choose a lesson from the list."}}},
		{"sandbox", linkPlan{Sandbox: true}},
		{"embed", linkPlan{Embed: true, Notices: []string{"This embed names nothing to show (expected #embed&lesson=NAME, with NAME one of shared-buffers, pinning, or #embed& in front of a lesson's or scenario's link): showing the lesson list."}}},
		{"embed&" + permalink.Encode(permalink.Link{Scenario: scn, Step: 1, Event: 9}), linkPlan{Embed: true, Scenario: scn, Event: 9}},
	} {
		if got := planLink(c.hash, all); !reflect.DeepEqual(got, c.want) {
			t.Errorf("#%s:\n got %+v\nwant %+v", c.hash, got, c.want)
		}
	}
}

// TestDiagnoseGolden runs testdata/diagnose.txt: the sandbox editor's
// diagnostics for a scenario text. One directive:
//
//	diagnose
//	    the input is the scenario as typed; the output is each
//	    diagnostic as LINE:COL: MESSAGE (columns in characters, as the
//	    editor counts them), or "ok"
//
// Regenerate with: go test ./cmd/wasm -run DiagnoseGolden -rewrite
func TestDiagnoseGolden(t *testing.T) {
	goldentest.RunFile(t, "testdata/diagnose.txt", goldentest.Directives{
		"diagnose": func(t *testing.T, d *goldentest.Case) (string, error) {
			ds := diagnose(d.Input)
			if len(ds) == 0 {
				return "ok\n", nil
			}
			var b strings.Builder
			for _, x := range ds {
				fmt.Fprintf(&b, "%d:%d: %s\n", x.Line, x.Col, x.Message)
			}
			return b.String(), nil
		},
	})
}

// TestGalleryRuns: every scenario offered as a start is titled and runs.
func TestGalleryRuns(t *testing.T) {
	g, err := gallery()
	if err != nil || len(g) == 0 {
		t.Fatalf("gallery: %v (%d entries)", err, len(g))
	}
	for _, e := range g {
		if e.Title == "" || e.Name == "" {
			t.Errorf("%+v: no name or title", e.Name)
		}
		if d := diagnose(e.Text); d != nil {
			t.Errorf("%s: %+v", e.Name, d)
		}
		if _, _, err := scenario.Run(e.Name, e.Text, false); err != nil {
			t.Errorf("%s: %v", e.Name, err)
		}
	}
}

// TestBrowserBudget: every embedded lesson and gallery scenario plays
// within the browser's budget (a student never meets the cap in what
// BufferLab ships), and a run past it stops at its run statement with an
// error that names the cap.
func TestBrowserBudget(t *testing.T) {
	saved := scenario.DefaultBudget
	scenario.DefaultBudget = browserBudget
	t.Cleanup(func() { scenario.DefaultBudget = saved })
	all, err := lessons.All()
	if err != nil || len(all) < 7 {
		t.Fatalf("%d lessons: %v", len(all), err)
	}
	for _, l := range all {
		if _, err := lessons.Play(l); err != nil {
			t.Errorf("lesson %s: %v", l.Name, err)
		}
	}
	g, err := gallery()
	if err != nil || len(g) < 5 {
		t.Fatalf("%d gallery scenarios: %v", len(g), err)
	}
	for _, e := range g {
		if testing.Short() && e.Name == "big-pool" {
			continue // 576,147 events, the largest: a few seconds
		}
		if _, _, err := scenario.Run(e.Name+".scn", e.Text, true); err != nil {
			t.Errorf("gallery %s: %v", e.Name, err)
		}
	}
	huge := "config shared_buffers=128MB\nrelation t blocks=100000\nbackend A: touch t 0..99999\nrun\n"
	_, _, err = scenario.Run(sandboxFile, huge, true)
	if err == nil || !strings.HasPrefix(err.Error(), sandboxFile+":4:1: run stopped after ") ||
		!strings.Contains(err.Error(), "budget of 1048576 events (128 MiB at 128 B per event, a browser tab's cap; `bufferlab run` takes larger runs)") {
		t.Errorf("a run past the browser's budget: %v", err)
	}
}

// TestRunGate: one run at a time; the page gets its turn once per slice
// of work, not at every Yield; Cancel stops the run at its next Yield.
func TestRunGate(t *testing.T) {
	clock := time.Unix(0, 0)
	var paused []int
	g := &runGate{slice: 100 * time.Millisecond, now: func() time.Time { return clock },
		pause: func(events int) { paused = append(paused, events) }}
	if g.stop() {
		t.Error("stop with no run going: reported one stopped")
	}
	if err := g.begin(); err != nil {
		t.Fatal(err)
	}
	if err := g.begin(); err == nil {
		t.Error("a second run began while one runs")
	}
	for i, ms := range []int{30, 30, 50, 10, 100} { // the page's turn at 110 ms and 210 ms
		clock = clock.Add(time.Duration(ms) * time.Millisecond)
		if err := g.yield(1000 * (i + 1)); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(paused, []int{3000, 5000}) {
		t.Errorf("the page's turns came at events %v, want [3000 5000]", paused)
	}
	if !g.stop() {
		t.Error("stop during a run: reported none")
	}
	if err := g.yield(6000); !errors.Is(err, errCancelled) {
		t.Errorf("after Cancel, yield = %v", err)
	}
	g.end()
	if err := g.begin(); err != nil {
		t.Fatalf("after the run ended: %v", err)
	}
	if err := g.yield(1); err != nil {
		t.Errorf("a new run starts uncancelled: %v", err)
	}
	if got := progressText(412000, browserBudget); got != "Running: 412,000 events so far (the browser allows 1,048,576)." {
		t.Errorf("progress: %q", got)
	}
}
