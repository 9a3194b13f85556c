package trace

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"iter"
	"sync"
	"sync/atomic"
)

// Events is a read-only sequence of events, indexed from 0: a Log, or a
// Slice of events made some other way (a side-by-side pane's padded copy).
// Everything that plays events (timelines, captions, views) reads them
// through it, so a log too large to hold as one slice still plays.
type Events interface {
	Len() int
	At(i int) Event
}

// Slice is an Events over a slice.
type Slice []Event

// Len is the number of events.
func (s Slice) Len() int { return len(s) }

// At is event i.
func (s Slice) At(i int) Event { return s[i] }

// Collect copies events [from, to) of es into a new slice.
func Collect(es Events, from, to int) []Event {
	if s, ok := es.(Slice); ok {
		return append([]Event(nil), s[from:to]...)
	}
	if l, ok := es.(*Log); ok {
		out := make([]Event, 0, to-from)
		for e := range l.Range(from, to) {
			out = append(out, e)
		}
		return out
	}
	out := make([]Event, to-from)
	for i := range out {
		out[i] = es.At(from + i)
	}
	return out
}

// The log keeps its events in chunks of chunkLen (4096 events, 192 kB as
// records). Appending never copies what is already kept: a log that grew
// by doubling one slice copied each event about twice and held up to twice
// the memory it needed at its peak (3M events: 144 MB of events in up to
// 288 MB, and 40% of a traced run's time in memmove and the GC).
const (
	chunkShift = 12
	chunkLen   = 1 << chunkShift
	chunkMask  = chunkLen - 1
)

// Storage says how a Log keeps its full chunks.
//
//	plain     48-byte records, read in a few nanoseconds (the default:
//	          tests, lessons, anything small)
//	compact   each full chunk encoded (encodeChunk: about 14 bytes an
//	          event); a read decodes the chunk once into a small cache
//	          (about 30 µs a chunk, 7 ns an event read in order)
//	spill     compact chunks written to a SpillFile once more than
//	          SpillAfter bytes of them are in memory: what stays is 64
//	          bytes a chunk of 4096 events (where it lies), so a run's
//	          memory no longer grows with its events
//
// Every form gives back exactly the events appended: a log's Hash and
// String do not depend on its storage.
type Storage struct {
	Compact bool
	// SpillAfter, when > 0 (and Compact and Spill set), is how many bytes
	// of encoded chunks the log keeps in memory before it writes them to
	// its spill file.
	SpillAfter int64
	// Spill opens the spill file, once, at the first spill. The engine
	// opens no file itself: the program that wants spilling gives it one
	// (internal/spillfile: an unlinked temporary file). Where it fails the
	// log keeps its chunks in memory and says why (SpillErr).
	Spill func() (SpillFile, error)
}

// SpillFile is where a Log writes the chunks it spills and reads them
// back, by offset. Close releases it (and removes a file on disk).
type SpillFile interface {
	io.ReaderAt
	io.WriterAt
	io.Closer
}

// Log is an append-only event log. The nil *Log discards everything. It
// implements Events; Range walks a span of it in order.
//
// Appending is for one goroutine; once it stops, any number may read (At,
// Range, Hash) concurrently.
type Log struct {
	open   []Event // the chunk being filled: cap chunkLen
	sealed []chunk // full chunks, oldest first
	n      int     // events kept

	store   Storage
	memEnc  int64 // bytes of encoded chunks held in memory
	file    SpillFile
	fileEnd int64
	// spillErr is why spilling stopped (no temporary file); the log then
	// keeps its encoded chunks in memory.
	spillErr error

	// last is the chunk At decoded last (a *decoded): reads in order hit
	// it without a lock; mu guards the decoding of another and cache.
	last  atomic.Pointer[decoded]
	mu    sync.Mutex
	cache [4]*decoded
	clock int

	// limit, when > 0, is the most events kept; dropped counts the
	// events appended past it (SetLimit).
	limit   int
	dropped int
	// OnAppend, when set, is called with every event just after it is
	// recorded; tests use it to check invariants after every event.
	OnAppend func(Event)
}

// chunk is a full chunk in one of its forms: plain records, encoded bytes
// in memory, or encoded bytes at [off, off+size) of the log's file.
type chunk struct {
	plain []Event
	enc   []byte
	off   int64
	size  int32
}

type decoded struct {
	idx    int
	events []Event
}

// NewLog returns an empty log that keeps its events plain.
func NewLog() *Log { return &Log{} }

// SetStorage sets how the log keeps the chunks it fills from now on
// (call it before the first Append).
func (l *Log) SetStorage(s Storage) { l.store = s }

// Enabled reports whether appending records anything.
func (l *Log) Enabled() bool { return l != nil }

// Append records e, setting its sequence number. On a nil log it does nothing.
func (l *Log) Append(e Event) {
	if l == nil {
		return
	}
	if l.limit > 0 && l.n >= l.limit {
		l.dropped++
		return
	}
	e.Seq = uint64(l.n)
	if l.open == nil {
		l.open = make([]Event, 0, chunkLen)
	}
	l.open = append(l.open, e)
	l.n++
	if len(l.open) == chunkLen {
		l.seal()
	}
	if l.OnAppend != nil {
		l.OnAppend(e)
	}
}

// seal moves the full open chunk to sealed, in the log's storage.
func (l *Log) seal() {
	if !l.store.Compact {
		l.sealed = append(l.sealed, chunk{plain: l.open})
		l.open = nil
		return
	}
	enc := encodeChunk(make([]byte, 0, chunkLen*16), l.open)
	c := chunk{enc: enc, size: int32(len(enc))}
	l.memEnc += int64(len(enc))
	l.sealed = append(l.sealed, c)
	l.open = l.open[:0] // reused: its events are in enc now
	if l.store.SpillAfter > 0 && l.store.Spill != nil && l.memEnc > l.store.SpillAfter && l.spillErr == nil {
		l.spill()
	}
}

// spill writes every in-memory encoded chunk to the log's spill file
// (opened at the first spill) and drops it from memory.
func (l *Log) spill() {
	if l.file == nil {
		f, err := l.store.Spill()
		if err != nil {
			l.spillErr = fmt.Errorf("no file to spill the event log to: %w", err)
			return
		}
		l.file = f
	}
	for i := range l.sealed {
		c := &l.sealed[i]
		if c.enc == nil {
			continue
		}
		if _, err := l.file.WriteAt(c.enc, l.fileEnd); err != nil {
			l.spillErr = fmt.Errorf("spilling the event log: %w", err)
			return
		}
		c.off = l.fileEnd
		l.fileEnd += int64(len(c.enc))
		l.memEnc -= int64(len(c.enc))
		c.enc = nil
	}
}

// SpillErr is why the log could not spill (nil when it could or was not
// asked to): its chunks are then all in memory.
func (l *Log) SpillErr() error { return l.spillErr }

// Close releases the log's spill file, if it has one. A closed log keeps
// the events still in memory; reading a spilled one panics.
func (l *Log) Close() error {
	if l == nil || l.file == nil {
		return nil
	}
	err := l.file.Close()
	l.file = nil
	return err
}

// Footprint is what the log's events take: in memory (records and encoded
// chunks; the decode cache adds at most 768 kB) and in its spill file.
func (l *Log) Footprint() (memory, file int64) {
	if l == nil {
		return 0, 0
	}
	memory = int64(cap(l.open))*eventSize + l.memEnc + int64(len(l.sealed))*chunkHeader
	for _, c := range l.sealed {
		if c.plain != nil {
			memory += int64(cap(c.plain)) * eventSize
		}
	}
	return memory, l.fileEnd
}

const (
	eventSize   = 48 // unsafe.Sizeof(Event{})
	chunkHeader = 64 // unsafe.Sizeof(chunk{})
)

// SetLimit makes the log keep at most n events (0: no limit), so that a
// runaway run cannot take the memory its log would need: events past the
// limit are counted (Dropped), not kept, and the caller that set the limit
// stops the run when it sees them.
func (l *Log) SetLimit(n int) { l.limit = n }

// Dropped is the number of events appended past the limit.
func (l *Log) Dropped() int {
	if l == nil {
		return 0
	}
	return l.dropped
}

// Len is the number of events recorded (0 for a nil log).
func (l *Log) Len() int {
	if l == nil {
		return 0
	}
	return l.n
}

// At returns event i: from its record, or (compact and spilled chunks)
// from its chunk decoded into a small cache: in order, a chunk is decoded
// once for its 4096 events.
func (l *Log) At(i int) Event {
	if i < 0 || i >= l.n {
		panic(fmt.Sprintf("trace: event %d of a log of %d", i, l.n))
	}
	ci := i >> chunkShift
	if ci == len(l.sealed) {
		return l.open[i&chunkMask]
	}
	if p := l.sealed[ci].plain; p != nil {
		return p[i&chunkMask]
	}
	if d := l.last.Load(); d != nil && d.idx == ci {
		return d.events[i&chunkMask]
	}
	return l.decodedChunk(ci).events[i&chunkMask]
}

// decodedChunk returns sealed chunk ci decoded, from the cache or decoded
// now into the cache's oldest entry.
func (l *Log) decodedChunk(ci int) *decoded {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, d := range l.cache {
		if d != nil && d.idx == ci {
			l.last.Store(d)
			return d
		}
	}
	c := l.sealed[ci]
	enc := c.enc
	if enc == nil {
		enc = make([]byte, c.size)
		if _, err := l.file.ReadAt(enc, c.off); err != nil && !errors.Is(err, io.EOF) {
			panic(fmt.Sprintf("trace: reading the spilled event log: %v", err))
		}
	}
	slot := l.clock % len(l.cache)
	l.clock++
	// A new slice each time, never an evicted entry's: a reader may still
	// hold that one (last, loaded before this decode).
	d := &decoded{idx: ci, events: decodeChunk(make([]Event, 0, chunkLen), enc, uint64(ci)<<chunkShift)}
	l.cache[slot] = d
	l.last.Store(d)
	return d
}

// Range yields events [from, to) in order.
func (l *Log) Range(from, to int) iter.Seq[Event] {
	return func(yield func(Event) bool) {
		if l == nil {
			return
		}
		for i := from; i < to; {
			ci := i >> chunkShift
			var evs []Event
			switch {
			case ci == len(l.sealed):
				evs = l.open
			case l.sealed[ci].plain != nil:
				evs = l.sealed[ci].plain
			default:
				evs = l.decodedChunk(ci).events
			}
			end := min(to-ci<<chunkShift, len(evs))
			for _, e := range evs[i&chunkMask : end] {
				if !yield(e) {
					return
				}
			}
			i = ci<<chunkShift + end
		}
	}
}

// Events returns a copy of every recorded event, in one slice: for tests
// and small logs (a lesson's), which index them directly. Whatever may be
// large reads the log itself (it is an Events) or ranges over it.
func (l *Log) Events() []Event {
	if l == nil {
		return nil
	}
	return Collect(l, 0, l.n)
}

// encodeChunk appends the compact encoding of evs to dst. Seq is not
// stored (it is the event's index); the rest as uvarints, After as its XOR
// with Before (a CAS or a state change flips a few bits of a word):
//
//	kind, class (1 byte each), actor, site, obj, arg, before, after^before
//
// A clock-sweep miss's events average about 14 bytes (48 as records).
func encodeChunk(dst []byte, evs []Event) []byte {
	for i := range evs {
		e := &evs[i]
		dst = append(dst, byte(e.Kind), byte(e.Class))
		dst = binary.AppendUvarint(dst, uint64(e.Actor))
		dst = binary.AppendUvarint(dst, uint64(e.Site))
		dst = binary.AppendUvarint(dst, uint64(e.Obj))
		dst = binary.AppendUvarint(dst, e.Arg)
		dst = binary.AppendUvarint(dst, e.Before)
		dst = binary.AppendUvarint(dst, e.After^e.Before)
	}
	return dst
}

// decodeChunk appends to dst the events encoded in enc, numbering them
// from seq.
func decodeChunk(dst []Event, enc []byte, seq uint64) []Event {
	uv := func() uint64 {
		v, n := binary.Uvarint(enc)
		if n <= 0 {
			panic("trace: a corrupt event chunk")
		}
		enc = enc[n:]
		return v
	}
	for len(enc) > 0 {
		var e Event
		e.Seq = seq
		seq++
		e.Kind, e.Class = Kind(enc[0]), ObjClass(enc[1])
		enc = enc[2:]
		e.Actor = Actor(uv())
		e.Site = Site(uv())
		e.Obj = uint32(uv())
		e.Arg = uv()
		e.Before = uv()
		e.After = uv() ^ e.Before
		dst = append(dst, e)
	}
	return dst
}

// All copies every event of es into a new slice (Collect of the whole).
func All(es Events) []Event { return Collect(es, 0, es.Len()) }
