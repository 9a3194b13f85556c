package xvfbtest

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"testing"
)

// Run returns xvfb-run's path. Outside CI a missing Xvfb skips the test;
// with CI set it fails it (`make test` installs Xvfb). Under -short it
// skips the test: a window test builds and runs a program in Xvfb for a
// minute or more and has nothing to scale down, so `make test-short` and
// `make race` leave it to `make test-native`.
func Run(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("a window test under Xvfb: skipped by -short (`make test-native` runs it)")
	}
	p, err := exec.LookPath("xvfb-run")
	if err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatal("xvfb-run is missing (apt-get install -y xvfb); CI must run the window tests")
	}
	t.Skip("Xvfb is not installed; `make test` installs it (apt-get install -y xvfb)")
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
