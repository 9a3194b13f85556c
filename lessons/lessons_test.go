package lessons

import (
	"io/fs"
	"strings"
	"testing"

	"bufferlab/engine/scenario"
)

// Every embedded scenario runs headless without an error and leaves the
// pool quiescent; each starts with a title comment (shown by `bufferlab list`).
func TestScenariosRun(t *testing.T) {
	names, err := fs.Glob(Scenarios, "scenarios/*.scn")
	if err != nil || len(names) < 2 {
		t.Fatalf("embedded scenarios: %v, %v", names, err)
	}
	for _, n := range names {
		src, err := fs.ReadFile(Scenarios, n)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(src), "# ") {
			t.Errorf("%s: expected a '# title' first line", n)
		}
		r, _, err := scenario.Run(n, string(src), true)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if err := r.Pool().CheckQuiescent(); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
}
