package player

import (
	"testing"

	"bufferlab/engine/trace"
)

// ActorName gives the scenario's names to its backends and trace's own
// names to every other actor (the descriptions in the code panel use it).
func TestActorName(t *testing.T) {
	p := &Player{Backends: []string{"", "A", "VAC"}}
	for _, c := range []struct {
		a    trace.Actor
		want string
	}{{1, "A"}, {2, "VAC"}, {0, trace.ActorName(0)}, {7, trace.ActorName(7)}} {
		if got := p.ActorName(c.a); got != c.want {
			t.Errorf("ActorName(%d) = %q, want %q", c.a, got, c.want)
		}
	}
}
