package scene_test

import (
	"fmt"
	"image/color"
	"testing"

	"bufferlab/viz/layout"
	"bufferlab/viz/scene"
)

// themeColours is every colour a theme holds (its fields, the nested ones
// and the usage ramp's steps).
func themeColours(th *layout.Theme) map[color.RGBA]string {
	out := map[color.RGBA]string{}
	for _, nc := range th.Colours() {
		out[nc.Colour] = th.Name + "." + nc.Path
	}
	return out
}

// darkLayouts lays out, with the dark theme, the scenes and panels of
// every kind of lesson at positions where most of their states show: the
// pool and its panels (lesson 1 with its question, hovered and then
// answered), a large pool's heat map, the pin race's panes, the SLRU
// scenes of lessons 4 and 7, the free space map of lessons 5 and 6, and
// the counter boxes.
func darkLayouts(t *testing.T) map[string]*layout.List {
	t.Helper()
	th := layout.Dark(1)
	out := map[string]*layout.List{"lesson 1 step 9": layoutAll(t, 1280, 800, th)}

	p := loadStep(t, "shared-buffers", 8)
	st := p.Steps[p.Step()]
	var q layout.List
	pr := scene.Prose{Size: 14}
	hover := func(layout.Rect) bool { return true }
	y, _ := pr.LayoutQuestion(&q, layout.Rect{W: 500, H: 800}, 0, st.Predict, -1, false, th, hover)
	pr.LayoutQuestion(&q, layout.Rect{W: 500, H: 800}, y+8, st.Predict, 0, true, th, hover)
	scene.LayoutCounterRow(&q, layout.Rect{Y: 700, W: 900, H: 40}, []scene.Counter{{Label: "hits", V: 3}}, th)
	scene.LayoutCounterLine(&q, layout.Rect{Y: 750, W: 900, H: 20}, []scene.Counter{{Label: "hits", V: 3}}, th)
	out["lesson 1 question"] = &q

	big := loadPlayer(t, "", "big-pool.scn")
	big.Seek(30000)
	var h layout.List
	var hs scene.PoolScene
	hs.Layout(&h, layout.Rect{W: 700, H: 400}, big.View(), th)
	out["heat map"] = &h

	pin := loadPlayer(t, "pinning", "")
	pin.Seek(91)
	for i := 0; i < pin.Panes(); i++ {
		var l layout.List
		var s scene.PoolScene
		s.Layout(&l, layout.Rect{W: 380, H: 200}, pin.PaneView(i), th)
		scene.LayoutLanes(&l, layout.Rect{Y: 200, W: 380, H: 200}, pin.PaneView(i), th)
		out[fmt.Sprintf("lesson 2 pane %d", i)] = &l
	}

	for name, v := range slruStates(t) {
		var l layout.List
		scene.LayoutSLRUScene(&l, layout.Rect{W: 1280, H: 720}, v, th)
		scene.LayoutSLRUPane(&l, layout.Rect{Y: 720, W: 900, H: 200}, v, th)
		out[name] = &l
	}

	for _, c := range []struct {
		lesson    string
		pos, pane int
	}{{"free-space-map", 2910, 0}, {"small-table-skip", 2500, 0}, {"small-table-skip", 2500, 1}} {
		v, rel, _ := fsmState(t, c.lesson, c.pos, c.pane)
		var l layout.List
		scene.LayoutFSMScene(&l, layout.Rect{W: 1280, H: 720}, v, rel, th)
		out[fmt.Sprintf("%s at %d pane %d", c.lesson, c.pos, c.pane)] = &l
	}
	return out
}

// A dark frame has no light-theme leftovers: no item of the dark layouts
// is drawn in a colour that the light theme has and the dark one does not
// (a white slot, a pale highlight written into a scene instead of read
// from the theme). Text may be in either of TextOn's two colours, which
// are the same in both themes (the dark one is the light theme's Text).
func TestDarkHasNoLightLeftovers(t *testing.T) {
	light, dark := themeColours(layout.Light(1)), themeColours(layout.Dark(1))
	for c := range dark {
		delete(light, c)
	}
	textOn := map[color.RGBA]bool{layout.TextOn(color.RGBA{A: 0xff}): true, layout.TextOn(color.RGBA{0xff, 0xff, 0xff, 0xff}): true}
	items := 0
	for name, l := range darkLayouts(t) {
		for _, it := range l.Items {
			items++
			if it.Kind == layout.KImage {
				for i := 0; i+3 < len(it.Pixels); i += 4 {
					c := color.RGBA{it.Pixels[i], it.Pixels[i+1], it.Pixels[i+2], it.Pixels[i+3]}
					if f, ok := light[c]; ok {
						t.Errorf("%s: %s texel %d in %s %v", name, it.Role, i/4, f, c)
						break
					}
				}
				continue
			}
			if it.Kind == layout.KText && textOn[it.Color] {
				continue
			}
			if f, ok := light[it.Color]; ok {
				t.Errorf("%s: %s in %s %v", name, it, f, it.Color)
			}
		}
	}
	if items < 2000 {
		t.Errorf("only %d items laid out", items)
	}
}
