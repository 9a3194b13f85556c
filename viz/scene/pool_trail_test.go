package scene_test

import (
	"fmt"
	"image/color"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
	"bufferlab/lessons"
	"bufferlab/viz/layout"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/scene"
)

// engineDrops runs variant v of a lesson's script (or a scenario's) with
// the engine's log hooked and returns, for each drop in order, how many
// descriptors the engine examined (DropDescsTouched) and invalidated
// (DropInvalidated) between its KOp and its KOpDone.
func engineDrops(t *testing.T, s *scenario.Script, v int) (examined, invalidated []uint64) {
	t.Helper()
	r, err := scenario.NewVariantRunner(s, true, v)
	if err != nil {
		t.Fatal(err)
	}
	var at bufmgr.Stats
	r.Log().OnAppend = func(e trace.Event) {
		site := e.Site.String()
		switch {
		case e.Kind == trace.KOp && (site == "drop.begin" || site == "dropall.begin"):
			at = r.Pool().Stats()
		case e.Kind == trace.KOpDone && strings.HasPrefix(site, "drop") || e.Kind == trace.KOpDone && site == "dlist.done":
			now := r.Pool().Stats()
			examined = append(examined, now.DropDescsTouched-at.DropDescsTouched)
			invalidated = append(invalidated, now.DropInvalidated-at.DropInvalidated)
		}
	}
	if _, err := r.RunAll(); err != nil {
		t.Fatal(err)
	}
	return examined, invalidated
}

var cellTrailRole = regexp.MustCompile(`^cell (\d+) trail$`)

// trailCells reads the descriptors a pool layout marks, from its items:
// those framed as examined (a stroke in Trail.Mark), and those crossed
// out (lines in Trail.Gone).
func trailCells(l *layout.List, th *layout.Theme) (examined, crossed map[int]bool) {
	examined = trailItems(l, func(it layout.Item) bool { return it.Kind == layout.KStroke && it.Color == th.Trail.Mark })
	crossed = trailItems(l, func(it layout.Item) bool { return it.Kind == layout.KLine && it.Color == th.Trail.Gone })
	return examined, crossed
}

// trailItems is the descriptors with a trail item (role "cell N trail")
// that keep accepts.
func trailItems(l *layout.List, keep func(layout.Item) bool) map[int]bool {
	out := map[int]bool{}
	for _, it := range l.Items {
		if m := cellTrailRole.FindStringSubmatch(it.Role); m != nil && keep(it) {
			id, _ := strconv.Atoi(m[1])
			out[id] = true
		}
	}
	return out
}

// lessonScript is the scenario script of a lesson.
func lessonScript(t *testing.T, name string) *scenario.Script {
	t.Helper()
	l, err := lessons.Named(name)
	if err != nil {
		t.Fatal(err)
	}
	return l.Script
}

// The drop race of lesson 3 at the end of its race step (step 1, the
// drop of t): each pane's pool, laid out where the app puts it, marks as
// examined exactly the descriptors its engine examined for that drop,
// and crosses out those it invalidated. The scan pane's trail covers
// every descriptor of the pool; the lookup's and the dlist's, the
// handful the relation had.
func TestDropRaceTrailCountsTheEngine(t *testing.T) {
	p := loadPlayer(t, "dropping", "")
	script := lessonScript(t, "dropping")
	p.GotoStep(2) // the start of the step after the race: the race's end
	for _, th := range []*layout.Theme{layout.Light(1), layout.Dark(1.45)} {
		for pane := 0; pane < p.Panes(); pane++ {
			examined, invalidated := engineDrops(t, script, pane)
			if len(examined) == 0 {
				t.Fatalf("pane %d: the engine dropped nothing", pane)
			}
			v := p.PaneView(pane)
			rects := appRects(1280, 720, th, p.Panes(), true, pane)
			var l layout.List
			layoutPool(&l, rects.pool, v, th)
			ex, cr := trailCells(&l, th)
			strategy := p.PaneVariant(pane).Name()
			if uint64(len(ex)) != examined[0] || uint64(len(cr)) != invalidated[0] {
				t.Errorf("%s pane (%s theme): %d cells marked examined and %d crossed out; the engine examined %d descriptors and invalidated %d",
					strategy, th.Name, len(ex), len(cr), examined[0], invalidated[0])
			}
			if strategy == "scan" && len(ex) != v.NBuffers() {
				t.Errorf("the scan pane marks %d of %d descriptors", len(ex), v.NBuffers())
			}
			if strategy != "scan" && len(ex) > 8 {
				t.Errorf("the %s pane marks %d descriptors: not a handful", strategy, len(ex))
			}
		}
	}
}

// bigDropSrc is the drop race's first drop in a 128MB pool: 16 384
// descriptors, a heat map in every pane.
const bigDropSrc = `config shared_buffers=128MB in_recovery=on drop=scan,lookup,dlist
relation t blocks=3
relation big blocks=40
backend A: touch t 0..2; touch big 0..39
run
backend S: drop t
run
`

// heatTexels counts an image item's texels of colour c.
func heatTexels(l *layout.List, c color.RGBA) int {
	n := 0
	for _, it := range l.Items {
		for i := 0; it.Kind == layout.KImage && i+3 < len(it.Pixels); i += 4 {
			if [4]byte(it.Pixels[i:i+4]) == [4]byte{c.R, c.G, c.B, c.A} {
				n++
			}
		}
	}
	return n
}

// In a 16 384-buffer pool the heat map keeps the trail: at the end of the
// drop, the scan pane's texels in the trail's colours are every
// descriptor the engine examined (16 384); the lookup's and the dlist's
// are the three it examined, each also framed (a texel is a few pixels).
func TestDropRaceTrailInHeatMap(t *testing.T) {
	p := scenarioPlayer(t, "bigdrop.scn", bigDropSrc)
	sc, err := scenario.Parse("bigdrop.scn", bigDropSrc)
	if err != nil {
		t.Fatal(err)
	}
	p.Seek(p.Len())
	th := layout.Light(1)
	enc := scene.HeatEncodings(th)
	for pane := 0; pane < p.Panes(); pane++ {
		examined, invalidated := engineDrops(t, sc, pane)
		v := p.PaneView(pane)
		var l layout.List
		if !layoutPool(&l, appRects(1920, 1080, th, p.Panes(), true, pane).pool, v, th).HeatShown() {
			t.Fatal("no heat map")
		}
		marked, gone := heatTexels(&l, enc.Trail.Fill), heatTexels(&l, enc.Gone.Fill)
		if uint64(marked+gone) != examined[0] || uint64(gone) != invalidated[0] {
			t.Errorf("pane %d (%s): %d texels in the trail's colour and %d in its gone colour; the engine examined %d and invalidated %d",
				pane, p.PaneVariant(pane).Name(), marked, gone, examined[0], invalidated[0])
		}
		boxes := 0
		for _, it := range l.Items {
			if it.Role == "trail" && it.Kind == layout.KStroke && it.Color == th.Trail.Mark {
				boxes++
			}
		}
		if want := int(examined[0]); want > 64 && boxes != 0 || want <= 64 && boxes != want {
			t.Errorf("pane %d: %d trail boxes for %d marked descriptors", pane, boxes, want)
		}
	}
}

// trailString is the trail part of a pool scene's layout, for the
// goldens: how many cells and partitions carry trail items and of which
// kind (read off the items), then the items of the first few of them.
func trailString(l *layout.List, th *layout.Theme, show int) string {
	type cell struct {
		items []layout.Item
		kinds map[string]bool
	}
	cells, parts := map[string]*cell{}, map[string]*cell{}
	var order []string
	for _, it := range l.Items {
		if !strings.HasSuffix(it.Role, " trail") {
			continue
		}
		name := strings.TrimSuffix(it.Role, " trail")
		m := cells
		if strings.HasPrefix(name, "partition") {
			m = parts
		}
		c := m[name]
		if c == nil {
			c = &cell{kinds: map[string]bool{}}
			m[name] = c
			order = append(order, name)
		}
		c.items = append(c.items, it)
		switch {
		case it.Kind == layout.KStroke && it.Color == th.Trail.Mark && it.Dash != [2]float64{}:
			c.kinds["ring"] = true
		case it.Kind == layout.KStroke && it.Color == th.Trail.Mark:
			c.kinds["framed"] = true
		case it.Kind == layout.KFill && it.Rect.H <= 1:
			// the line along a band
		case it.Kind == layout.KFill && it.Color == th.Trail.Mark:
			c.kinds["band"] = true
		case it.Kind == layout.KFill && it.Color == th.Trail.Gone:
			c.kinds["dark band"] = true
		case it.Kind == layout.KLine && it.Color == th.Trail.Gone:
			c.kinds["crossed"] = true
		case it.Kind == layout.KTriangle && it.Color == th.Trail.Gone:
			c.kinds["corner"] = true
		}
	}
	summary := func(what string, m map[string]*cell) string {
		count := map[string]int{}
		for _, c := range m {
			for k := range c.kinds {
				count[k]++
			}
		}
		var ks []string
		for k, n := range count {
			ks = append(ks, fmt.Sprintf("%s %d", k, n))
		}
		sort.Strings(ks)
		return fmt.Sprintf("%s with a trail: %d (%s)\n", what, len(m), strings.Join(ks, ", "))
	}
	var b strings.Builder
	b.WriteString(summary("cells", cells))
	b.WriteString(summary("partitions", parts))
	var f layout.List
	for _, name := range order[:min(show, len(order))] {
		c := cells[name]
		if c == nil {
			c = parts[name]
		}
		f.Items = append(f.Items, c.items...)
	}
	if len(order) > show {
		fmt.Fprintf(&b, "the items of the first %d:\n", show)
	}
	b.WriteString(f.String())
	return b.String()
}

// trailLayout lays out the case's pool and partitions for the trail
// directive.
func trailLayout(c poolCase) *layout.List {
	var l layout.List
	layoutPool(&l, c.rects.pool, c.v, c.th)
	scene.LayoutPartitions(&l, c.rects.parts, c.v, c.th)
	return &l
}

// The trail marks agree with the view's: every cell the layout marks is
// one the view's trails mark, and the other way round.
func TestTrailItemsFollowTheView(t *testing.T) {
	th := layout.Light(1)
	for _, c := range []struct {
		lesson    string
		step, pos int
		pane      int
	}{{"dropping", 2, -1, 0}, {"dropping", 2, -1, 1}, {"dropping", 2, -1, 2}, {"shared-buffers", 12, 3203, 0}, {"shared-buffers", 7, 745, 0}} {
		p := loadPlayer(t, c.lesson, "")
		p.GotoStep(c.step)
		if c.pos >= 0 {
			p.Seek(c.pos)
		}
		v := p.PaneView(c.pane)
		var l layout.List
		layoutPool(&l, layout.Rect{W: 1200, H: 700}, v, th)
		drawn := trailItems(&l, func(layout.Item) bool { return true })
		tr := v.Trails()
		for id := 0; id < v.NBuffers(); id++ {
			if want := tr.Cell(id).Marks != 0; drawn[id] != want {
				t.Errorf("%s step %d pane %d: cell %d drawn with a trail %v, the view marks it %s", c.lesson, c.step, c.pane, id, drawn[id], view.CellMarkString(tr.Cell(id).Marks))
			}
		}
		if len(drawn) == 0 {
			t.Errorf("%s step %d pane %d: no trail", c.lesson, c.step, c.pane)
		}
	}
}

// Lesson 1's step 13 ("Big scans use a small ring", --step 13): when the
// scan of big ends, the cells drawn with the ring's dashed frame are the
// scan's ring, as many as scan.init says (Arg) and holding big's last
// pages; the scan of small that follows has no ring, and once it begins
// they are no longer framed.
func TestLessonOneRingTrail(t *testing.T) {
	p := loadPlayer(t, "shared-buffers", "")
	th := layout.Light(1)
	start, end := p.StepStart[12], p.StepEnd[12]
	evs := trace.All(p.PaneTimeline(0).Events())
	init, done := -1, -1
	for i := start; i < end && done < 0; i++ {
		switch e := evs[i]; {
		case e.Kind == trace.KOp && e.Site.String() == "scan.init" && init < 0:
			init = i
		case e.Kind == trace.KOpDone && e.Site.String() == "scan.end" && init >= 0:
			done = i
		}
	}
	if init < 0 || done < 0 {
		t.Fatal("no scan in step 12")
	}
	ringed := func(pos int) map[int]bool {
		p.Seek(pos)
		v := p.View()
		var l layout.List
		layoutPool(&l, layout.Rect{W: 1200, H: 700}, v, th)
		return trailItems(&l, func(it layout.Item) bool {
			return it.Kind == layout.KStroke && it.Color == th.Trail.Mark && it.Dash != [2]float64{}
		})
	}
	ring := ringed(done + 1)
	if want := int(evs[init].Arg); want == 0 || len(ring) != want {
		t.Fatalf("at the end of the scan %d cells framed as the ring, scan.init says a ring of %d", len(ring), evs[init].Arg)
	}
	v := p.View()
	for id := range ring {
		if tag := v.TagString(v.Buffer(id).Tag); !strings.HasPrefix(tag, "big/") {
			t.Errorf("ring buffer %d holds %s, not a page of big", id, tag)
		}
	}
	if r := ringed(done + 2); len(r) != 0 {
		t.Errorf("the next scan began and %d cells are still framed as the ring", len(r))
	}
}

// The SLRU and FSM scenes draw their trails: lesson 4 after B's
// read-only page 15 (it compared slots 16 to 23) has each of those slots
// framed in Trail.Mark and no other; lesson 5 where A's VACUUM has
// ended, the FSM tree frames nodes on its trail.
func TestSLRUAndFSMTrailItems(t *testing.T) {
	th := layout.Light(1)
	v := slruAt(t, lessonPlayer(t, "slru-banks"), 453, 0)
	var l layout.List
	scene.LayoutSLRUScene(&l, layout.Rect{W: 1280, H: 720}, v, th)
	framed := map[string]bool{}
	for _, it := range l.Items {
		if strings.HasSuffix(it.Role, " mark trail") && it.Kind == layout.KStroke && it.Color == th.Trail.Mark {
			framed[strings.TrimSuffix(it.Role, " mark trail")] = true
		}
	}
	for s := 0; s < v.NumSlots(); s++ {
		want := s >= 16 && s <= 23
		if framed[fmt.Sprintf("slot %d", s)] != want {
			t.Errorf("slot %d framed %v, want %v", s, framed[fmt.Sprintf("slot %d", s)], want)
		}
	}

	fv, rel, _ := fsmState(t, "free-space-map", 310, 0)
	var fl layout.List
	scene.LayoutFSMScene(&fl, layout.Rect{W: 1280, H: 720}, fv, rel, th)
	nodes := 0
	for _, it := range fl.Items {
		if strings.HasPrefix(it.Role, "tree depth") && strings.HasSuffix(it.Role, " trail") && it.Color == th.Trail.Mark {
			nodes++
		}
	}
	if nodes == 0 {
		t.Error("the FSM tree frames no node of A's VACUUM's trail")
	}
}
