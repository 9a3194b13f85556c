package scenario

import (
	"strings"
	"testing"

	"bufferlab/engine/bufmgr"
)

func TestPinsSpinlockScenario(t *testing.T) {
	src := `config pins=spinlock schedule=random seed=3
relation t blocks=4
backend A: read t 0; touch t 1..3; release t 0
backend B: read t 0; touch t 0..3; release t 0
backend C: touch t 0..3
run
expect pool hits=9 misses=4
`
	r, out, err := Run("pins", src, true)
	if err != nil {
		t.Fatal(err)
	}
	if r.Pool().Pins() != bufmgr.PinsSpinlock {
		t.Fatalf("pins %v", r.Pool().Pins())
	}
	if err := r.Pool().CheckQuiescent(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "pin95.lock") || strings.Contains(out, "pin.cas") {
		t.Fatalf("spinlock run does not use PinBuffer (9.5):\n%s", out)
	}
}

func TestCleanupScenario(t *testing.T) {
	for _, pins := range []string{"atomic", "spinlock"} {
		src := `config pins=` + pins + `
relation t blocks=2
backend A: read t 0
backend B: read t 0
run
backend A: cleanup t 0; release t 0
backend B: touch t 1; release t 0
schedule A A A A A A A A A A A A A A A A A A A A A A A A A A A A A A A A A A
run
expect buffer 0 rc=0
`
		r, out, err := Run("cleanup", src, true)
		if err != nil {
			t.Fatalf("%s: %v\n%s", pins, err, out)
		}
		if err := r.Pool().CheckQuiescent(); err != nil {
			t.Fatalf("%s: %v", pins, err)
		}
		for _, want := range []string{"cleanup.set-waiter", "wake A", "cleanup.got"} {
			if !strings.Contains(out, want) {
				t.Fatalf("%s: no %q in\n%s", pins, want, out)
			}
		}
	}
}

func TestCleanupTwoWaiters(t *testing.T) {
	// A waits for C's pin, which C never drops; B, the second waiter, gets
	// the ERROR and its pin is released; then A waits alone: deadlock.
	src := `relation t blocks=1
backend A: read t 0
backend B: read t 0
backend C: read t 0
run
backend A: cleanup t 0
backend B: cleanup t 0
run
`
	_, out, err := Run("cleanup2", src, true)
	if err == nil || !strings.Contains(err.Error(), "deadlock") {
		t.Fatalf("expected a deadlock, got %v", err)
	}
	if !strings.Contains(out, "multiple backends attempting to wait for pincount 1") {
		t.Fatalf("expected the multiple-waiters ERROR:\n%s", out)
	}
}
