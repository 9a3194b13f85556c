package slruview_test

import (
	"strings"
	"testing"

	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
	"bufferlab/viz/slruview"
)

// One backend reads xid 100000's status from a cold cache of two banks:
// the lookup goes from the xid to page 3 to bank 1, searches the bank
// under the shared lock, misses, relocks it exclusively, searches again,
// takes an EMPTY slot, reads the page in and reads the status. The lines
// a lesson shows at each step. (Three bank lock acquisitions: shared, the
// exclusive relock, and again after the read.)
func TestLookupTexts(t *testing.T) {
	log := trace.NewLog()
	s, err := slru.New(slru.Config{Variant: slru.Banks, Slots: 32}, log)
	if err != nil {
		t.Fatal(err)
	}
	s.Disk().FormatPages(0, 3)
	s.StartupCLOG(3 * slru.ClogXactsPerPage)
	v := slruview.New(slruview.GeometryOf(s), []string{"sys", "A"})
	var seen []string
	log.OnAppend = func(e trace.Event) {
		if err := v.ApplyChecked(e); err != nil {
			t.Fatal(err)
		}
		a := v.Lane(1)
		line := v.Status(a)
		if len(seen) == 0 || seen[len(seen)-1] != line {
			seen = append(seen, line)
		}
		if e.Kind == trace.KOp {
			if got, want := v.Path(a.Lookup), "xid 100000 → page 3 (xid / 32768) → bank 1 (3 % 2)"; got != want {
				t.Errorf("Path %q, want %q", got, want)
			}
		}
	}
	b, _ := s.NewBackend("A")
	if st, err := b.TransactionIdGetStatus(100000); err != nil || st != slru.StatusInProgress {
		t.Fatal(st, err)
	}
	want := []string{
		"taking bank 1's lock",
		"holds bank 1's lock (shared): about to search",
		"linear search: slot 16 (1 of 16 compared): EMPTY ≠ 3",
		"linear search: slot 31 (16 of 16 compared): EMPTY ≠ 3",
		"page 3 not found under the shared lock: relock bank 1's lock exclusively, look again, read it in",
		"linear search: slot 16 (1 of 16 compared): EMPTY ≠ 3",
		"linear search: slot 31 (16 of 16 compared): EMPTY ≠ 3",
		"choosing a victim in bank 1 (cur_count 0): 0 of 16 slots weighed",
		"victim: slot 16, EMPTY",
		"miss: slot 16 claimed, reading page 3",
		"read in: page 3 now in slot 16",
		"done: in-progress",
	}
	// Keep the first and last line of each run of scan steps.
	var got []string
	for i, l := range seen {
		if strings.HasPrefix(l, "linear search") && i > 0 && i+1 < len(seen) &&
			strings.HasPrefix(seen[i-1], "linear search") && strings.HasPrefix(seen[i+1], "linear search") {
			continue
		}
		got = append(got, l)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("lookup lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	l := v.Lane(1).Lookup
	if l.Passes != 2 || l.Result != slruview.ResultMiss || l.Slot != 16 || l.Bank != 1 || l.Page != 3 {
		t.Fatalf("final lookup %+v", l)
	}
	if c := v.Counters(); c.Lookups != 1 || c.Misses != 1 || c.SlotsCompared != 32 || c.VictimScans != 1 || c.LockAcquires != 3 {
		t.Fatalf("counters %+v", c)
	}
	if !strings.Contains(v.String(), "A: get xid 100000: done: in-progress") {
		t.Fatalf("String:\n%s", v)
	}
}
