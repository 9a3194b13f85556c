package framecheck

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"bufferlab/lessons"
	"bufferlab/viz/frame"
	"bufferlab/viz/layout"
	"bufferlab/viz/player"
	"bufferlab/viz/scene"
)

// Viewports are the sizes the frame must hold at (issue 16): a phone
// either way, a projector, a laptop, a monitor and a 4K screen.
var Viewports = [][2]float64{{390, 844}, {844, 390}, {1280, 720}, {1280, 800}, {1920, 1080}, {3840, 2160}}

// Frame is one frame laid out at the start of a lesson step, or at one of
// its stops, on one tab.
type Frame struct {
	Lesson string
	Step   int // from 0
	// At says where in the step: "" at its start, else at a stop ("its
	// stop before victim", with " (answered)" once a question there is).
	At string
	// Open says that the step's question is open: asked, not answered.
	Open bool
	Tab  frame.Tab
	List layout.List
	Plan frame.Plan
}

// Name says which frame f is: "pinning step 3 (scene tab)", "pinning
// step 3 at its stop before cas-fail (answered) (lesson tab)".
func (f *Frame) Name() string {
	tab := ""
	if f.Plan.Class != frame.Desk || f.Plan.Presentation {
		tab = fmt.Sprintf(" (%s tab)", map[frame.Tab]string{frame.TabLesson: "lesson", frame.TabScene: "scene", frame.TabCode: "code"}[f.Tab])
	}
	at := ""
	if f.At != "" {
		at = " at " + f.At
	}
	return fmt.Sprintf("%s step %d%s%s", f.Lesson, f.Step+1, at, tab)
}

// noHooks are targets that do nothing: the frames are only measured.
// They are the browser's, the fullest set: its Link button is in every
// lesson's top bar (the phone is a browser).
var noHooks = frame.Hooks{
	OpenLesson: func(int) {}, Menu: func() {}, Help: func() {}, Fast: func() {}, Pacing: func() {},
	Forward: func(f func()) { f() }, Dismiss: func() {}, Link: func() {}, Sandbox: func() {},
}

// Lessons lays out every step of each lesson at w×h, in presentation mode
// or not: the start of the step, which opens on its lesson text, then
// each of its stops (the player paused just before a key moment), and at
// a question's stop the question open, then answered; where the frame
// has tabs, each tab is laid out too.
func Lessons(all []*lessons.Lesson, w, h float64, presentation bool) ([]Frame, error) {
	return lessonFrames(all, w, h, presentation, noHooks)
}

// EmbedViewports are the frame sizes an embed (#embed: an iframe on a
// course page) must hold at, beside the screens': a phone's column, the
// 16:9 players' common sizes (560×315, YouTube's default, is laid out at
// the app's floor of 320 high and scaled by the browser) and a slide.
var EmbedViewports = [][2]float64{{360, 640}, {560, 320}, {640, 360}, {800, 450}, {1000, 700}}

// Embedded is Lessons as an embed lays them out: no Menu, no Sandbox.
func Embedded(all []*lessons.Lesson, w, h float64) ([]Frame, error) {
	hooks := noHooks
	hooks.Menu, hooks.Sandbox = nil, nil
	return lessonFrames(all, w, h, false, hooks)
}

func lessonFrames(all []*lessons.Lesson, w, h float64, presentation bool, hooks frame.Hooks) ([]Frame, error) {
	var out []Frame
	for _, ls := range all {
		p, err := player.FromLesson(ls)
		if err != nil {
			return nil, fmt.Errorf("lesson %s: %w", ls.Name, err)
		}
		var st frame.State
		// tabs lays out the state p is in, on each tab the frame has.
		tabs := func(k int, at string) {
			for _, tab := range []frame.Tab{frame.TabLesson, frame.TabScene, frame.TabCode} {
				_, revealed := p.Answered()
				f := Frame{Lesson: ls.Name, Step: k, At: at, Tab: tab, Open: p.Question() != nil && !revealed}
				st.Tab = tab
				sc := frame.Screen{Lessons: lessons.Entries(all), Player: p}
				if last := len(p.Steps) - 1; k == last && p.Pos() >= p.StepEnd[last] && !p.Gated() {
					// The lesson is at its end as its last step opens (the
					// app's atLessonEnd): the end panel shows, as in the app.
					var next *lessons.Lesson
					if i := slices.Index(all, ls); i+1 < len(all) {
						next = all[i+1]
					}
					e := scene.NewLessonEnd(ls, nil, next)
					sc.End = &e
				}
				f.Plan = frame.Build(&f.List, &st, &sc, frame.Input{W: w, H: h, Presentation: presentation}, hooks)
				if st.Tab != tab {
					continue // the frame has no such tab: it showed the lesson
				}
				out = append(out, f)
				if f.Plan.Class == frame.Desk && !f.Plan.Presentation {
					break // no tabs
				}
			}
		}
		for k := range p.Steps {
			p.GotoStep(k)
			tabs(k, "")
			for _, s := range p.Stops() {
				if s.Step != k {
					continue
				}
				p.Seek(s.Pos)
				if p.Step() != k {
					return nil, fmt.Errorf("lesson %s: the stop at %d is not in step %d", ls.Name, s.Pos, k+1)
				}
				at := "its stop before " + s.Moment.String()
				tabs(k, at)
				if s.Question {
					p.Answer(p.StepQuestion().Answer)
					tabs(k, at+" (answered)")
				}
			}
		}
	}
	return out, nil
}

// RoleClass groups a role's numbered instances ("cell 3" and "cell 4"
// are "cell N").
func RoleClass(r string) string {
	f := strings.Fields(r)
	for i, w := range f {
		if strings.IndexFunc(w, func(c rune) bool { return c < '0' || c > '9' }) < 0 {
			f[i] = "N"
		}
	}
	return strings.Join(f, " ")
}

// Report summarises frames: how many have text that does not fit and how
// many runs, the smallest text and target against the plan's floors,
// then the role classes that overflow, most first (at most top; 0: all),
// each with its first example when examples is set.
func Report(fs []Frame, top int, examples bool) string {
	if len(fs) == 0 {
		return "no frames\n"
	}
	var b strings.Builder
	bad, runs := 0, 0
	minText, minTarget := 0.0, 0.0
	smallest := "" // the smallest target's role
	count := map[string]int{}
	example := map[string]string{}
	for i := range fs {
		f := &fs[i]
		m := f.List.Metrics()
		if m.Overflow > 0 {
			bad++
		}
		runs += m.Overflow
		if minText == 0 || m.MinTextPx < minText {
			minText = m.MinTextPx
		}
		if minTarget == 0 || m.MinTargetPx < minTarget {
			minTarget = m.MinTargetPx
			for _, t := range f.List.Targets {
				if min(t.Rect.W, t.Rect.H) == m.MinTargetPx {
					smallest = t.Role
				}
			}
		}
		for _, o := range append(f.List.Overflows, f.List.Clipped()...) {
			if o.Axis == layout.Scrolls {
				continue
			}
			c := RoleClass(o.Role)
			if count[c] == 0 {
				example[c] = fmt.Sprintf("%s: %q needs %.1f px %s, has %.1f", f.Name(), o.Text, o.Need, map[string]string{"w": "wide", "h": "tall", "clip": "wide, cut by its panel"}[o.Axis], o.Have)
			}
			count[c]++
		}
	}
	p := fs[0].Plan
	fmt.Fprintf(&b, "mode %s: %d frames (step starts, stops and their tabs), %d with text that does not fit (%d runs)\n", p.Mode(), len(fs), bad, runs)
	fmt.Fprintf(&b, "smallest text %.1f px (floor %.1f), smallest target %.1f px (floor %.1f: %s)\n", minText, p.Theme.MinPx, minTarget, p.MinTarget, smallest)
	var cs []string
	for c := range count {
		cs = append(cs, c)
	}
	sort.Slice(cs, func(i, j int) bool {
		return count[cs[i]] > count[cs[j]] || count[cs[i]] == count[cs[j]] && cs[i] < cs[j]
	})
	for i, c := range cs {
		if top > 0 && i == top {
			fmt.Fprintf(&b, "… %d more roles\n", len(cs)-i)
			break
		}
		fmt.Fprintf(&b, "  %5d %s\n", count[c], c)
		if examples {
			fmt.Fprintf(&b, "        e.g. %s\n", example[c])
		}
	}
	return b.String()
}
