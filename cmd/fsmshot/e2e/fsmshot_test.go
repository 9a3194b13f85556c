package e2e

import (
	"image/color"
	"testing"

	"bufferlab/internal/sceneshot/shottest"
)

var (
	readFill  = color.RGBA{0xfb, 0xe3, 0xb0, 0xff} // a page or node read by the search
	highlight = color.RGBA{0xE6, 0x9F, 0x00, 0xff} // layout.Orange: the pages read, in order
	good      = color.RGBA{0x00, 0x9E, 0x73, 0xff} // layout.Green: a node read with enough
	full      = color.RGBA{0xD5, 0x5E, 0x00, 0xff} // layout.Vermilion: a page tried and found full
	avail     = color.RGBA{0xcc, 0xec, 0xe1, 0xff} // a local map entry AVAIL
	skipFill  = color.RGBA{0xee, 0xee, 0xea, 0xff} // an FSM page not read
	written   = color.RGBA{0xf2, 0xd7, 0xe6, 0xff} // a node written
)

func TestFSMShots(t *testing.T) {
	shottest.Run(t, "bufferlab/cmd/fsmshot", []shottest.Case{
		// The seed fill with the map: the first insert reads the three
		// FSM pages, root first, and lights its path in the leaf page.
		{Name: "always-search", Args: []string{"--match", "fsmsearch.found"},
			Want: "fsmsearch.found", Min: map[color.RGBA]int{readFill: 20000, highlight: 1500, good: 100}},
		// A page tried and found too full.
		{Name: "always-full", Args: []string{"--pos", "3000", "--at", "page-tried"},
			Want: "hio.full", Min: map[color.RGBA]int{full: 1000}},
		// small-skip: no map; the local map's entries and the root page
		// not read.
		{Name: "small-skip-local", Args: []string{"--variant", "small-skip", "--threshold", "8", "--pos", "4000", "--match", "localsearch.check"},
			Want: "localsearch.check", Min: map[color.RGBA]int{avail: 2000, skipFill: 20000}},
		// VACUUM recording free space: fsm_set_avail's path written.
		{Name: "random-vacuum", Args: []string{"--workload", "random", "--ops", "80", "--seed", "3", "--pos", "6000", "--at", "node-store"},
			Want: "setavail.parent", Min: map[color.RGBA]int{written: 2000}},
	})
}
