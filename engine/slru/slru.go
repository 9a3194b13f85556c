package slru

import (
	"bytes"
	"fmt"
	"math/bits"
	"sort"
	"strings"

	"bufferlab/engine/internal/enum"
	"bufferlab/engine/sched"
	"bufferlab/engine/trace"
)

// PageStatus is SlruPageStatus (slru.h). page_dirty is kept apart: it can
// be true only in PageValid or PageWriteInProgress (in the latter it means
// the page was re-dirtied while being written).
type PageStatus uint8

// Page states, with PostgreSQL's values.
const (
	PageEmpty           PageStatus = iota // SLRU_PAGE_EMPTY: not in use
	PageReadInProgress                    // SLRU_PAGE_READ_IN_PROGRESS: being read in
	PageValid                             // SLRU_PAGE_VALID: valid, not being written
	PageWriteInProgress                   // SLRU_PAGE_WRITE_IN_PROGRESS: being written out
)

var statusNames = [...]string{"EMPTY", "READ_IN_PROGRESS", "VALID", "WRITE_IN_PROGRESS"}

func (s PageStatus) String() string { return enum.Name(statusNames[:], s, "status") }

// SLRU is one simple-LRU cache: SlruCtlData and SlruSharedData (slru.h,
// PG 17) with the simulated disk behind it. The per-slot arrays are
// separate slices, as PostgreSQL's are separate arrays, so that the search
// of a bank is a loop over a slice of page numbers.
type SLRU struct {
	cfg      Config
	nslots   int
	bankSize int // slots per bank (nslots for slru=single)
	nbanks   int
	bankMask int64 // BankMask rule: nbanks − 1
	useHash  bool
	pg16     bool // Single: events carry PG 16's sites (siteFor)

	// Per slot (SlruSharedData arrays).
	pageNumber  []int64
	status      []PageStatus
	dirty       []bool
	lruCount    []int32
	pages       [][]byte // page_buffer, allocated on first use
	bufferLocks []LWLock

	// Per bank.
	bankLocks []LWLock
	bankCur   []int32 // bank_cur_lru_count (PG ≤ 16: cur_lru_count)
	tables    []dynaTable
	gomaps    []map[int64]int32

	latestPageNumber int64 // pg_atomic_uint64 latest_page_number

	disk     *Disk
	log      *trace.Log
	backends []*Backend

	ro  *roSites
	sel *selSites
}

// New builds an SLRU as SimpleLruInit does: every slot EMPTY, clean, LRU
// count 0; every bank counter 0; latest_page_number 0; and an empty disk.
// log may be nil (fast mode).
func New(cfg Config, log *trace.Log) (*SLRU, error) {
	bankSize, nbanks, err := cfg.validate()
	if err != nil {
		return nil, err
	}
	s := &SLRU{cfg: cfg, nslots: cfg.Slots, bankSize: bankSize, nbanks: nbanks, bankMask: int64(nbanks - 1),
		useHash: cfg.Variant == BanksHash, log: log, disk: NewDisk(cfg.Dir)}
	n := cfg.Slots
	s.pageNumber = make([]int64, n)
	s.status = make([]PageStatus, n)
	s.dirty = make([]bool, n)
	s.lruCount = make([]int32, n)
	s.pages = make([][]byte, n)
	s.bufferLocks = make([]LWLock, n)
	s.bankLocks = make([]LWLock, nbanks)
	s.bankCur = make([]int32, nbanks)
	if s.useHash {
		if cfg.HashTable == HashGoMap {
			s.gomaps = make([]map[int64]int32, nbanks)
			for i := range s.gomaps {
				s.gomaps[i] = make(map[int64]int32, bankSize)
			}
		} else {
			s.tables = make([]dynaTable, nbanks)
			for i := range s.tables {
				s.tables[i] = newDynaTable(bankSize)
			}
		}
	}
	switch cfg.Variant {
	case Single:
		s.ro, s.sel = &roSingle, &selSingle
		s.pg16 = true
	case BanksHash:
		s.ro, s.sel = &roHash, &selBanks
	default:
		s.ro, s.sel = &roBanks, &selBanks
	}
	return s, nil
}

// Config returns the SLRU's configuration (defaults filled in).
func (s *SLRU) Config() Config { return s.cfg }

// Variant is the SLRU's variant.
func (s *SLRU) Variant() Variant { return s.cfg.Variant }

// NumSlots is nslots.
func (s *SLRU) NumSlots() int { return s.nslots }

// BankSize is the number of slots per bank (all of them for slru=single).
func (s *SLRU) BankSize() int { return s.bankSize }

// NumBanks is ctl->nbanks (1 for slru=single).
func (s *SLRU) NumBanks() int { return s.nbanks }

// Log returns the event log (nil when tracing is off).
func (s *SLRU) Log() *trace.Log { return s.log }

// Disk returns the simulated disk.
func (s *SLRU) Disk() *Disk { return s.disk }

// Backends returns the attached backends in creation order.
func (s *SLRU) Backends() []*Backend { return s.backends }

// LatestPageNumber is latest_page_number.
func (s *SLRU) LatestPageNumber() int64 { return s.latestPageNumber }

// SetLatestPageNumber sets latest_page_number without an event, as
// StartupCLOG does from nextXid before any backend runs.
func (s *SLRU) SetLatestPageNumber(page int64) { s.latestPageNumber = page }

// BankOf is the bank of a page: SimpleLruGetBankLock's pageno % nbanks
// (17.3+), pageno & (nbanks − 1) under BankMask (17.0–17.2), 0 for
// slru=single.
func (s *SLRU) BankOf(page int64) int {
	if s.cfg.BankRule == BankMask {
		return int(page & s.bankMask)
	}
	return int(page % int64(s.nbanks))
}

// SlotBank is SlotGetBankNumber: the bank a slot belongs to.
func (s *SLRU) SlotBank(slot int) int { return slot / s.bankSize }

// BankSlots returns the first slot of bank b and one past its last.
func (s *SLRU) BankSlots(b int) (start, end int) { return b * s.bankSize, (b + 1) * s.bankSize }

// Slot describes one buffer slot.
type Slot struct {
	Page     int64 // page_number (meaningless when EMPTY)
	Status   PageStatus
	Dirty    bool
	LRUCount int32 // page_lru_count
}

// Slot returns slot i's state.
func (s *SLRU) Slot(i int) Slot {
	return Slot{Page: s.pageNumber[i], Status: s.status[i], Dirty: s.dirty[i], LRUCount: s.lruCount[i]}
}

// PageData returns the contents of slot i's buffer (nil if it never held
// a page). The slice is the SLRU's own: do not modify it.
func (s *SLRU) PageData(i int) []byte { return s.pages[i] }

// BankCounter is bank_cur_lru_count[b] (cur_lru_count for slru=single).
func (s *SLRU) BankCounter(b int) int32 { return s.bankCur[b] }

// BankLock returns the state of bank b's lock.
func (s *SLRU) BankLock(b int) LWLock { return s.bankLocks[b] }

// BufferLock returns the state of slot i's buffer (I/O) lock.
func (s *SLRU) BufferLock(i int) LWLock { return s.bufferLocks[i] }

// Find returns the slot holding page (in any state but EMPTY) without a
// lock or an event: an inspection for views and tests.
func (s *SLRU) Find(page int64) (int, bool) {
	if page < 0 {
		return -1, false
	}
	start, end := s.BankSlots(s.BankOf(page))
	for i := start; i < end; i++ {
		if s.status[i] != PageEmpty && s.pageNumber[i] == page {
			return i, true
		}
	}
	return -1, false
}

// Age is the LRU distance of slot i as SlruSelectLRUPage would compute it
// now: bank_cur_lru_count − page_lru_count (the bigger, the older).
func (s *SLRU) Age(i int) int32 { return s.bankCur[s.SlotBank(i)] - s.lruCount[i] }

// MappingEntries returns the banks+hash table of bank b as page → slot
// pairs sorted by page (nil for the other variants).
func (s *SLRU) MappingEntries(b int) [][2]int64 {
	if !s.useHash {
		return nil
	}
	var out [][2]int64
	if s.gomaps != nil {
		for p, sl := range s.gomaps[b] {
			out = append(out, [2]int64{p, int64(sl)})
		}
	} else {
		out = s.tables[b].entries()
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// MaxSimBackends bounds the backends attached to one SLRU, so a lock's
// shared holders fit its holder word.
const MaxSimBackends = 48

// NewBackend attaches a backend. Its actor number is its position (1-based).
func (s *SLRU) NewBackend(name string) (*Backend, error) {
	if len(s.backends) >= MaxSimBackends {
		return nil, fmt.Errorf("slru: at most %d backends per simulated SLRU", MaxSimBackends)
	}
	b := &Backend{s: s, log: s.log, Actor: trace.Actor(len(s.backends) + 1), Name: name}
	s.backends = append(s.backends, b)
	return b, nil
}

// SetYield installs a backend's scheduler hook (nil: run straight through).
func (b *Backend) SetYield(y sched.Yield) { b.y = y }

// Spawn starts body as b's process on s, named and numbered as b: while
// body runs, b's operations yield to s at every step and wait (SetYield),
// and after it b runs straight through again (bufmgr's Backend.Spawn).
func (b *Backend) Spawn(s *sched.Scheduler, body sched.Body) *sched.Proc {
	return s.SpawnDriving(b.Actor, b.Name, body, b)
}

// --- Mapping table (banks+hash) ---

func (s *SLRU) mapLookup(bank int, page int64) (slot int, compared int) {
	if s.gomaps != nil {
		if v, ok := s.gomaps[bank][page]; ok {
			return int(v), 1
		}
		return -1, 1
	}
	return s.tables[bank].lookup(page)
}

func (s *SLRU) mapInsert(bank int, page int64, slot int) {
	if s.gomaps != nil {
		s.gomaps[bank][page] = int32(slot)
		return
	}
	s.tables[bank].insert(page, int32(slot))
}

func (s *SLRU) mapDelete(bank int, page int64) {
	if s.gomaps != nil {
		delete(s.gomaps[bank], page)
		return
	}
	s.tables[bank].delete(page)
}

func (s *SLRU) mapLen(bank int) int {
	if s.gomaps != nil {
		return len(s.gomaps[bank])
	}
	return s.tables[bank].nentries
}

// --- Checks and pictures ---

// CheckInvariants reports the first broken invariant:
//   - a status is one of the four; page_dirty only in VALID or
//     WRITE_IN_PROGRESS;
//   - every non-EMPTY slot holds a page of its own bank, and no two hold
//     the same page;
//   - banks+hash: each bank's table maps exactly its non-EMPTY slots;
//   - locks: never an exclusive holder and shared holders at once; a
//     buffer lock is held exclusively only during its slot's I/O (or by
//     the backend finishing that I/O under the bank lock);
//   - a slot under I/O whose bank lock is not held exclusively has its
//     buffer lock held exclusively (the I/O is in progress);
//   - a VALID clean slot's buffer equals its page on disk, whenever its
//     bank lock is not held exclusively (a backend setting a status
//     changes the byte, then page_dirty, under that lock).
func (s *SLRU) CheckInvariants() error {
	for b := 0; b < s.nbanks; b++ {
		bl := &s.bankLocks[b]
		if bl.Excl != 0 && bl.NShared != 0 {
			return fmt.Errorf("bank %d lock held exclusively by %s and shared by %d", b, trace.ActorName(bl.Excl), bl.NShared)
		}
		if int(bl.NShared) != bits.OnesCount64(bl.Shared) {
			return fmt.Errorf("bank %d lock: %d shared holders but mask %#x", b, bl.NShared, bl.Shared)
		}
		start, end := s.BankSlots(b)
		seen := map[int64]int{}
		nonEmpty := 0
		for i := start; i < end; i++ {
			st := s.status[i]
			if st > PageWriteInProgress {
				return fmt.Errorf("slot %d: status %d", i, st)
			}
			if s.dirty[i] && st != PageValid && st != PageWriteInProgress {
				return fmt.Errorf("slot %d: dirty while %s", i, st)
			}
			io := &s.bufferLocks[i]
			if io.Excl != 0 && io.NShared != 0 {
				return fmt.Errorf("slot %d buffer lock held exclusively and shared", i)
			}
			if st == PageEmpty {
				if io.Excl != 0 && io.Excl != bl.Excl {
					return fmt.Errorf("slot %d: EMPTY but %s holds its buffer lock exclusively without the bank lock", i, trace.ActorName(io.Excl))
				}
				continue
			}
			nonEmpty++
			p := s.pageNumber[i]
			if s.BankOf(p) != b {
				return fmt.Errorf("slot %d (bank %d) holds page %d of bank %d", i, b, p, s.BankOf(p))
			}
			if j, dup := seen[p]; dup {
				return fmt.Errorf("slots %d and %d both hold page %d", j, i, p)
			}
			seen[p] = i
			if s.useHash {
				if m, _ := s.mapLookup(b, p); m != i {
					return fmt.Errorf("bank %d mapping table: page %d -> %d, but slot %d holds it", b, p, m, i)
				}
			}
			ioState := st == PageReadInProgress || st == PageWriteInProgress
			if ioState && bl.Excl == 0 && io.Excl == 0 {
				return fmt.Errorf("slot %d is %s but neither its bank lock nor its buffer lock is held exclusively", i, st)
			}
			if !ioState && io.Excl != 0 && io.Excl != bl.Excl {
				return fmt.Errorf("slot %d is %s but %s holds its buffer lock exclusively without the bank lock", i, st, trace.ActorName(io.Excl))
			}
			if st == PageValid && !s.dirty[i] && bl.Excl == 0 {
				d, err := s.disk.ReadPage(p)
				if err != nil {
					return fmt.Errorf("slot %d: page %d VALID and clean but not on disk: %v", i, p, err)
				}
				if !bytes.Equal(d, s.pages[i]) {
					return fmt.Errorf("slot %d: page %d VALID and clean but differs from the disk", i, p)
				}
			}
		}
		if s.useHash && s.mapLen(b) != nonEmpty {
			return fmt.Errorf("bank %d mapping table has %d entries for %d non-empty slots", b, s.mapLen(b), nonEmpty)
		}
	}
	return nil
}

// CheckQuiescent reports an error unless no lock is held and no slot is
// under I/O (after every backend has finished), then checks the invariants.
func (s *SLRU) CheckQuiescent() error {
	for b := range s.bankLocks {
		if !s.bankLocks[b].Free() {
			return fmt.Errorf("bank %d lock still held by %s", b, s.bankLocks[b])
		}
	}
	for i := range s.bufferLocks {
		if !s.bufferLocks[i].Free() {
			return fmt.Errorf("slot %d buffer lock still held by %s", i, s.bufferLocks[i])
		}
		if st := s.status[i]; st == PageReadInProgress || st == PageWriteInProgress {
			return fmt.Errorf("slot %d still %s", i, st)
		}
	}
	return s.CheckInvariants()
}

// Picture draws the SLRU as text: one block per bank with its lock and
// LRU counter, one line per slot with its page, status, dirty flag, LRU
// count and age (bank_cur_lru_count − page_lru_count), then the disk.
func (s *SLRU) Picture() string {
	var b strings.Builder
	fmt.Fprintf(&b, "slru %s (%s): %d slots, %d bank(s) of %d, latest page %d\n", s.cfg.Name, s.cfg.Variant,
		s.nslots, s.nbanks, s.bankSize, s.latestPageNumber)
	for bank := 0; bank < s.nbanks; bank++ {
		lockName := "bank lock"
		if s.cfg.Variant == Single {
			lockName = "ControlLock"
		}
		fmt.Fprintf(&b, "bank %d: %s %s, lru counter %d", bank, lockName, s.bankLocks[bank], s.bankCur[bank])
		if s.useHash {
			fmt.Fprintf(&b, ", table")
			for _, e := range s.MappingEntries(bank) {
				fmt.Fprintf(&b, " %d->%d", e[0], e[1])
			}
		}
		b.WriteByte('\n')
		start, end := s.BankSlots(bank)
		for i := start; i < end; i++ {
			if s.status[i] == PageEmpty {
				j := i
				for j+1 < end && s.status[j+1] == PageEmpty {
					j++
				}
				if j == i {
					fmt.Fprintf(&b, "  %4d  EMPTY\n", i)
				} else {
					fmt.Fprintf(&b, "  %4d  EMPTY (to slot %d)\n", i, j)
				}
				i = j
				continue
			}
			d := "clean"
			if s.dirty[i] {
				d = "dirty"
			}
			extra := ""
			if io := s.bufferLocks[i]; !io.Free() {
				extra = " io-lock " + io.String()
			}
			if s.pageNumber[i] == s.latestPageNumber {
				extra += " <- latest"
			}
			fmt.Fprintf(&b, "  %4d  page %-6d %-17s %s lru %d age %d%s\n", i, s.pageNumber[i], s.status[i], d,
				s.lruCount[i], s.Age(i), extra)
		}
	}
	b.WriteString(s.disk.Summary())
	return b.String()
}
