package scene_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"bufferlab/lessons"
	"bufferlab/viz/fsmview"
	"bufferlab/viz/layout"
	"bufferlab/viz/player"
	"bufferlab/viz/scene"
)

// TestFSMLayoutGolden runs testdata/fsm_layout.txt: the FSM scene laid
// out from lesson states in the rectangles of a phone, a laptop, a
// monitor and a side-by-side pane. One directive:
//
//	fsm lesson=NAME event=N [pane=I] rect=WxH|app:WxH [scale=S] [show=text|all|boxes|overflows] [roles=P,...]
//
// lesson and event choose the state (the player seeks to event N); pane
// the variant of a side-by-side lesson (0 the first). rect=WxH lays the
// scene out at (0,0) in W×H; rect=app:WxH in the rectangle the desktop
// app gives the scene (or pane I) in a W×H window (see appRect). scale is
// the theme's (1.45: presentation mode). The output starts with a summary
// line, then by show: text (default) every text run, all every item,
// boxes every fill and stroke, overflows none; roles keeps only the items
// whose role starts with one of the prefixes. Every OVERFLOW line is
// always printed.
//
// Regenerate with: go test ./viz/scene -run FSMLayoutGolden -rewrite
func TestFSMLayoutGolden(t *testing.T) {
	datadriven.RunTest(t, "testdata/fsm_layout.txt", func(t *testing.T, d *datadriven.TestData) string {
		if d.Cmd != "fsm" {
			t.Fatalf("%s: unknown directive %q", d.Pos, d.Cmd)
		}
		args := map[string]string{}
		for _, a := range d.CmdArgs {
			args[a.Key] = strings.Join(a.Vals, ",")
		}
		num := func(k string, def float64) float64 {
			s, ok := args[k]
			if !ok {
				return def
			}
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("%s: %s=%q: %v", d.Pos, k, s, err)
			}
			return f
		}
		pane := int(num("pane", 0))
		scale := num("scale", 1)
		v, rel, panes := fsmState(t, args["lesson"], int(num("event", 0)), pane)
		r := parseRect(t, args["rect"], scale, panes, pane)
		th := layout.Light(scale)
		var l layout.List
		scene.LayoutFSMScene(&l, r, v, rel, th)
		return fsmGolden(&l, r, args["show"], args["roles"])
	})
}

// fsmGolden is a case's output: a summary, the items show and roles keep,
// and every overflow.
func fsmGolden(l *layout.List, r layout.Rect, show, roles string) string {
	var b strings.Builder
	texts := l.Texts("")
	fmt.Fprintf(&b, "rect %s,%s %sx%s: %d items, %d text runs, smallest text %s px, %d overflows\n",
		px(r.X), px(r.Y), px(r.W), px(r.H), len(l.Items), len(texts), px(l.MinTextSize()), len(l.Overflows))
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

// fsmState plays lesson name to event position pos and returns the view
// of pane (0 alone) and the heap the app would lay out: for a single
// scene the heap of the current event's operation (else the first), for
// a pane the first heap (as viz/app's drawFSMScene and drawCompare do),
// and the lesson's number of panes.
func fsmState(t *testing.T, name string, pos, pane int) (*fsmview.View, uint32, int) {
	t.Helper()
	p := fsmPlayers[name]
	if p == nil {
		all, err := lessons.All()
		if err != nil {
			t.Fatal(err)
		}
		for _, ls := range all {
			if ls.Name == name {
				if p, err = player.FromLesson(ls); err != nil {
					t.Fatal(err)
				}
			}
		}
		if p == nil {
			t.Fatalf("no lesson %q", name)
		}
		fsmPlayers[name] = p
	}
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

// parseRect reads rect=WxH (at the origin) or rect=app:WxH (appRect).
func parseRect(t *testing.T, s string, scale float64, panes, pane int) layout.Rect {
	t.Helper()
	app := strings.HasPrefix(s, "app:")
	w, h, ok := strings.Cut(strings.TrimPrefix(s, "app:"), "x")
	W, err1 := strconv.Atoi(w)
	H, err2 := strconv.Atoi(h)
	if !ok || err1 != nil || err2 != nil {
		t.Fatalf("rect=%q: want WxH or app:WxH", s)
	}
	if !app {
		return layout.Rect{W: float64(W), H: float64(H)}
	}
	return appRect(float64(W), float64(H), scale, panes, pane)
}

// appRect is the rectangle viz/app gives the FSM scene in a window of w×h
// at theme scale s, following drawPlayer (the window inset 8, the top
// bar, the timeline's 70 px), then drawFSMScene (the left 64%, inset 2,
// inside a panel) for one pane, or drawCompare (the left 64% split in
// panes, each inset 2, inside a panel) for several. It must follow those
// functions; the desktop e2e tests check the same geometry in pixels.
func appRect(w, h, s float64, panes, pane int) layout.Rect {
	th := layout.Light(s)
	full := layout.Rect{W: w, H: h}.Inset(8)
	_, rest := full.SplitTop(layout.LineHeight(th.Font(layout.Bold, 14)) + 10)
	rest, _ = rest.SplitBottom(70 * s)
	left, _ := rest.SplitLeft(rest.W * 0.64)
	var scratch layout.List
	if panes == 1 {
		return scene.LayoutPanel(&scratch, left.Inset(2), "", th)
	}
	pw := left.W / float64(panes)
	r := layout.Rect{X: left.X + float64(pane)*pw, Y: left.Y, W: pw, H: left.H}
	return scene.LayoutPanel(&scratch, r.Inset(2), "", th)
}

// px writes a length rounded to 0.1 px, as layout's golden form does.
func px(v float64) string {
	return strings.TrimSuffix(strconv.FormatFloat(v, 'f', 1, 64), ".0")
}

// fsmRects are the rectangles the assertions lay the scene out in: a
// phone, a laptop, a monitor, the desktop app's scene at 1280×800, and in
// presentation mode at 1280×720 (the narrow layout), as "WxH" or
// "app:WxH" for parseRect, with the theme's scale.
var fsmRects = []struct {
	rect  string
	scale float64
}{
	{"390x844", 1}, {"360x700", 1}, {"1280x720", 1}, {"1920x1080", 1},
	{"app:1280x800", 1}, {"app:1280x720", 1.45}, {"app:700x900", 1},
}

// layoutAt lays the scene of lesson name at event pos (pane) out in one
// of fsmRects.
func layoutAt(t *testing.T, name string, pos, pane int, rect string, scale float64) (*layout.List, layout.Rect, *fsmview.View, uint32) {
	t.Helper()
	v, rel, panes := fsmState(t, name, pos, pane)
	r := parseRect(t, rect, scale, panes, pane)
	var l layout.List
	scene.LayoutFSMScene(&l, r, v, rel, layout.Light(scale))
	return &l, r, v, rel
}

// In every rectangle, narrow panes included (a past bug cut the tree off
// in a side-by-side pane), each of the 13 depths of the FSM page's tree
// is laid out, and every item of a depth lies inside the scene's
// rectangle or the depth is recorded as an overflow. In the presentation
// pane the rows are too short for the nodes: that must be recorded.
func TestFSMTreeEveryDepthLaidOutOrRecorded(t *testing.T) {
	states := []struct {
		lesson    string
		pos, pane int
	}{
		{"free-space-map", 362, 0},    // B's search climbs in the leaf page
		{"free-space-map", 5152, 0},   // the end: 205 < 206
		{"small-table-skip", 4266, 0}, // fsm=always beside small-skip
		{"small-table-skip", 7384, 0}, // the end of lesson 6: the root page's tree
	}
	for _, st := range states {
		for _, rc := range fsmRects {
			name := fmt.Sprintf("%s@%d/pane%d/%s@%v", st.lesson, st.pos, st.pane, rc.rect, rc.scale)
			l, r, v, rel := layoutAt(t, st.lesson, st.pos, st.pane, rc.rect, rc.scale)
			if _, ok := scene.FSMTreePage(v, rel); !ok {
				t.Fatalf("%s: no tree to lay out", name)
			}
			over := map[string]bool{}
			for _, o := range l.Overflows {
				over[o.Role] = true
			}
			recorded := 0
			for d := 0; d <= 12; d++ {
				role := scene.FSMTreeDepthRole(d)
				n := 0
				for _, it := range l.Items {
					if it.Role != role {
						continue
					}
					n++
					b := it.Rect
					inside := b.X >= r.X-0.5 && b.Y >= r.Y-0.5 && b.X+b.W <= r.X+r.W+0.5 && b.Y+b.H <= r.Y+r.H+0.5
					if !inside && !over[role] {
						t.Errorf("%s: depth %d: %s lies outside %v and no overflow is recorded", name, d, it, r)
					}
				}
				if n == 0 {
					t.Errorf("%s: depth %d of the tree is not laid out", name, d)
				}
				if over[role] {
					recorded++
				}
			}
			if rc.rect == "app:1280x720" && recorded != 13 {
				t.Errorf("%s: %d of 13 depths recorded as overflowing; the presentation layout's tree rows are a few px high, too short for the nodes of every depth", name, recorded)
			}
		}
	}
}

// Lesson 5's point at "Not full, but not enough": the insert wants 6585 B,
// category 206, one above the 205 its full pages are recorded at. Where
// the scene has room for it (not the phone: there the backend's row is
// cut, which its golden records), a text run says "≥ 206" whole inside
// the scene's rectangle, and the heap's pages say 205.
func TestFSMNotEnoughShows206(t *testing.T) {
	for _, rc := range fsmRects {
		if rc.rect == "390x844" || rc.rect == "360x700" || rc.rect == "app:700x900" {
			continue
		}
		l, r, _, _ := layoutAt(t, "free-space-map", 5152, 0, rc.rect, rc.scale)
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
			t.Errorf("%s@%v: no text run shows \"≥ 206\" inside %v", rc.rect, rc.scale, r)
		}
		cat205 := 0
		for _, it := range l.Texts("") {
			if strings.HasPrefix(it.Role, "heap blk ") && (it.Text == "cat 205" || it.Text == "205") {
				cat205++
			}
		}
		if cat205 < 3 {
			t.Errorf("%s@%v: %d heap pages labelled category 205, want the three full ones", rc.rect, rc.scale, cat205)
		}
	}
}

// Lesson 6 side by side: the fsm=always pane lays out the tree of an FSM
// page, the small-skip pane the backend's local map instead (blocks 0..2
// of the 3 it was built for, block 2 looked at), in the same pane
// rectangle; at 1920×1080 nothing is smaller than the 8.5 px badges, and
// laying a scene out twice gives the same list.
func TestFSMSmallSkipPaneAndDeterminism(t *testing.T) {
	always, ra, _, _ := layoutAt(t, "small-table-skip", 4266, 0, "app:1280x800", 1)
	skip, rs, _, _ := layoutAt(t, "small-table-skip", 4266, 1, "app:1280x800", 1)
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
	for _, st := range []struct {
		lesson    string
		pos, pane int
	}{{"free-space-map", 362, 0}, {"free-space-map", 5152, 0}, {"small-table-skip", 4266, 1}} {
		a, _, _, _ := layoutAt(t, st.lesson, st.pos, st.pane, "1920x1080", 1)
		if m := a.MinTextSize(); m < 8.5 {
			t.Errorf("%s@%d at 1920x1080: text of %v px", st.lesson, st.pos, m)
		}
		b, _, _, _ := layoutAt(t, st.lesson, st.pos, st.pane, "1920x1080", 1)
		if a.String() != b.String() {
			t.Errorf("%s@%d: two layouts of the same state differ", st.lesson, st.pos)
		}
	}
}
