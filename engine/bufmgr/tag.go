package bufmgr

import (
	"fmt"

	"bufferlab/engine/internal/enum"
	"bufferlab/engine/internal/pghash"
)

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

func (f ForkNumber) String() string { return enum.Name(forkNames[:], f, "fork") }

// ParseFork returns the fork named s ("main", "fsm", "vm", "init").
func ParseFork(s string) (ForkNumber, bool) { return enum.Parse[ForkNumber](forkNames[:], s) }

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
// dynahash's tag_hash, i.e. hash_bytes (Bob Jenkins' lookup3, common/hashfn.c;
// engine/internal/pghash) over the 20 bytes of the tag read as five aligned
// little-endian words, unrolled: pghash.Bytes(t.Bytes()) without the bytes.
func BufTableHashCode(t BufferTag) uint32 {
	a := pghash.Init(20)
	b, c := a, a
	// One whole 12-byte chunk: spcNode, dbNode, relNode.
	a += t.SpcNode
	b += t.DbNode
	c += t.RelNode
	a, b, c = pghash.Mix(a, b, c)
	// Eight bytes left (case 8 of the aligned path): forkNum, blockNum.
	b += t.BlockNum
	a += uint32(t.ForkNum)
	_, _, c = pghash.Final(a, b, c)
	return c
}

// BufTableHashPartition is BufTableHashPartition(): hashcode % NUM_BUFFER_PARTITIONS.
func BufTableHashPartition(hash uint32) int { return int(hash % NumBufferPartitions) }

// Bytes is the tag's 20-byte in-memory image (little-endian), the key that
// dynahash hashes.
func (t BufferTag) Bytes() [20]byte {
	var out [20]byte
	for i, w := range []uint32{t.SpcNode, t.DbNode, t.RelNode, uint32(t.ForkNum), t.BlockNum} {
		out[4*i], out[4*i+1], out[4*i+2], out[4*i+3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
	}
	return out
}
