package bufmgr

import "fmt"

// BLCKSZ is PostgreSQL's block size (a compile-time constant, 8192 by default).
const BLCKSZ = 8192

// ForkNumber names a relation fork (common/relpath.h).
type ForkNumber int32

// The forks of a relation.
const (
	MainForkNum ForkNumber = 0
	FSMForkNum  ForkNumber = 1
	VMForkNum   ForkNumber = 2
	InitForkNum ForkNumber = 3
	MaxForkNum             = InitForkNum
)

var forkNames = [...]string{"main", "fsm", "vm", "init"}

func (f ForkNumber) String() string {
	if f >= 0 && f <= MaxForkNum {
		return forkNames[f]
	}
	return fmt.Sprintf("fork(%d)", int32(f))
}

// ParseFork returns the fork named s ("main", "fsm", "vm", "init").
func ParseFork(s string) (ForkNumber, bool) {
	for i, n := range forkNames {
		if n == s {
			return ForkNumber(i), true
		}
	}
	return 0, false
}

// The tablespace and database of every simulated relation: pg_default and
// the OID a first user database usually gets.
const (
	DefaultTablespaceOid = 1663
	DefaultDatabaseOid   = 5
	// FirstNormalObjectId is the first OID handed to user objects; the
	// scenario language numbers relations from here.
	FirstNormalObjectId = 16384
)

// BufferTag identifies the disk block a buffer holds. It is PostgreSQL 15's
// 20-byte layout, RelFileNode{spcNode, dbNode, relNode} then forkNum and
// blockNum (buf_internals.h); PG16+ names the same fields spcOid, dbOid,
// relNumber (82ac34db20) without changing the layout.
type BufferTag struct {
	SpcNode  uint32
	DbNode   uint32
	RelNode  uint32
	ForkNum  ForkNumber
	BlockNum uint32
}

// MakeTag builds the tag of block blk of fork f of relation rel in the
// default tablespace and database (INIT_BUFFERTAG).
func MakeTag(rel uint32, f ForkNumber, blk uint32) BufferTag {
	return BufferTag{SpcNode: DefaultTablespaceOid, DbNode: DefaultDatabaseOid, RelNode: rel, ForkNum: f, BlockNum: blk}
}

// SameRel reports whether t and u belong to the same relation (RelFileNodeEquals).
func (t BufferTag) SameRel(u BufferTag) bool {
	return t.RelNode == u.RelNode && t.DbNode == u.DbNode && t.SpcNode == u.SpcNode
}

// String prints rel/fork/block, e.g. "16384/main/3".
func (t BufferTag) String() string {
	return fmt.Sprintf("%d/%s/%d", t.RelNode, t.ForkNum, t.BlockNum)
}

// Packed tags: events carry a tag in one uint64 as relNode<<32 | fork<<30 |
// block. The simulated tablespace and database are fixed and blocks are
// below 2^30 (8 TB per fork), so nothing is lost.
const (
	maxPackedBlock = 1<<30 - 1
	noTag          = ^uint64(0)
)

// Pack encodes t for an event argument.
func (t BufferTag) Pack() uint64 {
	return uint64(t.RelNode)<<32 | uint64(t.ForkNum&3)<<30 | uint64(t.BlockNum&maxPackedBlock)
}

// UnpackTag decodes a packed tag.
func UnpackTag(p uint64) BufferTag {
	return MakeTag(uint32(p>>32), ForkNumber(p>>30&3), uint32(p&maxPackedBlock))
}

// NumBufferPartitions is NUM_BUFFER_PARTITIONS (128 since 9.5, 3acc10c997).
const NumBufferPartitions = 128

// BufTableHashCode hashes a tag as the shared buffer lookup table does:
// dynahash's tag_hash, i.e. hash_bytes (Bob Jenkins' lookup3, common/hashfn.c)
// over the 20 bytes of the tag read as five aligned little-endian words.
func BufTableHashCode(t BufferTag) uint32 {
	const length = 20
	a := uint32(0x9e3779b9 + length + 3923095)
	b, c := a, a
	// One whole 12-byte chunk: spcNode, dbNode, relNode.
	a += t.SpcNode
	b += t.DbNode
	c += t.RelNode
	a, b, c = hashMix(a, b, c)
	// Eight bytes left (case 8 of the aligned path): forkNum, blockNum.
	b += t.BlockNum
	a += uint32(t.ForkNum)
	_, _, c = hashFinal(a, b, c)
	return c
}

func rotl(x uint32, k uint) uint32 { return x<<k | x>>(32-k) }

// hashMix is lookup3's mix().
func hashMix(a, b, c uint32) (uint32, uint32, uint32) {
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

// hashFinal is lookup3's final().
func hashFinal(a, b, c uint32) (uint32, uint32, uint32) {
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

// BufTableHashPartition is BufTableHashPartition(): hashcode % NUM_BUFFER_PARTITIONS.
func BufTableHashPartition(hash uint32) int { return int(hash % NumBufferPartitions) }

// HashBytes is hash_bytes (common/hashfn.c) over any byte string, reading
// words little-endian as PostgreSQL does on x86 and arm64. BufTableHashCode
// is the same function unrolled for a 20-byte tag.
func HashBytes(k []byte) uint32 {
	word := func(p []byte) uint32 {
		return uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24
	}
	a := uint32(0x9e3779b9) + uint32(len(k)) + 3923095
	b, c := a, a
	for len(k) >= 12 {
		a += word(k[0:])
		b += word(k[4:])
		c += word(k[8:])
		a, b, c = hashMix(a, b, c)
		k = k[12:]
	}
	// The last 0–11 bytes; the lowest byte of c is reserved for the length.
	switch len(k) {
	case 11:
		c += uint32(k[10]) << 24
		fallthrough
	case 10:
		c += uint32(k[9]) << 16
		fallthrough
	case 9:
		c += uint32(k[8]) << 8
		fallthrough
	case 8:
		b += uint32(k[7]) << 24
		fallthrough
	case 7:
		b += uint32(k[6]) << 16
		fallthrough
	case 6:
		b += uint32(k[5]) << 8
		fallthrough
	case 5:
		b += uint32(k[4])
		fallthrough
	case 4:
		a += uint32(k[3]) << 24
		fallthrough
	case 3:
		a += uint32(k[2]) << 16
		fallthrough
	case 2:
		a += uint32(k[1]) << 8
		fallthrough
	case 1:
		a += uint32(k[0])
	}
	_, _, c = hashFinal(a, b, c)
	return c
}

// Bytes is the tag's 20-byte in-memory image (little-endian), the key that
// dynahash hashes.
func (t BufferTag) Bytes() [20]byte {
	var out [20]byte
	for i, w := range []uint32{t.SpcNode, t.DbNode, t.RelNode, uint32(t.ForkNum), t.BlockNum} {
		out[4*i], out[4*i+1], out[4*i+2], out[4*i+3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
	}
	return out
}
