package frame_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"bufferlab/engine/scenario"
	"bufferlab/internal/goldentest"
	"bufferlab/lessons"
	"bufferlab/viz/frame"
	"bufferlab/viz/frame/framecheck"
	"bufferlab/viz/layout"
	"bufferlab/viz/player"
)

// lessonFrames lays out every step of every lesson at w×h (see
// framecheck.Lessons).
func lessonFrames(t *testing.T, w, h float64, presentation bool) []framecheck.Frame {
	t.Helper()
	all, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	fs, err := framecheck.Lessons(all, w, h, presentation)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// embedFrames is lessonFrames as an embed lays them out (no Menu).
func embedFrames(t *testing.T, w, h float64) []framecheck.Frame {
	t.Helper()
	all, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	fs, err := framecheck.Embedded(all, w, h)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// TestHoldsGolden runs testdata/holds.txt: for a viewport and a mode, the
// start of every step of every lesson laid out, summarised: how many
// steps have text that does not fit, how many runs, the smallest text and
// the smallest target, and the roles that overflow most. It records where
// the frame stands; TestFramesHold asserts what must already hold.
//
//	holds size=WxH [presentation | embed]
//
// (embed: laid out as #embed shows them, with no Menu; with an example of
// each role that overflows.)
//
// Regenerate with: go test ./viz/frame -run HoldsGolden -rewrite
func TestHoldsGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("lays out every step of every lesson")
	}
	goldentest.RunFile(t, "testdata/holds.txt", goldentest.Directives{"holds": func(t *testing.T, d *goldentest.Case) (string, error) {
		w, h := goldentest.Size(t, d, "size")
		if d.HasArg("embed") {
			return framecheck.Report(embedFrames(t, w, h), 12, true), nil
		}
		return framecheck.Report(lessonFrames(t, w, h, d.HasArg("presentation")), 12, false), nil
	}})
}

// TestOpenQuestionInView: wherever a question is asked (at the stop of
// its moment, or as its step opens for a question at: none), in every
// viewport and mode, the prompt and every choice are on screen and can be
// clicked (the question is pinned under the lesson text, or the text
// scrolls to it); before it is asked no choice is laid out.
func TestOpenQuestionInView(t *testing.T) {
	all, _ := lessons.All()
	opened := 0
	for _, vp := range framecheck.Viewports {
		for _, pres := range []bool{false, true} {
			if testing.Short() && vp != [2]float64{1280, 800} {
				continue
			}
			for _, f := range lessonFrames(t, vp[0], vp[1], pres) {
				if f.Tab != frame.TabLesson {
					continue
				}
				var choices []layout.Target
				for _, tg := range f.List.Targets {
					if tg.Role == "choice" {
						choices = append(choices, tg)
					}
				}
				name := fmt.Sprintf("%s at %.0fx%.0f %s", f.Name(), vp[0], vp[1], f.Plan.Mode())
				if !f.Open {
					if len(choices) > 0 {
						t.Errorf("%s: %d choices laid out with no question open", name, len(choices))
					}
					continue
				}
				opened++
				var q *lessons.Question
				for _, ls := range all {
					if ls.Name == f.Lesson {
						q = ls.Steps[f.Step].Predict
					}
				}
				if len(choices) != len(q.Choices) {
					t.Errorf("%s: %d of %d choices can be clicked", name, len(choices), len(q.Choices))
					continue
				}
				for i, c := range choices {
					if c.Rect.Y < 0 || c.Rect.Y+c.Rect.H > vp[1] || c.Rect.H < 8 {
						t.Errorf("%s: choice %d at %+v is not on screen", name, i+1, c.Rect)
					}
				}
				if len(f.List.Texts("question prompt")) == 0 {
					t.Errorf("%s: no prompt", name)
				}
			}
		}
	}
	if opened < 46 {
		t.Fatalf("%d frames with a question open", opened)
	}
}

// TestFramesHold: at the start of every step of every lesson, on each of
// its tabs, at the six viewports in both modes, no text run is cut (none
// too wide or too tall for its box, none cut by its panel), no text is
// smaller than the floor, and no target is smaller than the plan's
// smallest (44 px on a touch screen). The same holds in an embed (no
// Menu) at every embed size (framecheck.EmbedViewports: a phone's column,
// the 16:9 players' 560×320, 640×360 and 800×450, and the README's
// 1000×700), where the smallest leave out counters, a legend or paddings
// to fit.
func TestFramesHold(t *testing.T) {
	for _, vp := range framecheck.Viewports {
		for _, pres := range []bool{false, true} {
			if testing.Short() && vp != [2]float64{1280, 800} && vp != [2]float64{390, 844} {
				continue
			}
			framesHold(t, lessonFrames(t, vp[0], vp[1], pres), vp)
		}
	}
	for _, vp := range framecheck.EmbedViewports {
		framesHold(t, embedFrames(t, vp[0], vp[1]), vp)
	}
}

func framesHold(t *testing.T, fs []framecheck.Frame, vp [2]float64) {
	t.Helper()
	for _, f := range fs {
		m := f.List.Metrics()
		name := fmt.Sprintf("%s at %.0fx%.0f %s", f.Name(), vp[0], vp[1], f.Plan.Mode())
		if m.Overflow > 0 {
			for _, o := range append(f.List.Overflows, f.List.Clipped()...) {
				if o.Axis != layout.Scrolls {
					t.Errorf("%s: %s %q does not fit (%s: needs %.1f, has %.1f)", name, o.Role, o.Text, o.Axis, o.Need, o.Have)
				}
			}
		}
		if m.MinTextPx < f.Plan.Theme.MinPx-0.01 {
			t.Errorf("%s: text of %.1f px, under the floor %.1f", name, m.MinTextPx, f.Plan.Theme.MinPx)
		}
		if m.MinTargetPx < f.Plan.MinTarget-0.01 {
			t.Errorf("%s: a target of %.1f px, under %.1f", name, m.MinTargetPx, f.Plan.MinTarget)
		}
	}
}

// The pointer over a pool cell, a partition, an SLRU slot or an FSM node
// shows its tooltip, read from the view the frame was laid out from; over
// nothing, none.
func TestTooltipUnderPointer(t *testing.T) {
	for _, c := range []struct {
		lesson   string
		step     int
		role     string // the item to point at
		contains string
	}{
		{"shared-buffers", 7, "cell 3", "Buffer 3"},
		{"shared-buffers", 7, "partition 0", "partition 0 of 128"},
		{"slru-banks", 2, "slot 5", "Slot 5 of 32"},
		{"free-space-map", 3, "tree depth 0", "depth 0"},
	} {
		all, p := lessonAt(t, c.lesson, c.step)
		var st frame.State
		sc := frame.Screen{Lessons: lessons.Entries(all), Player: p}
		in := frame.Input{W: 1280, H: 800}
		var l layout.List
		frame.Build(&l, &st, &sc, in, frame.Hooks{})
		var at *layout.Item
		for k := range l.Items {
			if l.Items[k].Role == c.role && l.Items[k].Kind == layout.KFill {
				at = &l.Items[k]
				break
			}
		}
		if at == nil {
			t.Fatalf("%s step %d: no %q laid out", c.lesson, c.step+1, c.role)
		}
		if tooltipText(&l) != "" {
			t.Fatalf("%s: a tooltip with the pointer at (0, 0)", c.lesson)
		}
		in.Mouse = layout.Point{X: at.Rect.X + at.Rect.W/2, Y: at.Rect.Y + at.Rect.H/2}
		l = layout.List{}
		frame.Build(&l, &st, &sc, in, frame.Hooks{})
		if got := tooltipText(&l); !strings.Contains(got, c.contains) {
			t.Errorf("%s step %d, pointer on %s: tooltip %q, want it to say %q", c.lesson, c.step+1, c.role, got, c.contains)
		}
	}
}

// The pool's legend (L, the Legend button) lays out whole over a lesson of
// the pool on a laptop, a monitor and a projector.
func TestPoolLegendOverlay(t *testing.T) {
	all, p := lessonAt(t, "shared-buffers", 7)
	for _, in := range []frame.Input{{W: 1280, H: 800}, {W: 1920, H: 1080}, {W: 1280, H: 720, Presentation: true}} {
		var st frame.State
		var l layout.List
		frame.Build(&l, &st, &frame.Screen{Lessons: lessons.Entries(all), Player: p, Legend: true}, in, frame.Hooks{})
		if len(l.Texts("pool legend cells title")) == 0 && len(l.Texts("")) < 100 {
			t.Errorf("%+v: no legend laid out", in)
		}
		for _, o := range append(l.Overflows, l.Clipped()...) {
			if o.Axis != layout.Scrolls {
				t.Errorf("%.0fx%.0f presentation %v: %s %q does not fit", in.W, in.H, in.Presentation, o.Role, o.Text)
			}
		}
	}
}

// A run drawn in a shorter form gives its full text on hover or tap: on a
// phone the mapping table's panel title is "Mapping table", and pointing
// at it shows "Mapping table: 128 partitions".
func TestAbbreviationTooltip(t *testing.T) {
	all, p := lessonAt(t, "shared-buffers", 7)
	var st frame.State
	sc := frame.Screen{Lessons: lessons.Entries(all), Player: p}
	in := frame.Input{W: 390, H: 844}
	var l layout.List
	frame.Build(&l, &st, &sc, in, frame.Hooks{}) // the step opens on its lesson
	st.Tab = frame.TabScene
	l = layout.List{}
	frame.Build(&l, &st, &sc, in, frame.Hooks{})
	var title *layout.Item
	for _, it := range l.Texts("panel title") {
		if it.Text == "Mapping table" {
			title = &it
		}
	}
	if title == nil {
		t.Fatalf("no shortened mapping table title on the phone's scene tab: %v", l.Texts("panel title"))
	}
	in.Mouse = layout.Point{X: title.Rect.X + 2, Y: title.Rect.Y + title.Rect.H/2}
	l = layout.List{}
	frame.Build(&l, &st, &sc, in, frame.Hooks{})
	if got := tooltipText(&l); !strings.Contains(got, "128 partitions") {
		t.Fatalf("tooltip over the shortened title: %q", got)
	}
}

// lessonAt is every lesson and a player of lesson name at the start of
// step (0-based).
func lessonAt(t *testing.T, name string, step int) ([]*lessons.Lesson, *player.Player) {
	t.Helper()
	all, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	p, err := player.FromLessonName(name)
	if err != nil {
		t.Fatal(err)
	}
	p.GotoStep(step)
	return all, p
}

// tooltipText is the words of the tooltip a frame shows ("" for none).
func tooltipText(l *layout.List) string {
	var text []string
	for _, it := range l.Texts("") {
		if strings.HasPrefix(it.Role, "tooltip") {
			text = append(text, it.Text)
		}
	}
	return strings.Join(text, " ")
}

// Panes of PostgreSQL versions over the free space map (pg=15,16
// fsm=always, lessons/scenarios/bulk-extension.scn) show each version's
// heap and FSM, as one pane with fsm=always does, not the pool: the bulk
// extension is in the heap. Each pane is titled by its version alone (the
// pg variant's long titles speak of the pool's read path), and the heap
// extensions of 16's pane say how many pages they added.
func TestPGPanesOverTheFSM(t *testing.T) {
	src, err := os.ReadFile("../../lessons/scenarios/bulk-extension.scn")
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Parse("bulk-extension.scn", string(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := player.FromScript("bulk-extension.scn", string(src), s)
	if err != nil {
		t.Fatal(err)
	}
	p.End()
	var st frame.State
	var l layout.List
	frame.Build(&l, &st, &frame.Screen{Player: p}, frame.Input{W: 1920, H: 1080}, frame.Hooks{})
	var titles, texts []string
	for _, it := range l.Texts("panel title") {
		titles = append(titles, it.Text)
	}
	for _, it := range l.Texts("") {
		texts = append(texts, it.Text)
	}
	all := strings.Join(texts, "\n")
	for _, want := range []string{"PostgreSQL 15", "PostgreSQL 16", "FSM of t: 3 pages"} {
		if !slices.Contains(titles, want) {
			t.Errorf("no panel titled %q: %q", want, titles)
		}
	}
	if strings.Contains(all, "one partition lock at a time") || strings.Contains(all, "Backends: the word each one holds") {
		t.Errorf("the pool's panes laid out:\n%s", all)
	}
	if !strings.Contains(all, "\n16\n") || !strings.Contains(all, "in 9 ext") {
		t.Errorf("16's pane does not say its 16 pages came in 9 extensions:\n%s", all)
	}
}
