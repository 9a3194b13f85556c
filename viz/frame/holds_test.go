package frame_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"bufferlab/lessons"
	"bufferlab/viz/frame"
	"bufferlab/viz/layout"
	"bufferlab/viz/player"
)

// The viewports the frame must hold at (issue 16): a phone either way, a
// projector, a laptop, a monitor and a 4K screen.
var viewports = [][2]float64{{390, 844}, {844, 390}, {1280, 720}, {1280, 800}, {1920, 1080}, {3840, 2160}}

// stepFrame is one frame laid out at the start of a lesson step.
type stepFrame struct {
	lesson string
	step   int
	tab    frame.Tab
	list   layout.List
	plan   frame.Plan
}

// lessonFrames lays out the start of every step of every lesson at w×h,
// in presentation mode or not.
func lessonFrames(t *testing.T, w, h float64, presentation bool) []stepFrame {
	t.Helper()
	all, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	var out []stepFrame
	for _, ls := range all {
		p, err := player.FromLesson(ls)
		if err != nil {
			t.Fatalf("lesson %s: %v", ls.Name, err)
		}
		var st frame.State
		for k := range p.Steps {
			p.GotoStep(k)
			// The step opens on its lesson text; where the frame has
			// tabs, each tab is laid out too.
			for _, tab := range []frame.Tab{frame.TabLesson, frame.TabScene, frame.TabCode} {
				f := stepFrame{lesson: ls.Name, step: k, tab: tab}
				st.Tab = tab
				sc := frame.Screen{Lessons: all, Player: p}
				f.plan = frame.Build(&f.list, &st, &sc, frame.Input{W: w, H: h, Presentation: presentation}, noHooks)
				if st.Tab != tab {
					continue // the frame has no such tab: it shows the lesson
				}
				out = append(out, f)
				if f.plan.Class == frame.Desk && !f.plan.Presentation {
					break // no tabs
				}
			}
		}
	}
	return out
}

var noHooks = frame.Hooks{
	OpenLesson: func(int) {}, Menu: func() {}, Help: func() {}, Fast: func() {}, Pacing: func() {},
	Forward: func(f func()) { f() }, Dismiss: func() {},
}

// TestHoldsGolden runs testdata/holds.txt: for a viewport and a mode, the
// start of every step of every lesson laid out, summarised: how many
// steps have text that does not fit, how many runs, the smallest text and
// the smallest target, and the roles that overflow most. It records where
// the frame stands; TestFramesHold asserts what must already hold.
//
//	holds size=WxH [presentation]
//
// Regenerate with: go test ./viz/frame -run HoldsGolden -rewrite
func TestHoldsGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("lays out every step of every lesson")
	}
	datadriven.RunTest(t, "testdata/holds.txt", func(t *testing.T, d *datadriven.TestData) string {
		var w, h float64
		pres := false
		for _, a := range d.CmdArgs {
			switch a.Key {
			case "size":
				if _, err := fmt.Sscanf(a.Vals[0], "%fx%f", &w, &h); err != nil {
					t.Fatalf("%s: size %q: %v", d.Pos, a.Vals[0], err)
				}
			case "presentation":
				pres = true
			default:
				t.Fatalf("%s: unknown argument %q", d.Pos, a.Key)
			}
		}
		return summarise(lessonFrames(t, w, h, pres))
	})
}

// summarise is the golden form of a set of frames.
func summarise(fs []stepFrame) string {
	var b strings.Builder
	bad, runs := 0, 0
	minText, minTarget := 0.0, 0.0
	roles := map[string]int{}
	for _, f := range fs {
		m := f.list.Metrics()
		if m.Overflow > 0 {
			bad++
		}
		runs += m.Overflow
		if minText == 0 || m.MinTextPx < minText {
			minText = m.MinTextPx
		}
		if minTarget == 0 || m.MinTargetPx < minTarget {
			minTarget = m.MinTargetPx
		}
		for _, o := range f.list.Overflows {
			roles[roleClass(o.Role)]++
		}
	}
	fmt.Fprintf(&b, "mode %s: %d frames (step starts and their tabs), %d with text that does not fit (%d runs)\n", fs[0].plan.Mode(), len(fs), bad, runs)
	fmt.Fprintf(&b, "smallest text %.1f px (floor %.1f), smallest target %.1f px (floor %.1f)\n", minText, fs[0].plan.Theme.MinPx, minTarget, fs[0].plan.MinTarget)
	type rc struct {
		role string
		n    int
	}
	var rs []rc
	for r, n := range roles {
		rs = append(rs, rc{r, n})
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].n > rs[j].n || rs[i].n == rs[j].n && rs[i].role < rs[j].role })
	for i, r := range rs {
		if i == 12 {
			fmt.Fprintf(&b, "… %d more roles\n", len(rs)-i)
			break
		}
		fmt.Fprintf(&b, "  %5d %s\n", r.n, r.role)
	}
	return b.String()
}

// roleClass groups a role's numbered instances ("cell 3", "choice 2").
func roleClass(r string) string {
	f := strings.Fields(r)
	for i, w := range f {
		if strings.IndexFunc(w, func(c rune) bool { return c < '0' || c > '9' }) < 0 {
			f[i] = "N"
		}
	}
	return strings.Join(f, " ")
}

// TestOpenQuestionInView: at the start of every step with a question, in
// every viewport and mode, the prompt and every choice are on screen and
// can be clicked (the question is pinned under the lesson text, or the
// text scrolls to it).
func TestOpenQuestionInView(t *testing.T) {
	for _, vp := range viewports {
		for _, pres := range []bool{false, true} {
			if testing.Short() && vp != [2]float64{1280, 800} {
				continue
			}
			for _, f := range lessonFrames(t, vp[0], vp[1], pres) {
				if f.tab != frame.TabLesson {
					continue
				}
				var choices []layout.Target
				for _, tg := range f.list.Targets {
					if tg.Role == "choice" {
						choices = append(choices, tg)
					}
				}
				all, _ := lessons.All()
				var q *lessons.Question
				for _, ls := range all {
					if ls.Name == f.lesson {
						q = ls.Steps[f.step].Predict
					}
				}
				if q == nil {
					continue
				}
				name := fmt.Sprintf("%s step %d at %.0fx%.0f %s", f.lesson, f.step+1, vp[0], vp[1], f.plan.Mode())
				if len(choices) != len(q.Choices) {
					t.Errorf("%s: %d of %d choices can be clicked", name, len(choices), len(q.Choices))
					continue
				}
				for i, c := range choices {
					if c.Rect.Y < 0 || c.Rect.Y+c.Rect.H > vp[1] || c.Rect.H < 8 {
						t.Errorf("%s: choice %d at %+v is not on screen", name, i+1, c.Rect)
					}
				}
				if len(f.list.Texts("question prompt")) == 0 {
					t.Errorf("%s: no prompt", name)
				}
			}
		}
	}
}
