package layout_test

import (
	"image/color"
	"strings"
	"testing"

	"bufferlab/internal/colorcheck"
	"bufferlab/viz/layout"
)

// Body text reads in both themes: Text and Muted on the panels and the
// background, and Text on the fills it is written over (the highlight of
// what the event changed, a hovered button or choice), at WCAG's 4.5:1
// for body text (success criterion 1.4.3, level AA).
func TestThemeContrast(t *testing.T) {
	for _, name := range layout.ThemeNames {
		th, err := layout.NewTheme(name, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			what     string
			text, on color.RGBA
		}{
			{"Text on Panel", th.Text, th.Panel},
			{"Text on Background", th.Text, th.Background},
			{"Muted on Panel", th.Muted, th.Panel},
			{"Muted on Background", th.Muted, th.Background},
			{"Text on HighlightFill", th.Text, th.HighlightFill},
			{"Muted on HighlightFill", th.Muted, th.HighlightFill},
			{"Text on Hover", th.Text, th.Hover},
		} {
			r := colorcheck.Contrast(c.text, c.on)
			t.Logf("%s: %s %.2f:1", name, c.what, r)
			if r < 4.5 {
				t.Errorf("%s: %s is %.2f:1, want at least 4.5:1", name, c.what, r)
			}
		}
		// The dark theme's error colour is written on the panel (a
		// waiting backend, a failed lookup) and has TextOn's text on it
		// (the victim's tab). (The light theme's vermilion is 3.9:1 on
		// white, with white text on it 3.9:1 too: left as it was.)
		if name == "dark" {
			for _, c := range []struct {
				what     string
				text, on color.RGBA
			}{{"Error on Panel", th.Error, th.Panel}, {"TextOn(Error) on Error", layout.TextOn(th.Error), th.Error}} {
				if r := colorcheck.Contrast(c.text, c.on); r < 4.5 {
					t.Errorf("%s: %s is %.2f:1, want at least 4.5:1", name, c.what, r)
				}
			}
		}
	}
}

// NewTheme knows every name in ThemeNames, and says which there are when
// it is given another.
func TestNewTheme(t *testing.T) {
	for _, name := range layout.ThemeNames {
		th, err := layout.NewTheme(name, 1.45)
		if err != nil || th.Name != name || th.Scale != 1.45 {
			t.Errorf("NewTheme(%q): %+v, %v", name, th, err)
		}
	}
	th, err := layout.NewTheme("sepia", 1)
	if th != nil || err == nil || err.Error() != `no theme "sepia": the themes are light, dark` {
		t.Errorf("NewTheme(sepia): %v, %v", th, err)
	}
}

// Every colour of every theme is set (a colour left out would be
// transparent black), and the dark theme is dark: its background darker
// than its text, the light theme's the other way round.
func TestThemesComplete(t *testing.T) {
	for _, name := range layout.ThemeNames {
		th, _ := layout.NewTheme(name, 1)
		for _, nc := range th.Colours() {
			// The scrim is the one translucent colour.
			if c := nc.Colour; c.A == 0 || c.A != 0xff && !strings.HasSuffix(nc.Path, "Scrim") {
				t.Errorf("%s: %s is %v", name, nc.Path, c)
			}
		}
		dark := colorcheck.Luminance(th.Background) < colorcheck.Luminance(th.Text)
		if dark != (name == "dark") {
			t.Errorf("%s: background %v, text %v", name, th.Background, th.Text)
		}
	}
}
