// Package slru models PostgreSQL's simple-LRU caches
// (src/backend/access/transam/slru.c) with the commit log (clog.c) on top:
// the small shared caches of pg_xact, pg_subtrans, pg_multixact and the
// others, and PostgreSQL 17's split of them into banks.
//
// Three variants (Config.Variant, a scenario's slru=…):
//
//   - Banks, PostgreSQL 17.3+ (53c2a97a92 "Improve performance of
//     subsystems on top of SLRU", ffd9b81346): nslots in banks of
//     SLRU_BANK_SIZE = 16; a page's bank is pageno % nbanks
//     (SimpleLruGetBankLock); one LWLock and one LRU counter per bank; a
//     lookup searches only that bank, linearly. Config.BankRule = BankMask
//     gives 17.0–17.2's pageno & (nbanks − 1) instead.
//   - Single, PostgreSQL ≤ 16: one ControlLock and a search of every slot.
//     It is the same code with one bank of all the slots. Its events carry
//     PG 16's sites, so the code panel shows PG 16's code: the searching
//     functions have their own (slru.ro16.*, slru.sel16.*), and the shared
//     ones are re-labelled (sites16.go: SimpleLruReadPage, SlruRecentlyUsed,
//     SimpleLruWaitIO, SlruInternalWritePage, SimpleLruZeroPage,
//     SimpleLruWriteAll and the clog.c functions, with XactSLRULock).
//   - BanksHash: Banks plus a hash table from page number to slot in each
//     bank, the buffer-mapping table of the 2023 pgsql-hackers thread (seed
//     004), which was dropped because with banks of 8–16 slots the linear
//     search beat it. The table is laid out like dynahash (hash.go says
//     how, and what is left out); HashGoMap swaps in a Go map to compare.
//
// What it models, with the PostgreSQL function each Go function follows
// (PG 17 unless said otherwise; sites.go has the pseudo-code):
//
//   - SimpleLruReadPage_ReadOnly (ReadPageReadOnly): the bank lock shared,
//     a linear search (or a probe) for a slot that is not EMPTY, holds the
//     page and is not READ_IN_PROGRESS (a page being written is fine);
//     SlruRecentlyUsed under the shared lock, racy on purpose; on a miss,
//     relock exclusive and SimpleLruReadPage(write_ok = true).
//   - SimpleLruReadPage (ReadPage): SlruSelectLRUPage; a hit, or a wait
//     (SimpleLruWaitIO) for a read in progress or a write the caller may
//     not overlap; on a miss the slot is claimed READ_IN_PROGRESS, its
//     buffer lock taken and the bank lock released during the read; then
//     VALID (EMPTY and an ERROR if the read failed).
//   - SlruRecentlyUsed: page_lru_count = ++bank_cur_lru_count unless the
//     slot is already the newest.
//   - SlruSelectLRUPage: the page's own slot if present; else cur =
//     bank_cur_lru_count++, an EMPTY slot at once, else the VALID slot of
//     largest age cur − page_lru_count (a negative age is reset to 0; ties
//     go to the page that PagePrecedes), never the slot holding
//     latest_page_number; if every candidate is under I/O, wait for the
//     oldest and retry; a dirty choice is written (SlruInternalWritePage)
//     and the search retried.
//   - SimpleLruWaitIO, SlruInternalWritePage, SimpleLruWritePage,
//     SimpleLruZeroPage (which sets latest_page_number), SimpleLruWriteAll
//     (a checkpoint), LWLockReleaseAll on an ERROR.
//   - clog.c: TransactionIdToPage (xid / 32768), TransactionIdToByte,
//     TransactionIdToBIndex, two status bits per transaction,
//     TransactionIdGetStatus, TransactionIdSetPageStatus with
//     TransactionIdSetStatusBit's rule, ExtendCLOG, BootStrapCLOG,
//     StartupCLOG, CLOGPagePrecedes.
//   - Sizes: SimpleLruAutotuneBuffers and the PG 17 GUCs (Buffers,
//     TransactionBuffers: transaction_buffers = 0 gives shared_buffers/512
//     rounded down to a multiple of 16, at least 16, at most 1024; an
//     explicit value must be a multiple of 16 and is clamped to
//     [16, 65536]); PG 16's Min(128, Max(4, NBuffers/512)).
//
// The page states are EMPTY, READ_IN_PROGRESS, VALID and WRITE_IN_PROGRESS
// with page_dirty apart, as in slru.h. Pages live on a simulated disk
// (Disk: segment files of 32 pages named %04X), so reads and writes really
// move bytes: a clean VALID slot equals its page on disk.
//
// Every shared-memory step is preceded by a yield to the scheduler (package
// sched) and followed by an event (package trace) from the backend that did
// it, whose Site is the pseudo-code line: each slot a search compares, a
// hash probe, each victim candidate with its age and verdict, every lock
// taken, waited for and released. Describe prints them. The events use
// engine/trace's SLRU classes (ClassBank = trace.OBank, ClassSlot =
// trace.OSlot, ClassSlotIO = trace.OSlotIO, ClassSLRU = trace.OSLRU), which
// buffer-pool views ignore, and its SLRU kinds (KSlotScan for a slot a
// search compares, KSlotState for a slot's state change, KLRUTouch and
// KLRUCount for LRU counters, KCandidate and KSkipLatest for the victim
// search, KStore for plain stores) beside the generic ones; events.go lists
// what each carries. Each event is emitted in the step that makes its
// change, right after it (and after the Stats counter that counts it), so
// that a view applying the log (viz/slruview) agrees with the SLRU after
// every event. Two exceptions, both in one step: a KMiss comes just before
// the KSlotState that claims the slot, and a banks+hash table changes with
// its slot, the KMapDelete/KMapInsert after the KSlotState reporting it.
//
// Fast path: a backend with no log and no scheduler (fast mode) runs
// SimpleLruReadPage_ReadOnly and TransactionIdGetStatus without yields or
// events, and the bank search is a tight loop over a slice of page
// numbers (searchBank) or one probe of the table (probeFast); nothing is
// allocated per lookup. Misses go through the modelled code with the hooks
// off. TestFastPathMatchesModelled compares the two paths.
//
// Invariants (SLRU.CheckInvariants, checked after every event in the
// tests): states and dirty flags consistent; every non-EMPTY slot holds a
// page of its own bank, no page twice; the banks+hash tables map exactly
// the non-EMPTY slots; lock holders consistent; a slot under I/O has its
// buffer lock held (or its bank lock, while the I/O starts or ends); a
// clean VALID slot equals the disk.
//
// Not modelled: WAL (no group_lsn, no XLogFlush before a commit-log write,
// no async commit), the group status update of a busy bank lock
// (TransactionGroupUpdateXidStatus), subtransactions, SimpleLruTruncate,
// segment deletion, fsync requests, pg_stat_slru counters (Stats counts the
// same events). The engine is not safe for concurrent goroutines: backends
// interleave as sched coroutines.
//
// Usage:
//
//	s, _ := slru.New(slru.Config{Variant: slru.Banks, Slots: 32}, trace.NewLog())
//	a, _ := s.NewBackend("A")
//	_ = a.BootStrapCLOG()
//	_ = a.TransactionIdSetStatus(100, slru.StatusCommitted)
//	st, _ := a.TransactionIdGetStatus(100) // committed
//	for _, e := range s.Log().Events() {
//		fmt.Println(slru.Describe(e))
//	}
package slru
