package scene_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"bufferlab/viz/layout"
	"bufferlab/viz/scene"
)

// counterRoles lays out pane i's FSM scene at the end of src in a pane
// of w×h and returns the roles of the counters it kept.
func counterRoles(t *testing.T, src string, pane int, w, h float64) []string {
	t.Helper()
	p := scenarioPlayer(t, "extend.scn", src)
	p.End()
	v := p.FSMView()
	if p.Panes() > 1 {
		v = p.PaneFSMView(pane)
	}
	var l layout.List
	scene.LayoutFSMScene(&l, layout.Rect{W: w, H: h}, v, v.Heaps()[0].Rel, layout.Light(1.45))
	var roles []string
	for _, it := range l.Items {
		if strings.HasPrefix(it.Role, "counter ") && !slices.Contains(roles, it.Role) {
			roles = append(roles, it.Role)
		}
	}
	return roles
}

// Where there is room for two counters, PostgreSQL 16's bulk extension
// keeps the heap's extensions in view, in the 16 pane and in the 15 pane
// beside it (the scenario's point: 13 one-page extensions against 16
// pages in 9), and at 15 alone the FSM pages read and the heap pages
// read are kept, as lessons 5 and 6 want.
func TestFSMExtensionsFirst(t *testing.T) {
	src, err := os.ReadFile("../../lessons/scenarios/bulk-extension.scn")
	if err != nil {
		t.Fatal(err)
	}
	const w, h = 330, 440 // a pane of two side by side at 1280×720, presented
	for pane, want := range []string{"counter extends", "counter in 9 ext."} {
		if got := counterRoles(t, string(src), pane, w, h); !slices.Contains(got, want) {
			t.Errorf("bulk-extension.scn pane %d: counters %q, want %q among them", pane, got, want)
		}
	}
	only15 := strings.Replace(string(src), "pg=15,16", "pg=15", 1)
	got := counterRoles(t, only15, 0, w, h)
	if slices.Contains(got, "counter extends") || !slices.Contains(got, "counter FSM reads") {
		t.Errorf("at 15 alone: counters %q, want FSM reads and not the extensions", got)
	}
}
