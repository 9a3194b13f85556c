package all_test

import (
	"slices"
	"testing"

	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
	"bufferlab/fastmode/exp"
	_ "bufferlab/fastmode/exp/all"
	"bufferlab/verify"
	"bufferlab/viz/mech"
	_ "bufferlab/viz/mech/all"
	"bufferlab/viz/player"
	"bufferlab/viz/slruview"
)

// The two registries agree: every mechanism of the scenario language has
// its registration here and every one here is a language mechanism.
func TestEveryScenarioMechanismIsRegistered(t *testing.T) {
	for _, m := range scenario.Mechanisms() {
		if _, ok := mech.Lookup(m.Name); !ok {
			t.Errorf("scenario mechanism %q has no viz/mech registration (add its package to viz/mech/all)", m.Name)
		}
		if m.Owner == trace.MNone {
			t.Errorf("scenario mechanism %q owns no trace classes", m.Name)
		}
	}
	for _, m := range mech.All() {
		if _, ok := scenario.Lookup(m.Name); !ok {
			t.Errorf("viz/mech registers %q, which the scenario language does not", m.Name)
		}
	}
}

// Every bench experiment and every verify check belongs to exactly one
// mechanism (limits measures the machine, not a mechanism), and every
// name a mechanism claims exists.
func TestExperimentsAndChecksBelongToOneMechanism(t *testing.T) {
	owner := map[string]string{}
	checkOwner := map[string]string{}
	for _, m := range mech.All() {
		for _, e := range m.Experiments {
			if prev, dup := owner[e]; dup {
				t.Errorf("experiment %q claimed by %s and %s", e, prev, m.Name)
			}
			owner[e] = m.Name
			if _, ok := exp.Lookup(e); !ok {
				t.Errorf("%s claims experiment %q, which fastmode/exp does not register", m.Name, e)
			}
		}
		for _, c := range m.Checks {
			if prev, dup := checkOwner[c]; dup {
				t.Errorf("check %q claimed by %s and %s", c, prev, m.Name)
			}
			checkOwner[c] = m.Name
		}
	}
	for _, e := range exp.Names() {
		if _, ok := owner[e]; !ok && e != "limits" {
			t.Errorf("experiment %q belongs to no mechanism", e)
		}
	}
	var names []string
	for _, c := range verify.Checks() {
		names = append(names, c.Name)
		if _, ok := checkOwner[c.Name]; !ok {
			t.Errorf("verify check %q belongs to no mechanism", c.Name)
		}
	}
	for c, m := range checkOwner {
		if !slices.Contains(names, c) {
			t.Errorf("%s claims check %q, which verify does not have", m, c)
		}
	}
}

// The player opens a track for each mechanism a run has, and only those;
// a track follows the player's position and is the typed timeline.
func TestPlayerOpensTheRunsMechanisms(t *testing.T) {
	p, err := player.FromScenario("t.scn", "config slru=banks clog_pages=4\nbackend A: clog get 100\nrun\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.Tracks["slru"]; !ok || len(p.Tracks) != 1 {
		t.Fatalf("tracks %v: want the SLRU's alone", p.Tracks)
	}
	p.TL.Seek(p.TL.Len() / 2)
	tr := p.Track("slru")
	if tr.State().(*slruview.View) != p.SLRUView() || mech.Timeline[*slruview.View](tr) != p.SLRU {
		t.Fatal("the SLRU track and the player's SLRU timeline differ")
	}
	if mech.Timeline[*slruview.View](tr).Pos() != p.TL.Pos() {
		t.Fatalf("track at %d, player at %d", mech.Timeline[*slruview.View](tr).Pos(), p.TL.Pos())
	}
	q, err := player.FromScenario("t.scn", "relation r blocks=4\nbackend A: touch r 0..3\nrun\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Tracks) != 0 {
		t.Fatalf("a pool-only run opened tracks %v", q.Tracks)
	}
}
