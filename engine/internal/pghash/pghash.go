package pghash

// Init is the value a, b and c start from for a key of length bytes.
func Init(length int) uint32 { return 0x9e3779b9 + uint32(length) + 3923095 }

func rotl(x uint32, k uint) uint32 { return x<<k | x>>(32-k) }

// Mix is lookup3's mix(): it folds one 12-byte chunk, already added into
// a, b and c, before the next.
func Mix(a, b, c uint32) (uint32, uint32, uint32) {
	a -= c
	a ^= rotl(c, 4)
	c += b
	b -= a
	b ^= rotl(a, 6)
	a += c
	c -= b
	c ^= rotl(b, 8)
	b += a
	a -= c
	a ^= rotl(c, 16)
	c += b
	b -= a
	b ^= rotl(a, 19)
	a += c
	c -= b
	c ^= rotl(b, 4)
	b += a
	return a, b, c
}

// Final is lookup3's final(): after the last 0–11 bytes are added, it
// mixes a, b and c into c, the hash.
func Final(a, b, c uint32) (uint32, uint32, uint32) {
	c ^= b
	c -= rotl(b, 14)
	a ^= c
	a -= rotl(c, 11)
	b ^= a
	b -= rotl(a, 25)
	c ^= b
	c -= rotl(b, 16)
	a ^= c
	a -= rotl(c, 4)
	b ^= a
	b -= rotl(a, 14)
	c ^= b
	c -= rotl(b, 24)
	return a, b, c
}

// Bytes is hash_bytes over any byte string: whole 12-byte chunks through
// Mix, the rest added byte by byte, then Final. Cost: O(len(k)).
func Bytes(k []byte) uint32 {
	word := func(p []byte) uint32 {
		return uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24
	}
	a := Init(len(k))
	b, c := a, a
	for len(k) >= 12 {
		a += word(k[0:])
		b += word(k[4:])
		c += word(k[8:])
		a, b, c = Mix(a, b, c)
		k = k[12:]
	}
	// The last 0–11 bytes, the switch with fallthrough of hash_bytes:
	// bytes 0–3 go to a, 4–7 to b, 8–10 to c one byte up (the lowest byte
	// of c is reserved for the length), each shifted by its place in its
	// word. The additions wrap, so their order does not matter.
	for i, v := range k {
		switch x := uint32(v); {
		case i >= 8:
			c += x << (8 * (i - 7))
		case i >= 4:
			b += x << (8 * (i - 4))
		default:
			a += x << (8 * i)
		}
	}
	_, _, c = Final(a, b, c)
	return c
}
