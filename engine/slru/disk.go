package slru

import (
	"fmt"
	"sort"
	"strings"
)

// Disk is the simulated directory of an SLRU (pg_xact for the commit log):
// segment files of SLRU_PAGES_PER_SEGMENT pages, named by the segment
// number in hex (SlruFileName with short names: "%04X"). Reads and writes
// copy whole pages, so what the cache wrote is what it reads back.
type Disk struct {
	dir   string
	files map[int64][]byte // segno -> contents (a multiple of BLCKSZ long)
	// Reads and Writes count page transfers.
	Reads, Writes uint64
}

// NewDisk returns an empty directory.
func NewDisk(dir string) *Disk { return &Disk{dir: dir, files: map[int64][]byte{}} }

// SegmentOf returns a page's segment number and byte offset in it.
func SegmentOf(page int64) (segno int64, offset int64) {
	return page / SlruPagesPerSegment, page % SlruPagesPerSegment * BLCKSZ
}

// FileName is SlruFileName for short segment names: dir/%04X.
func (d *Disk) FileName(segno int64) string { return fmt.Sprintf("%s/%04X", d.dir, segno) }

// ioError is why a physical read failed (slru_errcause), for
// SlruReportIOError.
type ioError struct {
	openFailed bool // SLRU_OPEN_FAILED (ENOENT); else SLRU_READ_FAILED, too few bytes
	path       string
	offset     int64
}

// ReadPage is SlruPhysicalReadPage's I/O: the page's BLCKSZ bytes, or the
// failure PostgreSQL reports outside recovery (the file does not exist, or
// it is too short: "read too few bytes").
func (d *Disk) ReadPage(page int64) ([]byte, error) {
	segno, off := SegmentOf(page)
	f, ok := d.files[segno]
	if !ok {
		return nil, &ioError{openFailed: true, path: d.FileName(segno), offset: off}
	}
	if int64(len(f)) < off+BLCKSZ {
		return nil, &ioError{path: d.FileName(segno), offset: off}
	}
	return f[off : off+BLCKSZ], nil
}

func (e *ioError) Error() string {
	if e.openFailed {
		return fmt.Sprintf("Could not open file \"%s\": No such file or directory.", e.path)
	}
	return fmt.Sprintf("Could not read from file \"%s\" at offset %d: read too few bytes.", e.path, e.offset)
}

// WritePage is SlruPhysicalWritePage's I/O: it creates the segment file if
// needed and writes the page at its offset, a file written past its end
// reading as zeroes in between (as pwrite leaves it).
func (d *Disk) WritePage(page int64, data []byte) {
	if len(data) != BLCKSZ {
		panic(fmt.Sprintf("slru: writing %d bytes as page %d", len(data), page))
	}
	segno, off := SegmentOf(page)
	f := d.files[segno]
	if need := off + BLCKSZ; int64(len(f)) < need {
		g := make([]byte, need)
		copy(g, f)
		f = g
	}
	copy(f[off:], data)
	d.files[segno] = f
}

// FormatPages writes zeroed pages first..last (inclusive) without an event:
// the state a cluster's directory has when the pages were created and
// checkpointed before the simulation starts.
func (d *Disk) FormatPages(first, last int64) {
	zero := make([]byte, BLCKSZ)
	for p := first; p <= last; p++ {
		d.WritePage(p, zero)
	}
}

// FileSize returns the size of segment segno's file, and whether it exists.
func (d *Disk) FileSize(segno int64) (int64, bool) {
	f, ok := d.files[segno]
	return int64(len(f)), ok
}

// File returns segment segno's contents (nil if it does not exist). The
// slice is the disk's own: do not modify it.
func (d *Disk) File(segno int64) []byte { return d.files[segno] }

// Segments lists the segment numbers of the existing files, in order.
func (d *Disk) Segments() []int64 {
	out := make([]int64, 0, len(d.files))
	for s := range d.files {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Summary describes the files: "pg_xact: 0000 (8192 B)".
func (d *Disk) Summary() string {
	var b strings.Builder
	b.WriteString(d.dir + ":")
	segs := d.Segments()
	if len(segs) == 0 {
		b.WriteString(" empty")
	}
	for _, s := range segs {
		fmt.Fprintf(&b, " %04X (%d B)", s, len(d.files[s]))
	}
	b.WriteByte('\n')
	return b.String()
}
