package scene_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
	"bufferlab/internal/goldentest"
	"bufferlab/viz/layout"
	"bufferlab/viz/player"
	"bufferlab/viz/scene"
	"bufferlab/viz/slruview"
)

// TestSLRULayout runs testdata/slru_layout.txt: the SLRU scene's layout,
// in text, for states of the lessons and of scenarios. Directives:
//
//	lesson name=NAME event=E [pane=P]
//	    open lesson NAME at event position E (as the timeline bar counts
//	    them) and take pane P's SLRU view (0: the first); prints the
//	    current event and every backend's lookup
//	scenario event=E [pane=P]
//	    the same for the scenario in the input
//	layout size=WxH [pane] [scale=S] [floor=F] [show=text|all|overflows] [roles=a,b]
//	    lay the view out in a W×H rectangle at the origin, as the scene
//	    (LayoutSLRUScene) or as a pane (LayoutSLRUPane), with the light
//	    theme at scale S (1) and text no smaller than F px (0: no floor;
//	    the frame sets 14 on a laptop or a phone, 24 and more in
//	    presentation mode, viz/frame PlanFor). Prints a summary line, then the items
//	    (show=text: every text run, the default; all: every item;
//	    overflows: none), or with roles=a,b every item whose role is one
//	    of them or starts with one and a space ("slot_3" for "slot 3" and
//	    "slot 3 mark", not "slot 30"); then always every overflow.
//
// Regenerate with: go test ./viz/scene -run SLRULayout -rewrite
func TestSLRULayout(t *testing.T) {
	var v *slruview.View
	players := map[string]*player.Player{}
	// open is lesson's and scenario's handler: a player per lesson or
	// scenario, kept for the cases after (playing the huge SLRU takes
	// seconds), and its view at the event, in words.
	open := func(t *testing.T, d *goldentest.Case) (string, error) {
		key := d.Input
		if d.Cmd == "lesson" {
			d.ScanArgs(t, "name", &key)
		}
		p := players[key]
		if p == nil && d.Cmd == "lesson" {
			p = lessonPlayer(t, key)
		} else if p == nil {
			var err error
			if p, err = player.FromScenario("layout", d.Input); err != nil {
				return "", err
			}
		}
		players[key] = p
		v = slruAt(t, p, intArg(t, d, "event"), goldentest.Int(t, d, "pane", 0))
		return slruState(v), nil
	}
	goldentest.RunFile(t, "testdata/slru_layout.txt", goldentest.Directives{
		"lesson":   open,
		"scenario": open,
		"layout": func(t *testing.T, d *goldentest.Case) (string, error) {
			if v == nil {
				return "", errors.New("layout before lesson or scenario")
			}
			args := goldentest.Args(d)
			w, h := goldentest.Size(t, d, "size")
			show := "text"
			if s, ok := args["show"]; ok {
				show = s
			}
			var roles []string
			if s, ok := args["roles"]; ok {
				for _, r := range strings.Split(s, ",") {
					roles = append(roles, strings.ReplaceAll(r, "_", " "))
				}
			}
			var l layout.List
			r := layout.Rect{W: w, H: h}
			th := layout.Light(goldentest.Float(t, d, "scale", 1))
			th.MinPx = goldentest.Float(t, d, "floor", 0)
			if d.HasArg("pane") {
				scene.LayoutSLRUPane(&l, r, v, th)
			} else {
				scene.LayoutSLRUScene(&l, r, v, th)
			}
			return printLayout(&l, show, roles), nil
		},
	})
}

// lessonPlayer opens a lesson by name.
func lessonPlayer(t *testing.T, name string) *player.Player {
	t.Helper()
	p, err := player.FromLessonName(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// slruAt is pane's SLRU view at event position event.
func slruAt(t *testing.T, p *player.Player, event, pane int) *slruview.View {
	t.Helper()
	if event > p.Len() {
		t.Fatalf("event %d: the player has %d events", event, p.Len())
	}
	p.Seek(event)
	v := p.PaneSLRUView(pane)
	if v == nil {
		t.Fatalf("pane %d has no SLRU view", pane)
	}
	return v
}

// slruState is the view in words: its geometry, the current event and
// each backend's lookup.
func slruState(v *slruview.View) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s · latest page %d\n", scene.SLRUPaneTitle(v), v.LatestPage())
	if e, ok := v.Current(); ok {
		fmt.Fprintf(&b, "current: %s\n", slru.DescribeWith(e, v.LaneName))
	}
	for a := 1; a < v.NumLanes(); a++ {
		ln := v.Lane(trace.Actor(a))
		if !ln.Lookup.HasOp {
			continue
		}
		st := v.Status(ln)
		if ln.Waiting {
			st = "WAITING · " + st
		}
		fmt.Fprintf(&b, "%s: %s · %s · %s\n", ln.Name, slruview.OpText(ln.Lookup.Op, ln.Lookup.Operand), v.Path(ln.Lookup), st)
	}
	return b.String()
}

// printLayout is a layout's golden form: a summary, the items shown and
// every overflow.
func printLayout(l *layout.List, show string, roles []string) string {
	var b strings.Builder
	texts := l.Texts("")
	fmt.Fprintf(&b, "%d items, %d text runs (smallest %spx), %d overflows\n", len(l.Items), len(texts), num(l.MinTextSize()), len(l.Overflows))
	for _, it := range l.Items {
		keep := false
		switch {
		case len(roles) > 0:
			for _, p := range roles {
				keep = keep || it.Role == p || strings.HasPrefix(it.Role, p+" ")
			}
		case show == "all":
			keep = true
		case show == "text":
			keep = it.Kind == layout.KText
		}
		if keep {
			b.WriteString(it.String())
			b.WriteByte('\n')
		}
	}
	only := layout.List{Overflows: l.Overflows}
	b.WriteString(only.String())
	return b.String()
}

func num(v float64) string { return strings.TrimSuffix(fmt.Sprintf("%.1f", v), ".0") }

// The three sizes of the goldens plus the side-by-side panes'.
var slruSizes = []layout.Rect{{W: 390, H: 844}, {W: 1280, H: 720}, {W: 1920, H: 1080}}

// slruStates are the states the plain tests below check.
func slruStates(t *testing.T) map[string]*slruview.View {
	l4 := lessonPlayer(t, "slru-banks")
	l7 := lessonPlayer(t, "slru-side-by-side")
	return map[string]*slruview.View{
		"lesson 4 compare": slruAt(t, l4, 446, 0).Clone(),
		"lesson 4 victim":  slruAt(t, l4, 1063, 0).Clone(),
		"lesson 7 single":  slruAt(t, l7, 3484, 0).Clone(),
		"lesson 7 hash":    slruAt(t, l7, 3132, 2).Clone(),
	}
}

// At 1920×1080 no text of the scene is smaller than 8 px (the slots'
// badges, the smallest type the scene asks for), and every slot of every
// bank is laid out, with its number: these SLRUs are small enough to show
// whole.
func TestSLRULayoutWholeAndLegible(t *testing.T) {
	for name, v := range slruStates(t) {
		var l layout.List
		scene.LayoutSLRUScene(&l, layout.Rect{W: 1920, H: 1080}, v, layout.Light(1))
		if m := l.MinTextSize(); m < 8 {
			t.Errorf("%s at 1920×1080: a text run of %v px", name, m)
		}
		for k, r := range append(slruSizes, layout.Rect{W: 900, H: 160}) {
			var l layout.List
			if k < len(slruSizes) {
				scene.LayoutSLRUScene(&l, r, v, layout.Light(1))
			} else {
				scene.LayoutSLRUPane(&l, r, v, layout.Light(1))
			}
			for i := 0; i < v.NumSlots(); i++ {
				if ts := l.Texts(fmt.Sprintf("slot %d", i)); len(ts) == 0 || ts[0].Text != fmt.Sprintf("#%d", i) {
					t.Errorf("%s at %vx%v: slot %d is not laid out with its number (%v)", name, r.W, r.H, i, ts)
				}
			}
		}
	}
}

// hugeSLRU is the largest SLRU a scenario may ask for, 8192 banks of 16,
// with backends in four banks far apart; bigSingle is one bank of 4096
// slots (slru=single). The scene can show only a window of either.
const (
	hugeSLRU = `config slru=banks slru_buffers=131072 clog_pages=40
backend A: clog get 100000
backend B: clog read-only 7; clog read-only 39
backend C: clog read-only 12
run
`
	bigSingle = `config slru=single slru_buffers=4096 clog_pages=40
backend A: clog get 100000
backend B: clog read-only 7
run
`
)

// The bank window of a huge SLRU depends on the view alone: laid out
// again, and from a fresh replay, it is the same, byte for byte (it was
// once chosen in Go's map order and changed from frame to frame); it
// holds every bank a lookup is in and the slot in focus, and every slot of
// the window is laid out.
func TestSLRUBankWindowDeterministic(t *testing.T) {
	for _, src := range []string{hugeSLRU, bigSingle} {
		p := scenarioPlayer(t, "huge", src)
		// A second player, sought in the other order: its views are
		// reached from other keyframes and other histories.
		fp := scenarioPlayer(t, "huge", src)
		checkWindowStable(t, p, fp, []int{p.Len() / 8, p.Len() / 3, p.Len() / 2, p.Len()})
	}
}

// checkWindowStable checks the scene's layouts of p's views at events,
// at slruSizes: laid out again they are the same, fp's (another player,
// sought in the other order) are the same, bankWindows chooses the same
// window twice, the window holds the current event's slot and every bank
// where a lookup is, and every slot of it is laid out.
func checkWindowStable(t *testing.T, p, fp *player.Player, events []int) {
	t.Helper()
	th := layout.Light(1)
	fresh := map[string]string{}
	for k := len(events) - 1; k >= 0; k-- {
		v := slruAt(t, fp, events[k], 0)
		for _, r := range slruSizes {
			var l layout.List
			scene.LayoutSLRUScene(&l, r, v, th)
			fresh[fmt.Sprint(events[k], r)] = l.String()
		}
	}
	for _, event := range events {
		v := slruAt(t, p, event, 0)
		cur, hasCur := v.Current()
		for _, r := range slruSizes {
			where := fmt.Sprintf("%d slots, event %d, at %vx%v", v.NumSlots(), event, r.W, r.H)
			var first layout.List
			scene.LayoutSLRUScene(&first, r, v, th)
			for k := 0; k < 10; k++ {
				var again layout.List
				scene.LayoutSLRUScene(&again, r, v, th)
				if again.String() != first.String() {
					t.Fatalf("%s: the layout changed when laid out again", where)
				}
			}
			if fresh[fmt.Sprint(event, r)] != first.String() {
				t.Fatalf("%s: another player lays out differently", where)
			}
			checkWindowLaidOut(t, where, v, &first)

			ws, note, lookups := scene.BankWindows(v, th, r.W, r.H/2)
			if note == "" {
				t.Fatalf("%s: every slot shown in %v px", where, r.H/2)
			}
			if ws2, note2, _ := scene.BankWindows(v, th, r.W, r.H/2); fmt.Sprint(ws, note) != fmt.Sprint(ws2, note2) {
				t.Fatalf("%s: bankWindows chose %v, then %v", where, ws, ws2)
			}
			in, shown := map[int]bool{}, map[int]bool{}
			for _, w := range ws {
				shown[w.Bank] = true
				for i := w.Lo; i < w.Hi; i++ {
					in[i] = true
				}
			}
			if hasCur && (cur.Class == trace.OSlot || cur.Class == trace.OSlotIO) && !in[int(cur.Obj)] {
				t.Errorf("%s: the current event's slot %d is not in the window %v", where, cur.Obj, ws)
			}
			for b := range lookups {
				if !shown[b] {
					t.Errorf("%s: bank %d, where a lookup is, is not in the window %v", where, b, ws)
				}
			}
		}
	}
}

// checkWindowLaidOut checks, from a scene's layout alone, that what it
// shows of the SLRU is whole: with banks, every slot of each bank whose
// label is laid out; with one bank, a run of whole lines of slots (the
// window the note names) holding the current event's slot.
func checkWindowLaidOut(t *testing.T, where string, v *slruview.View, l *layout.List) {
	t.Helper()
	slots := map[int]bool{}
	lines := map[float64]int{} // slots a line, by the top of their numbers
	lo, hi := v.NumSlots(), -1
	for _, it := range l.Texts("") {
		var i int
		if _, err := fmt.Sscanf(it.Role, "slot %d", &i); err == nil && it.Text == fmt.Sprintf("#%d", i) {
			slots[i] = true
			lines[it.Rect.Y]++
			lo, hi = min(lo, i), max(hi, i)
		}
	}
	if len(slots) == 0 {
		t.Fatalf("%s: no slot laid out", where)
	}
	if v.NumBanks() == 1 {
		// Whole lines: every line as long as the longest, which is at
		// most SLRUPerLine, and the run starts a line; only the SLRU's
		// last line may be shorter.
		perLine, short := 0, 0
		for _, n := range lines {
			perLine = max(perLine, n)
		}
		for _, n := range lines {
			if n != perLine {
				short++
			}
		}
		if hi-lo+1 != len(slots) || perLine > scene.SLRUPerLine || lo%perLine != 0 || short > 1 || (short == 1 && hi != v.NumSlots()-1) {
			t.Errorf("%s: slots %d..%d laid out (%d of them, lines %v): not a run of whole lines", where, lo, hi, len(slots), lines)
		}
		if cur, ok := v.Current(); ok && (cur.Class == trace.OSlot || cur.Class == trace.OSlotIO) && !slots[int(cur.Obj)] {
			t.Errorf("%s: the current event's slot %d is not laid out (slots %d..%d)", where, cur.Obj, lo, hi)
		}
		return
	}
	banks := 0
	for _, it := range l.Texts("") {
		var b int
		if _, err := fmt.Sscanf(it.Role, "bank %d", &b); err == nil && it.Text == fmt.Sprintf("bank %d", b) {
			banks++
			bk := v.Bank(b)
			for i := bk.First; i < bk.End; i++ {
				if !slots[i] {
					t.Errorf("%s: slot %d of bank %d is not laid out", where, i, b)
				}
			}
		}
	}
	if banks*v.BankSize() != len(slots) {
		t.Errorf("%s: %d slots laid out in %d banks of %d", where, len(slots), banks, v.BankSize())
	}
}

// slruFrameRects are the rectangles viz/frame gives the SLRU scene and
// its stacked panes at the viewports it must hold at (framecheck's), with
// the theme it sets there: scale and the floor under the type.
var slruFrameRects = []struct {
	name         string
	w, h         float64
	scale, floor float64
	pane         bool
}{
	{"1280x800", 768, 599, 1, 14, false}, {"1280x720", 768, 519, 1, 14, false},
	{"1920x1080", 1161, 819, 1.35, 18.9, false}, {"3840x2160", 2340, 1703, 2.5, 35, false},
	{"390x844 scene tab", 358, 561, 1, 14, false}, {"844x390 scene tab", 812, 155, 1, 14, false},
	{"1280x800 presentation", 673, 473, 1.75, 24, false}, {"1280x720 presentation", 673, 393, 1.75, 24, false},
	{"1280x720 presentation, scene tab", 1236, 337, 1.75, 24, false},
	{"1920x1080 presentation", 1021, 686, 1.75 * 1.2247, 24 * 1.2247, false},
	{"3840x2160 presentation", 2069, 1616, 1.75 * 1.7321, 24 * 1.7321, false},
	{"1280x800 pane", 894, 151, 1, 14, true}, {"1280x720 pane", 894, 124, 1, 14, true},
	{"1920x1080 pane", 1351, 217, 1.35, 18.9, true}, {"3840x2160 pane", 2720, 486, 2.5, 35, true},
	{"390x844 pane", 358, 138, 1, 14, true}, {"1280x800 presentation pane", 673, 94, 1.75, 24, true},
	{"1920x1080 presentation pane", 1021, 157, 1.75 * 1.2247, 24 * 1.2247, true},
	{"3840x2160 presentation pane", 2069, 448, 1.75 * 1.7321, 24 * 1.7321, true},
}

// At every event of lessons 4 and 7 (every 25th with -short), in every
// rectangle the frame gives the scene (lesson 4) or its panes (lesson 7),
// every text run fits its box and none is smaller than the floor: the
// scene shows less (fewer slots a line, a window of the banks, shorter
// forms) rather than overflow.
func TestSLRUHoldsInFrameRects(t *testing.T) {
	every := 3
	if testing.Short() {
		every = 25
	}
	for _, c := range []struct {
		lesson string
		panes  int
	}{{"slru-banks", 1}, {"slru-side-by-side", 3}} {
		p := lessonPlayer(t, c.lesson)
		for _, r := range slruFrameRects {
			if r.pane != (c.panes > 1) {
				continue
			}
			th := layout.Light(r.scale)
			th.MinPx = r.floor
			bad := 0
			for e := 0; e <= p.Len(); e += every {
				for pane := range c.panes {
					v := slruAt(t, p, e, pane)
					var l layout.List
					if r.pane {
						scene.LayoutSLRUPane(&l, layout.Rect{W: r.w, H: r.h}, v, th)
					} else {
						scene.LayoutSLRUScene(&l, layout.Rect{W: r.w, H: r.h}, v, th)
					}
					if m := l.MinTextSize(); m != 0 && m < r.floor-0.01 {
						t.Errorf("%s at %s, event %d pane %d: text of %.1f px under the floor %.1f", c.lesson, r.name, e, pane, m, r.floor)
					}
					if len(l.Overflows) > 0 && bad < 3 {
						bad++
						o := l.Overflows[0]
						t.Errorf("%s at %s (%vx%v), event %d pane %d: %d overflows, the first %s %q (%s: needs %.1f, has %.1f)",
							c.lesson, r.name, r.w, r.h, e, pane, len(l.Overflows), o.Role, o.Text, o.Axis, o.Need, o.Have)
					}
				}
			}
		}
	}
}

// The header names the bank rule the view's geometry has, and the
// PostgreSQL versions that go with it: pageno % nbanks from 17.3,
// pageno & (nbanks − 1) in 17.0 to 17.2 (never "17.3+" with the mask).
func TestSLRUTitleSaysTheRule(t *testing.T) {
	for _, c := range []struct {
		rule      slru.BankRule
		want, not string
	}{
		{slru.BankModulo, "banks (PG 17.3+) · 64 slots = 4 banks × 16 · bank = pageno % 4", "17.0"},
		{slru.BankMask, "banks (PG 17.0–17.2) · 64 slots = 4 banks × 16 · bank = pageno & 3", "17.3"},
	} {
		v := slruview.New(slruview.Geometry{Variant: slru.Banks, Slots: 64, BankSize: 16, BankRule: c.rule, Latest: 39, Name: "transaction"}, []string{"A"})
		var l layout.List
		scene.LayoutSLRUScene(&l, layout.Rect{W: 1920, H: 1080}, v, layout.Light(1))
		ts := l.Texts("slru title")
		if len(ts) != 1 || !strings.Contains(ts[0].Text, c.want) || strings.Contains(ts[0].Text, c.not) {
			t.Errorf("rule %v: title %v, want one with %q and without %q", c.rule, ts, c.want, c.not)
		}
	}
}
