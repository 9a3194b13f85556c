package aio

import (
	"fmt"

	"bufferlab/engine/readstream"
)

// ReadBuffersOperation is struct ReadBuffersOperation (bufmgr.h, PG 18):
// the buffers, first block, flags and length of the operation, how many
// blocks are done (nblocks_done, new in 18), the wait reference of the
// AIO handle reading it (io_wref) and where its result lands (io_return).
type ReadBuffersOperation struct {
	be *Backend

	buffers     []Buffer
	blocknum    BlockNumber
	flags       readstream.ReadBuffersFlag
	nblocks     int
	nblocksDone int
	ioWref      WaitRef
	ioReturn    ioReturn
}

// NewReadBuffersOperation is an operation of backend be.
func NewReadBuffersOperation(be *Backend) ReadBuffersOperation {
	return ReadBuffersOperation{be: be}
}

// StartReadBuffers is StartReadBuffers → StartReadBuffersImpl(allow
// forwarding) (bufmgr.c, PG 18.4). buffers[i] holds InvalidBuffer or a
// buffer forwarded by the previous, split call for block blockNum+i.
//
//	for i in 0 ..< *nblocks:
//	    forwarded buffer: found = BM_VALID (relaxed read)
//	    else: buffers[i] = PinBufferForBlock(blockNum+i, &found)
//	    found and i == 0: *nblocks = 1; return false        -- a hit, no I/O
//	    found: actual = i; break     -- split; this buffer stays pinned, forwarded
//	    i == 0: actual = Min(actual, smgrmaxcombine(blockNum))  -- segment end
//	*nblocks = actual; op = (buffers, blockNum, flags, actual, done 0)
//	io_method != sync:
//	    did_start_io = AsyncReadBuffers(op, nblocks)   -- may shorten *nblocks
//	    op.nblocks = *nblocks
//	sync: flags |= SYNCHRONOUSLY; advice → smgrprefetch; did_start_io = true
//
// Unlike 17 a hit that ends a range is not counted in *nblocks: it is
// forwarded to the next call, pinned. It returns whether WaitReadBuffers
// must be called.
func StartReadBuffers(op *ReadBuffersOperation, buffers []Buffer, blockNum BlockNumber, nblocks *int, flags readstream.ReadBuffersFlag) bool {
	return startReadBuffersImpl(op, buffers, blockNum, nblocks, flags, true)
}

// StartReadBuffer is StartReadBuffer (bufmgr.c): one block, no forwarding.
func StartReadBuffer(op *ReadBuffersOperation, buffer []Buffer, blockNum BlockNumber, flags readstream.ReadBuffersFlag) bool {
	n := 1
	r := startReadBuffersImpl(op, buffer[:1], blockNum, &n, flags, false)
	if n != 1 {
		panic("aio: StartReadBuffer came back short")
	}
	return r
}

func startReadBuffersImpl(op *ReadBuffersOperation, buffers []Buffer, blockNum BlockNumber, nblocks *int, flags readstream.ReadBuffersFlag, allowForwarding bool) bool {
	s := op.be
	actual := *nblocks
	if actual < 1 || actual > MaxIOCombineLimit || actual > len(buffers) || (actual != 1 && !allowForwarding) {
		panic(fmt.Sprintf("aio: StartReadBuffers(%d, %d) with room for %d", blockNum, actual, len(buffers)))
	}
	pool := s.Buffers
	for i := 0; i < actual; i++ {
		var found bool
		if allowForwarding && buffers[i] != InvalidBuffer {
			if pool.BufferGetBlockNumber(buffers[i]) != blockNum+BlockNumber(i) {
				panic(fmt.Sprintf("aio: forwarded buffer %d holds block %d, want %d", buffers[i], pool.BufferGetBlockNumber(buffers[i]), blockNum+BlockNumber(i)))
			}
			found = pool.BufferIsValid(buffers[i])
		} else {
			buffers[i], found = pool.PinBufferForBlock(blockNum + BlockNumber(i))
		}
		if found {
			if i == 0 {
				*nblocks = 1
				op.buffers, op.blocknum, op.nblocks, op.nblocksDone = buffers, blockNum, 1, 1
				return false
			}
			actual = i // split: the hit is forwarded
			break
		}
		if i == 0 && actual > 1 {
			if mc := int(RelSegSize - blockNum%RelSegSize); mc < actual {
				actual = mc // smgrmaxcombine → mdmaxcombine
			}
		}
	}
	*nblocks = actual
	op.buffers = buffers
	op.blocknum = blockNum
	op.flags = flags
	op.nblocks = actual
	op.nblocksDone = 0
	op.ioWref = WaitRef{}
	if s.cfg.IOMethod != Sync {
		did := asyncReadBuffers(op, nblocks)
		op.nblocks = *nblocks
		op.check(!did)
		return did
	}
	op.flags |= readstream.ReadBuffersSynchronously
	if flags&readstream.ReadBuffersIssueAdvice != 0 {
		s.event(Event{Kind: KindPrefetch, Block: blockNum, N: actual})
	}
	op.check(false)
	return true
}

// check is CheckReadBuffersOperation (bufmgr.c): blocks consecutive, the
// first nblocks_done valid; all of them when complete.
func (op *ReadBuffersOperation) check(complete bool) {
	if op.nblocksDone > op.nblocks || (complete && op.nblocksDone != op.nblocks) {
		panic(fmt.Sprintf("aio: operation at %d: %d of %d blocks done (complete %v)", op.blocknum, op.nblocksDone, op.nblocks, complete))
	}
	bufs := op.be.Buffers
	for i := 0; i < op.nblocks; i++ {
		block := bufs.BufferGetBlockNumber(op.buffers[i])
		if block != op.blocknum+BlockNumber(i) {
			panic(fmt.Sprintf("aio: operation at %d: buffer %d holds block %d", op.blocknum, i, block))
		}
		if i < op.nblocksDone && !bufs.AssertValid(op.buffers[i]) {
			panic(fmt.Sprintf("aio: operation at %d: block %d done but not BM_VALID", op.blocknum, block))
		}
	}
}

// readBuffersCanStartIO is ReadBuffersCanStartIO (bufmgr.c, PG 18): before
// a waiting StartBufferIO, submit this backend's staged I/O (it may be
// what it would wait for).
func (s *Backend) readBuffersCanStartIO(buf Buffer, nowait bool) bool {
	if !nowait && s.haveStaged() {
		if s.Buffers.StartBufferIO(buf, true) {
			return true
		}
		s.submitStaged()
	}
	return s.Buffers.StartBufferIO(buf, nowait)
}

// asyncReadBuffers is AsyncReadBuffers (bufmgr.c, PG 18.4): start one I/O
// for the operation from nblocks_done on.
//
//	ioh = pgaio_io_acquire_nb(); none: pgaio_submit_staged; pgaio_io_acquire
//	if !ReadBuffersCanStartIO(buffers[done], wait):   -- someone read it
//	    nblocks_done++; *progress = 1; pgaio_io_release; return false
//	io_buffers_len = 1
//	while the next buffer's StartBufferIO(nowait) succeeds: io_buffers_len++
//	op.io_wref = the handle's; handle data = the buffers;
//	callbacks PGAIO_HCB_SHARED_BUFFER_READV; READ_BUFFERS_SYNCHRONOUSLY →
//	PGAIO_HF_SYNCHRONOUS
//	smgrstartreadv(ioh, blocknum, io_buffers_len)  -- stage (and maybe submit)
//	*progress = io_buffers_len; return true
//
// BM_IO_IN_PROGRESS is set by this backend (StartBufferIO) before the I/O
// is staged; from staging on the handle owns the buffers' I/O (it holds a
// pin and the buffers' io_wref point at it) and whoever completes the I/O
// clears the flag.
func asyncReadBuffers(op *ReadBuffersOperation, progress *int) bool {
	s := op.be
	done := op.nblocksDone
	blocknum := op.blocknum + BlockNumber(done)
	h := s.acquireNB(&op.ioReturn)
	if h == nil {
		s.submitStaged()
		h = s.acquire(&op.ioReturn)
	}
	if !s.readBuffersCanStartIO(op.buffers[done], false) {
		op.nblocksDone++
		*progress = 1
		s.release(h)
		op.ioWref = WaitRef{}
		s.event(Event{Kind: KindAlreadyDone, Block: blocknum, N: 1})
		return false
	}
	n := 1
	for i := done + 1; i < op.nblocks; i++ {
		if !s.readBuffersCanStartIO(op.buffers[i], true) {
			break
		}
		n++
	}
	op.ioWref = s.wref(h)
	h.buffers = append([]Buffer(nil), op.buffers[done:done+n]...)
	h.block = blocknum
	h.synchronous = op.flags&readstream.ReadBuffersSynchronously != 0
	s.event(Event{Kind: KindAsyncRead, Block: blocknum, N: n, Handle: h.id})
	s.stage(h)
	*progress = n
	return true
}

// WaitReadBuffers is WaitReadBuffers (bufmgr.c, PG 18.4):
//
//	loop:
//	    if op has an I/O:
//	        if its result is unknown and !pgaio_wref_check_done:
//	            pgaio_wref_wait                  -- sleep until completed
//	        ProcessReadBuffersResult: nblocks_done += blocks read
//	    if nblocks_done == nblocks: break
//	    AsyncReadBuffers(op)        -- io_method=sync starts its reads here;
//	                                   otherwise a retry for what is left
//
// Under io_method=sync the first pass has no I/O, so the reads are made
// here, synchronously, as in 17.
func WaitReadBuffers(op *ReadBuffersOperation) {
	s := op.be
	if !op.ioWref.valid && s.cfg.IOMethod != Sync {
		panic("aio: waiting for read operation that didn't read")
	}
	s.event(Event{Kind: KindWaitRead, Block: op.blocknum, N: op.nblocks})
	for {
		op.check(false)
		if op.ioWref.valid {
			if op.ioReturn.status == rsUnknown && !s.wrefCheckDone(op.ioWref) {
				s.wrefWait(op.ioWref)
			}
			if op.ioReturn.status != rsOK || op.ioReturn.result < 1 {
				panic(fmt.Sprintf("aio: operation at %d: no result after its I/O", op.blocknum))
			}
			op.nblocksDone += op.ioReturn.result // ProcessReadBuffersResult
			// The latency model: the blocks are there only once the read
			// ended, however early the backend learned of it.
			s.now = max(s.now, op.ioReturn.doneAt)
			op.ioReturn = ioReturn{}
			op.ioWref = WaitRef{}
		}
		if op.nblocksDone == op.nblocks {
			break
		}
		var ignored int
		asyncReadBuffers(op, &ignored)
	}
	op.check(true)
}
