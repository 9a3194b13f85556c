package main

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"slices"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/viz/app"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fs := flag.NewFlagSet("desktop", flag.ContinueOnError)
	lesson := fs.String("lesson", "", "open this lesson (see 'bufferlab lessons')")
	scenarioFile := fs.String("scenario", "", "play this scenario file instead of a lesson")
	step := fs.Int("step", -1, "start at this lesson step (0 = introduction)")
	pace := fs.String("pace", "", "line the panes of a drop race up by events or by time (native times measured here)")
	event := fs.Int("event", -1, "then go to this event position (as the timeline bar counts them; not held by a question)")
	width := fs.Int("width", 1280, "window width in pixels")
	height := fs.Int("height", 800, "window height in pixels")
	presentation := fs.Bool("presentation", false, "start in presentation mode (large type)")
	shot := fs.String("screenshot", "", "render once, save a PNG to this file and exit")
	fast := fs.String("fast", "", "open the fast-mode panel running this experiment (pool or limits) with --quick settings")
	measure := fs.Int("measure", 0, "measure N frames of the pool scene (advancing 64 events a frame), print the medians and exit")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(os.Stderr, "desktop: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if *width < 640 || *width > 8192 || *height < 400 || *height > 8192 {
		fmt.Fprintf(os.Stderr, "desktop: --width and --height must be within 640..8192 and 400..8192, found %dx%d\n", *width, *height)
		return 2
	}
	if *lesson != "" && *scenarioFile != "" {
		fmt.Fprintln(os.Stderr, "desktop: give --lesson or --scenario, not both")
		return 2
	}
	a, err := app.New(app.Options{Width: *width, Height: *height, Presentation: *presentation})
	if err != nil {
		fmt.Fprintf(os.Stderr, "desktop: %v\n", err)
		return 1
	}
	switch {
	case *lesson != "":
		err = a.OpenLesson(*lesson, *step)
	case *scenarioFile != "":
		var src []byte
		src, err = os.ReadFile(*scenarioFile)
		if err == nil {
			err = a.OpenScenario(*scenarioFile, string(src), *step)
		}
	case *step >= 0:
		err = errors.New("--step needs --lesson or --scenario")
	}
	if err == nil && *pace != "" {
		err = a.SetPacing(*pace)
	}
	if err == nil && *event >= 0 {
		if *lesson == "" && *scenarioFile == "" {
			err = errors.New("--event needs --lesson or --scenario")
		} else if n := a.State().Events; *event > n {
			err = fmt.Errorf("--event %d: the lesson or scenario has %d events (positions 0..%d)", *event, n, n)
		} else {
			err = a.Seek(*event)
		}
	}
	if err == nil && *fast != "" {
		if *lesson != "" || *scenarioFile != "" {
			err = errors.New("--fast opens the fast-mode panel: give it without --lesson or --scenario")
		} else {
			err = a.StartFast(*fast)
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "desktop: %v\n", err)
		return 2
	}
	ebiten.SetWindowTitle("BufferLab")
	ebiten.SetWindowSize(*width, *height)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	if *shot != "" {
		out := *shot
		a.CaptureAfterFrames(3, func(img image.Image) error {
			f, err := os.Create(out)
			if err != nil {
				return err
			}
			if err := png.Encode(f, img); err != nil {
				f.Close()
				return err
			}
			return f.Close()
		})
	}
	if *measure > 0 {
		ebiten.SetVsyncEnabled(false)
		a.StartMeasure(&app.Measure{Frames: *measure, Step: 64, Done: func(m *app.Measure) {
			fmt.Printf("pool scene draw: median %v, p90 %v over %d frames; frame interval: median %v\n",
				quantile(m.PoolDraw, 0.5), quantile(m.PoolDraw, 0.9), len(m.PoolDraw), quantile(m.Interval, 0.5))
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

// quantile returns the q-quantile of ds (nearest rank).
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}
