package player

import (
	"testing"

	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
)

// A side-by-side lesson's panes are padded with idle events so that their
// steps line up; the captions of a padded pane are its run's captions, in
// order, with "" for the padding (whose moment is none): the look back of
// a caption skips the padding, and the renumbering does not matter.
func TestNarratePaddedPanes(t *testing.T) {
	p, err := FromLessonName("dropping")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Alts) == 0 || len(p.sources) != len(p.Alts)+1 {
		t.Fatalf("lesson dropping has %d alternative panes, %d sources: want side by side", len(p.Alts), len(p.sources))
	}
	names := p.Names()
	for pane, src := range p.sources {
		padded := trace.All(p.paneEvents(pane))
		j, idle := 0, 0
		for pos, e := range padded {
			got := p.CaptionAt(pane, pos)
			if e.Kind == trace.KNone {
				idle++
				if got != "" || p.MomentAt(pane, pos) != trace.MomentNone {
					t.Fatalf("pane %d, padding at %d: caption %q, moment %s", pane, pos, got, p.MomentAt(pane, pos))
				}
				continue
			}
			want := scenario.Caption(trace.Slice(src.events), j, names)
			if got != want {
				t.Fatalf("pane %d, event %d (padded %d):\n got %s\nwant %s", pane, j, pos, got, want)
			}
			if p.MomentAt(pane, pos) != scenario.MomentOf(src.events[j]) {
				t.Fatalf("pane %d, event %d: moment %s, want %s", pane, j, p.MomentAt(pane, pos), scenario.MomentOf(src.events[j]))
			}
			j++
		}
		if j != len(src.events) {
			t.Errorf("pane %d: %d events captioned, the run has %d", pane, j, len(src.events))
		}
		t.Logf("pane %d: %d events, %d idle", pane, j, idle)
	}
	if p.CaptionAt(0, -1) != "" || p.CaptionAt(0, 1<<30) != "" {
		t.Error("a caption out of range is not empty")
	}
}
