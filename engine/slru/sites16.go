package slru

import (
	"strings"

	"bufferlab/engine/trace"
)

// The PostgreSQL 16 versions of the functions the variants share, for
// slru=single. The engine runs the same Go code for every variant (a single
// SLRU is one bank of every slot, its bank lock the ControlLock); an SLRU
// of the Single variant re-labels the events of these functions with the
// sites below (siteFor), so that the code panel shows PostgreSQL 16's code:
// the one ControlLock (XactSLRULock for the commit log), one LRU counter,
// no banks. Each block follows PG 16's function of the same name.
var pseudoFuncs16 = []*trace.Func{
	trace.DefineFunc("SimpleLruReadPage (PG 16)", "access/transam/slru.c", "PG 9.x–16 (slru=single)", `
SimpleLruReadPage(ctl, pageno, write_ok, xid)   -- ControlLock held exclusively
    for (;;):
        slotno = SlruSelectLRUPage(ctl, pageno)                           @slru.read16.select
        if page_status[slotno] != EMPTY and page_number[slotno] == pageno:
            if page_status[slotno] == READ_IN_PROGRESS or
               (page_status[slotno] == WRITE_IN_PROGRESS and !write_ok):
                SimpleLruWaitIO(ctl, slotno); continue                    @slru.read16.wait
            SlruRecentlyUsed(shared, slotno)
            return slotno   -- found in memory                            @slru.read16.hit
        page_number[slotno] = pageno; page_status[slotno] = READ_IN_PROGRESS
        page_dirty[slotno] = false                                        @slru.read16.claim
        LWLockAcquire(&shared->buffer_locks[slotno].lock, LW_EXCLUSIVE)   @slru.read16.io-lock
        LWLockRelease(shared->ControlLock)   -- the SLRU is free during the read   @slru.read16.unlock
        ok = SlruPhysicalReadPage(ctl, pageno, slotno)                    @slru.read16.physical
        SimpleLruZeroLSNs(ctl, slotno)
        LWLockAcquire(shared->ControlLock, LW_EXCLUSIVE)                  @slru.read16.relock
        page_status[slotno] = ok ? VALID : EMPTY                          @slru.read16.done
        LWLockRelease(&shared->buffer_locks[slotno].lock)                 @slru.read16.io-unlock
        if !ok: SlruReportIOError(ctl, pageno, xid)   -- ERROR            @slru.read16.error
        SlruRecentlyUsed(shared, slotno)
        return slotno                                                     @slru.read16.return`),

	trace.DefineFunc("SlruRecentlyUsed (PG 16)", "access/transam/slru.c", "PG 9.x–16 (a macro; slru=single)", `
SlruRecentlyUsed(shared, slotno)   -- one LRU counter for the whole SLRU
    new_lru_count = shared->cur_lru_count                                 @slru.lru16.read
    if new_lru_count != shared->page_lru_count[slotno]:   -- else it is the newest already
        shared->cur_lru_count = ++new_lru_count
        shared->page_lru_count[slotno] = new_lru_count                    @slru.lru16.touch`),

	trace.DefineFunc("SimpleLruWaitIO (PG 16)", "access/transam/slru.c", "PG 9.x–16 (slru=single)", `
SimpleLruWaitIO(ctl, slotno)   -- ControlLock held exclusively at entry and exit
    LWLockRelease(shared->ControlLock)                                    @slru.waitio16.unlock
    LWLockAcquire(&shared->buffer_locks[slotno].lock, LW_SHARED)   -- sleeps until the I/O ends   @slru.waitio16.io-lock
    LWLockRelease(&shared->buffer_locks[slotno].lock)                     @slru.waitio16.io-unlock
    LWLockAcquire(shared->ControlLock, LW_EXCLUSIVE)                      @slru.waitio16.relock
    if page_status[slotno] is READ_IN_PROGRESS or WRITE_IN_PROGRESS:
        if LWLockConditionalAcquire(&shared->buffer_locks[slotno].lock, LW_SHARED):   @slru.waitio16.cond
            -- nobody is doing that I/O: it failed without cleaning up
            READ_IN_PROGRESS -> EMPTY; WRITE_IN_PROGRESS -> VALID and dirty   @slru.waitio16.fix
            LWLockRelease(&shared->buffer_locks[slotno].lock)             @slru.waitio16.cond-unlock`),

	trace.DefineFunc("SlruInternalWritePage (PG 16)", "access/transam/slru.c", "PG 9.x–16 (slru=single)", `
SlruInternalWritePage(ctl, slotno, fdata)   -- ControlLock held exclusively
    pageno = page_number[slotno]
    while page_status[slotno] == WRITE_IN_PROGRESS and page_number[slotno] == pageno:
        SimpleLruWaitIO(ctl, slotno)                                      @slru.write16.wait
    if !page_dirty[slotno] or page_status[slotno] != VALID or page_number[slotno] != pageno:
        return   -- clean already, or no longer that page                 @slru.write16.skip
    page_status[slotno] = WRITE_IN_PROGRESS; page_dirty[slotno] = false   @slru.write16.begin
    LWLockAcquire(&shared->buffer_locks[slotno].lock, LW_EXCLUSIVE)       @slru.write16.io-lock
    LWLockRelease(shared->ControlLock)   -- the SLRU is free during the write   @slru.write16.unlock
    ok = SlruPhysicalWritePage(ctl, pageno, slotno, fdata)                @slru.write16.physical
    LWLockAcquire(shared->ControlLock, LW_EXCLUSIVE)                      @slru.write16.relock
    if !ok: page_dirty[slotno] = true
    page_status[slotno] = VALID   -- dirty again if re-dirtied meanwhile  @slru.write16.done
    LWLockRelease(&shared->buffer_locks[slotno].lock)                     @slru.write16.io-unlock`),

	trace.DefineFunc("SimpleLruZeroPage (PG 16)", "access/transam/slru.c", "PG 9.x–16 (slru=single)", `
SimpleLruZeroPage(ctl, pageno)   -- ControlLock held exclusively
    slotno = SlruSelectLRUPage(ctl, pageno)                               @slru.zero16.select
    page_number[slotno] = pageno; page_status[slotno] = VALID
    page_dirty[slotno] = true                                             @slru.zero16.set
    SlruRecentlyUsed(shared, slotno)
    MemSet(page_buffer[slotno], 0, BLCKSZ)                                @slru.zero16.memset
    SimpleLruZeroLSNs(ctl, slotno)
    shared->latest_page_number = pageno   -- a plain int under the ControlLock   @slru.zero16.latest
    return slotno`),

	trace.DefineFunc("SimpleLruWriteAll (PG 16)", "access/transam/slru.c", "PG 14–16 (slru=single)", `
SimpleLruWriteAll(ctl, allow_redirtied)   -- checkpoint
    LWLockAcquire(shared->ControlLock, LW_EXCLUSIVE)                      @slru.writeall16.lock
    for slotno = 0 .. shared->num_slots-1:
        SlruInternalWritePage(ctl, slotno, &fdata)   -- returns at once unless dirty   @slru.writeall16.slot
    LWLockRelease(shared->ControlLock)                                    @slru.writeall16.unlock`),

	trace.DefineFunc("TransactionIdGetStatus (PG 16)", "access/transam/clog.c", "PG 13–16: XactSLRULock (slru=single)", `
TransactionIdGetStatus(xid, lsn)
    pageno = TransactionIdToPage(xid)   -- xid / CLOG_XACTS_PER_PAGE (32768)   @slru.clog16.get
    byteno = TransactionIdToByte(xid)   -- (xid % 32768) / 4
    bshift = TransactionIdToBIndex(xid) * CLOG_BITS_PER_XACT   -- (xid % 4) * 2
    slotno = SimpleLruReadPage_ReadOnly(XactCtl, pageno, xid)   -- takes XactSLRULock
    status = (page_buffer[slotno][byteno] >> bshift) & CLOG_XACT_BITMASK   @slru.clog16.get-byte
    *lsn = group_lsn[GetLSNIndex(slotno, xid)]
    LWLockRelease(XactSLRULock)   -- the commit log's one ControlLock     @slru.clog16.get-unlock
    return status`),

	trace.DefineFunc("TransactionIdSetPageStatus (PG 16)", "access/transam/clog.c", "PG 13–16: XactSLRULock (no group update; slru=single)", `
TransactionIdSetPageStatus(xid, nsubxids, subxids, status, lsn, pageno, all_xact_same_page)   @slru.clog16.set
    (when XactSLRULock is busy PostgreSQL may hand the update to a group leader: not modelled)
    LWLockAcquire(XactSLRULock, LW_EXCLUSIVE)                             @slru.clog16.set-lock
    -- TransactionIdSetPageStatusInternal:
    slotno = SimpleLruReadPage(XactCtl, pageno, XLogRecPtrIsInvalid(lsn), xid)
    -- TransactionIdSetStatusBit(xid, status, lsn, slotno):
    curval = (page_buffer[slotno][byteno] >> bshift) & CLOG_XACT_BITMASK
    Assert(curval == 0 or (curval == SUB_COMMITTED and status != IN_PROGRESS) or curval == status)   @slru.clog16.set-check
    byte = page_buffer[slotno][byteno]
    byte &= ~(CLOG_XACT_BITMASK << bshift); byte |= status << bshift       @slru.clog16.set-byte
    page_dirty[slotno] = true                                             @slru.clog16.set-dirty
    LWLockRelease(XactSLRULock)                                           @slru.clog16.set-unlock`),

	trace.DefineFunc("ExtendCLOG (PG 16)", "access/transam/clog.c", "PG 13–16: XactSLRULock (slru=single)", `
ExtendCLOG(newestXact)
    if TransactionIdToPgIndex(newestXact) != 0 and newestXact != FirstNormalTransactionId:
        return   -- not the first xid of a page: nothing to do            @slru.extend16.skip
    pageno = TransactionIdToPage(newestXact)
    LWLockAcquire(XactSLRULock, LW_EXCLUSIVE)                             @slru.extend16.lock
    ZeroCLOGPage(pageno, true)   -- SimpleLruZeroPage, then a WAL record  @slru.extend16.zero
    LWLockRelease(XactSLRULock)                                           @slru.extend16.unlock`),

	trace.DefineFunc("BootStrapCLOG (PG 16)", "access/transam/clog.c", "PG 13–16: XactSLRULock (slru=single)", `
BootStrapCLOG()   -- initdb: create and write the first page
    LWLockAcquire(XactSLRULock, LW_EXCLUSIVE)                             @slru.boot16.lock
    slotno = ZeroCLOGPage(0, false)                                       @slru.boot16.zero
    SimpleLruWritePage(XactCtl, slotno)                                   @slru.boot16.write
    LWLockRelease(XactSLRULock)                                           @slru.boot16.unlock`),
}

// pg16Prefixes pair the site prefixes of the shared functions with those of
// their PG 16 blocks above.
var pg16Prefixes = [][2]string{
	{"slru.read.", "slru.read16."}, {"slru.lru.", "slru.lru16."}, {"slru.waitio.", "slru.waitio16."},
	{"slru.write.", "slru.write16."}, {"slru.zero.", "slru.zero16."}, {"slru.writeall.", "slru.writeall16."},
	{"slru.clog.", "slru.clog16."}, {"slru.extend.", "slru.extend16."}, {"slru.boot.", "slru.boot16."},
}

// toPG16 maps a shared function's site to its PG 16 block's, and fromPG16
// back; built once the sites above are registered.
var toPG16, fromPG16 = pg16Sites()

func pg16Sites() (to, from map[trace.Site]trace.Site) {
	_, _ = pseudoFuncs, pseudoFuncs16 // both registered first
	to, from = map[trace.Site]trace.Site{}, map[trace.Site]trace.Site{}
	for i := 1; i < trace.Sites(); i++ {
		s := trace.Site(i)
		name := s.String()
		for _, p := range pg16Prefixes {
			if rest, ok := strings.CutPrefix(name, p[0]); ok {
				if t, ok := trace.LookupSite(p[1] + rest); ok {
					to[s], from[t] = t, s
				}
			}
		}
	}
	return to, from
}

// siteFor is the site an event of this SLRU carries: PG 16's for a Single
// SLRU where PG 16's code has its own block, else site itself.
func (s *SLRU) siteFor(site trace.Site) trace.Site {
	if s.pg16 {
		if t, ok := toPG16[site]; ok {
			return t
		}
	}
	return site
}

// canonical is the shared function's site for a PG 16 site (Describe
// compares against those).
func canonical(site trace.Site) trace.Site {
	if t, ok := fromPG16[site]; ok {
		return t
	}
	return site
}
