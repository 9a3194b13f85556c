package readstream

import "fmt"

// startPendingRead is read_stream_start_pending_read (read_stream.c): hand
// the pending read to StartReadBuffers at the queue's next slot.
// StartReadBuffers may cover fewer blocks than asked (17: a hit ends the
// range; 18: a hit splits it, or AsyncReadBuffers shortens it); the rest
// stays pending, starting after what was covered. It returns false when
// nothing could be started (18: the pin limit; 17 always starts).
//
//	17: flags = ISSUE_ADVICE if !suppress_advice and advice_enabled
//	            and pending_read_blocknum != seq_blocknum   -- not sequential
//	18: flags = read_buffers_flags; if advice_enabled (sync only):
//	        pending == seq_blocknum: advice if seq_until_processed is set
//	        else (a jump): seq_until_processed = pending; advice if pinned > 0
//	    buffer_limit = Min(GetAdditionalPinLimit(), INT16_MAX) + forwarded_buffers
//	    buffer_limit == 0 and pinned == 0: buffer_limit = 1     -- progress
//	    buffer_limit < nblocks:
//	        distance = Min(distance, pinned + buffer_limit)
//	        pinned > 0: return false                          -- wait for releases
//	        nblocks = buffer_limit                            -- a short read
//	need_wait = StartReadBuffers(ios[next_io_index].op, &buffers[next_buffer_index],
//	                             pending_read_blocknum, &nblocks, flags)
//	pinned_buffers += nblocks
//	if !need_wait: distance-- if > 1                    -- behavior A: all hits
//	else: ios[next_io_index] waits at that buffer index; ios_in_progress++
//	      seq_blocknum = pending_read_blocknum + nblocks
//	18: forwarded_buffers = pinned buffers left after nblocks (up to requested)
//	slide buffers past queue_size to the front
//	next_buffer_index += nblocks (wrapping)
//	pending_read_blocknum += nblocks; pending_read_nblocks -= nblocks
//
// Cost: nblocks PinBufferForBlock calls, one advice call if asked.
func (s *ReadStream) startPendingRead(suppressAdvice bool) bool {
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
	s.checkForwarded()

	flags := s.adviceFlags(suppressAdvice)
	nblocks := s.pendingReadNblocks
	if s.version >= V18 {
		bufferLimit := min(s.aio.GetAdditionalPinLimit(), int16Max)
		bufferLimit = min(bufferLimit+s.forwardedBuffers, int16Max)
		if bufferLimit == 0 && s.pinnedBuffers == 0 {
			bufferLimit = 1 // guarantee progress
		}
		if bufferLimit < nblocks {
			s.stats.PinLimited++
			if nd := s.pinnedBuffers + bufferLimit; s.distance > nd {
				s.setDistance(nd, RulePinLimit) // no more look-ahead until buffers are released
			}
			if s.pinnedBuffers > 0 {
				s.event(Event{Kind: KindPinLimit, Block: s.pendingReadBlocknum, N: nblocks, Asked: bufferLimit})
				return false
			}
			nblocks = bufferLimit // a short read is required to make progress
		}
	}

	bufferIndex := s.nextBufferIndex
	ioIndex := s.nextIOIndex
	if s.version >= V18 {
		// InvalidBuffer (not a forwarded buffer) as input, on first use.
		for s.initializedBuffers < bufferIndex+nblocks {
			s.buffers[s.initializedBuffers] = InvalidBuffer
			s.initializedBuffers++
		}
	}
	requested := nblocks
	op := s.ios[ioIndex].op
	s.event(Event{Kind: KindCall, Block: s.pendingReadBlocknum, Asked: requested})
	needWait := op.Start(s.buffers[bufferIndex:bufferIndex+nblocks], s.pendingReadBlocknum, &nblocks, flags)
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
		s.stats.MaxIOs = max(s.stats.MaxIOs, s.iosInProgress)
		s.seqBlocknum = s.pendingReadBlocknum + BlockNumber(nblocks)
	}

	// 18: pins acquired but forwarded to the next call stay where they
	// are in the queue (not counted in pinned_buffers).
	forwarded := 0
	for s.version >= V18 && nblocks+forwarded < requested && s.buffers[bufferIndex+nblocks+forwarded] != InvalidBuffer {
		forwarded++
	}
	s.forwardedBuffers = forwarded

	// The read's buffers were written contiguously; those past the end of
	// the circular queue move to its front (memcpy in PostgreSQL; the
	// overflow slots keep their copies, which the operation still points
	// at).
	if overflow := bufferIndex + nblocks + forwarded - s.queueSize; overflow > 0 {
		copy(s.buffers[:overflow], s.buffers[s.queueSize:s.queueSize+overflow])
	}
	bufferIndex += nblocks
	if bufferIndex >= s.queueSize {
		bufferIndex -= s.queueSize
	}
	s.nextBufferIndex = bufferIndex

	start := startEvent(KindStartRead, op, s.pendingReadBlocknum, requested, nblocks, needWait, flags)
	start.Forwarded = forwarded
	s.pendingReadBlocknum += BlockNumber(nblocks)
	s.pendingReadNblocks -= nblocks
	// Behavior A: no I/O needed, the distance decays (both releases, right
	// after StartReadBuffers). The records differ only in their order, as
	// their golden files keep them: 17's writes the call first (its line
	// shows the distance the call was made at), 18's the decay first.
	if s.version == V17 {
		s.event(start)
	}
	if !needWait && s.distance > 1 {
		s.setDistance(s.distance-1, RuleA)
	}
	if s.version >= V18 {
		s.event(start)
	}
	return true
}

// checkForwarded checks that the buffers a split read forwarded (18) are
// the leading blocks of the pending read.
func (s *ReadStream) checkForwarded() {
	if s.forwardedBuffers > s.pendingReadNblocks {
		panic(fmt.Sprintf("readstream: %d forwarded buffers for a pending read of %d", s.forwardedBuffers, s.pendingReadNblocks))
	}
	for i := 0; i < s.forwardedBuffers; i++ {
		if b := s.bm.BufferGetBlockNumber(s.buffers[s.nextBufferIndex+i]); b != s.pendingReadBlocknum+BlockNumber(i) {
			panic(fmt.Sprintf("readstream: forwarded buffer %d holds block %d, pending read at %d", i, b, s.pendingReadBlocknum))
		}
	}
}

// adviceFlags is the flags the pending read is started with: whether to
// issue advice (READ_BUFFERS_ISSUE_ADVICE) and, at 18, read_buffers_flags.
// 17 advises a read that does not continue the last one, unless told not
// to (the stream's first read). 18 advises only with advice_enabled
// (io_method=sync): a jump starts a new sequential region
// (seq_until_processed) and is advised unless nothing is pinned (the
// preadv would follow at once); a sequential read is advised until the
// reads catch up with the region's first block.
func (s *ReadStream) adviceFlags(suppressAdvice bool) ReadBuffersFlag {
	flags := s.readBuffersFlags
	switch {
	case !s.adviceEnabled:
	case s.version == V17:
		if !suppressAdvice && s.pendingReadBlocknum != s.seqBlocknum {
			flags |= ReadBuffersIssueAdvice
		}
	case s.pendingReadBlocknum == s.seqBlocknum:
		if s.seqUntilProcessed != InvalidBlockNumber {
			flags |= ReadBuffersIssueAdvice
		}
	default:
		s.seqUntilProcessed = s.pendingReadBlocknum
		if s.pinnedBuffers > 0 {
			flags |= ReadBuffersIssueAdvice
		}
	}
	return flags
}

// countStart counts a StartReadBuffers call and its advice.
func (s *ReadStream) countStart(needWait bool, flags ReadBuffersFlag) {
	s.stats.StartReads++
	if needWait && flags&ReadBuffersIssueAdvice != 0 {
		s.stats.Prefetches++
	}
}

// lookAhead is read_stream_look_ahead (read_stream.c): take blocks from
// the callback while fewer than max_ios reads are in progress and pinned
// + pending is below the distance, merging each into the pending read
// when it is the next consecutive block.
//
//	18: pgaio_enter_batchmode() if batch_mode
//	while ios_in_progress < max_ios and pinned_buffers + pending_read_nblocks < distance:
//	    if pending_read_nblocks == io_combine_limit: start it; continue
//	    blocknum = read_stream_get_block()
//	    if blocknum == InvalidBlockNumber: distance = 0; break     -- end of stream
//	    if pending and pending_read_blocknum + pending_read_nblocks == blocknum:
//	        pending_read_nblocks++; continue                       -- merge
//	    while pending_read_nblocks > 0:                            -- not consecutive
//	        start it (18: if it could not start, unget and return)
//	        if ios_in_progress == max_ios: unget(blocknum); return
//	    pending = (blocknum, 1)
//	-- a short pending read waits to grow, unless it is full, or it fills
//	-- the distance with nothing pinned, or the stream has ended:
//	if pending and (pending == io_combine_limit
//	                or (pending == distance and pinned_buffers == 0)    -- 17
//	                or (pending >= distance and pinned_buffers == 0)    -- 18
//	                or distance == 0) and ios_in_progress < max_ios:
//	    start it
//	18: pgaio_exit_batchmode() if batch_mode (it submits what is staged)
//
// 18's ">=": a pin limit can shrink the distance below the pending read.
// On the way out something is pinned unless the stream has ended (18
// asserts it; 17's look-ahead gives the same).
// 17 denies advice to the first read one call starts when told to
// (suppress_advice: the very first read of the stream); 18 ignores it.
func (s *ReadStream) lookAhead(suppressAdvice bool) {
	if s.batchMode {
		s.aio.EnterBatchmode()
		defer s.aio.ExitBatchmode()
	}
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
			started := s.startPendingRead(suppressAdvice)
			suppressAdvice = false
			if !started || s.iosInProgress == s.maxIOs {
				s.ungetBlock(blocknum) // the buffer or I/O limit: rewind, stop here
				return
			}
		}
		s.pendingReadBlocknum = blocknum
		s.pendingReadNblocks = 1
	}
	fills := s.pendingReadNblocks == s.distance
	if s.version >= V18 {
		fills = s.pendingReadNblocks >= s.distance
	}
	if s.pendingReadNblocks > 0 &&
		(s.pendingReadNblocks == s.ioCombineLimit || (fills && s.pinnedBuffers == 0) || s.distance == 0) &&
		s.iosInProgress < s.maxIOs {
		s.startPendingRead(suppressAdvice)
	}
	if s.pinnedBuffers == 0 && s.distance != 0 {
		panic("readstream: look-ahead left nothing pinned before the end")
	}
}
