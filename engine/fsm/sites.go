package fsm

import "bufferlab/engine/trace"

// The pseudo-code of every modelled function, as the code panel shows it.
// A line ending in @name is a site: the events that line causes carry it.
// Lines marked [small-skip] belong to the reverted PostgreSQL 12 patch and
// run only in that variant. Each block is a shortened rewording of the
// PostgreSQL function named, not its code.
var pseudoFuncs = []*trace.Func{
	trace.DefineFunc("fsm_set_avail", "storage/freespace/fsmpage.c", "PG 8.4–18", `
fsm_set_avail(page, slot, value)   -- caller holds the page exclusively
    nodeno = NonLeafNodesPerPage + slot
    if fp_nodes[nodeno] == value and value <= fp_nodes[0]: return false
    fp_nodes[nodeno] = value                                       @setavail.leaf
    do:   -- propagate upwards while the maximum changes
        nodeno = parentof(nodeno)
        newvalue = max(leftchild, rightchild if it exists)
        if fp_nodes[nodeno] == newvalue: break
        fp_nodes[nodeno] = newvalue                                @setavail.parent
    while nodeno > 0
    if value > fp_nodes[0]:   -- the root did not take it: corrupt page
        fsm_rebuild_page(page)                                     @setavail.corrupt
    return true   -- caller: MarkBufferDirtyHint (not WAL-logged)`),

	trace.DefineFunc("fsm_rebuild_page", "storage/freespace/fsmpage.c", "PG 8.4–18", `
fsm_rebuild_page(page)
    for nodeno from NonLeafNodesPerPage - 1 down to 0:
        newvalue = max of the children that exist
        if fp_nodes[nodeno] != newvalue:
            fp_nodes[nodeno] = newvalue                            @rebuild.node`),

	trace.DefineFunc("fsm_search_avail", "storage/freespace/fsmpage.c", "PG 8.4–18", `
fsm_search_avail(buf, minvalue, advancenext, exclusive_lock_held)
  restart:
    if fp_nodes[0] < minvalue: return -1   -- nothing on this page   @srchavail.root
    target = fp_next_slot (0 if out of range)
    nodeno = NonLeafNodesPerPage + target
    while nodeno > 0:   -- widen the triangle rightwards, one level a step
        if fp_nodes[nodeno] >= minvalue: break                     @srchavail.climb
        nodeno = parentof(rightneighbor(nodeno))
    while nodeno < NonLeafNodesPerPage:   -- descend, left child first
        if leftchild exists and >= minvalue: nodeno = it; continue   @srchavail.left
        if rightchild exists and >= minvalue: nodeno = it; continue  @srchavail.right
        -- the parent lied: a torn page. Lock exclusively, repair, retry
        fsm_rebuild_page(page); MarkBufferDirtyHint(buf); goto restart   @srchavail.torn
    slot = nodeno - NonLeafNodesPerPage
    fp_next_slot = slot + (advancenext ? 1 : 0)   -- even under a share lock   @srchavail.next-slot
    return slot`),

	trace.DefineFunc("fsm_space_needed_to_cat", "storage/freespace/freespace.c", "PG 8.4–18", `
fsm_space_needed_to_cat(needed)   -- rounds up
    if needed > MaxFSMRequestSize: ERROR "invalid FSM request size"   @cat.error
    if needed == 0: return 1
    return min(ceil(needed / FSM_CAT_STEP), 255)`),

	trace.DefineFunc("GetPageWithFreeSpace", "storage/freespace/freespace.c", "PG 15; [small-skip] PG 12 devel", `
GetPageWithFreeSpace(rel, spaceNeeded)
    min_cat = fsm_space_needed_to_cat(spaceNeeded)                 @gpwfs.begin
    target = fsm_search(rel, min_cat)
    [small-skip] if target is invalid and rel is a heap:
        nblocks = RelationGetNumberOfBlocks(rel)
        if nblocks > HEAP_FSM_CREATION_THRESHOLD:
            target = nblocks - 1   -- try the last page               @gpwfs.last
        elif nblocks > 0:
            fsm_local_set(rel, nblocks)                            @gpwfs.local
            target = fsm_local_search()
    return target                                                  @gpwfs.done`),

	trace.DefineFunc("RecordPageWithFreeSpace", "storage/freespace/freespace.c", "PG 15; [small-skip] PG 12 devel", `
RecordPageWithFreeSpace(rel, heapBlk, spaceAvail)
    [small-skip] if !fsm_allow_writes(rel, heapBlk, nblocks): return   @rpwfs.skip
    new_cat = fsm_space_avail_to_cat(spaceAvail)   -- rounds down   @rpwfs.begin
    addr, slot = fsm_get_location(heapBlk)
    fsm_set_and_search(rel, addr, slot, new_cat, 0)   -- the leaf page only   @rpwfs.done`),

	trace.DefineFunc("RecordAndGetPageWithFreeSpace", "storage/freespace/freespace.c", "PG 15; [small-skip] PG 12 devel", `
RecordAndGetPageWithFreeSpace(rel, oldPage, oldSpaceAvail, spaceNeeded)
    [small-skip] if the local map exists:
        map[oldPage] = NOT_AVAIL; return fsm_local_search()        @ragp.local
    [small-skip] if !fsm_allow_writes(rel, oldPage, unknown, &nblocks):
        fsm_local_set(rel, nblocks); return fsm_local_search()     @ragp.local-new
    old_cat = fsm_space_avail_to_cat(oldSpaceAvail)                @ragp.begin
    search_cat = fsm_space_needed_to_cat(spaceNeeded)
    addr, slot = fsm_get_location(oldPage)
    search_slot = fsm_set_and_search(rel, addr, slot, old_cat, search_cat)
    if search_slot != -1 and fsm_does_block_exist(rel, its block):
        return its block   -- near the old page                    @ragp.same-page
    return fsm_search(rel, search_cat)                             @ragp.search`),

	trace.DefineFunc("GetRecordedFreeSpace", "storage/freespace/freespace.c", "PG 8.4–18", `
GetRecordedFreeSpace(rel, heapBlk)
    addr, slot = fsm_get_location(heapBlk)
    buf = fsm_readbuf(rel, addr, false); if invalid: return 0
    cat = fsm_get_avail(page, slot); ReleaseBuffer(buf)
    return fsm_space_cat_to_avail(cat)                             @grfs.done`),

	trace.DefineFunc("fsm_readbuf", "storage/freespace/freespace.c", "PG 15", `
fsm_readbuf(rel, addr, extend)
    blkno = fsm_logical_to_physical(addr)
    if blkno >= size of the FSM fork (0 if it does not exist):
        if !extend: return InvalidBuffer   -- nothing read           @fsmread.beyond
        fsm_extend(rel, blkno + 1)
    buf = ReadBufferExtended(rel, FSM_FORKNUM, blkno, RBM_ZERO_ON_ERROR)
    -- a page that fails verification (a torn header) reads as zeroes   @fsmread.zeroed
    if PageIsNew(page): LockBuffer(EXCLUSIVE); PageInit(page); unlock   @fsmread.init
    return buf`),

	trace.DefineFunc("fsm_extend", "storage/freespace/freespace.c", "PG 15", `
fsm_extend(rel, fsm_nblocks)
    LockRelationForExtension(rel, ExclusiveLock)
    if the FSM fork does not exist: smgrcreate(FSM_FORKNUM)        @fsmext.create
    while smgrnblocks(FSM_FORKNUM) < fsm_nblocks:
        smgrextend(FSM_FORKNUM, next block, a zero page)           @fsmext.extend
    UnlockRelationForExtension(rel, ExclusiveLock)`),

	trace.DefineFunc("fsm_set_and_search", "storage/freespace/freespace.c", "PG 8.4–18", `
fsm_set_and_search(rel, addr, slot, newValue, minValue)
    buf = fsm_readbuf(rel, addr, true); LockBuffer(buf, EXCLUSIVE)
    if fsm_set_avail(page, slot, newValue): MarkBufferDirtyHint(buf)
    if minValue != 0:   -- search while still holding the lock
        newslot = fsm_search_avail(buf, minValue, addr.level == BOTTOM, true)
    UnlockReleaseBuffer(buf)
    return newslot`),

	trace.DefineFunc("fsm_search", "storage/freespace/freespace.c", "PG 15 (fsm_does_block_exist back-patched 2024)", `
fsm_search(rel, min_cat)
    restarts = 0; addr = FSM_ROOT_ADDRESS                          @fsmsearch.begin
    for (;;):
        buf = fsm_readbuf(rel, addr, false)
        slot = valid ? fsm_search_avail(buf, min_cat, addr.level == BOTTOM, false) : -1   @fsmsearch.slot
        if slot == -1: max_avail = fsm_get_max_avail(page); UnlockReleaseBuffer(buf)
        if slot != -1:
            if addr.level == BOTTOM:
                if fsm_does_block_exist(rel, its block): return it   @fsmsearch.found
                -- past the heap's end: zero the slot and start over
                fsm_set_avail(page, slot, 0); MarkBufferDirtyHint(buf)   @fsmsearch.beyond-eof
                if restarts++ > 10000: return InvalidBlockNumber       @fsmsearch.give-up
                addr = FSM_ROOT_ADDRESS   -- then descends from it below, as the source does   @fsmsearch.eof-restart
            addr = fsm_get_child(addr, slot)
        elif addr.level == ROOT:
            return InvalidBlockNumber   -- no page has enough      @fsmsearch.none
        else:   -- the parent's slot promised more: it is stale
            fsm_set_and_search(rel, parent, parentslot, max_avail, 0)   @fsmsearch.fix-parent
            if restarts++ > 10000: return InvalidBlockNumber
            addr = FSM_ROOT_ADDRESS                                @fsmsearch.restart`),

	trace.DefineFunc("FreeSpaceMapVacuumRange", "storage/freespace/freespace.c", "PG 11–18", `
FreeSpaceMapVacuumRange(rel, start, end)
    if end > start: fsm_vacuum_page(rel, FSM_ROOT_ADDRESS, start, end)   @fsmvac.begin
    -- every upper slot covering start .. end-1 now holds its child's maximum   @fsmvac.done
fsm_vacuum_page(rel, addr, start, end)
    buf = fsm_readbuf(rel, addr, false)
    if !valid: *eof = true; return 0                               @fsmvac.eof
    if addr.level > BOTTOM:
        for each slot covering heap blocks start .. end-1:
            child_avail = eof ? 0 : fsm_vacuum_page(rel, child, start, end, &eof)
            if fsm_get_avail(page, slot) != child_avail:
                LockBuffer(EXCLUSIVE); fsm_set_avail(page, slot, child_avail)
                MarkBufferDirtyHint(buf); LockBuffer(UNLOCK)
    max_avail = fsm_get_max_avail(page)                            @fsmvac.max
    fp_next_slot = 0   -- a hint: no lock, not dirtied             @fsmvac.reset-next
    ReleaseBuffer(buf)
    return max_avail`),

	trace.DefineFunc("fsm_allow_writes", "storage/freespace/freespace.c", "PG 12 devel (reverted)", `
fsm_allow_writes(rel, heapblk, nblocks, &get_nblocks)   -- [small-skip]
    if heapblk >= HEAP_FSM_CREATION_THRESHOLD: return true          @allow.blk
    if rel is neither a heap nor a TOAST table: return true
    if nblocks is known:
        if nblocks > HEAP_FSM_CREATION_THRESHOLD: return true       @allow.nblocks
        skip_get_nblocks = true
    elif relpages > HEAP_FSM_CREATION_THRESHOLD: return true        @allow.relpages
    if smgrexists(rel, FSM_FORKNUM): return true                    @allow.exists
    if skip_get_nblocks: return false                               @allow.no
    *get_nblocks = RelationGetNumberOfBlocks(rel)
    return *get_nblocks > HEAP_FSM_CREATION_THRESHOLD              @allow.counted`),

	trace.DefineFunc("fsm_local_set", "storage/freespace/freespace.c", "PG 12 devel (reverted)", `
fsm_local_set(rel, cur_nblocks)   -- [small-skip] a backend-local map
    blkno = cur_nblocks - 1
    loop:   -- every other block, counting back from the last
        map[blkno] = AVAIL                                         @localset.avail
        if blkno >= 2: blkno -= 2 else break
    map.nblocks = cur_nblocks                                      @localset.nblocks
    if cached target block < cur_nblocks:
        map[target] = NOT_AVAIL   -- just tried it                 @localset.target`),

	trace.DefineFunc("fsm_local_search", "storage/freespace/freespace.c", "PG 12 devel (reverted)", `
fsm_local_search()   -- [small-skip] the last page most likely has room
    blk = map.nblocks
    do: blk--; if map[blk] == AVAIL: return blk                    @localsearch.check
    while blk > 0
    return InvalidBlockNumber                                      @localsearch.none`),

	trace.DefineFunc("FSMClearLocalMap", "storage/freespace/freespace.c", "PG 12 devel (reverted)", `
FSMClearLocalMap()   -- [small-skip] after a hit, an extension, an abort
    if the map exists: map.nblocks = 0; every entry NOT_AVAIL       @localclear`),

	trace.DefineFunc("visibilitymap_pin", "access/heap/visibilitymap.c", "PG 15", `
visibilitymap_pin(rel, heapBlk, &vmbuf)
    mapBlock = heapBlk / HEAPBLOCKS_PER_PAGE
    if vmbuf holds mapBlock: return; else ReleaseBuffer(vmbuf)
    vm_readbuf(rel, mapBlock, extend = true):
        if mapBlock >= size of the VM fork: vm_extend(rel, mapBlock + 1)   @vm.extend
        vmbuf = ReadBufferExtended(rel, VISIBILITYMAP_FORKNUM, mapBlock, RBM_ZERO_ON_ERROR)`),

	trace.DefineFunc("RelationGetBufferForTuple", "access/heap/hio.c", "PG 15; [PG 16+] REL_16–REL_18_4; [small-skip] PG 12 devel", `
RelationGetBufferForTuple(relation, len, otherBuffer = none, bistate = none)
    len = MAXALIGN(len)
    if len > MaxHeapTupleSize: ERROR "row is too big"              @hio.too-big
    saveFreeSpace = RelationGetTargetPageFreeSpace(relation, 100)   -- fillfactor
    nearlyEmptyFreeSpace = MaxHeapTupleSize - MaxHeapTuplesPerPage / 8 * sizeof(ItemIdData)
    targetFreeSpace = len + saveFreeSpace, capped at Max(len, nearlyEmptyFreeSpace)   @hio.begin
    targetBlock = RelationGetTargetBlock(relation)                 @hio.cached
    if targetBlock is invalid: targetBlock = GetPageWithFreeSpace(relation, targetFreeSpace)
    if targetBlock is invalid and nblocks > 0:   -- [small-skip: inside GetPageWithFreeSpace]
        targetBlock = nblocks - 1                                  @hio.last
    while targetBlock is valid:
        buffer = ReadBufferBI(relation, targetBlock, RBM_NORMAL)    @hio.read
        LockBuffer(buffer, EXCLUSIVE): wait while the backend that added the page holds it   @hio.wait-new
        if PageIsAllVisible(page): visibilitymap_pin(relation, targetBlock, vmbuffer)   @hio.vm-pin
        LockBuffer(buffer, EXCLUSIVE)
        if PageIsNew(page): PageInit(page); MarkBufferDirty(buffer)   @hio.init
        pageFreeSpace = PageGetHeapFreeSpace(page)                 @hio.check
        if targetFreeSpace <= pageFreeSpace:
            RelationSetTargetBlock(relation, targetBlock)           @hio.set-target
            [small-skip] if targetBlock < HEAP_FSM_CREATION_THRESHOLD: FSMClearLocalMap()
            return buffer                                          @hio.use
        UnlockReleaseBuffer(buffer)                                @hio.full
        targetBlock = RecordAndGetPageWithFreeSpace(relation, targetBlock, pageFreeSpace, targetFreeSpace)
    [PG 16+] buffer = RelationAddBlocks(relation, bistate = none, num_pages = 1, use_fsm)
    [PG 16+] if did_unlock and len > PageGetHeapFreeSpace(page):   @hio16.recheck
    [PG 16+]     UnlockReleaseBuffer(buffer); goto loop   -- used while unlocked
    -- extend: ConditionalLockRelationForExtension succeeds, no waiters
    buffer = ReadBufferBI(relation, P_NEW, RBM_ZERO_AND_LOCK)      @hio.extend
    -- locked: another backend's LockBuffer waits until heap_insert lets it go
    PageInit(page); MarkBufferDirty(buffer)                        @hio.extend-init
    [small-skip] FSMClearLocalMap()
    RelationSetTargetBlock(relation, new block)   -- not in the FSM until VACUUM
    return buffer                                                  @hio.extended`),

	trace.DefineFunc("RelationAddBlocks", "access/heap/hio.c", "PG 16–18 (REL_16_0, REL_17_9, REL_18_4)", `
RelationAddBlocks(relation, bistate = none, num_pages = 1, use_fsm = true)
    extend_by_pages = num_pages
    waitcount = RelationExtensionLockWaiterCount(relation)   -- lock->nRequested: holder and waiters   @addblocks.waiters
    extend_by_pages += extend_by_pages * waitcount
    extend_by_pages = Min(extend_by_pages, MAX_BUFFERS_TO_EXTEND_BY)   -- 64   @addblocks.begin
    not_in_fsm_pages = num_pages   -- the page returned is never put in the FSM
    first_block = ExtendBufferedRelBy(relation, MAIN_FORKNUM, EB_LOCK_FIRST, extend_by_pages, buffers, &extend_by_pages)
    last_block = first_block + extend_by_pages - 1
    if !PageIsNew(page): ERROR "page should be empty but is not"
    PageInit(page); MarkBufferDirty(buffer)                        @addblocks.init
    if not_in_fsm_pages < extend_by_pages: LockBuffer(buffer, UNLOCK); *did_unlock = true
    for i in 1 .. extend_by_pages - 1:
        ReleaseBuffer(buffers[i])
        RecordPageWithFreeSpace(relation, first_block + i, BLCKSZ - SizeOfPageHeaderData)
    if not_in_fsm_pages < extend_by_pages:
        FreeSpaceMapVacuumRange(relation, first_block + 1, last_block)   -- end is exclusive
    return buffer                                                  @addblocks.done`),

	trace.DefineFunc("ExtendBufferedRelBy", "storage/buffer/bufmgr.c", "PG 16–18 (ExtendBufferedRelShared)", `
ExtendBufferedRelShared(bmr, fork, strategy, flags = EB_LOCK_FIRST, extend_by, ...)
    LimitAdditionalPins(&extend_by)   -- NBuffers / (MaxBackends + NUM_AUXILIARY_PROCS) - 8, at least 1   @extend.limit
    for i in 0 .. extend_by - 1: buffers[i] = GetVictimBuffer(strategy); zero it
    LockRelationForExtension(bmr.rel, ExclusiveLock)
    first_block = smgrnblocks(bmr.smgr, fork)
    if first_block + extend_by >= MaxBlockNumber: ERROR "cannot extend relation"
    insert each buffer into the buffer table under its new tag, BM_IO_IN_PROGRESS
    smgrzeroextend(bmr.smgr, fork, first_block, extend_by)         @extend.fork
    -- EB_LOCK_FIRST: the first page is the extender's until its tuple is in   @extend.lock-first
    UnlockRelationForExtension(bmr.rel, ExclusiveLock)
    for each buffer: (the first: LWLockAcquire(content lock, EXCLUSIVE)) TerminateBufferIO(BM_VALID)
    *extended_by = extend_by; return first_block`),

	trace.DefineFunc("LockRelationForExtension", "storage/lmgr/lmgr.c, lock.c, proc.c", "PG 9.6–18", `
LockRelationForExtension(relation, ExclusiveLock)   -- the relation's extension lock
    LockAcquire: lock->nRequested++
    if nobody holds it and nobody waits: granted                   @extlock.grant
    else: join the wait queue; ProcSleep until granted             @extlock.wait
    -- ProcLockWakeup granted it: this backend wakes holding it     @extlock.woken
UnlockRelationForExtension(relation, ExclusiveLock)
    LockRelease: lock->nRequested--
    ProcLockWakeup: grant it to the queue's first waiter, wake it  @extlock.release`),

	trace.DefineFunc("heap_insert", "access/heap/heapam.c", "PG 15", `
heap_insert(relation, tup)
    buffer = RelationGetBufferForTuple(relation, tup->t_len, ...)   @heapins.begin
    RelationPutHeapTuple(relation, buffer, tup)   -- PageAddItem     @heapins.put
    if PageIsAllVisible(page):
        PageClearAllVisible(page); visibilitymap_clear(vmbuffer)    @heapins.clear-vm
    MarkBufferDirty(buffer); UnlockReleaseBuffer(buffer); ReleaseBuffer(vmbuffer)   @heapins.done
    [PG 16+] -- the new page of an extension: its content lock goes here   @heapins16.unlock-new`),

	trace.DefineFunc("heap_delete", "access/heap/heapam.c", "PG 15", `
heap_delete(relation, tid)
    buffer = ReadBuffer(relation, block of tid)                    @heapdel.begin
    if PageIsAllVisible(page): visibilitymap_pin(relation, block, &vmbuffer)   @heapdel.vm-pin
    LockBuffer(buffer, EXCLUSIVE)
    set the tuple's xmax: dead once committed, its space kept until VACUUM   @heapdel.mark
    if PageIsAllVisible(page): clear it and the map bit            @heapdel.clear-vm
    MarkBufferDirty(buffer); UnlockReleaseBuffer(buffer)           @heapdel.done`),

	trace.DefineFunc("lazy_scan_heap", "access/heap/vacuumlazy.c", "PG 15 (a table without indexes)", `
lazy_scan_heap(vacrel)   -- one pass: no indexes to vacuum
    for blkno in 0 .. rel_pages - 1:                               @vacuum.begin
        if blkno starts a run of >= 32 all-visible pages (never the last page):
            skip the run (lazy_scan_skip); relfrozenxid cannot advance   @vacuum.skip
        visibilitymap_pin(rel, blkno, &vmbuffer)                   @vacuum.vm-pin
        buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, vac_strategy)
        if PageIsNew(page):
            if GetRecordedFreeSpace(rel, blkno) == 0:
                RecordPageWithFreeSpace(rel, blkno, BLCKSZ - SizeOfPageHeaderData)   @vacuum.new
            continue
        if PageIsEmpty(page): freespace = PageGetHeapFreeSpace(page)   @vacuum.empty
        else:   -- lazy_scan_prune + lazy_vacuum_heap_page
            dead tuples' pointers -> LP_UNUSED; PageRepairFragmentation;
            PageTruncateLinePointerArray                           @vacuum.prune
        PageSetAllVisible(page); visibilitymap_set(vmbuffer)       @vacuum.all-visible
        freespace = PageGetHeapFreeSpace(page); UnlockReleaseBuffer(buf)
        RecordPageWithFreeSpace(rel, blkno, freespace)
    FreeSpaceMapVacuumRange(rel, 0, rel_pages)
    -- heap_vacuum_rel, after the scan:
    visibilitymap_count(rel): ReadBuffer + ReleaseBuffer of every map page   @vacuum.vm-count
    vac_update_relstats: if relpages, reltuples, relallvisible or relfrozenxid changed:
        rewrite pg_class: relcache invalidated, every target block forgotten   @vacuum.done`),

	trace.DefineFunc("a torn write", "(a crash: FSM pages are not WAL-logged)", "PG 8.4–18", `
a crash during the write of an FSM page (a lesson's or a test's doing)
    one node is written, its parents and children are not          @torn.node
    the page header is damaged: the next read zeroes the page      @torn.header`),
}

// site resolves a site name; referring to pseudoFuncs makes Go initialise
// the pseudo-code (and so register the sites) before any site variable,
// wherever it is declared (as engine/bufmgr's and engine/slru's site).
func site(name string) trace.Site {
	_ = pseudoFuncs
	return trace.SiteOf(name)
}

// Sites, resolved once.
var (
	sSetAvailLeaf    = site("setavail.leaf")
	sSetAvailParent  = site("setavail.parent")
	sSetAvailCorrupt = site("setavail.corrupt")
	sRebuildNode     = site("rebuild.node")
	sSearchRoot      = site("srchavail.root")
	sSearchClimb     = site("srchavail.climb")
	sSearchLeft      = site("srchavail.left")
	sSearchRight     = site("srchavail.right")
	sSearchTorn      = site("srchavail.torn")
	sSearchNextSlot  = site("srchavail.next-slot")

	sCatError      = site("cat.error")
	sGPWFSBegin    = site("gpwfs.begin")
	sGPWFSLast     = site("gpwfs.last")
	sGPWFSLocal    = site("gpwfs.local")
	sGPWFSDone     = site("gpwfs.done")
	sRPWFSSkip     = site("rpwfs.skip")
	sRPWFSBegin    = site("rpwfs.begin")
	sRPWFSDone     = site("rpwfs.done")
	sRAGPLocal     = site("ragp.local")
	sRAGPLocalNew  = site("ragp.local-new")
	sRAGPBegin     = site("ragp.begin")
	sRAGPSamePage  = site("ragp.same-page")
	sRAGPSearch    = site("ragp.search")
	sGRFSDone      = site("grfs.done")
	sFSMReadBeyond = site("fsmread.beyond")
	sFSMReadZeroed = site("fsmread.zeroed")
	sFSMReadInit   = site("fsmread.init")
	sFSMExtCreate  = site("fsmext.create")
	sFSMExtExtend  = site("fsmext.extend")

	sFSMSearchBegin      = site("fsmsearch.begin")
	sFSMSearchEOFRestart = site("fsmsearch.eof-restart")
	sFSMSearchSlot       = site("fsmsearch.slot")
	sFSMSearchFound      = site("fsmsearch.found")
	sFSMSearchBeyondEOF  = site("fsmsearch.beyond-eof")
	sFSMSearchGiveUp     = site("fsmsearch.give-up")
	sFSMSearchNone       = site("fsmsearch.none")
	sFSMSearchFixParent  = site("fsmsearch.fix-parent")
	sFSMSearchRestart    = site("fsmsearch.restart")

	sFSMVacBegin     = site("fsmvac.begin")
	sFSMVacDone      = site("fsmvac.done")
	sFSMVacEOF       = site("fsmvac.eof")
	sFSMVacMax       = site("fsmvac.max")
	sFSMVacResetNext = site("fsmvac.reset-next")

	sAllowBlk         = site("allow.blk")
	sAllowNblocks     = site("allow.nblocks")
	sAllowRelpages    = site("allow.relpages")
	sAllowExists      = site("allow.exists")
	sAllowNo          = site("allow.no")
	sAllowCounted     = site("allow.counted")
	sLocalSetAvail    = site("localset.avail")
	sLocalSetNblocks  = site("localset.nblocks")
	sLocalSetTarget   = site("localset.target")
	sLocalSearchCheck = site("localsearch.check")
	sLocalSearchNone  = site("localsearch.none")
	sLocalClear       = site("localclear")

	sVMExtend = site("vm.extend")

	sHioTooBig     = site("hio.too-big")
	sHioBegin      = site("hio.begin")
	sHioCached     = site("hio.cached")
	sHioLast       = site("hio.last")
	sHioRead       = site("hio.read")
	sHioVMPin      = site("hio.vm-pin")
	sHioInit       = site("hio.init")
	sHioCheck      = site("hio.check")
	sHioSetTarget  = site("hio.set-target")
	sHioUse        = site("hio.use")
	sHioFull       = site("hio.full")
	sHioExtend     = site("hio.extend")
	sHioExtendInit = site("hio.extend-init")
	sHioExtended   = site("hio.extended")

	sHioRecheck16 = site("hio16.recheck")

	sAddBlocksWaiters = site("addblocks.waiters")
	sAddBlocksBegin   = site("addblocks.begin")
	sAddBlocksInit    = site("addblocks.init")
	sAddBlocksDone    = site("addblocks.done")
	sAddBlocksRecheck = sHioRecheck16
	sExtendLimit      = site("extend.limit")
	sExtendFork       = site("extend.fork")
	sExtendLockFirst  = site("extend.lock-first")
	sHioWaitNew       = site("hio.wait-new")
	sHioUnlockNew     = site("heapins16.unlock-new")
	sExtLockGrant     = site("extlock.grant")
	sExtLockWait      = site("extlock.wait")
	sExtLockWoken     = site("extlock.woken")
	sExtLockRelease   = site("extlock.release")

	sHInsBegin   = site("heapins.begin")
	sHInsPut     = site("heapins.put")
	sHInsClearVM = site("heapins.clear-vm")
	sHInsDone    = site("heapins.done")
	sHDelBegin   = site("heapdel.begin")
	sHDelVMPin   = site("heapdel.vm-pin")
	sHDelMark    = site("heapdel.mark")
	sHDelClearVM = site("heapdel.clear-vm")
	sHDelDone    = site("heapdel.done")

	sVacBegin      = site("vacuum.begin")
	sVacVMPin      = site("vacuum.vm-pin")
	sVacNew        = site("vacuum.new")
	sVacEmpty      = site("vacuum.empty")
	sVacPrune      = site("vacuum.prune")
	sVacAllVisible = site("vacuum.all-visible")
	sVacDone       = site("vacuum.done")
	sVacVMCount    = site("vacuum.vm-count")
	sVacSkip       = site("vacuum.skip")

	sTornNode   = site("torn.node")
	sTornHeader = site("torn.header")
)

// Funcs returns the pseudo-code of this package's modelled functions, in
// the order the code panel lists them.
func Funcs() []*trace.Func { return append([]*trace.Func(nil), pseudoFuncs...) }
