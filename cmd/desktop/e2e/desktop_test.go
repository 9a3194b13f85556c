package e2e

import (
	"bufferlab/internal/xvfbtest"
	"context"
	"flag"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden screenshot in testdata/")

func buildDesktop(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "desktop")
	out, err := exec.Command("go", "build", "-o", bin, "bufferlab/cmd/desktop").CombinedOutput()
	if err != nil {
		t.Fatalf("building the desktop app: %v\n%s", err, out)
	}
	return bin
}

// runDesktop runs the app in a real window under Xvfb (Mesa's software
// OpenGL) and returns its combined output. Its configuration directory,
// where it keeps progress by default, is one of the test's own, never the
// user's.
func runDesktop(t *testing.T, xvfb, bin string, args ...string) (string, error) {
	t.Helper()
	return runDesktopIn(t, t.TempDir(), xvfb, bin, args...)
}

// runDesktopIn is runDesktop with configDir as the configuration
// directory ($XDG_CONFIG_HOME).
func runDesktopIn(t *testing.T, configDir, xvfb, bin string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, xvfb, append([]string{"-a", "-s", "-screen 0 1400x900x24", bin}, args...)...)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+configDir)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// region is a named rectangle of a screenshot and the test its pixels
// must pass (nil: hasDarkText, it holds text).
type region struct {
	name string
	r    image.Rectangle
	test func(image.Image, image.Rectangle) error
}

// TestDesktopShots runs the app in a real window under Xvfb at a lesson's
// step and event position, a scenario or the fast-mode panel (1280×800),
// one subtest a screenshot: each region passes its test and, where
// golden is set, the image matches testdata/golden within 2% (-update
// rewrites it).
func TestDesktopShots(t *testing.T) {
	xvfb := xvfbtest.Run(t)
	bin := buildDesktop(t)
	dir := t.TempDir()
	// The largest SLRU a scenario may ask for (see "huge-slru" below).
	scn := filepath.Join(dir, "huge.scn")
	src := "config slru=single,banks slru_buffers=131072 clog_pages=40\nbackend A: clog get 100000\nrun\n"
	if err := os.WriteFile(scn, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	shots := []struct {
		name    string
		args    []string // besides --width, --height and --screenshot
		golden  string
		regions []region
	}{
		// Lesson 1 at step 9: the pool's cells are coloured by usage
		// count; the narration and code panels hold dark text.
		{"lesson1-step9", []string{"--lesson", "shared-buffers", "--step", "9"}, "lesson1-step9.png", []region{
			{"pool cells", image.Rect(20, 110, 750, 420), hasBlueCells},
			{"narration text", image.Rect(775, 70, 1265, 400), nil},
			{"code panel text", image.Rect(775, 440, 1265, 650), nil},
			{"counters", image.Rect(10, 680, 1265, 720), nil},
		}},
		// Lesson 2 draws the two pin variants side by side in the middle
		// of the step where the lock holder is descheduled (event 91: C's
		// CAS has just failed on the left, B and C spin on the right):
		// both panes hold their pool, state word and lanes.
		{"lesson2-side-by-side", []string{"--lesson", "pinning", "--step", "4", "--event", "91"}, "lesson2-step4.png", []region{
			{"atomic pane: pool", image.Rect(15, 60, 395, 250), nil},
			{"atomic pane: lanes", image.Rect(15, 320, 395, 520), nil},
			{"spinlock pane: pool", image.Rect(405, 60, 790, 250), nil},
			{"spinlock pane: lanes", image.Rect(405, 320, 790, 520), nil},
			{"narration", image.Rect(800, 60, 1270, 330), nil},
		}},
		// Lesson 2 stopped before a key moment (its step 3's question,
		// answered: C's CAS is about to fail): the stop box at the foot of
		// the right column says what comes next, beside a Continue
		// button; the scene keeps its lanes.
		{"lesson2-stop", []string{"--lesson", "pinning", "--step", "3", "--stop", "1", "--answer", "1"}, "lesson2-stop.png", []region{
			{"stop box text", image.Rect(825, 592, 1265, 650), nil},
			{"Continue button", image.Rect(1185, 662, 1255, 686), hasBlue},
			{"atomic pane: lanes", image.Rect(15, 320, 395, 520), nil},
			{"caption bar", image.Rect(10, 700, 600, 716), nil},
		}},
		// Lesson 3 races three drop strategies in three panes, in the
		// middle of the scan (event 2150): each pane holds its pool and
		// counters, the rule bar its text.
		{"lesson3-race", []string{"--lesson", "dropping", "--step", "2", "--event", "2150"}, "lesson3-race.png", []region{
			{"rule bar", image.Rect(15, 40, 900, 75), nil},
			{"scan pane", image.Rect(15, 180, 300, 470), nil},
			{"lookup pane", image.Rect(320, 180, 605, 470), nil},
			{"dlist pane", image.Rect(625, 180, 910, 470), nil},
			{"counters", image.Rect(15, 670, 910, 715), nil},
		}},
		// Lesson 4 draws the commit log's banks mid-search (event 446: B
		// compares slot 20 of bank 1): the banks, the lookups, the code
		// and the counters hold text.
		{"lesson4-banks", []string{"--lesson", "slru-banks", "--step", "3", "--event", "446"}, "", []region{
			{"bank 1", image.Rect(40, 165, 780, 230), nil},
			{"lookups", image.Rect(15, 275, 780, 310), nil},
			{"code", image.Rect(800, 440, 1265, 650), nil},
			{"counters", image.Rect(10, 680, 1265, 715), nil},
		}},
		// The same position in the dark theme: the frame is dark (no
		// light panel left over) and the banks, the lookups and the code
		// hold light text.
		{"lesson4-banks-dark", []string{"--lesson", "slru-banks", "--step", "3", "--event", "446", "--theme", "dark"}, "", []region{
			{"whole frame", image.Rect(0, 0, 1280, 800), mostlyDark},
			{"bank 1", image.Rect(40, 165, 780, 230), hasLightText},
			{"lookups", image.Rect(15, 275, 780, 310), hasLightText},
			{"code", image.Rect(800, 440, 1265, 650), hasLightText},
		}},
		// Lesson 5 draws the heap, the FSM pages and one FSM page's tree
		// in the middle of B's inserts (event 2910); the counters, two
		// rows of boxes, fill the scene's foot.
		{"lesson5-fsm", []string{"--lesson", "free-space-map", "--step", "4", "--event", "2910"}, "", []region{
			{"heap", image.Rect(20, 75, 455, 275), nil},
			{"FSM pages", image.Rect(465, 75, 805, 275), nil},
			{"tree", image.Rect(20, 290, 565, 575), nil},
			{"counters", image.Rect(15, 615, 805, 718), nil},
		}},
		// Lesson 6 draws the free space map both ways side by side, in
		// the middle of B's inserts (event 2500): both panes hold their
		// heap, FSM pages and counters.
		{"lesson6-side-by-side", []string{"--lesson", "small-table-skip", "--step", "2", "--event", "2500"}, "", []region{
			{"left heap", image.Rect(20, 75, 225, 275), nil},
			{"right heap", image.Rect(425, 75, 630, 275), nil},
			{"left counters", image.Rect(15, 640, 400, 710), nil},
			{"right counters", image.Rect(420, 640, 805, 710), nil},
		}},
		// Lesson 7 stacks three SLRUs (single, banks, banks+hash), here
		// while B and C miss at once (event 3500): each pane keeps its
		// rows of slots whole, a lookup line and its counters.
		{"lesson7-three-slrus", []string{"--lesson", "slru-side-by-side", "--step", "5", "--event", "3500"}, "lesson7-step5.png", []region{
			{"single: slots", image.Rect(160, 95, 910, 190), nil},
			{"single: counters", image.Rect(15, 237, 910, 270), nil},
			{"banks: slots", image.Rect(160, 315, 910, 400), nil},
			{"banks: counters", image.Rect(15, 457, 910, 490), nil},
			{"banks+hash: slots", image.Rect(160, 535, 910, 630), nil},
			{"banks+hash: counters", image.Rect(15, 677, 910, 710), nil},
			{"code panels", image.Rect(925, 360, 1265, 710), nil},
		}},
		// The largest SLRU a scenario may ask for (131072 slots: one bank
		// of them for slru=single, 8192 banks of 16 with banks) draws at
		// once, a window of slots around the search and the busy banks,
		// with a note of what is left out, instead of drawing every slot
		// each frame (which took minutes), and without a keyframe copy of
		// the view every 256 of its 262144 events.
		{"huge-slru", []string{"--scenario", scn, "--event", "40"}, "", []region{
			{"single: the ControlLock's label", image.Rect(40, 95, 160, 160), nil},
			{"single: the lookup", image.Rect(16, 336, 800, 352), nil},
			{"banks: the labels of the banks shown", image.Rect(40, 420, 160, 645), nil},
			{"banks: the lookup", image.Rect(16, 666, 800, 684), nil},
		}},
		// The fast-mode panel runs `bench pool --quick` in the app and
		// draws its table and chart.
		{"fast-mode", []string{"--fast", "pool"}, "", []region{
			{"table", image.Rect(10, 110, 600, 270), nil},
			{"chart bars", image.Rect(110, 300, 700, 460), hasBlue},
		}},
	}
	for _, s := range shots {
		t.Run(s.name, func(t *testing.T) {
			shot := filepath.Join(dir, s.name+".png")
			start := time.Now()
			out, err := runDesktop(t, xvfb, bin, append(s.args, "--width", "1280", "--height", "800", "--screenshot", shot)...)
			if err != nil {
				t.Fatalf("desktop %q: %v\n%s", s.args, err, out)
			}
			t.Logf("started, drew and saved in %v", time.Since(start).Round(time.Millisecond))
			img := xvfbtest.LoadPNG(t, shot)
			if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 800 {
				t.Fatalf("screenshot is %v, want 1280x800", b)
			}
			for _, rg := range s.regions {
				test := rg.test
				if test == nil {
					test = hasDarkText
				}
				if err := test(img, rg.r); err != nil {
					t.Errorf("%s: %v", rg.name, err)
				}
			}
			if s.golden != "" {
				matchGolden(t, img, shot, filepath.Join("testdata", s.golden))
			}
		})
	}
}

// matchGolden compares a screenshot with a golden image (rewritten with
// -update): xvfbtest.MatchGolden.
func matchGolden(t *testing.T, _ image.Image, shot, golden string) {
	t.Helper()
	xvfbtest.MatchGolden(t, mustRead(t, shot), golden, *update)
}

// Bad flags fail with a message and status 2, without opening a window.
func TestDesktopBadFlags(t *testing.T) {
	xvfb := xvfbtest.Run(t)
	bin := buildDesktop(t)
	for _, args := range [][]string{
		{"--width", "10"}, {"--lesson", "x", "--scenario", "y"}, {"--step", "3"}, {"--lesson", "pinning", "--step", "0"}, {"extra"}, {"--nope"},
		{"--lesson", "no-such-lesson"}, {"--lesson", "shared-buffers", "--step", "99"},
		{"--fast", "nope"}, {"--fast", "pool", "--lesson", "shared-buffers"},
		{"--event", "3"}, {"--lesson", "pinning", "--event", "99999"},
		{"--theme", "sepia"},
		{"--lesson", "shared-buffers", "--step", "3", "--stop", "1"}, // a step without stops
		{"--lesson", "shared-buffers", "--step", "3", "--stop", "1", "--answer", "1"},
		{"--scenario", "../../../lessons/scenarios/clock-sweep.scn", "--step", "99"},
	} {
		out, err := runDesktop(t, xvfb, bin, args...)
		// Steps count from 1, as on the screen and in links, and a step
		// past the last names the range.
		if want, ok := map[string]string{
			"--lesson pinning --step 0":                                       "--step 0: steps count from 1",
			"--lesson shared-buffers --step 99":                               "--step 99: lesson shared-buffers has steps 1..14",
			"--scenario ../../../lessons/scenarios/clock-sweep.scn --step 99": "--step 99: the scenario has steps 1..",
		}[strings.Join(args, " ")]; ok && !strings.Contains(out, want) {
			t.Errorf("%q: output %q, want %q", args, out, want)
		}
		ee, ok := err.(*exec.ExitError)
		// xvfb-run passes the app's status on, except when its own
		// clean-up fails (it then exits 5 and says so): the app's message
		// is what matters.
		if ok && ee.ExitCode() == 5 && strings.Contains(out, "xvfb-run: error: problem while cleaning up") && strings.Contains(out, "desktop: ") {
			continue
		}
		if !ok || ee.ExitCode() != 2 || len(out) == 0 {
			t.Errorf("%q: %v, output %q: want exit status 2 and a message", args, err, out)
		}
	}
}

func mustRead(t *testing.T, p string) []byte {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// countPixels counts the pixels of r that is accepts, by their colour's
// 16-bit channels.
func countPixels(img image.Image, r image.Rectangle, is func(cr, cg, cb uint32) bool) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if cr, cg, cb, _ := img.At(x, y).RGBA(); is(cr, cg, cb) {
				n++
			}
		}
	}
	return n
}

func hasDarkText(img image.Image, r image.Rectangle) error {
	dark := countPixels(img, r, func(cr, cg, cb uint32) bool { return cr < 0x5000 && cg < 0x5000 && cb < 0x5000 })
	if dark < r.Dx()*r.Dy()/200 {
		return fmt.Errorf("only %d dark (text) pixels in %v", dark, r)
	}
	return nil
}

// hasLightText is hasDarkText for the dark theme: light pixels (text)
// in r.
func hasLightText(img image.Image, r image.Rectangle) error {
	light := countPixels(img, r, func(cr, cg, cb uint32) bool { return cr > 0xb000 && cg > 0xb000 && cb > 0xb000 })
	if light < r.Dx()*r.Dy()/200 {
		return fmt.Errorf("only %d light (text) pixels in %v", light, r)
	}
	return nil
}

// mostlyDark checks that at least four fifths of r is dark (each channel
// under 0x60): a dark-theme frame with no light panel left over.
func mostlyDark(img image.Image, r image.Rectangle) error {
	dark := countPixels(img, r, func(cr, cg, cb uint32) bool { return cr < 0x6000 && cg < 0x6000 && cb < 0x6000 })
	if dark*5 < r.Dx()*r.Dy()*4 {
		return fmt.Errorf("only %d of %d pixels dark in %v", dark, r.Dx()*r.Dy(), r)
	}
	return nil
}

func hasBlueCells(img image.Image, r image.Rectangle) error {
	if err := hasBlue(img, r); err != nil {
		return err
	}
	return hasDarkText(img, r)
}

// hasBlue checks that at least a twentieth of r is blue (usage-count fills,
// chart bars).
func hasBlue(img image.Image, r image.Rectangle) error {
	blue := countPixels(img, r, func(cr, cg, cb uint32) bool { return cb > cr+0x1000 && cb > cg })
	if blue < r.Dx()*r.Dy()/20 {
		return fmt.Errorf("only %d blue pixels in %v", blue, r)
	}
	return nil
}

// Without a display, --help prints the usage (exit 0), bad flags are still
// refused (exit 2), and opening the window gives one line and exit 1, not
// Ebitengine's panic with a stack trace (its init opens GLFW; package
// startup's init runs first).
func TestNoDisplay(t *testing.T) {
	bin := buildDesktop(t)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			env = append(env, kv)
		}
	}
	run := func(display string, args ...string) (int, string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		if display != "" {
			cmd.Env = append(cmd.Env, "DISPLAY="+display)
		}
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), "goroutine") || strings.Contains(string(out), "panic") {
			t.Errorf("%q: a stack trace:\n%s", args, out)
		}
		return code, string(out)
	}
	if code, out := run("", "--help"); code != 0 || !strings.HasPrefix(out, "usage: desktop [flags]") || !strings.Contains(out, "-lesson string") {
		t.Errorf("--help: exit %d, output:\n%s", code, out)
	}
	if code, out := run("", "--width", "5"); code != 2 || !strings.Contains(out, "found 5x800") {
		t.Errorf("--width 5: exit %d, output:\n%s", code, out)
	}
	if code, out := run(""); code != 1 || out != "desktop: no display: set DISPLAY or run under xvfb-run\n" {
		t.Errorf("no flags: exit %d, output:\n%s", code, out)
	}
	if code, out := run(":98765", "--lesson", "pinning"); code != 1 || !strings.HasPrefix(out, `desktop: no display: DISPLAY=":98765", but /tmp/.X11-unix/X98765: `) ||
		strings.Count(out, "\n") != 1 {
		t.Errorf("DISPLAY=:98765: exit %d, output:\n%s", code, out)
	}
}

// TestLayoutMeasureMatchesEbiten runs viz/render/measurecheck (built with
// the xvfb tag) under Xvfb: layouts measure text without Ebitengine, and
// must get the widths Ebitengine paints; dashed outlines and hatching
// must be painted where layout's geometry puts them.
func TestLayoutMeasureMatchesEbiten(t *testing.T) {
	xvfb := xvfbtest.Run(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, xvfb, "-a", "go", "test", "-count=1", "-tags", "xvfb", "bufferlab/viz/render/measurecheck").CombinedOutput()
	if err != nil {
		t.Fatalf("measurecheck under Xvfb: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "ok") {
		t.Fatalf("measurecheck ran no test:\n%s", out)
	}
}
