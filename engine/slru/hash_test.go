package slru_test

import (
	"encoding/binary"
	"math/rand/v2"
	"sort"
	"testing"

	"bufferlab/engine/internal/pghash"
	"bufferlab/engine/slru"
)

// hashPage is hash_bytes over the page number's 8 little-endian bytes (as
// tag_hash hashes a HASH_BLOBS key). The pinned values were computed with
// hash_bytes (pghash.Bytes, which its own tests check against PostgreSQL);
// the random pages are checked against pghash.Bytes itself.
func TestHashPageIsHashBytes(t *testing.T) {
	pinned := map[int64]uint32{0: 0xef76841c, 1: 0x62b502b0, 3: 0xced89b73, 131071: 0xa32fb7bf, 1 << 32: 0xdb9bd048, 1<<48 - 1: 0x8dfd8b2e}
	for page, want := range pinned {
		if got := slru.HashPage(page); got != want {
			t.Errorf("hashPage(%d) = %#x, want %#x", page, got, want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		p := r.Int64N(1 << 48)
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], uint64(p))
		if got, want := slru.HashPage(p), pghash.Bytes(b[:]); got != want {
			t.Fatalf("page %d: hashPage %#x, hash_bytes %#x", p, got, want)
		}
	}
}

// The dynahash-like table against a Go map over random insertions and
// deletions, never over capacity; and its bucket arithmetic.
func TestDynaTableAgainstMap(t *testing.T) {
	for _, nelem := range []int{2, 3, 8, 16, 100, 256, 300, 1024} {
		d := slru.NewDynaTable(nelem)
		maxB, high, low := d.Buckets()
		nb := 1
		for nb < nelem {
			nb <<= 1
		}
		if maxB != uint32(nb-1) || low != uint32(nb-1) || high != uint32(2*nb-1) {
			t.Fatalf("nelem %d: max_bucket %d high_mask %d low_mask %d", nelem, maxB, high, low)
		}
		want := map[int64]int32{}
		r := rand.New(rand.NewPCG(uint64(nelem), 9))
		for i := 0; i < 20*nelem; i++ {
			p := r.Int64N(int64(3 * nelem))
			_, present := want[p]
			switch {
			case present && r.IntN(2) == 0:
				d.Delete(p)
				delete(want, p)
			case !present && len(want) < nelem:
				s := int32(r.IntN(nelem))
				d.Insert(p, s)
				want[p] = s
			}
			q := r.Int64N(int64(3 * nelem))
			got := d.Find(q)
			w, ok := want[q]
			if !ok {
				w = -1
			}
			if got != w {
				t.Fatalf("nelem %d: find(%d) = %d, want %d", nelem, q, got, w)
			}
			if s, n := d.Lookup(q); int32(s) != w || n < 0 {
				t.Fatalf("nelem %d: lookup(%d) = %d (%d compared), want %d", nelem, q, s, n, w)
			}
			if d.Len() != len(want) {
				t.Fatalf("nelem %d: %d entries, want %d", nelem, d.Len(), len(want))
			}
		}
		es := d.Entries()
		sort.Slice(es, func(i, j int) bool { return es[i][0] < es[j][0] })
		if len(es) != len(want) {
			t.Fatalf("nelem %d: %d entries listed", nelem, len(es))
		}
		for _, e := range es {
			if want[e[0]] != int32(e[1]) {
				t.Fatalf("nelem %d: entry %v", nelem, e)
			}
		}
	}
}
