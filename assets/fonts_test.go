package assets

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"bufferlab/internal/ttfstrip"
)

var update = flag.Bool("update", false, "write assets/fonts/*.ttf from golang.org/x/image's Go fonts")

var fonts = []struct {
	file           string
	original, have []byte
}{
	{"go-regular.ttf", goregular.TTF, GoRegular},
	{"go-bold.ttf", gobold.TTF, GoBold},
	{"go-mono.ttf", gomono.TTF, GoMono},
	{"go-italic.ttf", goitalic.TTF, GoItalic},
}

// TestFontsAreStrippedGoFonts: each embedded font is what Strip makes of
// the pinned Go font, and reads as the original does.
func TestFontsAreStrippedGoFonts(t *testing.T) {
	for _, f := range fonts {
		stripped, st, err := ttfstrip.Strip(f.original)
		if err != nil {
			t.Fatalf("%s: %v", f.file, err)
		}
		if *update {
			if err := os.WriteFile(filepath.Join("fonts", f.file), stripped, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote fonts/%s", f.file)
		} else if !bytes.Equal(stripped, f.have) {
			t.Errorf("fonts/%s is not ttfstrip.Strip of golang.org/x/image's font: go test ./assets -update", f.file)
		}
		t.Logf("%s: %d bytes -> %d (%d glyphs, %d bytes of instructions, %d of hinting tables)",
			f.file, len(f.original), len(stripped), st.Glyphs, st.InstructionBytes, st.DroppedTableBytes)
		if len(stripped) >= len(f.original)*3/4 || st.InstructionBytes == 0 {
			t.Errorf("%s: stripping removed too little to be hinting", f.file)
		}
		sameFont(t, f.file, f.original, stripped)
	}
}

// sameFont compares what golang.org/x/image/font/sfnt reads from two
// fonts: every glyph's outline segments and advance, the glyph of every
// rune of the Basic Multilingual Plane, the kerning of the printable
// ASCII pairs, and the metrics at a few sizes.
func sameFont(t *testing.T, name string, a, b []byte) {
	t.Helper()
	fa, err := sfnt.Parse(a)
	if err != nil {
		t.Fatalf("%s original: %v", name, err)
	}
	fb, err := sfnt.Parse(b)
	if err != nil {
		t.Fatalf("%s stripped: %v", name, err)
	}
	if fa.NumGlyphs() != fb.NumGlyphs() {
		t.Fatalf("%s: %d glyphs, stripped %d", name, fa.NumGlyphs(), fb.NumGlyphs())
	}
	var bufA, bufB sfnt.Buffer
	ppem := fixed.I(int(fa.UnitsPerEm()))
	for g := 0; g < fa.NumGlyphs(); g++ {
		x := sfnt.GlyphIndex(g)
		sa, errA := fa.LoadGlyph(&bufA, x, ppem, nil)
		sb, errB := fb.LoadGlyph(&bufB, x, ppem, nil)
		if (errA == nil) != (errB == nil) || len(sa) != len(sb) {
			t.Fatalf("%s glyph %d: %d segments (%v), stripped %d (%v)", name, g, len(sa), errA, len(sb), errB)
		}
		for i := range sa {
			if sa[i] != sb[i] {
				t.Fatalf("%s glyph %d segment %d: %v, stripped %v", name, g, i, sa[i], sb[i])
			}
		}
		aa, _ := fa.GlyphAdvance(&bufA, x, ppem, font.HintingNone)
		ab, _ := fb.GlyphAdvance(&bufB, x, ppem, font.HintingNone)
		if aa != ab {
			t.Fatalf("%s glyph %d: advance %v, stripped %v", name, g, aa, ab)
		}
	}
	for r := rune(0); r <= 0xFFFF; r++ {
		ga, _ := fa.GlyphIndex(&bufA, r)
		gb, _ := fb.GlyphIndex(&bufB, r)
		if ga != gb {
			t.Fatalf("%s: %U maps to glyph %d, stripped %d", name, r, ga, gb)
		}
	}
	size := fixed.I(13)
	for l := rune(' '); l <= '~'; l++ {
		gl, _ := fa.GlyphIndex(&bufA, l)
		for r := rune(' '); r <= '~'; r++ {
			gr, _ := fa.GlyphIndex(&bufA, r)
			ka, errA := fa.Kern(&bufA, gl, gr, size, font.HintingNone)
			kb, errB := fb.Kern(&bufB, gl, gr, size, font.HintingNone)
			if ka != kb || (errA == nil) != (errB == nil) {
				t.Fatalf("%s: kerning %q%q %v (%v), stripped %v (%v)", name, l, r, ka, errA, kb, errB)
			}
		}
	}
	for _, px := range []int{10, 13, 24} {
		ma, _ := fa.Metrics(&bufA, fixed.I(px), font.HintingNone)
		mb, _ := fb.Metrics(&bufB, fixed.I(px), font.HintingNone)
		if ma != mb {
			t.Fatalf("%s at %d px: metrics %+v, stripped %+v", name, px, ma, mb)
		}
	}
}
