package main

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bufferlab/internal/colorcheck"
	"bufferlab/internal/xvfbtest"
)

// cvdsim writes the simulated copy of a PNG, pixel for pixel what
// colorcheck.Simulate gives, and refuses a vision it does not know.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.png"), filepath.Join(dir, "out.png")
	src := image.NewRGBA(image.Rect(0, 0, 2, 1))
	red, green := color.RGBA{0xD5, 0x5E, 0x00, 255}, color.RGBA{0x00, 0x9E, 0x73, 255}
	src.SetRGBA(0, 0, red)
	src.SetRGBA(1, 0, green)
	var b bytes.Buffer
	if err := png.Encode(&b, src); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if code := run([]string{"-vision", "protanopia", in, out}, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	img := xvfbtest.LoadPNG(t, out)
	for x, c := range []color.RGBA{red, green} {
		want := colorcheck.Simulate(colorcheck.Protanopia, c)
		if got := color.RGBAModel.Convert(img.At(x, 0)).(color.RGBA); got != want {
			t.Errorf("pixel %d: %v, want %v", x, got, want)
		}
	}
	stderr.Reset()
	if code := run([]string{"-vision", "tritan", in, out}, &stderr); code != 2 || !strings.Contains(stderr.String(), "want protanopia or deuteranopia") {
		t.Errorf("bad vision: exit %d, %q", code, stderr.String())
	}
}
