package bufmgr

import (
	"math/rand/v2"
	"testing"
)

// Reference values from a real PostgreSQL 15.18 server (64-bit, x86_64):
// SELECT hashtext(s)::bigint & 4294967295. With the default deterministic
// collation hashtext is hash_any over the string's bytes, i.e. hash_bytes.
func TestHashBytesMatchesPostgreSQL(t *testing.T) {
	for _, c := range []struct {
		s    string
		want uint32
	}{
		{"abcdefghijklmnopqrst", 766334193}, // 20 bytes, like a BufferTag
		{"buffer tags are 20 b", 1179327660},
		{"a", 1075015857},
		{"abcdefghijkl", 2708880084},
		{"PostgreSQL 15 hash_bytes", 880025525},
	} {
		if got := HashBytes([]byte(c.s)); got != c.want {
			t.Errorf("HashBytes(%q) = %d, PostgreSQL says %d", c.s, got, c.want)
		}
	}
}

// BufTableHashCode, unrolled for tags, equals hash_bytes over the tag's bytes.
func TestBufTableHashCodeIsHashBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 10000; i++ {
		tag := BufferTag{SpcNode: rng.Uint32(), DbNode: rng.Uint32(), RelNode: rng.Uint32(),
			ForkNum: ForkNumber(rng.IntN(4)), BlockNum: rng.Uint32()}
		b := tag.Bytes()
		if got, want := BufTableHashCode(tag), HashBytes(b[:]); got != want {
			t.Fatalf("tag %+v: BufTableHashCode %#x, hash_bytes %#x", tag, got, want)
		}
	}
}
