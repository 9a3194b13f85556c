package readstream

import (
	"fmt"
	"slices"
)

// MemPool is a Pool for one backend and one relation fork with room for
// every block: a block is absent, tagged but not yet valid (pinned by a
// StartReadBuffers that has not been waited for), or valid. It never
// evicts, so a block once read stays cached; that is the pool of a scan
// that fits in shared_buffers, which is what the golden cases need. It
// checks the protocol as it goes and panics with a precise message when
// the stream breaks it (a read of a block not started, a read of
// non-consecutive blocks, a release without a pin).
//
// Each block's buffer is the block number + 1 (so block 0 is Buffer 1).
type MemPool struct {
	blocks map[BlockNumber]*memBuf

	// Pins is the pins held now (by the stream and its consumer).
	Pins int
	// MaxPins is the most Pins ever was.
	MaxPins int
	// Reads is every smgrreadv, in order; Prefetches every smgrprefetch.
	Reads      []Read
	Prefetches []Read
	// Hits and Misses count PinBufferForBlock's answers.
	Hits, Misses int
}

type memBuf struct {
	valid bool
	io    bool // BM_IO_IN_PROGRESS
	pins  int
	reads int
}

// NewMemPool is a pool in which the given blocks are already valid.
func NewMemPool(cached ...BlockNumber) *MemPool {
	p := &MemPool{blocks: map[BlockNumber]*memBuf{}}
	for _, b := range cached {
		p.blocks[b] = &memBuf{valid: true}
	}
	return p
}

func (p *MemPool) buf(b Buffer) (BlockNumber, *memBuf) {
	blk := BlockNumber(b - 1)
	mb := p.blocks[blk]
	if b == InvalidBuffer || mb == nil {
		panic(fmt.Sprintf("readstream: MemPool: unknown buffer %d", b))
	}
	return blk, mb
}

// PinBufferForBlock pins block's buffer, tagging a new one if absent.
func (p *MemPool) PinBufferForBlock(block BlockNumber) (Buffer, bool) {
	mb := p.blocks[block]
	if mb == nil {
		mb = &memBuf{}
		p.blocks[block] = mb
	}
	mb.pins++
	p.Pins++
	p.MaxPins = max(p.MaxPins, p.Pins)
	if mb.valid {
		p.Hits++
	} else {
		p.Misses++
	}
	return Buffer(block) + 1, mb.valid
}

// Prefetch records the advice.
func (p *MemPool) Prefetch(block BlockNumber, nblocks int) {
	p.Prefetches = append(p.Prefetches, Read{block, nblocks})
}

// StartBufferIO takes the read of a pinned buffer unless it is valid. One
// backend never finds another's I/O in progress.
func (p *MemPool) StartBufferIO(b Buffer, nowait bool) bool {
	blk, mb := p.buf(b)
	if mb.pins == 0 {
		panic(fmt.Sprintf("readstream: MemPool: StartBufferIO on unpinned block %d", blk))
	}
	if mb.valid {
		return false
	}
	if mb.io {
		panic(fmt.Sprintf("readstream: MemPool: block %d's I/O is already ours", blk))
	}
	mb.io = true
	return true
}

// ReadV reads the buffers (consecutive blocks from first, each with its
// I/O started) and marks them valid.
func (p *MemPool) ReadV(first BlockNumber, bufs []Buffer) {
	if len(bufs) == 0 || len(bufs) > MaxIOCombineLimit {
		panic(fmt.Sprintf("readstream: MemPool: smgrreadv of %d blocks", len(bufs)))
	}
	for i, b := range bufs {
		blk, mb := p.buf(b)
		if blk != first+BlockNumber(i) {
			panic(fmt.Sprintf("readstream: MemPool: smgrreadv from %d: buffer %d holds block %d", first, i, blk))
		}
		if !mb.io || mb.valid {
			panic(fmt.Sprintf("readstream: MemPool: read of block %d without its I/O started", blk))
		}
		mb.io = false
		mb.valid = true
		mb.reads++
	}
	p.Reads = append(p.Reads, Read{first, len(bufs)})
}

// ReleaseBuffer drops one pin.
func (p *MemPool) ReleaseBuffer(b Buffer) {
	blk, mb := p.buf(b)
	if mb.pins == 0 {
		panic(fmt.Sprintf("readstream: MemPool: release of unpinned block %d", blk))
	}
	mb.pins--
	p.Pins--
}

// BufferGetBlockNumber is the buffer's block.
func (p *MemPool) BufferGetBlockNumber(b Buffer) BlockNumber {
	blk, _ := p.buf(b)
	return blk
}

// Valid reports whether block is valid in the pool.
func (p *MemPool) Valid(block BlockNumber) bool {
	mb := p.blocks[block]
	return mb != nil && mb.valid
}

// ReadCount is how many times block was read.
func (p *MemPool) ReadCount(block BlockNumber) int {
	if mb := p.blocks[block]; mb != nil {
		return mb.reads
	}
	return 0
}

// PinnedBlocks is the blocks pinned now, ascending.
func (p *MemPool) PinnedBlocks() []BlockNumber {
	var bs []BlockNumber
	for b, mb := range p.blocks {
		if mb.pins > 0 {
			bs = append(bs, b)
		}
	}
	slices.Sort(bs)
	return bs
}
