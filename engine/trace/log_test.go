package trace

import (
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// randEvent draws an event whose fields span their types: the values a
// real log has (small actors and objects, 32-bit words) most of the time,
// extremes (MaxUint64, high bits) some of the time.
func randEvent(r *rand.Rand) Event {
	word := func() uint64 {
		switch r.IntN(4) {
		case 0:
			return r.Uint64()
		case 1:
			return math.MaxUint64
		}
		return uint64(r.Uint32())
	}
	return Event{
		Kind: Kind(r.IntN(int(numKinds))), Class: ObjClass(r.UintN(256)), Actor: Actor(r.UintN(1 << 16)),
		Site: Site(r.UintN(1 << 16)), Obj: r.Uint32(), Arg: word(), Before: word(), After: word(),
	}
}

// TestLogStorage: a log keeps exactly what was appended in every storage
// form (plain records, compact chunks in memory, compact chunks spilled to
// its file), at and across chunk boundaries, read at random (At), in spans
// (Range) and whole (Hash, String, Events).
func TestLogStorage(t *testing.T) {
	for _, n := range []int{0, 1, chunkLen - 1, chunkLen, chunkLen + 1, 3*chunkLen + 5} {
		r := rand.New(rand.NewPCG(uint64(n), 7))
		var want []Event
		plain, compact, spilled := NewLog(), NewLog(), NewLog()
		compact.SetStorage(Storage{Compact: true})
		spilled.SetStorage(Storage{Compact: true, SpillAfter: 1, Spill: func() (SpillFile, error) { return new(memFile), nil }})
		defer spilled.Close()
		base := randEvent(r)
		for i := 0; i < n; i++ {
			e := base
			// Mostly small changes, as in a run; now and then anything.
			if r.IntN(20) == 0 {
				e = randEvent(r)
			}
			e.Obj += uint32(i % 7)
			e.After = e.Before ^ uint64(i)
			for _, l := range []*Log{plain, compact, spilled} {
				l.Append(e)
			}
			e.Seq = uint64(i)
			want = append(want, e)
		}
		for name, l := range map[string]*Log{"plain": plain, "compact": compact, "spilled": spilled} {
			if l.Len() != n {
				t.Fatalf("n=%d %s: Len %d", n, name, l.Len())
			}
			if got := l.Events(); !slices.Equal(got, want) {
				t.Fatalf("n=%d %s: Events differ from what was appended", n, name)
			}
			for range 200 {
				if n == 0 {
					break
				}
				i := r.IntN(n)
				if got := l.At(i); got != want[i] {
					t.Fatalf("n=%d %s: At(%d) = %+v, want %+v", n, name, i, got, want[i])
				}
			}
			for range 20 {
				from := r.IntN(n + 1)
				to := from + r.IntN(n-from+1)
				var got []Event
				for e := range l.Range(from, to) {
					got = append(got, e)
				}
				if !slices.Equal(got, want[from:to]) {
					t.Fatalf("n=%d %s: Range(%d, %d) gives %d events, not the %d appended there", n, name, from, to, len(got), to-from)
				}
				if got := Collect(l, from, to); !slices.Equal(got, want[from:to]) {
					t.Fatalf("n=%d %s: Collect(%d, %d) differs", n, name, from, to)
				}
			}
			if l.Hash() != plain.Hash() || l.String() != plain.String() {
				t.Fatalf("n=%d %s: hash or text differs from the plain log's", n, name)
			}
		}
		if n > 2*chunkLen {
			// What stays in memory: the open chunk and where each sealed one lies.
			if mem, file := spilled.Footprint(); file == 0 || mem > chunkLen*eventSize+int64(n/chunkLen)*chunkHeader {
				t.Fatalf("spilled log of %d events: %d bytes in memory, %d in its file", n, mem, file)
			}
			if spilled.SpillErr() != nil {
				t.Fatal(spilled.SpillErr())
			}
		}
	}
}

// TestLogCompactSize: the compact form of a run's events is at most a
// third of their records (about 14 bytes an event, 48 as records), which
// is what lets a million-read run keep its log.
func TestLogCompactSize(t *testing.T) {
	l := NewLog()
	l.SetStorage(Storage{Compact: true})
	for i := 0; i < 64*chunkLen; i++ {
		// The shape of a clock sweep's events: a state word CAS on buffer
		// i%1024, refcount and usage bits changing.
		w := uint64(0x0280_0000 | i%5)
		l.Append(Event{Kind: KCAS, Class: OBuffer, Actor: Actor(1 + i%2), Site: Site(3 + i%11), Obj: uint32(i % 1024), Before: w, After: w + 1<<18})
	}
	mem, _ := l.Footprint()
	if per := float64(mem) / float64(l.Len()); per > 16 {
		t.Fatalf("compact log: %.1f bytes an event, want at most 16", per)
	}
}

// TestRecordSizes: the sizes Footprint counts are the types' sizes.
func TestRecordSizes(t *testing.T) {
	if s := unsafe.Sizeof(Event{}); s != eventSize {
		t.Fatalf("an Event is %d bytes; eventSize says %d", s, eventSize)
	}
	if s := unsafe.Sizeof(chunk{}); s != chunkHeader {
		t.Fatalf("a chunk is %d bytes; chunkHeader says %d", s, chunkHeader)
	}
}

// memFile is a SpillFile in memory, for the log's tests (the engine opens
// no files; internal/spillfile's Open is the real one).
type memFile struct {
	b      []byte
	closed bool
}

func (f *memFile) WriteAt(p []byte, off int64) (int, error) {
	if end := int(off) + len(p); end > len(f.b) {
		f.b = append(f.b, make([]byte, end-len(f.b))...)
	}
	return copy(f.b[off:], p), nil
}

func (f *memFile) ReadAt(p []byte, off int64) (int, error) {
	if int(off)+len(p) > len(f.b) {
		return 0, io.ErrUnexpectedEOF
	}
	return copy(p, f.b[off:]), nil
}

func (f *memFile) Close() error { f.closed = true; return nil }
