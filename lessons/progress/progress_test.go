package progress_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"bufferlab/lessons"
	"bufferlab/lessons/progress"
)

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func at(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }

// sample is progress in two lessons: pinning completed with a wrong first
// answer at step 0 (then a right one), shared-buffers half done.
func sample() *progress.Progress {
	p := progress.New()
	p.Reach("pinning", 0, at(0))
	p.Answer("pinning", 0, 2, false, at(1))
	p.Answer("pinning", 0, 1, true, at(2))
	p.Reach("pinning", 6, at(3))
	p.Answer("pinning", 6, 1, true, at(4))
	p.Complete("pinning", at(5))
	p.Reach("shared-buffers", 4, at(6))
	p.Answer("shared-buffers", 0, 1, true, at(7))
	return p
}

// Encode then Decode gives back the same progress, times and all, and the
// memory and file stores keep it through a save and a load.
func TestRoundTrip(t *testing.T) {
	p := sample()
	data, err := progress.Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := progress.Decode("x.json", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if !reflect.DeepEqual(got, p) {
		t.Fatalf("decoded %+v\nwant %+v\nfrom %s", got, p, data)
	}
	if !strings.Contains(string(data), `"version": 1`) || !strings.Contains(string(data), `"completedAt": "2026-03-01T10:05:00Z"`) {
		t.Errorf("encoded:\n%s", data)
	}
	for name, s := range map[string]progress.Store{
		"memory": progress.NewMemoryStore(),
		"file":   progress.NewFileStore(filepath.Join(t.TempDir(), "a", "b", "progress.json")),
	} {
		if empty, err := s.Load(); err != nil || len(empty.Lessons) != 0 {
			t.Fatalf("%s store, before any save: %+v, %v", name, empty, err)
		}
		if err := s.Save(p); err != nil {
			t.Fatalf("%s store: %v", name, err)
		}
		back, err := s.Load()
		if err != nil || !reflect.DeepEqual(back, p) {
			t.Fatalf("%s store: loaded %+v, %v", name, back, err)
		}
		if err := s.Reset(); err != nil {
			t.Fatal(err)
		}
		if after, err := s.Load(); err != nil || len(after.Lessons) != 0 {
			t.Fatalf("%s store after Reset: %+v, %v", name, after, err)
		}
		if err := s.Reset(); err != nil {
			t.Errorf("%s store: Reset of nothing: %v", name, err)
		}
	}
}

// The file store creates its directory 0700 and the file 0600: progress is
// the student's own.
func TestFileStorePermissions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "config", "bufferlab")
	s := progress.NewFileStore(filepath.Join(dir, "progress.json"))
	if err := s.Save(sample()); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{dir: 0o700 | os.ModeDir, s.Path: 0o600} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != want {
			t.Errorf("%s: mode %v, want %v", path, fi.Mode(), want)
		}
	}
}

// A save that fails half-way through writing leaves the old file whole
// and no temporary file behind; the error names the file.
func TestFileStoreFailedSaveKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	s := progress.NewFileStore(filepath.Join(dir, "progress.json"))
	old := progress.New()
	old.Reach("pinning", 2, at(0))
	if err := s.Save(old); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(s.Path)
	if err != nil {
		t.Fatal(err)
	}
	s.SetWrite(func(f *os.File, data []byte) error {
		f.Write(data[:len(data)/2])
		return errors.New("no space left on device")
	})
	err = s.Save(sample())
	if err == nil || !strings.Contains(err.Error(), s.Path) || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("failed save: %v", err)
	}
	after, rerr := os.ReadFile(s.Path)
	if rerr != nil || string(after) != string(before) {
		t.Fatalf("after a failed save the file is\n%s\nwas\n%s (%v)", after, before, rerr)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("files left in the directory: %v", names)
	}
	if got, err := s.Load(); err != nil || got.Lesson("pinning").FurthestStep != 2 || got.Lesson("shared-buffers") != nil {
		t.Errorf("loaded after the failed save: %+v, %v", got, err)
	}
}

// Bad files are errors naming the file, with the place where there is
// one and what was expected; never a panic.
func TestDecodeErrors(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"empty", "", `p.json: empty: expected a JSON object with "version": 1`},
		{"not JSON", "{\n  \"version\": 1,\n  oops\n}", "p.json:3:3: not valid JSON: invalid character 'o'"},
		{"cut", `{"version": 1, "lessons": {"pinning": {"furthestStep": 2`, "p.json:1:57: the JSON ends too early"},
		{"array", `[1, 2]`, "p.json:1:1: the top level is an array: expected an object"},
		{"no version", `{"lessons": {}}`, `p.json: no "version": expected "version": 1 at the top level`},
		{"newer", `{"version": 2, "lessons": {}, "badges": []}`, "p.json: format version 2, newer than this BufferLab reads (1)"},
		{"version 0", `{"version": 0}`, "p.json: format version 0: expected 1"},
		{"version a string", `{"version": "1"}`, "p.json:1:15: version is a string: expected a whole number"},
		{"unknown field", `{"version": 1, "lessons": {"pinning": {"furthest": 2}}}`, `p.json: unknown field "furthest": expected only version and lessons`},
		{"step a string", `{"version": 1, "lessons": {"pinning": {"furthestStep": "two"}}}`, "p.json:1:60: lessons.furthestStep is a string: expected a whole number"},
		{"negative furthest", `{"version": 1, "lessons": {"pinning": {"furthestStep": -1}}}`, `p.json: lessons["pinning"].furthestStep is -1: expected a step number, 0 or more`},
		{"negative step", `{"version": 1, "lessons": {"pinning": {"answers": [{"step": 0, "choice": 1}, {"step": -3, "choice": 1}]}}}`,
			`p.json: lessons["pinning"].answers[1].step is -3: expected a step number, 0 or more`},
		{"choice 0", `{"version": 1, "lessons": {"pinning": {"answers": [{"step": 1, "choice": 0}]}}}`, `answers[0].choice is 0: expected a choice number, 1 or more`},
		{"null record", `{"version": 1, "lessons": {"pinning": null}}`, `p.json: lessons["pinning"] is null: expected an object`},
		{"empty name", `{"version": 1, "lessons": {"": {}}}`, `p.json: a lesson record with an empty name`},
		{"bad time", `{"version": 1, "lessons": {"pinning": {"completedAt": "yesterday"}}}`, `p.json: a time "yesterday": expected a time such as`},
		{"year -1 in UTC", `{"version": 1, "lessons": {"pinning": {"updatedAt": "0000-01-01T00:00:00+01:00"}}}`,
			`p.json: lessons["pinning"].updatedAt is -0001-12-31T23:00:00Z in UTC: expected a time in the years 0000 to 9999`},
		{"trailing", `{"version": 1} {"version": 1}`, "p.json:1:16: not valid JSON: invalid character '{' after top-level value"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := progress.Decode("p.json", []byte(c.data))
			var pe *progress.Error
			if p != nil || !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "p.json") || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Decode(%q) = %v, %v; want an *Error containing %q", c.data, p, err, c.want)
			}
		})
	}
}

// FuzzDecode: whatever the bytes, Decode returns progress or an *Error,
// and progress it returns encodes and decodes to itself.
func FuzzDecode(f *testing.F) {
	data, _ := progress.Encode(sample())
	f.Add(data)
	f.Add([]byte(`{"version": 1, "lessons": {"x": {"answers": [{"step": 1e9, "choice": 1}]}}}`))
	f.Add([]byte(`{"version": 1, "lessons": {"x": {"furthestStep": 9223372036854775807}}}`))
	f.Add([]byte("\xff\xfe{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := progress.Decode("f.json", data)
		if err != nil {
			var pe *progress.Error
			if !errors.As(err, &pe) || pe.File != "f.json" {
				t.Fatalf("error %v (%T) is not an *Error naming the file", err, err)
			}
			return
		}
		again, err := progress.Encode(p)
		if err != nil {
			t.Fatal(err)
		}
		q, err := progress.Decode("f.json", again)
		if err != nil || !reflect.DeepEqual(p, q) {
			back, _ := progress.Encode(q)
			t.Fatalf("round trip: %v\nread:\n%s\nwritten:\n%s\nread back:\n%s", err, data, again, back)
		}
	})
}

// A file that is not progress is moved aside, not overwritten by the next
// save, and the error says where it went.
func TestFileStoreCorruptFileMovedAside(t *testing.T) {
	dir := t.TempDir()
	s := progress.NewFileStore(filepath.Join(dir, "progress.json"))
	bad := []byte(`{"version": 1, "lessons": {"pinning": {"furthestStep": -4}}}`)
	if err := os.WriteFile(s.Path, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := s.Load()
	if p != nil || err == nil || !strings.HasPrefix(err.Error(), s.Path+": ") ||
		!strings.Contains(err.Error(), "furthestStep is -4") || !strings.Contains(err.Error(), "moved to "+s.Path+".corrupt") {
		t.Fatalf("Load of a bad file: %v, %v", p, err)
	}
	if kept, err := os.ReadFile(s.Path + ".corrupt"); err != nil || string(kept) != string(bad) {
		t.Fatalf("the bad file was not kept: %q, %v", kept, err)
	}
	if p, err := s.Load(); err != nil || len(p.Lessons) != 0 {
		t.Fatalf("Load after moving the bad file aside: %+v, %v", p, err)
	}
}

// The score counts each question's first answer; later answers are kept
// but do not change it; skipped questions count as not right; answers to
// steps without a question do not count.
func TestScore(t *testing.T) {
	q := func() *lessons.Question { return &lessons.Question{Choices: []string{"a", "b", "c"}, Answer: 0} }
	l := &lessons.Lesson{Name: "x", Steps: []lessons.Step{{Predict: q()}, {}, {Predict: q()}, {Predict: q()}, {Predict: q()}}}
	p := progress.New()
	p.Answer("x", 0, 2, false, at(0)) // wrong first
	p.Answer("x", 0, 1, true, at(1))  // right later: kept, not counted
	p.Answer("x", 1, 1, true, at(2))  // no question there: not counted
	p.Answer("x", 2, 1, true, at(3))  // right
	p.Answer("x", 2, 3, false, at(4)) // wrong later: the first counts
	p.Answer("x", 3, 1, true, at(5))  // right
	// Step 4: never answered.
	rec := p.Lesson("x")
	if len(rec.Answers) != 6 {
		t.Errorf("%d answers kept, want all 6", len(rec.Answers))
	}
	s := progress.ScoreOf(l, rec)
	if want := (progress.Score{Right: 2, Wrong: 1, Unanswered: 1, Questions: 4}); s != want {
		t.Errorf("score %+v, want %+v", s, want)
	}
	if got, want := s.Sentence(), "2 of 4 predictions right first time, 1 not answered"; got != want {
		t.Errorf("sentence %q, want %q", got, want)
	}
	if first, ok := rec.FirstAnswer(0); !ok || first.Choice != 2 || first.Right {
		t.Errorf("first answer to step 0: %+v, %v", first, ok)
	}
	if rec.FurthestStep != 3 {
		t.Errorf("furthest step %d after answering step 3", rec.FurthestStep)
	}
	if s := progress.ScoreOf(l, nil); s != (progress.Score{Unanswered: 4, Questions: 4}) {
		t.Errorf("score of no record: %+v", s)
	}
	for _, c := range []struct {
		s    progress.Score
		want string
	}{
		{progress.Score{Right: 5, Wrong: 2, Questions: 7}, "5 of 7 predictions right first time"},
		{progress.Score{Right: 1, Questions: 1}, "1 of 1 prediction right first time"},
		{progress.Score{}, "This lesson asks no questions."},
	} {
		if got := c.s.Sentence(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
}

// Reach raises the furthest step and says when it changed; Complete keeps
// the first completion time.
func TestReachAndComplete(t *testing.T) {
	p := progress.New()
	if !p.Reach("x", 0, at(0)) {
		t.Error("opening a lesson for the first time is a change")
	}
	if p.Reach("x", 0, at(1)) {
		t.Error("reaching step 0 again is no change")
	}
	if !p.Reach("x", 3, at(2)) || p.Reach("x", 1, at(3)) || p.Lesson("x").FurthestStep != 3 {
		t.Errorf("furthest step %d", p.Lesson("x").FurthestStep)
	}
	if !p.Complete("x", at(4)) || p.Complete("x", at(9)) || !p.Lesson("x").CompletedAt.Equal(at(4)) {
		t.Errorf("completion: %+v", p.Lesson("x"))
	}
}

// The lesson list's line: not started, at step k of n, done with the score.
func TestStatus(t *testing.T) {
	all, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*lessons.Lesson{}
	for _, l := range all {
		byName[l.Name] = l
	}
	p := sample()
	noQuestions := &lessons.Lesson{Name: "prose", Steps: []lessons.Step{{}, {}}}
	p.Complete("prose", at(0))
	for _, c := range []struct {
		l    *lessons.Lesson
		want string
	}{
		{byName["pinning"], "done, score 1 of 7"}, // step 0 wrong first, step 6 right
		{byName["shared-buffers"], "at step 5 of 14"},
		{byName["dropping"], "not started"},
		{noQuestions, "done"},
	} {
		if got := progress.Status(c.l, p.Lesson(c.l.Name)); got != c.want {
			t.Errorf("%s: %q, want %q", c.l.Name, got, c.want)
		}
	}
}

// Prune drops the records of lessons that no longer exist and answers the
// lessons no longer ask, brings a furthest step back into the lesson, and
// says so; records that fit are untouched.
func TestPrune(t *testing.T) {
	all, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	p := sample()
	p.Reach("retired-lesson", 2, at(0))
	p.Reach("dropping", 40, at(0))           // 7 steps now
	p.Answer("dropping", 0, 9, false, at(1)) // no choice 9
	p.Answer("dropping", 0, 1, true, at(2))
	p.Answer("dropping", 30, 1, true, at(3)) // no step 30
	want := sample()
	notes := p.Prune(all)
	wantNotes := []string{
		"Lesson dropping has 7 steps now: the furthest step reached, 40, became 6.",
		"Lesson dropping changed: 2 answers to questions it no longer asks were dropped.",
		`The progress of lesson "retired-lesson" was dropped: this BufferLab has no lesson of that name.`,
	}
	if !reflect.DeepEqual(notes, wantNotes) {
		t.Errorf("notes:\n%q\nwant\n%q", notes, wantNotes)
	}
	if p.Lesson("retired-lesson") != nil {
		t.Error("the retired lesson's record is still there")
	}
	if d := p.Lesson("dropping"); d.FurthestStep != 6 || len(d.Answers) != 1 || d.Answers[0].Choice != 1 {
		t.Errorf("dropping after Prune: %+v", d)
	}
	delete(p.Lessons, "dropping")
	if !reflect.DeepEqual(p, want) {
		t.Errorf("records that fit were changed:\n%+v\nwant\n%+v", p, want)
	}
}
