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
