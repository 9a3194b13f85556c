package poolview

import "slices"

// cowMap is a map from uint64 keys to int32 values shared between clones
// and copied on write in pieces: its entries lie in buckets chosen by a
// hash of the key, each bucket a sorted slice with its own owner token. A
// mapping partition's entries (packed tag → buffer id) and a backend's
// private pin counts (buffer id → count) are cowMaps.
//
// Costs: a lookup hashes the key (one multiply) and binary-searches one
// bucket; a write to a map its pool owns changes one bucket in place
// (moving at most the bucket's entries); the first write after a Clone
// copies the map's header with its bucket pointers (8 bytes a bucket) and
// the one bucket written (16 bytes an entry), not the whole map. The
// buckets double when they hold maxLoad entries each on average (a
// rehash into buckets the writer owns, amortized over the inserts that
// filled them); they never shrink. At 131,072 buffers a full partition
// holds about 1,024 entries in 64 buckets: a first write copies about
// 560 bytes of header and 350 of bucket, where the Go map a partition was
// before was copied whole (tens of kB).
//
// A cowMap is never copied by value (copyFor makes copies): a map of one
// bucket holds its bucket pointer in its own allocation (cowMap1).
//
// Which bucket holds a key depends on how many buckets the map has, which
// depends on its history (the most entries it ever held); what it holds
// does not. Every reader lists entries sorted by key (sorted) or looks
// one up (get), so nothing shown depends on the layout.
type cowMap struct {
	owner   *token
	n       int       // entries
	shift   uint8     // 64 - log2(len(buckets)): a key's bucket is hash >> shift
	buckets []*bucket // a power of two of them; nil: empty and never written
}

// bucket is the entries of a cowMap whose hash selects it, sorted by key.
type bucket struct {
	owner *token
	e     []entry
}

type entry struct {
	key uint64
	val int32
}

// maxLoad is the average number of entries a map's buckets hold before
// they double: at least minLoad, else half the number of buckets. A first
// write copies 8 bytes a bucket and 16 an entry of one bucket, least when
// buckets ≈ √(2·entries); this keeps them between that and twice that: a
// partition of 128 entries (16,384 buffers) has 16 buckets of 8, one of
// 1,024 (131,072 buffers) 64 of 16; a backend's few pins, one bucket.
func maxLoad(buckets int) int { return max(minLoad, buckets/2) }

const minLoad = 8

// bucketSpare is the room a copied bucket gets beyond its entries, so that
// the inserts that follow a copy do not reallocate it at once.
const bucketSpare = 2

// mix is Fibonacci hashing of a key: its top bits select the bucket. Keys
// are packed tags (relation, fork, block) or buffer ids, where the low bits
// vary most; the multiply carries them into the top bits.
func mix(k uint64) uint64 { return k * 0x9e3779b97f4a7c15 }

// cowMap1 is a map of one bucket in one allocation: the header and its
// bucket pointer (a backend's pins, a small pool's partitions).
type cowMap1 struct {
	cowMap
	one [1]*bucket
}

// newCowMap is an empty map owned by tok (one bucket, none allocated).
func newCowMap(tok *token) *cowMap {
	m := &cowMap1{}
	m.cowMap = cowMap{owner: tok, shift: 64, buckets: m.one[:]}
	return &m.cowMap
}

// bucketSmall is a bucket of at most smallCap entries in one allocation.
type bucketSmall struct {
	bucket
	a [smallCap]entry
}

const smallCap = 4

// newBucket is a bucket owned by tok holding a copy of e, with room for
// bucketSpare more entries.
func newBucket(tok *token, e []entry) *bucket {
	if len(e)+bucketSpare <= smallCap {
		b := &bucketSmall{}
		b.bucket = bucket{owner: tok, e: append(b.a[:0], e...)}
		return &b.bucket
	}
	ne := make([]entry, len(e), len(e)+bucketSpare)
	copy(ne, e)
	return &bucket{owner: tok, e: ne}
}

// len is the number of entries (0 for a nil map).
func (m *cowMap) len() int {
	if m == nil {
		return 0
	}
	return m.n
}

// search is where k is in b's entries, or where it would go.
func (b *bucket) search(k uint64) (int, bool) {
	lo, hi := 0, len(b.e)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if b.e[h].key < k {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo, lo < len(b.e) && b.e[lo].key == k
}

// get is the value of k (ok false when absent or m is nil).
func (m *cowMap) get(k uint64) (int32, bool) {
	if m == nil {
		return 0, false
	}
	b := m.buckets[mix(k)>>m.shift]
	if b == nil {
		return 0, false
	}
	i, ok := b.search(k)
	if !ok {
		return 0, false
	}
	return b.e[i].val, true
}

// copyFor is a copy of m (nil: an empty map) owned by tok: the header and
// the bucket pointers; the buckets stay shared until written.
func (m *cowMap) copyFor(tok *token) *cowMap {
	if m == nil {
		return newCowMap(tok)
	}
	if len(m.buckets) == 1 {
		c := newCowMap(tok)
		c.n, c.buckets[0] = m.n, m.buckets[0]
		return c
	}
	return &cowMap{owner: tok, n: m.n, shift: m.shift, buckets: slices.Clone(m.buckets)}
}

// wbucket is the bucket of k, owned by tok (m must be tok's): copied on
// the first write after a clone, made on the first write ever.
func (m *cowMap) wbucket(tok *token, k uint64) *bucket {
	i := mix(k) >> m.shift
	b := m.buckets[i]
	if b == nil {
		b = newBucket(tok, nil)
		m.buckets[i] = b
	} else if b.owner != tok {
		b = newBucket(tok, b.e)
		m.buckets[i] = b
	}
	return b
}

// put sets k to v in m, which tok owns.
func (m *cowMap) put(tok *token, k uint64, v int32) {
	b := m.wbucket(tok, k)
	i, ok := b.search(k)
	if ok {
		b.e[i].val = v
		return
	}
	b.e = slices.Insert(b.e, i, entry{k, v})
	m.n++
	if m.n > maxLoad(len(m.buckets))*len(m.buckets) {
		m.grow(tok)
	}
}

// del removes k from m, which tok owns.
func (m *cowMap) del(tok *token, k uint64) {
	bi := mix(k) >> m.shift
	b := m.buckets[bi]
	if b == nil {
		return
	}
	i, ok := b.search(k)
	if !ok {
		return // absent: nothing copied
	}
	if b.owner != tok {
		b = newBucket(tok, b.e)
		m.buckets[bi] = b
	}
	b.e = slices.Delete(b.e, i, i+1)
	m.n--
}

// grow doubles the buckets: bucket i's entries go to 2i and 2i+1 by the
// next bit of their hash, in order (so still sorted), into buckets tok owns.
func (m *cowMap) grow(tok *token) {
	nb := make([]*bucket, 2*len(m.buckets))
	shift := m.shift - 1
	for i, b := range m.buckets {
		if b == nil {
			continue
		}
		lo, hi := &bucket{owner: tok}, &bucket{owner: tok}
		for _, e := range b.e {
			if mix(e.key)>>shift&1 == 0 {
				lo.e = append(lo.e, e)
			} else {
				hi.e = append(hi.e, e)
			}
		}
		nb[2*i], nb[2*i+1] = lo, hi
	}
	m.buckets, m.shift = nb, shift
}

// sorted lists m's entries sorted by key (nil for an empty map).
func (m *cowMap) sorted() []entry {
	if m.len() == 0 {
		return nil
	}
	out := make([]entry, 0, m.n)
	for _, b := range m.buckets {
		if b != nil {
			out = append(out, b.e...)
		}
	}
	if len(m.buckets) > 1 {
		slices.SortFunc(out, func(a, b entry) int {
			switch {
			case a.key < b.key:
				return -1
			case a.key > b.key:
				return 1
			}
			return 0
		})
	}
	return out
}
