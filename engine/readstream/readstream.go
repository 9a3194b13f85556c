package readstream

import "fmt"

// Callback is a ReadStreamBlockNumberCB: the next block the stream's user
// wants, or InvalidBlockNumber at the end. It is called once per block, in
// order, as the stream looks ahead (never for a block it has been told
// already: an ungotten block is replayed from the stream's own buffer).
type Callback func() BlockNumber

// Version is the PostgreSQL release whose read_stream.c a stream follows.
// There is one read_stream.c; 18 changed it where the buffer manager under
// it became asynchronous. Where the two differ, the code below says so and
// cites both.
type Version uint8

const (
	// V17 is REL_17_9: StartReadBuffers only pins, WaitReadBuffers reads;
	// the distance follows behaviors A, B and C. The buffer manager is 17's
	// (this package's StartReadBuffers over a Pool).
	V17 Version = 17
	// V18 is REL_18_4: StartReadBuffers may start the I/O; a pin limit is
	// asked before each read, a split read forwards its pinned rest, the
	// distance doubles after every wait, advice only under io_method=sync,
	// and the look-ahead runs in AIO batch mode. The buffer manager is 18's
	// (engine/aio).
	V18 Version = 18
)

// Operation is a ReadBuffersOperation of the buffer manager under the
// stream (bufmgr.c): 17's (this package's ReadBuffersOperation) or 18's
// (engine/aio's). The stream keeps one per I/O slot, ios[i].op, and makes
// its calls through it; it records the calls itself.
type Operation interface {
	// Start is StartReadBuffers(op, buffers, blockNum, nblocks, flags): pin
	// (and at 18 perhaps start reading) up to *nblocks blocks; *nblocks
	// comes back as the blocks covered. True: WaitReadBuffers is needed.
	Start(buffers []Buffer, blockNum BlockNumber, nblocks *int, flags ReadBuffersFlag) bool
	// StartOne is StartReadBuffer(op, buffer, blockNum, flags), the fast
	// path's single block.
	StartOne(buffer []Buffer, blockNum BlockNumber, flags ReadBuffersFlag) bool
	// Wait is WaitReadBuffers(op).
	Wait()
	// Flags is op->flags, BlockNum op->blocknum: the started read's, as
	// read_stream_next_buffer reads them after the wait.
	Flags() ReadBuffersFlag
	BlockNum() BlockNumber
	// IOBuffersLen is how many blocks the started read has to read (17:
	// io_buffers_len, which leaves out a hit that ended the range).
	IOBuffersLen() int
}

// BufferManager is what read_stream.c calls in bufmgr.c besides the
// operations: a ReadBuffersOperation for each I/O slot, ReleaseBuffer and
// BufferGetBlockNumber.
type BufferManager interface {
	NewOperation() Operation
	ReleaseBuffer(buf Buffer)
	BufferGetBlockNumber(buf Buffer) BlockNumber
}

// AIOBufferManager is the buffer manager and AIO subsystem of PostgreSQL
// 18 as read_stream.c (REL_18_4) calls them: GetPinLimit when the stream
// begins, GetAdditionalPinLimit before each read (bufmgr.c), and
// pgaio_enter_batchmode / pgaio_exit_batchmode around a look-ahead
// (aio.c). engine/aio implements it.
type AIOBufferManager interface {
	BufferManager
	GetPinLimit() int
	GetAdditionalPinLimit() int
	EnterBatchmode()
	ExitBatchmode()
}

// inProgressIO is an InProgressIO (read_stream.c): a started read that
// must be waited for before the buffer at bufferIndex is returned.
type inProgressIO struct {
	bufferIndex int
	op          Operation
}

// ReadStream is struct ReadStream (read_stream.c) for one fork of one
// relation, without per-buffer data (per_buffer_data_size 0, as the
// heap's sequential scan has it), as 17.9 or 18.4 has it.
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
//
// New in 18: forwarded_buffers (pins a split StartReadBuffers left in the
// queue for the next call), initialized_buffers, read_buffers_flags
// (READ_BUFFERS_SYNCHRONOUSLY when max_ios was 0), sync_mode
// (io_method=sync), batch_mode (READ_STREAM_USE_BATCHING) and
// seq_until_processed (the advice heuristic).
type ReadStream struct {
	version Version
	bm      BufferManager
	aio     AIOBufferManager // bm at 18
	record  func(Event)      // nil: no record
	cfg     Config

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

	bufferedBlocknum BlockNumber // one-block unget buffer
	callback         Callback

	seqBlocknum       BlockNumber // next block if the access were sequential
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

	stats Stats
}

// Stats counts what one stream did. PostgreSQL's own counters count
// blocks (shared_blks_read in EXPLAIN (BUFFERS); pg_stat_io's reads): the
// number of smgrreadv calls is not among them.
type Stats struct {
	StartReads     int // StartReadBuffers and StartReadBuffer calls
	Waits          int // WaitReadBuffers calls
	ReadVs         int // smgrreadv calls 17's WaitReadBuffers made (18's reads are engine/aio's to count)
	BlocksRead     int // blocks those read
	Prefetches     int // reads started with advice (smgrprefetch)
	Delivered      int // buffers returned by NextBuffer
	MaxPinned      int // the most pinnedBuffers ever was
	MaxIOs         int // the most iosInProgress ever was
	MaxDistance    int // the largest distance
	PinLimited     int // reads the per-backend pin limit shortened or deferred (18)
	FastPathBlocks int // buffers pinned by the fast path
}

// Begin is read_stream_begin_relation (read_stream.c, PG 17.9) over 17's
// buffer manager: StartReadBuffers and WaitReadBuffers of this package on
// pool, recording into log (nil: no record). See begin for the sizing.
func Begin(cfg Config, pool Pool, cb Callback, log *Log) (*ReadStream, error) {
	if pool == nil || cb == nil {
		return nil, fmt.Errorf("readstream: Begin needs a pool and a callback")
	}
	var record func(Event)
	if log != nil {
		// 17's record writes a StartReadBuffers call once, when it
		// returns: the line says what it asked and what it got.
		record = func(e Event) {
			if e.Kind != KindCall {
				log.add(e)
			}
		}
	}
	return begin(V17, cfg, pool17{pool, log}, cb, record)
}

// Begin18 is read_stream_begin_impl (read_stream.c, PG 18.4) over 18's
// buffer manager and AIO subsystem (engine/aio), recording each step with
// record (nil: none).
func Begin18(cfg Config, bm AIOBufferManager, cb Callback, record func(Event)) (*ReadStream, error) {
	if bm == nil || cb == nil {
		return nil, fmt.Errorf("readstream: Begin18 needs a buffer manager and a callback")
	}
	return begin(V18, cfg, bm, cb, record)
}

// begin sizes the stream from cfg:
//
//	max_ios = effective_io_concurrency          (maintenance_io_concurrency
//	                                             with READ_STREAM_MAINTENANCE)
//	max_pinned_buffers = Max(max_ios * 4, io_combine_limit)       -- 17
//	                   = (max_ios + 1) * io_combine_limit          -- 18
//	                   → Min(GetAccessStrategyPinLimit(strategy))
//	                   → LimitAdditionalPins                      -- 17
//	                   → Min(GetPinLimit()); Max(1, ...)          -- 18
//	queue_size = max_pinned_buffers + 1
//	advice_enabled = USE_PREFETCH and not io_direct=data and not
//	                 READ_STREAM_SEQUENTIAL and max_ios > 0
//	                 (18: and sync_mode, io_method=sync)
//	max_ios 0 → 1 (one read at a time, no advice; 18: and
//	                read_buffers_flags = READ_BUFFERS_SYNCHRONOUSLY)
//	distance = READ_STREAM_FULL ? Min(max_pinned_buffers, io_combine_limit) : 1
//
// 17 allocates the stream zeroed (seq_blocknum 0); 18 starts seq_blocknum
// and seq_until_processed at InvalidBlockNumber.
//
// Not modelled: a tablespace's own effective_io_concurrency
// (get_tablespace_io_concurrency), catalog relations (which read the GUC
// directly: the same value without a tablespace setting), temporary
// relations (LimitAdditionalLocalPins, GetLocalPinLimit) and per-buffer
// data.
func begin(v Version, cfg Config, bm BufferManager, cb Callback, record func(Event)) (*ReadStream, error) {
	if err := cfg.Validate(v); err != nil {
		return nil, err
	}
	maxIOs := cfg.EffectiveIOConcurrency
	if cfg.Flags&Maintenance != 0 {
		maxIOs = cfg.MaintenanceIOConcurrency
	}
	maxIOs = min(maxIOs, int16Max)

	s := &ReadStream{
		version:          v,
		bm:               bm,
		record:           record,
		cfg:              cfg,
		ioCombineLimit:   cfg.IOCombineLimit,
		callback:         cb,
		bufferedBlocknum: InvalidBlockNumber,
	}
	queueOverflow := cfg.IOCombineLimit - 1
	var maxPinned int
	if v == V17 {
		maxPinned = max(maxIOs*4, cfg.IOCombineLimit)
		maxPinned = min(maxPinned, int16Max-queueOverflow-1)
		maxPinned = min(GetAccessStrategyPinLimit(cfg.Strategy, cfg.NBuffers), maxPinned)
		maxPinned = LimitAdditionalPins(maxPinned, cfg.NBuffers, cfg.MaxBackends, cfg.PrivateRefCountOverflowed)
		if maxPinned <= 0 {
			panic("readstream: max_pinned_buffers must be positive")
		}
	} else {
		s.aio = bm.(AIOBufferManager)
		maxPinned = (maxIOs + 1) * cfg.IOCombineLimit
		maxPinned = min(maxPinned, int16Max-queueOverflow-1)
		maxPinned = min(GetAccessStrategyPinLimit(cfg.Strategy, cfg.NBuffers), maxPinned)
		maxPinned = min(maxPinned, s.aio.GetPinLimit())
		maxPinned = max(1, maxPinned)
		s.syncMode = cfg.SyncMode
		s.batchMode = cfg.Flags&UseBatching != 0
		s.seqBlocknum = InvalidBlockNumber
		s.seqUntilProcessed = InvalidBlockNumber
	}
	s.maxPinnedBuffers = maxPinned
	s.queueSize = maxPinned + 1
	s.buffers = make([]Buffer, s.queueSize+queueOverflow)
	s.ios = make([]inProgressIO, max(1, maxIOs))

	// USE_PREFETCH: advice unless direct I/O, a promise of sequential
	// access, or no concurrency at all; from 18 only when the reads are
	// synchronous (with AIO the read itself is the prefetch).
	if !cfg.NoPrefetch && (v == V17 || s.syncMode) && !cfg.DirectIOData && cfg.Flags&Sequential == 0 && maxIOs > 0 {
		s.adviceEnabled = true
	}
	if maxIOs == 0 {
		maxIOs = 1 // one synchronous read at a time, advice off above
		if v >= V18 {
			s.readBuffersFlags = ReadBuffersSynchronously
		}
	}
	s.maxIOs = maxIOs
	if cfg.Flags&Full != 0 {
		s.distance = min(maxPinned, s.ioCombineLimit) // skip the ramp-up (behavior B at once)
	} else {
		s.distance = 1 // assume cached (behavior A) until a read says otherwise
	}
	s.stats.MaxDistance = s.distance
	for i := range s.ios {
		s.ios[i].op = bm.NewOperation()
	}
	return s, nil
}

// Params is what Begin chose, as read_stream.c's fields name it.
type Params struct {
	Version          Version
	MaxIOs           int
	IOCombineLimit   int
	MaxPinnedBuffers int
	QueueSize        int
	Distance         int
	AdviceEnabled    bool
	SyncMode         bool // 18
	BatchMode        bool // 18
}

// Params returns the stream's sizes and its current distance.
func (s *ReadStream) Params() Params {
	return Params{Version: s.version, MaxIOs: s.maxIOs, IOCombineLimit: s.ioCombineLimit, MaxPinnedBuffers: s.maxPinnedBuffers,
		QueueSize: s.queueSize, Distance: s.distance, AdviceEnabled: s.adviceEnabled, SyncMode: s.syncMode, BatchMode: s.batchMode}
}

// String is "max_ios=1 io_combine_limit=16 max_pinned_buffers=16
// queue_size=17 distance=1 advice=off", and at 18 sync_mode and
// batch_mode after it.
func (p Params) String() string {
	s := fmt.Sprintf("max_ios=%d io_combine_limit=%d max_pinned_buffers=%d queue_size=%d distance=%d advice=%s",
		p.MaxIOs, p.IOCombineLimit, p.MaxPinnedBuffers, p.QueueSize, p.Distance, onOff(p.AdviceEnabled))
	if p.Version >= V18 {
		s += fmt.Sprintf(" sync_mode=%s batch_mode=%s", onOff(p.SyncMode), onOff(p.BatchMode))
	}
	return s
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// Stats returns the stream's counters: its own, and the smgrreadv calls
// 17's operations made in WaitReadBuffers.
func (s *ReadStream) Stats() Stats {
	st := s.stats
	for _, io := range s.ios {
		if op, ok := io.op.(*ReadBuffersOperation); ok {
			st.ReadVs += op.readVs
			st.BlocksRead += op.blocksRead
		}
	}
	return st
}

// BufferManager is the buffer manager the stream reads through.
func (s *ReadStream) BufferManager() BufferManager { return s.bm }

// PinnedBuffers is pinned_buffers: buffers the stream holds pinned and has
// not handed to the consumer.
func (s *ReadStream) PinnedBuffers() int { return s.pinnedBuffers }

// ForwardedBuffers is forwarded_buffers (18): pins a split read left in
// the queue for the next StartReadBuffers.
func (s *ReadStream) ForwardedBuffers() int { return s.forwardedBuffers }

// IOsInProgress is ios_in_progress: started reads not yet waited for.
func (s *ReadStream) IOsInProgress() int { return s.iosInProgress }

// Pending is the pending read: its first block and length (0: none).
func (s *ReadStream) Pending() (BlockNumber, int) { return s.pendingReadBlocknum, s.pendingReadNblocks }

// getBlock is read_stream_get_block: the ungotten block if there is one,
// else the callback's next.
func (s *ReadStream) getBlock() BlockNumber {
	if b := s.bufferedBlocknum; b != InvalidBlockNumber {
		s.bufferedBlocknum = InvalidBlockNumber
		return b
	}
	return s.callback()
}

// ungetBlock is read_stream_unget_block: hold a block the look-ahead took
// from the callback but cannot start yet (the I/O limit was reached; at
// 18 also the pin limit).
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
	s.stats.MaxDistance = max(s.stats.MaxDistance, d)
	s.event(Event{Kind: KindDistance, Before: before, After: d, Rule: rule})
}

// Reset is read_stream_reset: stop looking ahead (distance 0), forget the
// ungotten block and the fast path, and release every buffer still
// queued, which waits for (so performs) the reads in progress and starts
// what is pending; at 18 then also the forwarded buffers a split read
// left behind. Then distance 1: the stream can be used again, assuming
// cached data.
func (s *ReadStream) Reset() {
	s.setDistance(0, RuleReset)
	s.bufferedBlocknum = InvalidBlockNumber
	s.fastPath = false
	for {
		buf := s.NextBuffer()
		if buf == InvalidBuffer {
			break
		}
		s.bm.ReleaseBuffer(buf)
	}
	index := s.nextBufferIndex
	for index < s.initializedBuffers && s.buffers[index] != InvalidBuffer {
		if s.forwardedBuffers <= 0 {
			panic("readstream: a queued buffer past the end that was not forwarded")
		}
		s.forwardedBuffers--
		s.bm.ReleaseBuffer(s.buffers[index])
		s.clearSlot(index)
		index++
		if index == s.queueSize {
			index = 0
		}
	}
	if s.forwardedBuffers != 0 || s.pinnedBuffers != 0 || s.iosInProgress != 0 {
		panic(fmt.Sprintf("readstream: reset leaves %d forwarded, %d pinned, %d reads in progress", s.forwardedBuffers, s.pinnedBuffers, s.iosInProgress))
	}
	s.setDistance(1, RuleReset)
}

// End is read_stream_end: Reset, then the stream is freed (do not use
// it).
func (s *ReadStream) End() { s.Reset() }

// event records e with the stream's state after it.
func (s *ReadStream) event(e Event) {
	if s.record == nil {
		return
	}
	e.Stamped = true
	e.Pinned = s.pinnedBuffers
	e.IOs = s.iosInProgress
	e.Distance = s.distance
	e.PendingBlock = s.pendingReadBlocknum
	e.Pending = s.pendingReadNblocks
	s.record(e)
}

// NextBuffer is read_stream_next_buffer: the next block's buffer, pinned,
// in the callback's order; InvalidBuffer at the end. The pin passes to the
// caller, who releases it.
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
//	    read_stream_look_ahead()                                   -- start up
//	    if pinned_buffers == 0: return InvalidBuffer
//	buffer = buffers[oldest_buffer_index]
//	if the oldest started read waits at this buffer:
//	    WaitReadBuffers(its op)                                    -- the read
//	    ios_in_progress--
//	    17: if its flags had ISSUE_ADVICE:                         -- behavior C
//	            distance = Min(distance * 2, max_pinned_buffers)
//	        elif distance > io_combine_limit: distance--           -- behavior B
//	        else: distance = Min(distance * 2, io_combine_limit, max_pinned_buffers)
//	    18: distance = Min(distance * 2, max_pinned_buffers)       -- always
//	        advice and op.blocknum == seq_until_processed: stop advising
//	18: clear the slot (and its overflow copy)
//	pinned_buffers--; oldest_buffer_index++ (wrapping)
//	read_stream_look_ahead()
//	fast_path = no reads in progress, 1 pinned, distance 1, nothing pending
//	            (18: and nothing forwarded)
//	return buffer
//
// 17 passes suppress_advice = true to the look-ahead that starts the
// stream up (its first read never gets advice); 18 dropped the argument
// for the seq_until_processed heuristic.
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
		op := s.ios[s.oldestIOIndex].op
		s.stats.Waits++
		op.Wait()
		s.iosInProgress--
		s.oldestIOIndex++
		if s.oldestIOIndex == s.maxIOs {
			s.oldestIOIndex = 0
		}
		switch {
		case s.version >= V18:
			s.setDistance(min(s.distance*2, s.maxPinnedBuffers), RuleIO)
			if s.adviceEnabled && op.BlockNum() == s.seqUntilProcessed {
				s.seqUntilProcessed = InvalidBlockNumber // the kernel's read-ahead takes over
			}
		case op.Flags()&ReadBuffersIssueAdvice != 0:
			s.setDistance(min(s.distance*2, s.maxPinnedBuffers), RuleC) // ramps up fast
		case s.distance > s.ioCombineLimit:
			s.setDistance(s.distance-1, RuleB) // down towards io_combine_limit
		default:
			s.setDistance(min(s.distance*2, s.ioCombineLimit, s.maxPinnedBuffers), RuleB)
		}
	}
	if s.version >= V18 {
		s.clearSlot(oldest)
	}

	s.pinnedBuffers-- // the pin passes to the caller
	s.oldestBufferIndex++
	if s.oldestBufferIndex == s.queueSize {
		s.oldestBufferIndex = 0
	}

	s.lookAhead(false)

	if s.iosInProgress == 0 && s.forwardedBuffers == 0 && s.pinnedBuffers == 1 && s.distance == 1 &&
		s.pendingReadNblocks == 0 && !s.cfg.DisableFastPath {
		if s.version >= V18 && s.oldestBufferIndex < s.ioCombineLimit-1 {
			// The fast path pins into this slot alone: no overflow copy.
			s.buffers[s.queueSize+s.oldestBufferIndex] = InvalidBuffer
		}
		s.fastPath = true
		s.event(Event{Kind: KindFastPath, After: 1})
	}
	s.deliver(buffer)
	return buffer
}

// clearSlot empties queue slot i and its overflow copy (18: a slot that
// is not InvalidBuffer holds a forwarded buffer).
func (s *ReadStream) clearSlot(i int) {
	s.buffers[i] = InvalidBuffer
	if i < s.ioCombineLimit-1 {
		s.buffers[s.queueSize+i] = InvalidBuffer
	}
}

// nextBufferFast is read_stream_next_buffer's fast path.
//
//	buffer = buffers[oldest_buffer_index]           -- pinned last call
//	next = read_stream_get_block()
//	if next valid:
//	    if !StartReadBuffer(&buffers[oldest_buffer_index], next,
//	                        read_buffers_flags | (advice_enabled ? ISSUE_ADVICE : 0)):
//	        return buffer                           -- hit: stay on the fast path
//	    one read in progress, waiting at this slot; seq_blocknum = next + 1
//	else:
//	    distance = 0; the queue empties; pinned_buffers = 0 (18: slot cleared)
//	fast_path = false
//	return buffer
//
// Unlike the slow path it asks for advice on any miss, sequential or not.
// read_buffers_flags is 18's (17 has none).
func (s *ReadStream) nextBufferFast() Buffer {
	if s.iosInProgress != 0 || s.forwardedBuffers != 0 || s.pinnedBuffers != 1 || s.distance != 1 || s.pendingReadNblocks != 0 {
		panic(fmt.Sprintf("readstream: fast path with %d reads, %d forwarded, %d pinned, distance %d, %d pending",
			s.iosInProgress, s.forwardedBuffers, s.pinnedBuffers, s.distance, s.pendingReadNblocks))
	}
	oldest := s.oldestBufferIndex
	if (oldest+1)%s.queueSize != s.nextBufferIndex {
		panic("readstream: fast path slot is not the one before the next")
	}
	buffer := s.buffers[oldest]

	next := s.getBlock()
	if next != InvalidBlockNumber {
		flags := s.readBuffersFlags
		if s.adviceEnabled {
			flags |= ReadBuffersIssueAdvice
		}
		op := s.ios[0].op
		s.event(Event{Kind: KindCall, Block: next, Asked: 1, One: true})
		need := op.StartOne(s.buffers[oldest:oldest+1], next, flags)
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
		s.stats.MaxIOs = max(s.stats.MaxIOs, 1)
		s.ios[0].bufferIndex = oldest
		s.seqBlocknum = next + 1
		s.event(start)
	} else {
		s.setDistance(0, RuleEnd)
		s.oldestBufferIndex = s.nextBufferIndex
		s.pinnedBuffers = 0
		if s.version >= V18 {
			s.buffers[oldest] = InvalidBuffer
		}
	}
	s.fastPath = false
	s.event(Event{Kind: KindFastPath, After: 0})
	s.deliver(buffer)
	return buffer
}

// deliver counts and records a buffer handed to the consumer.
func (s *ReadStream) deliver(buf Buffer) {
	s.stats.Delivered++
	if s.record != nil {
		s.event(Event{Kind: KindDeliver, Block: s.bm.BufferGetBlockNumber(buf)})
	}
}
