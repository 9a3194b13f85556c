package slru

import "bufferlab/engine/trace"

// The pseudo-code of every modelled function, as the code panel shows it. A
// line ending in @name is a site: the events it causes carry it. Site names
// start with "slru." so that they never collide with another engine
// package's (sites are global). Each block follows the PostgreSQL function
// of the same name, shortened; the Go code that models it is in this
// package under the same name.
//
// The functions that search for a page differ between the variants and
// have one block each: PG 17.3+ (banks), PG ≤ 16 (single) and the thread's
// hash table (banks+hash). The others are shared by the banks variants;
// sites16.go has their PG 16 blocks, whose sites a Single SLRU's events
// carry instead.
var pseudoFuncs = []*trace.Func{
	trace.DefineFunc("SimpleLruReadPage_ReadOnly", "access/transam/slru.c", "PG 17.3+", `
SimpleLruReadPage_ReadOnly(ctl, pageno, xid)   -- bank lock NOT held at entry
    banklock = SimpleLruGetBankLock(ctl, pageno)   -- bankno = pageno % ctl->nbanks
    bankstart = bankno * SLRU_BANK_SIZE; bankend = bankstart + SLRU_BANK_SIZE
    LWLockAcquire(banklock, LW_SHARED)                                    @slru.ro.lock
    for slotno = bankstart .. bankend-1:   -- linear search of the bank
        if page_status[slotno] != EMPTY and page_number[slotno] == pageno
           and page_status[slotno] != READ_IN_PROGRESS:                   @slru.ro.scan
            SlruRecentlyUsed(shared, slotno)   -- under a shared lock: racy on purpose
            return slotno   -- bank lock still held (shared)              @slru.ro.hit
    LWLockRelease(banklock)   -- not here: relock exclusive and read it   @slru.ro.unlock
    LWLockAcquire(banklock, LW_EXCLUSIVE)                                 @slru.ro.relock
    return SimpleLruReadPage(ctl, pageno, true, xid)   -- bank lock held (exclusive)`),

	trace.DefineFunc("SimpleLruReadPage_ReadOnly (PG 16)", "access/transam/slru.c", "PG 9.x–16 (slru=single)", `
SimpleLruReadPage_ReadOnly(ctl, pageno, xid)   -- control lock NOT held at entry
    LWLockAcquire(shared->ControlLock, LW_SHARED)   -- one lock for the whole SLRU   @slru.ro16.lock
    for slotno = 0 .. shared->num_slots-1:   -- linear search of every slot
        if page_status[slotno] != EMPTY and page_number[slotno] == pageno
           and page_status[slotno] != READ_IN_PROGRESS:                   @slru.ro16.scan
            SlruRecentlyUsed(shared, slotno)   -- under a shared lock: racy on purpose
            return slotno   -- ControlLock still held (shared)            @slru.ro16.hit
    LWLockRelease(shared->ControlLock)                                    @slru.ro16.unlock
    LWLockAcquire(shared->ControlLock, LW_EXCLUSIVE)                      @slru.ro16.relock
    return SimpleLruReadPage(ctl, pageno, true, xid)`),

	trace.DefineFunc("SimpleLruReadPage_ReadOnly (banks+hash)", "access/transam/slru.c", "2023 patch, seed 004 (not released)", `
SimpleLruReadPage_ReadOnly(ctl, pageno, xid)   -- banks + a page -> slot hash table
    banklock = SimpleLruGetBankLock(ctl, pageno)   -- bankno = pageno % ctl->nbanks
    LWLockAcquire(banklock, LW_SHARED)                                    @slru.roh.lock
    slotno = SlruMappingLookup(bankno, pageno)   -- a hash probe, no scan @slru.roh.probe
    if slotno >= 0 and page_status[slotno] != READ_IN_PROGRESS:           @slru.roh.check
        SlruRecentlyUsed(shared, slotno)
        return slotno   -- bank lock still held (shared)                  @slru.roh.hit
    LWLockRelease(banklock)                                               @slru.roh.unlock
    LWLockAcquire(banklock, LW_EXCLUSIVE)                                 @slru.roh.relock
    return SimpleLruReadPage(ctl, pageno, true, xid)`),

	trace.DefineFunc("SlruMappingLookup (banks+hash)", "access/transam/slru.c", "2023 patch, seed 004 (not released)", `
SlruMappingLookup(bankno, pageno)   -- the bank's dynahash table, under its bank lock
    hashvalue = hash_bytes(&pageno, sizeof(int64))
    bucket = hashvalue & high_mask; if bucket > max_bucket: bucket &= low_mask
    for e in the chain of dir[bucket >> sshift][bucket & (ssize-1)]:
        if e->hashvalue == hashvalue and e->pageno == pageno:
            return e->slotno                                              @slru.map.probe
    return -1
SlruMappingInsert(bankno, pageno, slotno)   -- a slot takes a page        @slru.map.insert
SlruMappingDelete(bankno, pageno)   -- a slot gives its page up           @slru.map.delete`),

	trace.DefineFunc("SlruRecentlyUsed", "access/transam/slru.c", "PG 17 (PG ≤ 16: shared->cur_lru_count)", `
SlruRecentlyUsed(shared, slotno)
    bankno = SlotGetBankNumber(slotno)   -- slotno >> SLRU_BANK_BITSHIFT
    new_lru_count = bank_cur_lru_count[bankno]                            @slru.lru.read
    if new_lru_count != page_lru_count[slotno]:   -- else it is the newest already
        bank_cur_lru_count[bankno] = ++new_lru_count
        page_lru_count[slotno] = new_lru_count                            @slru.lru.touch`),

	trace.DefineFunc("SlruSelectLRUPage", "access/transam/slru.c", "PG 17.3+", `
SlruSelectLRUPage(ctl, pageno)   -- bank lock held
    for (;;):
        bankno = pageno % ctl->nbanks; bankstart = bankno * SLRU_BANK_SIZE; bankend = bankstart + SLRU_BANK_SIZE
        for slotno = bankstart .. bankend-1:   -- is the page here already?
            if page_status[slotno] != EMPTY and page_number[slotno] == pageno:   @slru.sel.scan
                return slotno                                             @slru.sel.found
        (banks+hash: slotno = SlruMappingLookup(bankno, pageno) instead of the loop)   @slru.sel.probe
        cur_count = bank_cur_lru_count[bankno]++                          @slru.sel.count
        best_valid_delta = best_invalid_delta = -1
        for slotno = bankstart .. bankend-1:
            if page_status[slotno] == EMPTY: return slotno                @slru.sel.empty
            this_delta = cur_count - page_lru_count[slotno]
            if this_delta < 0:   -- counts lost by racing SlruRecentlyUsed calls
                page_lru_count[slotno] = cur_count; this_delta = 0        @slru.sel.reset
            if page_number[slotno] == latest_page_number: continue   -- never evict it   @slru.sel.latest
            if page_status[slotno] == VALID:
                if this_delta > best_valid_delta or (equal and PagePrecedes(page, best_valid_page)):
                    bestvalidslot = slotno; best_valid_delta = this_delta  @slru.sel.valid
            else:   -- READ_IN_PROGRESS or WRITE_IN_PROGRESS
                if this_delta > best_invalid_delta or (equal and PagePrecedes(page, best_invalid_page)):
                    bestinvalidslot = slotno; best_invalid_delta = this_delta   @slru.sel.busy
        if best_valid_delta < 0:   -- every candidate is busy with I/O
            SimpleLruWaitIO(ctl, bestinvalidslot); continue               @slru.sel.wait
        if !page_dirty[bestvalidslot]: return bestvalidslot               @slru.sel.victim
        SlruInternalWritePage(ctl, bestvalidslot, NULL)   -- then look again   @slru.sel.write`),

	trace.DefineFunc("SlruSelectLRUPage (PG 16)", "access/transam/slru.c", "PG 9.x–16 (slru=single)", `
SlruSelectLRUPage(ctl, pageno)   -- ControlLock held
    for (;;):
        for slotno = 0 .. shared->num_slots-1:   -- is the page here already?
            if page_status[slotno] != EMPTY and page_number[slotno] == pageno:   @slru.sel16.scan
                return slotno                                             @slru.sel16.found
        cur_count = (shared->cur_lru_count)++                             @slru.sel16.count
        best_valid_delta = best_invalid_delta = -1
        for slotno = 0 .. shared->num_slots-1:
            if page_status[slotno] == EMPTY: return slotno                @slru.sel16.empty
            this_delta = cur_count - page_lru_count[slotno]
            if this_delta < 0:
                page_lru_count[slotno] = cur_count; this_delta = 0        @slru.sel16.reset
            if page_number[slotno] == shared->latest_page_number: continue   @slru.sel16.latest
            if page_status[slotno] == VALID:
                if this_delta > best_valid_delta or (equal and PagePrecedes(page, best_valid_page)):
                    bestvalidslot = slotno; best_valid_delta = this_delta  @slru.sel16.valid
            else:
                if this_delta > best_invalid_delta or (equal and PagePrecedes(page, best_invalid_page)):
                    bestinvalidslot = slotno; best_invalid_delta = this_delta   @slru.sel16.busy
        if best_valid_delta < 0:
            SimpleLruWaitIO(ctl, bestinvalidslot); continue               @slru.sel16.wait
        if !page_dirty[bestvalidslot]: return bestvalidslot               @slru.sel16.victim
        SlruInternalWritePage(ctl, bestvalidslot, NULL)                   @slru.sel16.write`),

	trace.DefineFunc("SimpleLruReadPage", "access/transam/slru.c", "PG 17.3+ (PG ≤ 16: ControlLock)", `
SimpleLruReadPage(ctl, pageno, write_ok, xid)   -- bank lock held exclusively
    for (;;):
        slotno = SlruSelectLRUPage(ctl, pageno)                           @slru.read.select
        if page_status[slotno] != EMPTY and page_number[slotno] == pageno:
            if page_status[slotno] == READ_IN_PROGRESS or
               (page_status[slotno] == WRITE_IN_PROGRESS and !write_ok):
                SimpleLruWaitIO(ctl, slotno); continue                    @slru.read.wait
            SlruRecentlyUsed(shared, slotno)
            return slotno   -- found in memory                            @slru.read.hit
        page_number[slotno] = pageno; page_status[slotno] = READ_IN_PROGRESS
        page_dirty[slotno] = false                                        @slru.read.claim
        (banks+hash: delete the old page's entry, insert pageno -> slotno)   @slru.read.map
        LWLockAcquire(buffer_locks[slotno], LW_EXCLUSIVE)                 @slru.read.io-lock
        LWLockRelease(banklock)   -- the bank is free during the read     @slru.read.unlock
        ok = SlruPhysicalReadPage(ctl, pageno, slotno)                    @slru.read.physical
        SimpleLruZeroLSNs(ctl, slotno)
        LWLockAcquire(banklock, LW_EXCLUSIVE)                             @slru.read.relock
        page_status[slotno] = ok ? VALID : EMPTY                          @slru.read.done
        LWLockRelease(buffer_locks[slotno])                               @slru.read.io-unlock
        if !ok: SlruReportIOError(ctl, pageno, xid)   -- ERROR            @slru.read.error
        SlruRecentlyUsed(shared, slotno)
        return slotno                                                     @slru.read.return`),

	trace.DefineFunc("SimpleLruWaitIO", "access/transam/slru.c", "PG 17 (PG ≤ 16: ControlLock)", `
SimpleLruWaitIO(ctl, slotno)   -- bank lock held exclusively at entry and exit
    LWLockRelease(bank_locks[bankno])                                     @slru.waitio.unlock
    LWLockAcquire(buffer_locks[slotno], LW_SHARED)   -- sleeps until the I/O ends   @slru.waitio.io-lock
    LWLockRelease(buffer_locks[slotno])                                   @slru.waitio.io-unlock
    LWLockAcquire(bank_locks[bankno], LW_EXCLUSIVE)                       @slru.waitio.relock
    if page_status[slotno] is READ_IN_PROGRESS or WRITE_IN_PROGRESS:
        if LWLockConditionalAcquire(buffer_locks[slotno], LW_SHARED):     @slru.waitio.cond
            -- nobody is doing that I/O: it failed without cleaning up
            READ_IN_PROGRESS -> EMPTY; WRITE_IN_PROGRESS -> VALID and dirty   @slru.waitio.fix
            LWLockRelease(buffer_locks[slotno])                           @slru.waitio.cond-unlock`),

	trace.DefineFunc("SlruInternalWritePage", "access/transam/slru.c", "PG 17 (PG ≤ 16: ControlLock)", `
SlruInternalWritePage(ctl, slotno, fdata)   -- bank lock held exclusively
    pageno = page_number[slotno]
    while page_status[slotno] == WRITE_IN_PROGRESS and page_number[slotno] == pageno:
        SimpleLruWaitIO(ctl, slotno)                                      @slru.write.wait
    if !page_dirty[slotno] or page_status[slotno] != VALID or page_number[slotno] != pageno:
        return   -- clean already, or no longer that page                 @slru.write.skip
    page_status[slotno] = WRITE_IN_PROGRESS; page_dirty[slotno] = false   @slru.write.begin
    LWLockAcquire(buffer_locks[slotno], LW_EXCLUSIVE)                     @slru.write.io-lock
    LWLockRelease(bank_locks[bankno])   -- the bank is free during the write   @slru.write.unlock
    ok = SlruPhysicalWritePage(ctl, pageno, slotno, fdata)                @slru.write.physical
    LWLockAcquire(bank_locks[bankno], LW_EXCLUSIVE)                       @slru.write.relock
    if !ok: page_dirty[slotno] = true
    page_status[slotno] = VALID   -- dirty again if re-dirtied meanwhile  @slru.write.done
    LWLockRelease(buffer_locks[slotno])                                   @slru.write.io-unlock`),

	trace.DefineFunc("SimpleLruZeroPage", "access/transam/slru.c", "PG 17 (PG ≤ 16: ControlLock)", `
SimpleLruZeroPage(ctl, pageno)   -- bank lock held exclusively
    slotno = SlruSelectLRUPage(ctl, pageno)                               @slru.zero.select
    page_number[slotno] = pageno; page_status[slotno] = VALID
    page_dirty[slotno] = true                                             @slru.zero.set
    SlruRecentlyUsed(shared, slotno)
    MemSet(page_buffer[slotno], 0, BLCKSZ)                                @slru.zero.memset
    SimpleLruZeroLSNs(ctl, slotno)
    pg_atomic_write_u64(&shared->latest_page_number, pageno)              @slru.zero.latest
    return slotno`),

	trace.DefineFunc("SimpleLruWriteAll", "access/transam/slru.c", "PG 17 (PG ≤ 16: ControlLock)", `
SimpleLruWriteAll(ctl, allow_redirtied)   -- checkpoint
    prevbank = SlotGetBankNumber(0)
    LWLockAcquire(bank_locks[prevbank], LW_EXCLUSIVE)                     @slru.writeall.lock
    for slotno = 0 .. shared->num_slots-1:
        curbank = SlotGetBankNumber(slotno)
        if curbank != prevbank:
            LWLockRelease(bank_locks[prevbank])                           @slru.writeall.unlock-prev
            LWLockAcquire(bank_locks[curbank], LW_EXCLUSIVE)              @slru.writeall.lock-next
            prevbank = curbank
        if page_status[slotno] == EMPTY: continue                         @slru.writeall.slot
        SlruInternalWritePage(ctl, slotno, &fdata)
    LWLockRelease(bank_locks[prevbank])                                   @slru.writeall.unlock`),

	trace.DefineFunc("TransactionIdGetStatus", "access/transam/clog.c", "PG 17", `
TransactionIdGetStatus(xid, lsn)
    pageno = TransactionIdToPage(xid)   -- xid / CLOG_XACTS_PER_PAGE (32768)   @slru.clog.get
    byteno = TransactionIdToByte(xid)   -- (xid % 32768) / 4
    bshift = TransactionIdToBIndex(xid) * CLOG_BITS_PER_XACT   -- (xid % 4) * 2
    slotno = SimpleLruReadPage_ReadOnly(XactCtl, pageno, xid)   -- takes the bank lock
    status = (page_buffer[slotno][byteno] >> bshift) & CLOG_XACT_BITMASK   @slru.clog.get-byte
    *lsn = group_lsn[GetLSNIndex(slotno, xid)]
    LWLockRelease(SimpleLruGetBankLock(XactCtl, pageno))                  @slru.clog.get-unlock
    return status`),

	trace.DefineFunc("TransactionIdSetPageStatus", "access/transam/clog.c", "PG 17 (no group update)", `
TransactionIdSetPageStatus(xid, nsubxids, subxids, status, lsn, pageno, all_xact_same_page)
    lock = SimpleLruGetBankLock(XactCtl, pageno)                          @slru.clog.set
    (when the lock is busy PostgreSQL may hand the update to a group leader: not modelled)
    LWLockAcquire(lock, LW_EXCLUSIVE)                                     @slru.clog.set-lock
    -- TransactionIdSetPageStatusInternal:
    slotno = SimpleLruReadPage(XactCtl, pageno, XLogRecPtrIsInvalid(lsn), xid)
    -- TransactionIdSetStatusBit(xid, status, lsn, slotno):
    curval = (page_buffer[slotno][byteno] >> bshift) & CLOG_XACT_BITMASK
    Assert(curval == 0 or (curval == SUB_COMMITTED and status != IN_PROGRESS) or curval == status)   @slru.clog.set-check
    byte = page_buffer[slotno][byteno]
    byte &= ~(CLOG_XACT_BITMASK << bshift); byte |= status << bshift       @slru.clog.set-byte
    page_dirty[slotno] = true                                             @slru.clog.set-dirty
    LWLockRelease(lock)                                                   @slru.clog.set-unlock`),

	trace.DefineFunc("ExtendCLOG", "access/transam/clog.c", "PG 17", `
ExtendCLOG(newestXact)
    if TransactionIdToPgIndex(newestXact) != 0 and newestXact != FirstNormalTransactionId:
        return   -- not the first xid of a page: nothing to do            @slru.extend.skip
    pageno = TransactionIdToPage(newestXact)
    LWLockAcquire(SimpleLruGetBankLock(XactCtl, pageno), LW_EXCLUSIVE)    @slru.extend.lock
    ZeroCLOGPage(pageno, true)   -- SimpleLruZeroPage, then a WAL record  @slru.extend.zero
    LWLockRelease(lock)                                                   @slru.extend.unlock`),

	trace.DefineFunc("BootStrapCLOG", "access/transam/clog.c", "PG 17", `
BootStrapCLOG()   -- initdb: create and write the first page
    LWLockAcquire(SimpleLruGetBankLock(XactCtl, 0), LW_EXCLUSIVE)         @slru.boot.lock
    slotno = ZeroCLOGPage(0, false)                                       @slru.boot.zero
    SimpleLruWritePage(XactCtl, slotno)                                   @slru.boot.write
    LWLockRelease(lock)                                                   @slru.boot.unlock`),

	trace.DefineFunc("LWLockReleaseAll", "storage/lmgr/lwlock.c", "PG 9.x–18", `
AbortTransaction -> LWLockReleaseAll()   -- an ERROR releases every LWLock held
    while num_held_lwlocks > 0:
        LWLockRelease(held_lwlocks[num_held_lwlocks - 1].lock)            @slru.abort.release`),
}

// site resolves a site name; referring to pseudoFuncs makes Go initialise
// the pseudo-code (and so register the sites) before any site variable.
func site(name string) trace.Site {
	_ = pseudoFuncs
	return trace.SiteOf(name)
}

// Sites of the shared functions.
var (
	sLRURead, sLRUTouch = site("slru.lru.read"), site("slru.lru.touch")

	sReadWait, sReadHit, sReadClaim, sReadMap            = site("slru.read.wait"), site("slru.read.hit"), site("slru.read.claim"), site("slru.read.map")
	sReadIOLock, sReadUnlock, sReadPhysical, sReadRelock = site("slru.read.io-lock"), site("slru.read.unlock"), site("slru.read.physical"), site("slru.read.relock")
	sReadDone, sReadIOUnlock, sReadError                 = site("slru.read.done"), site("slru.read.io-unlock"), site("slru.read.error")

	sWaitUnlock, sWaitIOLock, sWaitIOUnlock, sWaitRelock = site("slru.waitio.unlock"), site("slru.waitio.io-lock"), site("slru.waitio.io-unlock"), site("slru.waitio.relock")
	sWaitCond, sWaitFix, sWaitCondUnlock                 = site("slru.waitio.cond"), site("slru.waitio.fix"), site("slru.waitio.cond-unlock")

	sWriteWait, sWriteSkip, sWriteBegin, sWriteIOLock, sWriteUnlock = site("slru.write.wait"), site("slru.write.skip"), site("slru.write.begin"), site("slru.write.io-lock"), site("slru.write.unlock")
	sWritePhysical, sWriteRelock, sWriteDone, sWriteIOUnlock        = site("slru.write.physical"), site("slru.write.relock"), site("slru.write.done"), site("slru.write.io-unlock")

	sZeroSelect, sZeroSet, sZeroLatest = site("slru.zero.select"), site("slru.zero.set"), site("slru.zero.latest")

	sWriteAllLock, sWriteAllUnlockPrev, sWriteAllLockNext = site("slru.writeall.lock"), site("slru.writeall.unlock-prev"), site("slru.writeall.lock-next")
	sWriteAllSlot, sWriteAllUnlock                        = site("slru.writeall.slot"), site("slru.writeall.unlock")

	sClogGet, sClogGetByte, sClogGetUnlock              = site("slru.clog.get"), site("slru.clog.get-byte"), site("slru.clog.get-unlock")
	sClogSet, sClogSetLock, sClogSetCheck, sClogSetByte = site("slru.clog.set"), site("slru.clog.set-lock"), site("slru.clog.set-check"), site("slru.clog.set-byte")
	sClogSetDirty, sClogSetUnlock                       = site("slru.clog.set-dirty"), site("slru.clog.set-unlock")

	sExtendSkip, sExtendLock, sExtendUnlock = site("slru.extend.skip"), site("slru.extend.lock"), site("slru.extend.unlock")
	sBootLock, sBootUnlock                  = site("slru.boot.lock"), site("slru.boot.unlock")
	sAbortRelease                           = site("slru.abort.release")
)

// roSites are the sites of SimpleLruReadPage_ReadOnly in one variant.
type roSites struct {
	lock, scan, check, hit, unlock, relock trace.Site
}

// selSites are the sites of SlruSelectLRUPage in one variant.
type selSites struct {
	scan, found, probe, count, empty, reset, latest, valid, busy, wait, victim, write trace.Site
}

var (
	roBanks = roSites{lock: site("slru.ro.lock"), scan: site("slru.ro.scan"), hit: site("slru.ro.hit"),
		unlock: site("slru.ro.unlock"), relock: site("slru.ro.relock")}
	roSingle = roSites{lock: site("slru.ro16.lock"), scan: site("slru.ro16.scan"), hit: site("slru.ro16.hit"),
		unlock: site("slru.ro16.unlock"), relock: site("slru.ro16.relock")}
	roHash = roSites{lock: site("slru.roh.lock"), scan: site("slru.roh.probe"), check: site("slru.roh.check"),
		hit: site("slru.roh.hit"), unlock: site("slru.roh.unlock"), relock: site("slru.roh.relock")}

	selBanks = selSites{scan: site("slru.sel.scan"), found: site("slru.sel.found"), probe: site("slru.sel.probe"),
		count: site("slru.sel.count"), empty: site("slru.sel.empty"), reset: site("slru.sel.reset"),
		latest: site("slru.sel.latest"), valid: site("slru.sel.valid"), busy: site("slru.sel.busy"),
		wait: site("slru.sel.wait"), victim: site("slru.sel.victim"), write: site("slru.sel.write")}
	selSingle = selSites{scan: site("slru.sel16.scan"), found: site("slru.sel16.found"),
		count: site("slru.sel16.count"), empty: site("slru.sel16.empty"), reset: site("slru.sel16.reset"),
		latest: site("slru.sel16.latest"), valid: site("slru.sel16.valid"), busy: site("slru.sel16.busy"),
		wait: site("slru.sel16.wait"), victim: site("slru.sel16.victim"), write: site("slru.sel16.write")}
)

// Funcs returns the pseudo-code blocks this package registers, in order.
func Funcs() []*trace.Func { return append([]*trace.Func(nil), pseudoFuncs...) }
