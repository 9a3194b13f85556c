package pooltest

import (
	"fmt"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
	"bufferlab/viz/poolview"
)

// Snap is the engine's state at one moment, read through its inspection
// API (never used by the view itself).
type Snap struct {
	state     []uint32
	tag       []bufmgr.BufferTag
	freeNext  []int32
	content   []uint64
	freelist  []int32
	hand      int
	passes    uint32
	allocs    uint32
	parts     [bufmgr.NumBufferPartitions]uint64
	partLen   [bufmgr.NumBufferPartitions]int
	entries   []bufmgr.MapEntry
	pins      map[trace.Actor][]bufmgr.Pin
	stats     bufmgr.Stats
	withEntry bool
}

// word is an LWLock as the view keeps it: the exclusive holder in the top
// 16 bits, the shared holders' mask below.
func word(l bufmgr.LWLock) uint64 { return uint64(l.Excl)<<48 | l.Shared&(1<<48-1) }

// TakeSnap reads p's state now; entries says whether to list the mapping
// table too (Compare then compares it; it costs a sort of every entry).
func TakeSnap(p *bufmgr.Pool, entries bool) *Snap {
	s := &Snap{hand: p.NextVictimBuffer(), passes: p.CompletePasses(), allocs: p.NumBufferAllocs(),
		freelist: p.Freelist(), stats: p.Stats(), pins: map[trace.Actor][]bufmgr.Pin{}, withEntry: entries}
	for i := 0; i < p.NBuffers; i++ {
		d := p.Desc(i)
		s.state = append(s.state, d.State())
		s.tag = append(s.tag, d.Tag())
		s.freeNext = append(s.freeNext, d.FreeNext())
		s.content = append(s.content, word(p.ContentLock(i)))
	}
	for i := range s.parts {
		s.parts[i] = word(p.PartitionLock(i))
		s.partLen[i] = p.PartitionLen(i)
	}
	if entries {
		s.entries = p.MappingEntries()
	}
	for _, b := range p.Backends() {
		var pins []bufmgr.Pin
		for _, pin := range b.Pins() {
			// UnpinBuffer logs the private count reaching 0, then drops the
			// entry after its CAS: an entry at 0 is already gone for the poolview.
			if pin.Count != 0 {
				pins = append(pins, pin)
			}
		}
		s.pins[b.Actor] = pins
	}
	return s
}

// Compare checks the view against an engine snapshot taken in the OnAppend
// of the event just applied (e; next is the one after it, if any). The
// engine updates its bookkeeping before logging, so they must agree exactly.
// It returns "" when they agree.
func Compare(v *poolview.Pool, s *Snap, e, next *trace.Event) string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if v.NBuffers() != len(s.state) {
		return fmt.Sprintf("NBuffers %d vs engine %d", v.NBuffers(), len(s.state))
	}
	for i := range s.state {
		b := v.Buffer(i)
		if b.State != s.state[i] {
			bad("buffer %d state %s, engine %s", i, bufmgr.StateString(b.State), bufmgr.StateString(s.state[i]))
		}
		if b.Tag == poolview.NoTag {
			if s.tag[i] != (bufmgr.BufferTag{}) {
				bad("buffer %d: no tag in the view, engine %v", i, s.tag[i])
			}
		} else if bufmgr.UnpackTag(b.Tag) != s.tag[i] {
			bad("buffer %d tag %v, engine %v", i, bufmgr.UnpackTag(b.Tag), s.tag[i])
		}
		if b.FreeNext != s.freeNext[i] {
			bad("buffer %d freeNext %d, engine %d", i, b.FreeNext, s.freeNext[i])
		}
		if b.Content != s.content[i] {
			bad("buffer %d content lock %s, engine %s", i, poolview.HoldersString(b.Content), poolview.HoldersString(s.content[i]))
		}
	}
	if fl := v.Freelist(); fmt.Sprint(fl) != fmt.Sprint(s.freelist) {
		bad("freelist %v, engine %v", fl, s.freelist)
	}
	if v.Hand() != s.hand {
		bad("clock hand %d, engine %d", v.Hand(), s.hand)
	}
	if v.CompletePasses() != s.passes {
		bad("completePasses %d, engine %d", v.CompletePasses(), s.passes)
	}
	if v.NumBufferAllocs() != s.allocs {
		bad("numBufferAllocs %d, engine %d", v.NumBufferAllocs(), s.allocs)
	}
	for i := range s.parts {
		if h := v.PartitionHolders(i); h != s.parts[i] {
			bad("partition %d lock %s, engine %s", i, poolview.HoldersString(h), poolview.HoldersString(s.parts[i]))
		}
		if n := v.PartitionLen(i); n != s.partLen[i] {
			bad("partition %d has %d entries, engine %d", i, n, s.partLen[i])
		}
	}
	if s.withEntry {
		var want []string
		for _, me := range s.entries {
			want = append(want, fmt.Sprintf("%v->%d@%d", me.Tag, me.BufID, me.Partition))
		}
		var got []string
		for _, me := range v.MappingEntries() {
			got = append(got, fmt.Sprintf("%v->%d@%d", bufmgr.UnpackTag(me.Tag), me.Buf, me.Partition))
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			bad("mapping entries\n   view   %v\n   engine %v", got, want)
		}
	}
	for a, pins := range s.pins {
		var want []string
		for _, pin := range pins {
			want = append(want, fmt.Sprintf("%d:%d", pin.Buffer-1, pin.Count))
		}
		got := map[int32]int32{}
		for _, pin := range v.Pins(a) {
			got[pin.Buf] = pin.Count
		}
		var have []string
		for _, pin := range sortedPins(got) {
			have = append(have, fmt.Sprintf("%d:%d", pin.Buf, pin.Count))
		}
		if strings.Join(have, " ") != strings.Join(want, " ") {
			bad("backend %s pins %v, engine %v", trace.ActorName(a), have, want)
		}
	}
	if st := v.Counters().Stats(); st != s.stats {
		bad("stats\n   view   %+v\n   engine %+v", v.Counters().Stats(), s.stats)
	}
	if len(out) > 8 {
		out = append(out[:8], "…")
	}
	return strings.Join(out, "\n  ")
}

func sortedPins(m map[int32]int32) []poolview.Pin {
	var out []poolview.Pin
	for b, c := range m {
		out = append(out, poolview.Pin{Buf: b, Count: c})
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Buf < out[j-1].Buf; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
