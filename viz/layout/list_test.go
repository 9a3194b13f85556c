package layout

import (
	"fmt"
	"image/color"
	"slices"
	"strings"
	"testing"
)

func TestWidthGrowsWithTextAndSize(t *testing.T) {
	if err := FontError(); err != nil {
		t.Fatal(err)
	}
	f := Font{Regular, 12}
	a, b := Width("nextVictim", f), Width("nextVictimBuffer", f)
	if a <= 0 || b <= a {
		t.Fatalf("widths %v, %v: expected 0 < a < b", a, b)
	}
	if big := Width("nextVictim", Font{Regular, 24}); big < 1.9*a || big > 2.1*a {
		t.Fatalf("at twice the size the width is %v, expected about %v", big, 2*a)
	}
	// Mono: every glyph the same advance.
	m1, m2 := Width("iiii", Font{Mono, 12}), Width("WWWW", Font{Mono, 12})
	if m1 != m2 {
		t.Fatalf("mono widths differ: %v vs %v", m1, m2)
	}
	if lh := LineHeight(f); lh < 12 || lh > 20 {
		t.Fatalf("line height at 12 px is %v, expected 12..20", lh)
	}
}

func TestOverflowIsRecordedNotCut(t *testing.T) {
	var l List
	f := Font{Regular, 12}
	l.Text("label", "descriptors", f, 0, 0, 20, Black, Left)
	l.TextIn("cell", "rc 0 u 0", f, Rect{0, 0, 200, 5}, Black, Center)
	l.FitText("title", "nextVictimBuffer", f, 0, 0, 40, Black, Left)
	l.Text("ok", "ok", f, 0, 0, 100, Black, Left)
	if len(l.Overflows) != 3 {
		t.Fatalf("overflows %v, expected three (wide, tall, fitted)", l.Overflows)
	}
	if got := l.Texts("label")[0].Text; got != "descriptors" {
		t.Fatalf("an overflowing Text run was changed to %q", got)
	}
	if got := l.Texts("title")[0].Text; !strings.HasSuffix(got, "…") || Width(got, f) > 40 {
		t.Fatalf("FitText drew %q (%v px), expected a cut with … within 40 px", got, Width(got, f))
	}
	s := l.String()
	for _, want := range []string{`OVERFLOW label "descriptors": needs`, `OVERFLOW cell "rc 0 u 0": needs`, "tall, has 5", `OVERFLOW title "nextVictimBuffer"`} {
		if !strings.Contains(s, want) {
			t.Errorf("golden form lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, `OVERFLOW ok`) {
		t.Errorf("a run that fits was recorded:\n%s", s)
	}
}

// CutSince sees what was laid out since its mark: a run too wide or cut
// by its clip (inside a clip opened before the mark too), not a region
// that scrolls by design, nor what was cut before the mark.
func TestCutSince(t *testing.T) {
	f := Font{Regular, 12}
	var l List
	l.Text("before", "descriptors", f, 0, 0, 20, Black, Left) // cut, before the mark
	l.Clip(Rect{0, 0, 100, 10})
	m := l.Here()
	l.Overflows = append(l.Overflows, Overflow{Role: "lines", Axis: Scrolls})
	l.Text("fits", "ok", f, 0, 20, 0, Black, Left) // wholly below the clip: not drawn
	if l.CutSince(m) {
		t.Fatalf("cut since the mark: %v, %v", l.Overflows, l.Clipped())
	}
	l.Text("half", "ok", f, 0, 0, 0, Black, Left) // taller than the clip
	if !l.CutSince(m) {
		t.Fatal("a run cut by its clip after the mark is not seen")
	}
	l.Rollback(m)
	l.Text("wide", "descriptors", f, 0, -40, 20, Black, Left)
	if !l.CutSince(m) {
		t.Fatal("a run too wide after the mark is not seen")
	}
}

func TestAlignedRunsRecordTheirLeftEdge(t *testing.T) {
	var l List
	f := Font{Bold, 14}
	w := Width("hits", f)
	l.Text("c", "hits", f, 100, 0, 0, Black, Center)
	l.Text("r", "hits", f, 100, 0, 0, Black, Right)
	if got := l.Items[0].Rect.X; got != 100-w/2 {
		t.Errorf("centred run's left edge %v, expected %v", got, 100-w/2)
	}
	if got := l.Items[1].Rect.X; got != 100-w {
		t.Errorf("right-aligned run's left edge %v, expected %v", got, 100-w)
	}
}

// TextForms draws the first form that fits, with no overflow; when none
// fits, the last cut with "…", recorded.
func TestTextForms(t *testing.T) {
	f := Font{Style: Regular, Size: 14}
	forms := []string{"step 3 of 12: the clock sweep", "3/12 the clock sweep", "3/12"}
	box := Rect{W: Width(forms[1], f) + 1, H: LineHeight(f)}
	var l List
	if got := l.TextForms("t", forms, f, box, Black, Left); got != forms[1] || len(l.Overflows) != 0 {
		t.Fatalf("drew %q, overflows %v; want %q and none", got, l.Overflows, forms[1])
	}
	// The shorter form keeps the full text for its tooltip; a run drawn
	// in full keeps none.
	if h, ok := l.HitAt(box.X+1, box.Y+1); !ok || h.Kind != HitText || h.Text != forms[0] {
		t.Fatalf("hit under the shorter form: %+v, %v", h, ok)
	}
	var full List
	full.TextForms("t", forms, f, Rect{W: 1000, H: 100}, Black, Left)
	if len(full.Hits) != 0 {
		t.Fatalf("a run drawn in full recorded %v", full.Hits)
	}
	l = List{}
	narrow := Rect{W: Width("3/1", f), H: LineHeight(f) / 2}
	got := l.TextForms("t", forms, f, narrow, Black, Right)
	if !strings.HasSuffix(got, "…") || len(l.Overflows) != 2 {
		t.Fatalf("drew %q, overflows %v; want the last form cut, too wide and too tall", got, l.Overflows)
	}
	if m := l.Metrics(); m.Overflow != 2 || m.MinTextPx != 14 {
		t.Fatalf("metrics %+v", m)
	}
}

// Targets: the last one added wins where they overlap; Metrics reports
// the smallest target's smaller side.
func TestTargets(t *testing.T) {
	var l List
	hit := ""
	l.Target("a", "A", Rect{X: 0, Y: 0, W: 100, H: 50}, func() { hit = "a" })
	l.Target("b", "B", Rect{X: 50, Y: 0, W: 100, H: 30}, func() { hit = "b" })
	l.Target("empty", "", Rect{}, nil)
	if tg, ok := l.Hit(60, 10); !ok || tg.Role != "b" {
		t.Fatalf("hit %v %v", tg, ok)
	}
	tg, _ := l.Hit(10, 40)
	if tg.Act(); hit != "a" {
		t.Fatalf("act ran %q", hit)
	}
	if _, ok := l.Hit(500, 500); ok {
		t.Fatal("hit outside every target")
	}
	if m := l.Metrics(); m.MinTargetPx != 30 || len(l.Targets) != 2 {
		t.Fatalf("metrics %+v, %d targets", m, len(l.Targets))
	}
	l.Reset()
	if len(l.Targets) != 0 || len(l.Items) != 0 {
		t.Fatal("reset kept something")
	}
}

// HitAt answers from the regions recorded: the last one recorded that
// contains the point (the one drawn on top), none outside them; an empty
// region is not recorded; Append carries the regions of a sub-layout.
func TestHitAtFindsTheTopRegion(t *testing.T) {
	var l List
	l.AddHit("slot", 1, [2]uint32{}, Rect{0, 0, 100, 100})
	l.AddHit("slot", 2, [2]uint32{}, Rect{50, 50, 100, 100})
	l.AddHit("slot", 3, [2]uint32{}, Rect{10, 10, 0, 5})
	if len(l.Hits) != 2 {
		t.Fatalf("%d regions recorded, want 2 (the empty one is not)", len(l.Hits))
	}
	for _, c := range []struct {
		x, y float64
		id   int
		ok   bool
	}{{10, 10, 1, true}, {60, 60, 2, true}, {149, 149, 2, true}, {150, 150, 0, false}, {-1, 0, 0, false}} {
		h, ok := l.HitAt(c.x, c.y)
		if ok != c.ok || ok && h.ID != c.id {
			t.Errorf("HitAt(%v, %v) = %v, %v; want slot %d, %v", c.x, c.y, h, ok, c.id, c.ok)
		}
	}
	var outer List
	outer.Append(&l)
	if h, ok := outer.HitAt(60, 60); !ok || h.ID != 2 {
		t.Errorf("after Append: HitAt = %v, %v", h, ok)
	}
	if s := l.String(); s != "" {
		t.Errorf("regions are not drawn, yet the golden form is %q", s)
	}
}

// BreakWord cuts an identifier too wide for its column where a reader
// still sees its parts, each piece as long as fits, and nowhere else.
func TestBreakWord(t *testing.T) {
	f := Font{Style: Regular, Size: 14}
	wide := func(s string) float64 { return Width(s, f) + 0.5 }
	for _, c := range []struct {
		word string
		w    float64
		want []string
	}{
		{"BM_PIN_COUNT_WAITER", wide("BM_PIN_COUNT_"), []string{"BM_PIN_COUNT_", "WAITER"}},
		{"BM_PIN_COUNT_WAITER", wide("BM_PIN_"), []string{"BM_PIN_", "COUNT_", "WAITER"}},
		{"DropRelFileNodesAllBuffers", wide("DropRelFileNodes"), []string{"DropRelFileNodes", "AllBuffers"}},
		{"DropRelFileNodesAllBuffers", wide("DropRelFileNodesAllBuffers"), []string{"DropRelFileNodesAllBuffers"}},
		{"none", wide("n"), []string{"none"}},                     // no place to cut: whole
		{"LockBufHdr", wide("L"), []string{"Lock", "Buf", "Hdr"}}, // pieces wider than w, never letters
		{"src/backend/storage", wide("src/backend/"), []string{"src/backend/", "storage"}},
	} {
		if got := BreakWord(c.word, f, c.w); !slices.Equal(got, c.want) {
			t.Errorf("BreakWord(%q, %.1f) = %q, want %q", c.word, c.w, got, c.want)
		}
	}
}

// A scrolling group shows each line whole or not at all: the runs its top
// or bottom edge cuts through are left out (nested groups' too), the runs
// inside it and its boxes stay; a plain Clip group keeps a cut run (the
// painter clips it, and Clipped reports it).
func TestUnclipDropsCutLines(t *testing.T) {
	f := Font{Style: Regular, Size: 14}
	lh := LineHeight(f)
	var l List
	l.ClipScroll(Rect{X: 0, Y: 100, W: 300, H: 5 * lh})
	for i := -1; i <= 6; i++ {
		// Lines at half a line's offset: the ones at -0.5 and 4.5 are cut.
		l.Text("line", fmt.Sprintf("line %d", i), f, 10, 100+(float64(i)+0.5)*lh, 0, color.RGBA{A: 255}, Left)
	}
	l.Fill("box", Rect{X: 0, Y: 90, W: 300, H: 20}, color.RGBA{A: 255})
	l.Clip(Rect{X: 0, Y: 0, W: 300, H: 1000})
	l.Text("nested", "nested cut", f, 10, 100+5*lh-2, 0, color.RGBA{A: 255}, Left)
	l.Text("nested", "nested whole", f, 10, 100, 0, color.RGBA{A: 255}, Left)
	l.Unclip()
	l.Text("edge", "at the bottom edge", f, 10, 100+4*lh+0.4, 0, color.RGBA{A: 255}, Left)
	l.Unclip()
	l.Clip(Rect{X: 0, Y: 0, W: 300, H: 10})
	l.Text("plain", "cut by a plain clip", f, 10, 5, 0, color.RGBA{A: 255}, Left)
	l.Unclip()
	var got []string
	for _, it := range l.Items {
		switch it.Kind {
		case KText:
			got = append(got, it.Text)
		case KFill:
			got = append(got, "["+it.Role+"]")
		}
	}
	want := "line 0|line 1|line 2|line 3|[box]|nested whole|at the bottom edge|cut by a plain clip"
	if s := strings.Join(got, "|"); s != want {
		t.Errorf("kept %s\nwant %s", s, want)
	}
	if n := len(l.Items); l.Items[n-1].Kind != KUnclip || l.Items[0].Kind != KClip {
		t.Errorf("the groups' clip and unclip items: %v … %v", l.Items[0].Kind, l.Items[n-1].Kind)
	}
}
