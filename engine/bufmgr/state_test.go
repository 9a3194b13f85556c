package bufmgr_test

import (
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/internal/pghash"
)

// The constants below are quoted from reference/postgres-internals.md,
// sections 1 and 2 (buf_internals.h, postmaster.h, bufmgr.c of PG 9.6–18).
func TestStateWordConstants(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want uint64
	}{
		{"BUF_REFCOUNT_ONE", uint64(bufmgr.BufRefcountOne), 1},
		{"BUF_REFCOUNT_MASK", uint64(bufmgr.BufRefcountMask), 0x3FFFF},
		{"BUF_REFCOUNT_MASK (decimal)", uint64(bufmgr.BufRefcountMask), 262143},
		{"BUF_USAGECOUNT_ONE", uint64(bufmgr.BufUsagecountOne), 0x40000},
		{"BUF_USAGECOUNT_MASK", uint64(bufmgr.BufUsagecountMask), 0x003C0000},
		{"BUF_USAGECOUNT_SHIFT", uint64(bufmgr.BufUsagecountShift), 18},
		{"BUF_FLAG_MASK", uint64(bufmgr.BufFlagMask), 0xFFC00000},
		{"BM_LOCKED", uint64(bufmgr.BmLocked), 1 << 22},
		{"BM_LOCKED (hex)", uint64(bufmgr.BmLocked), 0x400000},
		{"BM_DIRTY", uint64(bufmgr.BmDirty), 1 << 23},
		{"BM_VALID", uint64(bufmgr.BmValid), 1 << 24},
		{"BM_TAG_VALID", uint64(bufmgr.BmTagValid), 1 << 25},
		{"BM_IO_IN_PROGRESS", uint64(bufmgr.BmIOInProgress), 1 << 26},
		{"BM_IO_ERROR", uint64(bufmgr.BmIOError), 1 << 27},
		{"BM_JUST_DIRTIED", uint64(bufmgr.BmJustDirtied), 1 << 28},
		{"BM_PIN_COUNT_WAITER", uint64(bufmgr.BmPinCountWaiter), 1 << 29},
		{"BM_CHECKPOINT_NEEDED", uint64(bufmgr.BmCheckpointNeeded), 1 << 30},
		{"BM_PERMANENT", uint64(bufmgr.BmPermanent), 1 << 31},
		{"BM_MAX_USAGE_COUNT", uint64(bufmgr.BmMaxUsageCount), 5},
		{"MAX_BACKENDS", uint64(bufmgr.MaxBackends), 0x3FFFF},
		{"NUM_BUFFER_PARTITIONS", uint64(bufmgr.NumBufferPartitions), 128},
		{"BLCKSZ", uint64(bufmgr.BLCKSZ), 8192},
		{"REFCOUNT_ARRAY_ENTRIES", uint64(bufmgr.RefcountArrayEntries), 8},
		{"MinNBuffers (shared_buffers minimum, 128kB)", uint64(bufmgr.MinNBuffers), 16},
		{"MaxNBuffers (128GB)", uint64(bufmgr.MaxNBuffers), 128 << 30 / 8192},
		{"InvalidBuffer", uint64(bufmgr.InvalidBuffer), 0},
		{"MAIN_FORKNUM", uint64(bufmgr.MainForkNum), 0},
		{"FSM_FORKNUM", uint64(bufmgr.FSMForkNum), 1},
		{"VISIBILITYMAP_FORKNUM", uint64(bufmgr.VMForkNum), 2},
		{"INIT_FORKNUM", uint64(bufmgr.InitForkNum), 3},
	} {
		if c.got != c.want {
			t.Errorf("%s = %#x, want %#x", c.name, c.got, c.want)
		}
	}
	if bufmgr.FreeNextEndOfList != -1 || bufmgr.FreeNextNotInList != -2 {
		t.Errorf("FREENEXT_END_OF_LIST %d, FREENEXT_NOT_IN_LIST %d; want -1, -2",
			bufmgr.FreeNextEndOfList, bufmgr.FreeNextNotInList)
	}
}

func TestStateWordLayout(t *testing.T) {
	ref, usage, flags := bufmgr.BufRefcountMask, bufmgr.BufUsagecountMask, bufmgr.BufFlagMask
	if ref&usage != 0 || ref&flags != 0 || usage&flags != 0 {
		t.Errorf("masks overlap: refcount %#x usage %#x flags %#x", ref, usage, flags)
	}
	if all := ref | usage | flags; all != 0xFFFFFFFF {
		t.Errorf("refcount|usage|flags = %#x, want all 32 bits", all)
	}
	if got := bits.OnesCount32(ref); got != 18 {
		t.Errorf("refcount field has %d bits, want 18", got)
	}
	if got := bits.OnesCount32(usage); got != 4 {
		t.Errorf("usage field has %d bits, want 4", got)
	}
	if usage != 0xF<<bufmgr.BufUsagecountShift || bufmgr.BufUsagecountOne != 1<<bufmgr.BufUsagecountShift {
		t.Errorf("usage mask %#x / one %#x do not sit at shift %d", usage, bufmgr.BufUsagecountOne, bufmgr.BufUsagecountShift)
	}
	if uint32(bufmgr.BmMaxUsageCount)*bufmgr.BufUsagecountOne&^usage != 0 {
		t.Errorf("BM_MAX_USAGE_COUNT does not fit the usage field")
	}
	if bufmgr.MaxBackends != int(ref) {
		t.Errorf("MAX_BACKENDS %d != refcount capacity %d", bufmgr.MaxBackends, ref)
	}
	// The ten flags are exactly the flag mask, one bit each, and the names
	// round-trip through ParseFlag.
	flagBits := []uint32{bufmgr.BmLocked, bufmgr.BmDirty, bufmgr.BmValid, bufmgr.BmTagValid,
		bufmgr.BmIOInProgress, bufmgr.BmIOError, bufmgr.BmJustDirtied, bufmgr.BmPinCountWaiter,
		bufmgr.BmCheckpointNeeded, bufmgr.BmPermanent}
	var or uint32
	for i, f := range flagBits {
		if bits.OnesCount32(f) != 1 {
			t.Errorf("flag %#x is not a single bit", f)
		}
		if f != 1<<(22+i) {
			t.Errorf("flag %d = %#x, want 1<<%d", i, f, 22+i)
		}
		or |= f
		names := bufmgr.FlagNames(f)
		if len(names) != 1 {
			t.Fatalf("FlagNames(%#x) = %v", f, names)
		}
		for _, spelt := range []string{names[0], "BM_" + names[0], strings.ToLower(names[0])} {
			if got, ok := bufmgr.ParseFlag(spelt); !ok || got != f {
				t.Errorf("ParseFlag(%q) = %#x, %v; want %#x", spelt, got, ok, f)
			}
		}
	}
	if or != flags {
		t.Errorf("OR of the BM_ flags = %#x, want BUF_FLAG_MASK %#x", or, flags)
	}
	if _, ok := bufmgr.ParseFlag("BM_NOPE"); ok {
		t.Errorf("ParseFlag accepted an unknown flag")
	}
	if got := len(bufmgr.FlagNames(0xFFFFFFFF)); got != 10 {
		t.Errorf("FlagNames(all ones) lists %d flags, want 10", got)
	}

	// Field extraction.
	s := 3*bufmgr.BufRefcountOne + 5*bufmgr.BufUsagecountOne + bufmgr.BmValid + bufmgr.BmTagValid
	if rc := bufmgr.StateRefcount(s); rc != 3 {
		t.Errorf("StateRefcount = %d, want 3", rc)
	}
	if u := bufmgr.StateUsagecount(s); u != 5 {
		t.Errorf("StateUsagecount = %d, want 5", u)
	}
	if got, want := bufmgr.StateString(s), "rc=3 usage=5 VALID|TAG_VALID"; got != want {
		t.Errorf("StateString = %q, want %q", got, want)
	}
	if got, want := bufmgr.StateString(0), "rc=0 usage=0 -"; got != want {
		t.Errorf("StateString(0) = %q, want %q", got, want)
	}
	// A full refcount field does not spill into the usage count.
	full := bufmgr.BufRefcountMask | 2*bufmgr.BufUsagecountOne
	if bufmgr.StateRefcount(full) != 0x3FFFF || bufmgr.StateUsagecount(full) != 2 {
		t.Errorf("full refcount decodes as rc=%d usage=%d", bufmgr.StateRefcount(full), bufmgr.StateUsagecount(full))
	}
}

func TestParseSharedBuffers(t *testing.T) {
	// Accepted values, checked against `postgres -C shared_buffers` of PG 15.18.
	for _, c := range []struct {
		in   string
		want int
	}{
		{"128MB", 16384},
		{"128kB", 16},
		{"16", 16},
		{"1GB", 131072},
		{"20GB", 2621440},
		{"64", 64},
		{"136kB", 17},
		{"128GB", bufmgr.MaxNBuffers},
		// PostgreSQL rounds to the nearest block, half to even (rint), and
		// allows spaces before the unit and the unit B.
		{"132kB", 16},
		{"17.5", 18},
		{"128 MB", 16384},
		{" 131072B ", 16},
	} {
		got, err := bufmgr.ParseSharedBuffers(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseSharedBuffers(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct{ in, why string }{
		{"0", "0 buffers"},
		{"15", "below the minimum of 16"},
		{"1kB", "rounds to 0 buffers"},
		{"8kB", "1 buffer < 16"},
		{"12kB", "rounds to 2 buffers < 16"},
		{"1PB", "PB is no unit (and beyond MaxNBuffers)"},
		{"200GB", "beyond MaxNBuffers"},
		{"129GB", "beyond MaxNBuffers"},
		{"1TB", "beyond MaxNBuffers (PostgreSQL accepts it: 134217728)"},
		{"abc", "not a number"},
		{"-5", "negative"},
		{"10XB", "unknown unit"},
		{"", "empty"},
		{"MB", "no number"},
		{"128mb", "units are case-sensitive"},
		{"99999999999999999999TB", "overflow"},
		{"4611686018427387904TB", "overflow"},
	} {
		if got, err := bufmgr.ParseSharedBuffers(c.in); err == nil {
			t.Errorf("ParseSharedBuffers(%q) = %d, nil; want an error (%s)", c.in, got, c.why)
		} else if !strings.Contains(err.Error(), "shared_buffers") {
			t.Errorf("ParseSharedBuffers(%q) error %q does not name the setting", c.in, err)
		}
	}
	// Every size in the legal range round-trips through FormatSize.
	for _, nb := range []int{16, 17, 1024, 16384, 131072, 2621440, bufmgr.MaxNBuffers} {
		s := bufmgr.FormatSize(int64(nb) * bufmgr.BLCKSZ)
		if got, err := bufmgr.ParseSharedBuffers(s); err != nil || got != nb {
			t.Errorf("ParseSharedBuffers(FormatSize(%d) = %q) = %d, %v", nb, s, got, err)
		}
	}
	if got := bufmgr.FormatSize(128 << 20); got != "128MB" {
		t.Errorf("FormatSize(128MB) = %q", got)
	}
}

func TestNewPoolBounds(t *testing.T) {
	for _, n := range []int{0, 15, -1, bufmgr.MaxNBuffers + 1} {
		if _, err := bufmgr.NewPool(n, nil); err == nil {
			t.Errorf("NewPool(%d) succeeded", n)
		}
	}
	p := testPool(t, 16, nil, bufmgr.Options{})
	// InitBufferPool: every buffer on the freelist in order, state 0.
	fl := p.Freelist()
	if len(fl) != 16 {
		t.Fatalf("freelist has %d buffers, want 16", len(fl))
	}
	for i, id := range fl {
		if int(id) != i {
			t.Errorf("freelist[%d] = %d", i, id)
		}
		d := p.Desc(i)
		want := int32(i + 1)
		if i == 15 {
			want = bufmgr.FreeNextEndOfList
		}
		if d.FreeNext() != want || d.State() != 0 || d.ID() != i {
			t.Errorf("buffer %d: freeNext %d state %#x id %d", i, d.FreeNext(), d.State(), d.ID())
		}
	}
	if p.FirstFreeBuffer() != 0 || p.NextVictimBuffer() != 0 || p.CompletePasses() != 0 || p.NumBufferAllocs() != 0 {
		t.Errorf("fresh strategy control: first free %d hand %d passes %d allocs %d",
			p.FirstFreeBuffer(), p.NextVictimBuffer(), p.CompletePasses(), p.NumBufferAllocs())
	}
	if err := p.CheckQuiescent(); err != nil {
		t.Errorf("fresh pool: %v", err)
	}
}

func TestGetAccessStrategy(t *testing.T) {
	nb128MB, err := bufmgr.ParseSharedBuffers("128MB")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		nbuffers int
		kind     bufmgr.StrategyKind
		want     int
	}{
		{nb128MB, bufmgr.BASBulkRead, 32},    // 256kB
		{nb128MB, bufmgr.BASVacuum, 32},      // 256kB (PG15)
		{nb128MB, bufmgr.BASBulkWrite, 2048}, // 16MB, capped at NBuffers/8 = 2048
		{16, bufmgr.BASBulkRead, 2},          // capped at NBuffers/8
		{16, bufmgr.BASBulkWrite, 2},         // capped at NBuffers/8
		{64, bufmgr.BASBulkRead, 8},          // capped at NBuffers/8
		{256, bufmgr.BASBulkRead, 32},        // 256/8 = 32: the cap and the ring agree
		{255, bufmgr.BASBulkRead, 31},        // integer division
		{131072, bufmgr.BASBulkWrite, 2048},  // 1GB: 16MB ring uncapped
		{131072, bufmgr.BASBulkRead, 32},     // 1GB
		{2621440, bufmgr.BASBulkRead, 32},    // 20GB
		{2621440, bufmgr.BASBulkWrite, 2048}, // 20GB
		{bufmgr.MinNBuffers, bufmgr.BASVacuum, 2},
	} {
		p := testPool(t, c.nbuffers, nil, bufmgr.Options{})
		s := p.GetAccessStrategy(c.kind)
		if s == nil {
			t.Fatalf("GetAccessStrategy(%v) at %d buffers = nil", c.kind, c.nbuffers)
		}
		if s.RingSize() != c.want || len(s.Buffers()) != c.want || s.Kind != c.kind {
			t.Errorf("GetAccessStrategy(%v) at %d buffers: ring %d (kind %v), want %d", c.kind, c.nbuffers, s.RingSize(), s.Kind, c.want)
		}
		for i, b := range s.Buffers() {
			if b != bufmgr.InvalidBuffer {
				t.Errorf("new ring slot %d = %d, want InvalidBuffer", i, b)
			}
		}
		if p.GetAccessStrategy(bufmgr.BASNormal) != nil {
			t.Errorf("GetAccessStrategy(BASNormal) != nil")
		}
	}
}

// tagLEBytes is the tag's 20-byte in-memory image written out apart from
// BufferTag.Bytes: the key hash_bytes reads.
func tagLEBytes(t bufmgr.BufferTag) []byte {
	var out []byte
	for _, w := range []uint32{t.SpcNode, t.DbNode, t.RelNode, uint32(t.ForkNum), t.BlockNum} {
		out = append(out, byte(w), byte(w>>8), byte(w>>16), byte(w>>24))
	}
	return out
}

func TestBufTableHashCode(t *testing.T) {
	// Golden values computed by a real PostgreSQL 15.18 server (x86_64):
	// hashvarlena (= hash_any = hash_bytes) over the 20 little-endian bytes
	// of each tag, via
	//   CREATE FUNCTION h(bytea) RETURNS int4 LANGUAGE internal AS 'hashvarlena';
	// (negative int4 results reinterpreted as uint32).
	golden := []struct {
		tag  bufmgr.BufferTag
		want uint32
	}{
		{bufmgr.BufferTag{SpcNode: 1663, DbNode: 5, RelNode: 16384, ForkNum: 0, BlockNum: 0}, 78803001},
		{bufmgr.BufferTag{SpcNode: 1663, DbNode: 5, RelNode: 16384, ForkNum: 0, BlockNum: 1}, 1845519970},
		{bufmgr.BufferTag{SpcNode: 1663, DbNode: 5, RelNode: 16384, ForkNum: 1, BlockNum: 0}, 1470027154},
		{bufmgr.BufferTag{SpcNode: 1663, DbNode: 5, RelNode: 16385, ForkNum: 0, BlockNum: 7}, 79502818},
		{bufmgr.BufferTag{SpcNode: 1663, DbNode: 5, RelNode: 24576, ForkNum: 2, BlockNum: 123456}, 413340294},
		{bufmgr.BufferTag{SpcNode: 1663, DbNode: 5, RelNode: 4294967295, ForkNum: 3, BlockNum: 1073741823}, 210743464},
		{bufmgr.BufferTag{SpcNode: 1664, DbNode: 1, RelNode: 1262, ForkNum: 0, BlockNum: 0}, 3475591097},
		{bufmgr.BufferTag{}, 4012297045},
		{bufmgr.BufferTag{SpcNode: 1663, DbNode: 16384, RelNode: 16385, ForkNum: 0, BlockNum: 4294967295}, 3414308544},
	}
	for _, g := range golden {
		if got := bufmgr.BufTableHashCode(g.tag); got != g.want {
			t.Errorf("BufTableHashCode(%+v) = %d, PostgreSQL 15 says %d", g.tag, got, g.want)
		}
		if got := pghash.Bytes(tagLEBytes(g.tag)); got != g.want {
			t.Fatalf("hash_bytes(%+v) = %d, PostgreSQL says %d", g.tag, got, g.want)
		}
	}

	// Differential against hash_bytes (pghash.Bytes, checked against
	// PostgreSQL and an independent rendering in its own tests) over random
	// tags, and determinism.
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		tag := bufmgr.BufferTag{SpcNode: rng.Uint32(), DbNode: rng.Uint32(), RelNode: rng.Uint32(),
			ForkNum: bufmgr.ForkNumber(rng.IntN(4)), BlockNum: rng.Uint32()}
		h := bufmgr.BufTableHashCode(tag)
		if h2 := bufmgr.BufTableHashCode(tag); h2 != h {
			t.Fatalf("BufTableHashCode(%+v) not deterministic: %d then %d", tag, h, h2)
		}
		if img := tag.Bytes(); string(img[:]) != string(tagLEBytes(tag)) {
			t.Fatalf("BufferTag(%+v).Bytes() = %x, want %x", tag, img, tagLEBytes(tag))
		}
		if want := pghash.Bytes(tagLEBytes(tag)); h != want {
			t.Fatalf("BufTableHashCode(%+v) = %d, reference hash_bytes %d", tag, h, want)
		}
		if p := bufmgr.BufTableHashPartition(h); p != int(h%128) || p != int(h&127) {
			t.Fatalf("BufTableHashPartition(%d) = %d, want the low 7 bits %d", h, p, h&127)
		}
	}

	// 10 000 tags of one relation's blocks use all 128 partitions, and
	// reasonably evenly (expected 78 each; lookup3 is a good hash).
	var counts [bufmgr.NumBufferPartitions]int
	for blk := uint32(0); blk < 10000; blk++ {
		counts[bufmgr.BufTableHashPartition(bufmgr.BufTableHashCode(bufmgr.MakeTag(16384, bufmgr.MainForkNum, blk)))]++
	}
	for p, c := range counts {
		if c == 0 {
			t.Errorf("partition %d unused by 10 000 tags", p)
		}
		if c < 30 || c > 140 {
			t.Errorf("partition %d holds %d of 10 000 tags (expected about 78)", p, c)
		}
	}
}

func TestPackUnpackTag(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(tag bufmgr.BufferTag) {
		t.Helper()
		p := tag.Pack()
		if got := bufmgr.UnpackTag(p); got != tag {
			t.Fatalf("UnpackTag(Pack(%+v)) = %+v (packed %#x)", tag, got, p)
		}
		if p>>32 != uint64(tag.RelNode) || int(p>>30&3) != int(tag.ForkNum) || uint32(p&(1<<30-1)) != tag.BlockNum {
			t.Fatalf("Pack(%+v) = %#x: not relNode<<32 | fork<<30 | block", tag, p)
		}
	}
	for _, rel := range []uint32{0, 1, bufmgr.FirstNormalObjectId, 1<<32 - 1} {
		for f := bufmgr.MainForkNum; f <= bufmgr.MaxForkNum; f++ {
			for _, blk := range []uint32{0, 1, 1<<30 - 1} {
				check(bufmgr.MakeTag(rel, f, blk))
			}
		}
	}
	for i := 0; i < 10000; i++ {
		check(bufmgr.MakeTag(rng.Uint32(), bufmgr.ForkNumber(rng.IntN(4)), rng.Uint32N(1<<30)))
	}
	// Distinct tags pack distinctly.
	seen := map[uint64]bufmgr.BufferTag{}
	for rel := uint32(16384); rel < 16390; rel++ {
		for f := bufmgr.MainForkNum; f <= bufmgr.MaxForkNum; f++ {
			for blk := uint32(0); blk < 64; blk++ {
				tag := bufmgr.MakeTag(rel, f, blk)
				if prev, dup := seen[tag.Pack()]; dup {
					t.Fatalf("%v and %v pack to the same value", prev, tag)
				}
				seen[tag.Pack()] = tag
			}
		}
	}
	tag := bufmgr.MakeTag(16384, bufmgr.FSMForkNum, 7)
	if tag.SpcNode != bufmgr.DefaultTablespaceOid || tag.DbNode != bufmgr.DefaultDatabaseOid {
		t.Errorf("MakeTag uses spc %d db %d", tag.SpcNode, tag.DbNode)
	}
	if got := tag.String(); got != "16384/fsm/7" {
		t.Errorf("tag.String() = %q", got)
	}
	if !tag.SameRel(bufmgr.MakeTag(16384, bufmgr.MainForkNum, 0)) || tag.SameRel(bufmgr.MakeTag(16385, bufmgr.FSMForkNum, 7)) {
		t.Errorf("SameRel is wrong")
	}
	for f := bufmgr.MainForkNum; f <= bufmgr.MaxForkNum; f++ {
		if g, ok := bufmgr.ParseFork(f.String()); !ok || g != f {
			t.Errorf("ParseFork(%q) = %v, %v", f.String(), g, ok)
		}
	}
}
