package main

import (
	"errors"
	"fmt"
	"image"
	"os"
	"slices"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/cmd/desktop/internal/startup"
	"bufferlab/internal/sceneshot"
	"bufferlab/lessons/progress"
	"bufferlab/viz/app"
)

func main() {
	os.Exit(run(startup.Parsed))
}

// run opens the window for the options that package startup parsed and
// checked in its init, before Ebitengine's init could panic for want of a
// display.
func run(o *startup.Options) int {
	store, err := progressStore(o)
	if err != nil {
		fmt.Fprintf(os.Stderr, "desktop: %v\n", err)
		return 1
	}
	a, err := app.New(app.Options{Width: o.Width, Height: o.Height, Presentation: o.Presentation, Progress: store, Theme: o.Theme, NoAutoSlow: o.NoAutoSlow})
	if err != nil {
		fmt.Fprintf(os.Stderr, "desktop: %v\n", err)
		return 1
	}
	switch {
	case o.Lesson != "":
		err = openLesson(a, o.Lesson, o.Step)
	case o.Scenario != "":
		var src []byte
		src, err = os.ReadFile(o.Scenario)
		if err == nil {
			err = a.OpenScenario(o.Scenario, string(src), 0)
		}
		if err == nil && o.Step > 0 {
			if n := a.State().Steps; o.Step > n {
				err = fmt.Errorf("--step %d: the scenario has steps 1..%d", o.Step, n)
			} else {
				err = a.GotoStep(o.Step - 1)
			}
		}
	}
	if err == nil && o.Pace != "" {
		err = a.SetPacing(o.Pace)
	}
	if err == nil && o.Event >= 0 {
		if o.Lesson == "" && o.Scenario == "" {
			err = errors.New("--event needs --lesson or --scenario")
		} else if n := a.State().Events; o.Event > n {
			err = fmt.Errorf("--event %d: the lesson or scenario has %d events (positions 0..%d)", o.Event, n, n)
		} else {
			err = a.Seek(o.Event)
		}
	}
	if err == nil && o.Answer > 0 {
		// The step's question, answered before going to the stop: any
		// stop of the step then shows what it does once answered.
		_, err = a.Answer(o.Answer)
	}
	if err == nil && o.Stop > 0 {
		err = a.GotoStop(o.Stop)
	}
	if err == nil && o.Tab != "" {
		err = a.ShowTab(o.Tab)
	}
	if err == nil && o.Fast != "" {
		if o.Lesson != "" || o.Scenario != "" {
			err = errors.New("--fast opens the fast-mode panel: give it without --lesson or --scenario")
		} else {
			err = a.StartFast(o.Fast)
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "desktop: %v\n", err)
		return 2
	}
	ebiten.SetWindowTitle("BufferLab")
	ebiten.SetWindowSize(o.Width, o.Height)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	if o.Screenshot != "" {
		out := o.Screenshot
		a.CaptureAfterFrames(3, func(img image.Image) error { return sceneshot.SavePNG(out, img) })
	}
	if o.Measure > 0 {
		ebiten.SetVsyncEnabled(false)
		a.StartMeasure(&app.Measure{Frames: o.Measure, Step: 64, Done: func(m *app.Measure) {
			fmt.Printf("frame layout and paint: median %v, p90 %v over %d frames; frame interval: median %v\n",
				quantile(m.FrameDraw, 0.5), quantile(m.FrameDraw, 0.9), len(m.FrameDraw), quantile(m.Interval, 0.5))
		}})
	}
	if err := ebiten.RunGame(a); err != nil && !errors.Is(err, ebiten.Termination) {
		fmt.Fprintf(os.Stderr, "desktop: %v\n", err)
		return 1
	}
	if err := a.CaptureErr(); err != nil {
		fmt.Fprintf(os.Stderr, "desktop: screenshot: %v\n", err)
		return 1
	}
	return 0
}

// progressStore is where this run keeps progress: --progress-file, else
// the user's configuration directory (progress.DefaultPath), forgotten
// first with --reset-progress. A --screenshot or --measure run without
// --progress-file keeps none (a fresh memory store): its picture is the
// same on every machine and it does not mark the user's lessons as seen.
// Without a configuration directory progress lasts as long as the window,
// and the app says so on stderr.
func progressStore(o *startup.Options) (progress.Store, error) {
	path := o.ProgressFile
	if path == "" {
		p, err := progress.DefaultPath()
		if err != nil {
			fmt.Fprintf(os.Stderr, "desktop: progress will not be kept: %v\n", err)
			return progress.NewMemoryStore(), nil
		}
		path = p
	}
	file := progress.NewFileStore(path)
	if o.ResetProgress {
		if err := file.Reset(); err != nil {
			return nil, err
		}
	}
	if o.ProgressFile == "" && (o.Screenshot != "" || o.Measure > 0) {
		return progress.NewMemoryStore(), nil
	}
	return file, nil
}

// quantile returns the q-quantile of ds (nearest rank).
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// openLesson opens lesson name at step (counted from 1 as the screen
// counts; 0: the first), or says which steps the lesson has.
func openLesson(a *app.App, name string, step int) error {
	k := max(step-1, 0)
	for _, l := range a.Lessons() {
		if l.Name == name && step > l.Steps {
			return fmt.Errorf("--step %d: lesson %s has steps 1..%d", step, name, l.Steps)
		}
	}
	return a.OpenLesson(name, k)
}
