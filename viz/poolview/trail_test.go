package poolview_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/poolview/pooltest"
	"bufferlab/viz/timeline"
)

// trailSrc drops relations with every strategy (one at a time: each drop
// is the only operation running), reads between them, and ends with a
// BULKREAD scan through its ring and reads that make the clock sweep go
// round.
const trailSrc = `config shared_buffers=1MB in_recovery=on dlist=on
relation t blocks=3
relation big blocks=60
relation v blocks=10
relation w blocks=12
relation r blocks=1 count=4
backend A: touch t 0..2; touch big 0..59; touch v 0..9; touch w 0..11; touch r* 0
run
backend S: drop t strategy=scan
run
backend A: touch big 0
run
backend S: drop v strategy=lookup
run
backend S: truncate w to 8 strategy=dlist
run
backend S: drop r* strategy=scan
run
backend S: drop big strategy=auto
run
`

// opSpan is one operation of a log: its KOp, its end (KOpDone or KError,
// -1 while it runs at the log's end), its backend.
type opSpan struct {
	begin, end int
	actor      trace.Actor
	site       string
}

// topOps lists the operations a trail belongs to, in order of their
// start: a scan's block reads are part of the scan.
func topOps(evs []trace.Event) []opSpan {
	var out []opSpan
	open := map[trace.Actor]int{} // actor → index in out
	scan := map[trace.Actor]bool{}
	for i, e := range evs {
		switch e.Kind {
		case trace.KOp:
			if scan[e.Actor] && e.Site.String() == "read.begin" {
				continue
			}
			open[e.Actor] = len(out)
			scan[e.Actor] = e.Site.String() == "scan.init"
			out = append(out, opSpan{begin: i, end: -1, actor: e.Actor, site: e.Site.String()})
		case trace.KOpDone, trace.KError:
			k, ok := open[e.Actor]
			if !ok || scan[e.Actor] && e.Kind == trace.KOpDone && e.Site.String() != "scan.end" && e.Site.String() != "scan.pause" {
				continue
			}
			out[k].end = i
			delete(open, e.Actor)
			scan[e.Actor] = false
		}
	}
	return out
}

// examinedCount is the number of times the trails shown mark descriptors
// examined (a cell examined twice counts twice).
func examinedCount(tr view.Trails, n int) (cells, times int) {
	for i := 0; i < n; i++ {
		if m := tr.Cell(i); m.Marks&view.MarkExamined != 0 {
			cells++
			times += m.Count
		}
	}
	return cells, times
}

// At the end of every drop, the descriptors its trail marks examined are
// exactly the engine's count for that drop (DropDescsTouched), those it
// marks dropped the buffers it invalidated; the full scan marks every
// descriptor once, the others a handful. The trail stays after the drop
// ends and goes when the next operation begins.
func TestDropTrailMatchesEngine(t *testing.T) {
	var atBegin bufmgr.Stats
	// The view before the run's first event, from a first run (which
	// names the backends and relations).
	v := pooltest.NewView(pooltest.Run(t, "trail", trailSrc))
	drops, checkedAfter := 0, 0
	pendingEnd := false // a drop just ended: check the next operation hides it
	pooltest.RunHooked(t, "trail", trailSrc, func(r *scenario.Runner, e trace.Event) {
		v.Apply(e)
		site := e.Site.String()
		if e.Kind == trace.KOp && pendingEnd {
			// The next operation began: the drop's marks are gone.
			tr := v.Trails()
			for i := 0; i < v.NBuffers(); i++ {
				if m := tr.Cell(i); m.Marks != 0 && m.Actor != e.Actor {
					t.Fatalf("event %d (%v): buffer %d still shows %s's trail (%s)", e.Seq, e, i, trace.ActorName(m.Actor), view.CellMarkString(m.Marks))
				}
			}
			pendingEnd = false
			checkedAfter++
		}
		switch {
		case e.Kind == trace.KOp && (site == "drop.begin" || site == "dropall.begin"):
			atBegin = r.Pool().Stats()
		case e.Kind == trace.KOpDone && isDrop(v, e.Actor):
			now := r.Pool().Stats()
			tr := v.Trails()
			cells, times := examinedCount(tr, v.NBuffers())
			touched := now.DropDescsTouched - atBegin.DropDescsTouched
			if uint64(times) != touched {
				t.Errorf("drop at event %d: the trail marks %d examinations (%d cells), the engine counted %d", e.Seq, times, cells, touched)
			}
			if got, want := tr.Marked(view.MarkDropped), now.DropInvalidated-atBegin.DropInvalidated; uint64(got) != want {
				t.Errorf("drop at event %d: %d cells marked dropped, the engine invalidated %d", e.Seq, got, want)
			}
			if v.Lane(e.Actor).Op.After == uint64(bufmgr.DropScan) && cells != v.NBuffers() {
				t.Errorf("the full scan at event %d marks %d of %d descriptors", e.Seq, cells, v.NBuffers())
			}
			drops++
			pendingEnd = true
		default:
			if pendingEnd && v.Trails().Marked(0) == 0 {
				t.Fatalf("event %d (%v): the drop's trail went before the next operation began", e.Seq, e)
			}
		}
	})
	if drops != 5 || checkedAfter < 4 {
		t.Fatalf("%d drops checked, %d followed by an operation", drops, checkedAfter)
	}
}

// isDrop reports whether actor a's operation is a drop.
func isDrop(v *view.Pool, a trace.Actor) bool {
	s := v.Lane(a).Op.Site.String()
	return s == "drop.begin" || s == "dropall.begin"
}

// marksString lists every mark a view's trails show, for comparisons.
func marksString(v *view.Pool) string {
	tr := v.Trails()
	s := ""
	for i := 0; i < v.NBuffers(); i++ {
		if m := tr.Cell(i); m.Marks != 0 {
			s += fmt.Sprintf("b%d:%s:%s×%d ", i, trace.ActorName(m.Actor), view.CellMarkString(m.Marks), m.Count)
		}
	}
	for i := 0; i < view.NumPartitions; i++ {
		if m := tr.Partition(i); m.Marks != 0 {
			s += fmt.Sprintf("p%d:%s:%s×%d ", i, trace.ActorName(m.Actor), view.PartitionMarkString(m.Marks), m.Count)
		}
	}
	return s
}

// Every operation's trail, at its end and at the event before the next
// operation, is what its events say: the clock hand's ticks, the ring's
// members, the lookups' partitions; unapplying the next operation's KOp
// brings the trail back exactly; a timeline seeking anywhere shows the
// trail of a fresh replay.
func TestTrailsUnapplyAndSeek(t *testing.T) {
	for name, src := range map[string]string{"trail": trailSrc, "clock-sweep.scn": pooltest.Lessons(t)["clock-sweep.scn"], "contention-seed7": pooltest.Contention(7)} {
		t.Run(name, func(t *testing.T) {
			r := pooltest.Run(t, name, src)
			evs := r.Log().Events()
			v := pooltest.NewView(r)
			ops := topOps(evs)
			next := 0
			sawSwept, sawRing, sawProbe := false, false, false
			for i, e := range evs {
				before := marksString(v)
				fp := v.Fingerprint()
				v.Apply(e)
				// The KOp of an operation: unapplying it gives back the
				// trails before it, mark for mark.
				if e.Kind == trace.KOp {
					v.Unapply(e)
					if got := marksString(v); got != before || v.Fingerprint() != fp {
						t.Fatalf("event %d: Unapply of the KOp gives trails\n%s\nwant\n%s", i, got, before)
					}
					v.Apply(e)
				}
				for next < len(ops) && ops[next].end >= 0 && ops[next].end <= i {
					o := ops[next]
					next++
					if name == "contention-seed7" {
						continue // overlapping operations: the ticks below are not all theirs
					}
					// At the operation's end: its ticks, ring and probes.
					ticks, ring, probes := map[int]int{}, map[int]bool{}, map[int]bool{}
					for _, x := range evs[o.begin : o.end+1] {
						switch {
						case x.Actor != o.actor:
						case x.Kind == trace.KClockTick:
							ticks[int(x.After)]++
						case x.Kind == trace.KRingAdd && x.Obj != view.NoObj:
							ring[int(x.Obj)] = true
						case x.Kind == trace.KMapLookup:
							probes[int(x.Obj)] = true
						}
					}
					tr := v.Trails()
					for b := 0; b < v.NBuffers(); b++ {
						m := tr.Cell(b)
						if swept := m.Marks&view.MarkSwept != 0 && m.Actor == o.actor; swept != (ticks[b] > 0) {
							t.Fatalf("op at %d (%s): buffer %d swept %v, ticked %d times", o.begin, o.site, b, swept, ticks[b])
						}
						if ring[b] && (m.Marks&view.MarkRing == 0 || m.Actor != o.actor) {
							t.Fatalf("op at %d (%s): buffer %d joined the ring but is marked %s", o.begin, o.site, b, view.CellMarkString(m.Marks))
						}
						sawSwept = sawSwept || ticks[b] > 0
						sawRing = sawRing || ring[b]
					}
					for p := range probes {
						if m := tr.Partition(p); m.Marks&view.MarkProbed == 0 || m.Actor != o.actor {
							t.Fatalf("op at %d (%s): partition %d probed but marked %s", o.begin, o.site, p, view.PartitionMarkString(m.Marks))
						}
						sawProbe = true
					}
				}
			}
			if name == "clock-sweep.scn" && (!sawSwept || !sawRing || !sawProbe) {
				t.Fatalf("swept %v, ring %v, probes %v: the scenario no longer exercises them", sawSwept, sawRing, sawProbe)
			}
			// A timeline over the log: wherever it seeks, the trails are a
			// fresh replay's.
			tl := timeline.New(trace.Slice(evs), pooltest.NewView(r), 16)
			rng := rand.New(rand.NewPCG(3, uint64(len(evs))))
			for k := 0; k < 60; k++ {
				p := rng.IntN(len(evs) + 1)
				if k%3 == 0 {
					tl.Step(-rng.IntN(20))
				} else {
					tl.Seek(p)
				}
				if got, want := marksString(tl.Current()), marksString(pooltest.Replay(r, tl.Pos())); got != want {
					t.Fatalf("at %d after a seek: trails\n%s\nwant a replay's\n%s", tl.Pos(), got, want)
				}
			}
		})
	}
}
