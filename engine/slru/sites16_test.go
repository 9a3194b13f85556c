package slru

import (
	"strings"
	"testing"

	"bufferlab/engine/trace"
)

// A Single SLRU's events carry PostgreSQL 16's sites wherever PG 16's code
// has its own block, so the code panel shows the ControlLock and one LRU
// counter; the banks variants never carry them.
func TestSingleShowsPG16Code(t *testing.T) {
	pg16Funcs := map[string]bool{}
	for _, f := range trace.Funcs() {
		if name, ok := strings.CutSuffix(f.Name, " (PG 16)"); ok {
			pg16Funcs[name] = true
		}
	}
	ops := []string{"boot", "extend 32768", "set 100 committed", "get 100", "read-only 0", "read 1", "read 2", "read 3",
		"read 4", "read 5", "zero 6", "set 200 aborted", "write-all", "get 40000"}
	for _, v := range []Variant{Single, Banks, BanksHash} {
		log := trace.NewLog()
		s, err := New(Config{Variant: v, Slots: 32}, log)
		if err != nil {
			t.Fatal(err)
		}
		s.Disk().FormatPages(0, 9)
		s.SetLatestPageNumber(9)
		b, err := s.NewBackend("A")
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range ops {
			o, err := ParseOp(text)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := b.Do(o); err != nil {
				t.Fatalf("%v: %s: %v", v, text, err)
			}
		}
		seen := map[string]bool{}
		for _, e := range log.Events() {
			name := e.Site.String()
			seen[name] = true
			f := e.Site.Info().Func
			if f == nil {
				t.Fatalf("%v: event %v has no pseudo-code", v, e)
			}
			is16 := strings.Contains(name, "16.")
			switch {
			case v == Single && pg16Funcs[f.Name]:
				t.Errorf("%v: event %v shows %s, which has a PG 16 block", v, e, f.Name)
			case v != Single && is16:
				t.Errorf("%v: event %v carries a PG 16 site", v, e)
			}
		}
		if v == Single {
			for _, want := range []string{"slru.read16.claim", "slru.clog16.get", "slru.clog16.set-lock", "slru.writeall16.lock",
				"slru.write16.begin", "slru.zero16.set", "slru.boot16.lock", "slru.extend16.lock", "slru.lru16.touch"} {
				if !seen[want] {
					t.Errorf("single: no event at %s", want)
				}
			}
		}
	}
	// Every PG 16 site maps back to the shared site it stands for.
	for from, to := range toPG16 {
		if canonical(to) != from || !strings.Contains(to.String(), "16.") {
			t.Errorf("%s -> %s does not map back", from, to)
		}
	}
}
