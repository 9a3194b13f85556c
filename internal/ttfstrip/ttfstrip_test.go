package ttfstrip

import (
	"encoding/binary"
	"strings"
	"testing"

	"golang.org/x/image/font/gofont/goregular"
)

// TestStripGlyph rewrites a simple and a composite glyph by hand.
func TestStripGlyph(t *testing.T) {
	// A simple glyph: one contour, 3 bytes of instructions, 2 bytes of
	// flags and coordinates.
	simple := []byte{0, 1, 0, 0, 0, 0, 0, 9, 0, 9, 0, 2, 0, 3, 0xAA, 0xBB, 0xCC, 0x01, 0x02}
	out, removed, err := stripGlyph(simple)
	want := []byte{0, 1, 0, 0, 0, 0, 0, 9, 0, 9, 0, 2, 0, 0, 0x01, 0x02}
	if err != nil || removed != 3 || string(out) != string(want) {
		t.Fatalf("simple: %x, %d, %v; want %x, 3", out, removed, err, want)
	}
	// A composite of two components, byte arguments, the second with
	// WE_HAVE_INSTRUCTIONS; 2 bytes of instructions follow.
	comp := []byte{0xFF, 0xFF, 0, 0, 0, 0, 0, 9, 0, 9,
		0, moreComponents, 0, 5, 1, 2,
		weHaveInstruction >> 8, 0, 0, 6, 3, 4,
		0, 2, 0xDE, 0xAD}
	out, removed, err = stripGlyph(comp)
	want = []byte{0xFF, 0xFF, 0, 0, 0, 0, 0, 9, 0, 9,
		0, moreComponents, 0, 5, 1, 2,
		0, 0, 0, 6, 3, 4}
	if err != nil || removed != 2 || string(out) != string(want) {
		t.Fatalf("composite: %x, %d, %v; want %x, 2", out, removed, err, want)
	}
	if _, _, err := stripGlyph(simple[:13]); err == nil {
		t.Error("a glyph cut in its instructions was accepted")
	}
}

// TestStripChecksums: the stripped Go font's tables have the checksums
// their directory records, the whole file sums to OpenType's magic, and
// no hinting table is left.
func TestStripChecksums(t *testing.T) {
	out, _, err := Strip(goregular.TTF)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := readTables(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, tag := range Dropped {
		if _, ok := tables[tag]; ok {
			t.Errorf("table %q kept", tag)
		}
	}
	num := int(binary.BigEndian.Uint16(out[4:]))
	for i := 0; i < num; i++ {
		rec := out[12+16*i:]
		tag := string(rec[:4])
		b := tables[tag]
		if tag == "head" {
			b = append([]byte{}, b...)
			binary.BigEndian.PutUint32(b[8:], 0)
		}
		if got := binary.BigEndian.Uint32(rec[4:]); got != checksum(b) {
			t.Errorf("table %q: directory says checksum %x, table sums to %x", tag, got, checksum(b))
		}
	}
	if s := checksum(out); s != 0xB1B0AFBA {
		t.Errorf("the file sums to %x, want b1b0afba", s)
	}
}

// TestStripRefuses: what Strip does not rewrite, it names.
func TestStripRefuses(t *testing.T) {
	for _, c := range []struct {
		in   []byte
		want string
	}{
		{[]byte("OTTO\x00\x00\x00\x00\x00\x00\x00\x00"), "CFF"},
		{[]byte("ttcf\x00\x01\x00\x00\x00\x00\x00\x00"), "collection"},
		{[]byte("hello world!"), "not an OpenType font"},
		{[]byte{0, 1, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0}, "directory runs past"},
		{goregular.TTF[:2000], "runs past the file"},
	} {
		if _, _, err := Strip(c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Strip(%q...) = %v, want an error with %q", c.in[:4], err, c.want)
		}
	}
}
