package scene_test

import (
	"fmt"
	"strings"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/internal/goldentest"
	"bufferlab/viz/layout"
	"bufferlab/viz/scene"
)

// TestPoolLegendGolden runs testdata/pool_legend.txt: the legends of the
// pool scenes (PoolLegend) and of the mapping table
// (LayoutPartitionsLegend), as text. Directives:
//
//	pool [heat] [word] width=W [height=H] [scale=S]
//	    the pool legend with the heat map's and the state word's parts
//	partitions width=W [height=H] [scale=S]
//	    the mapping table's legend
//	trail width=W [height=H] [scale=S]
//	    the trails' legend (cells, heat map, mapping table)
//
// Each is laid out in a W wide rect at (0, 0), as tall as it says it
// needs (Height) unless height=H gives less; the output says that height,
// the height used, then the text a line at a time (linesString), the
// keys' boxes and marks, and every overflow.
//
// Regenerate with: go test ./viz/scene -run PoolLegendGolden -rewrite
func TestPoolLegendGolden(t *testing.T) {
	goldentest.RunFile(t, "testdata/pool_legend.txt", goldentest.Directives{"pool": legendCase, "partitions": legendCase, "trail": legendCase})
}

// legend is a legend's two functions: the height it needs at a width and
// its layout in a rect (returning the height used).
type legend struct {
	name   string
	height func(w float64, th *layout.Theme) float64
	lay    func(l *layout.List, r layout.Rect, th *layout.Theme) float64
}

// legendCase is the output of a pool, partitions or trail case (see
// TestPoolLegendGolden).
func legendCase(t *testing.T, d *goldentest.Case) (string, error) {
	width := intArg(t, d, "width")
	th := layout.Light(goldentest.Float(t, d, "scale", 1))
	lg := legend{height: scene.PartitionsLegendHeight, lay: scene.LayoutPartitionsLegend}
	switch d.Cmd {
	case "pool":
		pl := scene.PoolLegend{Heat: d.HasArg("heat"), StateWord: d.HasArg("word")}
		lg = legend{height: pl.Height, lay: pl.Layout}
	case "trail":
		lg = legend{height: scene.TrailLegendHeight, lay: scene.LayoutTrailLegend}
	}
	need := lg.height(float64(width), th)
	r := layout.Rect{W: float64(width), H: need}
	if height := goldentest.Int(t, d, "height", 0); height > 0 {
		r.H = float64(height)
	}
	var l layout.List
	used := lg.lay(&l, r, th)
	return fmt.Sprintf("needs %s px at width %d; in %s used %s\n", num(need), width, rectString(r), num(used)) + linesString(&l), nil
}

// legendCases are the sizes the legends must hold at without an overflow:
// a phone (390) and a narrow pane (360) at scale 1, a laptop, and the
// 1280x720 projector in presentation mode.
var legendCases = []struct {
	w, maxH, scale float64
}{
	{360, 0, 1}, {390, 0, 1}, {640, 0, 1}, {1280, 720, 1}, {1920, 1080, 1}, {1280, 720, presentationScale},
}

// At every size the legends lay out in the height they ask for with no
// overflow, every run and key inside the rect, no text under 9 px at
// scale 1; each pool legend fits a 1280x720 screen even in presentation
// mode; and the height they ask for is the height they use.
func TestLegendsFitTheirRects(t *testing.T) {
	var legends []legend
	for _, pl := range []scene.PoolLegend{{}, {StateWord: true}, {Heat: true}, {Heat: true, StateWord: true}} {
		legends = append(legends, legend{fmt.Sprintf("pool %+v", pl), pl.Height, pl.Layout})
	}
	legends = append(legends, legend{"partitions", scene.PartitionsLegendHeight, scene.LayoutPartitionsLegend},
		legend{"trail", scene.TrailLegendHeight, scene.LayoutTrailLegend})
	for _, c := range legendCases {
		th := layout.Light(c.scale)
		for _, lg := range legends {
			name := fmt.Sprintf("%s at %vx%v scale %v", lg.name, c.w, c.maxH, c.scale)
			h := lg.height(c.w, th)
			if c.maxH > 0 && h > c.maxH {
				t.Errorf("%s: needs %.0f px, more than the screen's %v", name, h, c.maxH)
			}
			r := layout.Rect{X: 11, Y: 7, W: c.w, H: h}
			var l layout.List
			used := lg.lay(&l, r, th)
			if d := used - h; d > 1e-6 || d < -1e-6 {
				t.Errorf("%s: Height says %.1f, Layout used %.1f", name, h, used)
			}
			if len(l.Overflows) > 0 {
				t.Errorf("%s: overflows:\n%s", name, (&layout.List{Overflows: l.Overflows}).String())
			}
			for _, it := range l.Items {
				if it.Kind == layout.KLine || it.Kind == layout.KTriangle {
					continue
				}
				b := it.Rect
				if b.X < r.X-0.5 || b.Y < r.Y-0.5 || b.X+b.W > r.X+r.W+0.5 || b.Y+b.H > r.Y+r.H+0.5 {
					t.Errorf("%s: %s outside %v", name, it, r)
				}
			}
			if m := l.MinTextSize(); m < 9*c.scale {
				t.Errorf("%s: smallest text %.1f px", name, m)
			}
		}
	}
}

// Given less height than it asks for, a legend lays out the rows that fit
// and records every entry it leaves out, and nothing ends below the rect.
func TestLegendCutIsRecorded(t *testing.T) {
	th := layout.Light(1)
	pl := scene.PoolLegend{StateWord: true}
	need := pl.Height(390, th)
	r := layout.Rect{W: 390, H: need / 3}
	var l layout.List
	used := pl.Layout(&l, r, th)
	if used > r.H {
		t.Errorf("used %.1f of %.1f", used, r.H)
	}
	if len(l.Overflows) == 0 {
		t.Fatal("a third of the height and no overflow")
	}
	for _, o := range l.Overflows {
		if o.Axis != "h" || o.Need != need || o.Have != r.H {
			t.Errorf("overflow %+v: want axis h, needs %.1f, has %.1f", o, need, r.H)
		}
	}
	// The flags are at the end: every one is among the cut entries.
	cut := fmt.Sprint(l.Overflows)
	for _, n := range bufmgr.FlagNames(bufmgr.BufFlagMask) {
		if !strings.Contains(cut, "BM_"+n) {
			t.Errorf("BM_%s neither laid out nor recorded", n)
		}
	}
	for _, it := range l.Items {
		if it.Kind != layout.KLine && it.Kind != layout.KTriangle && it.Rect.Y+it.Rect.H > r.H+0.5 {
			t.Errorf("%s ends below %.1f", it, r.H)
		}
	}
}

// legendText is every word a legend lays out, runs joined by spaces.
func legendText(l *layout.List) string {
	var s []string
	for _, it := range l.Texts("") {
		s = append(s, it.Text)
	}
	return strings.Join(s, " ")
}

// What the legends say is what the engine and the scenes do: every flag of
// the state word by its PostgreSQL name and both of the strip's labels,
// the engine's usage cap and bit ranges, the badges a cell draws, the
// partition count and shades.
func TestLegendsSayWhatTheScenesDraw(t *testing.T) {
	th := layout.Light(1)
	var l layout.List
	scene.PoolLegend{StateWord: true}.Layout(&l, layout.Rect{W: 1920, H: 2000}, th)
	text := legendText(&l)
	for _, n := range bufmgr.FlagNames(bufmgr.BufFlagMask) {
		if !strings.Contains(text, "BM_"+n) {
			t.Errorf("the pool legend never names BM_%s", n)
		}
	}
	for _, want := range append(scene.FlagStripLabels(),
		fmt.Sprintf("BM_MAX_USAGE_COUNT = %d", bufmgr.BmMaxUsageCount),
		"bits 0–17", "bits 18–21", "flags 22–31", "PIN 2", "LOCK", "DIRTY", "IO", "!VALID", "rc", "u2", "free") {
		if !strings.Contains(text, want) {
			t.Errorf("the pool legend lacks %q", want)
		}
	}
	// The heat map's part replaces the cells'; without the state word its
	// part is left out.
	var heat layout.List
	scene.PoolLegend{Heat: true}.Layout(&heat, layout.Rect{W: 1920, H: 2000}, th)
	ht := legendText(&heat)
	if want := fmt.Sprintf("more than %d buffers", scene.DetailMax); !strings.Contains(ht, want) {
		t.Errorf("the heat map's legend lacks %q", want)
	}
	if strings.Contains(ht, "buf_id") || strings.Contains(ht, "BM_PIN_COUNT_WAITER") {
		t.Errorf("the heat map's legend alone shows the cells' or the state word's part")
	}
	var pl layout.List
	scene.LayoutPartitionsLegend(&pl, layout.Rect{W: 1920, H: 2000}, th)
	pt := legendText(&pl)
	for _, want := range []string{"128 partitions", "0 … 127", "16 × row + column", "1–3", "4–7", "8+", "X:A", "S:AB", "WAITING"} {
		if !strings.Contains(pt, want) {
			t.Errorf("the mapping table's legend lacks %q", want)
		}
	}
}
