package keymap

import (
	"fmt"
	"strings"
	"testing"

	"bufferlab/internal/goldentest"
	"bufferlab/viz/layout"
)

var placeNames = map[string]Where{"menu": Menu, "lesson": Lesson, "side": SideBySide, "drop": DropRace, "fast": FastMode}

// TestHelpGolden runs testdata/help.txt: the help overlay's layout.
//
//	help screen=WxH [scale=S] now=menu|lesson|side|drop|fast
//	    LayoutHelp on a W×H screen with the theme at scale S (1) where
//	    the app is now: the box, the type size used, then every text run
//	    and every overflow
//
// Regenerate with: go test ./viz/keymap -rewrite
func TestHelpGolden(t *testing.T) {
	goldentest.RunFile(t, "testdata/help.txt", goldentest.Directives{"help": func(t *testing.T, d *goldentest.Case) (string, error) {
		var now string
		d.ScanArgs(t, "now", &now)
		w, h := goldentest.Size(t, d, "screen")
		th := layout.Light(goldentest.Float(t, d, "scale", 1))
		var l layout.List
		box := LayoutHelp(&l, layout.Rect{W: w, H: h}, th, placeNames[now])
		var b strings.Builder
		fmt.Fprintf(&b, "box %.1f,%.1f %.1fx%.1f, text %.1f px\n", box.X, box.Y, box.W, box.H, l.Texts("help")[0].Font.Size)
		var texts layout.List
		for _, it := range l.Items {
			if it.Kind == layout.KText {
				texts.Items = append(texts.Items, it)
			}
		}
		texts.Overflows = l.Overflows
		b.WriteString(texts.String())
		return b.String(), nil
	}})
}

// helpScreens are the screens the help must fit whole.
var helpScreens = []struct{ w, h, scale float64 }{
	{390, 844, 1}, {1280, 720, 1}, {1280, 800, 1}, {1920, 1080, 1}, {1280, 720, 1.45}, {1920, 1080, 1.45},
}

// On every screen and wherever the app is, the help shows every binding's
// keys and words and every button's label, inside the screen, with no
// overflow, in type no smaller than 10 px (scaled).
func TestHelpShowsEverythingOnEveryScreen(t *testing.T) {
	for _, s := range helpScreens {
		for name, now := range placeNames {
			th := layout.Light(s.scale)
			screen := layout.Rect{W: s.w, H: s.h}
			var l layout.List
			box := LayoutHelp(&l, screen, th, now)
			c := fmt.Sprintf("%vx%v scale %v in %s", s.w, s.h, s.scale, name)
			if box.X < 0 || box.Y < 0 || box.X+box.W > s.w || box.Y+box.H > s.h {
				t.Errorf("%s: box %v outside the screen", c, box)
			}
			if len(l.Overflows) > 0 {
				t.Errorf("%s: overflows:\n%s", c, (&layout.List{Overflows: l.Overflows}).String())
			}
			if m := l.MinTextSize(); m < 10*s.scale-1e-9 {
				t.Errorf("%s: text at %.1f px", c, m)
			}
			var words []string
			for _, it := range l.Texts("") {
				words = append(words, it.Text)
				if !box.Contains(it.Rect.X, it.Rect.Y) || it.Rect.X+it.Rect.W > box.X+box.W+0.5 || it.Rect.Y+it.Rect.H > box.Y+box.H+0.5 {
					t.Errorf("%s: %s outside the box %v", c, it, box)
				}
			}
			all := strings.Join(words, " ")
			for _, b := range Bindings {
				if !strings.Contains(all, b.Keys) || !strings.Contains(all, b.Does) {
					t.Errorf("%s: %q (%s) missing", c, b.Keys, b.Does)
				}
			}
			for _, b := range Buttons {
				if !strings.Contains(all, "["+b.Label+"]") {
					t.Errorf("%s: button %q missing", c, b.Label)
				}
			}
		}
	}
}
