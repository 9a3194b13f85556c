package poolview_test

import (
	"fmt"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
	"bufferlab/viz/poolview/pooltest"
)

// Two backends pin the same resident buffer under round-robin: under the
// atomic variant B's CAS fails and its lane shows the value it found, then
// the retry; under the spinlock variant B spins on BM_LOCKED instead.
const racePins = `config shared_buffers=128kB pins=%s
relation t blocks=1
backend A: touch t 0
run
backend A: read t 0
backend B: read t 0
run
`

func TestLaneWordAndCounters(t *testing.T) {
	for _, mode := range []string{"atomic", "spinlock"} {
		r := pooltest.Run(t, mode, fmt.Sprintf(racePins, mode))
		v := pooltest.NewView(r)
		const a, b = trace.Actor(1), trace.Actor(2)
		sawFail, sawSpin := false, false
		for _, e := range r.Log().Events() {
			v.Apply(e)
			lb := v.Lane(b)
			switch {
			case e.Actor == b && e.Kind == trace.KCASFail:
				sawFail = true
				if !lb.HasWord || lb.Word != uint32(e.After) || lb.WordEvent.Seq != e.Seq {
					t.Fatalf("%s: after B's failed CAS its lane holds word %#x (has %v), want the value found %#x", mode, lb.Word, lb.HasWord, e.After)
				}
				if lb.CASFailures != 1 {
					t.Fatalf("%s: B's lane counts %d CAS failures, want 1", mode, lb.CASFailures)
				}
			case e.Actor == b && e.Kind == trace.KSpin:
				sawSpin = true
				if !lb.Spinning || !lb.Waiting {
					t.Fatalf("%s: B spins but its lane says spinning=%v waiting=%v", mode, lb.Spinning, lb.Waiting)
				}
			case e.Actor == b && e.Kind == trace.KOp:
				if lb.HasWord {
					t.Fatalf("%s: a new operation starts with a stale local word %#x", mode, lb.Word)
				}
			case e.Actor == a && e.Kind == trace.KLoad && e.Class == trace.OBuffer:
				if la := v.Lane(a); !la.HasWord || la.Word != uint32(e.After) {
					t.Fatalf("%s: A loaded %#x but its lane holds %#x", mode, e.After, la.Word)
				}
			}
			if e.Actor == b && e.Kind != trace.KSpin && lb.Spinning {
				t.Fatalf("%s: B's lane still spinning after %v", mode, e)
			}
		}
		lb := v.Lane(b)
		switch mode {
		case "atomic":
			if !sawFail || sawSpin {
				t.Fatalf("atomic: saw CAS failure %v, spin %v; want a failure and no spin", sawFail, sawSpin)
			}
			// A: one pin of the new buffer is PinBuffer_Locked (no CAS), one
			// unpin CAS and one pin CAS; B: one failed CAS and its retry.
			if la := v.Lane(a); la.CASes != 2 || lb.CASes != 1 || lb.CASFailures != 1 || lb.Spins != 0 {
				t.Fatalf("atomic: A %d CAS, B %d CAS %d failed %d spins; want 2, 1, 1, 0", la.CASes, lb.CASes, lb.CASFailures, lb.Spins)
			}
		case "spinlock":
			if sawFail || !sawSpin || lb.CASFailures != 0 || lb.Spins != 1 {
				t.Fatalf("spinlock: CAS failure %v, spin %v, B spins %d; want no failure and one spin", sawFail, sawSpin, lb.Spins)
			}
			if got := bufmgr.StateRefcount(lb.Word); got != 2 {
				t.Fatalf("spinlock: B's last word has refcount %d, want 2 (its own unlock)", got)
			}
		}
	}
}
