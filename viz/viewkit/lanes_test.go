package viewkit_test

import (
	"hash/fnv"
	"testing"

	"bufferlab/engine/trace"
	"bufferlab/viz/viewkit"
)

type lane struct{ name string }

func newLane(n string) lane { return lane{n} }

func TestLanes(t *testing.T) {
	if l := viewkit.NewLanes(nil, newLane); len(l) != 1 || l[0].name != "sys" {
		t.Errorf("no names: %v", l)
	}
	l := viewkit.NewLanes([]string{"sys", "A"}, newLane)
	if got := viewkit.LaneOf(&l, 1, newLane); got.name != "A" || len(l) != 2 {
		t.Errorf("lane 1: %v of %v", got, l)
	}
	if got := viewkit.LaneOf(&l, 3, newLane); got.name != trace.ActorName(3) || len(l) != 4 || l[2].name != trace.ActorName(2) {
		t.Errorf("lane 3: %v of %v", got, l)
	}
}

func TestWordsEqual(t *testing.T) {
	words := func(xs []bool, put func(uint64)) {
		put(uint64(len(xs)))
		for _, x := range xs {
			put(viewkit.Bit(x))
		}
	}
	if !viewkit.WordsEqual([]bool{true, false}, []bool{true, false}, words) ||
		viewkit.WordsEqual([]bool{true}, []bool{false}, words) || viewkit.WordsEqual(nil, []bool{false}, words) {
		t.Error("WordsEqual does not follow the encoding")
	}
}

// Hasher is FNV-1a over the words' little-endian bytes and the strings.
func TestHasher(t *testing.T) {
	h := viewkit.NewHasher()
	h.Put(0x0102030405060708)
	h.PutLane("A", true, trace.Event{Seq: 9}, []uint64{1})
	want := fnv.New64a()
	want.Write([]byte{8, 7, 6, 5, 4, 3, 2, 1, 'A', 9, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0})
	if h.Sum64() != want.Sum64() {
		t.Errorf("fingerprint %x, want %x", h.Sum64(), want.Sum64())
	}
}
