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
//
// Files are sparse: a segment records its length and the pages written to
// it; every other page up to the length reads as zeroes, as a page
// formatted before the simulation (FormatPages) or skipped by a write past
// the end does. So memory follows the pages written, not the size of the
// directory: the largest pg_xact (ClogMaxPages, 1GB of pages) costs a
// record per segment. Maps are looked up by key only; Segments sorts.
type Disk struct {
	dir   string
	files map[int64]*segment // segno -> file
	// Reads and Writes count page transfers.
	Reads, Writes uint64
}

// segment is one file: its length in bytes (a multiple of BLCKSZ) and the
// pages written to it, by page number within the segment.
type segment struct {
	size  int64
	pages map[int64][]byte
}

// zeroPage is what an unwritten page reads as. Never modified.
var zeroPage = make([]byte, BLCKSZ)

// NewDisk returns an empty directory.
func NewDisk(dir string) *Disk { return &Disk{dir: dir, files: map[int64]*segment{}} }

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
// it is too short: "read too few bytes"). The slice is the disk's own: do
// not modify it.
func (d *Disk) ReadPage(page int64) ([]byte, error) {
	segno, off := SegmentOf(page)
	f, ok := d.files[segno]
	if !ok {
		return nil, &ioError{openFailed: true, path: d.FileName(segno), offset: off}
	}
	if f.size < off+BLCKSZ {
		return nil, &ioError{path: d.FileName(segno), offset: off}
	}
	if p, ok := f.pages[off/BLCKSZ]; ok {
		return p, nil
	}
	return zeroPage, nil
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
	f := d.extend(segno, off+BLCKSZ)
	p := f.pages[off/BLCKSZ]
	if p == nil {
		if f.pages == nil {
			f.pages = map[int64][]byte{}
		}
		p = make([]byte, BLCKSZ)
		f.pages[off/BLCKSZ] = p
	}
	copy(p, data)
}

// extend returns segment segno's file, created if needed and at least size
// bytes long (a longer file keeps its length).
func (d *Disk) extend(segno, size int64) *segment {
	f := d.files[segno]
	if f == nil {
		f = &segment{}
		d.files[segno] = f
	}
	f.size = max(f.size, size)
	return f
}

// FormatPages writes zeroed pages first..last (inclusive) without an event:
// the state a cluster's directory has when the pages were created and
// checkpointed before the simulation starts. It stores no page: each
// segment that holds some of them is made long enough, and a page already
// written there is forgotten (it reads as zeroes again). Its cost is one
// step per segment and per page written to those segments before.
func (d *Disk) FormatPages(first, last int64) {
	if first < 0 || last < first {
		return
	}
	for segno := first / SlruPagesPerSegment; segno <= last/SlruPagesPerSegment; segno++ {
		lo := max(first, segno*SlruPagesPerSegment) % SlruPagesPerSegment
		hi := min(last, segno*SlruPagesPerSegment+SlruPagesPerSegment-1) % SlruPagesPerSegment
		f := d.extend(segno, (hi+1)*BLCKSZ)
		for rp := range f.pages { // each page in range reads as zeroes again: order does not matter
			if rp >= lo && rp <= hi {
				delete(f.pages, rp)
			}
		}
	}
}

// FileSize returns the size of segment segno's file, and whether it exists.
func (d *Disk) FileSize(segno int64) (int64, bool) {
	f, ok := d.files[segno]
	if !ok {
		return 0, false
	}
	return f.size, true
}

// File returns a copy of segment segno's contents (nil if it does not
// exist), its unwritten pages as zeroes.
func (d *Disk) File(segno int64) []byte {
	f, ok := d.files[segno]
	if !ok {
		return nil
	}
	out := make([]byte, f.size)
	for rp, p := range f.pages { // each page to its own place: order does not matter
		copy(out[rp*BLCKSZ:], p)
	}
	return out
}

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
		fmt.Fprintf(&b, " %04X (%d B)", s, d.files[s].size)
	}
	b.WriteByte('\n')
	return b.String()
}
