package aio

import "fmt"

// Callback is a ReadStreamBlockNumberCB: the next block, or
// InvalidBlockNumber at the end.
type Callback func() BlockNumber

type inProgressIO struct {
	bufferIndex int
	op          ReadBuffersOperation
}

// ReadStream is struct ReadStream (read_stream.c, PG 18.4) without
// per-buffer data. Beside 17's fields it has forwarded_buffers (pins a
// split StartReadBuffers left for the next call), initialized_buffers,
// read_buffers_flags (READ_BUFFERS_SYNCHRONOUSLY when max_ios was 0),
// sync_mode (io_method=sync), batch_mode (READ_STREAM_USE_BATCHING) and
// seq_until_processed (the advice heuristic).
type ReadStream struct {
	be  *Backend
	cfg Config

	maxIOs             int
	ioCombineLimit     int
	iosInProgress      int
	queueSize          int
	maxPinnedBuffers   int
	forwardedBuffers   int
	pinnedBuffers      int
	distance           int
	initializedBuffers int
	readBuffersFlags   ReadBuffersFlag
	syncMode           bool
	batchMode          bool
	adviceEnabled      bool

	bufferedBlocknum  BlockNumber
	callback          Callback
	seqBlocknum       BlockNumber
	seqUntilProcessed BlockNumber

	pendingReadBlocknum BlockNumber
	pendingReadNblocks  int

	ios           []inProgressIO
	oldestIOIndex int
	nextIOIndex   int

	fastPath bool

	oldestBufferIndex int
	nextBufferIndex   int
	buffers           []Buffer

	stats StreamStats
}

// StreamStats counts what one stream did.
type StreamStats struct {
	StartReads  int // StartReadBuffers/StartReadBuffer calls
	WaitReads   int // WaitReadBuffers calls
	Delivered   int
	MaxPinned   int // the most pinned_buffers was
	MaxIOs      int // the most ios_in_progress was
	PinLimited  int // reads the per-backend pin limit shortened or deferred
	MaxDistance int
}

// Begin is read_stream_begin_impl (read_stream.c, PG 18.4):
//
//	max_ios = effective_io_concurrency (maintenance_io_concurrency with
//	          READ_STREAM_MAINTENANCE), capped at PG_INT16_MAX
//	max_pinned_buffers = (max_ios + 1) * io_combine_limit     -- 17: Max(4·max_ios, icl)
//	                   → Min(GetAccessStrategyPinLimit(strategy))
//	                   → Min(GetPinLimit())                    -- 17: LimitAdditionalPins
//	                   → Max(1, ...)
//	queue_size = max_pinned_buffers + 1 (+ io_combine_limit - 1 of overflow)
//	sync_mode = io_method == sync; batch_mode = READ_STREAM_USE_BATCHING
//	advice_enabled = sync_mode and not io_direct=data and not SEQUENTIAL
//	                 and max_ios > 0                           -- 17: no sync_mode
//	max_ios 0 → 1 with read_buffers_flags = READ_BUFFERS_SYNCHRONOUSLY
//	distance = FULL ? Min(max_pinned_buffers, io_combine_limit) : 1
func Begin(be *Backend, cb Callback) (*ReadStream, error) {
	if be == nil {
		return nil, fmt.Errorf("aio: Begin needs a backend and a callback")
	}
	return BeginWith(be, be.cfg.Flags, be.cfg.Strategy, cb)
}

// BeginWith is Begin for a stream with its own flags and strategy (the
// system's Config gives the GUCs): read_stream_begin_relation's arguments,
// as heap_beginscan passes them for each scan.
func BeginWith(be *Backend, flags Flags, strategy Strategy, cb Callback) (*ReadStream, error) {
	if be == nil || cb == nil {
		return nil, fmt.Errorf("aio: Begin needs a backend and a callback")
	}
	if strategy.Type != NoStrategy && strategy.Buffers < 1 {
		return nil, fmt.Errorf("aio: a ring strategy needs at least 1 buffer")
	}
	cfg := be.cfg
	cfg.Flags, cfg.Strategy = flags, strategy
	maxIOs := cfg.EffectiveIOConcurrency
	if cfg.Flags&Maintenance != 0 {
		maxIOs = cfg.MaintenanceIOConcurrency
	}
	maxIOs = min(maxIOs, int16Max)
	icl := cfg.IOCombineLimit()
	queueOverflow := icl - 1
	maxPinned := (maxIOs + 1) * icl
	maxPinned = min(maxPinned, int16Max-queueOverflow-1)
	maxPinned = min(GetAccessStrategyPinLimit(cfg.Strategy, cfg.NBuffers), maxPinned)
	maxPinned = min(maxPinned, be.maxPinsPer) // GetPinLimit
	maxPinned = max(1, maxPinned)
	queueSize := maxPinned + 1
	s := &ReadStream{
		be: be, cfg: cfg,
		ioCombineLimit:    icl,
		maxPinnedBuffers:  maxPinned,
		queueSize:         queueSize,
		callback:          cb,
		bufferedBlocknum:  InvalidBlockNumber,
		seqBlocknum:       InvalidBlockNumber,
		seqUntilProcessed: InvalidBlockNumber,
		buffers:           make([]Buffer, queueSize+queueOverflow),
		ios:               make([]inProgressIO, max(1, maxIOs)),
		syncMode:          cfg.IOMethod == Sync,
		batchMode:         cfg.Flags&UseBatching != 0,
	}
	if s.syncMode && !cfg.DirectIOData && cfg.Flags&Sequential == 0 && maxIOs > 0 {
		s.adviceEnabled = true
	}
	if maxIOs == 0 {
		maxIOs = 1
		s.readBuffersFlags = ReadBuffersSynchronously
	}
	s.maxIOs = maxIOs
	if cfg.Flags&Full != 0 {
		s.distance = min(maxPinned, icl)
	} else {
		s.distance = 1
	}
	for i := range s.ios {
		s.ios[i].op = NewReadBuffersOperation(be)
	}
	s.stats.MaxDistance = s.distance
	return s, nil
}

// Params is what Begin chose.
type Params struct {
	MaxIOs, IOCombineLimit, MaxPinnedBuffers, QueueSize, Distance int
	AdviceEnabled, SyncMode, BatchMode                            bool
}

// Params returns the stream's sizes and current distance.
func (s *ReadStream) Params() Params {
	return Params{MaxIOs: s.maxIOs, IOCombineLimit: s.ioCombineLimit, MaxPinnedBuffers: s.maxPinnedBuffers,
		QueueSize: s.queueSize, Distance: s.distance, AdviceEnabled: s.adviceEnabled, SyncMode: s.syncMode, BatchMode: s.batchMode}
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// String is "max_ios=16 io_combine_limit=16 max_pinned_buffers=94 ...".
func (p Params) String() string {
	return fmt.Sprintf("max_ios=%d io_combine_limit=%d max_pinned_buffers=%d queue_size=%d distance=%d advice=%s sync_mode=%s batch_mode=%s",
		p.MaxIOs, p.IOCombineLimit, p.MaxPinnedBuffers, p.QueueSize, p.Distance, onOff(p.AdviceEnabled), onOff(p.SyncMode), onOff(p.BatchMode))
}

// Stats returns the stream's counters.
func (s *ReadStream) Stats() StreamStats { return s.stats }

// PinnedBuffers is pinned_buffers; ForwardedBuffers forwarded_buffers;
// IOsInProgress ios_in_progress.
func (s *ReadStream) PinnedBuffers() int    { return s.pinnedBuffers }
func (s *ReadStream) ForwardedBuffers() int { return s.forwardedBuffers }
func (s *ReadStream) IOsInProgress() int    { return s.iosInProgress }

func (s *ReadStream) getBlock() BlockNumber {
	if b := s.bufferedBlocknum; b != InvalidBlockNumber {
		s.bufferedBlocknum = InvalidBlockNumber
		return b
	}
	return s.callback()
}

func (s *ReadStream) ungetBlock(b BlockNumber) {
	if s.bufferedBlocknum != InvalidBlockNumber || b == InvalidBlockNumber {
		panic(fmt.Sprintf("aio: unget of block %d with %d already held", b, s.bufferedBlocknum))
	}
	s.bufferedBlocknum = b
	s.event(Event{Kind: KindUnget, Block: b})
}

func (s *ReadStream) setDistance(d int, why string) {
	if d == s.distance {
		return
	}
	before := s.distance
	s.distance = d
	s.stats.MaxDistance = max(s.stats.MaxDistance, d)
	s.event(Event{Kind: KindDistance, N: before, Asked: d, Who: why})
}

// startPendingRead is read_stream_start_pending_read (read_stream.c, PG
// 18.4). New in 18: the advice heuristic (seq_until_processed), the
// per-backend pin limit asked before each read, forwarded buffers, and a
// false return when nothing could be started.
//
//	flags = read_buffers_flags
//	advice_enabled (sync only):
//	    pending == seq_blocknum: advice if seq_until_processed is set
//	    else (a jump): seq_until_processed = pending; advice if pinned > 0
//	buffer_limit = Min(GetAdditionalPinLimit(), INT16_MAX) + forwarded_buffers
//	buffer_limit == 0 and pinned == 0: buffer_limit = 1     -- progress
//	buffer_limit < nblocks:
//	    distance = Min(distance, pinned + buffer_limit)
//	    pinned > 0: return false                          -- wait for releases
//	    nblocks = buffer_limit                            -- a short read
//	need_wait = StartReadBuffers(ios[next_io_index].op, &buffers[next], pending, &nblocks, flags)
//	pinned += nblocks
//	!need_wait: distance-- if > 1
//	else: ios[next_io_index] waits at this index; ios_in_progress++;
//	      seq_blocknum = pending + nblocks
//	forwarded_buffers = pinned buffers left after nblocks (up to requested)
//	copy the overflow to the front; next_buffer_index += nblocks;
//	pending_read_blocknum += nblocks; pending_read_nblocks -= nblocks
func (s *ReadStream) startPendingRead() bool {
	if s.pendingReadNblocks <= 0 || s.pendingReadNblocks > s.ioCombineLimit {
		panic(fmt.Sprintf("aio: start of a pending read of %d blocks (io_combine_limit %d)", s.pendingReadNblocks, s.ioCombineLimit))
	}
	if s.pinnedBuffers+s.pendingReadNblocks > s.maxPinnedBuffers {
		panic(fmt.Sprintf("aio: starting %d blocks with %d pinned exceeds max_pinned_buffers %d",
			s.pendingReadNblocks, s.pinnedBuffers, s.maxPinnedBuffers))
	}
	if (s.pinnedBuffers > 0) == (s.nextBufferIndex == s.oldestBufferIndex) {
		panic(fmt.Sprintf("aio: queue indexes %d..%d disagree with %d pinned", s.oldestBufferIndex, s.nextBufferIndex, s.pinnedBuffers))
	}
	if s.forwardedBuffers > s.pendingReadNblocks {
		panic(fmt.Sprintf("aio: %d forwarded buffers for a pending read of %d", s.forwardedBuffers, s.pendingReadNblocks))
	}
	for i := 0; i < s.forwardedBuffers; i++ {
		if b := s.buffers[s.nextBufferIndex+i]; s.be.Buffers.BufferGetBlockNumber(b) != s.pendingReadBlocknum+BlockNumber(i) {
			panic(fmt.Sprintf("aio: forwarded buffer %d holds block %d, pending read at %d", i, s.be.Buffers.BufferGetBlockNumber(b), s.pendingReadBlocknum))
		}
	}

	flags := s.readBuffersFlags
	if s.adviceEnabled {
		if s.pendingReadBlocknum == s.seqBlocknum {
			if s.seqUntilProcessed != InvalidBlockNumber {
				flags |= ReadBuffersIssueAdvice
			}
		} else {
			s.seqUntilProcessed = s.pendingReadBlocknum
			if s.pinnedBuffers > 0 {
				flags |= ReadBuffersIssueAdvice
			}
		}
	}

	bufferLimit := min(s.be.Buffers.GetAdditionalPinLimit(s.be.maxPinsPer), int16Max)
	bufferLimit = min(bufferLimit+s.forwardedBuffers, int16Max)
	if bufferLimit == 0 && s.pinnedBuffers == 0 {
		bufferLimit = 1
	}
	nblocks := s.pendingReadNblocks
	if bufferLimit < nblocks {
		s.stats.PinLimited++
		if nd := s.pinnedBuffers + bufferLimit; s.distance > nd {
			s.setDistance(nd, "pin limit")
		}
		if s.pinnedBuffers > 0 {
			s.event(Event{Kind: KindPinLimit, Block: s.pendingReadBlocknum, N: nblocks, Asked: bufferLimit})
			return false
		}
		nblocks = bufferLimit
	}

	bufferIndex := s.nextBufferIndex
	ioIndex := s.nextIOIndex
	for s.initializedBuffers < bufferIndex+nblocks {
		s.buffers[s.initializedBuffers] = InvalidBuffer
		s.initializedBuffers++
	}
	requested := nblocks
	asked := nblocks
	op := &s.ios[ioIndex].op
	s.stats.StartReads++
	s.event(Event{Kind: KindStartRead, Block: s.pendingReadBlocknum, Asked: asked})
	needWait := StartReadBuffers(op, s.buffers[bufferIndex:bufferIndex+nblocks], s.pendingReadBlocknum, &nblocks, flags)
	s.pinnedBuffers += nblocks
	s.stats.MaxPinned = max(s.stats.MaxPinned, s.pinnedBuffers)

	if !needWait {
		if s.distance > 1 {
			s.setDistance(s.distance-1, "hit")
		}
	} else {
		s.ios[ioIndex].bufferIndex = bufferIndex
		s.nextIOIndex++
		if s.nextIOIndex == s.maxIOs {
			s.nextIOIndex = 0
		}
		if s.iosInProgress >= s.maxIOs {
			panic(fmt.Sprintf("aio: %d reads in progress, max_ios %d", s.iosInProgress+1, s.maxIOs))
		}
		s.iosInProgress++
		s.stats.MaxIOs = max(s.stats.MaxIOs, s.iosInProgress)
		s.seqBlocknum = s.pendingReadBlocknum + BlockNumber(nblocks)
	}

	forwarded := 0
	for nblocks+forwarded < requested && s.buffers[bufferIndex+nblocks+forwarded] != InvalidBuffer {
		forwarded++
	}
	s.forwardedBuffers = forwarded

	if overflow := bufferIndex + nblocks + forwarded - s.queueSize; overflow > 0 {
		copy(s.buffers[:overflow], s.buffers[s.queueSize:s.queueSize+overflow])
	}
	bufferIndex += nblocks
	if bufferIndex >= s.queueSize {
		bufferIndex -= s.queueSize
	}
	s.nextBufferIndex = bufferIndex
	start := s.pendingReadBlocknum
	s.pendingReadBlocknum += BlockNumber(nblocks)
	s.pendingReadNblocks -= nblocks
	s.event(Event{Kind: KindStarted, Block: start, Asked: asked, N: nblocks, Wait: needWait, Advice: flags&ReadBuffersIssueAdvice != 0, Handle: forwarded})
	return true
}

// lookAhead is read_stream_look_ahead (read_stream.c, PG 18.4): as 17's,
// inside AIO batch mode when the stream asked for it, and stopping with
// an ungotten block when a read could not start for lack of pins. The
// final start of a short read now fires when the pending read has reached
// at least the distance ( >= ; 17: == ), since a pin limit can shrink the
// distance below it.
func (s *ReadStream) lookAhead() {
	if s.batchMode {
		s.be.enterBatchmode()
	}
	for s.iosInProgress < s.maxIOs && s.pinnedBuffers+s.pendingReadNblocks < s.distance {
		if s.pendingReadNblocks == s.ioCombineLimit {
			s.startPendingRead()
			continue
		}
		blocknum := s.getBlock()
		if blocknum == InvalidBlockNumber {
			s.setDistance(0, "end")
			break
		}
		if s.pendingReadNblocks > 0 && s.pendingReadBlocknum+BlockNumber(s.pendingReadNblocks) == blocknum {
			s.pendingReadNblocks++
			continue
		}
		for s.pendingReadNblocks > 0 {
			if !s.startPendingRead() || s.iosInProgress == s.maxIOs {
				s.ungetBlock(blocknum)
				if s.batchMode {
					s.be.exitBatchmode()
				}
				return
			}
		}
		s.pendingReadBlocknum = blocknum
		s.pendingReadNblocks = 1
	}
	if s.pendingReadNblocks > 0 &&
		(s.pendingReadNblocks == s.ioCombineLimit ||
			(s.pendingReadNblocks >= s.distance && s.pinnedBuffers == 0) ||
			s.distance == 0) &&
		s.iosInProgress < s.maxIOs {
		s.startPendingRead()
	}
	if s.pinnedBuffers == 0 && s.distance != 0 {
		panic("aio: look-ahead left nothing pinned before the end")
	}
	if s.batchMode {
		s.be.exitBatchmode()
	}
}

// NextBuffer is read_stream_next_buffer (read_stream.c, PG 18.4). The
// slow path is 17's but for the distance after a wait, which always
// doubles up to max_pinned_buffers (17 had behaviors B and C), and the
// advice heuristic that stops advising once the reads reach the first
// block of a sequential region (sync only).
//
//	pinned == 0: ended if distance 0; else look ahead to start up
//	buffer = buffers[oldest]
//	the oldest I/O waits at oldest:
//	    WaitReadBuffers(op); ios_in_progress--
//	    distance = Min(distance * 2, max_pinned_buffers)
//	    advice and op.blocknum == seq_until_processed: stop advising
//	clear the slot (and its overflow copy); pinned--; oldest++
//	look ahead
//	fast path next time if no I/O, nothing forwarded, 1 pinned,
//	distance 1, nothing pending
func (s *ReadStream) NextBuffer() Buffer {
	if s.fastPath && !s.cfg.DisableFastPath {
		return s.nextBufferFast()
	}
	if s.pinnedBuffers == 0 {
		if s.oldestBufferIndex != s.nextBufferIndex {
			panic("aio: nothing pinned but the queue is not empty")
		}
		if s.distance == 0 {
			s.event(Event{Kind: KindEnd})
			return InvalidBuffer
		}
		s.lookAhead()
		if s.pinnedBuffers == 0 {
			s.event(Event{Kind: KindEnd})
			return InvalidBuffer
		}
	}
	oldest := s.oldestBufferIndex
	buffer := s.buffers[oldest]
	if buffer == InvalidBuffer {
		panic(fmt.Sprintf("aio: queue slot %d holds no buffer", oldest))
	}
	if s.iosInProgress > 0 && s.ios[s.oldestIOIndex].bufferIndex == oldest {
		ioIndex := s.oldestIOIndex
		op := &s.ios[ioIndex].op
		s.stats.WaitReads++
		WaitReadBuffers(op)
		s.iosInProgress--
		s.oldestIOIndex++
		if s.oldestIOIndex == s.maxIOs {
			s.oldestIOIndex = 0
		}
		s.setDistance(min(s.distance*2, s.maxPinnedBuffers), "I/O")
		if s.adviceEnabled && op.blocknum == s.seqUntilProcessed {
			s.seqUntilProcessed = InvalidBlockNumber
		}
	}
	s.buffers[oldest] = InvalidBuffer
	if oldest < s.ioCombineLimit-1 {
		s.buffers[s.queueSize+oldest] = InvalidBuffer
	}
	s.pinnedBuffers--
	s.oldestBufferIndex++
	if s.oldestBufferIndex == s.queueSize {
		s.oldestBufferIndex = 0
	}
	s.lookAhead()
	if s.iosInProgress == 0 && s.forwardedBuffers == 0 && s.pinnedBuffers == 1 && s.distance == 1 &&
		s.pendingReadNblocks == 0 && !s.cfg.DisableFastPath {
		if s.oldestBufferIndex < s.ioCombineLimit-1 {
			s.buffers[s.queueSize+s.oldestBufferIndex] = InvalidBuffer
		}
		s.fastPath = true
		s.event(Event{Kind: KindFastPath, N: 1})
	}
	s.deliver(buffer)
	return buffer
}

// nextBufferFast is the fast path of read_stream_next_buffer (PG 18.4):
// return the buffer pinned last time, and StartReadBuffer the next block
// into the same slot with ios[0]; a miss leaves the fast path with one
// I/O in progress (started already, unless io_method=sync).
func (s *ReadStream) nextBufferFast() Buffer {
	if s.iosInProgress != 0 || s.forwardedBuffers != 0 || s.pinnedBuffers != 1 || s.distance != 1 || s.pendingReadNblocks != 0 {
		panic(fmt.Sprintf("aio: fast path with %d reads, %d forwarded, %d pinned, distance %d, %d pending",
			s.iosInProgress, s.forwardedBuffers, s.pinnedBuffers, s.distance, s.pendingReadNblocks))
	}
	oldest := s.oldestBufferIndex
	buffer := s.buffers[oldest]
	next := s.getBlock()
	if next != InvalidBlockNumber {
		flags := s.readBuffersFlags
		if s.adviceEnabled {
			flags |= ReadBuffersIssueAdvice
		}
		s.stats.StartReads++
		s.event(Event{Kind: KindStartRead, Block: next, Asked: 1, One: true})
		need := StartReadBuffer(&s.ios[0].op, s.buffers[oldest:oldest+1], next, flags)
		s.event(Event{Kind: KindStarted, Block: next, Asked: 1, N: 1, Wait: need, One: true, Advice: flags&ReadBuffersIssueAdvice != 0})
		if !need {
			s.deliver(buffer)
			return buffer
		}
		s.oldestIOIndex = 0
		s.nextIOIndex = 0
		if s.maxIOs > 1 {
			s.nextIOIndex = 1
		}
		s.iosInProgress = 1
		s.stats.MaxIOs = max(s.stats.MaxIOs, 1)
		s.ios[0].bufferIndex = oldest
		s.seqBlocknum = next + 1
	} else {
		s.setDistance(0, "end")
		s.oldestBufferIndex = s.nextBufferIndex
		s.pinnedBuffers = 0
		s.buffers[oldest] = InvalidBuffer
	}
	s.fastPath = false
	s.event(Event{Kind: KindFastPath, N: 0})
	s.deliver(buffer)
	return buffer
}

func (s *ReadStream) deliver(buf Buffer) {
	s.stats.Delivered++
	s.event(Event{Kind: KindDeliver, Block: s.be.Buffers.BufferGetBlockNumber(buf)})
}

// Reset is read_stream_reset (PG 18.4): distance 0, forget the ungotten
// block and the fast path, release every queued buffer (waiting for their
// I/O), then the forwarded buffers left behind a split read; distance 1.
func (s *ReadStream) Reset() {
	s.setDistance(0, "reset")
	s.bufferedBlocknum = InvalidBlockNumber
	s.fastPath = false
	for {
		buf := s.NextBuffer()
		if buf == InvalidBuffer {
			break
		}
		s.be.Buffers.ReleaseBuffer(buf)
	}
	index := s.nextBufferIndex
	for index < s.initializedBuffers && s.buffers[index] != InvalidBuffer {
		if s.forwardedBuffers <= 0 {
			panic("aio: a queued buffer past the end that was not forwarded")
		}
		s.forwardedBuffers--
		s.be.Buffers.ReleaseBuffer(s.buffers[index])
		s.buffers[index] = InvalidBuffer
		if index < s.ioCombineLimit-1 {
			s.buffers[s.queueSize+index] = InvalidBuffer
		}
		index++
		if index == s.queueSize {
			index = 0
		}
	}
	if s.forwardedBuffers != 0 || s.pinnedBuffers != 0 || s.iosInProgress != 0 {
		panic(fmt.Sprintf("aio: reset leaves %d forwarded, %d pinned, %d reads", s.forwardedBuffers, s.pinnedBuffers, s.iosInProgress))
	}
	s.setDistance(1, "reset")
}

// End is read_stream_end: Reset; the stream is then freed.
func (s *ReadStream) End() { s.Reset() }

func (s *ReadStream) event(e Event) {
	if s.be.log == nil {
		return
	}
	e.Stamped = true
	e.Pinned = s.pinnedBuffers
	e.IOs = s.iosInProgress
	e.Distance = s.distance
	s.be.log.add(e)
}
