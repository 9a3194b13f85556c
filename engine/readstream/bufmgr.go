package readstream

import "fmt"

// Pool is the buffer manager as the read stream and PostgreSQL 17's
// StartReadBuffers/WaitReadBuffers see it: five steps of bufmgr.c, smgr.c
// and md.c that this package does not model itself. MemPool implements it
// with a set of valid blocks; engine/bufmgr's pool can implement it with
// its real BufferAlloc, StartBufferIO and TerminateBufferIO, under the
// scheduler.
//
// The stream reads one fork of one relation, so blocks are bare numbers:
// the pool knows the relation and fork.
type Pool interface {
	// PinBufferForBlock is PinBufferForBlock (bufmgr.c, PG 17): BufferAlloc
	// for block, so the buffer comes back pinned and tagged; found reports
	// that it was already BM_VALID. A buffer in the table but not valid
	// (another backend is reading it, a read failed, or a
	// StartReadBuffers has not been waited for yet) is not found.
	PinBufferForBlock(block BlockNumber) (buf Buffer, found bool)
	// Prefetch is smgrprefetch → mdprefetch: posix_fadvise(WILLNEED) over
	// nblocks blocks from block (READ_BUFFERS_ISSUE_ADVICE).
	Prefetch(block BlockNumber, nblocks int)
	// StartBufferIO is StartBufferIO(buf, forInput=true, nowait) as
	// WaitReadBuffersCanStartIO calls it for a shared buffer: true when the
	// caller now owns the read (BM_IO_IN_PROGRESS set by it); false when
	// the buffer is already valid, or, with nowait, when another backend's
	// I/O is in progress (without nowait it waits for that I/O first).
	StartBufferIO(buf Buffer, nowait bool) bool
	// ReadV is smgrreadv(first, len(bufs) blocks) into bufs, which hold
	// consecutive blocks from first, and then for each buffer
	// PageIsVerifiedExtended and TerminateBufferIO(BM_VALID).
	ReadV(first BlockNumber, bufs []Buffer)
	// ReleaseBuffer is ReleaseBuffer: drop one pin.
	ReleaseBuffer(buf Buffer)
	// BufferGetBlockNumber is BufferGetBlockNumber.
	BufferGetBlockNumber(buf Buffer) BlockNumber
}

// ReadBuffersFlag is a StartReadBuffers flag (bufmgr.h, PG 17 and 18).
type ReadBuffersFlag uint8

const (
	// ReadBuffersZeroOnError is READ_BUFFERS_ZERO_ON_ERROR (1<<0): zero a
	// damaged page instead of raising ERROR. No page contents are
	// modelled, so it changes nothing here.
	ReadBuffersZeroOnError ReadBuffersFlag = 1 << 0
	// ReadBuffersIssueAdvice is READ_BUFFERS_ISSUE_ADVICE (1<<1): call
	// smgrprefetch when I/O is needed. It also tells a 17 stream, after the
	// wait, to double its distance (behavior C). In 18 only io_method=sync
	// honours it (smgrprefetch in StartReadBuffersImpl).
	ReadBuffersIssueAdvice ReadBuffersFlag = 1 << 1
	// ReadBuffersIgnoreChecksumFailures is
	// READ_BUFFERS_IGNORE_CHECKSUM_FAILURES (1<<2), new in 18.
	ReadBuffersIgnoreChecksumFailures ReadBuffersFlag = 1 << 2
	// ReadBuffersSynchronously is READ_BUFFERS_SYNCHRONOUSLY (1<<3), new
	// in 18: the I/O is waited for at once (PGAIO_HF_SYNCHRONOUS). The
	// stream sets it when max_ios is 0; StartReadBuffersImpl under
	// io_method=sync.
	ReadBuffersSynchronously ReadBuffersFlag = 1 << 3
)

// ReadBuffersOperation is struct ReadBuffersOperation (bufmgr.h, PG 17):
// the caller sets the pool (rel, smgr, forknum and strategy in PostgreSQL);
// StartReadBuffers fills the rest for WaitReadBuffers when I/O is needed.
type ReadBuffersOperation struct {
	pool Pool
	log  *Log
	obs  Observer // pool, when it implements Observer

	// Private to StartReadBuffers and WaitReadBuffers.
	buffers      []Buffer // the caller's array, from the first block on
	blocknum     BlockNumber
	flags        ReadBuffersFlag
	nblocks      int // blocks covered: the readable range, plus a hit that ended it
	ioBuffersLen int // blocks of the readable range

	// The smgrreadv calls its WaitReadBuffers made, and their blocks.
	readVs, blocksRead int
}

// pool17 is PostgreSQL 17's buffer manager as a stream sees it: this
// package's StartReadBuffers and WaitReadBuffers over a Pool, recording
// the waits' reads into log.
type pool17 struct {
	pool Pool
	log  *Log
}

func (m pool17) NewOperation() Operation {
	op := NewReadBuffersOperation(m.pool, m.log)
	return &op
}

func (m pool17) ReleaseBuffer(buf Buffer)                    { m.pool.ReleaseBuffer(buf) }
func (m pool17) BufferGetBlockNumber(buf Buffer) BlockNumber { return m.pool.BufferGetBlockNumber(buf) }

// Start, StartOne and Wait are StartReadBuffers, StartReadBuffer and
// WaitReadBuffers for a stream, which records the starts itself.
func (op *ReadBuffersOperation) Start(buffers []Buffer, blockNum BlockNumber, nblocks *int, flags ReadBuffersFlag) bool {
	return startReadBuffersImpl(op, KindStartRead, buffers, blockNum, nblocks, flags)
}

func (op *ReadBuffersOperation) StartOne(buffer []Buffer, blockNum BlockNumber, flags ReadBuffersFlag) bool {
	n := 1
	return startReadBuffersImpl(op, KindStartReadOne, buffer[:1], blockNum, &n, flags)
}

func (op *ReadBuffersOperation) Wait() {
	calls, blocks := waitReadBuffers(op)
	op.readVs += calls
	op.blocksRead += blocks
}

// BlockNum is op->blocknum; IOBuffersLen op->io_buffers_len.
func (op *ReadBuffersOperation) BlockNum() BlockNumber { return op.blocknum }
func (op *ReadBuffersOperation) IOBuffersLen() int     { return op.ioBuffersLen }

// NewReadBuffersOperation is an operation on pool, recording into log
// (nil: no record).
func NewReadBuffersOperation(pool Pool, log *Log) ReadBuffersOperation {
	obs, _ := pool.(Observer)
	return ReadBuffersOperation{pool: pool, log: log, obs: obs}
}

// Observer is what a Pool may also implement to hear the buffer manager's
// calls as they begin and end, between the Pool steps they make:
// engine/bufmgr emits its trace events for them (the op that frames a
// StartReadBuffers' pins, or a WaitReadBuffers' reads). It sees every
// call, whether or not a Log records them.
type Observer interface {
	// Begin: a StartReadBuffers (KindStartRead), StartReadBuffer
	// (KindStartReadOne) or WaitReadBuffers (KindWait) call begins, at
	// block for n blocks (asked, or to read).
	Begin(k Kind, block BlockNumber, n int)
	// End: the call Begin announced ended; e is its record (a start's
	// event with the blocks covered and to read; for a wait, Block and N
	// as Begin's, IO the smgrreadv calls it made).
	End(e Event)
}

// begin and end tell op's observer, if any.
func (op *ReadBuffersOperation) begin(k Kind, block BlockNumber, n int) {
	if op.obs != nil {
		op.obs.Begin(k, block, n)
	}
}

func (op *ReadBuffersOperation) end(e Event) {
	if op.obs != nil {
		op.obs.End(e)
	}
}

// Flags is the flags the operation was started with.
func (op *ReadBuffersOperation) Flags() ReadBuffersFlag { return op.flags }

// StartReadBuffers is StartReadBuffers, i.e. StartReadBuffersImpl
// (bufmgr.c, PG 17.9). It pins buffers for *nblocks blocks from blockNum
// into buffers, one PinBufferForBlock each, and stops at the first block
// that is already valid: that hit is pinned and counted in *nblocks, but
// ends the range, so that one call never makes more than one readable run
// ("we don't want to create more than one readable range"). On return
// *nblocks is how many blocks it covered, at least 1.
//
// It returns false when the first block was a hit: no I/O, nothing to
// wait for. Otherwise it records the readable run in op (blocks
// blockNum..blockNum+io_buffers_len-1), issues advice over that run when
// flags ask for it, and returns true: WaitReadBuffers(op) must be called
// before the buffers are used. In PG 17 no read starts here; the read is
// synchronous, in WaitReadBuffers.
//
//	for i in 0 ..< *nblocks:
//	    buffers[i] = PinBufferForBlock(blockNum+i, &found)
//	    if found: actual = i+1; break       -- a hit ends the range
//	    io_buffers_len++
//	if io_buffers_len == 0: return false    -- first block was a hit
//	if flags & ISSUE_ADVICE: smgrprefetch(blockNum, io_buffers_len)
//	return true
//
// Cost: one buffer-table lookup (and on a miss, a victim) per block.
func StartReadBuffers(op *ReadBuffersOperation, buffers []Buffer, blockNum BlockNumber, nblocks *int, flags ReadBuffersFlag) bool {
	asked := *nblocks
	need := startReadBuffersImpl(op, KindStartRead, buffers, blockNum, nblocks, flags)
	op.log.add(startEvent(KindStartRead, op, blockNum, asked, *nblocks, need, flags))
	return need
}

// StartReadBuffer is StartReadBuffer (bufmgr.c, PG 17): StartReadBuffers
// for one block, which cannot come back short. buffers must have room for
// one buffer; it stays op's buffer array until WaitReadBuffers.
func StartReadBuffer(op *ReadBuffersOperation, buffer []Buffer, blockNum BlockNumber, flags ReadBuffersFlag) bool {
	n := 1
	need := startReadBuffersImpl(op, KindStartReadOne, buffer[:1], blockNum, &n, flags)
	op.log.add(startEvent(KindStartReadOne, op, blockNum, 1, 1, need, flags))
	return need
}

// startEvent is the record of a StartReadBuffers call that covered
// covered of asked blocks from block, with op's readable run if need.
func startEvent(k Kind, op Operation, block BlockNumber, asked, covered int, need bool, flags ReadBuffersFlag) Event {
	e := Event{Kind: k, Block: block, Asked: asked, N: covered, Wait: need, Advice: flags&ReadBuffersIssueAdvice != 0}
	if need {
		e.IO = op.IOBuffersLen()
	}
	return e
}

// startReadBuffersImpl is StartReadBuffersImpl; the exported functions
// and the stream record its call, k (KindStartRead, or KindStartReadOne
// for StartReadBuffer), in their logs; op's observer hears it here.
func startReadBuffersImpl(op *ReadBuffersOperation, k Kind, buffers []Buffer, blockNum BlockNumber, nblocks *int, flags ReadBuffersFlag) bool {
	asked := *nblocks
	if asked < 1 || asked > MaxIOCombineLimit || asked > len(buffers) {
		panic(fmt.Sprintf("readstream: StartReadBuffers(%d, %d) with room for %d buffers", blockNum, asked, len(buffers)))
	}
	op.begin(k, blockNum, asked)
	need := pinRange(op, buffers, blockNum, nblocks, flags)
	op.end(startEvent(k, op, blockNum, asked, *nblocks, need, flags))
	return need
}

// pinRange is StartReadBuffersImpl's work: a pin per block until the
// first valid one, and the operation's readable run.
func pinRange(op *ReadBuffersOperation, buffers []Buffer, blockNum BlockNumber, nblocks *int, flags ReadBuffersFlag) bool {
	asked := *nblocks
	actual := asked
	ioBuffersLen := 0
	for i := 0; i < actual; i++ {
		buf, found := op.pool.PinBufferForBlock(blockNum + BlockNumber(i))
		buffers[i] = buf
		if found {
			actual = i + 1 // this hit ends the range
			break
		}
		ioBuffersLen++
	}
	*nblocks = actual
	if ioBuffersLen == 0 {
		return false // the likely case in a cached scan: no I/O
	}
	op.buffers = buffers
	op.blocknum = blockNum
	op.flags = flags
	op.nblocks = actual
	op.ioBuffersLen = ioBuffersLen
	if flags&ReadBuffersIssueAdvice != 0 {
		op.pool.Prefetch(blockNum, ioBuffersLen)
	}
	return true
}

// WaitReadBuffers is WaitReadBuffers (bufmgr.c, PG 17.9): it performs the
// readable run StartReadBuffers recorded, synchronously. For each block of
// the run it first asks StartBufferIO (waiting) whether it must still read
// it; a block someone else completed meanwhile is skipped (and reported
// as a hit). From a block it must read, it extends the read over the next
// blocks as long as StartBufferIO(nowait) lets it, and reads them with one
// smgrreadv, then verifies and terminates each (TerminateBufferIO sets
// BM_VALID). So one call makes one smgrreadv for a run nobody else
// touched, and more when another backend read a block in the middle.
//
//	for i in 0 ..< io_buffers_len:
//	    if !WaitReadBuffersCanStartIO(buffers[i], nowait=false): continue
//	    first = blocknum+i; run = [buffers[i]]
//	    while i+1 < io_buffers_len and WaitReadBuffersCanStartIO(buffers[i+1], nowait=true):
//	        run += buffers[++i]
//	    smgrreadv(first, run)               -- one preadv (per 1GB segment)
//	    for each: PageIsVerifiedExtended; TerminateBufferIO(BM_VALID)
//
// pgBufferUsage.shared_blks_read counts the whole run, skipped blocks too,
// and pg_stat_io's reads (pgstat_count_io_op_time) count blocks, not calls.
// Cost: the smgrreadv calls, one system call each below a segment boundary.
func WaitReadBuffers(op *ReadBuffersOperation) {
	waitReadBuffers(op)
}

// waitReadBuffers is WaitReadBuffers; it returns how many smgrreadv calls
// it made and how many blocks they read.
func waitReadBuffers(op *ReadBuffersOperation) (calls, blocks int) {
	if op.nblocks != op.ioBuffersLen && op.nblocks != op.ioBuffersLen+1 {
		panic(fmt.Sprintf("readstream: WaitReadBuffers: %d blocks covered, %d to read", op.nblocks, op.ioBuffersLen))
	}
	nblocks := op.ioBuffersLen
	if nblocks == 0 {
		return 0, 0
	}
	wait := Event{Kind: KindWait, Block: op.blocknum, N: nblocks, Advice: op.flags&ReadBuffersIssueAdvice != 0}
	op.log.add(wait)
	op.begin(KindWait, op.blocknum, nblocks)
	defer func() {
		wait.IO = calls
		op.end(wait)
	}()
	for i := 0; i < nblocks; i++ {
		if !op.pool.StartBufferIO(op.buffers[i], false) {
			op.log.add(Event{Kind: KindSkipIO, Block: op.blocknum + BlockNumber(i)})
			continue
		}
		first := i
		for i+1 < nblocks && op.pool.StartBufferIO(op.buffers[i+1], true) {
			i++
		}
		run := op.buffers[first : i+1]
		op.pool.ReadV(op.blocknum+BlockNumber(first), run)
		op.log.add(Event{Kind: KindReadV, Block: op.blocknum + BlockNumber(first), N: len(run)})
		calls++
		blocks += len(run)
	}
	return calls, blocks
}
