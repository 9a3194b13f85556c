package colorcheck

import (
	"image"
	"image/color"
	"math"
	"testing"
)

// sharma2005 are pairs from the CIEDE2000 test data of Sharma, Wu & Dalal
// (2005), table 1, with their ΔE00 to four places: pairs that exercise the
// hue wrap-around, the neutral axis and the blue rotation term.
var sharma2005 = []struct {
	p, q Lab
	want float64
}{
	{Lab{50, 2.6772, -79.7751}, Lab{50, 0, -82.7485}, 2.0425},
	{Lab{50, 3.1571, -77.2803}, Lab{50, 0, -82.7485}, 2.8615},
	{Lab{50, 0, 0}, Lab{50, -1, 2}, 2.3669},
	{Lab{50, 2.49, -0.001}, Lab{50, -2.49, 0.0009}, 7.1792},
	{Lab{50, 2.5, 0}, Lab{73, 25, -18}, 27.1492},
	{Lab{50, 2.5, 0}, Lab{61, -5, 29}, 22.8977},
	{Lab{50, 2.5, 0}, Lab{56, -27, -3}, 31.9030},
	{Lab{50, 2.5, 0}, Lab{58, 24, 15}, 19.4535},
	{Lab{60.2574, -34.0099, 36.2677}, Lab{60.4626, -34.1751, 39.4387}, 1.2644},
	{Lab{2.0776, 0.0795, -1.1350}, Lab{0.9033, -0.0636, -0.5514}, 0.9082},
}

// CIEDE2000 against Sharma, Wu & Dalal's values, both ways round.
func TestDeltaE2000Sharma(t *testing.T) {
	for i, c := range sharma2005 {
		got := DeltaE2000(c.p, c.q)
		if math.Abs(got-c.want) > 1e-4 {
			t.Errorf("pair %d: ΔE00 %v and %v = %.4f, want %.4f", i, c.p, c.q, got, c.want)
		}
		if back := DeltaE2000(c.q, c.p); math.Abs(back-got) > 1e-9 {
			t.Errorf("pair %d: not symmetric: %.6f and %.6f", i, got, back)
		}
	}
}

// Known conversions: the white point, black, and sRGB red's L*a*b*.
func TestToLab(t *testing.T) {
	for _, c := range []struct {
		in   color.RGBA
		want Lab
	}{
		{color.RGBA{255, 255, 255, 255}, Lab{100, 0, 0}},
		{color.RGBA{0, 0, 0, 255}, Lab{0, 0, 0}},
		{color.RGBA{255, 0, 0, 255}, Lab{53.2408, 80.0925, 67.2032}},
		{color.RGBA{0, 0, 255, 255}, Lab{32.2970, 79.1875, -107.8602}},
	} {
		got := ToLab(c.in)
		if DeltaE76(got, c.want) > 0.01 {
			t.Errorf("%v: %v, want %v", c.in, got, c.want)
		}
	}
}

// WCAG's examples: black on white is 21:1, a colour on itself 1:1, and
// #777 on white just misses 4.5:1 (4.48), the common example of a grey
// too light for body text.
func TestContrast(t *testing.T) {
	white, black := color.RGBA{255, 255, 255, 255}, color.RGBA{0, 0, 0, 255}
	grey := color.RGBA{0x77, 0x77, 0x77, 255}
	for _, c := range []struct {
		a, b color.RGBA
		want float64
	}{{white, black, 21}, {black, white, 21}, {grey, grey, 1}, {grey, white, 4.48}} {
		if got := Contrast(c.a, c.b); math.Abs(got-c.want) > 0.005 {
			t.Errorf("%v on %v: %.3f, want %.2f", c.a, c.b, got, c.want)
		}
	}
}

// The sRGB transfer function round-trips every 8-bit value.
func TestLinearRoundTrip(t *testing.T) {
	for i := 0; i < 256; i++ {
		if got := Encode(Linear(uint8(i))); got != uint8(i) {
			t.Errorf("%d → %d", i, got)
		}
	}
}

// The simulations keep greys grey (each matrix's rows sum to 1: white
// stays white), and they fold the red–green axis: red and green, far
// apart for normal vision, come close for a dichromat, while blue and
// yellow stay apart.
func TestSimulate(t *testing.T) {
	for _, v := range Visions {
		for _, g := range []uint8{0, 0x40, 0x80, 0xc0, 0xff} {
			c := color.RGBA{g, g, g, 255}
			if s := Simulate(v, c); absDiff(s.R, g) > 1 || absDiff(s.G, g) > 1 || absDiff(s.B, g) > 1 {
				t.Errorf("%v: grey %v → %v", v, c, s)
			}
		}
	}
	// A red and a green ΔE00 68 apart for normal vision: a dichromat
	// sees two olives, a third as far apart at most (a protanope keeps a
	// difference in lightness: red looks dark to them), while Okabe–Ito's
	// blue and yellow stay far apart.
	red, green := color.RGBA{0xcc, 0x33, 0x33, 255}, color.RGBA{0x33, 0x99, 0x33, 255}
	blue, yellow := color.RGBA{0x00, 0x72, 0xB2, 255}, color.RGBA{0xF0, 0xE4, 0x42, 255}
	normal := Difference(Normal, red, green)
	if normal < 60 {
		t.Errorf("normal: red–green ΔE00 %.1f, want ≥ 60", normal)
	}
	for _, v := range []Vision{Protanopia, Deuteranopia} {
		if d := Difference(v, red, green); d > normal/3 {
			t.Errorf("%v: red–green ΔE00 %.1f, want ≤ %.1f (the confusion the simulation models)", v, d, normal/3)
		}
		if d := Difference(v, blue, yellow); d < 40 {
			t.Errorf("%v: blue–yellow ΔE00 %.1f, want ≥ 40", v, d)
		}
	}
	img := image.NewRGBA(image.Rect(0, 0, 2, 1))
	img.SetRGBA(0, 0, red)
	img.SetRGBA(1, 0, green)
	out := SimulateImage(Deuteranopia, img)
	if out.RGBAAt(0, 0) != Simulate(Deuteranopia, red) || out.RGBAAt(1, 0) != Simulate(Deuteranopia, green) {
		t.Errorf("SimulateImage: %v %v", out.RGBAAt(0, 0), out.RGBAAt(1, 0))
	}
}

func absDiff(a, b uint8) uint8 {
	if a > b {
		return a - b
	}
	return b - a
}
