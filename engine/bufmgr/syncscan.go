package bufmgr

import (
	"fmt"

	"bufferlab/engine/trace"
)

// Synchronized sequential scans (access/common/syncscan.c, PG 8.3–18;
// heapam.c initscan and heapgettup_pagemode, PG 15). With
// synchronize_seqscans on (PostgreSQL's default), a heap scan of a
// relation larger than NBuffers/4 blocks (the same test that gives it a
// BULKREAD ring) starts at the block where the last scan of that relation
// reported being, and wraps around the end back to it. A scan reports its
// position every SYNC_SCAN_REPORT_INTERVAL pages, as it moves on to the
// next page; the last report of a scan that ran to its end is its start
// block (the report comes before the end-of-scan test). A scan that stops
// early (a cursor paused mid-scan) leaves its last report behind, and the
// next scan starts there even after the first has gone away.
//
// The locations live in a shared array of SYNC_SCAN_NELEM = 20 entries in
// LRU order under SyncScanLock: a relation not in it takes the least
// recently used entry. Each ss_search runs in one step (the lock is taken
// and released around it with no shared memory access in between), so
// the conditional acquire of ss_report_location never fails in BufferLab;
// in PostgreSQL a report is skipped when the lock is busy.

// SyncScanNElem is SYNC_SCAN_NELEM (syncscan.c): the number of relations
// whose scan location is remembered.
const SyncScanNElem = 20

// SyncScanReportInterval is SYNC_SCAN_REPORT_INTERVAL (syncscan.c): 128kB
// / BLCKSZ = 16 pages between two reports of a scan's position.
const SyncScanReportInterval = 128 * 1024 / BLCKSZ

// ssItem is one entry of the scan location list (ss_scan_location_t).
type ssItem struct {
	rnode    RelFileNode
	location uint32
}

// ssList is scan_locations: the entries from the most recently used
// (head, index 0) to the least (tail). Unused entries have an invalid
// relfilenode and location InvalidBlockNumber, as SyncScanShmemInit
// leaves them.
type ssList [SyncScanNElem]ssItem

func newSSList() ssList {
	var l ssList
	for i := range l {
		l[i].location = InvalidBlockNumber
	}
	return l
}

// search is ss_search (syncscan.c): find rnode's entry, or take the tail
// entry for it with location; with set, store location in a found entry;
// move the entry to the head. It returns the entry's location before and
// after (before is InvalidBlockNumber for a new entry).
func (l *ssList) search(rnode RelFileNode, location uint32, set bool) (before, after uint32) {
	i := 0
	for ; i < len(l)-1 && l[i].rnode != rnode; i++ {
	}
	it := l[i]
	before = it.location
	if it.rnode != rnode {
		it, before = ssItem{rnode: rnode, location: location}, InvalidBlockNumber
	} else if set {
		it.location = location
	}
	copy(l[1:i+1], l[:i])
	l[0] = it
	return before, it.location
}

// startFor is what ss_get_location will return for rnode without changing
// the list: its location, 0 when it has no entry or the location is not
// below nblocks.
func (l *ssList) startFor(rnode RelFileNode, nblocks uint32) uint32 {
	for _, it := range l {
		if it.rnode == rnode {
			if it.location >= nblocks {
				return 0
			}
			return it.location
		}
	}
	return 0
}

// SetSynchronizeSeqscans sets the synchronize_seqscans GUC for every
// backend of the pool (PostgreSQL's default is on; NewPool leaves it off,
// Options.SyncScans turns it on).
func (p *Pool) SetSynchronizeSeqscans(on bool) { p.syncScans = on }

// SynchronizeSeqscans reports the synchronize_seqscans setting.
func (p *Pool) SynchronizeSeqscans() bool { return p.syncScans }

// SyncScanLocation is the scan location remembered for rel, if it has an
// entry in the list.
func (p *Pool) SyncScanLocation(rel *Relation) (uint32, bool) {
	rn := rel.RelFileNode()
	for _, it := range p.ss {
		if it.rnode == rn {
			return it.location, true
		}
	}
	return 0, false
}

// ssGetLocation is ss_get_location (syncscan.c, PG 8.3–18): the block a
// new scan of rel, nblocks long, starts at: the location in the list (a
// new entry at 0 when rel has none), or 0 when that is past the end.
// Event: a load at scan.sync-start (Obj = relation, Before = the entry's
// location, InvalidBlockNumber if it had none, After = the start block).
// The caller has stepped.
func (b *Backend) ssGetLocation(rel *Relation, nblocks uint32) uint32 {
	before, loc := b.pool.ss.search(rel.RelFileNode(), 0, false)
	if loc >= nblocks {
		loc = 0
	}
	b.emit(trace.KLoad, sScanSyncStart, trace.ORelation, int32(rel.Number), uint64(before), uint64(loc), 0)
	return loc
}

// ssReportLocation is ss_report_location (syncscan.c, PG 8.3–18): every
// SyncScanReportInterval pages, store the scan's position. Event: a store
// at scan.sync-report (Obj = relation, Before → After = the entry's
// location).
func (b *Backend) ssReportLocation(rel *Relation, page uint32) {
	b.ssReportLocationAt(rel, page, sScanSyncReport)
}

// ssReportLocationAt is ssReportLocation at site (PostgreSQL 17 reports
// from the read stream's callback: scan17.sync-report).
func (b *Backend) ssReportLocationAt(rel *Relation, page uint32, site trace.Site) {
	if page%SyncScanReportInterval != 0 {
		return
	}
	b.step(site)
	before, after := b.pool.ss.search(rel.RelFileNode(), page, true)
	b.emit(trace.KStore, site, trace.ORelation, int32(rel.Number), uint64(before), uint64(after), 0)
}

// describeSyncScan decodes the events of ss_get_location and
// ss_report_location, after the object.
func describeSyncScan(e trace.Event) (string, bool) {
	loc := func(v uint64) string {
		if uint32(v) == InvalidBlockNumber {
			return "none"
		}
		return fmt.Sprint(v)
	}
	switch {
	case e.Kind == trace.KLoad && e.Site == sScanSyncStart:
		return fmt.Sprintf(": shared scan location %s, start at block %d", loc(e.Before), e.After), true
	case e.Kind == trace.KStore && (e.Site == sScanSyncReport || e.Site == s17ScanSyncReport):
		return fmt.Sprintf(": shared scan location %s -> %d", loc(e.Before), e.After), true
	}
	return "", false
}
