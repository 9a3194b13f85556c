package player

import (
	"strings"
	"testing"

	"bufferlab/engine/trace"
)

// A backend's row says the category its request rounds up to even when the
// insert went to its cached target block without searching: lesson 5's
// point is that 6585 B is category 206, one above the 205 its full pages
// are recorded at.
func TestFSMRowNamesTheWantedCategory(t *testing.T) {
	src := "config shared_buffers=128MB fsm=always\nrelation t heap fillfactor=20\n" +
		"backend A: insert t; vacuum t\nrun\nbackend B: insert t 150\nrun\n"
	p := mustPlayer(t, "l5.scn", src)
	p.TL.Seek(p.TL.Len())
	v := p.FSMView()
	for a, name := range p.Backends {
		if name != "B" {
			continue
		}
		l := v.Lane(trace.Actor(a))
		if got := v.Text(l.Search); !strings.Contains(got, "wants 6585 B free = category ≥ 206") {
			t.Errorf("B's row: %q, want it to name 6585 B and category 206", got)
		}
		return
	}
	t.Fatal("no backend B")
}
