package scenario

import (
	"strings"
	"testing"
)

// TestReferenceNamesEverything: the card names every config key,
// operation and subject the parser accepts, and every statement keyword.
func TestReferenceNamesEverything(t *testing.T) {
	ref := Reference()
	var want []string
	for kw := range statements {
		want = append(want, "\n  "+kw+" ")
	}
	want = append(want, "\n  config ")
	for k := range registry.keys {
		want = append(want, "\n  "+k+"=")
	}
	for o := range registry.ops {
		want = append(want, "\n  "+o+" ")
	}
	for _, s := range subjectList(false) {
		want = append(want, "\n  "+s+" ")
	}
	for _, s := range subjectList(true) {
		want = append(want, "\n  "+s+" ")
	}
	for _, w := range want {
		if !strings.Contains(ref, w) {
			t.Errorf("Reference() lacks %q", strings.TrimSpace(w))
		}
	}
	for i, line := range strings.Split(ref, "\n") {
		if len([]rune(line)) > 160 {
			t.Errorf("line %d is %d characters: %q", i+1, len([]rune(line)), line)
		}
	}
}
