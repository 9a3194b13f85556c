package narratetest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cockroachdb/datadriven"

	"bufferlab/engine/internal/narrate"
	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
)

// Moment is one case of a table of moments: an event, and the lesson
// moment it is.
type Moment struct {
	Name string
	E    trace.Event
	Want trace.Moment
}

// Moments checks a package's MomentOf, and scenario.MomentOf (which
// dispatches to it), against cases.
func Moments(t *testing.T, momentOf func(trace.Event) trace.Moment, cases []Moment) {
	t.Helper()
	for _, c := range cases {
		if got := momentOf(c.E); got != c.Want {
			t.Errorf("%s: MomentOf = %s, want %s", c.Name, got, c.Want)
		}
		if got := scenario.MomentOf(c.E); got != c.Want {
			t.Errorf("%s: scenario.MomentOf = %s, want %s", c.Name, got, c.Want)
		}
	}
}

// Sites are site 0 (none) and every site own accepts: a package's own.
func Sites(own func(trace.Site) bool) []trace.Site {
	sites := []trace.Site{0}
	for s := trace.Site(1); int(s) < trace.Sites(); s++ {
		if own(s) {
			sites = append(sites, s)
		}
	}
	return sites
}

// Synthetic is a set of made-up events: every kind of event, on each of
// Classes, at each of Sites, with each of Values (Before, After, Arg and
// Obj), by Actor.
type Synthetic struct {
	Classes []trace.ObjClass
	Sites   []trace.Site
	Values  []trace.Event
	Actor   trace.Actor
}

// InWords checks that caption gives each of s's events a caption in
// words (WordsAnyValues): no panic, no raw kind name, no description
// layout, within narrate.MaxLen. The kind and site pairs a package never
// emits get its generic caption, in words too.
func (s Synthetic) InWords(t *testing.T, caption func(e trace.Event) string) {
	t.Helper()
	checked := map[string]bool{}
	n := 0
	for k := trace.Kind(1); int(k) < trace.NumKinds; k++ {
		for _, c := range s.Classes {
			for _, site := range s.Sites {
				for _, v := range s.Values {
					e := v
					e.Kind, e.Class, e.Site, e.Actor = k, c, site, s.Actor
					got := caption(e)
					n++
					if checked[got] {
						continue
					}
					if err := WordsAnyValues(got); err != nil {
						t.Fatalf("%s on %s at %s: %v", k, c, site, err)
					}
					checked[got] = true
				}
			}
		}
	}
	t.Logf("%d synthetic events captioned", n)
}

// digitRuns are the numbers of a caption.
var digitRuns = regexp.MustCompile(`[0-9]+`)

// WordsAnyValues is narrate.CheckWords for a caption of made-up values:
// its length is measured with every number written as one digit, since a
// count of 2^46 buffers would make any sentence too long.
func WordsAnyValues(c string) error {
	err := narrate.CheckWords(c)
	if err != nil && utf8.RuneCountInString(c) > narrate.MaxLen {
		err = narrate.CheckWords(digitRuns.ReplaceAllString(c, "0"))
	}
	return err
}

// GoldenCaptions checks that every event of a package's golden files
// (testdata/*.txt, which its TestGolden runs) has a caption of its own,
// in words (narrate.Check): no event falls back to the generic caption.
// run plays one case of a file and gives its events (a failed run's
// too) and the names they are captioned with; no events for a case that
// has none (a script the error directive expects to fail). Captions are
// checked once by template (every digit written 0, so the length stays):
// Check says the same of every caption of one.
func GoldenCaptions(t *testing.T, run func(t *testing.T, file string, d *datadriven.TestData) ([]trace.Event, scenario.Names)) {
	t.Helper()
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	events := 0
	checked := map[string]bool{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		datadriven.RunTestFromString(t, string(src), func(t *testing.T, d *datadriven.TestData) string {
			evs, names := run(t, f, d)
			for i := range evs {
				events++
				c := scenario.Caption(trace.Slice(evs), i, names)
				tpl := strings.Map(func(r rune) rune {
					if r >= '1' && r <= '9' {
						return '0'
					}
					return r
				}, c)
				if checked[tpl] {
					continue
				}
				checked[tpl] = true
				if err := narrate.Check(c); err != nil {
					t.Errorf("%s:%s: event %d (%s at %s): %v", f, d.Pos, i, evs[i].Kind, evs[i].Site, err)
				}
			}
			return d.Expected // TestGolden compares the output; this test reads the events
		})
	}
	t.Logf("%d events captioned", events)
}
