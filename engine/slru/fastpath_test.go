package slru_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"bufferlab/engine/sched"
	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
)

// snapshot is what is observable of an SLRU but the bytes: every slot
// (page, status, dirty, LRU count, its buffer lock), every bank (lock,
// counter, table), latest_page_number, the disk's segment sizes and every
// backend's counters. sameContents compares the bytes.
type snapshotT struct {
	slots    []slru.Slot
	ioLocks  []slru.LWLock
	banks    []slru.LWLock
	counters []int32
	tables   [][][2]int64
	latest   int64
	segs     []int64
	stats    []slru.Stats
}

func snapshot(s *slru.SLRU) snapshotT {
	var t snapshotT
	for i := 0; i < s.NumSlots(); i++ {
		t.slots = append(t.slots, s.Slot(i))
		t.ioLocks = append(t.ioLocks, s.BufferLock(i))
	}
	for k := 0; k < s.NumBanks(); k++ {
		t.banks = append(t.banks, s.BankLock(k))
		t.counters = append(t.counters, s.BankCounter(k))
		t.tables = append(t.tables, s.MappingEntries(k))
	}
	t.latest = s.LatestPageNumber()
	for _, seg := range s.Disk().Segments() {
		size, _ := s.Disk().FileSize(seg) // not File: that copies the segment
		t.segs = append(t.segs, seg, size)
	}
	for _, be := range s.Backends() {
		t.stats = append(t.stats, be.Stats)
	}
	return t
}

func (a snapshotT) equal(b snapshotT) bool {
	if !slices.Equal(a.slots, b.slots) || !slices.Equal(a.ioLocks, b.ioLocks) || !slices.Equal(a.banks, b.banks) ||
		!slices.Equal(a.counters, b.counters) || a.latest != b.latest || !slices.Equal(a.segs, b.segs) ||
		!slices.Equal(a.stats, b.stats) || len(a.tables) != len(b.tables) {
		return false
	}
	for i := range a.tables {
		if !slices.Equal(a.tables[i], b.tables[i]) {
			return false
		}
	}
	return true
}

// sameContents reports the first page buffer (or, with disk, file) that
// differs.
func sameContents(a, b *slru.SLRU, disk bool) error {
	for i := 0; i < a.NumSlots(); i++ {
		if !bytes.Equal(a.PageData(i), b.PageData(i)) {
			return fmt.Errorf("slot %d's page buffer differs", i)
		}
	}
	for _, seg := range a.Disk().Segments() {
		if disk && !bytes.Equal(a.Disk().File(seg), b.Disk().File(seg)) {
			return fmt.Errorf("segment %d differs", seg)
		}
	}
	return nil
}

// TestFastPathMatchesModelled checks the fast path of backends with neither
// a log nor a scheduler (SimpleLruReadPage_ReadOnly and
// TransactionIdGetStatus without yields and events, the lock fast path)
// against the modelled path. The same random operation streams, several
// backends taking turns operation by operation, run on three SLRUs:
//
//   - fast: no log, no scheduler;
//   - logged: a log, so the modelled path with its events;
//   - yielding: no log, a scheduler hook that never switches, so the
//     modelled path with its yields and no events.
//
// After every operation the results, the snapshots and the bytes of every
// page buffer must be equal (the files' bytes every 16 operations).
func TestFastPathMatchesModelled(t *testing.T) {
	ops := 1500
	if testing.Short() || raceEnabled {
		ops = 500
	}
	for i, cfg := range []slru.Config{
		{Variant: slru.Banks, Slots: 32},
		{Variant: slru.Banks, Slots: 8, BankSize: 4},
		{Variant: slru.Single, Slots: 12},
		{Variant: slru.BanksHash, Slots: 32},
		{Variant: slru.BanksHash, Slots: 16, BankSize: 8, HashTable: slru.HashGoMap},
		{Variant: slru.Banks, Slots: 48, BankRule: slru.BankMask},
	} {
		t.Run(fmt.Sprintf("%s/slots=%d/bank=%d", cfg.Variant, cfg.Slots, cfg.BankSize), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 77))
			npages := int64(cfg.Slots * 3)
			// Mostly status lookups, some updates, zeroes, checkpoints,
			// extensions and failures.
			randomOp := slru.Mix{GetStatus: 32, GetMissing: 3, SetStatus: 20, ReadOnly: 25, Read: 8, Zero: 4, WriteAll: 5, Extend: 3,
				Pages: int(npages), XidSpread: 64,
				Statuses: []slru.XidStatus{slru.StatusCommitted, slru.StatusAborted, slru.StatusSubCommitted}}.Stream(r.IntN)
			var worlds [3]*slru.SLRU
			var backends [3][]*slru.Backend
			for w := range worlds {
				var log *trace.Log
				if w == 1 {
					log = trace.NewLog()
				}
				s, err := slru.New(cfg, log)
				if err != nil {
					t.Fatal(err)
				}
				s.Disk().FormatPages(0, npages-1)
				for k := 0; k < 3; k++ {
					b, _ := s.NewBackend(fmt.Sprint("B", k))
					if w == 2 {
						b.SetYield(func(sched.Point) {})
					}
					backends[w] = append(backends[w], b)
				}
				worlds[w] = s
			}
			for n := 0; n < ops; n++ {
				o := randomOp()
				k := r.IntN(3)
				var res [3]string
				for w := range worlds {
					got, err := backends[w][k].Do(o)
					res[w] = fmt.Sprint(got, " ", err)
				}
				if res[0] != res[1] || res[0] != res[2] {
					t.Fatalf("op %d %v by B%d: fast %q, logged %q, yielding %q", n, o, k, res[0], res[1], res[2])
				}
				s0 := snapshot(worlds[0])
				if s1, s2 := snapshot(worlds[1]), snapshot(worlds[2]); !s0.equal(s1) || !s0.equal(s2) {
					t.Fatalf("op %d %v by B%d: states differ\nfast:     %+v\nlogged:   %+v\nyielding: %+v", n, o, k, s0, s1, s2)
				}
				for w := 1; w < 3; w++ {
					if err := sameContents(worlds[0], worlds[w], n%16 == 15 || n == ops-1); err != nil {
						t.Fatalf("op %d %v by B%d: world %d: %v", n, o, k, w, err)
					}
				}
			}
			if err := worlds[0].CheckQuiescent(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
