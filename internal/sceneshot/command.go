package sceneshot

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"bufferlab/engine/trace"
)

// Flags are the settings every screenshot command takes besides its
// workload's: where in the trace to stop (--pos, --at, --match), the PNG
// to write (--out) and the window's size (--width, --height).
type Flags struct {
	Pos           int
	At, Match     string
	Out           string
	Width, Height int
}

// Register adds the shared flags to fs: out is --out's default, describe
// names the function whose text --match searches ("fsm.Describe"), posHelp
// is --pos's help.
func (f *Flags) Register(fs *flag.FlagSet, out, describe, posHelp string) {
	fs.IntVar(&f.Pos, "pos", -1, posHelp)
	fs.StringVar(&f.At, "at", "", "then apply on to the first event of one of these kinds (comma-separated)")
	fs.StringVar(&f.Match, "match", "", "then apply on to the first event whose description ("+describe+") contains this")
	fs.StringVar(&f.Out, "out", out, "PNG to write")
	fs.IntVar(&f.Width, "width", 1280, "window width")
	fs.IntVar(&f.Height, "height", 800, "window height")
}

// Stop returns how many of evs to apply: f.Pos (all of them when it is
// negative or past the end), then on, with --at, to the first event of one
// of the given trace kinds, and with --match to the first whose
// description contains the text. It reads each event at most once per
// search: O(len(evs)) calls of describe at the most.
func (f Flags) Stop(evs []trace.Event, describe func(trace.Event) string) int {
	pos := f.Pos
	if pos < 0 || pos > len(evs) {
		pos = len(evs)
	}
	if f.At != "" {
		want := map[string]bool{}
		for _, k := range strings.Split(f.At, ",") {
			want[strings.TrimSpace(k)] = true
		}
		for pos < len(evs) && !(pos > 0 && want[evs[pos-1].Kind.String()]) {
			pos++
		}
	}
	if f.Match != "" {
		for pos < len(evs) && !(pos > 0 && strings.Contains(describe(evs[pos-1]), f.Match)) {
			pos++
		}
	}
	return pos
}

// Caption is the line above the scene for the first pos of evs: "pos of
// N events" and the last applied event's description on one line.
func Caption(evs []trace.Event, pos int, describe func(trace.Event) string) string {
	desc := fmt.Sprintf("%d of %d events", pos, len(evs))
	if pos > 0 {
		desc += ": " + strings.Join(strings.Fields(describe(evs[pos-1])), " ")
	}
	return desc
}

// Main is a screenshot command's run after its own flags are registered
// on fs (named name, with f's among them): it parses args (exit status
// 2 on a bad flag), calls build for the shot to take (2 on its error,
// before any window opens), takes it at f's size into f.Out (1 when the
// fonts, the window or the file fail) and prints "OUT: caption" (0).
func Main(name string, fs *flag.FlagSet, f *Flags, args []string, build func() (Shot, error)) int {
	if err := fs.Parse(args); err != nil {
		return 2
	}
	s, err := build()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		return 2
	}
	s.Width, s.Height, s.Out = f.Width, f.Height, f.Out
	if err := Run(s); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		return 1
	}
	fmt.Printf("%s: %s\n", s.Out, s.Caption)
	return 0
}
