package xvfbtest

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Run returns xvfb-run's path. Outside CI a missing Xvfb skips the test;
// with CI set it fails it (`make test` installs Xvfb). Under -short it
// skips the test: a window test builds and runs a program in Xvfb for a
// minute or more and has nothing to scale down, so `make test-short` and
// `make race` leave it to `make test-native` (see Program).
func Run(t *testing.T) string {
	t.Helper()
	return Program(t, func() string {
		p, err := exec.LookPath("xvfb-run")
		if err != nil {
			return ""
		}
		return p
	}, "a window test under Xvfb: skipped by -short (`make test-native` runs it)",
		"xvfb-run is missing (apt-get install -y xvfb); CI must run the window tests",
		"Xvfb is not installed; `make test` installs it (apt-get install -y xvfb)")
}

// Program is the path of a real program a test runs (a browser, Xvfb),
// as find returns it ("" where it is not installed). Under -short it skips
// the test with short: such a test runs for minutes with nothing to scale
// down. A missing program fails the test with ciMissing where CI is set
// (CI must run every test) and skips it with missing elsewhere.
func Program(t *testing.T, find func() string, short, ciMissing, missing string) string {
	t.Helper()
	if testing.Short() {
		t.Skip(short)
	}
	if p := find(); p != "" {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatal(ciMissing)
	}
	t.Skip(missing)
	return ""
}

// LoadPNG decodes the PNG at path.
func LoadPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// Count returns how many pixels of img are exactly c (alpha aside).
func Count(img image.Image, c color.RGBA) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, _ := img.At(x, y).RGBA()
			if uint8(r>>8) == c.R && uint8(g>>8) == c.G && uint8(bb>>8) == c.B {
				n++
			}
		}
	}
	return n
}

// MatchGolden compares a screenshot (its PNG bytes) with a golden image:
// at most 2% of the pixels may differ by more than 48 in a channel (fonts
// antialias a little differently from machine to machine). With update
// set, it first writes the screenshot as the golden. On a failure the
// new image is kept in the temporary directory, named in the message.
func MatchGolden(t *testing.T, shot []byte, golden string, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(golden, shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("the screenshot: %v", err)
	}
	diff, total := Compare(img, LoadPNG(t, golden))
	if diff*100 > total*2 {
		keep := filepath.Join(os.TempDir(), "bufferlab-"+filepath.Base(golden))
		os.WriteFile(keep, shot, 0o644)
		t.Fatalf("%d of %d pixels differ from %s (more than 2%%); the new image is in %s", diff, total, golden, keep)
	}
	t.Logf("%d of %d pixels differ from the golden image %s", diff, total, golden)
}

// Compare counts the pixels of a and b whose channels differ by more than
// 48 (images of different sizes differ entirely: 1 of 1).
func Compare(a, b image.Image) (diff, total int) {
	if a.Bounds() != b.Bounds() {
		return 1, 1
	}
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			if absd(r1, r2) > 48<<8 || absd(g1, g2) > 48<<8 || absd(b1, b2) > 48<<8 {
				diff++
			}
			total++
		}
	}
	return diff, total
}

func absd(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}
