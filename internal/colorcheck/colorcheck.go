package colorcheck

import (
	"image"
	"image/color"
	"math"
)

// Linear is the sRGB transfer function undone: an 8-bit channel as a
// linear intensity in [0, 1] (IEC 61966-2-1).
func Linear(c uint8) float64 {
	v := float64(c) / 255
	if v <= 0.04045 {
		return v / 12.92
	}
	return math.Pow((v+0.055)/1.055, 2.4)
}

// Encode is Linear's inverse, clipped to [0, 1] and rounded to 8 bits.
func Encode(v float64) uint8 {
	v = min(1, max(0, v))
	if v <= 0.0031308 {
		v *= 12.92
	} else {
		v = 1.055*math.Pow(v, 1/2.4) - 0.055
	}
	return uint8(math.Round(v * 255))
}

// Luminance is the WCAG relative luminance of c (its alpha ignored).
func Luminance(c color.RGBA) float64 {
	return 0.2126*Linear(c.R) + 0.7152*Linear(c.G) + 0.0722*Linear(c.B)
}

// Contrast is the WCAG contrast ratio of a and b, from 1 (the same) to
// 21 (black on white), whichever is lighter.
func Contrast(a, b color.RGBA) float64 {
	la, lb := Luminance(a), Luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// Vision is a kind of colour vision to simulate.
type Vision int

// The kinds of colour vision: normal (no change), and the two
// dichromacies of the red–green axis, which together affect about 2% of
// men (the anomalous trichromacies, six times as common, are milder forms
// of the same confusions).
const (
	Normal Vision = iota
	Protanopia
	Deuteranopia
)

var visionNames = [...]string{Normal: "normal", Protanopia: "protanopia", Deuteranopia: "deuteranopia"}

func (v Vision) String() string { return visionNames[v] }

// Visions are every kind, Normal first.
var Visions = []Vision{Normal, Protanopia, Deuteranopia}

// machado are the simulation matrices of Machado, Oliveira & Fernandes
// (2009) at severity 1.0, rows of linear R', G', B' from linear R, G, B.
var machado = [...][3][3]float64{
	Normal: {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
	Protanopia: {
		{0.152286, 1.052583, -0.204868},
		{0.114503, 0.786281, 0.099216},
		{-0.003882, -0.048116, 1.051998},
	},
	Deuteranopia: {
		{0.367322, 0.860646, -0.227968},
		{0.280085, 0.672501, 0.047413},
		{-0.011820, 0.042940, 0.968881},
	},
}

// Simulate returns c as a viewer with colour vision v sees it (alpha kept).
func Simulate(v Vision, c color.RGBA) color.RGBA {
	if v == Normal {
		return c
	}
	m := &machado[v]
	r, g, b := Linear(c.R), Linear(c.G), Linear(c.B)
	return color.RGBA{
		Encode(m[0][0]*r + m[0][1]*g + m[0][2]*b),
		Encode(m[1][0]*r + m[1][1]*g + m[1][2]*b),
		Encode(m[2][0]*r + m[2][1]*g + m[2][2]*b),
		c.A,
	}
}

// SimulateImage returns img as a viewer with colour vision v sees it,
// pixel by pixel (fully opaque pixels assumed, as a screenshot's are).
func SimulateImage(v Vision, img image.Image) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(b)
	cache := map[color.RGBA]color.RGBA{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			s, ok := cache[c]
			if !ok {
				s = Simulate(v, c)
				cache[c] = s
			}
			out.SetRGBA(x, y, s)
		}
	}
	return out
}

// Lab is a colour in CIELAB (D65 white, 2° observer).
type Lab struct{ L, A, B float64 }

// ToLab converts an sRGB colour to CIELAB.
func ToLab(c color.RGBA) Lab {
	r, g, b := Linear(c.R), Linear(c.G), Linear(c.B)
	// sRGB (D65) to XYZ, relative to the white point.
	x := (0.4124564*r + 0.3575761*g + 0.1804375*b) / 0.95047
	y := 0.2126729*r + 0.7151522*g + 0.0721750*b
	z := (0.0193339*r + 0.1191920*g + 0.9503041*b) / 1.08883
	f := func(t float64) float64 {
		const d = 6.0 / 29
		if t > d*d*d {
			return math.Cbrt(t)
		}
		return t/(3*d*d) + 4.0/29
	}
	fx, fy, fz := f(x), f(y), f(z)
	return Lab{116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)}
}

// DeltaE76 is the CIE 1976 colour difference: the distance in L*a*b*.
func DeltaE76(p, q Lab) float64 {
	return math.Sqrt((p.L-q.L)*(p.L-q.L) + (p.A-q.A)*(p.A-q.A) + (p.B-q.B)*(p.B-q.B))
}

// DeltaE2000 is the CIEDE2000 colour difference (kL = kC = kH = 1), as
// Sharma, Wu & Dalal (2005) write it out. About 1 is a just noticeable
// difference between two large patches side by side.
func DeltaE2000(p, q Lab) float64 {
	deg := math.Pi / 180
	c1 := math.Hypot(p.A, p.B)
	c2 := math.Hypot(q.A, q.B)
	cm := (c1 + c2) / 2
	cm7 := math.Pow(cm, 7)
	g := 0.5 * (1 - math.Sqrt(cm7/(cm7+math.Pow(25, 7))))
	a1, a2 := (1+g)*p.A, (1+g)*q.A
	c1p, c2p := math.Hypot(a1, p.B), math.Hypot(a2, q.B)
	hue := func(b, a float64) float64 {
		if a == 0 && b == 0 {
			return 0
		}
		h := math.Atan2(b, a) / deg
		if h < 0 {
			h += 360
		}
		return h
	}
	h1, h2 := hue(p.B, a1), hue(q.B, a2)
	dL := q.L - p.L
	dC := c2p - c1p
	var dh float64
	switch {
	case c1p*c2p == 0:
		dh = 0
	case math.Abs(h2-h1) <= 180:
		dh = h2 - h1
	case h2-h1 > 180:
		dh = h2 - h1 - 360
	default:
		dh = h2 - h1 + 360
	}
	dH := 2 * math.Sqrt(c1p*c2p) * math.Sin(dh/2*deg)
	lm := (p.L + q.L) / 2
	cmp := (c1p + c2p) / 2
	var hm float64
	switch {
	case c1p*c2p == 0:
		hm = h1 + h2
	case math.Abs(h1-h2) <= 180:
		hm = (h1 + h2) / 2
	case h1+h2 < 360:
		hm = (h1 + h2 + 360) / 2
	default:
		hm = (h1 + h2 - 360) / 2
	}
	t := 1 - 0.17*math.Cos((hm-30)*deg) + 0.24*math.Cos(2*hm*deg) + 0.32*math.Cos((3*hm+6)*deg) - 0.20*math.Cos((4*hm-63)*deg)
	dTheta := 30 * math.Exp(-((hm-275)/25)*((hm-275)/25))
	cmp7 := math.Pow(cmp, 7)
	rc := 2 * math.Sqrt(cmp7/(cmp7+math.Pow(25, 7)))
	sl := 1 + 0.015*(lm-50)*(lm-50)/math.Sqrt(20+(lm-50)*(lm-50))
	sc := 1 + 0.045*cmp
	sh := 1 + 0.015*cmp*t
	rt := -math.Sin(2*dTheta*deg) * rc
	l, c, h := dL/sl, dC/sc, dH/sh
	return math.Sqrt(l*l + c*c + h*h + rt*c*h)
}

// Difference is the CIEDE2000 difference of two sRGB colours as a viewer
// with colour vision v sees them.
func Difference(v Vision, a, b color.RGBA) float64 {
	return DeltaE2000(ToLab(Simulate(v, a)), ToLab(Simulate(v, b)))
}
