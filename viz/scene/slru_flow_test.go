package scene

import (
	"testing"

	"bufferlab/viz/layout"
)

// A flow keeps every run in its longest form where the lines allow,
// wrapping between runs; with fewer lines it shortens the widest run
// first, then leaves out the runs that may be, from the last; a run that
// must stay and has no line left is recorded, not drawn.
func TestSLRUFlowWrapsShortensLeavesOut(t *testing.T) {
	f := layout.Font{Style: layout.Regular, Size: 14}
	run := func(role string, forms ...string) slruRun {
		return slruRun{role: role, forms: forms, font: f}
	}
	flow := func() slruFlow {
		return slruFlow{gap: 7, lh: layout.LineHeight(f), runs: []slruRun{
			run("a", "the first run in full", "first"),
			run("b", "the second run, which is the longest one", "second"),
			run("c", "a third one", ""),
		}}
	}
	width := layout.Width("the second run, which is the longest one", f) + 10
	texts := func(l *layout.List) (out []string) {
		for _, it := range l.Texts("") {
			out = append(out, it.Role+":"+it.Text)
		}
		return out
	}
	narrow := layout.Width("first second", f) + 20
	for _, c := range []struct {
		lines int
		w     float64
		want  []string
		over  int
	}{
		// Room for every run in full: each on its own line (the widest
		// fills one).
		{3, width, []string{"a:the first run in full", "b:the second run, which is the longest one", "c:a third one"}, 0},
		// One line: the widest run shortened, and then they share it.
		{1, width, []string{"a:the first run in full", "b:second", "c:a third one"}, 0},
		// One narrow line: both shortened, the third left out.
		{1, narrow, []string{"a:first", "b:second"}, 0},
	} {
		fl := flow()
		var l layout.List
		h := fl.layout(&l, layout.Rect{W: c.w, H: float64(c.lines) * fl.lh})
		if got := texts(&l); len(got) != len(c.want) || len(l.Overflows) != c.over || h > float64(c.lines)*fl.lh {
			t.Errorf("%d lines: %q (%d overflows, %v px), want %q", c.lines, got, len(l.Overflows), h, c.want)
			continue
		}
		for i := range c.want {
			if texts(&l)[i] != c.want[i] {
				t.Errorf("%d lines: %q, want %q", c.lines, texts(&l), c.want)
			}
		}
	}
	// Too narrow for two runs that must stay on one line: the second goes
	// to a line r does not have, recorded and not drawn.
	fl := slruFlow{gap: 7, lh: layout.LineHeight(f), runs: []slruRun{run("a", "first"), run("b", "second")}}
	var l layout.List
	fl.layout(&l, layout.Rect{W: layout.Width("second", f) + 2, H: fl.lh})
	if got := texts(&l); len(got) != 1 || got[0] != "a:first" || len(l.Overflows) != 1 || l.Overflows[0].Role != "b" || l.Overflows[0].Axis != "h" {
		t.Errorf("narrow: %q, overflows %+v", got, l.Overflows)
	}
}
