package main

import "testing"

func TestResolveLink(t *testing.T) {
	all := []linkLesson{{"shared-buffers", 14}, {"pinning", 6}}
	for _, c := range []struct {
		hash   string
		name   string
		step   int
		notice string
	}{
		{"lesson=shared-buffers&step=3", "shared-buffers", 3, ""},
		{"lesson=pinning", "pinning", 0, ""},
		{"lesson=shared-buffers&step=13", "shared-buffers", 13, ""},
		{"lesson=shared-buffers&step=14", "shared-buffers", 13,
			"The link asked for step 14, but lesson shared-buffers has 14 steps (0 to 13): showing the last one."},
		{"lesson=pinning&step=99999999999999999999", "pinning", 0,
			`The link asked for step "99999999999999999999" of lesson pinning, which is not a step number (0 to 5): showing the first step.`},
		{"lesson=pinning&step=-2", "pinning", 0, "The link asked for step -2 of lesson pinning; steps count from 0: showing the first step."},
		{"lesson=pinning&step=two", "pinning", 0, `The link asked for step "two" of lesson pinning, which is not a step number (0 to 5): showing the first step.`},
		{"lesson=pinning&step=", "pinning", 0, `The link asked for step "" of lesson pinning, which is not a step number (0 to 5): showing the first step.`},
		{"lesson=nope&step=2", "", 0, `The link asked for lesson "nope", which does not exist: choose one from the list (shared-buffers, pinning).`},
		{"step=2", "", 0, "The link #step=2 names no lesson (expected #lesson=NAME&step=N): choose one from the list."},
		{"lesson=%zz", "", 0, `The link #lesson=%zz is not of the form #lesson=NAME&step=N (invalid URL escape "%zz"): choose a lesson from the list.`},
	} {
		name, step, notice := resolveLink(c.hash, all)
		if name != c.name || step != c.step || notice != c.notice {
			t.Errorf("#%s: %q step %d, notice %q; want %q step %d, notice %q", c.hash, name, step, notice, c.name, c.step, c.notice)
		}
	}
}
