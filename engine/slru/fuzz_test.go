package slru_test

import (
	"testing"

	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
)

// FuzzConfigAndOps: any configuration is either refused with an error or
// built; on a built SLRU, any stream of operations (one per three bytes)
// by two backends taking turns keeps the invariants after every event and
// leaves nothing locked. Without -fuzz it runs the seeds below.
func FuzzConfigAndOps(f *testing.F) {
	f.Add(uint8(0), 32, 0, uint8(0), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add(uint8(1), 4, 0, uint8(0), []byte{10, 20, 30, 40, 50, 60, 70, 80, 90, 100})
	f.Add(uint8(2), 8, 2, uint8(1), []byte{255, 254, 253, 1, 1, 1, 7, 7, 7, 3, 0, 9})
	f.Add(uint8(0), 48, 16, uint8(2), []byte{5, 5, 5, 6, 6, 6, 200, 100, 50})
	f.Add(uint8(9), -3, 7, uint8(0), []byte{})
	f.Fuzz(func(t *testing.T, variant uint8, slots, bank int, flags uint8, ops []byte) {
		cfg := slru.Config{Variant: slru.Variant(variant % 4), Slots: slots, BankSize: bank,
			BankRule: slru.BankRule(flags & 1), HashTable: slru.HashTable(flags >> 1 & 1)}
		if slots > 256 { // large caches are tested elsewhere; keep each run fast
			cfg.Slots = slots % 257
		}
		log := trace.NewLog()
		s, err := slru.New(cfg, log)
		if err != nil {
			return
		}
		npages := int64(2*s.NumSlots() + 2)
		s.Disk().FormatPages(0, npages-1)
		log.OnAppend = func(e trace.Event) {
			if err := s.CheckInvariants(); err != nil {
				t.Fatalf("after %s: %v", slru.Describe(e), err)
			}
		}
		bs := []*slru.Backend{}
		for _, n := range []string{"A", "B"} {
			b, _ := s.NewBackend(n)
			bs = append(bs, b)
		}
		for i := 0; i+2 < len(ops) && i < 600; i += 3 {
			page := int64(ops[i+1]) % (npages + 1)
			xid := uint32(page)*slru.ClogXactsPerPage + uint32(ops[i+2])
			var o slru.Op
			switch ops[i] % 8 {
			case 0, 1:
				o = slru.Op{Code: slru.OpGetStatus, Xid: xid}
			case 2:
				o = slru.Op{Code: slru.OpSetStatus, Xid: xid, Status: slru.XidStatus(1 + ops[i+2]%3)}
			case 3:
				o = slru.Op{Code: slru.OpReadOnly, Page: page}
			case 4:
				o = slru.Op{Code: slru.OpRead, Page: page}
			case 5:
				o = slru.Op{Code: slru.OpZero, Page: page}
			case 6:
				o = slru.Op{Code: slru.OpExtend, Xid: xid}
			default:
				o = slru.Op{Code: slru.OpWriteAll}
			}
			b := bs[i/3%2]
			_, _ = b.Do(o) // errors are fine (special xids, pages not on disk, illegal changes)
			if len(b.HeldLocks()) != 0 {
				t.Fatalf("op %v: %s holds %v", o, b.Name, b.HeldLocks())
			}
		}
		if err := s.CheckQuiescent(); err != nil {
			t.Fatal(err)
		}
	})
}
