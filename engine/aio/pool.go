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
// it, with one backend's private refcounts: the Buffers of the model
// alone (NewSystem's backend). It does not evict: every block asked for
// gets a buffer (the pool is big enough, as readstream.MemPool assumes).
// engine/bufmgr implements Buffers with its own pool.
type Pool struct {
	descs   []bufferDesc // buffer b is descs[b-1]
	byBlock map[BlockNumber]Buffer
	priv    privateRefCount
	be      *Backend // the backend reading through it (WaitIO waits as it)

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

// PinBufferForBlock is PinBufferForBlock → BufferAlloc (bufmgr.c):
// ReservePrivateRefCountEntry, the buffer-table lookup, a new buffer
// tagged but not valid on a miss; pinned either way. found is BM_VALID.
func (p *Pool) PinBufferForBlock(block BlockNumber) (Buffer, bool) {
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

// BufferIsValid is the relaxed BM_VALID load StartReadBuffersImpl makes
// on a forwarded buffer; AssertValid the same for an assertion.
func (p *Pool) BufferIsValid(buf Buffer) bool { return p.desc(buf).valid }
func (p *Pool) AssertValid(buf Buffer) bool   { return p.desc(buf).valid }

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

// StartBufferIO is StartBufferIO(buf, forInput=true, nowait) (bufmgr.c):
// wait for (nowait: give up on) an I/O in progress, false if the buffer is
// valid by then, else set BM_IO_IN_PROGRESS and return true.
func (p *Pool) StartBufferIO(buf Buffer, nowait bool) bool {
	for {
		d := p.desc(buf)
		if !d.ioInProgress {
			break
		}
		if nowait {
			return false
		}
		p.waitIO(buf)
	}
	d := p.desc(buf)
	if d.valid {
		return false
	}
	d.ioInProgress = true
	return true
}

// waitIO is WaitIO (bufmgr.c, PG 18): while BM_IO_IN_PROGRESS, wait on
// io_wref with pgaio_wref_wait if it is set (an asynchronous read);
// otherwise on the buffer's condition variable (someone's synchronous I/O:
// another backend, which this pool does not have).
func (p *Pool) waitIO(buf Buffer) {
	for {
		d := p.desc(buf)
		if !d.ioInProgress {
			return
		}
		if !d.ioWref.valid {
			panic(fmt.Sprintf("aio: buffer %d has I/O in progress with no io_wref (another backend's synchronous I/O is not modelled)", buf))
		}
		p.be.WrefWait(d.ioWref)
	}
}

// StageBuffer is buffer_stage_common for one buffer (see Buffers).
func (p *Pool) StageBuffer(buf Buffer, block BlockNumber, w WaitRef) {
	d := p.desc(buf)
	if d.block != block {
		panic(fmt.Sprintf("aio: staging buffer %d: it holds block %d, want %d", buf, d.block, block))
	}
	if d.valid || !d.ioInProgress || d.refcount < 1 || d.aioPin {
		panic(fmt.Sprintf("aio: staging buffer %d (block %d): valid %v, io in progress %v, refcount %d",
			buf, d.block, d.valid, d.ioInProgress, d.refcount))
	}
	d.refcount++
	d.aioPin = true
	d.ioWref = w
}

// Preadv fills bufs, each with its I/O in progress (by anyone: the pool
// has no processes of its own).
func (p *Pool) Preadv(_ Proc, block BlockNumber, bufs []Buffer) {
	for _, b := range bufs {
		d := p.desc(b)
		if !d.ioInProgress || d.valid {
			panic(fmt.Sprintf("aio: preadv into buffer %d (block %d) without its I/O in progress", b, d.block))
		}
		d.reads++
	}
}

// TerminateBufferIO clears BM_IO_IN_PROGRESS, sets BM_VALID if setValid,
// and with releaseAIO drops the AIO subsystem's pin and clears io_wref.
func (p *Pool) TerminateBufferIO(_ Proc, buf Buffer, setValid, releaseAIO bool) {
	d := p.desc(buf)
	if !d.ioInProgress {
		panic(fmt.Sprintf("aio: TerminateBufferIO on buffer %d without I/O in progress", buf))
	}
	d.ioInProgress = false
	if releaseAIO {
		if !d.aioPin || d.refcount < 1 {
			panic(fmt.Sprintf("aio: buffer %d has no AIO pin to release", buf))
		}
		d.refcount--
		d.aioPin = false
		d.ioWref = WaitRef{}
	}
	if setValid {
		d.valid = true
	}
}

// checkQuiet: no buffer with I/O in progress, and no shared refcount
// beyond the backend's pins.
func (p *Pool) checkQuiet() error {
	refs := 0
	for i := range p.descs {
		d := &p.descs[i]
		if d.ioInProgress || d.aioPin || d.ioWref.valid {
			return fmt.Errorf("aio: buffer %d (block %d) has I/O in progress at rest", i+1, d.block)
		}
		refs += d.refcount
	}
	if refs != p.Pins {
		return fmt.Errorf("aio: %d shared pins, the backend holds %d", refs, p.Pins)
	}
	return nil
}

var _ Buffers = (*Pool)(nil)
