package bufmgr

import "bufferlab/engine/trace"

// The pseudo-code of PostgreSQL 16's and 17's read path, as the code panel
// shows it for config pg=16 and pg=17 (alloc16.go, read17.go). Functions
// that did not change keep their PostgreSQL 15 blocks in sites.go
// (PinBuffer, UnpinBuffer, StrategyGetBuffer, WaitIO, TerminateBufferIO,
// FlushBuffer, StrategyFreeBuffer, the ring, the clock sweep). Each block
// follows the function of the same name at REL_16 (BufferAlloc,
// GetVictimBuffer, InvalidateVictimBuffer) or REL_17_9 (bufmgr.c,
// heapam.c, read_stream.c), shortened.
var pseudoFuncs17 = []*trace.Func{
	trace.DefineFunc("BufferAlloc (PG 16)", "storage/buffer/bufmgr.c", "PG 16–18", `
BufferAlloc(smgr, relpersistence, forkNum, blockNum, strategy, foundPtr, io_context)
    ReservePrivateRefCountEntry()
    InitBufferTag(&newTag, &smgr->smgr_rlocator.locator, forkNum, blockNum)
    newHash = BufTableHashCode(&newTag)
    newPartitionLock = BufMappingPartitionLock(newHash)
    LWLockAcquire(newPartitionLock, LW_SHARED)                       @alloc16.lock-shared
    existing_buf_id = BufTableLookup(&newTag, newHash)               @alloc16.lookup
    if existing_buf_id >= 0:
        valid = PinBuffer(buf, strategy)
        LWLockRelease(newPartitionLock)                              @alloc16.hit-unlock
        *foundPtr = valid   -- 16 only: if !valid and StartBufferIO(buf, true): *foundPtr = false
        return buf
    LWLockRelease(newPartitionLock)                                  @alloc16.miss-unlock
    victim = GetVictimBuffer(strategy, io_context)  -- pinned, its old page gone
    LWLockAcquire(newPartitionLock, LW_EXCLUSIVE)   -- one partition lock, never two  @alloc16.lock-new
    existing_buf_id = BufTableInsert(&newTag, newHash, victim->buf_id)   @alloc16.insert
    if existing_buf_id >= 0:   -- somebody else loaded the page meanwhile
        UnpinBuffer(victim); StrategyFreeBuffer(victim)   -- clean, unused: back to the freelist
        valid = PinBuffer(existing, strategy)
        LWLockRelease(newPartitionLock)                              @alloc16.collide-unlock
        *foundPtr = valid   -- 16 only: StartBufferIO as above
        return existing
    victim_buf_state = LockBufHdr(victim)                            @alloc16.tag-lock
    victim->tag = newTag
    victim_buf_state |= BM_TAG_VALID | BUF_USAGECOUNT_ONE (| BM_PERMANENT if logged or init fork)
    UnlockBufHdr(victim, victim_buf_state)                           @alloc16.retag
    LWLockRelease(newPartitionLock)                                  @alloc16.unlock-new
    *foundPtr = false   -- 16: *foundPtr = !StartBufferIO(victim, true)
    return victim`),

	trace.DefineFunc("GetVictimBuffer (PG 16)", "storage/buffer/bufmgr.c", "PG 16–18", `
GetVictimBuffer(strategy, io_context)
  again:
    buf_hdr = StrategyGetBuffer(strategy, &buf_state, &from_ring)   -- header locked
    PinBuffer_Locked(buf_hdr)
    if buf_state & BM_DIRTY:
        if !LWLockConditionalAcquire(content_lock, LW_SHARED):       @victim16.content-cond
            UnpinBuffer(buf_hdr); goto again
        FlushBuffer(buf_hdr, NULL, IOOBJECT_RELATION, io_context)
        LWLockRelease(content_lock)                                  @victim16.content-release
    if (buf_state & BM_TAG_VALID) and !InvalidateVictimBuffer(buf_hdr):
        UnpinBuffer(buf_hdr); goto again
    return buf   -- pinned once, no tag, no flags
InvalidateVictimBuffer(buf_hdr)   -- pinned by us, so its tag cannot change
    tag = buf_hdr->tag; hash = BufTableHashCode(&tag)
    LWLockAcquire(partition_lock, LW_EXCLUSIVE)   -- the old page's partition alone  @victim16.lock
    buf_state = LockBufHdr(buf_hdr)                                  @victim16.hdr-lock
    if BUF_STATE_GET_REFCOUNT(buf_state) != 1 or buf_state & BM_DIRTY:
        UnlockBufHdr(buf_hdr, buf_state)   -- somebody pinned or dirtied it  @victim16.busy-unlock
        LWLockRelease(partition_lock); return false                  @victim16.busy-release
    ClearBufferTag(&buf_hdr->tag)
    buf_state &= ~(BUF_FLAG_MASK | BUF_USAGECOUNT_MASK)
    UnlockBufHdr(buf_hdr, buf_state)                                 @victim16.clear
    BufTableDelete(&tag, hash)                                       @victim16.delete
    LWLockRelease(partition_lock)                                    @victim16.release
    return true`),

	trace.DefineFunc("ReadBuffer_common (PG 17)", "storage/buffer/bufmgr.c", "PG 17 (pg=17)", `
ReadBuffer_common(rel, smgr, smgr_persistence, forkNum, blockNum, mode, strategy)   -- RBM_NORMAL
    -- SIMPLIFIED, as for PG 15: mdreadv (md.c) meets a read past the end inside
    -- WaitReadBuffers; BufferLab raises its ERROR before taking a buffer.
    [BufferLab] if blockNum >= smgrnblocks(smgr, forkNum):           @read17.eof
        ERROR "could not read blocks %u..%u in file \"%s\": read only 0 of 8192 bytes"  -- mdreadv's text
    operation = {rel, smgr, forknum = forkNum, strategy}             @read17.begin
    if StartReadBuffer(&operation, &buffer, blockNum, flags):   -- one block
        WaitReadBuffers(&operation)
    return buffer                                                    @read17.done`),

	trace.DefineFunc("StartReadBuffers (PG 17)", "storage/buffer/bufmgr.c", "PG 17 (pg=17)", `
StartReadBuffers(operation, buffers, blockNum, *nblocks, flags)   -- StartReadBuffersImpl
    actual_nblocks = *nblocks; io_buffers_len = 0                    @startread.begin
    for i in 0 ..< actual_nblocks:
        buffers[i] = PinBufferForBlock(..., blockNum + i, strategy, &found)  -- BufferAlloc
        if found:   -- BM_VALID already: this hit ends the range
            pgBufferUsage.shared_blks_hit++                          @startread.hit
            actual_nblocks = i + 1; break
        io_buffers_len++   -- pinned and tagged, not valid: to be read   @startread.miss
    *nblocks = actual_nblocks
    operation->blocknum = blockNum; operation->io_buffers_len = io_buffers_len
    if flags & READ_BUFFERS_ISSUE_ADVICE: smgrprefetch(..., io_buffers_len)
    return io_buffers_len > 0   -- WaitReadBuffers must follow       @startread.done`),

	trace.DefineFunc("WaitReadBuffers (PG 17)", "storage/buffer/bufmgr.c", "PG 17 (pg=17)", `
WaitReadBuffers(operation)
    pgBufferUsage.shared_blks_read += io_buffers_len                 @waitread.begin
    for i in 0 ..< io_buffers_len:
        if !StartBufferIO(buffers[i], true, nowait = false): continue   -- valid now: skip
        io_buffers = [buffers[i]]; io_first_block = blocknum + i
        while i + 1 < io_buffers_len and StartBufferIO(buffers[i + 1], true, nowait = true):
            io_buffers += buffers[++i]   -- consecutive blocks, one read
        smgrreadv(smgr, forknum, io_first_block, io_pages, len(io_buffers))  -- one preadv  @waitread.readv
        for each buffer: PageIsVerifiedExtended; TerminateBufferIO(buf, false, BM_VALID, true)
    return                                                           @waitread.done
StartBufferIO(buf, forInput, nowait)   -- in a loop, as in 15
    if buf_state & BM_IO_IN_PROGRESS:
        UnlockBufHdr(buf, buf_state)
        if nowait: return false   -- another backend reads it: end the run here  @startio17.nowait
        WaitIO(buf)`),

	trace.DefineFunc("heap_fetch_next_buffer (PG 17)", "access/heap/heapam.c", "PG 17 (pg=17)", `
initscan(scan) + heap_beginscan(relation, ...)
    rs_nblocks = RelationGetNumberOfBlocks(relation)
    if rs_nblocks > NBuffers / 4:
        rs_strategy = GetAccessStrategy(BAS_BULKREAD); allow_sync = synchronize_seqscans
    rs_startblock = allow_sync ? ss_get_location(relation, rs_nblocks) : 0
    rs_read_stream = read_stream_begin_relation(READ_STREAM_SEQUENTIAL, rs_strategy,
                        relation, MAIN_FORKNUM, heap_scan_stream_read_next_serial, scan)  @scan17.init
heap_fetch_next_buffer(scan, dir)   -- once per page
    if BufferIsValid(scan->rs_cbuf): ReleaseBuffer(scan->rs_cbuf)
    scan->rs_cbuf = read_stream_next_buffer(scan->rs_read_stream, NULL)
        -- the stream looks ahead: StartReadBuffers of up to io_combine_limit
        -- blocks, up to its distance, and WaitReadBuffers when the buffer is due
heap_scan_stream_read_next_serial(stream, scan)   -- the stream's callback, ahead of the scan
    block = first ? rs_startblock : block + 1 (0 after the last)
    if allow_sync: ss_report_location(relation, block)   -- ahead of the reader  @scan17.sync-report
    return block == rs_startblock ? InvalidBlockNumber : block
heap_endscan(scan)
    read_stream_end(scan->rs_read_stream)                            @scan17.end`),
}

// site17 resolves a site of pseudoFuncs17 (see site).
func site17(name string) trace.Site {
	_ = pseudoFuncs17
	return trace.SiteOf(name)
}

var (
	s16LockShared, s16Lookup, s16HitUnlock, s16MissUnlock = site17("alloc16.lock-shared"), site17("alloc16.lookup"), site17("alloc16.hit-unlock"), site17("alloc16.miss-unlock")
	s16LockNew, s16Insert, s16CollideUnlock, s16TagLock   = site17("alloc16.lock-new"), site17("alloc16.insert"), site17("alloc16.collide-unlock"), site17("alloc16.tag-lock")
	s16Retag, s16UnlockNew                                = site17("alloc16.retag"), site17("alloc16.unlock-new")

	s16VictimContentCond, s16VictimContentRelease  = site17("victim16.content-cond"), site17("victim16.content-release")
	s16InvalLock, s16InvalHdrLock                  = site17("victim16.lock"), site17("victim16.hdr-lock")
	s16InvalBusyUnlock, s16InvalBusyRelease        = site17("victim16.busy-unlock"), site17("victim16.busy-release")
	s16InvalClear, s16InvalDelete, s16InvalRelease = site17("victim16.clear"), site17("victim16.delete"), site17("victim16.release")

	s17ReadEOF, s17ReadBegin, s17ReadDone             = site17("read17.eof"), site17("read17.begin"), site17("read17.done")
	s17StartBegin, s17StartHit, s17StartMiss          = site17("startread.begin"), site17("startread.hit"), site17("startread.miss")
	s17StartDone, s17WaitBegin, s17ReadV, s17WaitDone = site17("startread.done"), site17("waitread.begin"), site17("waitread.readv"), site17("waitread.done")
	s17StartIONowait                                  = site17("startio17.nowait")
	s17ScanInit, s17ScanSyncReport, s17ScanEnd        = site17("scan17.init"), site17("scan17.sync-report"), site17("scan17.end")
)
