package player

import (
	"strings"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
)

// ActorName gives the scenario's names to its backends, PostgreSQL 18's
// I/O workers and kernel their names in words (as the runner's captions
// do), and trace's own names to every other actor (the descriptions in
// the code panel use it).
func TestActorName(t *testing.T) {
	p := &Player{Backends: []string{"", "A", "VAC"}}
	for _, c := range []struct {
		a    trace.Actor
		want string
	}{{1, "A"}, {2, "VAC"}, {0, trace.ActorName(0)}, {7, trace.ActorName(7)},
		{bufmgr.IOWorkerActor(0), "io worker 0"}, {bufmgr.IOWorkerActor(2), "io worker 2"}, {bufmgr.KernelActor(), "kernel"}} {
		if got := p.ActorName(c.a); got != c.want {
			t.Errorf("ActorName(%d) = %q, want %q", c.a, got, c.want)
		}
	}
}

// Lesson 8's PostgreSQL 18 pane captions its I/O workers' events with
// their names in words, as `bufferlab run --narrate` does: the caption
// bar and the stop box said "B65 completes handle 5" before.
func TestWorkerCaptions(t *testing.T) {
	p, err := FromLessonName("reading-ahead")
	if err != nil {
		t.Fatal(err)
	}
	byWorker := 0
	for pane := range p.Panes() {
		if p.PaneVariant(pane).Name() != "18" {
			continue
		}
		for pos, e := range trace.All(p.paneEvents(pane)) {
			if _, ok := bufmgr.IOWorkerOf(e.Actor); !ok {
				continue
			}
			c := p.CaptionAt(pane, pos)
			if c == "" {
				continue
			}
			if strings.Contains(c, trace.ActorName(e.Actor)+" ") {
				t.Fatalf("pane %d, event %d by %s: caption %q", pane, pos, trace.ActorName(e.Actor), c)
			}
			if strings.Contains(c, "io worker ") {
				byWorker++
			}
		}
	}
	if byWorker == 0 {
		t.Fatal("no caption of lesson 8's PostgreSQL 18 pane names an I/O worker")
	}
}
