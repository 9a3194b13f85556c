package fsm

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
)

// seedCounts are the seed 002 workload's counts per table. The thread's
// claim (Amit Kapila): "the total number of pages accessed via shared
// buffers is more without the patch (probably 3 FSM pages + 4 relation).
// With the patch, you need to only access 4 relation pages." Those are
// distinct pages. The buffer accesses (ReadBuffer calls) of the always
// rows were checked against PostgreSQL 15.18 on this project's machine:
// the same fill (create, one row, VACUUM, then INSERT ... generate_series
// from a new connection) raised heap_blks_read + heap_blks_hit of
// pg_statio_user_tables, which counts every ReadBufferExtended of the
// relation's forks, by 195, 287, 383 and 567 — FSMReads + HeapReads +
// VMReads below.
var seedCounts = []struct {
	opt                          Options
	ff, blocks                   int
	fsmPages, heapPages          int
	fsmReads, heapReads, vmReads uint64
	total                        uint64 // PostgreSQL 15.18 for the always rows
}{
	{Options{Variant: Always}, 20, 4, 3, 4, 16, 178, 1, 195},
	{Options{Variant: Always}, 30, 4, 3, 4, 16, 270, 1, 287},
	{Options{Variant: Always}, 20, 8, 3, 8, 24, 358, 1, 383},
	{Options{Variant: Always}, 30, 8, 3, 8, 24, 542, 1, 567},
	// The patch as the thread built it (threshold 8): one extra heap
	// page tried per local map entry, no FSM page.
	{Options{Variant: SmallSkip, Threshold: 8}, 20, 4, 0, 4, 0, 179, 1, 0},
	{Options{Variant: SmallSkip, Threshold: 8}, 30, 4, 0, 4, 0, 271, 1, 0},
	{Options{Variant: SmallSkip, Threshold: 8}, 20, 8, 0, 8, 0, 367, 1, 0},
	{Options{Variant: SmallSkip, Threshold: 8}, 30, 8, 0, 8, 0, 551, 1, 0},
	// The patch's own threshold of 4 at 8 blocks: the map appears when
	// block 4 fills and is read (leaf page and root) from then on.
	{Options{Variant: SmallSkip}, 20, 8, 2, 8, 6, 360, 1, 0},
}

// The seed workload's fill meets seedCounts, leaves the pool quiescent,
// and (the always rows) makes PostgreSQL 15.18's buffer accesses.
func TestSeedWorkloadCounts(t *testing.T) {
	for _, c := range seedCounts {
		name := fmt.Sprintf("%v/thr%d/ff%d/%dblocks", c.opt.Variant, c.opt.Threshold, c.ff, c.blocks)
		w, err := NewSeed(SeedConfig{Tables: 3, FillFactor: c.ff, Blocks: c.blocks, Options: c.opt, NBuffers: 256})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Fill(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := w.PerTable()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.FSMPages != c.fsmPages || got.HeapPages != c.heapPages || got.FSMReads != c.fsmReads ||
			got.HeapReads != c.heapReads || got.VMReads != c.vmReads || got.HeapBlocks != uint32(c.blocks) {
			t.Errorf("%s: %+v", name, got)
		}
		if c.total != 0 && got.Reads() != c.total {
			t.Errorf("%s: %d buffer accesses, PostgreSQL 15.18 made %d", name, got.Reads(), c.total)
		}
		if err := w.Pool.CheckQuiescent(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

// The seed's own size: 100 tables, fillfactor 20, 4 blocks: 3 FSM pages +
// 4 heap pages per table with the map, 4 heap pages without.
func TestSeedWorkloadHundredTables(t *testing.T) {
	for _, c := range []struct {
		opt   Options
		pages int
	}{{Options{Variant: Always}, 7}, {Options{Variant: SmallSkip, Threshold: 8}, 4}} {
		w, err := NewSeed(SeedConfig{Tables: 100, FillFactor: 20, Blocks: 4, Options: c.opt})
		if err != nil {
			t.Fatal(err)
		}
		if w.Rows != 175 || w.RowsPerPage != 44 {
			t.Fatalf("%d rows (%d a page), want 175 (44)", w.Rows, w.RowsPerPage)
		}
		if err := w.Fill(); err != nil {
			t.Fatal(err)
		}
		got, err := w.PerTable()
		if err != nil {
			t.Fatal(err)
		}
		if got.Pages() != c.pages {
			t.Errorf("%v: %d pages per table (%d FSM + %d heap), want %d", c.opt.Variant, got.Pages(), got.FSMPages, got.HeapPages, c.pages)
		}
		if err := w.Fill(); err == nil {
			t.Error("a second Fill ran")
		}
	}
}

// After the always fill of one fillfactor-20 table to 4 blocks, the pages
// are what pageinspect showed on PostgreSQL 15.18: heap pages with
// pd_lower 200 and pd_upper 6784; pg_freespace 6560 for blocks 0–2 and 0
// for block 3 (never recorded); FSM pages 0 and 1 with slot 0 = 205 and
// fp_next_slot 0; FSM page 2 with slots 0–2 = 205 and fp_next_slot 1.
func TestSeedFillMatchesPostgres(t *testing.T) {
	w, err := NewSeed(SeedConfig{Tables: 1, FillFactor: 20, Blocks: 4, NBuffers: 64})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Fill(); err != nil {
		t.Fatal(err)
	}
	h := w.Heaps[0]
	for blk := uint32(0); blk < 4; blk++ {
		p := h.HeapPage(blk)
		want := 6560
		if blk == 3 {
			want = 0
		}
		if p.Lower != 200 || p.Upper != 6784 || CatToAvail(h.RecordedCat(blk)) != want {
			t.Errorf("block %d: lower %d upper %d, pg_freespace %d; want 200, 6784, %d", blk, p.Lower, p.Upper, CatToAvail(h.RecordedCat(blk)), want)
		}
	}
	for phys, want := range map[uint32]struct {
		slots []uint8
		next  int32
	}{0: {[]uint8{205, 0}, 0}, 1: {[]uint8{205, 0}, 0}, 2: {[]uint8{205, 205, 205, 0}, 1}} {
		p, _ := h.FSMPage(phys)
		for slot, v := range want.slots {
			if p.GetAvail(slot) != v {
				t.Errorf("FSM page %d slot %d = %d, want %d", phys, slot, p.GetAvail(slot), v)
			}
		}
		if p.NextSlot() != want.next || !p.Consistent() {
			t.Errorf("FSM page %d: fp_next_slot %d (consistent %v), want %d", phys, p.NextSlot(), p.Consistent(), want.next)
		}
	}
}

// The trace of a traced run is the same on every platform (the hash is
// asserted natively and under GOOS=js GOARCH=wasm) and from run to run;
// tracing changes no result. The asserted hash covers this package's
// events only, sites by name and without sequence numbers (fsmHash), so
// that changes to the buffer manager's events or sites do not move it;
// the whole logs of two runs must be equal too.
func TestSeedTraceDeterministic(t *testing.T) {
	for _, c := range []struct {
		opt  Options
		hash uint64
	}{{Options{Variant: Always}, 0xb076cb7d2110c64a}, {Options{Variant: SmallSkip}, 0x92c28f0309212568}} {
		run := func(log *trace.Log) SeedCounts {
			w, err := NewSeed(SeedConfig{Tables: 2, FillFactor: 30, Blocks: 5, Options: c.opt, NBuffers: 32, Log: log})
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Fill(); err != nil {
				t.Fatal(err)
			}
			got, err := w.PerTable()
			if err != nil {
				t.Fatal(err)
			}
			return got
		}
		l1, l2 := trace.NewLog(), trace.NewLog()
		a, b, plain := run(l1), run(l2), run(nil)
		if l1.Hash() != l2.Hash() || a != b || a != plain {
			t.Fatalf("%v: two runs differ (%#x, %#x) or tracing changed the counts", c.opt.Variant, l1.Hash(), l2.Hash())
		}
		if h := fsmHash(l1); h != c.hash {
			t.Errorf("%v: trace hash %#x (%d events), want %#x", c.opt.Variant, h, l1.Len(), c.hash)
		}
	}
}

// Every event of this package names a registered site of its own, an
// actor that exists, and describes without falling back to raw numbers.
func TestEventsDescribe(t *testing.T) {
	log := trace.NewLog()
	w, err := NewSeed(SeedConfig{Tables: 1, FillFactor: 20, Blocks: 6, Options: Options{Variant: SmallSkip}, NBuffers: 32, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Fill(); err != nil {
		t.Fatal(err)
	}
	s := w.FillSession()
	h := w.Heaps[0]
	if err := s.HeapDelete(h, TID{Block: 0, Offset: 1}); err != nil {
		t.Fatal(err)
	}
	if err := s.Vacuum(h); err != nil {
		t.Fatal(err)
	}
	names := func(rel uint32) string { return "t" }
	seen := map[trace.Site]bool{}
	for _, e := range log.Events() {
		if !IsFSMEvent(e) {
			continue
		}
		seen[e.Site] = true
		if e.Actor == trace.System || int(e.Actor) > len(w.Pool.Backends()) {
			t.Fatalf("event %v from actor %d", e, e.Actor)
		}
		d := Describe(e, names)
		if len(d) < 50 || containsRaw(d) {
			t.Fatalf("undecoded event: %s", d)
		}
	}
	if len(seen) < 40 {
		t.Errorf("only %d of this package's sites were used", len(seen))
	}
	if err := w.Pool.CheckQuiescent(); err != nil {
		t.Fatal(err)
	}
	_ = bufmgr.MainForkNum
}

// fsmHash is FNV-1a over the fields of this package's events in a fixed
// little-endian encoding, with the site's name instead of its number and
// without the sequence number.
func fsmHash(l *trace.Log) uint64 {
	h := fnv.New64a()
	var buf [30]byte
	for _, e := range l.Events() {
		if !IsFSMEvent(e) {
			continue
		}
		binary.LittleEndian.PutUint64(buf[0:], e.Before)
		binary.LittleEndian.PutUint64(buf[8:], e.After)
		binary.LittleEndian.PutUint64(buf[16:], e.Arg)
		binary.LittleEndian.PutUint32(buf[24:], e.Obj)
		binary.LittleEndian.PutUint16(buf[28:], uint16(e.Actor))
		h.Write(buf[:])
		h.Write([]byte{byte(e.Kind), byte(e.Class)})
		h.Write([]byte(e.Site.String()))
	}
	return h.Sum64()
}

func containsRaw(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		if s[i] == '0' && s[i+1] == 'x' {
			return true
		}
	}
	return false
}

// Every change to an FSM page's contents is an event with the old and new
// value (node or fp_next_slot): replaying the After values from an empty
// map gives the final pages, replaying the Before values backwards gives
// the empty map again. This is what lets a viewer step back.
func TestFSMEventsReplay(t *testing.T) {
	for _, opt := range []Options{{Variant: Always}, {Variant: SmallSkip}} {
		log := trace.NewLog()
		w, err := NewSeed(SeedConfig{Tables: 2, FillFactor: 20, Blocks: 6, Options: opt, NBuffers: 32, Log: log})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Fill(); err != nil {
			t.Fatal(err)
		}
		s, h := w.FillSession(), w.Heaps[1]
		if err := s.HeapDelete(h, TID{Block: 2, Offset: 3}); err != nil {
			t.Fatal(err)
		}
		if err := s.Vacuum(h); err != nil {
			t.Fatal(err)
		}
		if err := h.TearFSMHeader(2); err != nil {
			t.Fatal(err)
		}
		if _, err := s.GetPageWithFreeSpace(h, 100); err != nil {
			t.Fatal(err)
		}
		type key struct {
			rel  uint32
			blk  uint32
			node int
		}
		shadow := map[key]uint64{}
		var evs []trace.Event
		for _, e := range log.Events() {
			if !IsFSMEvent(e) || e.Kind != trace.KNodeStore && e.Kind != trace.KCategory && e.Kind != trace.KNextSlot {
				continue
			}
			f, blk, node := UnpackAddr(e.Arg)
			if f != bufmgr.FSMForkNum || node == NodePage {
				continue
			}
			k := key{e.Obj, blk, node}
			if shadow[k] != e.Before {
				t.Fatalf("%v: %s: the shadow has %d", opt.Variant, Describe(e, nil), shadow[k])
			}
			shadow[k] = e.After
			evs = append(evs, e)
		}
		for _, hh := range w.Heaps {
			for phys := uint32(0); phys < hh.FSMBlocks(); phys++ {
				p, _ := hh.FSMPage(phys)
				for n := 0; n < NodesPerPage; n++ {
					if uint64(p.Node(n)) != shadow[key{hh.Rel.Number, phys, n}] {
						t.Fatalf("%v: %s FSM page %d node %d = %d, events say %d", opt.Variant, hh.Rel.Name, phys, n, p.Node(n), shadow[key{hh.Rel.Number, phys, n}])
					}
				}
				if uint64(int64(p.NextSlot())) != shadow[key{hh.Rel.Number, phys, NodeNextSlot}] {
					t.Fatalf("%v: FSM page %d fp_next_slot %d, events say %d", opt.Variant, phys, p.NextSlot(), shadow[key{hh.Rel.Number, phys, NodeNextSlot}])
				}
			}
		}
		for i := len(evs) - 1; i >= 0; i-- {
			e := evs[i]
			_, blk, node := UnpackAddr(e.Arg)
			shadow[key{e.Obj, blk, node}] = e.Before
		}
		for k, v := range shadow {
			if v != 0 {
				t.Fatalf("%v: stepping back leaves %+v = %d", opt.Variant, k, v)
			}
		}
	}
}
