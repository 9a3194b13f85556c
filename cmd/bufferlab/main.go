package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
	"bufferlab/lessons"
)

const usage = `usage:
  bufferlab run [--json] [--summary] [--no-events] FILE|-   run a scenario headless
  bufferlab run --narrate FILE|-                            print one plain-English caption per event
  bufferlab demo [--step] [--events] [NAME]                 play an embedded scenario with narration
  bufferlab list                                            list the embedded scenarios
  bufferlab lessons [check [DIR] | show NAME|FILE]          list, check or print the lessons
  bufferlab serve [--addr 127.0.0.1:8080] [--dir web] [--frame-ancestors SOURCES]
                                                            serve the lessons in a browser (after make wasm)
  bufferlab bench [--json] [--plot F] [--quick] [--full] [--shared-buffers S,..] [--workers N] EXP
                                                            measure: limits, pool, pin, drop, slru, fsm
  bufferlab verify [--json] [--dsn DSN [--allow-writes]] [--list]
                                                            check the engine against a real PostgreSQL 15
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// exit statuses
const (
	exitOK       = 0
	exitCheck    = 1
	exitBadInput = 2
)

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitBadInput
	}
	switch args[0] {
	case "run":
		return cmdRun(args[1:], stdin, stdout, stderr)
	case "demo":
		return cmdDemo(args[1:], stdin, stdout, stderr)
	case "list":
		return cmdList(stdout)
	case "lessons":
		return cmdLessons(args[1:], stdout, stderr)
	case "bench":
		return cmdBench(args[1:], stdout, stderr)
	case "serve":
		return cmdServe(args[1:], stdout, stderr)
	case "verify":
		return cmdVerify(args[1:], stdout, stderr)
	}
	return helpOrUnknown(args[0], "bufferlab: unknown command", usage, stdout, stderr)
}

// helpOrUnknown answers a command word no case of a command took: help
// (or -h, --help) prints usage on stdout (exit status 0); any other is
// unknown: "what WORD" and usage on stderr (2).
func helpOrUnknown(word, what, usage string, stdout, stderr io.Writer) int {
	switch word {
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "%s %q\n%s", what, word, usage)
	return exitBadInput
}

// parseFlags lets flags and positional arguments come in any order. A flag
// that takes a value may have it after '=' or as the next argument.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if f := fs.Lookup(name); f != nil && i+1 < len(args) {
			if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !bf.IsBoolFlag() {
				flags = append(flags, args[i+1])
				i++
			}
		}
	}
	if err := fs.Parse(flags); err != nil {
		return nil, err
	}
	return pos, nil
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// exitFor maps a scenario error to an exit status.
func exitFor(err error) int {
	var se *scenario.Error
	if errors.As(err, &se) && se.Check {
		return exitCheck
	}
	return exitBadInput
}

func cmdRun(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("run", stderr)
	asJSON := fs.Bool("json", false, "print the run as JSON")
	summary := fs.Bool("summary", false, "print one line per read instead of every event")
	noEvents := fs.Bool("no-events", false, "print no events, only shows and the final picture")
	narrate := fs.Bool("narrate", false, "print only a caption per event, in plain English (with [variant] per pane)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return exitBadInput
	}
	if *narrate && (*asJSON || *summary || *noEvents) {
		fmt.Fprintf(stderr, "bufferlab run: --narrate prints one caption per event and nothing else; it cannot be combined with %s\n",
			conflicting(map[string]bool{"--json": *asJSON, "--summary": *summary, "--no-events": *noEvents}))
		return exitBadInput
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "bufferlab run: expected one scenario file (or - for stdin), found %d arguments\n", len(pos))
		return exitBadInput
	}
	name := pos[0]
	var src []byte
	if name == "-" {
		src, err = io.ReadAll(io.LimitReader(stdin, maxScenarioBytes+1))
		name = "<stdin>"
	} else {
		src, err = readLimited(name)
	}
	if err != nil {
		fmt.Fprintf(stderr, "bufferlab run: %v\n", err)
		return exitBadInput
	}
	if len(src) > maxScenarioBytes {
		fmt.Fprintf(stderr, "bufferlab run: %s is larger than %d bytes\n", name, maxScenarioBytes)
		return exitBadInput
	}
	script, err := scenario.Parse(name, string(src))
	if err == nil {
		err = script.RequireStatements()
	}
	if err != nil {
		return report(*asJSON, name, nil, nil, err, stdout, stderr)
	}
	if *narrate {
		return narrateRuns(script, func(nv int) scenario.Budget { return runBudget(printEvents, nv) }, stdout, stderr)
	}
	// A config naming several variants (pins=atomic,spinlock,
	// drop=scan,lookup,dlist) runs the same statements once per variant,
	// one after the other.
	nv := len(scenario.Variants(script))
	var runs []variantRun
	code := exitOK
	for v := 0; v < nv; v++ {
		r, err := scenario.NewVariantRunner(script, true, v)
		if err != nil {
			return report(*asJSON, name, nil, nil, err, stdout, stderr)
		}
		mode := printEvents
		switch {
		case *asJSON:
			mode = jsonEvents
		case *summary || *noEvents:
			mode = quietEvents
			r.SetEventText(false) // the runs' events are summarised or left out, never printed
		}
		r.Log().SetStorage(runStorage(mode))
		defer r.Log().Close()
		r.SetBudget(runBudget(mode, nv))
		if nv > 1 && !*asJSON {
			fmt.Fprintf(stdout, "== %s ==\n", r.Variant())
		}
		var outs []scenario.Output
		var runErr error
		for !r.Done() {
			mark := r.Log().Len()
			o, err := r.Step()
			if *asJSON {
				outs = append(outs, o) // the text mode prints and forgets
			}
			if !*asJSON {
				switch {
				case isRun(o.Stmt) && *summary:
					fmt.Fprint(stdout, r.SummarizeLog(mark))
				case o.Text == "":
				case isRun(o.Stmt) && *noEvents:
				default:
					fmt.Fprint(stdout, o.Text)
				}
			}
			if err != nil {
				runErr = err
				break
			}
		}
		runs = append(runs, variantRun{r, outs, runErr})
		if *asJSON {
			continue
		}
		if r.SLRU() != nil {
			fmt.Fprintf(stdout, "-- final state --\n%s", r.SLRU().Picture())
		} else if r.FSM() != nil {
			fmt.Fprintf(stdout, "-- final state --\n%s", r.FSM().Picture(r.RelName))
		} else {
			fmt.Fprintf(stdout, "-- final state --\n%s", r.Pool().Picture(r.RelName))
		}
		if line, ok := r.ReadCallsLine(); ok {
			fmt.Fprintf(stdout, "-- %s --\n", line)
		}
		fmt.Fprintf(stdout, "-- trace: %d events, hash %016x --\n", r.Log().Len(), r.Log().Hash())
		if runErr != nil {
			fmt.Fprintln(stderr, runErr)
			if c := exitFor(runErr); c > code {
				code = c
			}
		}
	}
	if *asJSON {
		return reportRuns(name, runs, stdout, stderr)
	}
	return code
}

// variantRun is one pin variant's run of a scenario.
type variantRun struct {
	r    *scenario.Runner
	outs []scenario.Output
	err  error
}

// reportRuns prints the first variant's run as JSON, with the others under
// "variants", and returns the worst exit status.
func reportRuns(name string, runs []variantRun, stdout, stderr io.Writer) int {
	j, code := jsonReport(name, runs[0].r, runs[0].outs, runs[0].err, stderr)
	for _, v := range runs[1:] {
		jv, c := jsonReport(name, v.r, v.outs, v.err, stderr)
		j.Variants = append(j.Variants, jv)
		code = max(code, c)
	}
	if e := writeJSON(stdout, j); e != nil {
		fmt.Fprintln(stderr, e)
		return exitBadInput
	}
	return code
}

// writeJSON writes v to w as the JSON every --json output is: indented by
// two spaces, one value, a newline at the end.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

const maxScenarioBytes = 4 << 20

func readLimited(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxScenarioBytes+1))
}

func isRun(s scenario.Stmt) bool {
	_, ok := s.(*scenario.RunStmt)
	return ok
}

// JSON output.
type jsonRun struct {
	File      string        `json:"file"`
	Config    *jsonConfig   `json:"config,omitempty"`
	Events    []jsonEvent   `json:"events"`
	Outputs   []jsonOutput  `json:"outputs"`
	Picture   string        `json:"picture,omitempty"`
	Stats     *bufmgr.Stats `json:"stats,omitempty"`
	Hash      string        `json:"hash,omitempty"`
	Schedules [][]string    `json:"schedules"`
	// ScheduleLines is each schedule as the scenario lines that replay it
	// (runs written NAME*N, lines of at most about 4000 bytes): put them
	// before the run statement.
	ScheduleLines [][]string      `json:"schedule_lines"`
	Error         *jsonError      `json:"error,omitempty"`
	Backends      []string        `json:"backends,omitempty"`
	Relations     map[string]uint `json:"relations,omitempty"` // name -> relation number (relfilenode), as in tags
	// BackendErrors is the ERROR that aborted each backend's operations,
	// for the backends that had one (what `expect backend A error=` sees).
	BackendErrors map[string]string `json:"backend_errors,omitempty"`
	// Buffers is the pool at the end, one entry per buffer that is not
	// empty (a tag, a pin, a usage count or a flag), in buffer order: the
	// buffers left out hold nothing.
	Buffers []jsonBuffer `json:"buffers"`
	// Pins is the pin variant of this run and Variant its variant
	// (pins=atomic, drop=scan); Variants the runs of the other variants
	// when the config names several.
	Pins     string    `json:"pins"`
	Variant  string    `json:"variant"`
	Variants []jsonRun `json:"variants,omitempty"`
}

type jsonConfig struct {
	SharedBuffers string `json:"shared_buffers"`
	NBuffers      int    `json:"nbuffers"`
	Schedule      string `json:"schedule"`
	Seed          uint64 `json:"seed"`
}

type jsonBuffer struct {
	Buf   int      `json:"buf"`
	Tag   string   `json:"tag"` // rel/block or rel/fork/block; "" without a valid tag
	RC    uint32   `json:"rc"`
	Usage uint32   `json:"usage"`
	Flags []string `json:"flags"`
}

type jsonEvent struct {
	Seq    uint64 `json:"seq"`
	Actor  string `json:"actor"`
	Kind   string `json:"kind"`
	Site   string `json:"site"`
	Func   string `json:"func,omitempty"`
	Line   int    `json:"line"`
	Class  string `json:"class"`
	Obj    int32  `json:"obj"`
	Before uint64 `json:"before"`
	After  uint64 `json:"after"`
	Arg    uint64 `json:"arg"`
	Text   string `json:"text"`
}

type jsonOutput struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

type jsonError struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
	Check   bool   `json:"check"`
}

func report(asJSON bool, name string, r *scenario.Runner, outs []scenario.Output, err error, stdout, stderr io.Writer) int {
	if !asJSON {
		fmt.Fprintln(stderr, err)
		return exitFor(err)
	}
	return reportRuns(name, []variantRun{{r, outs, err}}, stdout, stderr)
}

// jsonReport builds the JSON of one run and its exit status.
func jsonReport(name string, r *scenario.Runner, outs []scenario.Output, err error, stderr io.Writer) (jsonRun, int) {
	j := jsonRun{File: name, Events: []jsonEvent{}, Outputs: []jsonOutput{}, Schedules: [][]string{}, ScheduleLines: [][]string{}, Buffers: []jsonBuffer{}}
	if r != nil {
		c := r.Config()
		j.Pins, j.Variant = r.Pins().String(), r.Variant().String()
		j.Config = &jsonConfig{SharedBuffers: c.SharedBuffers, NBuffers: c.NBuffers, Schedule: c.Policy, Seed: c.Seed}
		names := r.BackendNames()
		j.Backends = names[1:]
		for e := range r.Log().Range(0, r.Log().Len()) {
			info := e.Site.Info()
			fn := ""
			if info.Func != nil {
				fn = info.Func.Name
			}
			actor := trace.ActorName(e.Actor)
			if int(e.Actor) < len(names) {
				actor = names[e.Actor]
			}
			j.Events = append(j.Events, jsonEvent{Seq: e.Seq, Actor: actor, Kind: e.Kind.String(), Site: e.Site.String(),
				Func: fn, Line: info.Line + 1, Class: e.Class.String(), Obj: int32(e.Obj), Before: e.Before, After: e.After,
				Arg: e.Arg, Text: r.DescribeEvent(e)})
		}
		for _, o := range outs {
			if o.Text != "" && !isRun(o.Stmt) {
				j.Outputs = append(j.Outputs, jsonOutput{Line: o.Stmt.At().Line, Text: o.Text})
			}
		}
		j.Picture = r.Pool().Picture(r.RelName)
		j.Buffers = jsonBuffers(r)
		for _, rel := range r.Relations() {
			if j.Relations == nil {
				j.Relations = map[string]uint{}
			}
			j.Relations[rel.Name] = uint(rel.Number)
		}
		for _, b := range j.Backends {
			if msg := r.BackendError(b); msg != "" {
				if j.BackendErrors == nil {
					j.BackendErrors = map[string]string{}
				}
				j.BackendErrors[b] = msg
			}
		}
		st := r.Pool().Stats()
		j.Stats = &st
		j.Hash = fmt.Sprintf("%016x", r.Log().Hash())
		for _, s := range r.Schedules() {
			var row []string
			for _, a := range s {
				row = append(row, names[a])
			}
			j.Schedules = append(j.Schedules, row)
			j.ScheduleLines = append(j.ScheduleLines, r.ScheduleLines(s))
		}
	}
	code := exitOK
	if err != nil {
		code = exitFor(err)
		var se *scenario.Error
		if errors.As(err, &se) {
			j.Error = &jsonError{File: se.File, Line: se.Pos.Line, Col: se.Pos.Col, Message: se.Msg, Check: se.Check}
		} else {
			j.Error = &jsonError{File: name, Message: err.Error()}
		}
		fmt.Fprintln(stderr, err)
	}
	return j, code
}

// jsonBuffers lists the pool's buffers that are not empty.
func jsonBuffers(r *scenario.Runner) []jsonBuffer {
	out := []jsonBuffer{}
	p := r.Pool()
	for i := 0; i < p.NBuffers; i++ {
		d := p.Desc(i)
		s := d.State()
		if bufmgr.IsEmpty(s) {
			continue
		}
		jb := jsonBuffer{Buf: i, RC: bufmgr.StateRefcount(s), Usage: bufmgr.StateUsagecount(s), Flags: bufmgr.FlagNames(s)}
		if s&bufmgr.BmTagValid != 0 {
			jb.Tag = bufmgr.TagString(d.Tag(), r.RelName)
		}
		if jb.Flags == nil {
			jb.Flags = []string{}
		}
		out = append(out, jb)
	}
	return out
}

func cmdList(stdout io.Writer) int {
	names, _ := fs.Glob(lessons.Scenarios, "scenarios/*.scn")
	sort.Strings(names)
	for _, n := range names {
		src, _ := fs.ReadFile(lessons.Scenarios, n)
		title := strings.TrimSpace(strings.TrimPrefix(strings.SplitN(string(src), "\n", 2)[0], "#"))
		fmt.Fprintf(stdout, "%-20s %s\n", strings.TrimSuffix(path.Base(n), ".scn"), title)
	}
	return exitOK
}

func cmdDemo(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("demo", stderr)
	step := fs.Bool("step", false, "wait for Enter after each run")
	events := fs.Bool("events", false, "print every event, not one line per read")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return exitBadInput
	}
	name := "clock-sweep"
	if len(pos) > 1 {
		fmt.Fprintf(stderr, "bufferlab demo: expected at most one scenario name, found %d\n", len(pos))
		return exitBadInput
	}
	if len(pos) == 1 {
		name = pos[0]
	}
	src, err := lessons.Scenarios.ReadFile("scenarios/" + name + ".scn")
	if err != nil {
		fmt.Fprintf(stderr, "bufferlab demo: no embedded scenario %q (see 'bufferlab list')\n", name)
		return exitBadInput
	}
	return playDemo(name+".scn", string(src), *step, *events, stdin, stdout, stderr)
}

// playDemo prints a scenario statement by statement: its comments as
// narration, the statement, and what it did.
func playDemo(name, src string, step, events bool, stdin io.Reader, stdout, stderr io.Writer) int {
	script, err := scenario.Parse(name, src)
	if err == nil {
		err = script.RequireStatements()
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadInput
	}
	r, err := scenario.NewRunner(script, true)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadInput
	}
	lines := strings.Split(src, "\n")
	printed := 0
	in := bufio.NewReader(stdin)
	for i := 0; !r.Done(); i++ {
		st := script.Stmts[i]
		for printed < st.At().Line-1 {
			l := strings.TrimSpace(lines[printed])
			if strings.HasPrefix(l, "#") {
				fmt.Fprintln(stdout, strings.TrimSpace(strings.TrimPrefix(l, "#")))
			} else if l == "" {
				fmt.Fprintln(stdout)
			}
			printed++
		}
		printed++
		fmt.Fprintf(stdout, "  > %s\n", strings.TrimSpace(lines[st.At().Line-1]))
		mark := r.Log().Len()
		o, err := r.Step()
		switch o.Stmt.(type) {
		case *scenario.RunStmt:
			if events {
				fmt.Fprint(stdout, o.Text)
			} else {
				fmt.Fprint(stdout, r.SummarizeLog(mark))
			}
			if step {
				fmt.Fprint(stdout, "  [Enter to continue] ")
				if _, err := in.ReadString('\n'); err != nil {
					step = false
				}
			}
		case *scenario.ExpectStmt:
			if err == nil {
				fmt.Fprintln(stdout, "    ok")
			}
		default:
			fmt.Fprint(stdout, o.Text)
		}
		if err != nil {
			fmt.Fprintln(stderr, err)
			return exitFor(err)
		}
	}
	return exitOK
}
