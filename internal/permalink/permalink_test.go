package permalink

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"io/fs"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"bufferlab/lessons"
)

// TestRoundTrip: whatever a link says, Decode(Encode(l)) says the same,
// without notices (at most one thing to open: the first of lesson,
// Markdown and scenario that Encode writes).
func TestRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := Link{
			Step:    rapid.IntRange(0, 1000).Draw(t, "step"),
			Event:   rapid.IntRange(0, 1<<30).Draw(t, "event"),
			Sandbox: rapid.Bool().Draw(t, "sandbox"),
			Embed:   rapid.Bool().Draw(t, "embed"),
		}
		text := rapid.String().Draw(t, "text")
		switch rapid.IntRange(0, 3).Draw(t, "what") {
		case 1:
			l.Lesson = rapid.StringMatching(`[a-z0-9&=#% -]{1,20}`).Draw(t, "lesson")
		case 2:
			l.Markdown = text
		case 3:
			l.Scenario = text
		}
		if l.Markdown == "" && l.Scenario == "" && l.Lesson == "" && rapid.Bool().Draw(t, "empty") {
			l = Link{}
		}
		frag := Encode(l)
		got, notices := Decode("#" + frag)
		if len(notices) > 0 {
			t.Fatalf("Decode(%q): notices %q", frag, notices)
		}
		if got != l {
			t.Fatalf("Decode(Encode(%+v)) = %+v (fragment %q)", l, got, frag)
		}
	})
}

func TestEncodeIsStable(t *testing.T) {
	l := Link{Lesson: "pinning", Step: 3, Event: 12, Embed: true}
	if got, want := Encode(l), "embed&lesson=pinning&step=3&event=12"; got != want {
		t.Fatalf("Encode = %q, want %q", got, want)
	}
	if got := Encode(Link{}); got != "" {
		t.Fatalf("Encode(zero) = %q, want empty", got)
	}
}

// TestDecodeNotices: what a link gets wrong is said, and the rest still
// counts.
func TestDecodeNotices(t *testing.T) {
	for _, c := range []struct {
		frag   string
		want   Link
		notice string
	}{
		{"lesson=pinning&step=0", Link{Lesson: "pinning"}, `The link's step "0" is not a step number (steps count from 1): it was ignored.`},
		{"lesson=pinning&step=-2&event=4", Link{Lesson: "pinning", Event: 4}, `The link's step "-2" is not a step number (steps count from 1): it was ignored.`},
		{"lesson=pinning&event=x", Link{Lesson: "pinning"}, `The link's event "x" is not a event number (events count from 0): it was ignored.`},
		{"lesson=pinning&step=99999999999999999999", Link{Lesson: "pinning"}, `The link's step "99999999999999999999" is not a step number (steps count from 1): it was ignored.`},
		{"lesson=a&lesson=b", Link{Lesson: "a"}, "The link names both lesson and lesson; BufferLab opens the lesson."},
		{"lesson=a&scenario=" + Compress("x"), Link{Lesson: "a"}, "The link names both lesson and scenario text; BufferLab opens the lesson."},
		{"lesson=%zz", Link{}, `The link's lesson "%zz" is not a lesson name.`},
		{"scenario=!!!", Link{}, "The scenario carried in the link could not be read (not base64url: illegal base64 data at input byte 0)."},
		{"md=" + Compress("# a lesson")[:6], Link{}, "The lesson carried in the link could not be read (the compressed text is cut short (was the link copied whole?))."},
		{"colour=red&lesson=pinning", Link{Lesson: "pinning"}, `The link has "colour", which BufferLab does not know (expected lesson, md, scenario, step, event, sandbox or embed): it was ignored.`},
		{"embed=yes&lesson=pinning", Link{Lesson: "pinning", Embed: true}, `The link's "embed" takes no value (found "yes"); it counts as given.`},
	} {
		got, notices := Decode(c.frag)
		if got != c.want || len(notices) != 1 || notices[0] != c.notice {
			t.Errorf("Decode(%q) = %+v, %q; want %+v, [%q]", c.frag, got, notices, c.want, c.notice)
		}
	}
}

// TestDecompressBomb: a link whose text inflates past MaxText is refused
// without inflating it all, though it is a few kilobytes.
func TestDecompressBomb(t *testing.T) {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	zeros := make([]byte, 1<<20)
	for range 64 {
		w.Write(zeros)
	}
	w.Close()
	z := base64.RawURLEncoding.EncodeToString(b.Bytes())
	if len(z) > 200_000 {
		t.Fatalf("the bomb is %d characters: not a bomb", len(z))
	}
	if _, err := Decompress(z); err != ErrTooLarge {
		t.Fatalf("Decompress(64 MiB of zeros) = %v, want ErrTooLarge", err)
	}
	if _, notices := Decode("scenario=" + z); len(notices) != 1 || !strings.Contains(notices[0], "inflates to more than") {
		t.Fatalf("Decode(bomb) notices %q", notices)
	}
	huge := strings.Repeat("a", MaxText+1)
	if l, notices := Decode(huge); l != (Link{}) || len(notices) != 1 {
		t.Fatalf("Decode(%d characters) = %+v, %q", len(huge), l, notices)
	}
}

func TestClamp(t *testing.T) {
	events := func(s int) int { return []int{0, 10, 20, 30}[s] }
	l, notices := Clamp(Link{Lesson: "x", Step: 9, Event: 50}, 3, events)
	if l.Step != 3 || l.Event != 30 || len(notices) != 2 {
		t.Fatalf("Clamp = %+v, %q; want step 3, event 30 and two notices", l, notices)
	}
	if notices[0] != "The link asked for step 9, but there are 3 steps: showing the last one." ||
		notices[1] != "The link asked for event 50 of step 3, which has 30 events: showing its end." {
		t.Fatalf("notices %q", notices)
	}
	l, notices = Clamp(Link{Lesson: "x", Event: 5}, 3, events)
	if l.Step != 0 || l.Event != 5 || notices != nil {
		t.Fatalf("Clamp of an event in step 1 = %+v, %q", l, notices)
	}
}

func TestFit(t *testing.T) {
	for _, c := range []struct {
		n    int
		fit  Fit
		says string
	}{
		{0, FitAnywhere, ""}, {Anywhere, FitAnywhere, ""},
		{Anywhere + 1, FitBrowsers, "chat and mail programs may cut links over 2000 characters"},
		{Browsers, FitBrowsers, "Sharing the file is safer"},
		{Browsers + 1, FitTooLong, "share the file instead"},
	} {
		if f := FitOf(c.n); f != c.fit {
			t.Errorf("FitOf(%d) = %d, want %d", c.n, f, c.fit)
		}
		if a := Advice(c.n); (c.says == "") != (a == "") || !strings.Contains(a, c.says) {
			t.Errorf("Advice(%d) = %q, want it to say %q", c.n, a, c.says)
		}
	}
}

// TestEmbeddedTextsFit: every embedded scenario fits in a link that
// survives anywhere (a scenario is what a teacher shares most), and every
// lesson's Markdown in one that browsers keep; each decodes to itself.
func TestEmbeddedTextsFit(t *testing.T) {
	for _, c := range []struct {
		fs    fs.FS
		glob  string
		limit Fit
		link  func(string) Link
	}{
		{lessons.Scenarios, "scenarios/*.scn", FitAnywhere, func(s string) Link { return Link{Scenario: s, Step: 1, Event: 99} }},
		{lessons.Files, "*.md", FitBrowsers, func(s string) Link { return Link{Markdown: s, Step: 14} }},
	} {
		names, err := fs.Glob(c.fs, c.glob)
		if err != nil || len(names) == 0 {
			t.Fatalf("%s: %v (no files)", c.glob, err)
		}
		for _, name := range names {
			b, err := fs.ReadFile(c.fs, name)
			if err != nil {
				t.Fatal(err)
			}
			l := c.link(string(b))
			frag := Encode(l)
			t.Logf("%s: %d bytes, a link of %d characters", name, len(b), len(frag)+1)
			if FitOf(len(frag)+1) > c.limit {
				t.Errorf("%s: a link of %d characters: %s", name, len(frag)+1, Advice(len(frag)+1))
			}
			if got, notices := Decode(frag); got != l || notices != nil {
				t.Errorf("%s: does not decode to itself (notices %q)", name, notices)
			}
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add("lesson=pinning&step=3&event=12")
	f.Add("embed&scenario=" + Compress("relation t blocks=1\nbackend A: touch t 0\nrun\n"))
	f.Add("md=%%%&&&step=&event=-1")
	f.Fuzz(func(t *testing.T, frag string) {
		l, _ := Decode(frag)
		if l.Step < 0 || l.Event < 0 {
			t.Fatalf("Decode(%q) = %+v: negative step or event", frag, l)
		}
		n := 0
		for _, s := range []string{l.Lesson, l.Markdown, l.Scenario} {
			if s != "" {
				n++
			}
		}
		if n > 1 {
			t.Fatalf("Decode(%q) = %+v: more than one thing to open", frag, l)
		}
	})
}
