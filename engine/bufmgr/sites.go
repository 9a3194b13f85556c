package bufmgr

import "bufferlab/engine/trace"

// The pseudo-code of every modelled function, as the code panel shows it.
// A line ending in @name is a site: events that the line causes carry it.
// Each block follows the PostgreSQL 15 function of the same name, shortened;
// the Go code that models it is in this package under the same name.
var pseudoFuncs = []*trace.Func{
	trace.DefineFunc("ReadBuffer_common", "storage/buffer/bufmgr.c", "PG 15", `
ReadBuffer_common(smgr, relpersistence, forkNum, blockNum, mode, strategy)
    -- SIMPLIFIED: PostgreSQL has no size check here. mdread (md.c) meets the
    -- short read inside smgrread below, after BufferAlloc took (maybe evicted)
    -- a victim; AbortBufferIO leaves that buffer tagged, not BM_VALID, with
    -- BM_IO_ERROR. BufferLab raises mdread's ERROR before taking a buffer.
    [BufferLab] if blockNum >= smgrnblocks(smgr, forkNum):           @read.eof
        ERROR "could not read block %u in file \"%s\": read only 0 of 8192 bytes"  -- mdread's text
    bufHdr = BufferAlloc(smgr, relpersistence, forkNum, blockNum, strategy, &found)  @read.begin
    if found:
        pgBufferUsage.shared_blks_hit++                              @read.hit
        return BufferDescriptorGetBuffer(bufHdr)                     @read.hit-return
    pgBufferUsage.shared_blks_read++                                 @read.miss
    smgrread(smgr, forkNum, blockNum, bufBlock)   -- mdread: FileRead of BLCKSZ bytes  @read.smgrread
    TerminateBufferIO(bufHdr, false, BM_VALID)
    return BufferDescriptorGetBuffer(bufHdr)                         @read.done`),

	trace.DefineFunc("BufferAlloc", "storage/buffer/bufmgr.c", "PG 15", `
BufferAlloc(smgr, relpersistence, forkNum, blockNum, strategy, foundPtr)
    INIT_BUFFERTAG(newTag, smgr->smgr_rnode.node, forkNum, blockNum)
    newHash = BufTableHashCode(&newTag)
    newPartitionLock = BufMappingPartitionLock(newHash)
    LWLockAcquire(newPartitionLock, LW_SHARED)                       @alloc.lock-shared
    buf_id = BufTableLookup(&newTag, newHash)                        @alloc.lookup
    if buf_id >= 0:
        valid = PinBuffer(buf, strategy)
        LWLockRelease(newPartitionLock)                              @alloc.hit-unlock
        *foundPtr = true
        if !valid and StartBufferIO(buf, true): *foundPtr = false
        return buf
    LWLockRelease(newPartitionLock)                                  @alloc.miss-unlock
    for (;;):
        ReservePrivateRefCountEntry()
        buf = StrategyGetBuffer(strategy, &buf_state)   -- header locked
        oldFlags = buf_state & BUF_FLAG_MASK
        PinBuffer_Locked(buf)
        if oldFlags & BM_DIRTY:
            if LWLockConditionalAcquire(content_lock, LW_SHARED):     @alloc.content-cond
                FlushBuffer(buf, NULL)
                LWLockRelease(content_lock)                          @alloc.content-release
            else:
                UnpinBuffer(buf, true); continue                     @alloc.content-busy
        if oldFlags & BM_TAG_VALID:
            oldTag = buf->tag; oldHash = BufTableHashCode(&oldTag)
            LWLockAcquire(lower of old/new partition lock, LW_EXCLUSIVE)   @alloc.lock-first
            LWLockAcquire(higher one, LW_EXCLUSIVE) -- one lock if same    @alloc.lock-second
        else:
            LWLockAcquire(newPartitionLock, LW_EXCLUSIVE)            @alloc.lock-new
        buf_id = BufTableInsert(&newTag, newHash, buf->buf_id)       @alloc.insert
        if buf_id >= 0:   -- somebody else loaded the page meanwhile
            UnpinBuffer(buf, true)
            LWLockRelease(oldPartitionLock) if it differs            @alloc.collide-unlock-old
            valid = PinBuffer(GetBufferDescriptor(buf_id), strategy)
            LWLockRelease(newPartitionLock)                          @alloc.collide-unlock-new
            *foundPtr = true; read it ourselves if !valid and StartBufferIO(buf, true)
            return buf
        buf_state = LockBufHdr(buf)                                  @alloc.recheck-lock
        if BUF_STATE_GET_REFCOUNT(buf_state) == 1 and !(buf_state & BM_DIRTY):
            break         -- nobody pinned or dirtied it meanwhile
        UnlockBufHdr(buf, buf_state)                                 @alloc.recheck-unlock
        BufTableDelete(&newTag, newHash)                             @alloc.recheck-delete
        LWLockRelease(oldPartitionLock) if it differs                @alloc.recheck-unlock-old
        LWLockRelease(newPartitionLock)                              @alloc.recheck-unlock-new
        UnpinBuffer(buf, true)
    buf->tag = newTag
    buf_state &= ~(BM_VALID|BM_DIRTY|BM_JUST_DIRTIED|BM_CHECKPOINT_NEEDED|BM_IO_ERROR|BM_PERMANENT|BUF_USAGECOUNT_MASK)
    buf_state |= BM_TAG_VALID | BUF_USAGECOUNT_ONE (| BM_PERMANENT if logged or init fork)
    UnlockBufHdr(buf, buf_state)                                     @alloc.retag
    if oldPartitionLock != NULL:
        BufTableDelete(&oldTag, oldHash)                             @alloc.delete-old
        LWLockRelease(oldPartitionLock) if it differs                @alloc.unlock-old
    LWLockRelease(newPartitionLock)                                  @alloc.unlock-new
    *foundPtr = !StartBufferIO(buf, true)
    return buf`),

	trace.DefineFunc("PinBuffer", "storage/buffer/bufmgr.c", "PG 9.6–16", `
PinBuffer(buf, strategy)
    ref = GetPrivateRefCountEntry(b, true)
    if ref == NULL:   -- first pin of this buffer by this backend
        ReservePrivateRefCountEntry(); ref = NewPrivateRefCountEntry(b)
        old_buf_state = pg_atomic_read_u32(&buf->state)              @pin.load
        for (;;):
            if old_buf_state & BM_LOCKED:
                old_buf_state = WaitBufHdrUnlocked(buf)              @pin.wait
            buf_state = old_buf_state + BUF_REFCOUNT_ONE
            if strategy == NULL:
                if BUF_STATE_GET_USAGECOUNT(buf_state) < BM_MAX_USAGE_COUNT:
                    buf_state += BUF_USAGECOUNT_ONE
            else:   -- a ring buffer stays at usage <= 1
                if BUF_STATE_GET_USAGECOUNT(buf_state) == 0:
                    buf_state += BUF_USAGECOUNT_ONE
            if pg_atomic_compare_exchange_u32(&buf->state, &old_buf_state, buf_state):  @pin.cas
                result = (buf_state & BM_VALID) != 0
                break
    else:   -- already pinned by us: no shared access, no usage bump
        result = true   -- "it must surely be valid" (PG 17+ reads the state here)
    ref->refcount++                                                  @pin.private
    return result`),

	trace.DefineFunc("PinBuffer_Locked", "storage/buffer/bufmgr.c", "PG 9.6–18", `
PinBuffer_Locked(buf)   -- called with the header lock held
    buf_state = pg_atomic_read_u32(&buf->state)
    buf_state += BUF_REFCOUNT_ONE   -- no usage-count bump
    UnlockBufHdr(buf, buf_state)                                     @pinlocked.unlock
    ref = NewPrivateRefCountEntry(b); ref->refcount++`),

	trace.DefineFunc("UnpinBuffer", "storage/buffer/bufmgr.c", "PG 15", `
UnpinBuffer(buf, fixOwner)
    ref = GetPrivateRefCountEntry(b, false)
    ref->refcount--                                                  @unpin.private
    if ref->refcount == 0:
        old_buf_state = pg_atomic_read_u32(&buf->state)              @unpin.load
        for (;;):
            if old_buf_state & BM_LOCKED:
                old_buf_state = WaitBufHdrUnlocked(buf)              @unpin.wait
            buf_state = old_buf_state - BUF_REFCOUNT_ONE
            if pg_atomic_compare_exchange_u32(&buf->state, &old_buf_state, buf_state):  @unpin.cas
                break
        if buf_state & BM_PIN_COUNT_WAITER:
            buf_state = LockBufHdr(buf)                              @unpin.waiter-lock
            if (buf_state & BM_PIN_COUNT_WAITER) and BUF_STATE_GET_REFCOUNT(buf_state) == 1:
                buf_state &= ~BM_PIN_COUNT_WAITER
                UnlockBufHdr(buf, buf_state)                         @unpin.waiter-unlock
                ProcSendSignal(buf->wait_backend_pgprocno)           @unpin.wake
            else:
                UnlockBufHdr(buf, buf_state)                         @unpin.waiter-nowake
        ForgetPrivateRefCountEntry(ref)`),

	trace.DefineFunc("MarkBufferDirty", "storage/buffer/bufmgr.c", "PG 9.6–18", `
MarkBufferDirty(buffer)   -- caller holds a pin and the content lock exclusively  @dirty.begin
    old_buf_state = pg_atomic_read_u32(&bufHdr->state)              @dirty.load
    for (;;):
        if old_buf_state & BM_LOCKED:
            old_buf_state = WaitBufHdrUnlocked(bufHdr)               @dirty.wait
        buf_state = old_buf_state | BM_DIRTY | BM_JUST_DIRTIED
        if pg_atomic_compare_exchange_u32(&bufHdr->state, &old_buf_state, buf_state):  @dirty.cas
            break`),

	trace.DefineFunc("LockBuffer", "storage/buffer/bufmgr.c", "PG 15", `
LockBuffer(buffer, mode)
    if mode == BUFFER_LOCK_UNLOCK:
        LWLockRelease(BufferDescriptorGetContentLock(buf))          @lockbuffer.unlock
    else:
        LWLockAcquire(BufferDescriptorGetContentLock(buf), mode)    @lockbuffer.acquire`),

	trace.DefineFunc("StartBufferIO", "storage/buffer/bufmgr.c", "PG 15", `
StartBufferIO(buf, forInput)
    for (;;):
        buf_state = LockBufHdr(buf)                                  @startio.lock
        if !(buf_state & BM_IO_IN_PROGRESS): break
        UnlockBufHdr(buf, buf_state)                                 @startio.busy-unlock
        WaitIO(buf)
    if forInput ? (buf_state & BM_VALID) : !(buf_state & BM_DIRTY):
        UnlockBufHdr(buf, buf_state)   -- someone else did the I/O   @startio.done-unlock
        return false
    buf_state |= BM_IO_IN_PROGRESS
    UnlockBufHdr(buf, buf_state)                                     @startio.set
    return true`),

	trace.DefineFunc("WaitIO", "storage/buffer/bufmgr.c", "PG 15", `
WaitIO(buf)
    for (;;):
        buf_state = LockBufHdr(buf)                                  @waitio.lock
        UnlockBufHdr(buf, buf_state)                                 @waitio.unlock
        if !(buf_state & BM_IO_IN_PROGRESS): break
        ConditionVariableSleep(BufferDescriptorGetIOCV(buf), WAIT_EVENT_BUFFER_IO)  @waitio.sleep`),

	trace.DefineFunc("TerminateBufferIO", "storage/buffer/bufmgr.c", "PG 15", `
TerminateBufferIO(buf, clear_dirty, set_flag_bits)
    buf_state = LockBufHdr(buf)                                      @termio.lock
    buf_state &= ~(BM_IO_IN_PROGRESS | BM_IO_ERROR)
    if clear_dirty and !(buf_state & BM_JUST_DIRTIED):
        buf_state &= ~(BM_DIRTY | BM_CHECKPOINT_NEEDED)
    buf_state |= set_flag_bits
    UnlockBufHdr(buf, buf_state)                                     @termio.unlock
    ConditionVariableBroadcast(BufferDescriptorGetIOCV(buf))`),

	trace.DefineFunc("FlushBuffer", "storage/buffer/bufmgr.c", "PG 15", `
FlushBuffer(buf, reln)
    if !StartBufferIO(buf, false): return   -- someone else wrote it
    buf_state = LockBufHdr(buf)                                      @flush.lock
    recptr = BufferGetLSN(buf)
    buf_state &= ~BM_JUST_DIRTIED
    UnlockBufHdr(buf, buf_state)                                     @flush.unlock
    if buf_state & BM_PERMANENT: XLogFlush(recptr)
    smgrwrite(reln, buf->tag.forkNum, buf->tag.blockNum, bufToWrite, false)  @flush.write
    pgBufferUsage.shared_blks_written++
    TerminateBufferIO(buf, true, 0)`),

	trace.DefineFunc("StrategyGetBuffer", "storage/buffer/freelist.c", "PG 15", `
StrategyGetBuffer(strategy, buf_state)   -- returns with the header locked
    if strategy != NULL:
        buf = GetBufferFromRing(strategy, buf_state)
        if buf != NULL: return buf
    pg_atomic_fetch_add_u32(&StrategyControl->numBufferAllocs, 1)    @sgb.allocs
    if StrategyControl->firstFreeBuffer >= 0:   -- unlocked peek     @sgb.peek
        while (true):
            SpinLockAcquire(&StrategyControl->buffer_strategy_lock)  @sgb.spin-acquire
            if StrategyControl->firstFreeBuffer < 0:
                SpinLockRelease(&StrategyControl->buffer_strategy_lock); break  @sgb.spin-empty
            buf = GetBufferDescriptor(StrategyControl->firstFreeBuffer)
            StrategyControl->firstFreeBuffer = buf->freeNext
            buf->freeNext = FREENEXT_NOT_IN_LIST                     @sgb.pop
            SpinLockRelease(&StrategyControl->buffer_strategy_lock)  @sgb.spin-release
            local_buf_state = LockBufHdr(buf)                        @sgb.free-lock
            if BUF_STATE_GET_REFCOUNT(local_buf_state) == 0 and BUF_STATE_GET_USAGECOUNT(local_buf_state) == 0:
                if strategy != NULL: AddBufferToRing(strategy, buf)
                return buf                                           @sgb.free-victim
            UnlockBufHdr(buf, local_buf_state)                       @sgb.free-unlock
    trycounter = NBuffers   -- nothing on the freelist: run the clock sweep
    for (;;):
        buf = GetBufferDescriptor(ClockSweepTick())
        local_buf_state = LockBufHdr(buf)                            @sgb.sweep-lock
        if BUF_STATE_GET_REFCOUNT(local_buf_state) == 0:
            if BUF_STATE_GET_USAGECOUNT(local_buf_state) != 0:
                local_buf_state -= BUF_USAGECOUNT_ONE                @sgb.usage-down
                trycounter = NBuffers
            else:
                if strategy != NULL: AddBufferToRing(strategy, buf)
                return buf                                           @sgb.sweep-victim
        else if --trycounter == 0:   -- pinned: never decremented    @sgb.pinned
            UnlockBufHdr(buf, local_buf_state)                       @sgb.error-unlock
            elog(ERROR, "no unpinned buffers available")             @sgb.error
        UnlockBufHdr(buf, local_buf_state)                           @sgb.sweep-unlock`),

	trace.DefineFunc("ClockSweepTick", "storage/buffer/freelist.c", "PG 9.5–18", `
ClockSweepTick()
    victim = pg_atomic_fetch_add_u32(&StrategyControl->nextVictimBuffer, 1)  @tick.fetch-add
    if victim >= NBuffers:
        originalVictim = victim
        victim = victim % NBuffers
        if victim == 0:   -- we wrapped: bring the counter back into range
            expected = originalVictim + 1
            while !success:
                SpinLockAcquire(&StrategyControl->buffer_strategy_lock)      @tick.spin-acquire
                wrapped = expected % NBuffers
                success = pg_atomic_compare_exchange_u32(&StrategyControl->nextVictimBuffer, &expected, wrapped)  @tick.cas
                if success: StrategyControl->completePasses++
                SpinLockRelease(&StrategyControl->buffer_strategy_lock)      @tick.spin-release
    return victim`),

	trace.DefineFunc("GetBufferFromRing", "storage/buffer/freelist.c", "PG 15", `
GetBufferFromRing(strategy, buf_state)
    if ++strategy->current >= strategy->ring_size: strategy->current = 0
    bufnum = strategy->buffers[strategy->current]
    if bufnum == InvalidBuffer:
        strategy->current_was_in_ring = false
        return NULL   -- empty slot: allocate normally                @ring.empty
    buf = GetBufferDescriptor(bufnum - 1)
    local_buf_state = LockBufHdr(buf)                                @ring.lock
    if BUF_STATE_GET_REFCOUNT(local_buf_state) == 0 and BUF_STATE_GET_USAGECOUNT(local_buf_state) <= 1:
        strategy->current_was_in_ring = true
        return buf                                                   @ring.reuse
    UnlockBufHdr(buf, local_buf_state)                               @ring.unlock
    strategy->current_was_in_ring = false
    return NULL
AddBufferToRing(strategy, buf)
    strategy->buffers[strategy->current] = BufferDescriptorGetBuffer(buf)  @ring.add`),

	trace.DefineFunc("heapgetpage", "access/heap/heapam.c, access/common/syncscan.c", "PG 15", `
initscan(scan)
    if !RelationUsesLocalBuffers(rel) and scan->rs_nblocks > NBuffers / 4:   @scan.init
        bstrategy = GetAccessStrategy(BAS_BULKREAD)   -- ring of Min(32, NBuffers/8)
        allow_sync = synchronize_seqscans   -- the same size test as the ring
    if allow_sync:   -- ss_get_location: SyncScanLock, ss_search (a new entry at 0 if none)
        scan->rs_startblock = the relation's last reported location, 0 if past the end  @scan.sync-start
    else: scan->rs_startblock = 0
heapgettup_pagemode(scan)   -- forward: page = rs_startblock, then on, wrapping at rs_nblocks
    page = scan->rs_startblock; heapgetpage(scan, page)
    for each page, after its tuples:
        page++; if page >= scan->rs_nblocks: page = 0
        finished = (page == scan->rs_startblock)
        if allow_sync and page % SYNC_SCAN_REPORT_INTERVAL == 0:   -- every 16 pages, even the last
            ss_report_location(rel, page)   -- LWLockConditionalAcquire(SyncScanLock): ss_search(set)  @scan.sync-report
        if finished: ReleaseBuffer(scan->rs_cbuf); return NULL
        heapgetpage(scan, page)
    -- a cursor's FETCH returns between pages, keeping scan->rs_cbuf pinned  @scan.pause
heapgetpage(scan, page)
    if BufferIsValid(scan->rs_cbuf):
        ReleaseBuffer(scan->rs_cbuf)                                 @scan.release
    scan->rs_cbuf = ReadBufferExtended(rel, MAIN_FORKNUM, page, RBM_NORMAL, bstrategy)  @scan.read
heap_endscan(scan)
    if BufferIsValid(scan->rs_cbuf): ReleaseBuffer(scan->rs_cbuf)   @scan.end
    if scan->rs_strategy != NULL: FreeAccessStrategy(scan->rs_strategy)`),

	trace.DefineFunc("ReleaseBuffer", "storage/buffer/bufmgr.c", "PG 15", `
ReleaseBuffer(buffer)                                                @release.begin
    if !BufferIsValid(buffer): elog(ERROR, "bad buffer ID")          @release.check
    UnpinBuffer(GetBufferDescriptor(buffer - 1), true)               @release.unpin
AbortTransaction -> ResourceOwnerRelease(RESOURCE_RELEASE_BEFORE_LOCKS)
    for each buffer pinned by this resource owner:
        ReleaseBuffer(buffer)                                        @abort.release`),

	// Appended after the PG 15 functions: a site's number is its position,
	// and events (and so trace hashes) record numbers.
	trace.DefineFunc("PinBuffer (9.5)", "storage/buffer/bufmgr.c", "PG 9.5's locking, drawn on the 9.6 word", `
PinBuffer(buf, strategy)   -- 9.5: flags, usage_count, refcount were separate fields under buf_hdr_lock;
                           -- here BM_LOCKED in the 9.6 state word stands in for buf_hdr_lock
    ref = GetPrivateRefCountEntry(b + 1, true)
    if ref == NULL:
        ReservePrivateRefCountEntry()
        ref = NewPrivateRefCountEntry(b + 1)
        LockBufHdr(buf)   -- SpinLockAcquire(&buf->buf_hdr_lock), spinning while held  @pin95.lock
        buf->refcount++
        if strategy == NULL:
            if buf->usage_count < BM_MAX_USAGE_COUNT: buf->usage_count++
        else:
            if buf->usage_count == 0: buf->usage_count = 1
        result = (buf->flags & BM_VALID) != 0
        UnlockBufHdr(buf)   -- SpinLockRelease(&buf->buf_hdr_lock)      @pin95.unlock
    else:   -- already pinned by us: no shared access, no usage bump
        result = true
    ref->refcount++                                                  @pin95.private
    return result`),

	trace.DefineFunc("UnpinBuffer (9.5)", "storage/buffer/bufmgr.c", "PG 9.5's locking, drawn on the 9.6 word", `
UnpinBuffer(buf, fixOwner)
    ref = GetPrivateRefCountEntry(b + 1, false)
    ref->refcount--                                                  @unpin95.private
    if ref->refcount == 0:
        LockBufHdr(buf)   -- SpinLockAcquire(&buf->buf_hdr_lock)        @unpin95.lock
        buf->refcount--
        if (buf->flags & BM_PIN_COUNT_WAITER) and buf->refcount == 1:
            wait_backend_pid = buf->wait_backend_pid
            buf->flags &= ~BM_PIN_COUNT_WAITER
            UnlockBufHdr(buf)                                        @unpin95.waiter-unlock
            ProcSendSignal(wait_backend_pid)                         @unpin95.wake
        else:
            UnlockBufHdr(buf)                                        @unpin95.unlock
        ForgetPrivateRefCountEntry(ref)`),

	trace.DefineFunc("LockBufferForCleanup", "storage/buffer/bufmgr.c", "PG 15 (PG 17+: MyProcNumber)", `
LockBufferForCleanup(buffer)   -- caller holds exactly one pin      @cleanup.begin
    if GetPrivateRefCount(buffer) != 1: elog(ERROR, "incorrect local pin count")
    for (;;):
        LockBuffer(buffer, BUFFER_LOCK_EXCLUSIVE)                    @cleanup.content-lock
        buf_state = LockBufHdr(bufHdr)                               @cleanup.hdr-lock
        if BUF_STATE_GET_REFCOUNT(buf_state) == 1:
            UnlockBufHdr(bufHdr, buf_state)   -- got the cleanup lock @cleanup.got
            return
        if buf_state & BM_PIN_COUNT_WAITER:
            UnlockBufHdr(bufHdr, buf_state)                          @cleanup.multi-unlock
            LockBuffer(buffer, BUFFER_LOCK_UNLOCK)                   @cleanup.multi-release
            elog(ERROR, "multiple backends attempting to wait for pincount 1")  @cleanup.multi-error
        bufHdr->wait_backend_pgprocno = MyProc->pgprocno
        buf_state |= BM_PIN_COUNT_WAITER
        UnlockBufHdr(bufHdr, buf_state)                              @cleanup.set-waiter
        LockBuffer(buffer, BUFFER_LOCK_UNLOCK)                       @cleanup.content-unlock
        ProcWaitForSignal(WAIT_EVENT_BUFFER_PIN)                     @cleanup.sleep
        buf_state = LockBufHdr(bufHdr)                               @cleanup.clear-lock
        if (buf_state & BM_PIN_COUNT_WAITER) and bufHdr->wait_backend_pgprocno == MyProc->pgprocno:
            buf_state &= ~BM_PIN_COUNT_WAITER
        UnlockBufHdr(bufHdr, buf_state)                              @cleanup.clear-unlock`),

	// Dropping a relation's buffers (drop.go, dlist.go), appended for the
	// same reason as the 9.5 functions above.
	trace.DefineFunc("DropRelFileNodeBuffers", "storage/buffer/bufmgr.c", "PG 14–15 (PG 16+: DropRelationBuffers)", `
DropRelFileNodeBuffers(smgr_reln, forkNum[], nforks, firstDelBlock[])   @drop.begin
    -- caller: smgrtruncate (VACUUM's tail truncation, TRUNCATE of a table created in the
    -- same transaction, their replay): RelationTruncate passes the main fork cut at
    -- nblocks, and the FSM and VM forks, if they exist, cut at what
    -- FreeSpaceMapPrepareTruncateRel / visibilitymap_prepare_truncate return
    -- temporary relations go to DropRelFileNodeLocalBuffers (not modelled)
    for i in 0 .. nforks-1:   -- backend-local: no shared memory read
        nForkBlock[i] = smgrnblocks_cached(smgr_reln, forkNum[i])   -- InvalidBlockNumber unless InRecovery
        if nForkBlock[i] == InvalidBlockNumber: nBlocksToInvalidate = InvalidBlockNumber; break
        nBlocksToInvalidate += nForkBlock[i] - firstDelBlock[i]
    if BlockNumberIsValid(nBlocksToInvalidate) and nBlocksToInvalidate < BUF_DROP_FULL_SCAN_THRESHOLD:   -- NBuffers / 32
        for j in 0 .. nforks-1:
            FindAndDropRelFileNodeBuffers(rnode, forkNum[j], nForkBlock[j], firstDelBlock[j])
        return                                                       @drop.lookup-done
    for i in 0 .. NBuffers-1:   -- the full scan
        bufHdr = GetBufferDescriptor(i)
        if !RelFileNodeEquals(bufHdr->tag.rnode, rnode): continue   -- unlocked pre-check  @drop.precheck
        buf_state = LockBufHdr(bufHdr)                               @drop.lock
        for j in 0 .. nforks-1:
            if RelFileNodeEquals(bufHdr->tag.rnode, rnode) and bufHdr->tag.forkNum == forkNum[j] and bufHdr->tag.blockNum >= firstDelBlock[j]:
                InvalidateBuffer(bufHdr)   -- releases the header lock
                break
        if j >= nforks: UnlockBufHdr(bufHdr, buf_state)              @drop.unlock
    return   -- every descriptor examined                             @drop.scan-done`),

	trace.DefineFunc("FindAndDropRelFileNodeBuffers", "storage/buffer/bufmgr.c", "PG 14–15 (PG 16+: FindAndDropRelationBuffers)", `
FindAndDropRelFileNodeBuffers(rnode, forkNum, nForkBlock, firstDelBlock)
    for curBlock in firstDelBlock .. nForkBlock-1:
        INIT_BUFFERTAG(bufTag, rnode, forkNum, curBlock)
        bufHash = BufTableHashCode(&bufTag)
        bufPartitionLock = BufMappingPartitionLock(bufHash)
        LWLockAcquire(bufPartitionLock, LW_SHARED)                   @lookup.lock
        buf_id = BufTableLookup(&bufTag, bufHash)                    @lookup.lookup
        LWLockRelease(bufPartitionLock)                              @lookup.unlock
        if buf_id < 0: continue   -- not in the pool
        bufHdr = GetBufferDescriptor(buf_id)
        buf_state = LockBufHdr(bufHdr)   -- it may hold another page by now  @lookup.hdr-lock
        if RelFileNodeEquals(bufHdr->tag.rnode, rnode) and bufHdr->tag.forkNum == forkNum and bufHdr->tag.blockNum >= firstDelBlock:
            InvalidateBuffer(bufHdr)   -- releases the header lock
        else:
            UnlockBufHdr(bufHdr, buf_state)                          @lookup.hdr-unlock`),

	trace.DefineFunc("DropRelFileNodesAllBuffers", "storage/buffer/bufmgr.c", "PG 14–15 (PG 16+: DropRelationsAllBuffers)", `
DropRelFileNodesAllBuffers(smgr_reln[], nnodes)                      @dropall.begin
    -- caller: smgrdounlinkall (DROP TABLE at commit, and its replay): one call
    -- for every relation the transaction dropped, even for one; every fork
    for each relation i, while cached:   -- backend-local
        for j in 0 .. MAX_FORKNUM:
            block[i][j] = smgrnblocks_cached(rels[i], j)
            if block[i][j] == InvalidBlockNumber:
                if !smgrexists(rels[i], j): continue   -- no such fork
                cached = false; break
            nBlocksToInvalidate += block[i][j]
    if cached and nBlocksToInvalidate < BUF_DROP_FULL_SCAN_THRESHOLD:
        for each relation i, each fork j that exists:
            FindAndDropRelFileNodeBuffers(rnodes[i], j, block[i][j], 0)
        return                                                       @dropall.lookup-done
    use_bsearch = n > RELS_BSEARCH_THRESHOLD   -- 20
    if use_bsearch: pg_qsort(nodes, n, sizeof(RelFileNode), rnode_comparator)
    for i in 0 .. NBuffers-1:
        bufHdr = GetBufferDescriptor(i)
        if !use_bsearch: rnode = the first of nodes[] equal to bufHdr->tag.rnode   @dropall.precheck-linear
        else: rnode = bsearch(&bufHdr->tag.rnode, nodes, n, rnode_comparator)         @dropall.precheck-bsearch
        if rnode == NULL: continue
        buf_state = LockBufHdr(bufHdr)                               @dropall.lock
        if RelFileNodeEquals(bufHdr->tag.rnode, *rnode): InvalidateBuffer(bufHdr)
        else: UnlockBufHdr(bufHdr, buf_state)                        @dropall.unlock
    return   -- every descriptor examined                             @dropall.scan-done`),

	trace.DefineFunc("InvalidateBuffer", "storage/buffer/bufmgr.c", "PG 9.6–15 (+ dlist variant)", `
InvalidateBuffer(buf)   -- entered with the header lock held
    oldTag = buf->tag
    UnlockBufHdr(buf, buf_state)                                     @inval.unlock
    oldHash = BufTableHashCode(&oldTag); oldPartitionLock = BufMappingPartitionLock(oldHash)
retry:
    LWLockAcquire(oldPartitionLock, LW_EXCLUSIVE)                    @inval.lock-part
    [dlist] LWLockAcquire(oldTag's relation list lock, LW_EXCLUSIVE) @inval.lock-list
    buf_state = LockBufHdr(buf)                                      @inval.relock
    if !BUFFERTAGS_EQUAL(buf->tag, oldTag):   -- recycled while we waited for the locks
        UnlockBufHdr(buf, buf_state)                                 @inval.changed-unlock
        [dlist] release the list lock; LWLockRelease(oldPartitionLock); return  @inval.changed-release
    if BUF_STATE_GET_REFCOUNT(buf_state) != 0:   -- someone else's pin, e.g. a write
        UnlockBufHdr(buf, buf_state)                                 @inval.pinned-unlock
        [dlist] release the list lock; LWLockRelease(oldPartitionLock)  @inval.pinned-release
        if GetPrivateRefCount(buffer) > 0: elog(ERROR, "buffer is pinned in InvalidateBuffer")  @inval.own-pin
        WaitIO(buf)   -- returns at once without I/O: the retry busy-waits for the unpin  @inval.wait
        goto retry
    oldFlags = buf_state & BUF_FLAG_MASK
    CLEAR_BUFFERTAG(buf->tag)
    buf_state &= ~(BUF_FLAG_MASK | BUF_USAGECOUNT_MASK)
    UnlockBufHdr(buf, buf_state)                                     @inval.clear
    [dlist] dlist_delete(&buf->relNode); release the list lock       @inval.unlink
    if oldFlags & BM_TAG_VALID: BufTableDelete(&oldTag, oldHash)     @inval.delete
    LWLockRelease(oldPartitionLock)                                  @inval.release
    StrategyFreeBuffer(buf)`),

	trace.DefineFunc("StrategyFreeBuffer", "storage/buffer/freelist.c", "PG 9.5–18", `
StrategyFreeBuffer(buf)
    SpinLockAcquire(&StrategyControl->buffer_strategy_lock)          @free.spin-acquire
    if buf->freeNext == FREENEXT_NOT_IN_LIST:   -- not already on the freelist
        buf->freeNext = StrategyControl->firstFreeBuffer
        if buf->freeNext < 0: StrategyControl->lastFreeBuffer = buf->buf_id
        StrategyControl->firstFreeBuffer = buf->buf_id               @free.push
    SpinLockRelease(&StrategyControl->buffer_strategy_lock)          @free.spin-release`),

	trace.DefineFunc("DropRelFileNodeBuffers (dlist)", "storage/buffer/bufmgr.c", "dlist patch (2019–20), reconstructed", `
DropRelFileNodeBuffers(...) walking the relation's own list   -- strategy=dlist
    list = the relation's entry in the shared table of buffer lists
    LWLockAcquire(&list->lock, LW_SHARED)                            @dlist.lock
    cur = list->head                                                 @dlist.head
    while cur != NIL:
        next = cur->relNext                                          @dlist.next
        LWLockRelease(&list->lock)                                   @dlist.unlock
        buf_state = LockBufHdr(cur)                                  @dlist.hdr-lock
        if cur's tag is of rnode, a fork to drop, and blockNum >= that fork's firstDelBlock:
            InvalidateBuffer(cur)   -- also unlinks cur
        else:
            UnlockBufHdr(cur, buf_state)                             @dlist.hdr-unlock
        LWLockAcquire(&list->lock, LW_SHARED)                        @dlist.relock
        if next != NIL and next is no longer on this list:   -- evicted meanwhile
            next = list->head   -- start over; the list only shrinks  @dlist.restart
        cur = next
    LWLockRelease(&list->lock)                                       @dlist.done
BufferAlloc, after the retag, mapping partition locks still held   -- the upkeep
    LWLockAcquire(old and new relations' list locks, LW_EXCLUSIVE), lower rnode first  @dlist.alloc-lock
    if the buffer is on a list: dlist_delete(&buf->relNode)          @dlist.alloc-unlink
    dlist_push_head(&newList->buffers, &buf->relNode)                @dlist.alloc-link
    LWLockRelease(both list locks)                                   @dlist.alloc-unlock`),

	trace.DefineFunc("MarkBufferDirty (9.5)", "storage/buffer/bufmgr.c", "PG 9.5's locking, drawn on the 9.6 word", `
MarkBufferDirty(buffer)   -- caller holds a pin and the content lock exclusively
    LockBufHdr(bufHdr)   -- SpinLockAcquire(&bufHdr->buf_hdr_lock)     @dirty95.lock
    bufHdr->flags |= (BM_DIRTY | BM_JUST_DIRTIED)
    UnlockBufHdr(bufHdr)                                             @dirty95.unlock`),
}

// site resolves a site name; referring to pseudoFuncs makes Go initialise
// the pseudo-code (and so register the sites) before any site variable.
func site(name string) trace.Site {
	_ = pseudoFuncs
	return trace.SiteOf(name)
}

var (
	sReadEOF, sReadBegin, sReadHit, sReadMiss, sReadSmgr  = site("read.eof"), site("read.begin"), site("read.hit"), site("read.miss"), site("read.smgrread")
	sReadHitReturn, sReadDone, sReleaseBegin, sDirtyBegin = site("read.hit-return"), site("read.done"), site("release.begin"), site("dirty.begin")

	sAllocLockShared, sAllocLookup, sAllocHitUnlock, sAllocMissUnlock = site("alloc.lock-shared"), site("alloc.lookup"), site("alloc.hit-unlock"), site("alloc.miss-unlock")
	sAllocContentCond, sAllocContentRelease                           = site("alloc.content-cond"), site("alloc.content-release")
	sAllocLockFirst, sAllocLockSecond, sAllocLockNew, sAllocInsert    = site("alloc.lock-first"), site("alloc.lock-second"), site("alloc.lock-new"), site("alloc.insert")
	sAllocCollideUnlockOld, sAllocCollideUnlockNew                    = site("alloc.collide-unlock-old"), site("alloc.collide-unlock-new")
	sAllocRecheckLock, sAllocRecheckUnlock, sAllocRecheckDelete       = site("alloc.recheck-lock"), site("alloc.recheck-unlock"), site("alloc.recheck-delete")
	sAllocRecheckUnlockOld, sAllocRecheckUnlockNew                    = site("alloc.recheck-unlock-old"), site("alloc.recheck-unlock-new")
	sAllocRetag, sAllocDeleteOld, sAllocUnlockOld, sAllocUnlockNew    = site("alloc.retag"), site("alloc.delete-old"), site("alloc.unlock-old"), site("alloc.unlock-new")

	sPinLoad, sPinWait, sPinCAS, sPinPrivate = site("pin.load"), site("pin.wait"), site("pin.cas"), site("pin.private")
	sPinLockedUnlock                         = site("pinlocked.unlock")

	sUnpinPrivate, sUnpinLoad, sUnpinWait, sUnpinCAS                     = site("unpin.private"), site("unpin.load"), site("unpin.wait"), site("unpin.cas")
	sUnpinWaiterLock, sUnpinWaiterUnlock, sUnpinWake, sUnpinWaiterNowake = site("unpin.waiter-lock"), site("unpin.waiter-unlock"), site("unpin.wake"), site("unpin.waiter-nowake")
	sDirtyLoad, sDirtyWait, sDirtyCAS                                    = site("dirty.load"), site("dirty.wait"), site("dirty.cas")
	sLockBufferUnlock, sLockBufferAcquire                                = site("lockbuffer.unlock"), site("lockbuffer.acquire")
	sStartIOLock, sStartIOBusyUnlock, sStartIODoneUnlock, sStartIOSet    = site("startio.lock"), site("startio.busy-unlock"), site("startio.done-unlock"), site("startio.set")
	sWaitIOLock, sWaitIOUnlock, sWaitIOSleep                             = site("waitio.lock"), site("waitio.unlock"), site("waitio.sleep")
	sTermIOLock, sTermIOUnlock                                           = site("termio.lock"), site("termio.unlock")
	sFlushLock, sFlushUnlock, sFlushWrite                                = site("flush.lock"), site("flush.unlock"), site("flush.write")
	sSGBAllocs, sSGBPeek, sSGBSpinAcquire, sSGBSpinEmpty, sSGBPop        = site("sgb.allocs"), site("sgb.peek"), site("sgb.spin-acquire"), site("sgb.spin-empty"), site("sgb.pop")
	sSGBSpinRelease, sSGBFreeLock, sSGBFreeVictim, sSGBFreeUnlock        = site("sgb.spin-release"), site("sgb.free-lock"), site("sgb.free-victim"), site("sgb.free-unlock")
	sSGBSweepLock, sSGBUsageDown, sSGBSweepVictim, sSGBPinned            = site("sgb.sweep-lock"), site("sgb.usage-down"), site("sgb.sweep-victim"), site("sgb.pinned")
	sSGBErrorUnlock, sSGBError, sSGBSweepUnlock                          = site("sgb.error-unlock"), site("sgb.error"), site("sgb.sweep-unlock")
	sTickFetchAdd, sTickSpinAcquire, sTickCAS, sTickSpinRelease          = site("tick.fetch-add"), site("tick.spin-acquire"), site("tick.cas"), site("tick.spin-release")
	sRingEmpty, sRingLock, sRingReuse, sRingUnlock, sRingAdd             = site("ring.empty"), site("ring.lock"), site("ring.reuse"), site("ring.unlock"), site("ring.add")
	sScanInit, sScanRead, sScanEnd                                       = site("scan.init"), site("scan.read"), site("scan.end")
	sScanSyncStart, sScanSyncReport, sScanPause                          = site("scan.sync-start"), site("scan.sync-report"), site("scan.pause")
	sReleaseCheck, sReleaseUnpin                                         = site("release.check"), site("release.unpin")

	sPin95Lock, sPin95Unlock, sPin95Private                          = site("pin95.lock"), site("pin95.unlock"), site("pin95.private")
	sUnpin95Private, sUnpin95Lock, sUnpin95Unlock                    = site("unpin95.private"), site("unpin95.lock"), site("unpin95.unlock")
	sUnpin95WaiterUnlock, sUnpin95Wake                               = site("unpin95.waiter-unlock"), site("unpin95.wake")
	sDirty95Lock, sDirty95Unlock                                     = site("dirty95.lock"), site("dirty95.unlock")
	sCleanupBegin, sCleanupContentLock, sCleanupHdrLock, sCleanupGot = site("cleanup.begin"), site("cleanup.content-lock"), site("cleanup.hdr-lock"), site("cleanup.got")
	sCleanupMultiUnlock, sCleanupMultiRelease, sCleanupMultiError    = site("cleanup.multi-unlock"), site("cleanup.multi-release"), site("cleanup.multi-error")
	sCleanupSetWaiter, sCleanupContentUnlock, sCleanupSleep          = site("cleanup.set-waiter"), site("cleanup.content-unlock"), site("cleanup.sleep")
	sCleanupClearLock, sCleanupClearUnlock                           = site("cleanup.clear-lock"), site("cleanup.clear-unlock")
)

// Sites of the drop functions and the dlist variant.
var (
	sDropBegin, sDropPrecheck, sDropLock, sDropUnlock           = site("drop.begin"), site("drop.precheck"), site("drop.lock"), site("drop.unlock")
	sDropLookupDone, sDropScanDone                              = site("drop.lookup-done"), site("drop.scan-done")
	sLookupLock, sLookupLookup, sLookupUnlock                   = site("lookup.lock"), site("lookup.lookup"), site("lookup.unlock")
	sLookupHdrLock, sLookupHdrUnlock                            = site("lookup.hdr-lock"), site("lookup.hdr-unlock")
	sDropAllBegin, sDropAllLock, sDropAllUnlock                 = site("dropall.begin"), site("dropall.lock"), site("dropall.unlock")
	sDropAllLookupDone, sDropAllScanDone                        = site("dropall.lookup-done"), site("dropall.scan-done")
	sDropAllLinear, sDropAllBSearch                             = site("dropall.precheck-linear"), site("dropall.precheck-bsearch")
	sInvalUnlock, sInvalLockPart, sInvalLockList, sInvalRelock  = site("inval.unlock"), site("inval.lock-part"), site("inval.lock-list"), site("inval.relock")
	sInvalChangedUnlock, sInvalChangedRelease                   = site("inval.changed-unlock"), site("inval.changed-release")
	sInvalPinnedUnlock, sInvalPinnedRelease, sInvalOwnPin       = site("inval.pinned-unlock"), site("inval.pinned-release"), site("inval.own-pin")
	sInvalWait, sInvalClear, sInvalUnlink                       = site("inval.wait"), site("inval.clear"), site("inval.unlink")
	sInvalDelete, sInvalRelease                                 = site("inval.delete"), site("inval.release")
	sFreeSpinAcquire, sFreePush, sFreeSpinRelease               = site("free.spin-acquire"), site("free.push"), site("free.spin-release")
	sDListLock, sDListHead, sDListNext, sDListUnlock            = site("dlist.lock"), site("dlist.head"), site("dlist.next"), site("dlist.unlock")
	sDListHdrLock, sDListHdrUnlock, sDListRelock, sDListRestart = site("dlist.hdr-lock"), site("dlist.hdr-unlock"), site("dlist.relock"), site("dlist.restart")
	sDListDone                                                  = site("dlist.done")
	sDListAllocLock, sDListAllocUnlink, sDListAllocLink         = site("dlist.alloc-lock"), site("dlist.alloc-unlink"), site("dlist.alloc-link")
	sDListAllocUnlock                                           = site("dlist.alloc-unlock")
)
