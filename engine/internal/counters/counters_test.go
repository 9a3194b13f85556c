package counters

import (
	"strings"
	"testing"
)

type stats struct {
	Hits, Misses uint64
	ByFork       [3]uint64
	Inner        struct{ Waits uint64 }
}

func TestAddSub(t *testing.T) {
	a := stats{Hits: 1, Misses: 2, ByFork: [3]uint64{3, 4, 5}}
	a.Inner.Waits = 6
	b := stats{Hits: 10, Misses: 20, ByFork: [3]uint64{30, 40, 50}}
	b.Inner.Waits = 60
	Add(&a, b)
	want := stats{Hits: 11, Misses: 22, ByFork: [3]uint64{33, 44, 55}}
	want.Inner.Waits = 66
	if a != want {
		t.Fatalf("Add: %+v, want %+v", a, want)
	}
	Sub(&a, b)
	want = stats{Hits: 1, Misses: 2, ByFork: [3]uint64{3, 4, 5}}
	want.Inner.Waits = 6
	if a != want {
		t.Fatalf("Sub: %+v, want %+v", a, want)
	}
	Sub(&a, b)
	if a.Hits != ^uint64(0)-8 {
		t.Fatalf("Sub past zero: Hits %d, want 2^64 − 9 (modulo 2^64)", a.Hits)
	}
}

func TestNotACounter(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "int32 is not a counter") {
			t.Fatalf("recovered %v, want a panic naming int32", r)
		}
	}()
	type bad struct {
		N uint64
		M int32
	}
	x := bad{}
	Add(&x, bad{N: 1})
}
