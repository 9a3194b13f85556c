package slru

import (
	"fmt"

	"bufferlab/engine/internal/pghash"
)

// The banks+hash variant's table from page number to slot.
//
// PostgreSQL's attempt (the 2023 thread, seed 004) mapped SLRU pages with a
// shared dynahash HTAB. dynaTable is laid out as dynahash is
// (utils/hash/dynahash.c), so that a probe costs what it cost there:
//   - the key is the 8-byte page number, hashed by hash_bytes (Jenkins
//     lookup3: the 8-byte case of the aligned path, then final()), which is
//     what tag_hash does for HASH_BLOBS keys;
//   - calc_bucket: hashvalue & high_mask, folded by low_mask past
//     max_bucket;
//   - a directory of segments of DEF_SEGSIZE (256) bucket heads, so a
//     probe loads the directory, then the segment, then walks the chain;
//   - each element carries its hashvalue, compared before the key;
//     new elements go at the end of their chain (HASH_ENTER), freed ones
//     onto a free list.
//
// It is a model, not a copy: there are no partitions, no freelist
// spinlocks, no growth (it is sized for its bank, next_pow2(bank size)
// buckets, as init_htab sizes a table for nelem entries) and no function
// pointers for hashing and matching. Whether the patch had one table per
// SLRU or per bank is not in the seed; here each bank has one, guarded by
// the bank lock, so the locking is the banks variant's. HashGoMap swaps in
// a Go map (Swiss table) for comparison.

const (
	dynaSegShift = 8 // DEF_SEGSIZE_SHIFT
	dynaSegSize  = 1 << dynaSegShift
)

// dynaElement is a HASHELEMENT with its entry (key and slot) inline.
type dynaElement struct {
	link      int32 // next element of the chain, -1 at its end
	hashvalue uint32
	key       int64 // page number
	slot      int32
}

type dynaTable struct {
	dir       [][]int32 // segments of bucket heads (-1: empty bucket)
	maxBucket uint32
	highMask  uint32
	lowMask   uint32
	elems     []dynaElement
	freeList  int32
	nentries  int
}

// newDynaTable sizes a table for nelem entries.
func newDynaTable(nelem int) dynaTable {
	nbuckets := 1
	for nbuckets < nelem {
		nbuckets <<= 1
	}
	nsegs := (nbuckets-1)>>dynaSegShift + 1
	t := dynaTable{dir: make([][]int32, nsegs), maxBucket: uint32(nbuckets - 1), lowMask: uint32(nbuckets - 1),
		highMask: uint32(nbuckets<<1 - 1), elems: make([]dynaElement, nelem), freeList: 0}
	for i := range t.dir {
		seg := make([]int32, dynaSegSize)
		for j := range seg {
			seg[j] = -1
		}
		t.dir[i] = seg
	}
	for i := range t.elems {
		t.elems[i].link = int32(i + 1)
	}
	t.elems[nelem-1].link = -1
	return t
}

// hashPage is hash_bytes over the 8 bytes of a page number (little-endian,
// as on x86 and arm64): the length-8 case, then lookup3's final();
// pghash.Bytes of those 8 bytes, unrolled.
func hashPage(page int64) uint32 {
	a := pghash.Init(8)
	b, c := a, a
	b += uint32(uint64(page) >> 32)
	a += uint32(uint64(page))
	_, _, c = pghash.Final(a, b, c)
	return c
}

// bucketOf is calc_bucket.
func (t *dynaTable) bucketOf(h uint32) uint32 {
	bucket := h & t.highMask
	if bucket > t.maxBucket {
		bucket &= t.lowMask
	}
	return bucket
}

// find returns the slot mapped to page, or -1 (hash_search HASH_FIND): the
// fast path's probe.
func (t *dynaTable) find(page int64) int32 {
	h := hashPage(page)
	bucket := t.bucketOf(h)
	for e := t.dir[bucket>>dynaSegShift][bucket&(dynaSegSize-1)]; e >= 0; {
		el := &t.elems[e]
		if el.hashvalue == h && el.key == page {
			return el.slot
		}
		e = el.link
	}
	return -1
}

// lookup is find that also counts the chain elements it looked at.
func (t *dynaTable) lookup(page int64) (slot int, compared int) {
	h := hashPage(page)
	bucket := t.bucketOf(h)
	for e := t.dir[bucket>>dynaSegShift][bucket&(dynaSegSize-1)]; e >= 0; {
		el := &t.elems[e]
		compared++
		if el.hashvalue == h && el.key == page {
			return int(el.slot), compared
		}
		e = el.link
	}
	return -1, compared
}

// insert maps page to slot (HASH_ENTER), replacing an existing entry's slot.
func (t *dynaTable) insert(page int64, slot int32) {
	h := hashPage(page)
	bucket := t.bucketOf(h)
	prev := &t.dir[bucket>>dynaSegShift][bucket&(dynaSegSize-1)]
	for *prev >= 0 {
		el := &t.elems[*prev]
		if el.hashvalue == h && el.key == page {
			el.slot = slot
			return
		}
		prev = &el.link
	}
	e := t.freeList
	if e < 0 {
		panic(fmt.Sprintf("slru: mapping table full (%d entries) inserting page %d", t.nentries, page))
	}
	t.freeList = t.elems[e].link
	t.elems[e] = dynaElement{link: -1, hashvalue: h, key: page, slot: slot}
	*prev = e
	t.nentries++
}

// delete removes page's entry (HASH_REMOVE); it panics if there is none,
// as dynahash callers treat that as corruption.
func (t *dynaTable) delete(page int64) {
	h := hashPage(page)
	bucket := t.bucketOf(h)
	prev := &t.dir[bucket>>dynaSegShift][bucket&(dynaSegSize-1)]
	for *prev >= 0 {
		e := *prev
		el := &t.elems[e]
		if el.hashvalue == h && el.key == page {
			*prev = el.link
			el.link = t.freeList
			t.freeList = e
			t.nentries--
			return
		}
		prev = &el.link
	}
	panic(fmt.Sprintf("slru: mapping table has no entry for page %d", page))
}

// entries lists the (page, slot) pairs in bucket order.
func (t *dynaTable) entries() [][2]int64 {
	var out [][2]int64
	for _, seg := range t.dir {
		for _, head := range seg {
			for e := head; e >= 0; e = t.elems[e].link {
				out = append(out, [2]int64{t.elems[e].key, int64(t.elems[e].slot)})
			}
		}
	}
	return out
}
