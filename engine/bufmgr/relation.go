package bufmgr

// Relation is what the simulated buffer manager needs to know of a relation:
// its relfilenode, whether it is WAL-logged (permanent), and the size of
// each fork in blocks (0 for a fork that does not exist).
type Relation struct {
	Name      string
	Number    uint32 // relfilenode (relNode / relNumber)
	Permanent bool   // RELPERSISTENCE_PERMANENT; false for UNLOGGED
	NBlocks   [MaxForkNum + 1]uint32
}

// Tag is the buffer tag of block blk of fork f.
func (r *Relation) Tag(f ForkNumber, blk uint32) BufferTag { return MakeTag(r.Number, f, blk) }
