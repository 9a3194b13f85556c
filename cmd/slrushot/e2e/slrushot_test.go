package e2e

import (
	"image/color"
	"testing"

	"bufferlab/internal/sceneshot/shottest"
)

var (
	highlight = color.RGBA{0xE6, 0x9F, 0x00, 0xff} // layout.Orange: the slot being compared
	compared  = color.RGBA{0xfb, 0xe3, 0xb0, 0xff} // the fill of the slots already compared
	victim    = color.RGBA{0xD5, 0x5E, 0x00, 0xff} // layout.Vermilion: the victim's outline
	hashStrip = color.RGBA{0x1a, 0x1a, 0x1a, 0xff} // text
)

func TestSLRUShots(t *testing.T) {
	shottest.Run(t, "bufferlab/cmd/slrushot", []shottest.Case{
		{Name: "scan-2-banks", Args: []string{"--slots", "32", "--backends", "3", "--ops", "30", "--seed", "5", "--pos", "700", "--at", "slot-scan"},
			Want: "slot-scan", Min: map[color.RGBA]int{highlight: 200, compared: 2000}},
		{Name: "dirty-victim", Args: []string{"--slots", "32", "--backends", "3", "--ops", "40", "--seed", "5", "--pos", "1000", "--match", "dirty: write it first"},
			Want: "dirty: write it first", Min: map[color.RGBA]int{victim: 300}},
		{Name: "hash-8-banks", Args: []string{"--variant", "banks+hash", "--slots", "128", "--backends", "8", "--ops", "30", "--seed", "7", "--pos", "6000", "--at", "candidate"},
			Want: "candidate", Min: map[color.RGBA]int{highlight: 100, hashStrip: 1000}},
		{Name: "single", Args: []string{"--variant", "single", "--slots", "32", "--seed", "4", "--pos", "2500", "--at", "candidate"},
			Want: "slru.sel16.", Min: map[color.RGBA]int{highlight: 100}},
	})
}
