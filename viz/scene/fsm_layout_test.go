package scene_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"bufferlab/internal/goldentest"
	"bufferlab/lessons"
	"bufferlab/viz/frame"
	"bufferlab/viz/frame/framecheck"
	"bufferlab/viz/fsmview"
	"bufferlab/viz/layout"
	"bufferlab/viz/player"
	"bufferlab/viz/scene"
)

// TestFSMLayoutGolden runs testdata/fsm_layout.txt: the FSM scene laid
// out from lesson states where the app's frame (viz/frame) puts it, at a
// viewport and in a mode. One directive:
//
//	fsm lesson=NAME event=N [pane=I] size=WxH [presentation] [tab=lesson|scene] [show=text|all|boxes|overflows] [roles=P,...]
//
// lesson and event choose the state (the player seeks to event N); pane
// the variant of a side-by-side lesson (0 the first). size and
// presentation are the window and the mode; tab the tab shown where the
// frame has tabs (default scene: on a phone the scene is a tab away from
// the lesson). The scene is laid out again, alone, in the rectangle the
// frame gave it, with the frame's theme (its scale and its text floor).
// The output starts with a summary line, then by show: text (default)
// every text run, all every item, boxes every fill and stroke, overflows
// none; roles keeps only the items whose role starts with one of the
// prefixes. Every OVERFLOW line is always printed.
//
// Regenerate with: go test ./viz/scene -run FSMLayoutGolden -rewrite
func TestFSMLayoutGolden(t *testing.T) {
	goldentest.RunFile(t, "testdata/fsm_layout.txt", goldentest.Directives{"fsm": fsmLayoutCase})
}

// fsmLayoutCase is the output of an fsm case (see TestFSMLayoutGolden).
func fsmLayoutCase(t *testing.T, d *goldentest.Case) (string, error) {
	args := goldentest.Args(d)
	w, h := goldentest.Size(t, d, "size")
	_, pres := args["presentation"]
	tab := frame.TabScene
	if args["tab"] == "lesson" {
		tab = frame.TabLesson
	}
	event, pane := goldentest.Int(t, d, "event", 0), goldentest.Int(t, d, "pane", 0)
	v, rel, _ := fsmState(t, args["lesson"], event, pane)
	rects, th := frameSceneRects(t, args["lesson"], event, w, h, pres, tab)
	if pane >= len(rects) {
		return "", fmt.Errorf("the frame shows %d scene rectangles, no pane %d", len(rects), pane)
	}
	var l layout.List
	scene.LayoutFSMScene(&l, rects[pane], v, rel, th)
	return fsmGolden(&l, rects[pane], th, args["show"], args["roles"]), nil
}

// noHooks are frame targets that do nothing: the frames are only laid out.
var noHooks = frame.Hooks{
	OpenLesson: func(int) {}, Menu: func() {}, Help: func() {}, Fast: func() {}, Pacing: func() {},
	Forward: func(f func()) { f() }, Dismiss: func() {},
}

// frameSceneRects lays out the frame of lesson name at event position pos
// in a w×h window (in presentation mode or not, showing tab where it has
// tabs) and returns the rectangles it gives the FSM scene (one a pane),
// and its theme: the clipped groups that hold the heap panel, in order.
// None when the frame does not show the scene (a phone's lesson tab).
func frameSceneRects(t *testing.T, name string, pos int, w, h float64, pres bool, tab frame.Tab) ([]layout.Rect, *layout.Theme) {
	t.Helper()
	p := fsmPlayer(t, name)
	p.Seek(pos)
	all := allLessons(t)
	var st frame.State
	sc := frame.Screen{Lessons: lessons.Entries(all), Player: p}
	in := frame.Input{W: w, H: h, Presentation: pres}
	var l layout.List
	frame.Build(&l, &st, &sc, in, noHooks) // opens the step
	st.Tab = tab
	l = layout.List{}
	plan := frame.Build(&l, &st, &sc, in, noHooks)
	return heapPanelRects(&l), plan.Theme
}

// heapPanelRects are the rectangles of the clipped groups of a frame's
// list that hold an FSM scene's heap panel (role heap… or local…), in
// order: one a pane.
func heapPanelRects(l *layout.List) []layout.Rect {
	var rects []layout.Rect
	var stack []layout.Rect
	seen := false
	for _, it := range l.Items {
		switch it.Kind {
		case layout.KClip:
			stack, seen = append(stack, it.Rect), false
		case layout.KUnclip:
			stack = stack[:len(stack)-1]
		}
		if !seen && len(stack) > 0 && (strings.HasPrefix(it.Role, "heap") || strings.HasPrefix(it.Role, "local")) {
			rects, seen = append(rects, stack[len(stack)-1]), true
		}
	}
	return rects
}

// fsmGolden is a case's output: a summary, the items show and roles keep,
// and every overflow.
func fsmGolden(l *layout.List, r layout.Rect, th *layout.Theme, show, roles string) string {
	var b strings.Builder
	texts := l.Texts("")
	fmt.Fprintf(&b, "rect %s,%s %sx%s, text floor %s px: %d items, %d text runs, smallest text %s px, %d overflows\n",
		px(r.X), px(r.Y), px(r.W), px(r.H), px(th.MinPx), len(l.Items), len(texts), px(l.MinTextSize()), len(l.Overflows))
	var prefixes []string
	if roles != "" {
		prefixes = strings.Split(roles, ",")
	}
	keep := func(it layout.Item) bool {
		switch show {
		case "", "text":
			if it.Kind != layout.KText {
				return false
			}
		case "boxes":
			if it.Kind != layout.KFill && it.Kind != layout.KStroke {
				return false
			}
		case "overflows":
			return false
		}
		if prefixes == nil {
			return true
		}
		for _, p := range prefixes {
			if strings.HasPrefix(it.Role, p) {
				return true
			}
		}
		return false
	}
	for _, it := range l.Items {
		if keep(it) {
			b.WriteString(it.String())
			b.WriteByte('\n')
		}
	}
	s := l.String()
	if i := strings.Index(s, "OVERFLOW "); i >= 0 {
		b.WriteString(s[i:])
	}
	return b.String()
}

var fsmPlayers = map[string]*player.Player{}

// fsmPlayer is the player of lesson name (one per lesson, kept).
func fsmPlayer(t *testing.T, name string) *player.Player {
	t.Helper()
	p := fsmPlayers[name]
	if p == nil {
		p = lessonPlayer(t, name)
		fsmPlayers[name] = p
	}
	return p
}

// fsmState plays lesson name to event position pos and returns the view
// of pane (0 alone) and the heap the app would lay out: for a single
// scene the heap of the current event's operation (else the first), for
// a pane the first heap (as the FSM registration's Layout and Panes do),
// and the lesson's number of panes.
func fsmState(t *testing.T, name string, pos, pane int) (*fsmview.View, uint32, int) {
	t.Helper()
	p := fsmPlayer(t, name)
	p.Seek(pos)
	if p.Pos() != pos {
		t.Fatalf("lesson %s: seeking to event %d reached %d", name, pos, p.Pos())
	}
	var v *fsmview.View
	if p.Panes() > 1 {
		v = p.PaneFSMView(pane)
	} else {
		v = p.FSMView()
	}
	var rel uint32
	if hs := v.Heaps(); len(hs) > 0 {
		rel = hs[0].Rel
	}
	if e, ok := v.Current(); ok && p.Panes() == 1 {
		if ln := v.Lane(e.Actor); ln.Search.HasOp {
			rel = ln.Search.Rel
		}
	}
	return v, rel, p.Panes()
}

// px writes a length rounded to 0.1 px, as layout's golden form does.
func px(v float64) string {
	return strings.TrimSuffix(strconv.FormatFloat(v, 'f', 1, 64), ".0")
}

// fsmViewports are the viewports the frame must hold at
// (framecheck.Viewports), each in both modes.
type fsmViewport struct {
	w, h float64
	pres bool
}

func fsmViewports() []fsmViewport {
	var out []fsmViewport
	for _, vp := range framecheck.Viewports {
		for _, pres := range []bool{false, true} {
			out = append(out, fsmViewport{vp[0], vp[1], pres})
		}
	}
	return out
}

func (vp fsmViewport) String() string {
	if vp.pres {
		return fmt.Sprintf("%.0fx%.0f presentation", vp.w, vp.h)
	}
	return fmt.Sprintf("%.0fx%.0f", vp.w, vp.h)
}

// layoutIn lays the scene of lesson name at event pos (pane) out where
// the frame puts it at vp (on the scene tab where there are tabs).
func layoutIn(t *testing.T, name string, pos, pane int, vp fsmViewport) (*layout.List, layout.Rect, *fsmview.View, uint32) {
	t.Helper()
	v, rel, _ := fsmState(t, name, pos, pane)
	rects, th := frameSceneRects(t, name, pos, vp.w, vp.h, vp.pres, frame.TabScene)
	if pane >= len(rects) {
		t.Fatalf("%s@%d at %s: the frame shows %d scene rectangles, no pane %d", name, pos, vp, len(rects), pane)
	}
	var l layout.List
	scene.LayoutFSMScene(&l, rects[pane], v, rel, th)
	return &l, rects[pane], v, rel
}

// inside reports whether b lies in r (to half a pixel).
func inside(b, r layout.Rect) bool {
	return b.X >= r.X-0.5 && b.Y >= r.Y-0.5 && b.X+b.W <= r.X+r.W+0.5 && b.Y+b.H <= r.Y+r.H+0.5
}

// The two FSM lessons hold at every viewport in both modes: at the start
// of every step and at events through each lesson (every 40th, every
// 400th with -short), the scene laid out in every rectangle the frame
// gives it at that viewport (both panes, the scene tab and the column)
// records no overflow, and every text run and box lies inside the
// rectangle.
func TestFSMScenesHoldAtEveryViewport(t *testing.T) {
	every := 40
	if testing.Short() {
		every = 400
	}
	for _, name := range []string{"free-space-map", "small-table-skip"} {
		ls, err := lessons.Named(name)
		if err != nil {
			t.Fatal(err)
		}
		p := fsmPlayer(t, name)
		var stepStarts []int
		for k := range p.Steps {
			p.GotoStep(k)
			stepStarts = append(stepStarts, p.Pos())
		}
		p.Seek(p.Len())
		last := p.Len()
		for _, vp := range fsmViewports() {
			// Every rectangle the frame gives the scene at this
			// viewport, at any step and on any tab: a pane's by pane.
			fs, err := framecheck.Lessons([]*lessons.Lesson{ls}, vp.w, vp.h, vp.pres)
			if err != nil {
				t.Fatal(err)
			}
			type paneRect struct {
				pane int
				r    layout.Rect
			}
			seen := map[paneRect]bool{}
			var rects []paneRect
			for _, f := range fs {
				for pane, r := range heapPanelRects(&f.List) {
					if pr := (paneRect{pane, r}); !seen[pr] {
						seen[pr] = true
						rects = append(rects, pr)
					}
				}
			}
			th := fs[0].Plan.Theme
			positions := append([]int{}, stepStarts...)
			for pos := 0; pos <= last; pos += every {
				positions = append(positions, pos)
			}
			for _, pos := range positions {
				for _, pr := range rects {
					v, rel, _ := fsmState(t, name, pos, pr.pane)
					var l layout.List
					scene.LayoutFSMScene(&l, pr.r, v, rel, th)
					where := fmt.Sprintf("%s@%d pane %d at %s in %.0fx%.0f", name, pos, pr.pane, vp, pr.r.W, pr.r.H)
					for _, o := range l.Overflows {
						t.Errorf("%s: overflow %s %q: needs %.1f px %s, has %.1f", where, o.Role, o.Text, o.Need, o.Axis, o.Have)
					}
					for _, it := range l.Items {
						if (it.Kind == layout.KText || it.Kind == layout.KFill || it.Kind == layout.KStroke) && !inside(it.Rect, pr.r) {
							t.Errorf("%s: %s lies outside", where, it)
						}
					}
				}
			}
		}
	}
}

// Wherever the frame shows the scene, each of the 13 depths of the FSM
// page's tree that it lays out has node boxes, or the row that stands for
// the depths not drawn names it; the nodes lie inside the scene.
func TestFSMTreeEveryDepthDrawnOrElided(t *testing.T) {
	states := []struct {
		lesson    string
		pos, pane int
	}{
		{"free-space-map", 310, 0},    // the end of A's VACUUM: fsm_set_avail's path, leaf to root
		{"free-space-map", 672, 0},    // B's search climbs in the leaf page
		{"free-space-map", 5462, 0},   // B's last insert: 205 < 206
		{"small-table-skip", 4266, 0}, // fsm=always beside small-skip
		{"small-table-skip", 7384, 0}, // the end of lesson 6: the root page's tree
	}
	elidedRe := regexp.MustCompile(`(\d+)–(\d+)`)
	trees := 0
	for _, st := range states {
		for _, vp := range fsmViewports() {
			name := fmt.Sprintf("%s@%d/pane%d at %s", st.lesson, st.pos, st.pane, vp)
			l, r, _, _ := layoutIn(t, st.lesson, st.pos, st.pane, vp)
			if len(l.Texts(scene.FSMTreeDepthRole(0))) == 0 {
				continue // no tree at this size: the scene chose other parts
			}
			trees++
			named := map[int]bool{}
			for _, it := range l.Texts(scene.FSMTreeElidedRole) {
				if m := elidedRe.FindStringSubmatch(it.Text); m != nil {
					a, _ := strconv.Atoi(m[1])
					b, _ := strconv.Atoi(m[2])
					for d := a; d <= b; d++ {
						named[d] = true
					}
				}
			}
			for d := 0; d <= 12; d++ {
				n := 0
				for _, it := range l.Items {
					if it.Role != scene.FSMTreeDepthRole(d) {
						continue
					}
					n++
					if !inside(it.Rect, r) {
						t.Errorf("%s: depth %d: %s lies outside %v", name, d, it, r)
					}
				}
				if n > 0 && named[d] {
					t.Errorf("%s: depth %d is drawn and named as not drawn", name, d)
				}
				if n == 0 && !named[d] {
					t.Errorf("%s: depth %d is neither drawn nor named as not drawn", name, d)
				}
			}
		}
	}
	if trees < 20 {
		t.Errorf("the tree is laid out in %d of the cases; expected most of them", trees)
	}
}

// Lesson 5's point at "Not full, but not enough": the insert wants 6585 B,
// category 206, one above the 205 its full pages are recorded at. At
// every viewport, in both modes, a text run says "≥ 206" whole inside
// the scene's rectangle, and the scene says 205 of the three full pages
// (the heap's columns, its line, or the tree's leaves).
func TestFSMNotEnoughShows206(t *testing.T) {
	for _, vp := range fsmViewports() {
		l, r, _, _ := layoutIn(t, "free-space-map", 5462, 0, vp)
		seen206 := false
		for _, it := range l.Texts("") {
			i := strings.Index(it.Text, "≥ 206")
			if i < 0 {
				continue
			}
			end := it.Rect.X + layout.Width(it.Text[:i+len("≥ 206")], it.Font)
			if it.Rect.X >= r.X && end <= r.X+r.W {
				seen206 = true
			}
		}
		if !seen206 {
			t.Errorf("%s: no text run shows \"≥ 206\" inside %v", vp, r)
		}
		cat205 := 0
		for _, it := range l.Texts("") {
			switch {
			case strings.HasPrefix(it.Role, "heap blk ") && (it.Text == "cat 205" || it.Text == "205"):
				cat205++
			case it.Role == "heap summary" && strings.Contains(it.Text, "205 205 205"):
				cat205 += 3
			case it.Role == scene.FSMTreeDepthRole(12) && it.Text == "205":
				cat205++
			}
		}
		if cat205 < 3 {
			t.Errorf("%s: %d of the three full pages shown at category 205", vp, cat205)
		}
	}
}

// Lesson 6 side by side: the fsm=always pane lays out the tree of an FSM
// page, the small-skip pane the backend's local map instead (blocks 0..2
// of the 3 it was built for, block 2 looked at), in panes of the same
// size; nothing is smaller than the frame's floor, and laying a scene out
// twice gives the same list.
func TestFSMSmallSkipPaneAndDeterminism(t *testing.T) {
	desk := fsmViewport{1280, 800, false}
	always, ra, _, _ := layoutIn(t, "small-table-skip", 4266, 0, desk)
	skip, rs, _, _ := layoutIn(t, "small-table-skip", 4266, 1, desk)
	if ra.W != rs.W || ra.H != rs.H || rs.X <= ra.X {
		t.Fatalf("panes %v and %v: want the same size, side by side", ra, rs)
	}
	if len(always.Texts(scene.FSMTreeDepthRole(12))) == 0 || len(always.Texts("local blk 0")) != 0 {
		t.Errorf("the fsm=always pane should lay out the tree and no local map")
	}
	for b := 0; b < 3; b++ {
		if len(skip.Texts(fmt.Sprintf("local blk %d", b))) == 0 {
			t.Errorf("the small-skip pane does not lay out block %d of the local map", b)
		}
	}
	if len(skip.Texts(scene.FSMTreeDepthRole(0))) != 0 {
		t.Errorf("the small-skip pane lays out a tree; it has no map to show")
	}
	for _, vp := range fsmViewports() {
		for _, st := range []struct {
			lesson    string
			pos, pane int
		}{{"free-space-map", 672, 0}, {"free-space-map", 5462, 0}, {"small-table-skip", 4266, 1}} {
			a, _, _, _ := layoutIn(t, st.lesson, st.pos, st.pane, vp)
			_, th := frameSceneRects(t, st.lesson, st.pos, vp.w, vp.h, vp.pres, frame.TabScene)
			if m := a.MinTextSize(); m < th.MinPx {
				t.Errorf("%s@%d at %s: text of %v px, under the floor %v", st.lesson, st.pos, vp, m, th.MinPx)
			}
			b, _, _, _ := layoutIn(t, st.lesson, st.pos, st.pane, vp)
			if a.String() != b.String() {
				t.Errorf("%s@%d at %s: two layouts of the same state differ", st.lesson, st.pos, vp)
			}
		}
	}
}
