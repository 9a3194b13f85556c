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
	highlight = color.RGBA{0xE6, 0x9F, 0x00, 0xff} // render.Orange: the slot being compared
	compared  = color.RGBA{0xfb, 0xe3, 0xb0, 0xff} // the fill of the slots already compared
	victim    = color.RGBA{0xD5, 0x5E, 0x00, 0xff} // render.Vermilion: the victim's outline
	hashStrip = color.RGBA{0x1a, 0x1a, 0x1a, 0xff} // text
)

func TestSLRUShots(t *testing.T) {
	xvfb := xvfbtest.Run(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "slrushot")
	if out, err := exec.Command("go", "build", "-o", bin, "bufferlab/cmd/slrushot").CombinedOutput(); err != nil {
		t.Fatalf("building slrushot: %v\n%s", err, out)
	}
	cases := []struct {
		name string
		args []string
		want string // in the event described on stdout
		min  map[color.RGBA]int
	}{
		{"scan-2-banks", []string{"--slots", "32", "--backends", "3", "--ops", "30", "--seed", "5", "--pos", "700", "--at", "slot-scan"},
			"slot-scan", map[color.RGBA]int{highlight: 200, compared: 2000}},
		{"dirty-victim", []string{"--slots", "32", "--backends", "3", "--ops", "40", "--seed", "5", "--pos", "1000", "--match", "dirty: write it first"},
			"dirty: write it first", map[color.RGBA]int{victim: 300}},
		{"hash-8-banks", []string{"--variant", "banks+hash", "--slots", "128", "--backends", "8", "--ops", "30", "--seed", "7", "--pos", "6000", "--at", "candidate"},
			"candidate", map[color.RGBA]int{highlight: 100, hashStrip: 1000}},
		{"single", []string{"--variant", "single", "--slots", "32", "--seed", "4", "--pos", "2500", "--at", "candidate"},
			"slru.sel16.", map[color.RGBA]int{highlight: 100}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, c.name+".png")
			args := append([]string{"-a", "-s", "-screen 0 1400x900x24", bin, "--out", out}, c.args...)
			stdout, err := exec.Command(xvfb, args...).CombinedOutput()
			if err != nil {
				t.Fatalf("slrushot %v: %v\n%s", c.args, err, stdout)
			}
			if !strings.Contains(string(stdout), c.want) {
				t.Fatalf("slrushot stopped at an unexpected event:\n%s", stdout)
			}
			img := xvfbtest.LoadPNG(t, out)
			if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 800 {
				t.Fatalf("the shot is %v, want 1280×800", b)
			}
			for col, n := range c.min {
				if got := xvfbtest.Count(img, col); got < n {
					t.Errorf("%d pixels of %v, want at least %d", got, col, n)
				}
			}
		})
	}
	// A bad setting is refused (exit status 2) before any window opens.
	cmd := exec.Command(xvfb, "-a", bin, "--variant", "nope")
	msg, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(msg), "unknown variant") {
		t.Fatalf("slrushot --variant nope: %v\n%s", err, msg)
	}
}
