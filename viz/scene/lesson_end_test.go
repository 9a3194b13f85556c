package scene_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"bufferlab/internal/goldentest"
	"bufferlab/lessons"
	"bufferlab/lessons/progress"
	"bufferlab/viz/layout"
	"bufferlab/viz/scene"
)

// TestLessonEndGolden runs testdata/lesson_end.txt: the end of a lesson
// (LayoutLessonEnd) and the strip that points to it (LayoutLessonEndBar),
// laid out from real lessons and a made-up record of answers. Directives:
//
//	end   the end panel: its rect, the buttons' rects and the height it
//	      needs, then every item and overflow
//	bar   the strip, in a rect as wide as the given one
//
// Arguments: lesson=NAME; answers=A,B,… one per question in the lesson's
// order, each the answers given to it in turn (R right, W wrong: "WR" is
// wrong, then right; S or nothing: not answered); window=WxH puts the
// panel in the lesson pane viz/app gives a one-pane lesson in a window
// that size (appRects, from its top), rect=WxH in a rect that size at
// (0,0) (a phone); scale=P for presentation mode.
//
// Regenerate with: go test ./viz/scene -run LessonEndGolden -rewrite
func TestLessonEndGolden(t *testing.T) {
	all := allLessons(t)
	// end is a handler that lays out the end of the case's lesson with
	// lay, in the rect its window= or rect= gives.
	end := func(lay func(l *layout.List, r layout.Rect, e scene.LessonEnd, th *layout.Theme) string) goldentest.Handler {
		return func(t *testing.T, d *goldentest.Case) (string, error) {
			args := goldentest.Args(d)
			th := layout.Light(goldentest.Float(t, d, "scale", 1))
			r, window := windowOrRect(t, d)
			if window {
				r = appRects(r.W, r.H, th, 1, false, 0).narr
			}
			var l layout.List
			return lay(&l, r, lessonEnd(t, all, args["lesson"], args["answers"]), th), nil
		}
	}
	goldentest.RunFile(t, "testdata/lesson_end.txt", goldentest.Directives{
		"end": end(func(l *layout.List, r layout.Rect, e scene.LessonEnd, th *layout.Theme) string {
			ui := scene.LayoutLessonEnd(l, r, e, th, nil)
			return fmt.Sprintf("rect %s: needs height %.1f\nnext %s\nreplay %s\nmenu %s\n", rectString(r), ui.Height,
				rectString(ui.Next), rectString(ui.Replay), rectString(ui.Menu)) + l.String()
		}),
		"bar": end(func(l *layout.List, r layout.Rect, e scene.LessonEnd, th *layout.Theme) string {
			br := layout.Rect{X: r.X, Y: r.Y, W: r.W, H: scene.LessonEndBarHeight(th)}
			scene.LayoutLessonEndBar(l, br, e, th)
			return fmt.Sprintf("bar %s\n", rectString(br)) + l.String()
		}),
	})
}

// allLessons is the embedded lessons (lessons.All).
func allLessons(t *testing.T) []*lessons.Lesson {
	t.Helper()
	all, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// lessonEnd is the end of lesson name after the answers spec (see
// TestLessonEndGolden) and completion, as viz/app builds it.
func lessonEnd(t *testing.T, all []*lessons.Lesson, name, answers string) scene.LessonEnd {
	t.Helper()
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	for i, l := range all {
		if l.Name != name {
			continue
		}
		p := progress.New()
		specs := strings.Split(answers, ",")
		q := 0
		for k, st := range l.Steps {
			if st.Predict == nil {
				continue
			}
			if q < len(specs) {
				for _, c := range specs[q] {
					right, wrong := st.Predict.Answer+1, (st.Predict.Answer+1)%len(st.Predict.Choices)+1
					switch c {
					case 'R':
						p.Answer(name, k, right, true, at)
					case 'W':
						p.Answer(name, k, wrong, false, at)
					case 'S':
					default:
						t.Fatalf("answers=%q: %q is not R, W or S", answers, c)
					}
				}
			}
			q++
		}
		p.Reach(name, len(l.Steps)-1, at)
		p.Complete(name, at)
		var next *lessons.Lesson
		if i+1 < len(all) {
			next = all[i+1]
		}
		return scene.NewLessonEnd(l, p.Lesson(name), next)
	}
	t.Fatalf("no lesson %q", name)
	return scene.LessonEnd{}
}

// The end panel's marks follow the first answers, its buttons lie inside
// the width without overlapping (side by side when they fit, stacked on a
// phone), every item lies within the height it says it needs, and after
// the last lesson there is no Next button.
func TestLessonEndButtonsAndHeight(t *testing.T) {
	all := allLessons(t)
	e := lessonEnd(t, all, "pinning", "R,W,WR,S,R")
	var marks []scene.EndMark
	for _, s := range e.Steps {
		marks = append(marks, s.Mark)
	}
	wantMarks := []scene.EndMark{scene.MarkRight, scene.MarkWrong, scene.MarkWrong, scene.MarkSkipped, scene.MarkRight, scene.MarkSkipped, scene.MarkSkipped}
	if fmt.Sprint(marks) != fmt.Sprint(wantMarks) || e.Score != (progress.Score{Right: 2, Wrong: 2, Unanswered: 3, Questions: 7}) {
		t.Fatalf("marks %v, score %+v", marks, e.Score)
	}
	for _, c := range []struct {
		w       float64
		scale   float64
		stacked bool
	}{{360, 1, false}, {260, 1.45, true}, {480, 1, false}, {480, 1.45, false}} {
		th := layout.Light(c.scale)
		r := layout.Rect{X: 10, Y: 20, W: c.w, H: 5000}
		var l layout.List
		ui := scene.LayoutLessonEnd(&l, r, e, th, nil)
		name := fmt.Sprintf("%.0f px at scale %.2f", c.w, c.scale)
		for _, b := range []layout.Rect{ui.Next, ui.Replay, ui.Menu} {
			if b.Empty() || b.X < r.X || b.X+b.W > r.X+r.W+0.01 {
				t.Errorf("%s: button %v outside %v", name, b, r)
			}
		}
		overlap := func(a, b layout.Rect) bool {
			return a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H
		}
		if overlap(ui.Next, ui.Replay) || overlap(ui.Replay, ui.Menu) || overlap(ui.Next, ui.Menu) {
			t.Errorf("%s: buttons overlap: %v %v %v", name, ui.Next, ui.Replay, ui.Menu)
		}
		if stacked := ui.Menu.Y > ui.Replay.Y; stacked != c.stacked {
			t.Errorf("%s: Replay %v, Menu %v: stacked %v, want %v", name, ui.Replay, ui.Menu, stacked, c.stacked)
		}
		bottom := 0.0
		for _, it := range l.Items {
			if it.Kind == layout.KText || it.Kind == layout.KFill {
				bottom = max(bottom, it.Rect.Y+it.Rect.H)
			}
		}
		if bottom > r.Y+ui.Height+0.01 || bottom < r.Y+ui.Height-th.Px(20) {
			t.Errorf("%s: items reach y %.1f, the panel says it needs %.1f from %.1f", name, bottom, ui.Height, r.Y)
		}
		if len(l.Overflows) != 0 {
			t.Errorf("%s: overflows %+v", name, l.Overflows)
		}
	}
	last := lessonEnd(t, all, all[len(all)-1].Name, "")
	var l layout.List
	ui := scene.LayoutLessonEnd(&l, layout.Rect{W: 480, H: 2000}, last, layout.Light(1), nil)
	if !ui.Next.Empty() || len(l.Texts("end next")) != 0 || len(l.Texts("end last")) != 1 {
		t.Errorf("after the last lesson: Next %v, %v", ui.Next, l.Texts("end last"))
	}
	// Hover shows on the button under the pointer only.
	var hl layout.List
	r := layout.Rect{W: 480, H: 2000}
	plain := scene.LayoutLessonEnd(&hl, r, e, layout.Light(1), nil)
	hl = layout.List{}
	scene.LayoutLessonEnd(&hl, r, e, layout.Light(1), func(b layout.Rect) bool { return b == plain.Replay })
	edges := map[string]bool{}
	for _, it := range hl.Items {
		if it.Kind == layout.KStroke {
			edges[it.Role] = it.Color == layout.Blue
		}
	}
	if !edges["end replay"] || edges["end menu"] {
		t.Errorf("hovering Replay: accent edges %v, want Replay's only", edges)
	}
}
