package pghash

import "testing"

// Reference values from a real PostgreSQL 15.18 server (64-bit, x86_64):
// SELECT hashtext(s)::bigint & 4294967295. With the default deterministic
// collation hashtext is hash_any over the string's bytes, i.e. hash_bytes.
func TestBytesMatchesPostgreSQL(t *testing.T) {
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
		if got := Bytes([]byte(c.s)); got != c.want {
			t.Errorf("Bytes(%q) = %d, PostgreSQL says %d", c.s, got, c.want)
		}
	}
}

// hashByLength[n] is PostgreSQL 15.18's hash_bytes of the first n bytes of
// the key (i*151 + 7) mod 256, i = 0, 1, ...: every tail length 0–11 after
// 0 to 3 whole chunks, high bytes included. Computed on x86_64 with
//
//	CREATE FUNCTION h(bytea) RETURNS int4 LANGUAGE internal AS 'hashvarlena';
//	SELECT n, h(substring(key from 1 for n))::bigint & 4294967295 ...
var hashByLength = [...]uint32{
	2817148525, 3599317076, 622182617, 2138143687, 486919766, 3652809866,
	3484184475, 3808503529, 4228412285, 1072031151, 794728214, 2250169624,
	1842810091, 591897841, 3563638936, 2303307759, 1976283300, 4113222833,
	737504668, 3113811960, 3759844238, 3349539508, 445047484, 2497030510,
	3616036691, 228063440, 1636966454, 1192076739, 3000959383, 1475223538,
	2267914730, 1201815508, 4091795107, 525895047, 871395779, 3394519320,
	2498722437, 555807370, 1864545578, 2420653418, 3087192030,
}

func TestBytesEveryLength(t *testing.T) {
	key := make([]byte, len(hashByLength)-1)
	for i := range key {
		key[i] = byte(i*151 + 7)
	}
	for n, want := range hashByLength {
		if got := Bytes(key[:n]); got != want {
			t.Errorf("Bytes(%x) = %d, PostgreSQL says %d", key[:n], got, want)
		}
	}
}
