package startup

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"bufferlab/viz/layout"
)

func TestParse(t *testing.T) {
	var e bytes.Buffer
	o, code := Parse([]string{"--lesson", "pinning", "--step", "3", "--width", "1400"}, &e)
	if o == nil || code != 0 || o.Lesson != "pinning" || o.Step != 3 || o.Width != 1400 || o.Height != 800 || o.Event != -1 || o.Theme != "light" || e.Len() != 0 {
		t.Fatalf("%+v, exit %d, stderr %q", o, code, e.String())
	}
	if o, code := Parse([]string{"--size", "390x844"}, &e); o == nil || code != 0 || o.Width != 390 || o.Height != 844 {
		t.Fatalf("--size 390x844: %+v, exit %d, stderr %q", o, code, e.String())
	}
	o, _ = Parse([]string{"--progress-file", "/tmp/p.json", "--reset-progress"}, &e)
	if o == nil || o.ProgressFile != "/tmp/p.json" || !o.ResetProgress {
		t.Fatalf("progress flags: %+v", o)
	}
	if o, _ = Parse(nil, &e); o.ProgressFile != "" || o.ResetProgress {
		t.Fatalf("no progress flags: %+v", o)
	}
	if o, code := Parse([]string{"--theme", "dark"}, &e); o == nil || code != 0 || o.Theme != "dark" {
		t.Fatalf("--theme dark: %+v, exit %d, stderr %q", o, code, e.String())
	}
	if o, code := Parse([]string{"--lesson", "pinning", "--step", "2", "--stop", "1", "--answer", "1", "--autoslow=false"}, &e); o == nil || code != 0 || o.Stop != 1 || o.Answer != 1 || !o.NoAutoSlow {
		t.Fatalf("--stop 1 --answer 1 --autoslow=false: %+v, exit %d, stderr %q", o, code, e.String())
	}
	if o, _ := Parse(nil, &e); o.NoAutoSlow || o.Stop != 0 || o.Answer != 0 || o.Step != 0 {
		t.Fatalf("defaults: %+v", o)
	}
	if o, code := Parse([]string{"--lesson", "slru-banks", "--tab", "scene"}, &e); o == nil || code != 0 || o.Tab != "scene" {
		t.Fatalf("--tab scene: %+v, exit %d, stderr %q", o, code, e.String())
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--help"}, 0, "usage: desktop [flags]"},
		{[]string{"-h"}, 0, "-lesson string"},
		{[]string{"--bogus"}, 2, "flag provided but not defined: -bogus"},
		{[]string{"extra"}, 2, `desktop: unexpected arguments ["extra"]`},
		{[]string{"--height", "300"}, 2, "found 1280x300"},
		{[]string{"--lesson", "a", "--scenario", "b"}, 2, "give --lesson or --scenario, not both"},
		{[]string{"--size", "390x"}, 2, `--size "390x": expected WIDTHxHEIGHT`},
		{[]string{"--size", "390x844junk"}, 2, `expected WIDTHxHEIGHT`},
		{[]string{"--size", "100x844"}, 2, "within 320..8192 pixels each way, found 100x844"},
		{[]string{"--size", "390x844", "--width", "500"}, 2, "give --size or --width and --height, not both"},
		{[]string{"--theme", "sepia"}, 2, `desktop: --theme "sepia": the themes are light, dark`},
		{[]string{"--theme", ""}, 2, `desktop: --theme "": the themes are light, dark`},
		{[]string{"--lesson", "a", "--tab", "scenes"}, 2, `--tab "scenes": expected lesson, scene or code`},
		{[]string{"--tab", "scene"}, 2, "--tab needs --lesson or --scenario"},
		{[]string{"--stop", "1"}, 2, "--stop needs --lesson"},
		{[]string{"--lesson", "a", "--stop", "-1"}, 2, "--stop and --answer count from 1"},
		{[]string{"--lesson", "a", "--stop", "1", "--event", "3"}, 2, "give --stop or --event, not both"},
		{[]string{"--lesson", "a", "--answer", "2"}, 2, "--answer needs --stop"},
		{[]string{"--lesson", "a", "--step", "0"}, 2, `--step 0: steps count from 1, as the screen's "Step N of M"`},
		{[]string{"--lesson", "a", "--step", "-2"}, 2, "--step -2: steps count from 1"},
		{[]string{"--step", "3"}, 2, "--step needs --lesson or --scenario"},
	} {
		e.Reset()
		o, code := Parse(c.args, &e)
		if o != nil || code != c.code || !strings.Contains(e.String(), c.want) {
			t.Errorf("%q: %+v, exit %d, stderr %q; want exit %d and %q", c.args, o, code, e.String(), c.code, c.want)
		}
	}
}

// The themes --theme accepts are the ones viz/layout has.
func TestThemeNames(t *testing.T) {
	if !slices.Equal(themeNames, layout.ThemeNames) {
		t.Errorf("startup knows the themes %v, viz/layout %v", themeNames, layout.ThemeNames)
	}
}
