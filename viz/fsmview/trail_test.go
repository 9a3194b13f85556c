package fsmview_test

import (
	"testing"

	"bufferlab/engine/fsm"
	"bufferlab/engine/trace"
	"bufferlab/viz/fsmview"
)

// trailKey names a node of a trail.
type trailKey struct {
	rel, page uint32
	node      int
}

// Every backend's trail holds exactly the nodes of FSM pages its
// operation read (KSearchStep) or wrote (KCategory, KNodeStore, but a
// page zeroed or rebuilt), since the operation's first KOp, until the
// cap; it is shown while the operation runs and until the next one
// begins; unapplying a KOp gives the trails back.
func TestTrails(t *testing.T) {
	for _, w := range workloads()[:2] {
		// The full length even under -short: at its short length (80
		// operations) small-skip's heaps stay under the threshold, have
		// no FSM, and no trail would be shown to check.
		w.ops = 180
		t.Run(w.name, func(t *testing.T) {
			r := w.setup(t)
			v := fsmview.New(fsmview.SetupOf(r.store, r.sessions...))
			w.run(t, r)
			evs := r.log.Events()
			zeroed, rebuild := trace.SiteOf("fsmread.zeroed"), trace.SiteOf("rebuild.node")
			lit := 0
			for i, e := range evs {
				fp := v.Fingerprint()
				v.Apply(e)
				if e.Kind == trace.KOp {
					v.Unapply(e)
					if v.Fingerprint() != fp {
						t.Fatalf("event %d: Unapply of a KOp does not give the view (and its trails) back", i)
					}
					v.Apply(e)
				}
				if i%7 != 0 && i != len(evs)-1 {
					continue // the whole check every few events
				}
				latest := uint64(0)
				for a := 1; a < v.NumLanes(); a++ {
					if s := v.Lane(trace.Actor(a)).Search; s.HasOp {
						latest = max(latest, s.OpSeq)
					}
				}
				for a := trace.Actor(1); int(a) < v.NumLanes(); a++ {
					s := v.Lane(a).Search
					if !s.HasOp {
						continue
					}
					want := map[trailKey]bool{}
					n := 0
					for _, x := range evs[:i+1] {
						if x.Actor != a || x.Seq < s.OpSeq || !x.Class.IsFSM() {
							continue
						}
						switch {
						case x.Kind == trace.KSearchStep && x.Class == trace.OFSMNode,
							(x.Kind == trace.KCategory || x.Kind == trace.KNodeStore) && x.Site != zeroed && x.Site != rebuild:
							if n < 256 {
								_, phys, node := fsm.UnpackAddr(x.Arg)
								want[trailKey{x.Obj, phys, node}] = true
							}
							n++
						}
					}
					got := map[trailKey]bool{}
					for tn := s.Trail; tn != nil; tn = tn.Prev {
						got[trailKey{tn.Rel, tn.Page, tn.Node}] = true
						if on, _ := s.OnTrail(tn.Rel, tn.Page, tn.Node); !on {
							t.Fatalf("event %d: OnTrail misses a node of the trail", i)
						}
					}
					if len(got) != len(want) {
						t.Fatalf("event %d: %s's trail has %d nodes, its operation's events %d", i, trace.ActorName(a), len(got), len(want))
					}
					for k := range want {
						if !got[k] {
							t.Fatalf("event %d: %s's trail lacks %+v", i, trace.ActorName(a), k)
						}
					}
					done := s.Phase == fsmview.PhaseDone || s.Phase == fsmview.PhaseError
					if shown := v.TrailShown(a); shown != (!done || s.EndSeq > latest) {
						t.Fatalf("event %d: %s's trail shown %v (done %v, end %d, latest start %d)", i, trace.ActorName(a), shown, done, s.EndSeq, latest)
					}
					if v.TrailShown(a) && s.Trail != nil {
						lit++
					}
				}
			}
			if lit == 0 {
				t.Fatal("no trail was ever shown")
			}
		})
	}
}
