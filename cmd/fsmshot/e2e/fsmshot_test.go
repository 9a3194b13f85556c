package e2e

import (
	"bufferlab/internal/xvfbtest"
	"image/color"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var (
	readFill  = color.RGBA{0xfb, 0xe3, 0xb0, 0xff} // a page or node read by the search
	highlight = color.RGBA{0xE6, 0x9F, 0x00, 0xff} // render.Orange: the pages read, in order
	good      = color.RGBA{0x00, 0x9E, 0x73, 0xff} // render.Green: a node read with enough
	full      = color.RGBA{0xD5, 0x5E, 0x00, 0xff} // render.Vermilion: a page tried and found full
	avail     = color.RGBA{0xcc, 0xec, 0xe1, 0xff} // a local map entry AVAIL
	skipFill  = color.RGBA{0xee, 0xee, 0xea, 0xff} // an FSM page not read
	written   = color.RGBA{0xf2, 0xd7, 0xe6, 0xff} // a node written
)

func TestFSMShots(t *testing.T) {
	xvfb := xvfbtest.Run(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "fsmshot")
	if out, err := exec.Command("go", "build", "-o", bin, "bufferlab/cmd/fsmshot").CombinedOutput(); err != nil {
		t.Fatalf("building fsmshot: %v\n%s", err, out)
	}
	cases := []struct {
		name string
		args []string
		want string // in the event described on stdout
		min  map[color.RGBA]int
	}{
		// The seed fill with the map: the first insert reads the three
		// FSM pages, root first, and lights its path in the leaf page.
		{"always-search", []string{"--match", "fsmsearch.found"},
			"fsmsearch.found", map[color.RGBA]int{readFill: 20000, highlight: 1500, good: 100}},
		// A page tried and found too full.
		{"always-full", []string{"--pos", "3000", "--at", "page-tried"},
			"hio.full", map[color.RGBA]int{full: 1000}},
		// small-skip: no map; the local map's entries and the root page
		// not read.
		{"small-skip-local", []string{"--variant", "small-skip", "--threshold", "8", "--pos", "4000", "--match", "localsearch.check"},
			"localsearch.check", map[color.RGBA]int{avail: 2000, skipFill: 20000}},
		// VACUUM recording free space: fsm_set_avail's path written.
		{"random-vacuum", []string{"--workload", "random", "--ops", "80", "--seed", "3", "--pos", "6000", "--at", "node-store"},
			"setavail.parent", map[color.RGBA]int{written: 2000}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, c.name+".png")
			args := append([]string{"-a", "-s", "-screen 0 1400x900x24", bin, "--out", out}, c.args...)
			stdout, err := exec.Command(xvfb, args...).CombinedOutput()
			if err != nil {
				t.Fatalf("fsmshot %v: %v\n%s", c.args, err, stdout)
			}
			if !strings.Contains(string(stdout), c.want) {
				t.Fatalf("fsmshot stopped at an unexpected event:\n%s", stdout)
			}
			img := xvfbtest.LoadPNG(t, out)
			if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 800 {
				t.Fatalf("the shot is %v, want 1280×800", b)
			}
			for col, n := range c.min {
				got := xvfbtest.Count(img, col)
				if got < n {
					t.Errorf("%d pixels of %v, want at least %d", got, col, n)
				}
				t.Logf("%v: %d pixels (at least %d)", col, got, n)
			}
		})
	}
	// A bad setting is refused (exit status 2) before any window opens.
	msg, err := exec.Command(xvfb, "-a", bin, "--variant", "nope").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(msg), "unknown variant") {
		t.Fatalf("fsmshot --variant nope: %v\n%s", err, msg)
	}
}
