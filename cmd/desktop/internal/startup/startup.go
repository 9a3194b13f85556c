package startup

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
)

// Options are the desktop app's flags.
type Options struct {
	Lesson, Scenario string
	// Step is the step to start at, counted from 1 as the screen and the
	// links count steps (0: not given, the first); Event a position to
	// go to after it (-1: none).
	Step, Event int
	// Stop opens at the Stop-th key moment of the step (from 1: the
	// player paused just before it); Answer first answers the step's
	// question with that choice (from 1). 0: neither.
	Stop, Answer int
	// NoAutoSlow turns auto-slow off (--autoslow=false).
	NoAutoSlow    bool
	Pace          string
	Width, Height int
	Presentation  bool
	Theme         string
	// Tab is the lesson frame's tab to show ("lesson", "scene", "code";
	// "": the frame's own), where the frame has tabs.
	Tab        string
	Screenshot string
	Fast       string
	Measure    int
	// ProgressFile is where progress is kept ("": the default,
	// progress.DefaultPath); ResetProgress forgets it before starting.
	ProgressFile  string
	ResetProgress bool
}

// The window sizes the app accepts: a small phone's to an 8K screen's.
const MinSize, MaxSize = 320, 8192

// themeNames are layout.ThemeNames, which this package cannot import:
// viz/layout imports packages that Ebitengine's window package does not,
// and the init order that lets this package's init run first (see the
// package comment) needs every import to be one of those. TestThemeNames
// checks that the two lists agree.
var themeNames = []string{"light", "dark"}

// Parsed holds the options of this run, parsed by the package's init
// before the window library starts (nil under go test).
var Parsed *Options

func init() {
	if testing.Testing() {
		return
	}
	opts, code := Parse(os.Args[1:], os.Stderr)
	if opts == nil {
		os.Exit(code)
	}
	if err := CheckDisplay(os.Getenv); err != nil {
		fmt.Fprintf(os.Stderr, "desktop: %v\n", err)
		os.Exit(1)
	}
	Parsed = opts
}

// Parse parses and checks the flags. On --help it prints the usage and
// returns nil and 0; on a bad flag it prints what is wrong and returns nil
// and 2.
func Parse(args []string, stderr io.Writer) (*Options, int) {
	var o Options
	fs := flag.NewFlagSet("desktop", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.Lesson, "lesson", "", "open this lesson (see 'bufferlab lessons')")
	fs.StringVar(&o.Scenario, "scenario", "", "play this scenario file instead of a lesson")
	fs.IntVar(&o.Step, "step", 0, "start at this step, counted as the screen's \"Step N of M\" and a link's step= count (1 = the first)")
	fs.StringVar(&o.Pace, "pace", "", "line the panes of a drop race up by events or by time (native times measured here)")
	fs.IntVar(&o.Event, "event", -1, "then go to this event position (as the timeline bar counts them; not held by a question)")
	fs.IntVar(&o.Stop, "stop", 0, "then go to this key moment of the step (1 = its first stop: the player paused just before it, its question open)")
	fs.IntVar(&o.Answer, "answer", 0, "with --stop: answer the step's question with this choice (1 = the first) first")
	autoSlow := fs.Bool("autoslow", true, "slow down near key moments while playing (A switches in the app)")
	fs.IntVar(&o.Width, "width", 1280, "window width in pixels")
	fs.IntVar(&o.Height, "height", 800, "window height in pixels")
	size := fs.String("size", "", "window size WxH in pixels (instead of --width and --height), e.g. 390x844 for a phone")
	fs.BoolVar(&o.Presentation, "presentation", false, "start in presentation mode (large type)")
	fs.StringVar(&o.Theme, "theme", themeNames[0], "colour theme: "+strings.Join(themeNames, " or ")+" (D switches in the app)")
	fs.StringVar(&o.Tab, "tab", "", "show this tab of the lesson (lesson, scene or code) where the window has tabs: a phone's scene is on its Scene tab")
	fs.StringVar(&o.Screenshot, "screenshot", "", "render once, save a PNG to this file and exit")
	fs.StringVar(&o.Fast, "fast", "", "open the fast-mode panel running this experiment (pool or limits) with --quick settings")
	fs.IntVar(&o.Measure, "measure", 0, "measure N frames of the pool scene (advancing 64 events a frame), print the medians and exit")
	fs.StringVar(&o.ProgressFile, "progress-file", "", "keep progress in this file (default: bufferlab/progress.json in the user's configuration directory; --screenshot and --measure runs without this flag keep none)")
	fs.BoolVar(&o.ResetProgress, "reset-progress", false, "forget all progress (answers, steps reached, lessons done) before starting")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: desktop [flags]   (BufferLab's native app; with no flag, the lesson menu)")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return nil, 0
		}
		return nil, 2
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "desktop: unexpected arguments %q\n", fs.Args())
		return nil, 2
	}
	if *size != "" {
		if given(fs, "width") || given(fs, "height") {
			fmt.Fprintln(stderr, "desktop: give --size or --width and --height, not both")
			return nil, 2
		}
		if n, err := fmt.Sscanf(*size, "%dx%d", &o.Width, &o.Height); n != 2 || err != nil || fmt.Sprintf("%dx%d", o.Width, o.Height) != *size {
			fmt.Fprintf(stderr, "desktop: --size %q: expected WIDTHxHEIGHT in pixels, such as 1280x800\n", *size)
			return nil, 2
		}
	}
	if o.Width < MinSize || o.Width > MaxSize || o.Height < MinSize || o.Height > MaxSize {
		fmt.Fprintf(stderr, "desktop: the window size must be within %d..%d pixels each way, found %dx%d\n", MinSize, MaxSize, o.Width, o.Height)
		return nil, 2
	}
	switch {
	case o.Tab != "" && o.Tab != "lesson" && o.Tab != "scene" && o.Tab != "code":
		fmt.Fprintf(stderr, "desktop: --tab %q: expected lesson, scene or code\n", o.Tab)
		return nil, 2
	case o.Tab != "" && o.Lesson == "" && o.Scenario == "":
		fmt.Fprintln(stderr, "desktop: --tab needs --lesson or --scenario")
		return nil, 2
	case !slices.Contains(themeNames, o.Theme):
		fmt.Fprintf(stderr, "desktop: --theme %q: the themes are %s\n", o.Theme, strings.Join(themeNames, ", "))
		return nil, 2
	}
	if o.Lesson != "" && o.Scenario != "" {
		fmt.Fprintln(stderr, "desktop: give --lesson or --scenario, not both")
		return nil, 2
	}
	switch {
	case o.Stop < 0 || o.Answer < 0:
		fmt.Fprintln(stderr, "desktop: --stop and --answer count from 1")
		return nil, 2
	case given(fs, "step") && o.Step < 1:
		fmt.Fprintf(stderr, "desktop: --step %d: steps count from 1, as the screen's \"Step N of M\" and a link's step= count them\n", o.Step)
		return nil, 2
	case o.Step > 0 && o.Lesson == "" && o.Scenario == "":
		fmt.Fprintln(stderr, "desktop: --step needs --lesson or --scenario")
		return nil, 2
	case o.Stop > 0 && o.Lesson == "":
		fmt.Fprintln(stderr, "desktop: --stop needs --lesson")
		return nil, 2
	case o.Stop > 0 && o.Event >= 0:
		fmt.Fprintln(stderr, "desktop: give --stop or --event, not both")
		return nil, 2
	case o.Answer > 0 && o.Stop == 0:
		fmt.Fprintln(stderr, "desktop: --answer needs --stop")
		return nil, 2
	}
	o.NoAutoSlow = !*autoSlow
	return &o, 0
}

// given reports whether the command line set the flag called name.
func given(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
