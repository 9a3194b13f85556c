package poolview

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// cowMaps cloned, written and grown at random stay independent and hold
// what Go maps given the same writes hold: a write to one version (a
// bucket copied, or the buckets doubled) never shows in another.
func TestCowMapVersions(t *testing.T) {
	type version struct {
		tok *token
		m   *cowMap
		ref map[uint64]int32
	}
	rng := rand.New(rand.NewPCG(1, 2))
	vs := []*version{{tok: new(token), ref: map[uint64]int32{}}}
	key := func() uint64 {
		// packed tags of two relations' first blocks, and small ids
		if rng.IntN(2) == 0 {
			return uint64(16384+rng.IntN(2))<<32 | uint64(rng.IntN(3000))
		}
		return uint64(rng.IntN(64))
	}
	check := func(step int) {
		for vi, v := range vs {
			if v.m.len() != len(v.ref) {
				t.Fatalf("step %d, version %d: len %d, want %d", step, vi, v.m.len(), len(v.ref))
			}
			want := slices.Sorted(maps.Keys(v.ref))
			got := v.m.sorted()
			if len(got) != len(want) {
				t.Fatalf("step %d, version %d: %d entries listed, want %d", step, vi, len(got), len(want))
			}
			for i, k := range want {
				if got[i].key != k || got[i].val != v.ref[k] {
					t.Fatalf("step %d, version %d: entry %d is %d→%d, want %d→%d", step, vi, i, got[i].key, got[i].val, k, v.ref[k])
				}
				if x, ok := v.m.get(k); !ok || x != v.ref[k] {
					t.Fatalf("step %d, version %d: get(%d) = %d, %v; want %d", step, vi, k, x, ok, v.ref[k])
				}
			}
			if _, ok := v.m.get(1 << 40); ok {
				t.Fatalf("step %d, version %d: found a key never put", step, vi)
			}
		}
	}
	for step := 0; step < 20000; step++ {
		v := vs[rng.IntN(len(vs))]
		switch r := rng.IntN(100); {
		case r < 2 && len(vs) < 12: // Clone: both sides get fresh tokens
			c := &version{tok: new(token), m: v.m, ref: maps.Clone(v.ref)}
			v.tok = new(token)
			vs = append(vs, c)
		default:
			if v.m == nil || v.m.owner != v.tok {
				v.m = v.m.copyFor(v.tok)
			}
			k := key()
			if r < 70 {
				x := rng.Int32()
				v.m.put(v.tok, k, x)
				v.ref[k] = x
			} else {
				v.m.del(v.tok, k)
				delete(v.ref, k)
			}
		}
		if step%500 == 0 {
			check(step)
		}
	}
	check(20000)
	grown := false
	for _, v := range vs {
		grown = grown || v.m != nil && len(v.m.buckets) > 1
	}
	if !grown {
		t.Fatal("no version grew past one bucket: the test does not exercise grow")
	}
}
