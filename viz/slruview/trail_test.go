package slruview_test

import (
	"fmt"
	"sort"
	"testing"

	"bufferlab/engine/trace"
	"bufferlab/viz/slruview"
	"bufferlab/viz/timeline"
)

// trailOf lists the slots of a lookup's trail, sorted.
func trailOf(l slruview.Lookup) []int {
	var out []int
	for _, r := range l.Trail {
		for s := r.From; s <= r.To; s++ {
			out = append(out, s)
		}
	}
	sort.Ints(out)
	return out
}

// shownTrails lists every lane's shown trail, for comparisons.
func shownTrails(v *slruview.View) string {
	s := ""
	for a := 0; a < v.NumLanes(); a++ {
		if v.TrailShown(trace.Actor(a)) {
			s += fmt.Sprintf("%d:%v ", a, trailOf(v.Lane(trace.Actor(a)).Lookup))
		}
	}
	return s
}

// Every operation's trail is the slots its searches compared, in every
// pass (its KSlotScan events), or its probes found (KMapLookup); it is shown while the operation runs and
// after it ends until the next operation begins, any backend's; Unapply
// gives the trails back and a timeline seeking anywhere shows a replay's.
func TestTrails(t *testing.T) {
	for _, w := range workloads() {
		t.Run(w.name, func(t *testing.T) {
			_, log, g := w.run(t, nil)
			evs := log.Events()
			v := slruview.New(g, names(w.backends))
			compared := map[trace.Actor]map[int]bool{}
			running := map[trace.Actor]bool{}
			ended := map[trace.Actor]uint64{} // end Seq of a finished operation
			latest := uint64(0)
			scans := 0
			for i, e := range evs {
				before, fp := shownTrails(v), v.Fingerprint()
				v.Apply(e)
				switch e.Kind {
				case trace.KOp:
					compared[e.Actor], running[e.Actor], latest = map[int]bool{}, true, e.Seq
					delete(ended, e.Actor)
					v.Unapply(e)
					if shownTrails(v) != before || v.Fingerprint() != fp {
						t.Fatalf("event %d: Unapply of the KOp does not give the trails back", i)
					}
					v.Apply(e)
				case trace.KSlotScan, trace.KMapLookup:
					slot := int(e.Obj)
					if e.Kind == trace.KMapLookup {
						if e.After == trace.NoBuffer {
							break
						}
						slot = int(e.After) // the probe found the page in this slot
					}
					if compared[e.Actor] == nil {
						compared[e.Actor] = map[int]bool{}
					}
					compared[e.Actor][slot] = true
					scans++
				case trace.KOpDone, trace.KError:
					if running[e.Actor] {
						running[e.Actor], ended[e.Actor] = false, e.Seq
					}
				}
				for a := trace.Actor(1); int(a) < v.NumLanes(); a++ {
					want := running[a] || ended[a] > latest
					if got := v.TrailShown(a); got != want {
						t.Fatalf("event %d (%v): %s's trail shown %v, want %v", i, e, trace.ActorName(a), got, want)
					}
					var ws []int
					for s := range compared[a] {
						ws = append(ws, s)
					}
					sort.Ints(ws)
					if got := trailOf(v.Lane(a).Lookup); fmt.Sprint(got) != fmt.Sprint(ws) && (len(got) > 0 || len(ws) > 0) {
						t.Fatalf("event %d: %s's trail %v, its operation compared %v", i, trace.ActorName(a), got, ws)
					}
				}
			}
			if scans == 0 {
				t.Fatal("no slot compared or probed")
			}
			tl := timeline.NewOf(trace.Slice(evs), slruview.New(g, names(w.backends)), 32)
			for k := 0; k < 40; k++ {
				p := (k * 7919) % (len(evs) + 1)
				tl.Seek(p)
				r := slruview.New(g, names(w.backends))
				for _, e := range evs[:p] {
					r.Apply(e)
				}
				if got, want := shownTrails(tl.Current()), shownTrails(r); got != want {
					t.Fatalf("at %d after a seek: %s, a replay %s", p, got, want)
				}
			}
		})
	}
}
