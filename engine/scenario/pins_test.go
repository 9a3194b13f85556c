package scenario

import (
	"errors"
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

// A config naming both variants runs the same statements on two pools; an
// unqualified expect holds for both, a qualified one for its variant only,
// and a failing check names the variant.
func TestPinVariants(t *testing.T) {
	src := `config pins=atomic,spinlock
relation t blocks=1
backend A: touch t 0
run
backend A: read t 0
backend B: read t 0
run
expect block t 0 rc=2 usage=3
expect atomic: pool cas_failures=1 spins=0 cas=4
expect spinlock: pool cas_failures=0 spins=1 cas=0 header_locks=7
`
	s := mustParse(t, src)
	vs := Variants(s)
	if len(vs) != 2 || vs[0].Pins() != bufmgr.PinsAtomic || vs[1].Pins() != bufmgr.PinsSpinlock {
		t.Fatalf("variants %v", vs)
	}
	for i, r := range runVariants(t, src) {
		if want := vs[i].Pins(); r.Pins() != want || r.Pool().Pins() != want {
			t.Fatalf("variant %d runs %v on a %v pool, want %v", i, r.Pins(), r.Pool().Pins(), want)
		}
	}
	if _, err := NewVariantRunner(s, true, 2); err == nil || !strings.Contains(err.Error(), "no variant 2") {
		t.Fatalf("variant 2: %v", err)
	}
	// A failing check names the variant it failed in.
	bad := strings.Replace(src, "spins=1 cas=0", "spins=5 cas=0", 1)
	s = mustParse(t, bad)
	r, err := NewVariantRunner(s, true, 1)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.RunAll()
	var se *Error
	if !errors.As(err, &se) || !se.Check || !strings.Contains(se.Msg, "expected 5, the engine has 1 (pins=spinlock)") {
		t.Fatalf("failing spinlock check: %v", err)
	}
	// The first variant's runner (NewRunner) passes the same file.
	if r, err = NewRunner(s, true); err != nil {
		t.Fatal(err)
	}
	if _, err := r.RunAll(); err != nil {
		t.Fatalf("atomic: %v", err)
	}
}

// MarkBufferDirty: a CAS on the state word from 9.6, the header spinlock
// before (no CAS at all in the spinlock variant).
func TestDirtyByVariant(t *testing.T) {
	src := `config pins=atomic,spinlock
relation t blocks=1
backend A: write t 0
run
expect buffer 0 dirty=yes flags=DIRTY,JUST_DIRTIED,VALID,TAG_VALID,PERMANENT
expect atomic: pool cas=2 header_locks=4
expect spinlock: pool cas=0 header_locks=6
`
	_, out, err := Run("dirty", src, true)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "dirty.cas") || strings.Contains(out, "dirty95") {
		t.Fatalf("atomic run:\n%s", out)
	}
	_, outs := runVariant(t, src, 1)
	text := outputText(outs, nil)
	if !strings.Contains(text, "dirty95.lock") || !strings.Contains(text, "dirty95.unlock") || strings.Contains(text, "dirty.cas") {
		t.Fatalf("spinlock run:\n%s", text)
	}
}

// A single pins= value beside another key's variants is every pane's:
// pins=spinlock drop=scan,lookup runs both drop panes on 9.5's header
// spinlock (the panes' own choice, drop=, is the one that differs).
func TestSinglePinsValueIsEveryPanes(t *testing.T) {
	src := `config pins=spinlock drop=scan,lookup
relation t blocks=2
backend A: touch t 0..1
run
backend A: drop t
run
expect pool cas=0
`
	s := mustParse(t, src)
	vs := Variants(s)
	if len(vs) != 2 || vs[0].Key() != "drop" || vs[1].Name() != "lookup" {
		t.Fatalf("variants %v: want drop=scan and drop=lookup", vs)
	}
	for i, r := range runVariants(t, src) {
		if r.Pins() != bufmgr.PinsSpinlock || r.Pool().Pins() != bufmgr.PinsSpinlock {
			t.Errorf("pane %d (%v) runs pins=%v on a %v pool, want spinlock", i, vs[i], r.Pins(), r.Pool().Pins())
		}
	}
}
