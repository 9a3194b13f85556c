package bufmgr_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/sched"
	"bufferlab/engine/trace"
)

var updateExplore = flag.Bool("update", false, "rewrite testdata/explore/explore_pins.txt")

// exploreCase is a small pin scenario run under every interleaving.
type exploreCase struct {
	name     string
	backends int
	unpin    bool // each backend pins then unpins; otherwise it only pins
}

var exploreCases = []exploreCase{
	{"2 backends pin, unpin", 2, true},
	{"3 backends pin", 3, false},
}

// explorePool is the pool the explorations run on: 16 buffers in pin
// variant pins, the invariants checked after every event (inv reports the
// first broken).
func explorePool(pins bufmgr.PinsMode) (pool *bufmgr.Pool, log *trace.Log, inv func() error, err error) {
	log = trace.NewLog()
	if pool, err = bufmgr.NewPoolWith(16, log, bufmgr.Options{Pins: pins}); err != nil {
		return nil, nil, nil, err
	}
	return pool, log, watchInvariants(log, pool), nil
}

// settled is the end of an explored run: no invariant was broken on the
// way and the pool is quiescent.
func settled(pool *bufmgr.Pool, inv func() error) error {
	if err := inv(); err != nil {
		return err
	}
	return pool.CheckQuiescent()
}

// exploreRun builds a pool whose buffer 0 holds a valid page (read and
// released by a setup backend), runs the case's backends under policy p and
// describes the outcome: the final state word, the CAS failures and spins
// of the explored run, and the order in which the backends' shared pins
// (then unpins) took effect.
func exploreRun(pins bufmgr.PinsMode, c exploreCase, p sched.Policy) (string, error) {
	pool, log, inv, err := explorePool(pins)
	if err != nil {
		return "", err
	}
	setup, _ := pool.NewBackend("S")
	rel := testRel("t", bufmgr.FirstNormalObjectId, 1)
	buf, _, err := setup.ReadBuffer(rel, bufmgr.MainForkNum, 0, nil)
	if err != nil {
		return "", err
	}
	if err := setup.ReleaseBuffer(buf); err != nil {
		return "", err
	}
	id := int(buf - 1)
	before := pool.Stats()
	first := log.Len()
	s := sched.New(p)
	var bs []*bufmgr.Backend
	for i := 0; i < c.backends; i++ {
		b, _ := pool.NewBackend(string(rune('A' + i)))
		bs = append(bs, b)
		b.Spawn(s, func(sched.Yield) error {
			if !bufmgr.PinForTest(b, id) {
				return fmt.Errorf("%s: buffer not valid", b.Name)
			}
			if c.unpin {
				bufmgr.UnpinForTest(b, id)
			}
			return nil
		})
	}
	if err := s.Run(); err != nil {
		return "", err
	}
	if err := settled(pool, inv); err != nil {
		return "", err
	}
	// No pin lost: every pin still held is counted, once, in the word.
	want := 0
	if !c.unpin {
		want = c.backends
	}
	st := pool.Desc(id).State()
	if int(bufmgr.StateRefcount(st)) != want {
		return "", fmt.Errorf("refcount %d, want %d", bufmgr.StateRefcount(st), want)
	}
	for _, b := range bs {
		if n := b.PrivateRefCount(buf); !c.unpin && n != 1 || c.unpin && n != 0 {
			return "", fmt.Errorf("%s has private count %d", b.Name, n)
		}
	}
	after := pool.Stats()
	var pinOrder, unpinOrder strings.Builder
	for _, e := range log.Events()[first:] {
		switch e.Site.String() {
		case "pin.cas", "pin95.unlock":
			if e.Kind == trace.KCAS || e.Kind == trace.KUnlockHdr {
				pinOrder.WriteString(pool.Backends()[e.Actor-1].Name)
			}
		case "unpin.cas", "unpin95.unlock":
			if e.Kind == trace.KCAS || e.Kind == trace.KUnlockHdr {
				unpinOrder.WriteString(pool.Backends()[e.Actor-1].Name)
			}
		}
	}
	out := fmt.Sprintf("cas-fail=%d spins=%d pins=%s", after.CASFailures-before.CASFailures,
		after.Spins-before.Spins, pinOrder.String())
	if c.unpin {
		out += " unpins=" + unpinOrder.String()
	}
	return out + " final: " + bufmgr.StateString(st), nil
}

// TestExplorePins runs pin scenarios under every schedule in both pin
// variants and compares the reachable outcomes with
// testdata/explore/explore_pins.txt (go test ./engine/bufmgr -run
// ExplorePins -update rewrites it). The file lives in a subdirectory
// because TestGolden reads every testdata/*.txt as a datadriven file.
func TestExplorePins(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Every interleaving of small pin scenarios (sched.Explore): the distinct\n")
	b.WriteString("# outcomes, as CAS failures, spins, order of shared pins/unpins, final state.\n")
	for _, pins := range []bufmgr.PinsMode{bufmgr.PinsAtomic, bufmgr.PinsSpinlock} {
		sawFail, sawSpin := false, false
		for _, c := range exploreCases {
			outs, runs, err := sched.Explore(200000, func(p sched.Policy) (string, error) {
				return exploreRun(pins, c, p)
			})
			if err != nil {
				t.Fatalf("pins=%s %s: %v", pins, c.name, err)
			}
			fmt.Fprintf(&b, "\npins=%s, %s: %d schedules, %d outcomes\n", pins, c.name, runs, len(outs))
			for _, o := range outs {
				b.WriteString(o)
				b.WriteByte('\n')
				sawFail = sawFail || !strings.HasPrefix(o, "cas-fail=0 ")
				sawSpin = sawSpin || !strings.Contains(o, " spins=0 ")
			}
		}
		switch pins {
		case bufmgr.PinsAtomic:
			if !sawFail {
				t.Errorf("pins=atomic: no schedule has a CAS fail and retry")
			}
			if sawSpin {
				t.Errorf("pins=atomic: a pin or unpin spun (nothing holds the header)")
			}
		case bufmgr.PinsSpinlock:
			if !sawSpin {
				t.Errorf("pins=spinlock: no schedule spins on the header lock")
			}
			if sawFail {
				t.Errorf("pins=spinlock: a CAS failed (pins take no CAS)")
			}
		}
	}
	path := filepath.Join("testdata", "explore", "explore_pins.txt")
	if *updateExplore {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	if string(want) != b.String() {
		t.Fatalf("outcomes differ from %s (rewrite with -update if intended):\n%s", path, b.String())
	}
}

// TestExploreCleanup checks LockBufferForCleanup against every interleaving
// with another backend that pins and unpins, in both pin variants:
// the waiter always gets the cleanup lock (no lost wake-up, no deadlock),
// and both outcomes (got it at once, or waited and was woken) occur.
func TestExploreCleanup(t *testing.T) {
	for _, pins := range []bufmgr.PinsMode{bufmgr.PinsAtomic, bufmgr.PinsSpinlock} {
		outs, runs, err := sched.Explore(200000, func(p sched.Policy) (string, error) {
			pool, log, inv, err := explorePool(pins)
			if err != nil {
				return "", err
			}
			a, _ := pool.NewBackend("A")
			b, _ := pool.NewBackend("B")
			rel := testRel("t", bufmgr.FirstNormalObjectId, 1)
			buf, _, err := a.ReadBuffer(rel, bufmgr.MainForkNum, 0, nil)
			if err != nil {
				return "", err
			}
			id := int(buf - 1)
			first := log.Len()
			s := sched.New(p)
			a.Spawn(s, func(sched.Yield) error {
				if err := a.LockBufferForCleanup(buf); err != nil {
					return err
				}
				if st := pool.Desc(id).State(); bufmgr.StateRefcount(st) != 1 {
					return fmt.Errorf("cleanup lock with %s", bufmgr.StateString(st))
				}
				if err := a.UnlockBuffer(buf); err != nil {
					return err
				}
				return a.ReleaseBuffer(buf)
			})
			b.Spawn(s, func(sched.Yield) error {
				bufmgr.PinForTest(b, id)
				bufmgr.UnpinForTest(b, id)
				return nil
			})
			if err := s.Run(); err != nil {
				return "", err
			}
			for _, p := range s.Procs() {
				if p.Err() != nil {
					return "", p.Err()
				}
			}
			if err := settled(pool, inv); err != nil {
				return "", err
			}
			waits, wakes := 0, 0
			for _, e := range log.Events()[first:] {
				switch {
				case e.Kind == trace.KUnlockHdr && e.Site.String() == "cleanup.set-waiter":
					waits++
				case e.Kind == trace.KWake:
					wakes++
				}
			}
			return fmt.Sprintf("waits=%d wakes=%d", waits, wakes), nil
		})
		if err != nil {
			t.Fatalf("pins=%s: %v", pins, err)
		}
		if len(outs) < 2 || outs[0] != "waits=0 wakes=0" {
			t.Fatalf("pins=%s: %d schedules, outcomes %v", pins, runs, outs)
		}
		for _, o := range outs {
			var w, k int
			fmt.Sscanf(o, "waits=%d wakes=%d", &w, &k)
			if w != k {
				t.Errorf("pins=%s: outcome %q: every wait needs a wake-up", pins, o)
			}
		}
		t.Logf("pins=%s: %d schedules, outcomes %v", pins, runs, outs)
	}
}
