package scene_test

import (
	"strings"
	"testing"

	"bufferlab/viz/layout"
	"bufferlab/viz/scene"
)

// A 128MB pool (a heat map) in a pane too low for one, as a projector's
// pane gives it when the backends' lanes take the height: the pool's
// header line, not a strip of texels; from a few lines up, the heat map.
func TestPoolHeatTooLow(t *testing.T) {
	src := "config shared_buffers=128MB\nrelation t blocks=4\nbackend A: touch t 0..3\nrun\n"
	p := scenarioPlayer(t, "low.scn", src)
	p.End()
	th := layout.Light(1.5)
	lh := layout.LineHeight(th.Font(layout.Regular, 12))
	for _, c := range []struct {
		h          float64
		heat, text bool
	}{
		{lh * 1.1, false, true},
		{lh * 2.5, false, true},
		{lh * 8, true, true},
	} {
		var ps scene.PoolScene
		var l layout.List
		ps.Layout(&l, layout.Rect{W: 680, H: c.h}, p.View(), th)
		heat, header := false, ""
		for _, it := range l.Items {
			if it.Kind == layout.KImage {
				heat = true
			}
			if it.Kind == layout.KText && it.Role == "pool header" {
				header += it.Text
			}
		}
		if heat != c.heat || ps.HeatShown() != c.heat || (header != "") != c.text {
			t.Errorf("height %.0f (%.1f lines): heat map %v (shown %v), header %q; want heat map %v and a header %v",
				c.h, c.h/lh, heat, ps.HeatShown(), header, c.heat, c.text)
		}
		if c.text && !strings.Contains(header, "16384 buffers") {
			t.Errorf("height %.0f: header %q does not say the pool's size", c.h, header)
		}
	}
}
