package slru_test

import (
	"errors"
	"strings"
	"testing"

	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
)

// The commit-log arithmetic and SLRU facts of the reference sheet
// (shared/reference/postgres-internals.md, sections 4 and 6).

func TestCLOGArithmeticFact20(t *testing.T) {
	// Fact 20: xid 100000 -> CLOG page 3, byte 424, shift 0, segment 0000.
	loc := slru.Locate(100000)
	if loc.Page != 3 || loc.Byte != 424 || loc.Shift != 0 || loc.Segment != 0 {
		t.Fatalf("xid 100000: %+v, want page 3 byte 424 shift 0 segment 0", loc)
	}
	d := slru.NewDisk("pg_xact")
	if got := d.FileName(loc.Segment); got != "pg_xact/0000" {
		t.Errorf("segment file %q", got)
	}
	if loc.Offset != 3*8192 {
		t.Errorf("offset %d", loc.Offset)
	}
}

func TestCLOGConstants(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want int64
	}{
		{"CLOG_XACTS_PER_PAGE = BLCKSZ*4", slru.ClogXactsPerPage, 32768},
		{"CLOG_BITS_PER_XACT", slru.ClogBitsPerXact, 2},
		{"CLOG_XACTS_PER_BYTE", slru.ClogXactsPerByte, 4},
		{"xids per segment", slru.ClogXactsPerSegment, 1048576},
		{"group_lsn entries per page", slru.ClogLSNsPerPage, 1024},
		{"SLRU_PAGES_PER_SEGMENT", slru.SlruPagesPerSegment, 32},
		{"SLRU_BANK_SIZE", slru.SlruBankSize, 16},
		{"SLRU_MAX_ALLOWED_BUFFERS", slru.SlruMaxAllowedBuffers, 131072},
		{"CLOG_MAX_ALLOWED_BUFFERS", int64(slru.ClogMaxAllowedBuffers), 65536},
		{"TRANSACTION_STATUS_IN_PROGRESS", int64(slru.StatusInProgress), 0},
		{"TRANSACTION_STATUS_COMMITTED", int64(slru.StatusCommitted), 1},
		{"TRANSACTION_STATUS_ABORTED", int64(slru.StatusAborted), 2},
		{"TRANSACTION_STATUS_SUB_COMMITTED", int64(slru.StatusSubCommitted), 3},
		{"SLRU_PAGE_EMPTY", int64(slru.PageEmpty), 0},
		{"SLRU_PAGE_READ_IN_PROGRESS", int64(slru.PageReadInProgress), 1},
		{"SLRU_PAGE_VALID", int64(slru.PageValid), 2},
		{"SLRU_PAGE_WRITE_IN_PROGRESS", int64(slru.PageWriteInProgress), 3},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
}

func TestCLOGPositions(t *testing.T) {
	for _, c := range []struct {
		xid   uint32
		page  int64
		byte_ int
		shift uint
		seg   int64
	}{
		{0, 0, 0, 0, 0},
		{3, 0, 0, 6, 0},
		{4, 0, 1, 0, 0},
		{32767, 0, 8191, 6, 0},
		{32768, 1, 0, 0, 0},
		{100001, 3, 424, 2, 0},
		{100002, 3, 424, 4, 0},
		{100003, 3, 424, 6, 0},
		{1048575, 31, 8191, 6, 0},
		{1048576, 32, 0, 0, 1},
		{0xFFFFFFFF, 131071, 8191, 6, 4095},
	} {
		loc := slru.Locate(c.xid)
		if loc.Page != c.page || loc.Byte != c.byte_ || loc.Shift != c.shift || loc.Segment != c.seg {
			t.Errorf("xid %d: %+v, want page %d byte %d shift %d segment %d", c.xid, loc, c.page, c.byte_, c.shift, c.seg)
		}
	}
}

// Setting each xid of a page to each status stores the two bits at the
// right place and nowhere else; reading it back returns the status.
func TestStatusBitsOnPage(t *testing.T) {
	s, err := slru.New(slru.Config{Variant: slru.Banks, Slots: 16}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Disk().FormatPages(0, 0)
	a, _ := s.NewBackend("A")
	want := map[uint32]slru.XidStatus{}
	for xid := uint32(3); xid < 400; xid++ {
		st := []slru.XidStatus{slru.StatusCommitted, slru.StatusAborted, slru.StatusSubCommitted}[xid%3]
		if xid%7 == 0 {
			continue // stays in progress
		}
		if err := a.TransactionIdSetStatus(xid, st); err != nil {
			t.Fatal(err)
		}
		want[xid] = st
	}
	slot, ok := s.Find(0)
	if !ok {
		t.Fatal("page 0 not resident")
	}
	page := s.PageData(slot)
	for xid := uint32(0); xid < 400; xid++ {
		bits := slru.XidStatus(page[xid/4]>>(xid%4*2)) & 3
		if bits != want[xid] {
			t.Fatalf("xid %d: bits %v, want %v", xid, bits, want[xid])
		}
		got, err := a.TransactionIdGetStatus(xid)
		if err != nil || got != want[xid] {
			t.Fatalf("xid %d: TransactionIdGetStatus = %v, %v; want %v", xid, got, err, want[xid])
		}
	}
	for i := 100; i < len(page); i++ {
		if page[i] != 0 {
			t.Fatalf("byte %d of the page is %#x, outside the xids set", i, page[i])
		}
	}
}

// Fact 19: a fresh cluster's pg_xact/0000 is 8192 bytes (BootStrapCLOG
// writes page 0), and page 0 is the latest page.
func TestBootstrapFact19(t *testing.T) {
	for _, v := range slru.Variants {
		s, err := slru.New(slru.Config{Variant: v, Slots: 32}, trace.NewLog())
		if err != nil {
			t.Fatal(err)
		}
		a, _ := s.NewBackend("initdb")
		if err := a.BootStrapCLOG(); err != nil {
			t.Fatal(err)
		}
		if size, ok := s.Disk().FileSize(0); !ok || size != 8192 {
			t.Errorf("%s: pg_xact/0000 is %d bytes (exists %v), want 8192", v, size, ok)
		}
		if s.LatestPageNumber() != 0 {
			t.Errorf("%s: latest page %d", v, s.LatestPageNumber())
		}
		if err := s.CheckQuiescent(); err != nil {
			t.Error(err)
		}
		// ExtendCLOG does nothing until the first xid of page 1.
		if err := a.ExtendCLOG(32767); err != nil || s.LatestPageNumber() != 0 {
			t.Errorf("%s: ExtendCLOG(32767): %v, latest %d", v, err, s.LatestPageNumber())
		}
		if err := a.ExtendCLOG(32768); err != nil || s.LatestPageNumber() != 1 {
			t.Errorf("%s: ExtendCLOG(32768): %v, latest %d", v, err, s.LatestPageNumber())
		}
		if _, ok := s.Find(1); !ok {
			t.Errorf("%s: page 1 not in memory after ExtendCLOG", v)
		}
	}
}

// Section 4, GUCs: transaction_buffers = 0 is SimpleLruAutotuneBuffers(512,
// 1024) over shared_buffers: 128MB -> 32 slots (2 banks), SHOW 256kB;
// 1GB -> 256; >= 4GB -> 1024 (64 banks). An explicit value must be a
// multiple of 16 (40 is rejected) and is clamped to [16, 65536].
func TestTransactionBuffers(t *testing.T) {
	const mb = 1024 * 1024 / 8192 // buffers per MB
	for _, c := range []struct {
		setting, nbuffers, want int
	}{
		{0, 16, 16},           // the smallest pool: Max(16, 0)
		{0, 16 * mb, 16},      // 16MB: 2048/512 = 4 -> 16
		{0, 128 * mb, 32},     // 128MB
		{0, 128*mb + 511, 32}, // not a multiple: rounds down
		{0, 23552, 32},        // 46 -> 32 (rounded down to a multiple of 16)
		{0, 1024 * mb, 256},   // 1GB
		{0, 4096 * mb, 1024},  // 4GB
		{0, 16384 * mb, 1024}, // capped
		{16, 128 * mb, 16},
		{64, 128 * mb, 64},
		{131072, 128 * mb, 65536}, // CLOG_MAX_ALLOWED_BUFFERS
	} {
		got, err := slru.TransactionBuffers(c.setting, c.nbuffers)
		if err != nil || got != c.want {
			t.Errorf("transaction_buffers=%d shared_buffers=%d buffers: %d, %v; want %d", c.setting, c.nbuffers, got, err, c.want)
		}
	}
	n, _ := slru.TransactionBuffers(0, 128*mb)
	if got := slru.FormatBuffers(n); got != "256kB" {
		t.Errorf("SHOW transaction_buffers at 128MB = %q, want 256kB", got)
	}
	s, err := slru.New(slru.Config{Slots: n}, nil)
	if err != nil || s.NumBanks() != 2 || s.BankSize() != 16 {
		t.Errorf("32 slots: %v, %d banks of %d", err, s.NumBanks(), s.BankSize())
	}
	for _, bad := range []struct {
		setting int
		want    string
	}{
		{40, `"transaction_buffers" must be a multiple of 16`},
		{-16, "outside the valid range"},
		{131088, "outside the valid range"},
	} {
		if _, err := slru.TransactionBuffers(bad.setting, 128*mb); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("transaction_buffers=%d: %v, want an error with %q", bad.setting, err, bad.want)
		}
	}
	// The other PG 17 GUCs.
	for _, c := range []struct {
		name    string
		setting int
		want    int
	}{
		{"subtransaction_buffers", 0, 32}, {"commit_timestamp_buffers", 0, 32},
		{"subtransaction_buffers", 131072, 131072},
		{"multixact_offset_buffers", 16, 16}, {"multixact_member_buffers", 32, 32},
		{"notify_buffers", 16, 16}, {"serializable_buffers", 32, 32},
	} {
		got, err := slru.Buffers(c.name, c.setting, 128*mb)
		if err != nil || got != c.want {
			t.Errorf("%s=%d: %d, %v; want %d", c.name, c.setting, got, err, c.want)
		}
	}
	if _, err := slru.Buffers("notify_buffers", 0, 128*mb); err == nil {
		t.Error("notify_buffers=0 accepted (its minimum is 16)")
	}
	if _, err := slru.Buffers("clog_buffers", 0, 128*mb); err == nil {
		t.Error("an unknown GUC accepted")
	}
	// PG 9.6-16: Min(128, Max(4, NBuffers/512)); 32 at 128MB (PG 15
	// pg_shmem_allocations, section 4).
	for _, c := range []struct{ nbuffers, want int }{{16, 4}, {128 * mb, 32}, {1024 * mb, 128}, {8192 * mb, 128}} {
		if got := slru.CLOGBuffersPG16(c.nbuffers); got != c.want {
			t.Errorf("CLOGBuffersPG16(%d) = %d, want %d", c.nbuffers, got, c.want)
		}
	}
}

func TestParseBuffers(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{{"32", 32}, {"256kB", 32}, {"8MB", 1024}, {"1GB", 131072}, {" 16 ", 16}, {"12kB", 2}} {
		if got, err := slru.ParseBuffers(c.in); err != nil || got != c.want {
			t.Errorf("ParseBuffers(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "kB", "-1", "3 parsecs", "1e400GB", "99999999TB"} {
		if _, err := slru.ParseBuffers(bad); err == nil {
			t.Errorf("ParseBuffers(%q) accepted", bad)
		}
	}
	for _, c := range []struct {
		n    int
		want string
	}{{32, "256kB"}, {128, "1MB"}, {1024, "8MB"}, {131072, "1GB"}, {0, "0B"}} {
		if got := slru.FormatBuffers(c.n); got != c.want {
			t.Errorf("FormatBuffers(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

// Bad configurations are errors, never panics.
func TestConfigErrors(t *testing.T) {
	for _, c := range []struct {
		cfg  slru.Config
		want string
	}{
		{slru.Config{Slots: 0}, "at least 2"},
		{slru.Config{Slots: -5}, "at least 2"},
		{slru.Config{Slots: 1}, "at least 2"},
		{slru.Config{Slots: 40}, "not a multiple of the bank size 16"},
		{slru.Config{Slots: 1 << 40}, "SLRU_MAX_ALLOWED_BUFFERS"},
		{slru.Config{Slots: 32, BankSize: -16}, "power of two"},
		{slru.Config{Slots: 32, BankSize: 1}, "power of two from 2"},
		{slru.Config{Slots: 48, BankSize: 24}, "power of two"},
		{slru.Config{Slots: 8192, BankSize: 8192}, "power of two from 2 to 4096"},
		{slru.Config{Slots: 32, BankSize: 64}, "not a multiple"},
		{slru.Config{Variant: slru.Single, Slots: 32, BankSize: 16}, "has no banks"},
		{slru.Config{Variant: slru.Single, Slots: 32, BankRule: slru.BankMask}, "has no banks"},
		{slru.Config{Variant: 9, Slots: 32}, "unknown variant"},
		{slru.Config{Slots: 32, BankRule: 7}, "unknown bank rule"},
		{slru.Config{Slots: 32, HashTable: slru.HashGoMap}, "applies only to slru=banks+hash"},
		{slru.Config{Variant: slru.BanksHash, Slots: 32, HashTable: 5}, "unknown hash table"},
		{slru.Config{Slots: 131072, BankSize: 2}, "nbanks is a uint16"},
	} {
		s, err := slru.New(c.cfg, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%+v) = %v, %v; want an error with %q", c.cfg, s, err, c.want)
		}
	}
	for _, good := range []slru.Config{
		{Slots: 16}, {Slots: 131072}, {Variant: slru.Single, Slots: 3}, {Variant: slru.Single, Slots: 24},
		{Variant: slru.BanksHash, Slots: 256, BankSize: 256}, {Slots: 8, BankSize: 8}, {Slots: 48, BankRule: slru.BankMask},
	} {
		if _, err := slru.New(good, nil); err != nil {
			t.Errorf("New(%+v): %v", good, err)
		}
	}
	if _, err := slru.ParseVariant("banks+hash"); err != nil {
		t.Error(err)
	}
	if _, err := slru.ParseVariant("bank"); err == nil {
		t.Error("ParseVariant(bank) accepted")
	}
}

// Caller mistakes on a working SLRU are errors too.
func TestCallerErrors(t *testing.T) {
	s, _ := slru.New(slru.Config{Slots: 32}, nil)
	s.Disk().FormatPages(0, 3)
	a, _ := s.NewBackend("A")
	b, _ := s.NewBackend("B")
	if _, err := a.ReadPageReadOnly(-1, 0); err == nil {
		t.Error("negative page accepted")
	}
	if _, err := a.ReadPage(1, true, 0); err == nil {
		t.Error("ReadPage without the bank lock accepted")
	}
	if _, err := a.ZeroPage(1); err == nil {
		t.Error("ZeroPage without the bank lock accepted")
	}
	if err := a.WritePage(99); err == nil {
		t.Error("WritePage of slot 99 accepted")
	}
	if err := a.TransactionIdSetStatus(100, slru.StatusInProgress); err == nil {
		t.Error("setting in-progress accepted")
	}
	var pgErr *slru.PGError
	if err := a.TransactionIdSetStatus(2, slru.StatusCommitted); !errors.As(err, &pgErr) || pgErr.Code != slru.ErrInvalidXid {
		t.Errorf("setting FrozenTransactionId: %v", err)
	}
	// A miss returns with the bank lock exclusive, a hit with it shared.
	if _, err := a.ReadPageReadOnly(1, 0); err != nil {
		t.Fatal(err)
	}
	if h := a.HeldLocks(); len(h) != 1 || h[0].Mode != slru.LWExclusive {
		t.Errorf("after a miss A holds %v", h)
	}
	if err := a.ReleaseBankLock(1); err != nil {
		t.Fatal(err)
	}
	if _, err := a.ReadPageReadOnly(1, 0); err != nil {
		t.Fatal(err)
	}
	if h := a.HeldLocks(); len(h) != 1 || h[0].Mode != slru.LWShared {
		t.Errorf("after a hit A holds %v", h)
	}
	if _, err := a.TransactionIdGetStatus(32768); err == nil {
		t.Error("an operation while holding a bank lock accepted")
	}
	// B, unscheduled, cannot wait for A's shared lock to go to take it
	// exclusively: ErrWouldWait, nothing held after.
	if err := b.TransactionIdSetStatus(32769, slru.StatusCommitted); !errors.As(err, &pgErr) || pgErr.Code != slru.ErrWouldWait {
		t.Errorf("B waiting unscheduled: %v", err)
	}
	if len(b.HeldLocks()) != 0 {
		t.Errorf("B holds %v after the error", b.HeldLocks())
	}
	// B may share it.
	if _, err := b.ReadPageReadOnly(1, 0); err != nil {
		t.Errorf("B sharing bank 1: %v", err)
	}
	for _, x := range []*slru.Backend{a, b} {
		if err := x.ReleaseBankLock(1); err != nil {
			t.Error(err)
		}
	}
	if err := a.ReleaseBankLock(1); err == nil {
		t.Error("releasing a lock not held accepted")
	}
	if err := s.CheckQuiescent(); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"", "get", "get x", "get -1", "set 5 maybe", "read-only 1 2", "zero -3", "boot 1"} {
		if _, err := slru.ParseOp(bad); err == nil {
			t.Errorf("ParseOp(%q) accepted", bad)
		}
	}
}

// CLOGPagePrecedes and TransactionIdPrecedes in wraparound arithmetic.
// DoAll goes on past an operation's ERROR, as a session does, and stops
// at any other error, naming the operation.
func TestDoAll(t *testing.T) {
	s, _ := slru.New(slru.Config{Slots: 32}, nil)
	s.Disk().FormatPages(0, 3)
	a, _ := s.NewBackend("A")
	ops := func(texts ...string) []slru.Op {
		var out []slru.Op
		for _, text := range texts {
			o, err := slru.ParseOp(text)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, o)
		}
		return out
	}
	// FrozenTransactionId's status cannot be set: an ERROR, then 100 is.
	if err := a.DoAll(ops("set 2 committed", "set 100 committed")); err != nil {
		t.Fatal(err)
	}
	if st, err := a.TransactionIdGetStatus(100); err != nil || st != slru.StatusCommitted {
		t.Fatalf("xid 100 after DoAll: %v, %v", st, err)
	}
	// A caller's mistake (setting in-progress) is no ERROR: it stops the
	// run there.
	run := append(ops("get 100"), slru.Op{Code: slru.OpSetStatus, Xid: 101, Status: slru.StatusInProgress})
	err := a.DoAll(append(run, ops("set 101 committed")...))
	var pe *slru.PGError
	if err == nil || errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "op 1 set 101 in-progress: ") {
		t.Fatalf("DoAll past a caller's mistake: %v", err)
	}
	if st, _ := a.TransactionIdGetStatus(101); st == slru.StatusCommitted {
		t.Error("DoAll went on after a caller's mistake")
	}
}

func TestPagePrecedes(t *testing.T) {
	if !slru.CLOGPagePrecedes(3, 4) || slru.CLOGPagePrecedes(4, 3) || slru.CLOGPagePrecedes(3, 3) {
		t.Error("CLOGPagePrecedes on neighbours")
	}
	// Half the xid space away wraps: the last page precedes page 0.
	if !slru.CLOGPagePrecedes(131071, 0) {
		t.Error("page 131071 should precede page 0 (wraparound)")
	}
	if !slru.TransactionIdPrecedes(0xFFFFFFF0, 100) || slru.TransactionIdPrecedes(100, 0xFFFFFFF0) {
		t.Error("TransactionIdPrecedes across the wrap")
	}
	if !slru.TransactionIdPrecedes(2, 3) || slru.TransactionIdPrecedes(3, 2) {
		t.Error("special xids compare plainly")
	}
}

// The pseudo-code: every block names its PostgreSQL function, file and
// version; the @markers are stripped from the lines; every site of this
// package starts with "slru." and points into one of its blocks.
func TestPseudoCode(t *testing.T) {
	mine := map[*trace.Func]bool{}
	for _, f := range slru.Funcs() {
		mine[f] = true
		if f.Name == "" || f.File == "" || f.Version == "" || len(f.Lines) < 2 {
			t.Errorf("block %+v", f)
		}
		for _, l := range f.Lines {
			if strings.Contains(l, "@slru") {
				t.Errorf("%s: marker left in %q", f.Name, l)
			}
		}
	}
	n := 0
	for s := trace.Site(1); int(s) < trace.Sites(); s++ {
		info := s.Info()
		if mine[info.Func] {
			n++
			if !strings.HasPrefix(info.Name, "slru.") {
				t.Errorf("site %q does not start with slru.", info.Name)
			}
		}
	}
	if n < 60 {
		t.Errorf("only %d sites", n)
	}
}
