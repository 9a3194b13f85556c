package goldentest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestRunVisitsEveryFile: each matched file is its own subtest and every
// directive of it reaches fn.
func TestRunVisitsEveryFile(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.txt", "b.txt"} {
		body := "echo\n" + name + "\n----\n" + name + "\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var seen []string
	Run(t, filepath.Join(dir, "*.txt"), func(t *testing.T, d *datadriven.TestData) string {
		seen = append(seen, t.Name())
		return d.Input + "\n"
	})
	if len(seen) != 2 || seen[0] != "TestRunVisitsEveryFile/a.txt" || seen[1] != "TestRunVisitsEveryFile/b.txt" {
		t.Fatalf("subtests %q, want one per file named by its base name", seen)
	}
}
