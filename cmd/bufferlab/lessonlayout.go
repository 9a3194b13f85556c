package main

import (
	"flag"
	"fmt"
	"io"

	"bufferlab/lessons"
	"bufferlab/viz/frame/framecheck"
)

// layoutLessons is `bufferlab lessons layout`: how the frames of the
// lessons hold at the viewports (framecheck.Report with examples). It
// exits 1 when any text does not fit.
func layoutLessons(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bufferlab lessons layout", flag.ContinueOnError)
	fs.SetOutput(stderr)
	size := fs.String("size", "", "one viewport WxH in CSS pixels (default: 390x844, 844x390, 1280x720, 1280x800, 1920x1080 and 3840x2160)")
	pres := fs.Bool("presentation", false, "presentation mode only (default: both modes)")
	only := fs.String("lesson", "", "this lesson only")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitBadInput
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "bufferlab lessons layout: unexpected arguments %q\n%s", fs.Args(), lessonsUsage)
		return exitBadInput
	}
	viewports := framecheck.Viewports
	if *size != "" {
		var w, h int
		if n, err := fmt.Sscanf(*size, "%dx%d", &w, &h); n != 2 || err != nil || fmt.Sprintf("%dx%d", w, h) != *size || w < 320 || h < 320 || w > 8192 || h > 8192 {
			fmt.Fprintf(stderr, "bufferlab lessons layout: --size %q: expected WIDTHxHEIGHT within 320..8192 each, such as 1280x800\n", *size)
			return exitBadInput
		}
		viewports = [][2]float64{{float64(w), float64(h)}}
	}
	all, err := lessons.All()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadInput
	}
	if *only != "" {
		var keep []*lessons.Lesson
		for _, l := range all {
			if l.Name == *only {
				keep = append(keep, l)
			}
		}
		if len(keep) == 0 {
			fmt.Fprintf(stderr, "bufferlab lessons layout: --lesson %q: no such lesson (see bufferlab lessons)\n", *only)
			return exitBadInput
		}
		all = keep
	}
	modes := []bool{false, true}
	if *pres {
		modes = []bool{true}
	}
	code := exitOK
	for _, vp := range viewports {
		for _, m := range modes {
			frames, err := framecheck.Lessons(all, vp[0], vp[1], m)
			if err != nil {
				fmt.Fprintln(stderr, err)
				return exitBadInput
			}
			fmt.Fprintf(stdout, "%.0fx%.0f ", vp[0], vp[1])
			fmt.Fprint(stdout, framecheck.Report(frames, 0, true))
			for i := range frames {
				if frames[i].List.Metrics().Overflow > 0 {
					code = 1
				}
			}
		}
	}
	return code
}
