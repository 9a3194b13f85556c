package readstream

import "fmt"

// Callback is a ReadStreamBlockNumberCB: the next block the stream's user
// wants, or InvalidBlockNumber at the end. It is called once per block, in
// order, as the stream looks ahead (never for a block it has been told
// already: an ungotten block is replayed from the stream's own buffer).
type Callback func() BlockNumber

// inProgressIO is an InProgressIO (read_stream.c): a started read that
// must be waited for before the buffer at bufferIndex is returned.
type inProgressIO struct {
	bufferIndex int
	op          ReadBuffersOperation
}

// ReadStream is struct ReadStream (read_stream.c, PG 17.9) for one fork of
// one relation, without per-buffer data (per_buffer_data_size 0, as the
// heap's sequential scan has it).
//
// The queue of buffers is circular: oldestBufferIndex is the next buffer
// to hand to the consumer, nextBufferIndex where the next read's buffers
// go; pinnedBuffers are between them. It has queueSize = max_pinned_buffers
// + 1 slots, plus io_combine_limit − 1 of overflow so that one read's
// buffers are contiguous (they are slid to the front afterwards):
//
//	 0                                    queueSize        + overflow
//	+----+----+----+----+----+----+----+----+- - - - - - - -+
//	|    | 42 | 43 | 44 | 60 |    |    |    |   spill of a   |
//	+----+----+----+----+----+----+----+----+   read at end  |
//	       ^oldest             ^next          - - - - - - - -+
//
// Beside it, ios is a circular queue of max_ios started reads (oldest at
// oldestIOIndex), each remembering the buffer index it must be waited for
// at. The pending read (pendingReadBlocknum, pendingReadNblocks) is the
// run of consecutive blocks collected from the callback but not yet given
// to StartReadBuffers: it grows up to io_combine_limit.
type ReadStream struct {
	pool Pool
	log  *Log
	cfg  Config

	maxIOs           int
	ioCombineLimit   int
	iosInProgress    int
	queueSize        int
	maxPinnedBuffers int
	pinnedBuffers    int
	distance         int
	adviceEnabled    bool

	bufferedBlocknum BlockNumber // one-block unget buffer
	callback         Callback

	seqBlocknum BlockNumber // next block if the access were sequential

	pendingReadBlocknum BlockNumber
	pendingReadNblocks  int

	ios           []inProgressIO
	oldestIOIndex int
	nextIOIndex   int

	fastPath bool

	oldestBufferIndex int
	nextBufferIndex   int
	buffers           []Buffer

	stats Stats
}

// Stats counts what one stream did. PostgreSQL 17's own counters count
// blocks (shared_blks_read in EXPLAIN (BUFFERS); pg_stat_io's reads, which
// WaitReadBuffers raises by a run's length): the number of smgrreadv calls
// is not among them.
type Stats struct {
	StartReads     int // StartReadBuffers and StartReadBuffer calls
	Waits          int // WaitReadBuffers calls with blocks to read
	ReadVs         int // smgrreadv calls
	BlocksRead     int // blocks those read
	Prefetches     int // smgrprefetch calls (advice)
	Delivered      int // buffers returned by NextBuffer
	MaxPinned      int // the most pinnedBuffers ever was
	FastPathBlocks int // buffers pinned by the fast path
}

// Begin is read_stream_begin_relation (read_stream.c, PG 17.9). It sizes
// the stream from cfg:
//
//	max_ios = effective_io_concurrency          (maintenance_io_concurrency
//	                                             with READ_STREAM_MAINTENANCE)
//	max_pinned_buffers = Max(max_ios * 4, io_combine_limit)
//	                   → Min(GetAccessStrategyPinLimit(strategy))
//	                   → LimitAdditionalPins
//	queue_size = max_pinned_buffers + 1
//	advice_enabled = USE_PREFETCH and not io_direct=data and not
//	                 READ_STREAM_SEQUENTIAL and max_ios > 0
//	max_ios 0 → 1 (one read at a time, no advice)
//	distance = READ_STREAM_FULL ? Min(max_pinned_buffers, io_combine_limit) : 1
//
// Not modelled: a tablespace's own effective_io_concurrency
// (get_tablespace_io_concurrency), catalog relations (which read the GUC
// directly: the same value without a tablespace setting), temporary
// relations (LimitAdditionalLocalPins) and per-buffer data.
func Begin(cfg Config, pool Pool, cb Callback, log *Log) (*ReadStream, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if pool == nil || cb == nil {
		return nil, fmt.Errorf("readstream: Begin needs a pool and a callback")
	}
	maxIOs := cfg.EffectiveIOConcurrency
	if cfg.Flags&Maintenance != 0 {
		maxIOs = cfg.MaintenanceIOConcurrency
	}
	maxIOs = min(maxIOs, int16Max)

	queueOverflow := cfg.IOCombineLimit - 1
	maxPinned := max(maxIOs*4, cfg.IOCombineLimit)
	maxPinned = min(maxPinned, int16Max-queueOverflow-1)
	maxPinned = min(GetAccessStrategyPinLimit(cfg.Strategy, cfg.NBuffers), maxPinned)
	maxPinned = LimitAdditionalPins(maxPinned, cfg.NBuffers, cfg.MaxBackends, cfg.PrivateRefCountOverflowed)
	if maxPinned <= 0 {
		panic("readstream: max_pinned_buffers must be positive")
	}
	queueSize := maxPinned + 1

	s := &ReadStream{
		pool:             pool,
		log:              log,
		cfg:              cfg,
		ioCombineLimit:   cfg.IOCombineLimit,
		maxPinnedBuffers: maxPinned,
		queueSize:        queueSize,
		callback:         cb,
		bufferedBlocknum: InvalidBlockNumber,
		buffers:          make([]Buffer, queueSize+queueOverflow),
		ios:              make([]inProgressIO, max(1, maxIOs)),
	}
	// USE_PREFETCH: advice unless direct I/O, a promise of sequential
	// access, or no concurrency at all.
	if !cfg.NoPrefetch && !cfg.DirectIOData && cfg.Flags&Sequential == 0 && maxIOs > 0 {
		s.adviceEnabled = true
	}
	if maxIOs == 0 {
		maxIOs = 1 // one synchronous read at a time, advice off above
	}
	s.maxIOs = maxIOs
	if cfg.Flags&Full != 0 {
		s.distance = min(maxPinned, s.ioCombineLimit) // skip the ramp-up (behavior B at once)
	} else {
		s.distance = 1 // assume cached (behavior A) until a read says otherwise
	}
	for i := range s.ios {
		s.ios[i].op = NewReadBuffersOperation(pool, log)
	}
	return s, nil
}

// Params is what Begin chose, as read_stream.c's fields name it.
type Params struct {
	MaxIOs           int
	IOCombineLimit   int
	MaxPinnedBuffers int
	QueueSize        int
	Distance         int
	AdviceEnabled    bool
}

// Params returns the stream's sizes and its current distance.
func (s *ReadStream) Params() Params {
	return Params{MaxIOs: s.maxIOs, IOCombineLimit: s.ioCombineLimit, MaxPinnedBuffers: s.maxPinnedBuffers,
		QueueSize: s.queueSize, Distance: s.distance, AdviceEnabled: s.adviceEnabled}
}

// String is "max_ios=1 io_combine_limit=16 max_pinned_buffers=16
// queue_size=17 distance=1 advice=off".
func (p Params) String() string {
	adv := "off"
	if p.AdviceEnabled {
		adv = "on"
	}
	return fmt.Sprintf("max_ios=%d io_combine_limit=%d max_pinned_buffers=%d queue_size=%d distance=%d advice=%s",
		p.MaxIOs, p.IOCombineLimit, p.MaxPinnedBuffers, p.QueueSize, p.Distance, adv)
}

// Stats returns the stream's counters.
func (s *ReadStream) Stats() Stats { return s.stats }

// PinnedBuffers is pinned_buffers: buffers the stream holds pinned and has
// not handed to the consumer.
func (s *ReadStream) PinnedBuffers() int { return s.pinnedBuffers }

// IOsInProgress is ios_in_progress: started reads not yet waited for.
func (s *ReadStream) IOsInProgress() int { return s.iosInProgress }

// Pending is the pending read: its first block and length (0: none).
func (s *ReadStream) Pending() (BlockNumber, int) { return s.pendingReadBlocknum, s.pendingReadNblocks }

// getBlock is read_stream_get_block (read_stream.c, PG 17.9): the ungotten
// block if there is one, else the callback's next.
func (s *ReadStream) getBlock() BlockNumber {
	if b := s.bufferedBlocknum; b != InvalidBlockNumber {
		s.bufferedBlocknum = InvalidBlockNumber
		return b
	}
	return s.callback()
}

// ungetBlock is read_stream_unget_block (read_stream.c, PG 17.9): hold a
// block the look-ahead took from the callback but cannot start yet (the I/O
// limit was reached).
func (s *ReadStream) ungetBlock(b BlockNumber) {
	if s.bufferedBlocknum != InvalidBlockNumber || b == InvalidBlockNumber {
		panic(fmt.Sprintf("readstream: unget of block %d with %d already held", b, s.bufferedBlocknum))
	}
	s.bufferedBlocknum = b
	s.event(Event{Kind: KindUnget, Block: b})
}

// setDistance changes the look-ahead distance and records why.
func (s *ReadStream) setDistance(d int, rule Rule) {
	if d == s.distance {
		return
	}
	before := s.distance
	s.distance = d
	s.event(Event{Kind: KindDistance, Before: before, After: d, Rule: rule})
}

// startPendingRead is read_stream_start_pending_read (read_stream.c, PG
// 17.9): hand the pending read to StartReadBuffers at the queue's next
// slot. StartReadBuffers may cover fewer blocks than asked (a hit ends the
// range); the rest stays pending, starting after what was covered.
//
//	flags = ISSUE_ADVICE if !suppress_advice and advice_enabled
//	        and pending_read_blocknum != seq_blocknum   -- not sequential
//	nblocks = pending_read_nblocks
//	need_wait = StartReadBuffers(ios[next_io_index].op, &buffers[next_buffer_index],
//	                             pending_read_blocknum, &nblocks, flags)
//	pinned_buffers += nblocks
//	if !need_wait: distance-- if > 1                    -- behavior A: all hits
//	else: ios[next_io_index] waits at that buffer index; ios_in_progress++
//	      seq_blocknum = pending_read_blocknum + nblocks
//	slide buffers past queue_size to the front
//	next_buffer_index += nblocks (wrapping)
//	pending_read_blocknum += nblocks; pending_read_nblocks -= nblocks
//
// Cost: nblocks PinBufferForBlock calls, one advice call if asked.
func (s *ReadStream) startPendingRead(suppressAdvice bool) {
	if s.pendingReadNblocks <= 0 || s.pendingReadNblocks > s.ioCombineLimit {
		panic(fmt.Sprintf("readstream: start of a pending read of %d blocks (io_combine_limit %d)", s.pendingReadNblocks, s.ioCombineLimit))
	}
	if s.pinnedBuffers+s.pendingReadNblocks > s.maxPinnedBuffers {
		panic(fmt.Sprintf("readstream: starting %d blocks with %d pinned exceeds max_pinned_buffers %d",
			s.pendingReadNblocks, s.pinnedBuffers, s.maxPinnedBuffers))
	}
	if (s.pinnedBuffers > 0) == (s.nextBufferIndex == s.oldestBufferIndex) {
		panic(fmt.Sprintf("readstream: queue indexes %d..%d disagree with %d pinned",
			s.oldestBufferIndex, s.nextBufferIndex, s.pinnedBuffers))
	}

	var flags ReadBuffersFlag
	if !suppressAdvice && s.adviceEnabled && s.pendingReadBlocknum != s.seqBlocknum {
		flags = ReadBuffersIssueAdvice
	}
	bufferIndex := s.nextBufferIndex
	ioIndex := s.nextIOIndex
	nblocks := s.pendingReadNblocks
	op := &s.ios[ioIndex].op
	needWait := startReadBuffersImpl(op, KindStartRead, s.buffers[bufferIndex:bufferIndex+nblocks], s.pendingReadBlocknum, &nblocks, flags)
	s.countStart(needWait, flags)
	s.pinnedBuffers += nblocks
	s.stats.MaxPinned = max(s.stats.MaxPinned, s.pinnedBuffers)

	if needWait {
		// WaitReadBuffers before returning the buffer at bufferIndex; the
		// distance is adjusted after that wait.
		s.ios[ioIndex].bufferIndex = bufferIndex
		s.nextIOIndex++
		if s.nextIOIndex == s.maxIOs {
			s.nextIOIndex = 0
		}
		if s.iosInProgress >= s.maxIOs {
			panic(fmt.Sprintf("readstream: %d reads in progress, max_ios %d", s.iosInProgress+1, s.maxIOs))
		}
		s.iosInProgress++
		s.seqBlocknum = s.pendingReadBlocknum + BlockNumber(nblocks)
	}

	// The read's buffers were written contiguously; those past the end of
	// the circular queue move to its front (memmove in PostgreSQL; the
	// overflow slots keep their copies, which op.buffers still points at).
	if overflow := bufferIndex + nblocks - s.queueSize; overflow > 0 {
		copy(s.buffers[:overflow], s.buffers[s.queueSize:s.queueSize+overflow])
	}
	bufferIndex += nblocks
	if bufferIndex >= s.queueSize {
		bufferIndex -= s.queueSize
	}
	s.nextBufferIndex = bufferIndex

	start := startEvent(KindStartRead, op, s.pendingReadBlocknum, s.pendingReadNblocks, nblocks, needWait, flags)
	s.pendingReadBlocknum += BlockNumber(nblocks)
	s.pendingReadNblocks -= nblocks
	s.event(start)
	if !needWait && s.distance > 1 {
		s.setDistance(s.distance-1, RuleA) // no I/O needed: decay
	}
}

// countStart counts a StartReadBuffers call and its advice.
func (s *ReadStream) countStart(needWait bool, flags ReadBuffersFlag) {
	s.stats.StartReads++
	if needWait && flags&ReadBuffersIssueAdvice != 0 {
		s.stats.Prefetches++
	}
}

// lookAhead is read_stream_look_ahead (read_stream.c, PG 17.9): take
// blocks from the callback while fewer than max_ios reads are in progress
// and pinned + pending is below the distance, merging each into the
// pending read when it is the next consecutive block.
//
//	while ios_in_progress < max_ios and pinned_buffers + pending_read_nblocks < distance:
//	    if pending_read_nblocks == io_combine_limit: start it; continue
//	    blocknum = read_stream_get_block()
//	    if blocknum == InvalidBlockNumber: distance = 0; break     -- end of stream
//	    if pending and pending_read_blocknum + pending_read_nblocks == blocknum:
//	        pending_read_nblocks++; continue                       -- merge
//	    while pending_read_nblocks > 0:                            -- not consecutive
//	        start it
//	        if ios_in_progress == max_ios: unget(blocknum); return
//	    pending = (blocknum, 1)
//	-- a short pending read waits to grow, unless it is full, or it fills
//	-- the distance with nothing pinned, or the stream has ended:
//	if pending and (pending == io_combine_limit
//	                or (pending == distance and pinned_buffers == 0)
//	                or distance == 0) and ios_in_progress < max_ios:
//	    start it
//
// Only the first read started in one call may be denied advice
// (suppress_advice: the very first read of the stream).
func (s *ReadStream) lookAhead(suppressAdvice bool) {
	for s.iosInProgress < s.maxIOs && s.pinnedBuffers+s.pendingReadNblocks < s.distance {
		if s.pendingReadNblocks == s.ioCombineLimit {
			s.startPendingRead(suppressAdvice)
			suppressAdvice = false
			continue
		}
		blocknum := s.getBlock()
		if blocknum == InvalidBlockNumber {
			s.setDistance(0, RuleEnd)
			break
		}
		if s.pendingReadNblocks > 0 && s.pendingReadBlocknum+BlockNumber(s.pendingReadNblocks) == blocknum {
			s.pendingReadNblocks++
			continue
		}
		for s.pendingReadNblocks > 0 {
			s.startPendingRead(suppressAdvice)
			suppressAdvice = false
			if s.iosInProgress == s.maxIOs {
				s.ungetBlock(blocknum) // the I/O limit: rewind, stop here
				return
			}
		}
		s.pendingReadBlocknum = blocknum
		s.pendingReadNblocks = 1
	}
	if s.pendingReadNblocks > 0 &&
		(s.pendingReadNblocks == s.ioCombineLimit ||
			(s.pendingReadNblocks == s.distance && s.pinnedBuffers == 0) ||
			s.distance == 0) &&
		s.iosInProgress < s.maxIOs {
		s.startPendingRead(suppressAdvice)
	}
}

// NextBuffer is read_stream_next_buffer (read_stream.c, PG 17.9): the next
// block's buffer, pinned, in the callback's order; InvalidBuffer at the end.
// The pin passes to the caller, who releases it.
//
// Fast path (behavior A, an all-cached scan with nothing in flight): the
// buffer pinned last time is returned, and the next block is pinned into
// the same queue slot with StartReadBuffer; if that is a hit, nothing else
// happens. A miss there leaves the fast path with one read in progress.
//
// Slow path:
//
//	if pinned_buffers == 0:
//	    if distance == 0: return InvalidBuffer                     -- ended
//	    read_stream_look_ahead(suppress_advice = true)             -- start up
//	    if pinned_buffers == 0: return InvalidBuffer
//	buffer = buffers[oldest_buffer_index]
//	if the oldest started read waits at this buffer:
//	    WaitReadBuffers(its op)                                    -- the read
//	    ios_in_progress--
//	    if its flags had ISSUE_ADVICE:                             -- behavior C
//	        distance = Min(distance * 2, max_pinned_buffers)
//	    elif distance > io_combine_limit: distance--               -- behavior B
//	    else: distance = Min(distance * 2, io_combine_limit, max_pinned_buffers)
//	pinned_buffers--; oldest_buffer_index++ (wrapping)
//	read_stream_look_ahead(suppress_advice = false)
//	fast_path = no reads in progress, 1 pinned, distance 1, nothing pending
//	return buffer
func (s *ReadStream) NextBuffer() Buffer {
	if s.fastPath && !s.cfg.DisableFastPath {
		return s.nextBufferFast()
	}
	if s.pinnedBuffers == 0 {
		if s.oldestBufferIndex != s.nextBufferIndex {
			panic("readstream: nothing pinned but the queue is not empty")
		}
		if s.distance == 0 {
			s.event(Event{Kind: KindEnd})
			return InvalidBuffer
		}
		s.lookAhead(true)
		if s.pinnedBuffers == 0 {
			if s.distance != 0 {
				panic("readstream: look-ahead pinned nothing before the end")
			}
			s.event(Event{Kind: KindEnd})
			return InvalidBuffer
		}
	}

	oldest := s.oldestBufferIndex
	buffer := s.buffers[oldest]
	if buffer == InvalidBuffer {
		panic(fmt.Sprintf("readstream: queue slot %d holds no buffer", oldest))
	}
	if s.iosInProgress > 0 && s.ios[s.oldestIOIndex].bufferIndex == oldest {
		ioIndex := s.oldestIOIndex
		op := &s.ios[ioIndex].op
		calls, blocks := waitReadBuffers(op)
		s.stats.Waits++
		s.stats.ReadVs += calls
		s.stats.BlocksRead += blocks
		s.iosInProgress--
		s.oldestIOIndex++
		if s.oldestIOIndex == s.maxIOs {
			s.oldestIOIndex = 0
		}
		if op.flags&ReadBuffersIssueAdvice != 0 {
			s.setDistance(min(s.distance*2, s.maxPinnedBuffers), RuleC) // ramps up fast
		} else if s.distance > s.ioCombineLimit {
			s.setDistance(s.distance-1, RuleB) // down towards io_combine_limit
		} else {
			s.setDistance(min(s.distance*2, s.ioCombineLimit, s.maxPinnedBuffers), RuleB)
		}
	}

	s.pinnedBuffers-- // the pin passes to the caller
	s.oldestBufferIndex++
	if s.oldestBufferIndex == s.queueSize {
		s.oldestBufferIndex = 0
	}

	s.lookAhead(false)

	if s.iosInProgress == 0 && s.pinnedBuffers == 1 && s.distance == 1 && s.pendingReadNblocks == 0 &&
		!s.cfg.DisableFastPath {
		s.fastPath = true
		s.event(Event{Kind: KindFastPath, After: 1})
	}
	s.deliver(buffer)
	return buffer
}

// nextBufferFast is read_stream_next_buffer's fast path (PG 17.9).
//
//	buffer = buffers[oldest_buffer_index]           -- pinned last call
//	next = read_stream_get_block()
//	if next valid:
//	    if !StartReadBuffer(&buffers[oldest_buffer_index], next,
//	                        advice_enabled ? ISSUE_ADVICE : 0):
//	        return buffer                           -- hit: stay on the fast path
//	    one read in progress, waiting at this slot; seq_blocknum = next + 1
//	else:
//	    distance = 0; the queue empties; pinned_buffers = 0
//	fast_path = false
//	return buffer
//
// Unlike the slow path it asks for advice on any miss, sequential or not.
func (s *ReadStream) nextBufferFast() Buffer {
	if s.iosInProgress != 0 || s.pinnedBuffers != 1 || s.distance != 1 || s.pendingReadNblocks != 0 {
		panic(fmt.Sprintf("readstream: fast path with %d reads, %d pinned, distance %d, %d pending",
			s.iosInProgress, s.pinnedBuffers, s.distance, s.pendingReadNblocks))
	}
	oldest := s.oldestBufferIndex
	if (oldest+1)%s.queueSize != s.nextBufferIndex {
		panic("readstream: fast path slot is not the one before the next")
	}
	buffer := s.buffers[oldest]

	next := s.getBlock()
	if next != InvalidBlockNumber {
		var flags ReadBuffersFlag
		if s.adviceEnabled {
			flags = ReadBuffersIssueAdvice
		}
		op := &s.ios[0].op
		n := 1
		need := startReadBuffersImpl(op, KindStartReadOne, s.buffers[oldest:oldest+1], next, &n, flags)
		s.countStart(need, flags)
		s.stats.FastPathBlocks++
		start := startEvent(KindStartReadOne, op, next, 1, 1, need, flags)
		if !need {
			s.event(start)
			s.deliver(buffer)
			return buffer // fast return: one pin handed over, one taken
		}
		// The next call must wait for this read.
		s.oldestIOIndex = 0
		s.nextIOIndex = 0
		if s.maxIOs > 1 {
			s.nextIOIndex = 1
		}
		s.iosInProgress = 1
		s.ios[0].bufferIndex = oldest
		s.seqBlocknum = next + 1
		s.event(start)
	} else {
		s.setDistance(0, RuleEnd)
		s.oldestBufferIndex = s.nextBufferIndex
		s.pinnedBuffers = 0
	}
	s.fastPath = false
	s.event(Event{Kind: KindFastPath, After: 0})
	s.deliver(buffer)
	return buffer
}

// deliver counts and records a buffer handed to the consumer.
func (s *ReadStream) deliver(buf Buffer) {
	s.stats.Delivered++
	if s.log != nil {
		s.event(Event{Kind: KindDeliver, Block: s.pool.BufferGetBlockNumber(buf)})
	}
}

// Reset is read_stream_reset (read_stream.c, PG 17.9): stop looking ahead
// (distance 0), forget the ungotten block and the fast path, and release
// every buffer still queued, which waits for (so performs) the reads in
// progress and starts what is pending. Then distance 1: the stream can be
// used again, assuming cached data.
func (s *ReadStream) Reset() {
	s.setDistance(0, RuleReset)
	s.bufferedBlocknum = InvalidBlockNumber
	s.fastPath = false
	for {
		buf := s.NextBuffer()
		if buf == InvalidBuffer {
			break
		}
		s.pool.ReleaseBuffer(buf)
	}
	if s.pinnedBuffers != 0 || s.iosInProgress != 0 {
		panic(fmt.Sprintf("readstream: reset leaves %d pinned, %d reads in progress", s.pinnedBuffers, s.iosInProgress))
	}
	s.setDistance(1, RuleReset)
}

// End is read_stream_end (read_stream.c, PG 17.9): Reset, then the stream
// is freed (do not use it).
func (s *ReadStream) End() { s.Reset() }

// event records e with the stream's state after it.
func (s *ReadStream) event(e Event) {
	if s.log == nil {
		return
	}
	e.Stamped = true
	e.Pinned = s.pinnedBuffers
	e.IOs = s.iosInProgress
	e.Distance = s.distance
	e.PendingBlock = s.pendingReadBlocknum
	e.Pending = s.pendingReadNblocks
	s.log.add(e)
}
