package poolview_test

import (
	"fmt"
	"strings"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/poolview/pooltest"
)

// scenarios are the logs every test replays: the lessons and several seeds
// of the contention scenario.
func scenarios(t testing.TB) map[string]string {
	out := pooltest.Lessons(t)
	for name, src := range out {
		if isLargePool(name, src) {
			delete(out, name) // see largeScenarios
		}
	}
	for _, seed := range []int{1, 2, 3, 7, 11, 13} {
		out[fmt.Sprintf("contention-seed%d", seed)] = pooltest.Contention(seed)
	}
	// The pre-9.6 header-spinlock pins, and a cleanup waiter woken by an unpin.
	for _, seed := range []int{5, 9} {
		out[fmt.Sprintf("spinlock-seed%d", seed)] = strings.Replace(pooltest.Contention(seed), "seed=", "pins=spinlock seed=", 1)
	}
	// Drops with every strategy, a reader pinning a block being dropped
	// (the dropper waits), under seeded random schedules.
	for _, seed := range []int{3, 8} {
		out[fmt.Sprintf("drop-seed%d", seed)] = fmt.Sprintf(`config shared_buffers=1MB schedule=random seed=%d in_recovery=on dlist=on
relation t blocks=3
relation big blocks=20
relation r blocks=1 count=8
backend A: touch t 0..2; touch big 0..19; touch r* 0
run
backend R: read t 1; touch big 0..5; release t 1
backend S: drop t; drop big strategy=scan; drop r0 strategy=dlist; drop r1 strategy=lookup; drop r*
backend B: touch r* 0; touch t 0..2
run
`, seed)
	}
	out["cleanup"] = `config shared_buffers=16
relation t blocks=4
backend V: read t 0
backend B: read t 0
run
backend V: cleanup t 0; release t 0
backend B: release t 0
run
`
	return out
}

// snap is the engine's state at one moment, read through its inspection
// API (never used by the view itself).
type snap struct {
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

func word(l bufmgr.LWLock) uint64 { return uint64(l.Excl)<<48 | l.Shared&(1<<48-1) }

func takeSnap(p *bufmgr.Pool, entries bool) *snap {
	s := &snap{hand: p.NextVictimBuffer(), passes: p.CompletePasses(), allocs: p.NumBufferAllocs(),
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
			// entry after its CAS: an entry at 0 is already gone for the view.
			if pin.Count != 0 {
				pins = append(pins, pin)
			}
		}
		s.pins[b.Actor] = pins
	}
	return s
}

// compare checks the view against an engine snapshot taken in the OnAppend
// of the event just applied (e; next is the one after it, if any). The
// engine updates its bookkeeping before logging, so they must agree exactly.
// It returns "" when they agree.
func compare(v *view.Pool, s *snap, e, next *trace.Event) string {
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
		if b.Tag == view.NoTag {
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
			bad("buffer %d content lock %s, engine %s", i, view.HoldersString(b.Content), view.HoldersString(s.content[i]))
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
			bad("partition %d lock %s, engine %s", i, view.HoldersString(h), view.HoldersString(s.parts[i]))
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

func sortedPins(m map[int32]int32) []view.Pin {
	var out []view.Pin
	for b, c := range m {
		out = append(out, view.Pin{Buf: b, Count: c})
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Buf < out[j-1].Buf; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// largeScenarios are the embedded scenarios with large pools: the per-event
// tests would take minutes and gigabytes on them, so only the final state
// is compared.
func largeScenarios(t testing.TB) map[string]string {
	out := pooltest.Lessons(t)
	for name, src := range out {
		if !isLargePool(name, src) {
			delete(out, name)
		}
	}
	return out
}

// isLargePool reports whether a scenario's pool is too large to snapshot
// after every event (the per-event comparison); the final-state comparison
// still covers it.
func isLargePool(name, src string) bool {
	sc, err := scenario.Parse(name, src)
	if err != nil || len(sc.Stmts) == 0 {
		return false
	}
	c, ok := sc.Stmts[0].(*scenario.ConfigStmt)
	return ok && c.NBuffers > 1024
}
