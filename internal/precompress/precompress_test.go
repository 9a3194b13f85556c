package precompress

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMatches(t *testing.T) {
	raw := bytes.Repeat([]byte("BufferLab wasm "), 50000)
	for _, enc := range Encodings {
		c := Compress(enc, raw)
		if !Matches(enc, c, raw) {
			t.Errorf("%s: its own output does not match", enc.Name)
		}
		other := bytes.Clone(raw)
		other[len(other)-1]++
		for name, bad := range map[string]struct{ c, raw []byte }{
			"another file":   {c, other},
			"a longer file":  {c, append(bytes.Clone(raw), 'x')},
			"a shorter file": {c, raw[:len(raw)-1]},
			"truncated":      {c[:len(c)/2], raw},
			"not compressed": {raw, raw},
		} {
			if Matches(enc, bad.c, bad.raw) {
				t.Errorf("%s: %s matches", enc.Name, name)
			}
		}
	}
}

func TestWriteFiles(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bufferlab.wasm")
	raw := bytes.Repeat([]byte("\x00asm"), 10000)
	os.WriteFile(p, raw, 0o644)
	var log bytes.Buffer
	if err := WriteFiles(p, &log); err != nil {
		t.Fatal(err)
	}
	if !UpToDate(p, raw) || !strings.Contains(log.String(), "compressing") || !strings.Contains(log.String(), "wrote") {
		t.Fatalf("first run: %s", log.String())
	}
	log.Reset()
	if err := WriteFiles(p, &log); err != nil || !strings.Contains(log.String(), "up to date") {
		t.Errorf("second run: %v %s", err, log.String())
	}
	raw[0] = 1
	os.WriteFile(p, raw, 0o644)
	if UpToDate(p, raw) {
		t.Errorf("a changed file is up to date")
	}
	log.Reset()
	if err := WriteFiles(p, &log); err != nil || !UpToDate(p, raw) || !strings.Contains(log.String(), "compressing") {
		t.Errorf("after a change: %v %s", err, log.String())
	}
	ents, _ := os.ReadDir(filepath.Dir(p))
	if len(ents) != 3 {
		t.Errorf("left behind: %v", ents)
	}
}

// TestBrotliWindow checks the window the brotli streams declare (RFC
// 7932, section 9.2): make wasm's BrotliWindow, in the standard format
// that browsers decode, never the large-window one.
func TestBrotliWindow(t *testing.T) {
	raw := bytes.Repeat([]byte("BufferLab wasm "), 50000)
	for name, c := range map[string][]byte{
		"Compress":      Compress(Encodings[0], raw),
		"CompressQuick": CompressQuick(Encodings[0], raw),
	} {
		bits, large := windowBits(c)
		if large || bits < 10 || bits > 24 {
			t.Errorf("%s: window 2^%d, large-window format %v: not standard brotli", name, bits, large)
		}
		if name == "Compress" && bits != BrotliWindow {
			t.Errorf("Compress: window 2^%d, want 2^%d", bits, BrotliWindow)
		}
	}
	for _, h := range []struct {
		b     byte
		bits  int
		large bool
	}{{0x00, 16, false}, {0x0b, 22, false}, {0x0f, 24, false}, {0x01, 17, false}, {0x21, 10, false}, {0x11, 0, true}} {
		if bits, large := windowBits([]byte{h.b, 0}); bits != h.bits || large != h.large {
			t.Errorf("windowBits(%#02x) = %d, %v; want %d, %v", h.b, bits, large, h.bits, h.large)
		}
	}
}

// windowBits decodes a brotli stream's first bits, WBITS (least
// significant bit first), and reports whether it is the large-window
// format's marker instead.
func windowBits(c []byte) (bits int, large bool) {
	if len(c) < 2 {
		return 0, false
	}
	h := int(c[0]) | int(c[1])<<8
	switch {
	case h&1 == 0:
		return 16, false
	case h>>1&7 != 0:
		return 17 + h>>1&7, false
	case h>>4&7 == 1:
		return 0, true
	case h>>4&7 != 0:
		return 8 + h>>4&7, false
	}
	return 17, false
}
