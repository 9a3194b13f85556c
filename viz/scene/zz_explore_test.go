package scene

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"bufferlab/engine/trace"
	"bufferlab/lessons"
	"bufferlab/viz/player"
	"bufferlab/viz/slruview"
)

func TestZZExplore(t *testing.T) {
	var p *player.Player
	if f := os.Getenv("SCN"); f != "" {
		src, _ := os.ReadFile(f)
		var err error
		p, err = player.FromScenario("x", string(src))
		if err != nil {
			t.Fatal(err)
		}
	} else {
		all, _ := lessons.All()
		for _, l := range all {
			if l.Name == os.Getenv("LESSON") {
				p, _ = player.FromLesson(l)
			}
		}
	}
	pane := 0
	fmt.Sscan(os.Getenv("PANE"), &pane)
	for i := 0; i <= p.Len(); i++ {
		p.Seek(i)
		v := p.PaneSLRUView(pane)
		var b strings.Builder
		interesting := false
		for a := 1; a < v.NumLanes(); a++ {
			ln := v.Lane(trace.Actor(a))
			lk := ln.Lookup
			if !slruLookupActive(lk) {
				continue
			}
			fmt.Fprintf(&b, " %s:%v bank%d ex%d from%d vic%d cands%d", ln.Name, lk.Phase, lk.Bank, lk.Examining, lk.ScanFrom, lk.Victim, len(lk.Candidates))
			if lk.Phase == slruview.PhaseScan && lk.ScanFrom < lk.Examining || lk.Phase == slruview.PhaseVictim || lk.Phase == slruview.PhaseProbe || ln.Waiting {
				interesting = true
			}
			if ln.Waiting {
				b.WriteString(" WAIT")
			}
		}
		if interesting {
			fmt.Printf("%d step%d%s\n", i, p.Step(), b.String())
		}
	}
}
