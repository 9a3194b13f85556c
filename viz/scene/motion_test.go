package scene_test

import (
	"fmt"
	"strings"
	"testing"

	"bufferlab/engine/trace"
	"bufferlab/viz/layout"
	"bufferlab/viz/player"
	"bufferlab/viz/scene"
)

// TestSpinnerUnderReducedMotion: the spin-delay spinner turns a dot with
// each spin; under reduced motion (the theme's ReducedMotion) it is a
// still ring, the same at every spin. Lesson 2's lock-holder step, in
// its spinlock pane, has B and C spinning.
func TestSpinnerUnderReducedMotion(t *testing.T) {
	p, err := player.FromLessonName("pinning")
	if err != nil {
		t.Fatal(err)
	}
	const k, pane = 3, 1
	spinners := func(pos int, reduced bool) string {
		p.Seek(pos)
		th := layout.Light(1)
		th.ReducedMotion = reduced
		var l layout.List
		scene.LayoutLanes(&l, layout.Rect{W: 420, H: 400}, p.PaneView(pane), th)
		s := ""
		for _, it := range l.Items {
			if it.Role == "spinner" {
				s += fmt.Sprintf("%v %.1f,%.1f %.1f; ", it.Color, it.Rect.X, it.Rect.Y, it.Rect.W)
			}
		}
		return s
	}
	// Two positions where the same backend spins, its count different.
	var at []int
	var who trace.Actor
	evs := trace.All(p.PaneTimeline(pane).Events())
	for i := p.StepStart[k]; i < p.StepEnd[k] && len(at) < 2; i++ {
		if e := evs[i]; e.Kind == trace.KSpin && e.Class == trace.OBuffer && (len(at) == 0 || e.Actor == who) {
			who = e.Actor
			at = append(at, i+1)
		}
	}
	if len(at) < 2 {
		t.Fatalf("step %d's spinlock pane has %d spins of one backend, want 2", k, len(at))
	}
	a, b := spinners(at[0], false), spinners(at[1], false)
	if a == "" || a == b {
		t.Fatalf("full motion: the spinner at two spins of one backend:\n%s\n%s\nwant two different dots filled", a, b)
	}
	ra, rb := spinners(at[0], true), spinners(at[1], true)
	if ra == "" || ra != rb {
		t.Errorf("reduced motion: the spinner at two spins of one backend:\n%s\n%s\nwant the same still ring", ra, rb)
	}
	if edge := fmt.Sprint(layout.Light(1).PanelEdge); strings.Contains(ra, edge) {
		t.Errorf("reduced motion: the ring has an unfilled dot (%s): %s", edge, ra)
	}
}
