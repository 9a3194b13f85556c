package drop

import (
	"testing"
	"unsafe"

	"bufferlab/engine/bufmgr"
)

// PostgreSQL 15's descriptor on a 64-bit machine: BufferTag 20 bytes,
// BufferDesc 52 (the tag, buf_id, state, wait_backend_pgprocno, freeNext,
// a 16-byte LWLock), BufferDescPadded 64, the pre-check's tag.rnode at the
// start of the line; and the array starts on a 64-byte boundary, so that
// every descriptor is one cache line.
func TestPaddedDescLayout(t *testing.T) {
	var d PGBufferDescPadded
	for _, c := range []struct {
		what      string
		got, want uintptr
	}{
		{"sizeof BufferDescPadded", unsafe.Sizeof(d), 64},
		{"PaddedDescBytes", uintptr(PaddedDescBytes), 64},
		{"sizeof BufferDesc", unsafe.Sizeof(d.Desc), 52},
		{"sizeof BufferTag", unsafe.Sizeof(d.Desc.Tag), 20},
		{"sizeof LWLock", unsafe.Sizeof(d.Desc.ContentLock), 16},
		{"offset of tag.rnode.spcNode", unsafe.Offsetof(d.Desc.Tag.SpcNode), 0},
		{"offset of tag.rnode.dbNode", unsafe.Offsetof(d.Desc.Tag.DbNode), 4},
		{"offset of tag.rnode.relNode", unsafe.Offsetof(d.Desc.Tag.RelNode), 8},
		{"offset of buf_id", unsafe.Offsetof(d.Desc.BufID), 20},
		{"offset of state", unsafe.Offsetof(d.Desc.State), 24},
		{"offset of content_lock", unsafe.Offsetof(d.Desc.ContentLock), 36},
		{"the engine's descriptor (the what-if)", uintptr(DescSize), 36},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.what, c.got, c.want)
		}
	}
	for _, n := range []int{1, 3, 16, 1000, 16384} {
		descs := NewPaddedDescs(n)
		if len(descs) != n {
			t.Fatalf("NewPaddedDescs(%d): %d descriptors", n, len(descs))
		}
		if a := uintptr(unsafe.Pointer(&descs[0])) % 64; a != 0 {
			t.Errorf("NewPaddedDescs(%d): the array starts %d bytes past a 64-byte boundary", n, a)
		}
		if step := uintptr(unsafe.Pointer(&descs[n-1])) - uintptr(unsafe.Pointer(&descs[0])); step != uintptr(64*(n-1)) {
			t.Errorf("NewPaddedDescs(%d): stride %d bytes over %d descriptors", n, step, n-1)
		}
		if descs[n-1].Desc.BufID != int32(n-1) || descs[0].Desc.Tag != (PGBufferTag{}) {
			t.Errorf("NewPaddedDescs(%d): last buf_id %d, first tag %+v", n, descs[n-1].Desc.BufID, descs[0].Desc.Tag)
		}
	}
	if NewPaddedDescs(0) != nil {
		t.Error("NewPaddedDescs(0) is not empty")
	}
}

// checkPaddedInStep: every buffer whose tag is valid in the pool has the
// same tag in PostgreSQL's layout, and, if exact, every other buffer too
// (an invalidated buffer's tag cleared in both).
func checkPaddedInStep(t *testing.T, dp *DropPool, exact bool) {
	t.Helper()
	for i := range dp.Padded {
		d := dp.Pool.Desc(i)
		var want PGBufferDesc
		setPaddedTag(&want, d.Tag())
		if got := dp.Padded[i].Desc.Tag; got != want.Tag && (exact || d.State()&bufmgr.BmTagValid != 0) {
			t.Fatalf("buffer %d: tag %+v in PostgreSQL's layout, %+v in the pool", i, got, want.Tag)
		}
	}
}

// The copy in PostgreSQL's layout follows the pool through reads,
// evictions and drops, and the scan over it drops exactly what the
// engine's scan drops.
func TestDropPoolPaddedInStep(t *testing.T) {
	const nb = 2048
	dp, err := NewDropPool(nb, 64, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(dp.Padded) != nb {
		t.Fatalf("%d padded descriptors for %d buffers", len(dp.Padded), nb)
	}
	checkPaddedInStep(t, dp, true)
	if err := dp.dropTables(0, 10, bufmgr.DropScan); err != nil {
		t.Fatal(err)
	}
	checkPaddedInStep(t, dp, true)
	for i := range 10 {
		if _, ok := dp.Pool.Lookup(dp.Tables[i].Tag(bufmgr.MainForkNum, 0)); ok {
			t.Errorf("relation %d still resident after the padded scan", i)
		}
	}
	if err := dp.readTables(0, 10); err != nil {
		t.Fatal(err)
	}
	checkPaddedInStep(t, dp, true)
	// The finder's relation evicts filler blocks on its first load; the
	// lookup and the compact scan leave stale tags on freed buffers until
	// they are read again, which only the locked re-check would see.
	plan := fullPlan()
	plan.Rounds = 3
	if _, err := dp.MeasureSweepPoint(plan, 16); err != nil {
		t.Fatal(err)
	}
	checkPaddedInStep(t, dp, false)
	if err := dp.Pool.CheckQuiescent(); err != nil {
		t.Error(err)
	}

	dl, err := NewDropPool(nb, 64, true)
	if err != nil {
		t.Fatal(err)
	}
	if dl.Padded != nil {
		t.Error("a pool with the lists has a padded copy")
	}
	if err := dl.dropTables(0, 1, bufmgr.DropScan); err == nil {
		t.Error("the padded scan ran on a pool without the padded descriptors")
	}
}
