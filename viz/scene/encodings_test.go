package scene_test

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/internal/colorcheck"
	"bufferlab/viz/layout"
	"bufferlab/viz/scene"
)

// The thresholds of TestEncodingsDistinguishable, in CIEDE2000 units
// under each simulated vision.
//
// minFill: two fills must differ by 10. One unit is about the smallest
// difference seen between two large patches side by side; a cell is read
// against the legend or a neighbour some way off, small and among other
// colours, where the difference needed grows several times (Szafir,
// Stone & Gleicher 2014 measured it for web viewing). 10 is that with a
// margin, and it is what the usage ramp can give six steps plus free,
// pinned and dirty (the ramps are spaced evenly to reach it).
//
// minEdge: two outlines of the same width and style must differ by 20 if
// their colour is all that tells them apart: a line 1 to 3 px wide is a
// small field, where colour differences shrink (the same study: the
// needed difference grows steeply as marks get thinner). No pair in the
// tables relies on it today; the style does the work.
//
// minOn: a pattern or a mark must differ from the fill it lies on by 10,
// or it does not show.
const (
	minFill = 10.0
	minEdge = 20.0
	minOn   = 10.0
)

// compose is overlay o drawn over base b: o's fill, outline, pattern
// where it has them, else b's; the marks of both.
func compose(o, b layout.Encoding) layout.Encoding {
	out := b
	if o.Fill.A != 0 {
		out.Fill = o.Fill
	}
	if o.EdgeWidth > 0 {
		out.Edge, out.EdgeWidth, out.EdgeStyle = o.Edge, o.EdgeWidth, o.EdgeStyle
	}
	if o.Pattern != layout.PatternNone {
		out.Pattern, out.PatternColor = o.Pattern, o.PatternColor
	}
	out.Marks |= o.Marks
	if o.Marks != 0 {
		out.MarkColor = o.MarkColor
	}
	return out
}

// apart says how a viewer with vision v tells a from b: a part that is not
// colour (outline style or width, pattern, marks), else their fills or
// outlines by colour; "" when they cannot.
func apart(v colorcheck.Vision, a, b layout.Encoding) string {
	switch {
	case a.EdgeStyle != b.EdgeStyle:
		return fmt.Sprintf("outline %v vs %v", a.EdgeStyle, b.EdgeStyle)
	case a.EdgeWidth != b.EdgeWidth:
		return fmt.Sprintf("outline %v px vs %v px", a.EdgeWidth, b.EdgeWidth)
	case a.Pattern != b.Pattern:
		return fmt.Sprintf("pattern %v vs %v", a.Pattern, b.Pattern)
	case a.Marks != b.Marks:
		return fmt.Sprintf("marks %b vs %b", a.Marks, b.Marks)
	}
	if d := colorcheck.Difference(v, a.Fill, b.Fill); d >= minFill {
		return fmt.Sprintf("fills ΔE00 %.1f", d)
	}
	if a.EdgeWidth > 0 {
		if d := colorcheck.Difference(v, a.Edge, b.Edge); d >= minEdge {
			return fmt.Sprintf("outlines ΔE00 %.1f", d)
		}
	}
	// The same marks (a trail's band: the hand's path and where it
	// stopped) in colours as far apart as two outlines must be.
	if a.Marks != 0 {
		if d := colorcheck.Difference(v, a.MarkColor, b.MarkColor); d >= minEdge {
			return fmt.Sprintf("marks ΔE00 %.1f", d)
		}
	}
	return ""
}

// shows checks that e's pattern and marks differ from the fill under them
// by minOn for vision v.
func shows(t *testing.T, where string, v colorcheck.Vision, e layout.Encoding) {
	t.Helper()
	if e.Pattern != layout.PatternNone {
		if d := colorcheck.Difference(v, e.PatternColor, e.Fill); d < minOn {
			t.Errorf("%s, %v: the %v (%v) is ΔE00 %.1f from its fill %v, want %v", where, v, e.Pattern, e.PatternColor, d, e.Fill, minOn)
		}
	}
	if e.Marks != 0 {
		if d := colorcheck.Difference(v, e.MarkColor, e.Fill); d < minOn {
			t.Errorf("%s, %v: its marks (%v) are ΔE00 %.1f from its fill %v, want %v", where, v, e.MarkColor, d, e.Fill, minOn)
		}
	}
}

// checkTable checks every pair of states of a table a reader must tell
// apart, for normal vision, protanopia and deuteranopia: two bases; an
// overlay over each base against every base; two overlays over the same
// base. It returns the pairs checked.
func checkTable(t *testing.T, table string, states []scene.NamedEncoding) int {
	t.Helper()
	var bases, overlays []scene.NamedEncoding
	for _, s := range states {
		if s.Overlay {
			overlays = append(overlays, s)
		} else {
			bases = append(bases, s)
		}
	}
	pairs := 0
	check := func(v colorcheck.Vision, an string, a layout.Encoding, bn string, b layout.Encoding) {
		pairs++
		if why := apart(v, a, b); why == "" {
			t.Errorf("%s, %v: %s and %s look alike: fills %v and %v (ΔE00 %.1f), outlines %v %v px %v and %v",
				table, v, an, bn, a.Fill, b.Fill, colorcheck.Difference(v, a.Fill, b.Fill), a.EdgeStyle, a.EdgeWidth, a.Edge, b.Edge)
		} else if testing.Verbose() && v != colorcheck.Normal {
			t.Logf("%s, %v: %s / %s: %s", table, v, an, bn, why)
		}
	}
	for _, v := range colorcheck.Visions {
		for i, a := range bases {
			shows(t, table+": "+a.State, v, a.Encoding)
			for _, b := range bases[i+1:] {
				check(v, a.State, a.Encoding, b.State, b.Encoding)
			}
		}
		for i, o := range overlays {
			for _, b := range bases {
				ob := compose(o.Encoding, b.Encoding)
				shows(t, table+": "+o.State+" over "+b.State, v, ob)
				for _, c := range bases {
					check(v, o.State+" over "+b.State, ob, c.State, c.Encoding)
				}
				for _, p := range overlays[i+1:] {
					check(v, o.State+" over "+b.State, ob, p.State+" over "+b.State, compose(p.Encoding, b.Encoding))
				}
			}
		}
	}
	return pairs
}

// Every pair of states a scene must tell apart is told apart by a viewer
// with normal vision, with protanopia and with deuteranopia (Machado et
// al. 2009, severity 1), in both themes: the SLRU slots (EMPTY, VALID,
// I/O in progress, DIRTY, compared, being compared, victim), the pool's
// cells (free, the six usage counts, pinned, dirty, I/O in progress,
// locked) and the heat map (free, usage counts, pinned, dirty: colour
// alone). The tables are the ones the scenes draw from
// (TestScenesDrawTheirEncodings).
func TestEncodingsDistinguishable(t *testing.T) {
	for _, name := range layout.ThemeNames {
		th, _ := layout.NewTheme(name, 1)
		n := checkTable(t, name+" SLRU", scene.SLRUEncodings(th).Named())
		n += checkTable(t, name+" pool", scene.PoolEncodings(th).Named())
		n += checkTable(t, name+" heat map", scene.HeatEncodings(th).Named())
		if n < 700 {
			t.Errorf("%s: %d pairs checked", name, n)
		}
	}
}

// The checks can fail: under deuteranopia the light theme's pale I/O
// green is the grey of EMPTY, orange and vermilion outlines of one width
// and style are too close for an outline, and the old usage ramp's first
// two steps were as close as a reader with normal vision can barely tell.
func TestEncodingChecksCatchLookalikes(t *testing.T) {
	th := layout.Light(1)
	d := colorcheck.Deuteranopia
	emptyFill := layout.Encoding{Fill: th.Free, Edge: th.PanelEdge, EdgeWidth: 1}
	ioFill := layout.Encoding{Fill: th.SLRU.IO, Edge: th.PanelEdge, EdgeWidth: 1}
	if why := apart(d, emptyFill, ioFill); why != "" {
		t.Errorf("EMPTY and I/O by fill alone: told apart by %s", why)
	}
	if why := apart(d, layout.Encoding{Edge: th.Highlight, EdgeWidth: 3}, layout.Encoding{Edge: th.Error, EdgeWidth: 3}); why != "" {
		t.Errorf("orange and vermilion outlines: told apart by %s", why)
	}
	old := layout.Encoding{Fill: color.RGBA{0xc6, 0xdb, 0xef, 0xff}}
	if why := apart(colorcheck.Normal, old, layout.Encoding{Fill: color.RGBA{0x9e, 0xca, 0xe1, 0xff}}); why != "" {
		t.Errorf("the old usage 1 and 2: told apart by %s", why)
	}
	if why := apart(d, compose(layout.Encoding{Pattern: layout.PatternHatch}, ioFill), emptyFill); !strings.HasPrefix(why, "pattern") {
		t.Errorf("hatched I/O and EMPTY: %q, want the pattern", why)
	}
}

// contains reports whether every item of want is in l (same kind, role,
// rect, width, colour, dash and spacing).
func contains(l *layout.List, want *layout.List) bool {
	for _, w := range want.Items {
		found := false
		for _, it := range l.Items {
			if it.Kind == w.Kind && it.Role == w.Role && it.Rect == w.Rect && it.Width == w.Width && it.Color == w.Color && it.Dash == w.Dash && it.Spacing == w.Spacing {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return len(want.Items) > 0
}

// firstFill is the role of the i-th cell of a kind ("slot 3", "cell 7")
// and the rect of its first fill (the cell's own box).
func firstFill(l *layout.List, kind string, i int) (string, layout.Rect, bool) {
	role := fmt.Sprintf("%s %d", kind, i)
	for _, it := range l.Items {
		if it.Kind == layout.KFill && it.Role == role {
			return role, it.Rect, true
		}
	}
	return role, layout.Rect{}, false
}

// The scenes draw from their tables: in both themes every SLRU slot laid
// out has its state's outline (dashed when EMPTY) and, during I/O, its
// hatch; a slot passed over by a search has the compared fill and dotted
// outline, the one being compared the thick one, the victim the double
// one; every pool cell its base's fill and outline or the pinned one, the
// hatch during I/O and the dirty corner; the heat map's texels are the
// table's fills.
func TestScenesDrawTheirEncodings(t *testing.T) {
	for _, name := range layout.ThemeNames {
		th, _ := layout.NewTheme(name, 1)
		enc := scene.SLRUEncodings(th)
		seen := map[string]int{}
		states := slruStates(t)
		// And lesson 4 where a slot is first read in.
		l4 := lessonPlayer(t, "slru-banks")
	search:
		for pos := 0; pos < l4.Len(); pos++ {
			v := slruAt(t, l4, pos, 0)
			for i := 0; i < v.NumSlots(); i++ {
				if v.Slot(i).InIO() {
					states["lesson 4 I/O"] = v.Clone()
					break search
				}
			}
		}
		for sn, v := range states {
			var l layout.List
			scene.LayoutSLRUScene(&l, layout.Rect{W: 1920, H: 1080}, v, th)
			for i := 0; i < v.NumSlots(); i++ {
				role, cell, ok := firstFill(&l, "slot", i)
				if !ok {
					continue
				}
				s := v.Slot(i)
				state, sname := enc.Valid, "VALID"
				switch {
				case s.Empty():
					state, sname = enc.Empty, "EMPTY"
				case s.InIO():
					state, sname = enc.IO, "I/O"
				}
				var want layout.List
				want.Outline(role+" mark", cell, state)
				want.PatternOver(role, cell, state)
				if !contains(&l, &want) {
					t.Errorf("%s, %s: %s is %s but not drawn so:\n%s", name, sn, role, sname, want.String())
				}
				seen[sname]++
				for _, o := range []struct {
					name string
					e    layout.Encoding
				}{{"compared", enc.Compared}, {"being compared", enc.Comparing}, {"victim", enc.Victim}} {
					var w layout.List
					w.Outline(role+" mark", cell, o.e)
					if contains(&l, &w) {
						seen[o.name]++
						if o.name == "compared" {
							var f layout.List
							f.Fill(role, cell, o.e.Fill)
							if !contains(&l, &f) {
								t.Errorf("%s, %s: %s outlined as compared without its fill", name, sn, role)
							}
						}
					}
				}
			}
		}
		for _, s := range []string{"EMPTY", "VALID", "I/O", "compared", "being compared", "victim"} {
			if seen[s] == 0 {
				t.Errorf("%s: no slot drawn %s in %v", name, s, seen)
			}
		}

		// The pool: lesson 1 at the first position where a buffer is
		// pinned, where one is read in (I/O in progress) and where one is
		// dirty.
		penc := scene.PoolEncodings(th)
		p := loadPlayer(t, "shared-buffers", "")
		first := map[string]int{}
		for pos := 0; pos < p.Len() && len(first) < 3; pos++ {
			p.Seek(pos)
			for b := 0; b < p.View().NBuffers(); b++ {
				buf := p.View().Buffer(b)
				for flag, has := range map[string]bool{"pinned": buf.Refcount() > 0, "I/O": buf.Has(bufmgrIOInProgress), "dirty": buf.Has(bufmgrDirty)} {
					if _, ok := first[flag]; has && !ok {
						first[flag] = pos
					}
				}
			}
		}
		if len(first) < 3 {
			t.Fatalf("lesson 1 has only %v", first)
		}
		pseen := map[string]int{}
		for _, pos := range []int{first["pinned"], first["I/O"], first["dirty"]} {
			p.Seek(pos)
			v := p.View()
			var l layout.List
			var s scene.PoolScene
			s.Layout(&l, layout.Rect{W: 1200, H: 700}, v, th)
			for id := 0; id < v.NBuffers(); id++ {
				role, cell, ok := firstFill(&l, "cell", id)
				if !ok {
					t.Fatalf("%s: %s not laid out", name, role)
				}
				b := v.Buffer(id)
				base := penc.Usage[min(b.Usage(), 5)]
				if !b.TagValid() {
					base = penc.Free
				}
				var want layout.List
				want.Fill(role, cell, base.Fill)
				if b.Refcount() > 0 {
					want.Outline(role, cell, penc.Pinned)
					pseen["pinned"]++
				} else {
					want.Outline(role, cell, base)
				}
				if b.Has(bufmgrIOInProgress) {
					want.PatternOver(role, cell, penc.IO)
					pseen["I/O"]++
				}
				if !contains(&l, &want) {
					t.Errorf("%s, event %d: %s not drawn as\n%s", name, pos, role, want.String())
				}
				if b.Has(bufmgrDirty) {
					pseen["dirty"]++
					found := false
					for _, it := range l.Items {
						found = found || it.Kind == layout.KTriangle && it.Role == role+" dirty" && it.Color == penc.Dirty.MarkColor
					}
					if !found {
						t.Errorf("%s, event %d: %s is dirty without its corner", name, pos, role)
					}
				}
			}
		}
		for _, s := range []string{"pinned", "I/O", "dirty"} {
			if pseen[s] == 0 {
				t.Errorf("%s: no pool cell drawn %s (%v)", name, s, pseen)
			}
		}

		// The heat map: every texel is one of the table's fills.
		hs := scene.HeatEncodings(th)
		fills := map[[4]byte]bool{rgba(hs.Free.Fill): true, rgba(hs.Pinned.Fill): true, rgba(hs.Dirty.Fill): true, {}: true}
		for _, u := range hs.Usage {
			fills[rgba(u.Fill)] = true
		}
		big := loadPlayer(t, "", "big-pool.scn")
		big.Seek(30000)
		var hl layout.List
		var heat scene.PoolScene
		heat.Layout(&hl, layout.Rect{W: 700, H: 400}, big.View(), th)
		texels := 0
		for _, it := range hl.Items {
			for i := 0; it.Kind == layout.KImage && i+3 < len(it.Pixels); i += 4 {
				texels++
				if px := [4]byte(it.Pixels[i : i+4]); !fills[px] {
					t.Fatalf("%s: texel %d is %v, not a fill of the heat map's table", name, i/4, px)
				}
			}
		}
		if texels < 16384 {
			t.Errorf("%s: %d texels", name, texels)
		}
	}
}

// The flags TestScenesDrawTheirEncodings reads, from the engine's state
// word.
const (
	bufmgrIOInProgress = bufmgr.BmIOInProgress
	bufmgrDirty        = bufmgr.BmDirty
)
