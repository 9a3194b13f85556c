package exptest

import (
	"os"
	"path/filepath"
	"testing"

	"bufferlab/engine/bufmgr"
)

// Sizes are the sizes the benchmarks run at, as bench pool and limits
// (128MB, 1GB, 20GB; -short: 128MB, 1GB). The twins are run with
//
//	go test -run - -bench . ./fastmode/exp/...
func Sizes() []string {
	if testing.Short() {
		return []string{"128MB", "1GB"}
	}
	return []string{"128MB", "1GB", "20GB"}
}

// NBuffers converts a shared_buffers size to buffers, failing b on a bad
// one.
func NBuffers(b *testing.B, size string) int {
	n, err := bufmgr.ParseSharedBuffers(size)
	if err != nil {
		b.Fatal(err)
	}
	return n
}

// Time times run(b.N), after the set-up: allocations reported, the timer
// reset just before; an error from run fails b. The timer is left
// running, for the caller to stop before its checks.
func Time(b *testing.B, run func(n int) error) {
	b.ReportAllocs()
	b.ResetTimer()
	if err := run(b.N); err != nil {
		b.Fatal(err)
	}
}

// Seed returns the text of the shared seed file whose name matches
// pattern (e.g. "003_*.txt") in ../shared/seeds beside the clone, found
// from the test's package directory (the working directory of go test)
// up to the module root. Without that folder the test is skipped, except
// in CI (CI set), which runs with shared/ beside the clone.
func Seed(t testing.TB, pattern string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no go.mod above %s", dir)
		}
		dir = parent
	}
	files, _ := filepath.Glob(filepath.Join(dir, "..", "shared", "seeds", pattern))
	if len(files) == 0 {
		if os.Getenv("CI") != "" {
			t.Fatal("../shared/seeds is missing: CI runs with shared/ beside the clone")
		}
		t.Skip("shared seeds not present")
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
