package goldentest

import (
	"path/filepath"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// Run runs fn over every datadriven file that glob matches (relative to the
// test's package directory), one subtest per file named by its base name.
// A glob that matches nothing fails the test: a moved folder or a typo
// must not turn the golden test into one that passes by checking nothing.
// Cost: one datadriven.RunTest per file; the files are read once each.
func Run(t *testing.T, glob string, fn func(t *testing.T, d *datadriven.TestData) string) {
	t.Helper()
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			datadriven.RunTest(t, path, fn)
		})
	}
}
