package aio

import "fmt"

// bufferDesc is a BufferDesc as a read needs it (buf_internals.h, PG 18):
// the tag (a block of the one relation fork), BM_VALID,
// BM_IO_IN_PROGRESS, the shared refcount (this backend's pins plus the AIO
// subsystem's, buffer_stage_common) and io_wref, the wait reference to the
// AIO handle that owns the read (new in 18).
type bufferDesc struct {
	block        BlockNumber
	valid        bool // BM_VALID
	ioInProgress bool // BM_IO_IN_PROGRESS
	refcount     int  // BUF_STATE_GET_REFCOUNT
	aioPin       bool // one of refcount is the AIO subsystem's
	ioWref       WaitRef
	reads        int // times a preadv filled it
}

// privateRefCount is this backend's PrivateRefCountArray, its hash and
// PrivateRefCountOverflowed (bufmgr.c): 8 array slots, pins beyond them in
// the hash. GetAdditionalPinLimit estimates the pins held as
// overflowed + 8, so the exact overflow count matters to the stream.
type privateRefCount struct {
	array      [RefcountArrayEntries]Buffer
	arrayCount [RefcountArrayEntries]int
	hash       map[Buffer]int
	reserved   int // index of ReservedRefCountEntry, -1: none
	clock      int // PrivateRefCountClock
	overflowed int // PrivateRefCountOverflowed
}

func newPrivateRefCount() privateRefCount {
	return privateRefCount{hash: map[Buffer]int{}, reserved: -1}
}

// reserve is ReservePrivateRefCountEntry: a free array slot, or the
// clock's victim moved into the hash (overflowed++).
func (p *privateRefCount) reserve() {
	if p.reserved >= 0 {
		return
	}
	for i := range p.array {
		if p.array[i] == InvalidBuffer {
			p.reserved = i
			return
		}
	}
	i := p.clock % RefcountArrayEntries
	p.clock++
	p.hash[p.array[i]] = p.arrayCount[i]
	p.array[i], p.arrayCount[i] = InvalidBuffer, 0
	p.overflowed++
	p.reserved = i
}

// pin is PinBuffer's private side: GetPrivateRefCountEntry(do_move=true)
// for a buffer already pinned (a hash entry moves back into the array),
// else NewPrivateRefCountEntry in the reserved slot. It reports whether
// the backend held no pin on buf before.
func (p *privateRefCount) pin(buf Buffer) bool {
	for i := range p.array {
		if p.array[i] == buf {
			p.arrayCount[i]++
			return false
		}
	}
	if n, ok := p.hash[buf]; ok {
		p.reserve()
		i := p.reserved
		p.reserved = -1
		delete(p.hash, buf)
		p.overflowed--
		p.array[i], p.arrayCount[i] = buf, n+1
		return false
	}
	p.reserve()
	i := p.reserved
	p.reserved = -1
	p.array[i], p.arrayCount[i] = buf, 1
	return true
}

// unpin is UnpinBuffer's private side: GetPrivateRefCountEntry(do_move =
// false), and ForgetPrivateRefCountEntry at zero (an array slot becomes
// the reserved one; a hash entry goes, overflowed--). It reports whether
// the backend's last pin on buf went.
func (p *privateRefCount) unpin(buf Buffer) bool {
	for i := range p.array {
		if p.array[i] == buf {
			p.arrayCount[i]--
			if p.arrayCount[i] > 0 {
				return false
			}
			p.array[i] = InvalidBuffer
			p.reserved = i
			return true
		}
	}
	n, ok := p.hash[buf]
	if !ok {
		panic(fmt.Sprintf("aio: unpin of buffer %d this backend does not hold", buf))
	}
	if n > 1 {
		p.hash[buf] = n - 1
		return false
	}
	delete(p.hash, buf)
	p.overflowed--
	return true
}

// Pool is the shared buffer pool of one relation fork as the model needs
// it, with one backend's private refcounts. It does not evict: every
// block asked for gets a buffer (the pool is big enough, as
// readstream.MemPool assumes). engine/bufmgr's pool replaces it when the
// model is wired in.
type Pool struct {
	descs   []bufferDesc // buffer b is descs[b-1]
	byBlock map[BlockNumber]Buffer
	priv    privateRefCount

	Pins    int // pins this backend holds (all private refcounts)
	MaxPins int // the most Pins ever was
}

// NewPool is a pool where cached blocks are already valid.
func NewPool(cached ...BlockNumber) *Pool {
	p := &Pool{byBlock: map[BlockNumber]Buffer{}, priv: newPrivateRefCount()}
	for _, b := range cached {
		if _, ok := p.byBlock[b]; ok {
			continue
		}
		p.descs = append(p.descs, bufferDesc{block: b, valid: true})
		p.byBlock[b] = Buffer(len(p.descs))
	}
	return p
}

func (p *Pool) desc(buf Buffer) *bufferDesc {
	if buf < 1 || int(buf) > len(p.descs) {
		panic(fmt.Sprintf("aio: no buffer %d", buf))
	}
	return &p.descs[buf-1]
}

// pinBufferForBlock is PinBufferForBlock → BufferAlloc (bufmgr.c):
// ReservePrivateRefCountEntry, the buffer-table lookup, a new buffer
// tagged but not valid on a miss; pinned either way. found is BM_VALID.
func (p *Pool) pinBufferForBlock(block BlockNumber) (Buffer, bool) {
	p.priv.reserve()
	buf, ok := p.byBlock[block]
	if !ok {
		p.descs = append(p.descs, bufferDesc{block: block})
		buf = Buffer(len(p.descs))
		p.byBlock[block] = buf
	}
	p.pin(buf)
	return buf, p.desc(buf).valid
}

func (p *Pool) pin(buf Buffer) {
	d := p.desc(buf)
	p.priv.pin(buf)
	d.refcount++
	p.Pins++
	p.MaxPins = max(p.MaxPins, p.Pins)
}

// ReleaseBuffer is ReleaseBuffer → UnpinBuffer: drop one of this
// backend's pins.
func (p *Pool) ReleaseBuffer(buf Buffer) {
	d := p.desc(buf)
	if d.refcount < 1 || p.Pins < 1 {
		panic(fmt.Sprintf("aio: release of unpinned buffer %d", buf))
	}
	p.priv.unpin(buf)
	d.refcount--
	p.Pins--
}

// BufferGetBlockNumber is BufferGetBlockNumber.
func (p *Pool) BufferGetBlockNumber(buf Buffer) BlockNumber { return p.desc(buf).block }

// Valid reports whether block is in the pool and BM_VALID.
func (p *Pool) Valid(block BlockNumber) bool {
	b, ok := p.byBlock[block]
	return ok && p.desc(b).valid
}

// Reads is how many times a preadv filled block's buffer.
func (p *Pool) Reads(block BlockNumber) int {
	b, ok := p.byBlock[block]
	if !ok {
		return 0
	}
	return p.desc(b).reads
}

// bufferIsValid is the relaxed BM_VALID load StartReadBuffersImpl makes
// on a forwarded buffer.
func (p *Pool) bufferIsValid(buf Buffer) bool { return p.desc(buf).valid }

// overflowed is PrivateRefCountOverflowed.
func (p *Pool) overflowed() int { return p.priv.overflowed }

// GetAdditionalPinLimit (bufmgr.c, PG 18): MaxProportionalPins less the
// pins this backend is estimated to hold (PrivateRefCountOverflowed +
// REFCOUNT_ARRAY_ENTRIES), 0 when it holds more. Unlike 17's
// LimitAdditionalPins it can be 0, and the read stream asks it before
// every read (read_stream_start_pending_read), not once at the start.
func (p *Pool) GetAdditionalPinLimit(maxProportionalPins int) int {
	held := p.priv.overflowed + RefcountArrayEntries
	if held > maxProportionalPins {
		return 0
	}
	return maxProportionalPins - held
}

// IOInProgress reports whether block's buffer has BM_IO_IN_PROGRESS or an
// AIO pin.
func (p *Pool) IOInProgress(block BlockNumber) bool {
	b, ok := p.byBlock[block]
	if !ok {
		return false
	}
	d := p.desc(b)
	return d.ioInProgress || d.aioPin || d.ioWref.valid
}
