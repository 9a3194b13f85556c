package shottest

import (
	"image/color"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"bufferlab/internal/xvfbtest"
)

// Case is one screenshot to take: the command's arguments (besides
// --out), a text the event it stopped at must contain (on its stdout),
// and at least how many pixels of each colour the 1280×800 shot must
// hold.
type Case struct {
	Name string
	Args []string
	Want string
	Min  map[color.RGBA]int
}

// Run builds the command pkg ("bufferlab/cmd/fsmshot"), takes each case's
// shot under Xvfb as a subtest and checks its event, size and colours;
// then checks that a bad --variant is refused (exit status 2, "unknown
// variant") before any window opens. Each case costs a run of the
// command: a workload, a window and three frames.
func Run(t *testing.T, pkg string, cases []Case) {
	xvfb := xvfbtest.Run(t)
	dir := t.TempDir()
	name := filepath.Base(pkg)
	bin := filepath.Join(dir, name)
	if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", name, err, out)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			out := filepath.Join(dir, c.Name+".png")
			args := append([]string{"-a", "-s", "-screen 0 1400x900x24", bin, "--out", out}, c.Args...)
			stdout, err := exec.Command(xvfb, args...).CombinedOutput()
			if err != nil {
				t.Fatalf("%s %v: %v\n%s", name, c.Args, err, stdout)
			}
			if !strings.Contains(string(stdout), c.Want) {
				t.Fatalf("%s stopped at an unexpected event:\n%s", name, stdout)
			}
			img := xvfbtest.LoadPNG(t, out)
			if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 800 {
				t.Fatalf("the shot is %v, want 1280×800", b)
			}
			for col, n := range c.Min {
				got := xvfbtest.Count(img, col)
				if got < n {
					t.Errorf("%d pixels of %v, want at least %d", got, col, n)
				}
				t.Logf("%v: %d pixels (at least %d)", col, got, n)
			}
		})
	}
	msg, err := exec.Command(xvfb, "-a", bin, "--variant", "nope").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(msg), "unknown variant") {
		t.Fatalf("%s --variant nope: %v\n%s", name, err, msg)
	}
}
