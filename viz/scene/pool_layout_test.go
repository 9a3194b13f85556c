package scene_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"bufferlab/engine/trace"
	"bufferlab/internal/goldentest"
	"bufferlab/viz/layout"
	"bufferlab/viz/player"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/scene"
)

// presentationScale is the theme scale viz/app uses in presentation mode
// (App.setTheme).
const presentationScale = 1.45

// TestPoolLayoutGolden runs testdata/pool_layout.txt: the pool scene and
// its panels (partitions, lanes, state word, code, prose and questions)
// laid out from lesson steps and scenarios, as text. Directives:
//
//	pool        the pool scene (PoolScene.Layout): every item
//	heat        the pool scene of a large pool: the heat map's image item,
//	            the header, marks and legend, and the texels' colours
//	partitions  the mapping table (LayoutPartitions): text runs and lock
//	            outlines
//	lanes       the backends (LayoutLanes) and the state word
//	            (LayoutStateWord) of the last state-word event
//	code        the code panel (LayoutCode)
//	prose       the step's prose and its question (Prose.LayoutBlocks,
//	            LayoutQuestion), unrevealed then revealed; text runs are
//	            printed a line of words at a time
//	droppane    one pane of the drop race (lesson 3): panel, pool,
//	            partitions and counters as viz/app's drawDropPane arranges
//	            them: text runs, the image and every overflow
//	trail       the trail shown in the pool scene and the mapping table:
//	            how many cells and partitions carry trail items, of which
//	            kind, and the items of the first few (show=N, 4 by
//	            default)
//
// Arguments: lesson=NAME or scenario=FILE (in lessons/scenarios); step=N
// (from 0: the screen, --step and links call it step N+1), event=E (as
// --event) or at=KIND (just after the first event of that kind in the
// pane, as trace names it: at=cas-fail);
// pane=I picks a pane of a side-by-side lesson (0 by default); window=WxH
// lays the scene out where viz/app puts it in a window that size
// (appRects), rect=WxH in a rect that size at (0,0) (a narrow pane; the
// lanes get it less the state word's strip at the top);
// scale=P for presentation mode.
//
// Every output ends with the overflows: text that did not fit its box.
//
// Regenerate with: go test ./viz/scene -run PoolLayoutGolden -rewrite
func TestPoolLayoutGolden(t *testing.T) {
	goldentest.RunFile(t, "testdata/pool_layout.txt", goldentest.Directives{
		"pool": poolDirective(func(t *testing.T, c poolCase, l *layout.List) string {
			layoutPool(l, c.rects.pool, c.v, c.th)
			return fmt.Sprintf("pool rect %s\n", rectString(c.rects.pool)) + l.String()
		}),
		"heat": poolDirective(func(t *testing.T, c poolCase, l *layout.List) string {
			layoutPool(l, c.rects.pool, c.v, c.th)
			return heatString(l, c.rects.pool)
		}),
		"partitions": poolDirective(func(t *testing.T, c poolCase, l *layout.List) string {
			scene.LayoutPartitions(l, c.rects.parts, c.v, c.th)
			return fmt.Sprintf("partitions rect %s\n", rectString(c.rects.parts)) + filtered(l, func(it layout.Item) bool {
				return it.Kind == layout.KText || it.Kind == layout.KStroke && it.Width > 1
			})
		}),
		"lanes": poolDirective(func(t *testing.T, c poolCase, l *layout.List) string {
			scene.LayoutLanes(l, c.rects.lanes, c.v, c.th)
			e, ok := scene.LastStateWordEvent(c.p.PaneTimeline(c.pane).Events(), c.p.Pos(), 4096)
			scene.LayoutStateWord(l, c.rects.word, e, ok, c.v, c.th)
			return fmt.Sprintf("lanes rect %s, word rect %s\n", rectString(c.rects.lanes), rectString(c.rects.word)) + l.String()
		}),
		"code": poolDirective(func(t *testing.T, c poolCase, l *layout.List) string {
			scene.LayoutCode(l, c.rects.code, c.v, c.th)
			return fmt.Sprintf("code rect %s\n", rectString(c.rects.code)) + l.String()
		}),
		"prose": poolDirective(func(t *testing.T, c poolCase, _ *layout.List) string {
			return proseString(t, c)
		}),
		"trail": poolDirective(func(t *testing.T, c poolCase, _ *layout.List) string {
			show := goldentest.Int(t, c.d, "show", 4)
			return fmt.Sprintf("pool rect %s, partitions rect %s\n", rectString(c.rects.pool), rectString(c.rects.parts)) + trailString(trailLayout(c), c.th, show)
		}),
		"droppane": poolDirective(func(t *testing.T, c poolCase, l *layout.List) string {
			layoutDropPane(l, c)
			return fmt.Sprintf("pane %d rect %s\n", c.pane, rectString(c.rects.pane)) + filtered(l, func(it layout.Item) bool {
				return it.Kind == layout.KText || it.Kind == layout.KImage
			})
		}),
	})
}

// poolDirective is the handler of a directive whose output out makes
// from the case's view, theme and rects (parseCase), given an empty list
// to lay out in.
func poolDirective(out func(t *testing.T, c poolCase, l *layout.List) string) goldentest.Handler {
	return func(t *testing.T, d *goldentest.Case) (string, error) {
		var l layout.List
		return out(t, parseCase(t, d), &l), nil
	}
}

// poolCase is a case's view, theme and rects.
type poolCase struct {
	p     *player.Player
	v     *view.Pool
	th    *layout.Theme
	rects appLayout
	pane  int
	d     *goldentest.Case
}

func parseCase(t *testing.T, d *goldentest.Case) poolCase {
	t.Helper()
	args := goldentest.Args(d)
	c := poolCase{th: layout.Light(goldentest.Float(t, d, "scale", 1)), d: d}
	c.p = loadPlayer(t, args["lesson"], args["scenario"])
	if d.HasArg("step") {
		c.p.GotoStep(goldentest.Int(t, d, "step", 0))
	}
	if d.HasArg("event") {
		c.p.Seek(goldentest.Int(t, d, "event", 0))
	}
	c.pane = goldentest.Int(t, d, "pane", 0)
	if k := args["at"]; k != "" {
		i := firstOfKind(trace.All(c.p.PaneTimeline(c.pane).Events()), k)
		if i < 0 {
			t.Fatalf("%s: no event of kind %q", d.Pos, k)
		}
		c.p.Seek(i + 1)
	}
	c.v = c.p.PaneView(c.pane)
	if r, window := windowOrRect(t, d); window {
		c.rects = appRects(r.W, r.H, c.th, c.p.Panes(), c.p.Variant.Key() == "drop", c.pane)
	} else {
		c.rects = appLayout{pool: r, word: r, lanes: r, parts: r, narr: r, code: r, pane: r}
		// The state word above the lanes, as in a pin pane.
		c.rects.word, c.rects.lanes = r.SplitTop(layout.LineHeight(c.th.Font(layout.Regular, 11))*4.6 + 6)
	}
	return c
}

// windowOrRect reads a case's window=WxH (a window of the app, which
// appRects divides: window is true) or rect=WxH (a rect that size at
// (0,0)). It fails the test when the case gives neither.
func windowOrRect(t *testing.T, d *goldentest.Case) (r layout.Rect, window bool) {
	t.Helper()
	window = d.HasArg("window")
	if !window && !d.HasArg("rect") {
		t.Fatalf("%s: needs window=WxH or rect=WxH", d.Pos)
	}
	key := "rect"
	if window {
		key = "window"
	}
	r.W, r.H = goldentest.Size(t, d, key)
	return r, window
}

// intArg is the whole number argument key gives; the case fails when it
// gives none or not a whole number.
func intArg(t *testing.T, d *goldentest.Case, key string) int {
	t.Helper()
	var n int
	d.ScanArgs(t, key, &n)
	return n
}

func firstOfKind(evs []trace.Event, kind string) int {
	for i, e := range evs {
		if e.Kind.String() == kind {
			return i
		}
	}
	return -1
}

// players caches the played lessons and scenarios (playing lesson 3's
// three variants takes a while); each case seeks its own position.
var players struct {
	sync.Mutex
	m map[string]*player.Player
}

func loadPlayer(t *testing.T, lesson, scn string) *player.Player {
	t.Helper()
	players.Lock()
	defer players.Unlock()
	if players.m == nil {
		players.m = map[string]*player.Player{}
	}
	key := lesson + "|" + scn
	if p := players.m[key]; p != nil {
		p.GotoStep(0)
		return p
	}
	var p *player.Player
	var err error
	switch {
	case lesson != "":
		p, err = player.FromLessonName(lesson)
	case scn != "":
		var src []byte
		src, err = os.ReadFile(filepath.Join("..", "..", "lessons", "scenarios", scn))
		if err == nil {
			p, err = player.FromScenario(scn, string(src))
		}
	default:
		t.Fatal("needs lesson= or scenario=")
	}
	if err != nil {
		t.Fatal(err)
	}
	players.m[key] = p
	return p
}

// scenarioPlayer plays scenario src, called name, headless
// (player.FromScenario): a fresh player each call, not one of loadPlayer's.
func scenarioPlayer(t *testing.T, name, src string) *player.Player {
	t.Helper()
	p, err := player.FromScenario(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// loadStep is the player of lesson name (loadPlayer's) at the start of
// step (0-based).
func loadStep(t *testing.T, name string, step int) *player.Player {
	t.Helper()
	p := loadPlayer(t, name, "")
	p.GotoStep(step)
	return p
}

// appLayout is where viz/app puts each of these scenes in a window.
type appLayout struct {
	pool, word, lanes, parts, narr, code, counters, pane layout.Rect
	// The frames of the drop pane's panels (their outsides).
	paneFrame, partsFrame layout.Rect
}

// appRects is the arithmetic of viz/app's drawPlayer (one pane) and of
// drawCompare with drawDropPane (side-by-side panes of drop variants, pane
// i) or its pin panes (pin variants), repeated here because viz/app
// imports Ebitengine. The panels' frames are laid out with LayoutPanel as
// the app draws them; the rects are the panels' insides. Keep it in step
// with those functions.
func appRects(w, h float64, th *layout.Theme, panes int, drops bool, pane int) appLayout {
	var a appLayout
	var l layout.List
	panel := func(r layout.Rect, title string) layout.Rect { return scene.LayoutPanel(&l, r, title, th) }
	full := layout.Rect{W: w, H: h}.Inset(8)
	_, rest := full.SplitTop(layout.LineHeight(th.Font(layout.Bold, 14)) + 10)
	rest, _ = rest.SplitBottom(th.Px(70))
	if panes > 1 {
		frac := 0.64
		if panes > 2 {
			frac = 0.72
		}
		ps, right := rest.SplitLeft(rest.W * frac)
		if drops {
			// The rule `auto` follows, above the panes.
			_, ps = ps.SplitTop(layout.LineHeight(th.Font(layout.Regular, 12))*2 + 14)
		}
		pw := ps.W / float64(panes)
		r := layout.Rect{X: ps.X + float64(pane)*pw, Y: ps.Y, W: pw, H: ps.H}
		a.pane, a.paneFrame = r, r.Inset(2)
		inner := panel(a.paneFrame, "pane")
		if drops {
			lh := layout.LineHeight(th.Font(layout.Regular, 12))
			_, prest := inner.SplitTop(lh*2 + 6)
			poolR, below := prest.SplitTop(prest.H * 0.58)
			a.pool = poolR
			partsR, countersR := below.SplitBottom(th.Px(44))
			a.partsFrame = partsR.Inset(1)
			a.parts = panel(a.partsFrame, "Mapping table: 128 partitions")
			a.counters = countersR.Inset(1)
			a.lanes, a.word = a.parts, a.parts
		} else {
			poolR, below := inner.SplitTop(inner.H * 0.30)
			a.pool = poolR
			wordR, below := below.SplitTop(layout.LineHeight(th.Font(layout.Regular, 11))*4.6 + 6)
			a.word = wordR.Inset(1)
			lanesR, countersR := below.SplitBottom(th.Px(44))
			a.lanes = panel(lanesR.Inset(1), "Backends: the word each one holds")
			a.counters = countersR.Inset(1)
			a.parts = a.lanes
		}
		narrR, codeR := right.SplitTop(right.H * 0.52)
		if panes > 2 {
			narrR, codeR = right.SplitTop(right.H * 0.46)
		}
		a.narr = panel(narrR.Inset(2), "Lesson")
		ch := codeR.H / float64(panes)
		a.code = panel(layout.Rect{X: codeR.X, Y: codeR.Y + float64(pane)*ch, W: codeR.W, H: ch}.Inset(2), "Code")
		return a
	}
	rest, counters := rest.SplitBottom(th.Px(44))
	a.counters = counters.Inset(2)
	left, right := rest.SplitLeft(rest.W * 0.6)
	poolR, lower := left.SplitTop(left.H * 0.62)
	inner := panel(poolR.Inset(2), "Shared buffer pool (BufferDescriptors)")
	inner, wordR := inner.SplitBottom(layout.LineHeight(th.Font(layout.Regular, 11))*4.6 + 6)
	a.pool, a.word = inner, wordR.Inset(1)
	lanesR, partsR := lower.SplitLeft(lower.W * 0.55)
	a.lanes = panel(lanesR.Inset(2), "Backends")
	a.parts = panel(partsR.Inset(2), "Mapping table: 128 partitions")
	narrR, codeR := right.SplitTop(right.H * 0.58)
	a.narr = panel(narrR.Inset(2), "Lesson")
	a.code = panel(codeR.Inset(2), "Code: the modelled PostgreSQL function")
	a.pane = a.pool
	return a
}

// layoutDropPane lays out pane c.pane of the drop race as drawDropPane
// does (less its two status lines, which the app draws itself): the
// variant's panel (titled with the variant's name, not the app's longer
// variantTitle), its pool, the mapping table and the drop counters.
func layoutDropPane(l *layout.List, c poolCase) {
	scene.LayoutPanel(l, c.rects.paneFrame, c.p.PaneVariant(c.pane).String(), c.th)
	layoutPool(l, c.rects.pool, c.v, c.th)
	scene.LayoutPanel(l, c.rects.partsFrame, "Mapping table: 128 partitions", c.th)
	scene.LayoutPartitions(l, c.rects.parts, c.v, c.th)
	scene.LayoutCounterRow(l, c.rects.counters, scene.DropCounters(c.v.Counters()), c.th)
}

// layoutPool lays out v's pool scene in r, from a fresh scene
// (PoolScene.Reset, then Layout), and returns the scene.
func layoutPool(l *layout.List, r layout.Rect, v *view.Pool, th *layout.Theme) *scene.PoolScene {
	var s scene.PoolScene
	s.Reset(v.NBuffers())
	s.Layout(l, r, v, th)
	return &s
}

func rectString(r layout.Rect) string {
	return fmt.Sprintf("%.1f,%.1f %.1fx%.1f", r.X, r.Y, r.W, r.H)
}

// filtered is l's golden form with only the items keep accepts (and every
// overflow).
func filtered(l *layout.List, keep func(layout.Item) bool) string {
	var f layout.List
	for _, it := range l.Items {
		if keep(it) {
			f.Items = append(f.Items, it)
		}
	}
	f.Overflows = l.Overflows
	return f.String()
}

// heatString is the heat map's layout: the image item and the items that
// are not legend swatches, then how many texels have each colour.
func heatString(l *layout.List, r layout.Rect) string {
	var b strings.Builder
	fmt.Fprintf(&b, "pool rect %s\n", rectString(r))
	b.WriteString(filtered(l, func(it layout.Item) bool { return it.Role != "legend" || it.Kind == layout.KText }))
	for _, it := range l.Items {
		if it.Kind != layout.KImage {
			continue
		}
		count := map[string]int{}
		for i := 0; i+3 < len(it.Pixels); i += 4 {
			p := it.Pixels[i : i+4]
			count[fmt.Sprintf("#%02x%02x%02x%02x", p[0], p[1], p[2], p[3])]++
		}
		var cs []string
		for k := range count {
			cs = append(cs, k)
		}
		sort.Strings(cs)
		fmt.Fprintf(&b, "texels of %s (key %016x):", it.Role, it.Key)
		for _, k := range cs {
			fmt.Fprintf(&b, " %s×%d", k, count[k])
		}
		b.WriteString("\n")
	}
	return b.String()
}

// proseString lays out the step's prose and question in the narration
// rect, unrevealed, revealed with the first choice taken, and held (a
// class), and prints each line of words as one line.
func proseString(t *testing.T, c poolCase) string {
	t.Helper()
	st := c.p.Steps[c.p.Step()]
	pr := scene.Prose{Size: 14}
	r := c.rects.narr
	var b strings.Builder
	fmt.Fprintf(&b, "narration rect %s\n", rectString(r))
	// Open, revealed with the first choice taken, and (a class) the first
	// choice held for the teacher's reveal.
	for _, at := range []struct {
		chosen   int
		revealed bool
		name     string
	}{{-1, false, "revealed=false"}, {0, true, "revealed=true"}, {0, false, "held (a class)"}} {
		var l layout.List
		// Below the step's title, which drawNarration draws itself.
		y := pr.LayoutBlocks(&l, r, r.Y+layout.LineHeight(c.th.Font(layout.Bold, 15))+4, st.Prose, c.th)
		var ui scene.QuestionUI
		if q := st.Predict; q != nil {
			y, ui = pr.LayoutQuestion(&l, r, y+4, q, at.chosen, at.revealed, c.th, nil)
		}
		fmt.Fprintf(&b, "%s: ends at y %.1f, %d choice boxes\n", at.name, y, len(ui.Choices))
		b.WriteString(linesString(&l))
		if st.Predict == nil {
			break
		}
	}
	return b.String()
}

// linesString prints l's text runs a line at a time (runs of one role on
// one baseline joined by spaces, with the line's left edge, width and the
// fonts used), its boxes, and its overflows.
func linesString(l *layout.List) string {
	var b strings.Builder
	type line struct {
		role  string
		y, x0 float64
		x1    float64
		words []string
		fonts map[string]bool
	}
	var cur *line
	flush := func() {
		if cur == nil {
			return
		}
		var fs []string
		for f := range cur.fonts {
			fs = append(fs, f)
		}
		sort.Strings(fs)
		fmt.Fprintf(&b, "line %-16s y%.1f x%.1f w%.1f [%s] %q\n", cur.role, cur.y, cur.x0, cur.x1-cur.x0, strings.Join(fs, " "), strings.Join(cur.words, " "))
		cur = nil
	}
	for _, it := range l.Items {
		if it.Kind != layout.KText {
			flush()
			b.WriteString(it.String() + "\n")
			continue
		}
		if cur != nil && (cur.role != it.Role || cur.y != it.Rect.Y) {
			flush()
		}
		if cur == nil {
			cur = &line{role: it.Role, y: it.Rect.Y, x0: it.Rect.X, fonts: map[string]bool{}}
		}
		cur.words = append(cur.words, it.Text)
		cur.x1 = it.Rect.X + it.Rect.W
		cur.fonts[fmt.Sprintf("%s %.1f", it.Font.Style, it.Font.Size)] = true
	}
	flush()
	b.WriteString((&layout.List{Overflows: l.Overflows}).String())
	return b.String()
}

// layoutAll lays out lesson 1's step 9 (pool, lanes, state word,
// partitions, code, prose and question) as viz/app arranges it in a w×h
// window with theme th, into one list.
func layoutAll(t *testing.T, w, h float64, th *layout.Theme) *layout.List {
	t.Helper()
	p := loadStep(t, "shared-buffers", 8)
	v := p.View()
	a := appRects(w, h, th, 1, false, 0)
	var l layout.List
	var s scene.PoolScene
	s.Layout(&l, a.pool, v, th)
	e, ok := scene.LastStateWordEvent(p.TL.Events(), p.Pos(), 4096)
	scene.LayoutStateWord(&l, a.word, e, ok, v, th)
	scene.LayoutLanes(&l, a.lanes, v, th)
	scene.LayoutPartitions(&l, a.parts, v, th)
	scene.LayoutCode(&l, a.code, v, th)
	pr := scene.Prose{Size: 14}
	st := p.Steps[p.Step()]
	y := pr.LayoutBlocks(&l, a.narr, a.narr.Y, st.Prose, th)
	if st.Predict == nil {
		t.Fatal("lesson 1 step 9 has no question")
	}
	pr.LayoutQuestion(&l, a.narr, y+4, st.Predict, -1, false, th, nil)
	return &l
}

// In presentation mode (viz/app's theme scale) every text run of the pool
// scene and its panels is laid out larger: laid out in the same window,
// each role's first run is scale times the size it has at scale 1, and the
// smallest text grows by the same factor.
func TestPresentationScaleLaysOutLargerText(t *testing.T) {
	normal := layoutAll(t, 1920, 1080, layout.Light(1))
	big := layoutAll(t, 1920, 1080, layout.Light(presentationScale))
	first := func(l *layout.List) map[string]float64 {
		m := map[string]float64{}
		for _, it := range l.Texts("") {
			if _, ok := m[it.Role]; !ok {
				m[it.Role] = it.Font.Size
			}
		}
		return m
	}
	fn, fb := first(normal), first(big)
	compared := 0
	for role, size := range fn {
		bs, ok := fb[role]
		if !ok {
			continue
		}
		compared++
		if d := bs - size*presentationScale; d > 1e-9 || d < -1e-9 {
			t.Errorf("role %q: %.2f px at scale 1, %.2f px at %.2f (want %.2f)", role, size, bs, presentationScale, size*presentationScale)
		}
	}
	if compared < 10 {
		t.Fatalf("only %d roles in both layouts", compared)
	}
	if mn, mb := normal.MinTextSize(), big.MinTextSize(); mb < mn*presentationScale-1e-9 {
		t.Errorf("smallest text %.2f px at scale 1 but %.2f px in presentation mode", mn, mb)
	}
}

// At 1920x1080 no text of the pool scene and its panels is smaller than
// 8.5 px (the state word's flag names; the cells' badges are 9 px), and
// the pool scene shows every one of lesson 1's 16 buffers with its id.
func TestPoolTextSizesAt1920(t *testing.T) {
	l := layoutAll(t, 1920, 1080, layout.Light(1))
	if m := l.MinTextSize(); m < 8.5 {
		for _, it := range l.Texts("") {
			if it.Font.Size < 8.5 {
				t.Errorf("%s %q at %.1f px", it.Role, it.Text, it.Font.Size)
			}
		}
	}
	for id := 0; id < 16; id++ {
		ts := l.Texts(fmt.Sprintf("cell %d", id))
		if len(ts) == 0 || ts[0].Text != fmt.Sprintf("#%d", id) {
			t.Errorf("cell %d: runs %v, want its id first", id, ts)
		}
	}
}

// cellRects are the pool cells a layout drew (their fills), in order.
func cellRects(l *layout.List) []struct {
	id int
	r  layout.Rect
} {
	var out []struct {
		id int
		r  layout.Rect
	}
	for _, it := range l.Items {
		var id int
		if it.Kind != layout.KFill || !strings.HasPrefix(it.Role, "cell ") {
			continue
		}
		if _, err := fmt.Sscanf(it.Role, "cell %d", &id); err != nil {
			continue
		}
		out = append(out, struct {
			id int
			r  layout.Rect
		}{id, it.Rect})
	}
	return out
}

// BufferAt answers from the rects of the last layout: the centre of each
// cell is that cell's buffer; in the heat map, the centre of texel (c, r)
// is buffer First + r*cols + c, and points outside the map or on its
// padding are no buffer.
func TestPoolSceneBufferAt(t *testing.T) {
	th := layout.Light(1)
	p := loadStep(t, "shared-buffers", 8)
	var s scene.PoolScene
	var l layout.List
	r := layout.Rect{X: 10, Y: 20, W: 700, H: 400}
	s.Layout(&l, r, p.View(), th)
	cells := cellRects(&l)
	for _, c := range cells {
		got, ok := s.BufferAt(centre(c.r))
		if !ok || got != c.id {
			t.Errorf("centre of cell %d: BufferAt = %d, %v", c.id, got, ok)
		}
	}
	if len(cells) != 16 {
		t.Fatalf("%d cells laid out, want 16", len(cells))
	}
	if _, ok := s.BufferAt(r.X+r.W-1, r.Y+r.H-1); ok {
		t.Errorf("the empty corner of the grid is a buffer")
	}

	big := loadPlayer(t, "", "big-pool.scn")
	big.Seek(30000)
	var hs scene.PoolScene
	l = layout.List{}
	hs.Layout(&l, r, big.View(), th)
	var img layout.Item
	for _, it := range l.Items {
		if it.Kind == layout.KImage {
			img = it
		}
	}
	if img.Cols == 0 {
		t.Fatal("no heat map laid out for 16384 buffers")
	}
	cw, ch := img.Rect.W/float64(img.Cols), img.Rect.H/float64(img.Rows)
	for _, id := range []int{0, 1, img.Cols - 1, img.Cols, 999, 16383} {
		c, row := id%img.Cols, id/img.Cols
		got, ok := hs.BufferAt(img.Rect.X+(float64(c)+0.5)*cw, img.Rect.Y+(float64(row)+0.5)*ch)
		if !ok || got != id {
			t.Errorf("texel of buffer %d: BufferAt = %d, %v", id, got, ok)
		}
	}
	if pad := img.Cols*img.Rows - 16384; pad > 0 {
		if got, ok := hs.BufferAt(img.Rect.X+img.Rect.W-cw/2, img.Rect.Y+img.Rect.H-ch/2); ok {
			t.Errorf("padding texel: BufferAt = %d, want none", got)
		}
	}
	if _, ok := hs.BufferAt(img.Rect.X-1, img.Rect.Y); ok {
		t.Errorf("left of the heat map is a buffer")
	}
}

// The heat map's image item: one opaque texel per descriptor in view, in
// heatColour's colours, and a Key that stays while the pixels stay (so
// the painter uploads nothing) and changes when the pool or the zoom
// changes them.
func TestHeatMapKeyFollowsPixels(t *testing.T) {
	th := layout.Light(1)
	p := loadPlayer(t, "", "big-pool.scn")
	r := layout.Rect{W: 700, H: 400}
	var s scene.PoolScene
	heat := func() layout.Item {
		var l layout.List
		s.Layout(&l, r, p.View(), th)
		for _, it := range l.Items {
			if it.Kind == layout.KImage {
				it.Pixels = append([]byte(nil), it.Pixels...)
				return it
			}
		}
		t.Fatal("no heat map")
		return layout.Item{}
	}
	p.Seek(30000)
	a := heat()
	if a.Role != "heat map" || len(a.Pixels) != 4*a.Cols*a.Rows {
		t.Fatalf("image %q: %d bytes for %dx%d", a.Role, len(a.Pixels), a.Cols, a.Rows)
	}
	// Buffers 0..999 hold blocks with usage 1; the rest are free.
	for i, want := range map[int][4]byte{0: rgba(th.UsageRamp[1]), 999: rgba(th.UsageRamp[1]), 1000: rgba(th.Free), 16383: rgba(th.Free)} {
		if got := [4]byte(a.Pixels[4*i : 4*i+4]); got != want {
			t.Errorf("texel %d = %v, want %v", i, got, want)
		}
	}
	if b := heat(); b.Key != a.Key || string(b.Pixels) != string(a.Pixels) {
		t.Errorf("the same position laid out twice: keys %x, %x; pixels equal %v", a.Key, b.Key, string(b.Pixels) == string(a.Pixels))
	}
	p.Seek(40000)
	c := heat()
	if string(c.Pixels) == string(a.Pixels) {
		t.Fatal("10000 events later the heat map has not changed")
	}
	if c.Key == a.Key {
		t.Errorf("pixels changed but the key stayed %x", a.Key)
	}
	s.ZoomIn(16384, 0)
	if d := heat(); d.Key == c.Key || s.Zoom != 8192 {
		t.Errorf("zoomed in to %d: key %x, was %x", s.Zoom, d.Key, c.Key)
	}
}

func rgba(c interface{ RGBA() (r, g, b, a uint32) }) [4]byte {
	r, g, b, a := c.RGBA()
	return [4]byte{byte(r >> 8), byte(g >> 8), byte(b >> 8), byte(a >> 8)}
}
