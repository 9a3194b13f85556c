package slru

import (
	"fmt"
	"math"
	"math/bits"

	"bufferlab/engine/internal/enum"
	"bufferlab/engine/internal/pgsize"
)

// BLCKSZ is PostgreSQL's page size: every SLRU page is one block.
const BLCKSZ = 8192

// Constants of slru.h and slru.c (PG 17).
const (
	// SlruPagesPerSegment is SLRU_PAGES_PER_SEGMENT: 32 pages, 256kB files.
	SlruPagesPerSegment = 32
	// SlruBankSize is SLRU_BANK_SIZE (1 << SLRU_BANK_BITSHIFT, 4).
	SlruBankSize = 16
	// SlruMaxAllowedBuffers is SLRU_MAX_ALLOWED_BUFFERS: 1GB of pages.
	SlruMaxAllowedBuffers = (1 << 30) / BLCKSZ
)

// MinBankSize and MaxBankSize bound Config.BankSize. PostgreSQL's is 16;
// other powers of two are for the bank-size experiment. A bank needs two
// slots at least: SlruSelectLRUPage never evicts the latest page, so a bank
// of one slot holding it could never make room (PostgreSQL would loop).
const (
	MinBankSize = 2
	MaxBankSize = 4096
)

// MaxPageNumber bounds page numbers (events pack a page number with a
// slot's status in one word, see SlotWord). CLOG pages stop at 131071.
const MaxPageNumber = 1<<48 - 1

// Variant selects which PostgreSQL design the SLRU follows (DESIGN
// "Variants, not versions").
type Variant uint8

const (
	// Banks is PostgreSQL 17.3+: slots in banks of SLRU_BANK_SIZE, one
	// lock and one LRU counter per bank, a page's bank = pageno % nbanks,
	// a linear search of that bank (53c2a97a92, ffd9b81346).
	Banks Variant = iota
	// Single is PostgreSQL up to 16: one ControlLock for the whole SLRU and
	// a linear search of every slot (it is the banks code with one bank of
	// all the slots).
	Single
	// BanksHash is Banks plus a hash table from page number to slot, the
	// buffer-mapping table tried in the 2023 thread (seed 004) and dropped
	// because with small banks the linear search was faster.
	BanksHash
	numVariants
)

var variantNames = [numVariants]string{"banks", "single", "banks+hash"}

func (v Variant) String() string { return enum.Name(variantNames[:], v, "variant") }

// Variants lists every variant in report order: single, banks, banks+hash.
var Variants = []Variant{Single, Banks, BanksHash}

// ParseVariant parses a slru= setting: single, banks or banks+hash.
func ParseVariant(s string) (Variant, error) {
	if v, ok := enum.Parse[Variant](variantNames[:], s); ok {
		return v, nil
	}
	return 0, fmt.Errorf("slru: unknown variant %q (want single, banks or banks+hash)", s)
}

// BankRule is how a page number chooses its bank.
type BankRule uint8

const (
	// BankModulo is PostgreSQL 17.3+: pageno % nbanks (ffd9b81346).
	BankModulo BankRule = iota
	// BankMask is PostgreSQL 17.0–17.2: pageno & (nbanks − 1), which never
	// uses some banks when nbanks is not a power of two.
	BankMask
)

var bankRuleNames = [...]string{BankModulo: "modulo", BankMask: "mask"}

func (r BankRule) String() string { return enum.Name(bankRuleNames[:], r, "bank-rule") }

// HashTable selects the banks+hash table's implementation.
type HashTable uint8

const (
	// HashDynahash is a chained table laid out as dynahash's (see hash.go):
	// what PostgreSQL's attempt used, so the default.
	HashDynahash HashTable = iota
	// HashGoMap is a Go map, for comparison only.
	HashGoMap
)

var hashTableNames = [...]string{HashDynahash: "dynahash", HashGoMap: "gomap"}

func (h HashTable) String() string { return enum.Name(hashTableNames[:], h, "hash-table") }

// Config describes one SLRU. The zero value with Slots set is the
// PostgreSQL 17.3+ commit log.
type Config struct {
	Variant Variant
	// Slots is nslots, the number of page buffers (transaction_buffers for
	// the commit log; see TransactionBuffers).
	Slots int
	// BankSize is the number of slots per bank: 0 means SLRU_BANK_SIZE
	// (16). It must be a power of two in [MinBankSize, MaxBankSize] that
	// divides Slots. Single has no banks: leave it 0.
	BankSize int
	// BankRule: BankModulo (17.3+) unless set.
	BankRule BankRule
	// HashTable applies to BanksHash only.
	HashTable HashTable
	// Name and Dir name the SLRU and its directory: "transaction" and
	// "pg_xact" (the commit log) unless set.
	Name, Dir string
	// PagePrecedes breaks ties between equally old victim candidates:
	// CLOGPagePrecedes unless set.
	PagePrecedes func(page1, page2 int64) bool
}

// validate checks c and fills defaults; it returns the bank size and count.
func (c *Config) validate() (bankSize, nbanks int, err error) {
	if c.Variant >= numVariants {
		return 0, 0, fmt.Errorf("slru: unknown variant %d", c.Variant)
	}
	if c.BankRule > BankMask {
		return 0, 0, fmt.Errorf("slru: unknown bank rule %d", c.BankRule)
	}
	if c.HashTable > HashGoMap {
		return 0, 0, fmt.Errorf("slru: unknown hash table %d", c.HashTable)
	}
	if c.HashTable != HashDynahash && c.Variant != BanksHash {
		return 0, 0, fmt.Errorf("slru: hash=%s applies only to slru=banks+hash, not %s", c.HashTable, c.Variant)
	}
	if c.Slots < 2 {
		return 0, 0, fmt.Errorf("slru: %d slots: an SLRU needs at least 2 (one may hold the latest page, which is never evicted)", c.Slots)
	}
	if c.Slots > SlruMaxAllowedBuffers {
		return 0, 0, fmt.Errorf("slru: %d slots is more than SLRU_MAX_ALLOWED_BUFFERS (%d, 1GB of 8kB pages)", c.Slots, SlruMaxAllowedBuffers)
	}
	if c.Variant == Single {
		if c.BankSize != 0 && c.BankSize != c.Slots {
			return 0, 0, fmt.Errorf("slru: slru=single has no banks (one ControlLock over all %d slots); bank size %d does not apply", c.Slots, c.BankSize)
		}
		if c.BankRule != BankModulo {
			return 0, 0, fmt.Errorf("slru: slru=single has no banks; bank rule %s does not apply", c.BankRule)
		}
		bankSize, nbanks = c.Slots, 1
	} else {
		bankSize = c.BankSize
		if bankSize == 0 {
			bankSize = SlruBankSize
		}
		if bankSize < MinBankSize || bankSize > MaxBankSize || bits.OnesCount(uint(bankSize)) != 1 {
			return 0, 0, fmt.Errorf("slru: bank size %d: want a power of two from %d to %d (PostgreSQL's SLRU_BANK_SIZE is 16)", bankSize, MinBankSize, MaxBankSize)
		}
		if c.Slots%bankSize != 0 {
			return 0, 0, fmt.Errorf("slru: %d slots is not a multiple of the bank size %d", c.Slots, bankSize)
		}
		nbanks = c.Slots / bankSize
		if nbanks > math.MaxUint16 {
			return 0, 0, fmt.Errorf("slru: %d banks: SlruCtlData.nbanks is a uint16 (at most %d)", nbanks, math.MaxUint16)
		}
	}
	if c.Name == "" {
		c.Name = "transaction"
	}
	if c.Dir == "" {
		c.Dir = "pg_xact"
	}
	if c.PagePrecedes == nil {
		c.PagePrecedes = CLOGPagePrecedes
	}
	return bankSize, nbanks, nil
}

// --- Sizes from the GUCs ---

// AutotuneBuffers is SimpleLruAutotuneBuffers (slru.c, PG 17): shared_buffers
// (nbuffers pages) divided by divisor, rounded down to a multiple of
// SLRU_BANK_SIZE, at least SLRU_BANK_SIZE, at most maxBuffers rounded down
// to a multiple of SLRU_BANK_SIZE.
func AutotuneBuffers(nbuffers, divisor, maxBuffers int) int {
	n := nbuffers / divisor
	n -= n % SlruBankSize
	return min(maxBuffers-maxBuffers%SlruBankSize, max(SlruBankSize, n))
}

// ClogMaxAllowedBuffers is CLOG_MAX_ALLOWED_BUFFERS (clog.c): the smaller of
// SLRU_MAX_ALLOWED_BUFFERS and the pages half the xid space needs,
// ((MaxTransactionId / 2) + CLOG_XACTS_PER_PAGE − 1) / CLOG_XACTS_PER_PAGE
// = 65536.
const ClogMaxAllowedBuffers = int(min(SlruMaxAllowedBuffers, ((MaxTransactionId/2)+(ClogXactsPerPage-1))/ClogXactsPerPage))

// GUC describes one PostgreSQL 17 SLRU size setting.
type GUC struct {
	Name string
	// Default is the boot value in buffers; 0 means automatic.
	Default int
	// Min is the GUC's lower bound (0 where 0 means automatic).
	Min int
	// Cap is the most the SLRU uses (CLOG_MAX_ALLOWED_BUFFERS for
	// transaction_buffers, SLRU_MAX_ALLOWED_BUFFERS otherwise).
	Cap int
}

// GUCs lists the PG 17 SLRU size GUCs (postmaster-only, in 8kB blocks,
// multiples of 16, at most SLRU_MAX_ALLOWED_BUFFERS). The automatic ones
// (0) use SimpleLruAutotuneBuffers(512, 1024): 2MB per 1GB of
// shared_buffers, capped at 8MB.
var GUCs = []GUC{
	{Name: "transaction_buffers", Default: 0, Min: 0, Cap: ClogMaxAllowedBuffers},
	{Name: "subtransaction_buffers", Default: 0, Min: 0, Cap: SlruMaxAllowedBuffers},
	{Name: "commit_timestamp_buffers", Default: 0, Min: 0, Cap: SlruMaxAllowedBuffers},
	{Name: "multixact_offset_buffers", Default: 16, Min: 16, Cap: SlruMaxAllowedBuffers},
	{Name: "multixact_member_buffers", Default: 32, Min: 16, Cap: SlruMaxAllowedBuffers},
	{Name: "notify_buffers", Default: 16, Min: 16, Cap: SlruMaxAllowedBuffers},
	{Name: "serializable_buffers", Default: 32, Min: 16, Cap: SlruMaxAllowedBuffers},
}

// LookupGUC finds a GUC of GUCs by name.
func LookupGUC(name string) (GUC, bool) {
	for _, g := range GUCs {
		if g.Name == name {
			return g, true
		}
	}
	return GUC{}, false
}

// Buffers returns the number of slots the SLRU of GUC name gets with the
// setting (in buffers) and shared_buffers of nbuffers pages, as PG 17 does:
// the GUC's range check, check_slru_buffers (a multiple of 16), then
// CLOGShmemBuffers / SUBTRANSShmemBuffers / CommitTsShmemBuffers
// (0 → SimpleLruAutotuneBuffers(512, 1024), else Min(Max(16, v), cap)) or,
// for the fixed ones, the value itself.
func Buffers(name string, setting, nbuffers int) (int, error) {
	g, ok := LookupGUC(name)
	if !ok {
		return 0, fmt.Errorf("unrecognized configuration parameter %q", name)
	}
	if setting < g.Min || setting > SlruMaxAllowedBuffers {
		return 0, fmt.Errorf("%d is outside the valid range for parameter %q (%d .. %d)", setting, name, g.Min, SlruMaxAllowedBuffers)
	}
	if setting%SlruBankSize != 0 {
		return 0, fmt.Errorf("invalid value for parameter %q: %d (%q must be a multiple of %d)", name, setting, name, SlruBankSize)
	}
	if nbuffers < 16 {
		return 0, fmt.Errorf("shared_buffers of %d buffers is below PostgreSQL's minimum of 16", nbuffers)
	}
	if g.Default == 0 && setting == 0 {
		return AutotuneBuffers(nbuffers, 512, 1024), nil
	}
	if g.Default == 0 {
		return min(max(16, setting), g.Cap), nil
	}
	return setting, nil
}

// TransactionBuffers is Buffers("transaction_buffers", setting, nbuffers):
// the commit log's slots in PG 17. 128MB of shared_buffers (16384) with the
// default 0 gives 32 slots, 2 banks.
func TransactionBuffers(setting, nbuffers int) (int, error) {
	return Buffers("transaction_buffers", setting, nbuffers)
}

// CLOGBuffersPG16 is CLOGShmemBuffers of PG 9.6–16: Min(128, Max(4,
// NBuffers / 512)), 32 at 128MB. (No GUC; slru=single with these slots is
// the PG 16 commit log.)
func CLOGBuffersPG16(nbuffers int) int { return min(128, max(4, nbuffers/512)) }

// ParseBuffers parses a buffer-count setting as PostgreSQL's GUC code does
// for a GUC_UNIT_BLOCKS parameter: a whole number of 8kB blocks, or a size
// with a unit B, kB, MB, GB or TB (case-sensitive, multiples of 1024),
// rounded to the nearest block (engine/internal/pgsize, shared with
// bufmgr).
func ParseBuffers(s string) (int, error) {
	n, err := pgsize.Blocks(s, math.MaxInt32)
	if err != nil {
		e, _ := err.(*pgsize.Error) // every error of Blocks is one
		switch e.Kind {
		case pgsize.BadUnit:
			return 0, fmt.Errorf("invalid unit %q in %q (valid units are %s)", e.Unit, s, pgsize.Units)
		case pgsize.Range:
			return 0, fmt.Errorf("buffer count %q is out of range", s)
		}
		return 0, fmt.Errorf("invalid buffer count %q: want a number of 8kB blocks or a size such as 256kB", s)
	}
	return int(n), nil
}

// FormatBuffers prints a buffer count the way SHOW prints a block GUC: the
// largest unit that divides its size (32 → "256kB").
func FormatBuffers(n int) string { return pgsize.Format(int64(n) * BLCKSZ) }
