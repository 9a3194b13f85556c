package slru

import (
	"bytes"
	"runtime"
	"testing"
)

// The sparse disk: formatted pages read as zeroes without being stored, a
// write past the end leaves zeroes in between, formatting again forgets a
// written page, sizes and the summary are those of whole files, and the
// largest pg_xact formatted costs a record per segment.
func TestDiskSparse(t *testing.T) {
	d := NewDisk("pg_xact")
	d.FormatPages(30, 33) // across segments 0000 and 0001
	for _, c := range []struct {
		segno, size int64
	}{{0, 32 * BLCKSZ}, {1, 2 * BLCKSZ}} {
		if n, ok := d.FileSize(c.segno); !ok || n != c.size {
			t.Errorf("segment %d: %d bytes (exists %v), want %d", c.segno, n, ok, c.size)
		}
	}
	if got := d.Summary(); got != "pg_xact: 0000 (262144 B) 0001 (16384 B)\n" {
		t.Errorf("summary %q", got)
	}
	if p, err := d.ReadPage(3); err != nil || !bytes.Equal(p, make([]byte, BLCKSZ)) {
		t.Errorf("page 3 (below the formatted range, inside the file): %v", err)
	}
	if _, err := d.ReadPage(34); err == nil || err.Error() != `Could not read from file "pg_xact/0001" at offset 16384: read too few bytes.` {
		t.Errorf("page 34: %v", err)
	}
	if _, err := d.ReadPage(64); err == nil || err.Error() != `Could not open file "pg_xact/0002": No such file or directory.` {
		t.Errorf("page 64: %v", err)
	}
	data := bytes.Repeat([]byte{0x55}, BLCKSZ)
	d.WritePage(37, data) // past the end of 0001: pages 34..36 read as zeroes
	data[0] = 0           // the disk keeps its own copy
	if p, _ := d.ReadPage(37); p[0] != 0x55 || p[BLCKSZ-1] != 0x55 {
		t.Error("page 37 not what was written")
	}
	if p, err := d.ReadPage(35); err != nil || !bytes.Equal(p, make([]byte, BLCKSZ)) {
		t.Errorf("page 35, skipped by the write: %v", err)
	}
	f := d.File(1)
	if len(f) != 6*BLCKSZ || f[5*BLCKSZ] != 0x55 || f[4*BLCKSZ] != 0 {
		t.Errorf("File(1): %d bytes", len(f))
	}
	if d.File(9) != nil {
		t.Error("File of a missing segment")
	}
	d.FormatPages(36, 37)
	if p, _ := d.ReadPage(37); !bytes.Equal(p, make([]byte, BLCKSZ)) {
		t.Error("page 37 not zero after formatting it again")
	}
	if n, _ := d.FileSize(1); n != 6*BLCKSZ {
		t.Errorf("formatting inside a file changed its size to %d", n)
	}

	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	big := NewDisk("pg_xact")
	big.FormatPages(0, ClogMaxPages-1)
	big.WritePage(ClogMaxPages-1, bytes.Repeat([]byte{1}, BLCKSZ))
	runtime.GC()
	runtime.ReadMemStats(&m1)
	if grown := int64(m1.HeapAlloc) - int64(m0.HeapAlloc); grown > 8<<20 {
		t.Errorf("the largest pg_xact takes %d bytes", grown)
	}
	if segs := big.Segments(); int64(len(segs)) != ClogMaxSegments || segs[len(segs)-1] != 0xFFF {
		t.Errorf("%d segments, last %X", len(segs), segs[len(segs)-1])
	}
	runtime.KeepAlive(big)
	if ClogMaxPages != 131072 || ClogMaxSegments != 4096 || TransactionIdToPage(MaxTransactionId) != ClogMaxPages-1 {
		t.Errorf("ClogMaxPages %d, ClogMaxSegments %d", ClogMaxPages, ClogMaxSegments)
	}
}
