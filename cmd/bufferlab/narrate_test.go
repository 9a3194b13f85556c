package main

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/cockroachdb/datadriven"

	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
	"bufferlab/lessons"
)

// The narration of every embedded scenario: lessons/scenarios/*.scn
// (lessons.Scenarios) and the scenario of every lesson (lessons.Files, a
// lesson's Script), each run as `bufferlab run --narrate` runs it.

// embedded is one embedded scenario: its golden file's name and script.
type embedded struct {
	name   string // "pin-race" (lessons/scenarios/pin-race.scn), "02-pinning" (lessons/02-pinning.md)
	arg    string // the golden directive's argument: scenario=pin-race, lesson=02-pinning
	source string // the file, from the repository's root: lessons/scenarios/pin-race.scn
	script *scenario.Script
}

func embeddedScenarios(t *testing.T) []embedded {
	t.Helper()
	var out []embedded
	files, err := fs.Glob(lessons.Scenarios, "scenarios/*.scn")
	if err != nil || len(files) == 0 {
		t.Fatalf("embedded scenarios: %v, %v", files, err)
	}
	for _, f := range files {
		src, err := fs.ReadFile(lessons.Scenarios, f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := scenario.Parse(f, string(src))
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(path.Base(f), ".scn")
		out = append(out, embedded{name: name, arg: "scenario=" + name, source: "lessons/" + f, script: s})
	}
	ls, err := lessons.All()
	if err != nil || len(ls) == 0 {
		t.Fatalf("embedded lessons: %d, %v", len(ls), err)
	}
	for _, l := range ls {
		name := strings.TrimSuffix(path.Base(l.File), ".md")
		out = append(out, embedded{name: name, arg: "lesson=" + name, source: l.File, script: l.Script})
	}
	return out
}

// testBudget is the budget of a narration in the tests: the engine's
// default, which every embedded scenario fits (it does not depend on the
// machine, as `bufferlab run`'s does).
func testBudget(int) scenario.Budget { return scenario.DefaultBudget }

// narration is what narrateRuns printed for a script, and its exit status.
func narration(t *testing.T, s *scenario.Script) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := narrateRuns(s, testBudget, &out, &errOut); code != exitOK {
		t.Fatalf("%s: narration exits %d: %s", s.File, code, errOut.String())
	}
	return out.String()
}

// A narration over narrateFullMax lines is pinned in its golden file by
// its first narrateHead lines in full and then one SHA-256 (its first 16
// hex digits) per narrateBlock lines over the rest: every caption is
// pinned, in one file per scenario, and the file stays small enough to
// read and to keep in git (big-pool's 576 147 captions are 42 MB of text).
// A failing block is printed in full by the test.
const (
	narrateFullMax = 20000
	narrateHead    = 2000
	narrateBlock   = 1000
)

// digestLine is a golden line that pins a block of captions.
var digestLine = regexp.MustCompile(`^lines (\d+)-(\d+) sha256 ([0-9a-f]{16}) `)

// goldenNarration is a narration as its golden file holds it.
func goldenNarration(text string) string {
	lines := strings.SplitAfter(text, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	if len(lines) <= narrateFullMax {
		return text
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d captions: the first %d in full, then one SHA-256 of every %d lines (and the block's first caption)\n",
		len(lines), narrateHead, narrateBlock)
	for _, l := range lines[:narrateHead] {
		b.WriteString(l)
	}
	for lo := narrateHead; lo < len(lines); lo += narrateBlock {
		hi := min(lo+narrateBlock, len(lines))
		sum := sha256.Sum256([]byte(strings.Join(lines[lo:hi], "")))
		fmt.Fprintf(&b, "lines %d-%d sha256 %x first: %s", lo+1, hi, sum[:8], lines[lo])
	}
	return b.String()
}

// reportChangedBlocks logs, for a digest line of want that got does not
// have, the block's captions as they are now (its first 40 lines), so that
// a failure shows what changed, not only that a hash did.
func reportChangedBlocks(t *testing.T, want, got, text string) {
	if want == got {
		return
	}
	have := map[string]bool{}
	for _, l := range strings.Split(got, "\n") {
		have[l] = true
	}
	lines := strings.Split(text, "\n")
	reported := 0
	for _, l := range strings.Split(want, "\n") {
		m := digestLine.FindStringSubmatch(l)
		if m == nil || have[l] || reported == 3 {
			continue
		}
		var lo, hi int
		fmt.Sscan(m[1], &lo)
		fmt.Sscan(m[2], &hi)
		hi = min(hi, len(lines), lo+39)
		if lo >= 1 && lo <= hi {
			t.Logf("lines %d-%d now read:\n%s", lo, hi, strings.Join(lines[lo-1:hi], "\n"))
			reported++
		}
	}
}

// rewriting reports whether the test runs with datadriven's -rewrite.
func rewriting() bool {
	f := flag.Lookup("rewrite")
	return f != nil && f.Value.String() == "true"
}

// TestNarrateGolden pins the narration of every embedded scenario and
// lesson in testdata/narrate/NAME.txt, one file each (directive `narrate
// scenario=NAME` or `narrate lesson=NAME`): every caption of every event
// of every variant, as `bufferlab run --narrate` prints them (long
// narrations as goldenNarration writes them). A new embedded scenario
// fails the test until its file exists; with -rewrite the test creates it.
// Regenerate with:
//
//	go test ./cmd/bufferlab -run NarrateGolden -rewrite
func TestNarrateGolden(t *testing.T) {
	cases := embeddedScenarios(t)
	byArg := map[string]embedded{}
	want := map[string]bool{}
	for _, c := range cases {
		byArg[c.arg] = c
		want[c.name+".txt"] = true
	}
	dir := filepath.Join("testdata", "narrate")
	have, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	for _, p := range have {
		if !want[filepath.Base(p)] {
			t.Errorf("%s narrates no embedded scenario or lesson: remove it", p)
		}
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.name+".txt")
		if _, err := os.Stat(p); err != nil {
			if !rewriting() {
				t.Errorf("%s: no golden narration; create it with -rewrite", p)
				continue
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			stub := fmt.Sprintf("# The narration of %s: every event's caption, as `bufferlab run --narrate` prints it.\n"+
				"# Regenerate with: go test ./cmd/bufferlab -run NarrateGolden -rewrite\nnarrate %s\n----\n", c.source, c.arg)
			if err := os.WriteFile(p, []byte(stub), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Run(c.name, func(t *testing.T) {
			datadriven.RunTest(t, p, func(t *testing.T, d *datadriven.TestData) string {
				if d.Cmd != "narrate" || len(d.CmdArgs) != 1 {
					t.Fatalf("%s: want `narrate scenario=NAME` or `narrate lesson=NAME`, found %q", d.Pos, d.Cmd)
				}
				e, ok := byArg[d.CmdArgs[0].String()]
				if !ok {
					t.Fatalf("%s: no embedded %s", d.Pos, d.CmdArgs[0])
				}
				text := narration(t, e.script)
				got := goldenNarration(text)
				reportChangedBlocks(t, d.Expected, got, text)
				return got
			})
		})
	}
}

// narrated is every embedded scenario run and captioned, once for the
// tests that read them all.
type narrated struct {
	name    string // "pin-race"
	variant string // "pins=atomic"; "" for a scenario of one variant
	events  []trace.Event
	names   scenario.Names
	caps    []string
}

var (
	allNarratedOnce sync.Once
	allNarratedRuns []narrated
	allNarratedErr  error
)

func allNarrated(t *testing.T) []narrated {
	t.Helper()
	cases := embeddedScenarios(t)
	allNarratedOnce.Do(func() {
		for _, c := range cases {
			nv := len(scenario.Variants(c.script))
			for v := 0; v < nv; v++ {
				r, err := scenario.NewVariantRunner(c.script, true, v)
				if err != nil {
					allNarratedErr = err
					return
				}
				r.SetBudget(scenario.DefaultBudget)
				if _, err := r.RunAll(); err != nil {
					allNarratedErr = fmt.Errorf("%s: %v", c.name, err)
					return
				}
				n := narrated{name: c.name, events: r.Log().Events(), names: r.Names()}
				if nv > 1 {
					n.variant = r.Variant().String()
				}
				n.caps = make([]string, len(n.events))
				for i := range n.events {
					n.caps[i] = scenario.Caption(trace.Slice(n.events), i, n.names)
				}
				allNarratedRuns = append(allNarratedRuns, n)
			}
		}
	})
	if allNarratedErr != nil {
		t.Fatal(allNarratedErr)
	}
	return allNarratedRuns
}

// TestNarrateCaptionsInWords: every event of every embedded scenario and
// lesson, in every variant, has a caption in words (scenario.CheckCaption:
// not empty, at most scenario.CaptionMaxLen runes, on one line, no raw kind
// name, no description layout, no code name but the PostgreSQL 15 ones
// checked against its source, not the generic caption that an event
// without its own sentence gets), and the captions cover every kind the
// runs emit.
func TestNarrateCaptionsInWords(t *testing.T) {
	kinds := map[trace.Kind]int{}
	bad := 0
	longest := ""
	checked := map[string]error{} // by template: CheckCaption says the same of every caption of one template
	for _, n := range allNarrated(t) {
		for i, c := range n.caps {
			kinds[n.events[i].Kind]++
			tpl := template(c)
			err, ok := checked[tpl]
			if !ok {
				err = scenario.CheckCaption(c)
				checked[tpl] = err
				if len([]rune(c)) > len([]rune(longest)) {
					longest = c
				}
			}
			if err != nil {
				if bad++; bad <= 20 {
					t.Errorf("%s %s event %d (%s at %s): %v", n.name, n.variant, i, n.events[i].Kind, n.events[i].Site, err)
				}
			}
		}
	}
	if bad > 20 {
		t.Errorf("… %d captions wrong in all", bad)
	}
	var ks []string
	for k := range kinds {
		ks = append(ks, k.String())
	}
	sort.Strings(ks)
	t.Logf("%d kinds captioned: %s; longest caption (%d runes): %s", len(ks), strings.Join(ks, " "), len([]rune(longest)), longest)
	if kinds[trace.KNone] != 0 {
		t.Errorf("a run logged %d idle events", kinds[trace.KNone])
	}
}

// template is a caption with every digit written 0: the captions of one
// sentence about different buffers, pages or counts share it, and have the
// same length and the same words.
func template(c string) string {
	return strings.Map(func(r rune) rune {
		if r >= '1' && r <= '9' {
			return '0'
		}
		return r
	}, c)
}

// TestNarrateMoments: the lesson moments the engine packages classify
// (scenario.MomentOf) are where the scenarios are about them.
func TestNarrateMoments(t *testing.T) {
	type key struct{ name, variant string }
	got := map[key]map[trace.Moment]int{}
	all := map[trace.Moment]int{}
	for _, n := range allNarrated(t) {
		k := key{n.name, n.variant}
		got[k] = map[trace.Moment]int{}
		for _, e := range n.events {
			m := scenario.MomentOf(e)
			got[k][m]++
			all[m]++
		}
	}
	for _, w := range []struct {
		name, variant string
		moment        trace.Moment
		count         int // 0: at least one
	}{
		{"pin-race", "pins=atomic", trace.MomentCASFail, 2},
		{"pin-race", "pins=spinlock", trace.MomentSpin, 7},
		{"pin-race", "pins=spinlock", trace.MomentCASFail, -1},
		{"seventeen-blocks", "", trace.MomentVictim, 17},
		{"clock-sweep", "", trace.MomentVictim, 0},
		{"drop-race", "drop=scan", trace.MomentDrop, 20},
		{"drop-race", "drop=lookup", trace.MomentDrop, 20},
		{"drop-race", "drop=dlist", trace.MomentDrop, 20},
		{"drop-race", "drop=scan", trace.MomentLookupMiss, 0},
		{"big-pool", "", trace.MomentVictim, 17000},
		{"fsm-small-skip", "", trace.MomentFSMSkip, 0},
		{"fsm-small-skip", "", trace.MomentFSMCreate, -1},
	} {
		m, ok := got[key{w.name, w.variant}]
		if !ok {
			t.Errorf("no run %s %s", w.name, w.variant)
			continue
		}
		switch n := m[w.moment]; {
		case w.count == 0 && n == 0:
			t.Errorf("%s %s: no %s moment", w.name, w.variant, w.moment)
		case w.count == -1 && n != 0:
			t.Errorf("%s %s: %d %s moments, want none", w.name, w.variant, n, w.moment)
		case w.count > 0 && n != w.count:
			t.Errorf("%s %s: %d %s moments, want %d", w.name, w.variant, n, w.moment, w.count)
		}
	}
	// Every moment a lesson can stop on occurs somewhere in the embedded
	// scenarios and lessons.
	for m := trace.Moment(1); int(m) < trace.NumMoments; m++ {
		if all[m] == 0 {
			t.Errorf("no embedded scenario or lesson has a %s moment", m)
		}
	}
}

// The issue's done-when check: `bufferlab run --narrate
// lessons/scenarios/pin-race.scn` captions each failed CAS naming the
// backend whose CAS failed and the backends that changed the word first,
// and says that it retries.
func TestRunNarratePinRace(t *testing.T) {
	out := cliOK(t, "", "run", "--narrate", "../../lessons/scenarios/pin-race.scn")
	wantOutput(t, out,
		"[pins=atomic] 00044 C's CAS fails: B changed buffer 0's state word first (refcount 0 → 1). C retries with the new word.\n",
		"[pins=atomic] 00050 A's CAS fails: B and C changed buffer 0's state word first (refcount 0 → 2). A retries with the new word.\n",
	)
	var fails []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "CAS fails") {
			fails = append(fails, l)
		}
	}
	if len(fails) != 2 {
		t.Errorf("%d captions of a failed CAS, want 2 (the atomic pane's):\n%s", len(fails), strings.Join(fails, "\n"))
	}
	// One line per event, each pane's in order, nothing else.
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 59+64 {
		t.Errorf("%d lines, want 123 (59 events with pins=atomic, 64 with pins=spinlock)", len(lines))
	}
	line := regexp.MustCompile(`^\[pins=(atomic|spinlock)\] \d{5} \S`)
	for _, l := range lines {
		if !line.MatchString(l) {
			t.Errorf("not a caption line: %q", l)
		}
	}
}

// --narrate: one variant has no pane label; stdin works; it combines with
// no other output flag, and says so.
func TestRunNarrateFlags(t *testing.T) {
	out := cliOK(t, "", "run", "--narrate", seventeenPath)
	if !strings.HasPrefix(out, "00000 A wants t1/0 (ReadBuffer_common): is it in the pool already?\n") {
		t.Errorf("narration starts %q", strings.SplitN(out, "\n", 2)[0])
	}
	wantOutput(t, out, "The clock hand stops at buffer 0: unpinned, usage 0. It is A's victim.\n")
	src, err := os.ReadFile(seventeenPath)
	if err != nil {
		t.Fatal(err)
	}
	if in := cliOK(t, string(src), "run", "-", "--narrate"); in != out {
		t.Error("--narrate on stdin differs from the file's narration")
	}
	for _, flags := range [][]string{{"--json"}, {"--summary"}, {"--no-events"}, {"--json", "--summary"}} {
		code, stdout, stderr := cli(t, "", append([]string{"run", "--narrate", seventeenPath}, flags...)...)
		if code != exitBadInput || stdout != "" ||
			!strings.Contains(stderr, "--narrate prints one caption per event and nothing else; it cannot be combined with "+strings.Join(flags, " or ")) {
			t.Errorf("run --narrate %v: exit %d, stdout %q, stderr %q", flags, code, stdout, stderr)
		}
	}
	// A scenario error after some events: the captions so far, the error
	// on stderr, the exit status of the error.
	code, stdout, stderr := cli(t, "relation t blocks=1\nbackend A: read t 0\nrun\nexpect block t 0 rc=5\n", "run", "--narrate", "-")
	if code != exitCheck || !strings.Contains(stdout, "A wants t/0 (ReadBuffer_common)") || !strings.Contains(stderr, "<stdin>:4:") {
		t.Errorf("failed expect: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
