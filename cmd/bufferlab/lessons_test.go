package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLessonsList(t *testing.T) {
	code, out, errOut := cli(t, "", "lessons")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	if !strings.Contains(out, "shared-buffers") || !strings.Contains(out, "Shared buffers: hits, misses and the clock sweep") ||
		!strings.Contains(out, "14 steps 12 questions") {
		t.Fatalf("output:\n%s", out)
	}
}

func TestLessonsCheckEmbedded(t *testing.T) {
	code, out, errOut := cli(t, "", "lessons", "check")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	if !strings.HasPrefix(out, "ok  shared-buffers       14 steps 12 questions") || !strings.Contains(out, " events\n") {
		t.Fatalf("output %q", out)
	}
}

const goodLesson = "---\ntitle: Good\n---\n\n## One\n\n```scenario\nrelation t blocks=2\nbackend A: touch t 0..1\nrun\n```\n\n```expect\nexpect pool misses=2\n```\n"

func lessonDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLessonsCheckDir(t *testing.T) {
	dir := lessonDir(t, map[string]string{"01-good.md": goodLesson, "README.md": "# not a lesson\n"})
	code, out, errOut := cli(t, "", "lessons", "check", dir)
	if code != 0 || errOut != "" || !strings.HasPrefix(out, "ok  good                  1 steps  0 questions ") ||
		!strings.HasSuffix(out, " events\n") || strings.Count(out, "\n") != 1 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// A malformed lesson: exit 2 and a file:line: error pointing into the
// Markdown file; the good lessons beside it are still checked.
func TestLessonsCheckMalformed(t *testing.T) {
	bad := strings.Replace(goodLesson, "touch t 0..1", "tuoch t 0..1", 1)
	badPredict := "---\ntitle: Q\n---\n## S\n```predict\nquestion: Q?\nchoices:\n- a\n- b\nanswer: 3\nat: none\nexplain: E\n```\n"
	// A question whose moment never happens in its step.
	noMoment := strings.Replace(goodLesson, "## One\n", "## One\n```predict\nquestion: Q?\nchoices:\n- a\n- b\nanswer: 1\nat: cas-fail\nexplain: E\n```\n", 1)
	dir := lessonDir(t, map[string]string{"a.md": goodLesson, "b.md": bad, "c.md": badPredict, "d.md": noMoment})
	code, out, errOut := cli(t, "", "lessons", "check", dir)
	if code != 2 {
		t.Fatalf("exit %d, want 2; stderr %s", code, errOut)
	}
	want := filepath.Join(dir, "b.md") + ":9:12: expected an operation (read, release, dirty, touch, write, scan, cleanup, drop, truncate, clog, insert, delete, vacuum), found \"tuoch\"\n" +
		filepath.Join(dir, "c.md") + ":10:9: answer: expected a choice number from 1 to 2, found \"3\"\n" +
		filepath.Join(dir, "d.md") + ":12:5: cas-fail: expected the moment in the events of step 1 (One), found none (the step's moments: victim ×2, lookup-miss ×2)\n"
	if errOut != want {
		t.Fatalf("stderr\n%s\nwant\n%s", errOut, want)
	}
	if !strings.HasPrefix(out, "ok  a ") || strings.Count(out, "\n") != 1 {
		t.Fatalf("stdout %q", out)
	}
}

// A failed expect: exit 1, the error at the expect's key.
func TestLessonsCheckFailedExpect(t *testing.T) {
	dir := lessonDir(t, map[string]string{"x.md": strings.Replace(goodLesson, "misses=2", "misses=3", 1)})
	code, out, errOut := cli(t, "", "lessons", "check", dir)
	if code != 1 || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	if want := filepath.Join(dir, "x.md") + ":14:13: expect pool misses: expected 3, the engine has 2\n"; errOut != want {
		t.Fatalf("stderr %q, want %q", errOut, want)
	}
	// A malformed lesson beside it wins: exit 2.
	dir2 := lessonDir(t, map[string]string{"x.md": strings.Replace(goodLesson, "misses=2", "misses=3", 1), "y.md": "no front matter\n"})
	if code, _, _ := cli(t, "", "lessons", "check", dir2); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
}

func TestLessonsCheckDuplicateNames(t *testing.T) {
	dir := lessonDir(t, map[string]string{"1-x.md": goodLesson, "2-x.md": goodLesson})
	code, _, errOut := cli(t, "", "lessons", "check", dir)
	if code != 2 || !strings.Contains(errOut, filepath.Join(dir, "2-x.md")+`:1:1: lesson name "x" is also the name of`) {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
}

func TestLessonsBadUsage(t *testing.T) {
	for _, args := range [][]string{
		{"lessons", "bogus"},
		{"lessons", "check", "a", "b"},
		{"lessons", "check", filepath.Join(t.TempDir(), "missing")},
		{"lessons", "check", t.TempDir()}, // no lessons in it
		{"lessons", "show"},
		{"lessons", "show", "no-such-lesson"},
	} {
		if code, _, errOut := cli(t, "", args...); code != 2 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
	if code, out, _ := cli(t, "", "lessons", "help"); code != 0 || !strings.Contains(out, "lessons check [DIR]") {
		t.Errorf("help: %d %s", code, out)
	}
	if _, out, _ := cli(t, "", "help"); !strings.Contains(out, "bufferlab lessons") {
		t.Errorf("usage lacks lessons: %s", out)
	}
}

func TestLessonsShow(t *testing.T) {
	code, out, errOut := cli(t, "", "lessons", "show", "shared-buffers")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	wantOutput(t, out,
		"Shared buffers: hits, misses and the clock sweep\n=====",
		"\n1. A pool of 8kB buffers\n",
		"   *1. buffer 0\n",
		"  A read orders/0     miss  -> buffer 0 from the freelist\n",
		"  ✓ expect pool misses=1 in_use=1 free=15\n",
		"  A ERROR: no unpinned buffers available",
		"  ‖ question at dirty-evict: before event 453 of the step: ",
	)
	// A list's items follow one another; a blank line ends the list.
	if _, out, _ := cli(t, "", "lessons", "show", "pinning"); !strings.Contains(out, "(CAS);\n  • on the right") ||
		!strings.Contains(out, "releases it.\n\nThe right pane") {
		t.Errorf("pinning's list of the two panes:\n%s", out)
	}
	path := writeFile(t, "x.md", strings.Replace(goodLesson, "misses=2", "misses=3", 1))
	code, out, errOut = cli(t, "", "lessons", "show", path)
	if code != 1 || !strings.Contains(out, "1. One") || !strings.HasPrefix(errOut, path+":14:13: ") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	path = writeFile(t, "y.md", "no front matter\n")
	if code, _, errOut = cli(t, "", "lessons", "show", path); code != 2 || !strings.HasPrefix(errOut, path+":1:1: expected front matter") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

// A missing directory, or a file given where a directory is expected, is
// named as the user gave it (not as os.DirFS's "open ."), with what was
// expected.
func TestLessonsCheckNotADirectory(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	file := writeFile(t, "one.md", goodLesson)
	for _, c := range []struct{ dir, want string }{
		{missing, "bufferlab lessons check: " + missing + ": no such directory: expected a directory of lesson .md files\n"},
		{file, "bufferlab lessons check: " + file + ": not a directory: expected a directory of lesson .md files\n"},
	} {
		code, out, errOut := cli(t, "", "lessons", "check", c.dir)
		if code != 2 || out != "" || errOut != c.want {
			t.Errorf("%s: exit %d, stdout %q, stderr %q, want %q", c.dir, code, out, errOut, c.want)
		}
	}
}

// lessons layout reports one viewport and lesson; a text that does not
// fit makes it exit 1, bad flags exit 2 with the flag named.
func TestLessonsLayout(t *testing.T) {
	code, out, errOut := cli(t, "", "lessons", "layout", "--size", "1280x800", "--lesson", "shared-buffers")
	if code != 0 && code != 1 || errOut != "" {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	if !strings.HasPrefix(out, "1280x800 mode desk: 40 frames") || !strings.Contains(out, "1280x800 mode desk-presentation: 80 frames") {
		t.Fatalf("output:\n%s", out)
	}
	if fails := strings.Contains(out, "e.g. "); fails != (code == 1) {
		t.Fatalf("exit %d but the report lists overflows: %v\n%s", code, fails, out)
	}
	for _, c := range []struct{ args, want string }{
		{"--size 1280", `--size "1280": expected WIDTHxHEIGHT`},
		{"--size 100x100", "within 320..8192"},
		{"--lesson nope", `--lesson "nope": no such lesson`},
		{"extra", `unexpected arguments ["extra"]`},
	} {
		code, _, errOut := cli(t, "", append([]string{"lessons", "layout"}, strings.Fields(c.args)...)...)
		if code != exitBadInput || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", c.args, code, errOut, exitBadInput, c.want)
		}
	}
}
