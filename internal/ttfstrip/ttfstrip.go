package ttfstrip

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
)

// Dropped are the tables Strip leaves out: all of them serve the
// TrueType hinting interpreter or the device metrics it produces, which
// an unhinted rasteriser never reads.
//
//	fpgm  the font program (instructions run once)
//	prep  the control value program (run at each size)
//	cvt   the control values the instructions read
//	hdmx  advance widths hinted at given pixel sizes
//	LTSH  the sizes from which hinting scales linearly
//	VDMX  vertical extents of hinted glyphs
var Dropped = []string{"fpgm", "prep", "cvt ", "hdmx", "LTSH", "VDMX"}

// Stats says what Strip removed.
type Stats struct {
	Glyphs            int // glyphs in the font
	InstructionBytes  int // bytes of glyph instructions removed from glyf
	DroppedTableBytes int // bytes of the Dropped tables removed
}

// Composite glyph flags (OpenType glyf table, "Composite Glyph
// Description").
const (
	argsAreWords      = 0x0001
	weHaveAScale      = 0x0008
	moreComponents    = 0x0020
	weHaveXAndYScale  = 0x0040
	weHaveATwoByTwo   = 0x0080
	weHaveInstruction = 0x0100
)

// Strip returns the TrueType font ttf without its hinting: each glyph's
// instructions emptied, the Dropped tables left out, maxp's
// maxSizeOfInstructions set to 0, the tables' checksums and head's
// checkSumAdjustment computed again. Outlines, advances, the character
// map, kerning and every other table are kept byte for byte. It refuses
// what it does not know how to rewrite (a CFF font, a font collection, a
// malformed table) rather than guess.
func Strip(ttf []byte) ([]byte, Stats, error) {
	var st Stats
	tables, err := readTables(ttf)
	if err != nil {
		return nil, st, err
	}
	head, maxp, glyf, loca := tables["head"], tables["maxp"], tables["glyf"], tables["loca"]
	if head == nil || maxp == nil || glyf == nil || loca == nil {
		return nil, st, errors.New("not a TrueType-outline font: it lacks head, maxp, glyf or loca")
	}
	if len(head) < 54 || len(maxp) < 32 || binary.BigEndian.Uint32(maxp) != 0x00010000 {
		return nil, st, errors.New("head or maxp is too short, or maxp is not version 1.0")
	}
	longLoca := binary.BigEndian.Uint16(head[50:]) == 1
	n := int(binary.BigEndian.Uint16(maxp[4:]))
	st.Glyphs = n
	offsets, err := readLoca(loca, n, longLoca)
	if err != nil {
		return nil, st, err
	}

	var newGlyf []byte
	newOffsets := make([]int, n+1)
	for g := 0; g < n; g++ {
		newOffsets[g] = len(newGlyf)
		from, to := offsets[g], offsets[g+1]
		if from > to || to > len(glyf) {
			return nil, st, fmt.Errorf("glyph %d: loca gives %d..%d in a glyf of %d bytes", g, from, to, len(glyf))
		}
		out, removed, err := stripGlyph(glyf[from:to])
		if err != nil {
			return nil, st, fmt.Errorf("glyph %d: %v", g, err)
		}
		st.InstructionBytes += removed
		newGlyf = append(newGlyf, out...)
		for len(newGlyf)%4 != 0 { // keeps every offset even, as short loca needs
			newGlyf = append(newGlyf, 0)
		}
	}
	newOffsets[n] = len(newGlyf)
	if !longLoca && len(newGlyf) > 2*0xFFFF { // beyond what short offsets reach
		longLoca = true
	}
	newLoca := writeLoca(newOffsets, longLoca)

	out := map[string][]byte{}
	for tag, b := range tables {
		out[tag] = b
	}
	for _, tag := range Dropped {
		if b, ok := out[tag]; ok {
			st.DroppedTableBytes += len(b)
			delete(out, tag)
		}
	}
	out["glyf"], out["loca"] = newGlyf, newLoca
	newHead := append([]byte{}, head...)
	if longLoca {
		binary.BigEndian.PutUint16(newHead[50:], 1)
	}
	binary.BigEndian.PutUint32(newHead[8:], 0) // checkSumAdjustment, set below
	out["head"] = newHead
	newMaxp := append([]byte{}, maxp...)
	binary.BigEndian.PutUint16(newMaxp[26:], 0) // maxSizeOfInstructions
	out["maxp"] = newMaxp

	font := writeFont(binary.BigEndian.Uint32(ttf), out)
	return font, st, nil
}

// stripGlyph returns one glyph's data without its instructions, and how
// many bytes of instructions it had.
func stripGlyph(g []byte) ([]byte, int, error) {
	if len(g) == 0 {
		return nil, 0, nil
	}
	if len(g) < 10 {
		return nil, 0, errors.New("shorter than a glyph header")
	}
	contours := int16(binary.BigEndian.Uint16(g))
	if contours >= 0 {
		// header, endPtsOfContours[contours], instructionLength,
		// instructions, then flags and coordinates.
		at := 10 + 2*int(contours)
		if at+2 > len(g) {
			return nil, 0, errors.New("contour ends run past the glyph")
		}
		il := int(binary.BigEndian.Uint16(g[at:]))
		if at+2+il > len(g) {
			return nil, 0, errors.New("instructions run past the glyph")
		}
		out := make([]byte, 0, len(g)-il)
		out = append(out, g[:at]...)
		out = append(out, 0, 0)
		out = append(out, g[at+2+il:]...)
		return out, il, nil
	}
	// A composite: components, each with its flags, then the
	// instructions if any component says so.
	out := append([]byte{}, g[:10]...)
	at := 10
	instructions := false
	for {
		if at+4 > len(g) {
			return nil, 0, errors.New("a component runs past the glyph")
		}
		flags := binary.BigEndian.Uint16(g[at:])
		size := 4 // flags, glyphIndex
		if flags&argsAreWords != 0 {
			size += 4
		} else {
			size += 2
		}
		switch {
		case flags&weHaveAScale != 0:
			size += 2
		case flags&weHaveXAndYScale != 0:
			size += 4
		case flags&weHaveATwoByTwo != 0:
			size += 8
		}
		if at+size > len(g) {
			return nil, 0, errors.New("a component runs past the glyph")
		}
		instructions = instructions || flags&weHaveInstruction != 0
		start := len(out)
		out = append(out, g[at:at+size]...)
		binary.BigEndian.PutUint16(out[start:], flags&^weHaveInstruction)
		at += size
		if flags&moreComponents == 0 {
			break
		}
	}
	removed := 0
	if instructions {
		if at+2 > len(g) {
			return nil, 0, errors.New("the instruction length runs past the glyph")
		}
		il := int(binary.BigEndian.Uint16(g[at:]))
		if at+2+il > len(g) {
			return nil, 0, errors.New("instructions run past the glyph")
		}
		removed = il
		at += 2 + il
	}
	// Anything after the components and instructions is padding.
	return out, removed, nil
}

func readTables(ttf []byte) (map[string][]byte, error) {
	if len(ttf) < 12 {
		return nil, errors.New("shorter than an offset table")
	}
	switch binary.BigEndian.Uint32(ttf) {
	case 0x00010000, 0x74727565: // TrueType outlines ("true": Apple's)
	case 0x4F54544F:
		return nil, errors.New("a CFF (OTTO) font: it has no TrueType instructions to strip")
	case 0x74746366:
		return nil, errors.New("a font collection (ttcf): strip its fonts one at a time")
	default:
		return nil, errors.New("not an OpenType font")
	}
	num := int(binary.BigEndian.Uint16(ttf[4:]))
	if 12+16*num > len(ttf) {
		return nil, errors.New("the table directory runs past the file")
	}
	tables := map[string][]byte{}
	for i := 0; i < num; i++ {
		rec := ttf[12+16*i:]
		tag := string(rec[:4])
		off, length := int(binary.BigEndian.Uint32(rec[8:])), int(binary.BigEndian.Uint32(rec[12:]))
		if off < 0 || length < 0 || off+length > len(ttf) {
			return nil, fmt.Errorf("table %q runs past the file", tag)
		}
		if _, dup := tables[tag]; dup {
			return nil, fmt.Errorf("table %q twice", tag)
		}
		tables[tag] = ttf[off : off+length]
	}
	return tables, nil
}

func readLoca(loca []byte, n int, long bool) ([]int, error) {
	size := 2
	if long {
		size = 4
	}
	if len(loca) < size*(n+1) {
		return nil, fmt.Errorf("loca has %d bytes, %d glyphs need %d", len(loca), n, size*(n+1))
	}
	offsets := make([]int, n+1)
	for i := range offsets {
		if long {
			offsets[i] = int(binary.BigEndian.Uint32(loca[4*i:]))
		} else {
			offsets[i] = 2 * int(binary.BigEndian.Uint16(loca[2*i:]))
		}
	}
	return offsets, nil
}

func writeLoca(offsets []int, long bool) []byte {
	var b []byte
	for _, o := range offsets {
		if long {
			b = binary.BigEndian.AppendUint32(b, uint32(o))
		} else {
			b = binary.BigEndian.AppendUint16(b, uint16(o/2))
		}
	}
	return b
}

// writeFont lays the tables out in tag order, each at a 4-byte boundary
// with its checksum, and sets head's checkSumAdjustment so that the whole
// file sums to 0xB1B0AFBA (OpenType's "head" table).
func writeFont(version uint32, tables map[string][]byte) []byte {
	tags := make([]string, 0, len(tables))
	for t := range tables {
		tags = append(tags, t)
	}
	sort.Strings(tags)
	num := len(tags)
	pow, log := 1, 0
	for pow*2 <= num {
		pow, log = pow*2, log+1
	}
	b := binary.BigEndian.AppendUint32(nil, version)
	b = binary.BigEndian.AppendUint16(b, uint16(num))
	b = binary.BigEndian.AppendUint16(b, uint16(16*pow))
	b = binary.BigEndian.AppendUint16(b, uint16(log))
	b = binary.BigEndian.AppendUint16(b, uint16(16*num-16*pow))
	dir := len(b)
	b = append(b, make([]byte, 16*num)...)
	headAt := -1
	for i, tag := range tags {
		t := tables[tag]
		off := len(b)
		if tag == "head" {
			headAt = off
		}
		b = append(b, t...)
		for len(b)%4 != 0 {
			b = append(b, 0)
		}
		rec := b[dir+16*i:]
		copy(rec, tag)
		binary.BigEndian.PutUint32(rec[4:], checksum(t))
		binary.BigEndian.PutUint32(rec[8:], uint32(off))
		binary.BigEndian.PutUint32(rec[12:], uint32(len(t)))
	}
	if headAt >= 0 {
		binary.BigEndian.PutUint32(b[headAt+8:], 0xB1B0AFBA-checksum(b))
	}
	return b
}

// checksum is OpenType's table checksum: the sum of big-endian uint32s,
// the last one padded with zeros.
func checksum(b []byte) uint32 {
	var sum uint32
	for i := 0; i < len(b); i += 4 {
		var w [4]byte
		copy(w[:], b[i:])
		sum += binary.BigEndian.Uint32(w[:])
	}
	return sum
}
