//go:build !js

package spillfile

import (
	"bytes"
	"os"
	"testing"
)

// TestOpen: what is written is read back at its offset, the file leaves
// no name behind in its directory, and Close succeeds.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	f, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("chunk two"), 100); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("chunk one"), 0); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 9)
	if _, err := f.ReadAt(got, 100); err != nil || !bytes.Equal(got, []byte("chunk two")) {
		t.Fatalf("ReadAt(100) = %q, %v", got, err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("the spill file has a name in its directory: %v", ents)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left after Close: %v", ents)
	}
}
