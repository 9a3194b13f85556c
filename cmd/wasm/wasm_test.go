package main

// The tests of cmd/wasm's pure half, natively: the links it follows
// (planLink) and the sandbox's diagnostics and gallery.

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"bufferlab/engine/scenario"
	"bufferlab/internal/goldentest"
	"bufferlab/internal/permalink"
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
