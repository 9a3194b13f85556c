package viewkit

import (
	"encoding/binary"
	"hash"
	"hash/fnv"

	"bufferlab/engine/trace"
)

// Hasher is what a view's Fingerprint writes its canonical encoding to:
// 64-bit FNV-1a over words (Put: 8 bytes, little-endian) and strings.
// One per Fingerprint call; it allocates the hash state once.
type Hasher struct {
	h   hash.Hash64
	buf [8]byte
}

// NewHasher returns an empty Hasher.
func NewHasher() *Hasher { return &Hasher{h: fnv.New64a()} }

// Put writes one word.
func (h *Hasher) Put(x uint64) {
	binary.LittleEndian.PutUint64(h.buf[:], x)
	h.h.Write(h.buf[:])
}

// Write writes bytes as they are (a name, a byte map).
func (h *Hasher) Write(b []byte) { h.h.Write(b) }

// Sum64 is the fingerprint.
func (h *Hasher) Sum64() uint64 { return h.h.Sum64() }

// PutHistory writes what the SLRU's and the FSM's Fingerprint write
// after their own state: the counters' words, the number of events
// applied, and the current event's Seq and Kind when there is one.
func PutHistory[D any](h *Hasher, counters []uint64, hist *History[D]) {
	for _, c := range counters {
		h.Put(c)
	}
	h.Put(uint64(hist.Applied()))
	if e, ok := hist.Current(); ok {
		h.Put(e.Seq)
		h.Put(uint64(e.Kind))
	}
}

// PutLane writes the head of a lane as those views encode it: its name,
// its last event's Seq when it has one, its counters' words.
func (h *Hasher) PutLane(name string, hasLast bool, last trace.Event, stats []uint64) {
	h.Write([]byte(name))
	if hasLast {
		h.Put(last.Seq)
	}
	for _, c := range stats {
		h.Put(c)
	}
}
