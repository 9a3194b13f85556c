package bufmgr

import "bufferlab/engine/trace"

// The pseudo-code of PostgreSQL 18's asynchronous read path, as the code
// panel shows it for config pg=18 (read18.go, engine/aio). BufferAlloc,
// GetVictimBuffer and the clock sweep are 16's (sites17.go); PinBuffer,
// UnpinBuffer and StartBufferIO's header lock are 15's (sites.go). Each
// block follows the function of the same name at REL_18_4 (bufmgr.c,
// aio.c, method_worker.c, heapam.c), shortened; engine/aio's comments have
// the long form.
var pseudoFuncs18 = []*trace.Func{
	trace.DefineFunc("ReadBuffer_common (PG 18)", "storage/buffer/bufmgr.c", "PG 18 (pg=18)", `
ReadBuffer_common(rel, smgr, smgr_persistence, forkNum, blockNum, mode, strategy)   -- RBM_NORMAL
    -- SIMPLIFIED, as for PG 15: md.c meets a read past the end in the I/O;
    -- BufferLab raises its ERROR before taking a buffer.
    [BufferLab] if blockNum >= smgrnblocks(smgr, forkNum):           @read18.eof
        ERROR "could not read blocks %u..%u in file \"%s\": read only 0 of 8192 bytes"
    flags = READ_BUFFERS_SYNCHRONOUSLY   -- one block: this backend reads it, no worker  @read18.begin
    if StartReadBuffer(&operation, &buffer, blockNum, flags):
        WaitReadBuffers(&operation)
    return buffer                                                    @read18.done`),

	trace.DefineFunc("StartReadBuffers (PG 18)", "storage/buffer/bufmgr.c", "PG 18 (pg=18)", `
StartReadBuffersImpl(operation, buffers, blockNum, *nblocks, flags, allow_forwarding)
    for i in 0 ..< actual_nblocks:
        if buffers[i] was forwarded by the last call (a split):
            found = pg_atomic_read_u32(&hdr->state) & BM_VALID   -- relaxed  @startread18.forwarded
        else:
            buffers[i] = PinBufferForBlock(..., blockNum + i, &found)   -- BufferAlloc, pinned
        if found: pgBufferUsage.shared_blks_hit++                    @startread18.hit
        else: pgBufferUsage.shared_blks_read++   -- tagged, not valid: to be read  @startread18.miss
        if found and i == 0: *nblocks = 1; return false   -- a hit, no I/O
        if found: actual_nblocks = i; break   -- split here: the hit is forwarded, pinned
    if io_method != sync:
        did_start_io = AsyncReadBuffers(operation, nblocks)   -- may shorten *nblocks
    else: did_start_io = true   -- WaitReadBuffers will read, as in 17
    return did_start_io
AsyncReadBuffers(operation, *nblocks_progress)
    ioh = pgaio_io_acquire_nb(...)  -- none free: pgaio_submit_staged(); pgaio_io_acquire(...)
    if !ReadBuffersCanStartIO(buffers[nblocks_done], false):   -- someone read it meanwhile
        pgaio_io_release(ioh); nblocks_done += 1; return false
    io_buffers_len = 1   -- BM_IO_IN_PROGRESS set by us: StartBufferIO
    while StartBufferIO(buffers[...next], true, nowait = true): io_buffers_len++
    pgaio_io_get_wref(ioh, &operation->io_wref)
    pgaio_io_set_handle_data_32(ioh, buffers, io_buffers_len)
    pgaio_io_register_callbacks(ioh, PGAIO_HCB_SHARED_BUFFER_READV, flags)
    if flags & READ_BUFFERS_SYNCHRONOUSLY: pgaio_io_set_flag(ioh, PGAIO_HF_SYNCHRONOUS)
    smgrstartreadv(ioh, ..., io_first_block, io_pages, io_buffers_len)
        pgaio_io_stage(ioh)   -- the stage callbacks: buffer_stage_common
            if PGAIO_HF_SYNCHRONOUS or io_method == sync:
                pgaio_io_perform_synchronously(ioh)   -- read and complete, here  @async18.sync
            else: STAGED; submitted at once outside batch mode       @async18.stage
    return true
buffer_stage_common(ioh, is_write = false, is_temp = false)   -- for each buffer of the I/O
    buf_state = LockBufHdr(buf_hdr)                                  @stage18.lock
    Assert(BM_TAG_VALID, !BM_VALID, !BM_DIRTY, BM_IO_IN_PROGRESS, refcount >= 1)
    buf_state += BUF_REFCOUNT_ONE   -- a pin owned by the AIO subsystem
    buf_hdr->io_wref = io_ref   -- WaitIO of others now waits on the handle
    UnlockBufHdr(buf_hdr, buf_state)                                 @stage18.pin
pgaio_submit_staged() → pgaio_worker_submit(num_staged_ios, staged_ios)
    for each: pgaio_io_prepare_submit(ioh)   -- SUBMITTED
    LWLockAcquire(AioWorkerSubmissionQueueLock, LW_EXCLUSIVE)
    for each: pgaio_worker_submission_queue_insert(ioh)   -- queue full: run it here, after  @async18.submit
        first time: wakeup = pgaio_worker_choose_idle()   -- the lowest idle worker's bit cleared
    LWLockRelease(AioWorkerSubmissionQueueLock)
    SetLatch(wakeup's latch)`),

	trace.DefineFunc("IoWorkerMain (PG 18)", "storage/aio/method_worker.c", "PG 18 (pg=18, io_method=worker)", `
IoWorkerMain()   -- an I/O worker, a process of its own
    for (;;):                                                        @ioworker.step
        LWLockAcquire(AioWorkerSubmissionQueueLock, LW_EXCLUSIVE)
        io_index = pgaio_worker_submission_queue_consume()
        if io_index == -1:
            idle_worker_mask |= 1 << MyIoWorkerId
            LWLockRelease(AioWorkerSubmissionQueueLock)
            WaitLatch(MyLatch, WL_LATCH_SET, -1, WAIT_EVENT_IO_WORKER_MAIN)   @ioworker.sleep
            ResetLatch(MyLatch); continue
        idle_worker_mask &= ~(1 << MyIoWorkerId)
        nwakeups = Min(pgaio_worker_submission_queue_depth(), IO_WORKER_WAKEUP_FANOUT)
        for i in 0 ..< nwakeups: latches += pgaio_worker_choose_idle()   -- fan-out
        LWLockRelease(AioWorkerSubmissionQueueLock)                  @ioworker.dequeue
        SetLatch(latches)
        pgaio_io_reopen(ioh)
        pgaio_io_perform_synchronously(ioh)
            pg_preadv(fd, iov, iovcnt, offset)   -- the blocks arrive   @aio18.preadv
            pgaio_io_process_completion(ioh, result)
                COMPLETED_IO; shared_buffer_readv_complete → buffer_readv_complete
                    per buffer: TerminateBufferIO(buf, false, BM_VALID, false, release_aio = true)
                COMPLETED_SHARED; ConditionVariableBroadcast(&ioh->cv)   @aio18.complete
                -- not the owner: the issuing backend reclaims the handle
TerminateBufferIO(buf, clear_dirty, set_flag_bits, forget_owner, release_aio)
    buf_state = LockBufHdr(buf)                                      @termio18.lock
    buf_state &= ~(BM_IO_IN_PROGRESS | BM_IO_ERROR)
    if release_aio: buf_state -= BUF_REFCOUNT_ONE; pgaio_wref_clear(&buf->io_wref)
    buf_state |= set_flag_bits   -- BM_VALID
    UnlockBufHdr(buf, buf_state)                                     @termio18.unlock
    ConditionVariableBroadcast(BufferDescriptorGetIOCV(buf))`),

	trace.DefineFunc("pgaio_uring_wait_one (PG 18)", "storage/aio/method_io_uring.c", "PG 18 (pg=18, io_method=io_uring)", `
pgaio_uring_submit(num_staged_ios, staged_ios)   -- the backend's own ring
    for each: pgaio_io_prepare_submit(ioh); io_uring_prep_readv(sqe, ...)
    io_uring_submit(&pgaio_my_uring_context->io_uring_ring)   -- to the kernel
[the kernel]   -- no PostgreSQL process runs here
    reads the blocks into the buffers; posts a completion (CQE)      @uring.kernel-read
    nothing in flight: waits for a submission                        @uring.kernel-idle
pgaio_uring_wait_one(ioh, ref_generation)   -- a backend that waits for the I/O
    LWLockAcquire(&owner_context->completion_lock, LW_EXCLUSIVE)
    while the I/O is SUBMITTED:
        if io_uring_cq_ready(ring): pgaio_uring_drain_locked(owner_context)
            for each CQE: pgaio_io_process_completion(ioh, cqe->res)
                TerminateBufferIO(BM_VALID, release_aio) per buffer; COMPLETED_SHARED  @uring.drain
        else: io_uring_wait_cqes(ring, &cqes, 1, NULL, NULL)   -- sleep in the kernel  @uring.wait
    LWLockRelease(&owner_context->completion_lock)`),

	trace.DefineFunc("WaitReadBuffers (PG 18)", "storage/buffer/bufmgr.c", "PG 18 (pg=18)", `
WaitReadBuffers(operation)
    for (;;):
        if pgaio_wref_valid(&operation->io_wref):
            if !pgaio_wref_check_done(&operation->io_wref):
                pgaio_wref_wait(&operation->io_wref) → pgaio_io_wait(ioh, generation)
                    while state < COMPLETED_SHARED:
                        ConditionVariableSleep(&ioh->cv, WAIT_EVENT_AIO_IO_COMPLETION)   @wait18.sleep
                    if am_owner: pgaio_io_reclaim(ioh)   -- IDLE, result reported   @wait18.reclaim
            ProcessReadBuffersResult(operation)   -- nblocks_done += blocks read
        if nblocks_done == nblocks: break
        AsyncReadBuffers(operation, &ignored)   -- io_method=sync reads here
WaitIO(buf)   -- StartBufferIO's wait for someone else's I/O
    for (;;):
        buf_state = LockBufHdr(buf); iow = buf->io_wref              @waitio18.lock
        UnlockBufHdr(buf, buf_state)                                 @waitio18.unlock
        if !(buf_state & BM_IO_IN_PROGRESS): break
        if pgaio_wref_valid(&iow): pgaio_wref_wait(&iow); continue   -- an AIO handle owns it
        ConditionVariableSleep(cv, WAIT_EVENT_BUFFER_IO)   -- someone's synchronous I/O`),

	trace.DefineFunc("heap_fetch_next_buffer (PG 18)", "access/heap/heapam.c", "PG 18 (pg=18)", `
initscan(scan) + heap_beginscan(relation, ...)
    rs_nblocks = RelationGetNumberOfBlocks(relation)
    if rs_nblocks > NBuffers / 4:
        rs_strategy = GetAccessStrategy(BAS_BULKREAD)
            -- 18: 256kB + io_combine_limit × effective_io_concurrency × 8kB,
            --     capped by the pin limit and NBuffers / 8
        allow_sync = synchronize_seqscans
    rs_startblock = allow_sync ? ss_get_location(relation, rs_nblocks) : 0
    rs_read_stream = read_stream_begin_relation(READ_STREAM_SEQUENTIAL | READ_STREAM_USE_BATCHING,
                        rs_strategy, relation, MAIN_FORKNUM, heap_scan_stream_read_next_serial, scan)  @scan18.init
heap_fetch_next_buffer(scan, dir)   -- once per page
    if BufferIsValid(scan->rs_cbuf): ReleaseBuffer(scan->rs_cbuf)
    scan->rs_cbuf = read_stream_next_buffer(scan->rs_read_stream, NULL)
        -- the stream looks ahead: several AsyncReadBuffers in flight at once,
        -- their handles in the workers' queue; WaitReadBuffers when one is due
heap_endscan(scan)
    read_stream_end(scan->rs_read_stream)   -- waits for its I/Os, releases its pins  @scan18.end`),
}

// site18 resolves a site of pseudoFuncs18 (see site).
func site18(name string) trace.Site {
	_ = pseudoFuncs18
	return trace.SiteOf(name)
}

var (
	s18ReadEOF, s18ReadBegin, s18ReadDone    = site18("read18.eof"), site18("read18.begin"), site18("read18.done")
	s18StartHit, s18StartMiss                = site18("startread18.hit"), site18("startread18.miss")
	s18Forwarded, s18SyncIO, s18Stage        = site18("startread18.forwarded"), site18("async18.sync"), site18("async18.stage")
	s18StageLock, s18StagePin, s18Submit     = site18("stage18.lock"), site18("stage18.pin"), site18("async18.submit")
	s18WorkerStep, s18WorkerIdle, s18Dequeue = site18("ioworker.step"), site18("ioworker.sleep"), site18("ioworker.dequeue")
	s18Preadv, s18Complete                   = site18("aio18.preadv"), site18("aio18.complete")
	s18TermLock, s18TermUnlock               = site18("termio18.lock"), site18("termio18.unlock")
	s18Sleep, s18Reclaim                     = site18("wait18.sleep"), site18("wait18.reclaim")
	s18WaitIOLock, s18WaitIOUnlock           = site18("waitio18.lock"), site18("waitio18.unlock")
	s18ScanInit, s18ScanEnd                  = site18("scan18.init"), site18("scan18.end")
	s18KernelRead, s18KernelIdle, s18Drain   = site18("uring.kernel-read"), site18("uring.kernel-idle"), site18("uring.drain")
	s18UringWait                             = site18("uring.wait")
)
