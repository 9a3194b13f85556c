//go:build xvfb

package measurecheck

import (
	"testing"

	"bufferlab/viz/layout"
	"bufferlab/viz/render"
)

// TestMeasureMatchesEbiten: every style, at sizes a theme scales to, on
// text with kerning pairs, ligature candidates and non-ASCII marks.
func TestMeasureMatchesEbiten(t *testing.T) {
	for _, scale := range []float64{1, 1.37, 2} {
		th := render.Light(scale)
		for _, st := range []layout.Style{layout.Regular, layout.Bold, layout.Mono, layout.Italic} {
			for _, sz := range []float64{9, 12, 13.5, 22} {
				for _, s := range []string{"nextVictimBuffer", "rc 0 u 0", "descriptors ÷2 ×2 = …", "PinBuffer: CAS failed, retry", "Wäy fi ffl AV To"} {
					ew, lw := render.TextWidth(s, th.Face(st, sz)), layout.Width(s, th.Font(st, sz))
					eh, lh := render.LineHeight(th.Face(st, sz)), layout.LineHeight(th.Font(st, sz))
					if ew != lw || eh != lh {
						t.Errorf("%v %v×%v %q: Ebitengine %v wide, %v tall; layout %v, %v", st, sz, scale, s, ew, eh, lw, lh)
					}
				}
			}
		}
	}
}
