package slru_test

import (
	"fmt"
	"testing"

	"bufferlab/engine/slru"
)

// Engine benchmark (make bench): TransactionIdGetStatus of a present page
// on the fast path (no log, no scheduler), per variant, in PG 17's default
// of 2 banks of 16 slots. fastmode/exp/slru's BenchmarkSlruReadOnly sweeps the
// bank size.
func BenchmarkGetStatusHit(b *testing.B) {
	for _, v := range slru.Variants {
		b.Run(fmt.Sprintf("variant=%s", v), func(b *testing.B) {
			s, err := slru.New(slru.Config{Variant: v, Slots: 32}, nil)
			if err != nil {
				b.Fatal(err)
			}
			s.Disk().FormatPages(0, 31)
			a, _ := s.NewBackend("A")
			for p := uint32(0); p < 32; p++ {
				if _, err := a.TransactionIdGetStatus(p * slru.ClogXactsPerPage); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				xid := uint32(i*7%32)*slru.ClogXactsPerPage + uint32(i&1023)
				if _, err := a.TransactionIdGetStatus(xid); err != nil {
					b.Fatal(err)
				}
			}
			if a.Stats.Reads != 0 {
				b.Fatalf("%d misses", a.Stats.Reads)
			}
		})
	}
}
