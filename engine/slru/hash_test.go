package slru_test

import (
	"encoding/binary"
	"math/rand/v2"
	"sort"
	"testing"

	"bufferlab/engine/slru"
)

// hashBytesRef is hash_bytes (common/hashfn.c, Bob Jenkins' lookup3) over
// any byte string, written out byte by byte as the unaligned path does, to
// check hashPage's 8-byte special case against.
func hashBytesRef(k []byte) uint32 {
	rot := func(x uint32, n uint) uint32 { return x<<n | x>>(32-n) }
	word := func(p []byte) uint32 { return uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24 }
	a := uint32(0x9e3779b9) + uint32(len(k)) + 3923095
	b, c := a, a
	for len(k) >= 12 {
		a += word(k)
		b += word(k[4:])
		c += word(k[8:])
		a -= c
		a ^= rot(c, 4)
		c += b
		b -= a
		b ^= rot(a, 6)
		a += c
		c -= b
		c ^= rot(b, 8)
		b += a
		a -= c
		a ^= rot(c, 16)
		c += b
		b -= a
		b ^= rot(a, 19)
		a += c
		c -= b
		c ^= rot(b, 4)
		b += a
		k = k[12:]
	}
	var tail [12]byte
	copy(tail[:], k)
	if len(k) > 8 {
		c += uint32(tail[8])<<8 | uint32(tail[9])<<16 | uint32(tail[10])<<24
	}
	if len(k) > 4 {
		b += word(tail[4:])
	}
	if len(k) > 0 {
		a += word(tail[:])
	}
	c ^= b
	c -= rot(b, 14)
	a ^= c
	a -= rot(c, 11)
	b ^= a
	b -= rot(a, 25)
	c ^= b
	c -= rot(b, 16)
	a ^= c
	a -= rot(c, 4)
	b ^= a
	b -= rot(a, 14)
	c ^= b
	c -= rot(b, 24)
	return c
}

// hashPage is hash_bytes over the page number's 8 little-endian bytes (as
// tag_hash hashes a HASH_BLOBS key). The pinned values were computed with
// bufmgr.HashBytes, which its own tests check against PostgreSQL's
// buffer-tag hashes (this test does not import bufmgr: its sites would
// shift this package's site numbers and so the golden trace hash).
func TestHashPageIsHashBytes(t *testing.T) {
	for _, c := range []struct {
		page int64
		want uint32
	}{{0, 0xef76841c}, {1, 0x62b502b0}, {3, 0xced89b73}, {131071, 0xa32fb7bf}, {1 << 32, 0xdb9bd048}, {1<<48 - 1, 0x8dfd8b2e}} {
		if got := slru.HashPage(c.page); got != c.want {
			t.Errorf("hashPage(%d) = %#x, want %#x", c.page, got, c.want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		p := r.Int64N(1 << 48)
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], uint64(p))
		if got, want := slru.HashPage(p), hashBytesRef(b[:]); got != want {
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
