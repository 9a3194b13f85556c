package main

import (
	"bufferlab/engine/trace"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"bufferlab/engine/scenario"
	"bufferlab/lessons"
)

const lessonsUsage = `usage:
  bufferlab lessons                      list the embedded lessons
  bufferlab lessons check [DIR]          parse and play every lesson (embedded, or DIR/*.md), checking each expect
  bufferlab lessons show NAME|FILE.md    print a lesson as text, with one line per read of each step
  bufferlab lessons layout [--size WxH] [--presentation] [--lesson NAME]
                                         lay out the start of every step, and every stop, as the app
                                         draws it, at the six viewports in both modes (or the one
                                         asked for), and say
                                         which text does not fit, by role, with an example each
`

// cmdLessons is `bufferlab lessons [check [DIR] | show NAME|FILE]`.
func cmdLessons(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return listLessons(stdout, stderr)
	}
	switch args[0] {
	case "check":
		if len(args) > 2 {
			fmt.Fprintf(stderr, "bufferlab lessons check: expected at most one directory, found %d arguments\n%s", len(args)-1, lessonsUsage)
			return exitBadInput
		}
		dir := ""
		if len(args) == 2 {
			dir = args[1]
		}
		return checkLessons(dir, stdout, stderr)
	case "show":
		if len(args) != 2 {
			fmt.Fprintf(stderr, "bufferlab lessons show: expected one lesson name or file\n%s", lessonsUsage)
			return exitBadInput
		}
		return showLesson(args[1], stdout, stderr)
	case "layout":
		return layoutLessons(args[1:], stdout, stderr)
	}
	return helpOrUnknown(args[0], "bufferlab lessons: unknown subcommand", lessonsUsage, stdout, stderr)
}

func listLessons(stdout, stderr io.Writer) int {
	all, err := lessons.All()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadInput
	}
	for _, l := range all {
		fmt.Fprintf(stdout, "%-20s %-52s %2d steps %2d questions\n", l.Name, l.Title, len(l.Steps), l.Questions())
		if l.Summary != "" {
			fmt.Fprintf(stdout, "%-20s %s\n", "", l.Summary)
		}
	}
	return exitOK
}

// lessonSource is one lesson file to check: its name as shown in errors and
// its text.
type lessonSource struct {
	name string
	src  []byte
}

func lessonSources(dir string) ([]lessonSource, error) {
	var fsys fs.FS = lessons.Files
	shown := func(f string) string { return filepath.ToSlash(filepath.Join(lessons.EmbeddedDir, f)) }
	if dir != "" {
		// os.DirFS(dir) would report a missing directory as "open .": name
		// the path the user gave, and say what it should have been.
		fi, err := os.Stat(dir)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("%s: no such directory: expected a directory of lesson .md files", dir)
		case err != nil:
			return nil, fmt.Errorf("%s: %v: expected a directory of lesson .md files", dir, pathlessError(err))
		case !fi.IsDir():
			return nil, fmt.Errorf("%s: not a directory: expected a directory of lesson .md files", dir)
		}
		fsys = os.DirFS(dir)
		shown = func(f string) string { return filepath.Join(dir, filepath.FromSlash(f)) }
	}
	files, err := lessons.LessonFiles(fsys, ".")
	if err != nil {
		if dir != "" {
			return nil, fmt.Errorf("%s: %v", dir, pathlessError(err))
		}
		return nil, err
	}
	var out []lessonSource
	for _, f := range files {
		src, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", shown(f), pathlessError(err))
		}
		out = append(out, lessonSource{shown(f), src})
	}
	return out, nil
}

// pathlessError drops the fs-relative path of a *fs.PathError ("open .:
// permission denied" becomes "permission denied"), so that the caller can put
// the path the user gave in front of it.
func pathlessError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// checkLessons parses and plays every lesson, printing one line per good
// lesson on stdout and each error on stderr. Exit status: 2 if any lesson is
// malformed, else 1 if an expect failed, else 0.
func checkLessons(dir string, stdout, stderr io.Writer) int {
	srcs, err := lessonSources(dir)
	if err != nil {
		fmt.Fprintf(stderr, "bufferlab lessons check: %v\n", err)
		return exitBadInput
	}
	if len(srcs) == 0 {
		fmt.Fprintf(stderr, "bufferlab lessons check: no lessons (*.md other than README.md) in %s\n", dir)
		return exitBadInput
	}
	code := exitOK
	fail := func(err error) {
		fmt.Fprintln(stderr, err)
		c := exitFor(err)
		if c == exitBadInput || code == exitOK {
			code = c
		}
	}
	byName := map[string]string{}
	for _, s := range srcs {
		l, err := lessons.Parse(s.name, s.src)
		if err != nil {
			fail(err)
			continue
		}
		if other, dup := byName[l.Name]; dup {
			fail(&scenario.Error{File: s.name, Pos: scenario.Pos{Line: 1, Col: 1},
				Msg: fmt.Sprintf("lesson name %q is also the name of %s: expected each lesson file to give a different name", l.Name, other)})
			continue
		}
		byName[l.Name] = s.name
		p, err := lessons.Play(l)
		if err != nil {
			fail(err)
			continue
		}
		fmt.Fprintf(stdout, "ok  %-20s %2d steps %2d questions %6d events\n", l.Name, len(l.Steps), l.Questions(), len(p.Events))
	}
	return code
}

// findLesson returns the embedded lesson called name, or parses the file
// name when it ends in .md.
func findLesson(name string) (*lessons.Lesson, error) {
	if strings.HasSuffix(name, ".md") {
		src, err := readLimited(name)
		if err != nil {
			return nil, err
		}
		return lessons.Parse(name, src)
	}
	l, err := lessons.Named(name)
	if err != nil {
		return nil, fmt.Errorf("%w, or a file.md", err)
	}
	return l, nil
}

// showLesson prints a lesson as plain text: prose, questions with their
// answers, and one line per read of each step's runs.
func showLesson(name string, stdout, stderr io.Writer) int {
	l, err := findLesson(name)
	if err != nil {
		fmt.Fprintln(stderr, err)
		var se *scenario.Error
		if errors.As(err, &se) {
			return exitFor(err)
		}
		return exitBadInput
	}
	p, playErr := lessons.Play(l)
	if p == nil {
		fmt.Fprintln(stderr, playErr)
		return exitFor(playErr)
	}
	fmt.Fprintf(stdout, "%s\n%s\n\n", l.Title, strings.Repeat("=", len([]rune(l.Title))))
	printBlocks(stdout, l.Intro, "")
	for i, s := range l.Steps {
		fmt.Fprintf(stdout, "\n%d. %s\n\n", i+1, s.Title)
		printBlocks(stdout, s.Prose, "")
		if q := s.Predict; q != nil {
			fmt.Fprintf(stdout, "  ? %s\n", lessons.SpansMarkup(q.PromptSpans))
			for j, c := range q.ChoiceSpans {
				mark := " "
				if j == q.Answer {
					mark = "*"
				}
				fmt.Fprintf(stdout, "   %s%d. %s\n", mark, j+1, lessons.SpansMarkup(c))
			}
			printBlocks(stdout, q.Explain, "    ")
		}
		if s.Scenario != nil {
			for _, ln := range strings.Split(s.Scenario.Text, "\n") {
				fmt.Fprintf(stdout, "  > %s\n", ln)
			}
		}
		printStops(stdout, p, i)
		if sum := p.Runner.Summarize(p.StepEvents(i)); sum != "" {
			fmt.Fprint(stdout, sum)
		}
		for _, o := range p.Outputs[i] {
			fmt.Fprint(stdout, o.Text)
		}
		if len(s.After) > 0 {
			fmt.Fprintln(stdout)
			printBlocks(stdout, s.After, "")
		}
		if s.Expect != nil {
			for _, ln := range strings.Split(s.Expect.Text, "\n") {
				fmt.Fprintf(stdout, "  ✓ %s\n", ln)
			}
		}
		fmt.Fprintf(stdout, "  (events %d..%d)\n", p.StepStart[i], p.StepEnd[i])
	}
	if playErr != nil {
		fmt.Fprintln(stderr, playErr)
		return exitFor(playErr)
	}
	return exitOK
}

// printStops prints the key moments step k stops at: the stop as written,
// the event it stops before (its index in the step and the pane's caption
// of it), and whether the step's question is asked there.
func printStops(w io.Writer, p *lessons.Played, k int) {
	panes := append([]*lessons.Played{p}, p.Alts...)
	for _, st := range p.Stops {
		if st.Step != k {
			continue
		}
		pp := panes[st.Pane]
		what := "stop"
		if st.Question {
			what = "question"
		}
		pane := ""
		if len(panes) > 1 {
			pane = ", pane " + pp.Variant.Name()
		}
		fmt.Fprintf(w, "  ‖ %s at %s: before event %d of the step%s: %s\n", what, st.Stop, st.Offset, pane,
			scenario.Caption(trace.Slice(pp.Events), st.Event, pp.Runner.Names()))
	}
}

// printBlocks prints a lesson's blocks as plain text, a blank line after
// each one, and after a list rather than between its items.
func printBlocks(w io.Writer, blocks []lessons.Block, indent string) {
	for i, b := range blocks {
		pad := indent + strings.Repeat("  ", b.Indent) + strings.Repeat("| ", b.Quote)
		switch b.Kind {
		case lessons.CodeBlock:
			for _, ln := range strings.Split(b.Text(), "\n") {
				fmt.Fprintf(w, "%s    %s\n", pad, ln)
			}
		case lessons.Rule:
			fmt.Fprintf(w, "%s----\n", pad)
		case lessons.ListItem:
			fmt.Fprintf(w, "%s%s %s\n", pad, b.Marker, lessons.SpansMarkup(b.Spans))
		case lessons.Heading:
			fmt.Fprintf(w, "%s%s %s\n", pad, strings.Repeat("#", b.Level), lessons.SpansMarkup(b.Spans))
		default:
			fmt.Fprintf(w, "%s%s\n", pad, lessons.SpansMarkup(b.Spans))
		}
		if b.Kind != lessons.ListItem || i+1 == len(blocks) || blocks[i+1].Kind != lessons.ListItem {
			fmt.Fprintln(w)
		}
	}
}
