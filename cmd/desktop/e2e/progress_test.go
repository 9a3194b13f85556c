package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bufferlab/internal/xvfbtest"
	"bufferlab/lessons/progress"
	"bufferlab/viz/scene"
)

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// TestDesktopProgress runs the app in a window with a progress file
// (--progress-file), one run a subtest, in order:
//
//   - at the last event of lesson 6 the lesson text shows the end (its
//     band's tint is on screen) and the file says the lesson is completed,
//     with the answers it held before kept;
//   - at step 2 of the same lesson there is no end on screen;
//   - --reset-progress forgets the file's records before the run;
//   - a file that is not progress (a newer version) is moved aside to
//     .corrupt, and the app runs on instead of failing;
//   - a --screenshot run without --progress-file writes no progress in the
//     configuration directory.
func TestDesktopProgress(t *testing.T) {
	xvfb := xvfbtest.Run(t)
	bin := buildDesktop(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "progress.json")
	before := progress.New()
	before.Answer("small-table-skip", 0, 1, true, t0)
	before.Answer("small-table-skip", 1, 2, false, t0)
	before.Reach("pinning", 2, t0)
	data, err := progress.Encode(before)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	shot := func(t *testing.T, configDir, name string, args ...string) (string, int) {
		t.Helper()
		path := filepath.Join(dir, name+".png")
		out, err := runDesktopIn(t, configDir, xvfb, bin, append(args, "--width", "1280", "--height", "800", "--screenshot", path)...)
		if err != nil {
			t.Fatalf("desktop %q: %v\n%s", args, err, out)
		}
		return out, xvfbtest.Count(xvfbtest.LoadPNG(t, path), scene.EndBandFill)
	}
	load := func(t *testing.T) *progress.Progress {
		t.Helper()
		p, err := progress.NewFileStore(file).Load()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}

	t.Run("end of lesson 6", func(t *testing.T) {
		_, tint := shot(t, t.TempDir(), "end", "--lesson", "small-table-skip", "--step", "4", "--progress-file", file)
		if tint < 2000 {
			t.Errorf("%d pixels of the end band's tint on screen: the end of the lesson is not shown", tint)
		}
		p := load(t)
		rec := p.Lesson("small-table-skip")
		if rec == nil || !rec.Completed || rec.CompletedAt.IsZero() || rec.FurthestStep != 3 || len(rec.Answers) != 2 || p.Lesson("pinning").FurthestStep != 2 {
			t.Fatalf("progress after the end of lesson 6: %+v", p)
		}
	})
	t.Run("mid-lesson", func(t *testing.T) {
		if _, tint := shot(t, t.TempDir(), "mid", "--lesson", "small-table-skip", "--step", "3", "--progress-file", file); tint != 0 {
			t.Errorf("at step 2, %d pixels of the end band's tint on screen", tint)
		}
	})
	t.Run("reset", func(t *testing.T) {
		shot(t, t.TempDir(), "reset", "--reset-progress", "--lesson", "pinning", "--step", "2", "--progress-file", file)
		if p := load(t); len(p.Lessons) != 1 || p.Lesson("pinning") == nil || p.Lesson("pinning").FurthestStep != 1 {
			t.Fatalf("after --reset-progress and a run at step 1 of lesson 2: %+v", p)
		}
	})
	t.Run("corrupt file", func(t *testing.T) {
		if err := os.WriteFile(file, []byte(`{"version": 99}`), 0o600); err != nil {
			t.Fatal(err)
		}
		shot(t, t.TempDir(), "corrupt", "--progress-file", file)
		kept, err := os.ReadFile(file + ".corrupt")
		if err != nil || string(kept) != `{"version": 99}` {
			t.Fatalf("the unreadable file was not kept aside: %q, %v", kept, err)
		}
	})
	t.Run("screenshot keeps none", func(t *testing.T) {
		config := t.TempDir()
		shot(t, config, "plain", "--lesson", "pinning", "--step", "4")
		if entries, _ := os.ReadDir(config); len(entries) != 0 {
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			t.Errorf("a --screenshot run wrote %s in the configuration directory", strings.Join(names, ", "))
		}
	})
}
