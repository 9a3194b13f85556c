package keymap_test

import (
	"strings"
	"testing"

	"bufferlab/lessons"
	"bufferlab/viz/frame"
	"bufferlab/viz/frame/framecheck"
	"bufferlab/viz/keymap"
	"bufferlab/viz/player"
)

// Every button the frame lays out (a target whose role is "button " or
// "tab " and the button's label in the table) is in keymap.Buttons, and every button
// of the table is laid out somewhere: at the start of each step of each
// lesson on a laptop and on a phone, and once while playing (pause).
func TestEveryButtonIsInTheTable(t *testing.T) {
	all, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	drawn := map[string]string{} // label → where first seen
	for _, vp := range [][2]float64{{1280, 800}, {390, 844}} {
		fs, err := framecheck.Lessons(all, vp[0], vp[1], false)
		if err != nil {
			t.Fatal(err)
		}
		for i := range fs {
			for _, tg := range fs[i].List.Targets {
				lbl, ok := strings.CutPrefix(tg.Role, "button ")
				if tab, isTab := strings.CutPrefix(tg.Role, "tab "); isTab && strings.Contains(keymap.Tabs, tab) {
					lbl, ok = keymap.Tabs, true
				}
				if ok && drawn[lbl] == "" {
					drawn[lbl] = fs[i].Name()
				}
			}
		}
	}
	// Playing: the play button says pause. A scenario the browser's
	// sandbox runs has an Edit button.
	p, err := player.FromLesson(all[0])
	if err != nil {
		t.Fatal(err)
	}
	p.Answer(0)
	p.Toggle()
	var st frame.State
	f := framecheck.Frame{}
	frame.Build(&f.List, &st, &frame.Screen{Lessons: lessons.Entries(all), Player: p}, frame.Input{W: 1280, H: 800}, frame.Hooks{Edit: func() {}})
	for _, tg := range f.List.Targets {
		if lbl, ok := strings.CutPrefix(tg.Role, "button "); ok && drawn[lbl] == "" {
			drawn[lbl] = "playing"
		}
	}
	// The menu, with its reset button.
	f = framecheck.Frame{}
	frame.Build(&f.List, &st, &frame.Screen{Lessons: lessons.Entries(all), Reset: frame.Reset{Label: "Reset progress (R)"}}, frame.Input{W: 1280, H: 800}, frame.Hooks{})
	for _, tg := range f.List.Targets {
		if lbl, ok := strings.CutPrefix(tg.Role, "button "); ok && drawn[lbl] == "" {
			drawn[lbl] = "menu"
		}
	}
	if len(drawn) < 15 {
		t.Fatalf("found %d buttons in the frames (%v)", len(drawn), drawn)
	}
	table := map[string]bool{}
	for _, b := range keymap.Buttons {
		if table[b.Label] {
			t.Errorf("button %q twice in the table", b.Label)
		}
		table[b.Label] = true
		if drawn[b.Label] == "" {
			t.Errorf("keymap.Buttons has %q, which no frame lays out", b.Label)
		}
	}
	for lbl, where := range drawn {
		if !table[lbl] {
			t.Errorf("%s lays out a button %q that keymap.Buttons lacks", where, lbl)
		}
	}
}
