package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/fastmode/chart"
	"bufferlab/fastmode/exp"
	_ "bufferlab/fastmode/exp/all" // registers every experiment
	"bufferlab/fastmode/exp/classroom"
	"bufferlab/fastmode/exp/pin"
	_ "bufferlab/fastmode/exp/step" // bench step: linked here only (it writes a temporary file)
)

const benchUsage = "usage: bufferlab bench [--json] [--plot FILE.png|FILE.svg] [--quick] [--shared-buffers 128MB,1GB,20GB] [--workers N (pin)] [--full (drop)] [--students N (classroom)] EXPERIMENT\n" +
	"  --full (drop): time every drop of every cell instead of timing a sample of a cell that would take over a minute and\n" +
	"                 extrapolating (such cells are marked); at 20GB and 50GB the full scans take hours\n"

// benchProgress is where progress bars go (a terminal only).
var benchProgress io.Writer = os.Stderr

func cmdBench(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("bench", stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	plotFile := fs.String("plot", "", "draw the results to `FILE` (.png or .svg)")
	quick := fs.Bool("quick", false, "a reduced size set and fewer samples (under a minute)")
	sizesFlag := fs.String("shared-buffers", "", "comma-separated shared_buffers `sizes` (default: the experiment's set)")
	workers := fs.Int("workers", 0, "pin only: the largest worker count, 1..1024 (default 2×GOMAXPROCS; --quick 4)")
	full := fs.Bool("full", false, "drop only: time every drop; never sample a long cell and extrapolate")
	students := fs.Int("students", classroom.DefaultStudents, fmt.Sprintf("classroom only: simulated students, 1..%d", classroom.MaxStudents))
	pos, err := parseFlags(fs, args)
	if err != nil {
		fmt.Fprint(stderr, benchUsage)
		return exitBadInput
	}
	known := strings.Join(exp.Names(), ", ")
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "bufferlab bench: expected one experiment (%s), found %d arguments\n%s", known, len(pos), benchUsage)
		return exitBadInput
	}
	e, ok := exp.Lookup(pos[0])
	if !ok {
		fmt.Fprintf(stderr, "bufferlab bench: unknown experiment %q; known experiments: %s\n", pos[0], known)
		return exitBadInput
	}
	if *plotFile != "" {
		if _, err := chart.PlotFormat(*plotFile); err != nil {
			fmt.Fprintf(stderr, "bufferlab bench: --plot %s: %v\n", *plotFile, err)
			return exitBadInput
		}
		if _, ok := chart.Lookup(e.Name); !ok {
			fmt.Fprintf(stderr, "bufferlab bench: --plot: experiment %s has no chart (its report is the table or --json)\n", e.Name)
			return exitBadInput
		}
	}
	workersSet, studentsSet := false, false
	fs.Visit(func(f *flag.Flag) {
		workersSet = workersSet || f.Name == "workers"
		studentsSet = studentsSet || f.Name == "students"
	})
	if workersSet && badCount(stderr, e, "workers", e.TakesWorkers, "worker count", *workers, pin.MaxPinWorkers) {
		return exitBadInput
	}
	if studentsSet && badCount(stderr, e, "students", e.TakesStudents, "class size (--students applies to classroom)", *students, classroom.MaxStudents) {
		return exitBadInput
	}
	if !e.TakesStudents {
		*students = 0
	}
	if *full && !e.TakesFull {
		var takes []string
		for _, n := range exp.Names() {
			if x, _ := exp.Lookup(n); x.TakesFull {
				takes = append(takes, n)
			}
		}
		fmt.Fprintf(stderr, "bufferlab bench: --full: experiment %s samples and extrapolates nothing (--full applies to %s)\n", e.Name, strings.Join(takes, ", "))
		return exitBadInput
	}
	var sizes []string
	if *sizesFlag != "" {
		if !e.TakesSizes {
			fmt.Fprintf(stderr, "bufferlab bench: --shared-buffers: experiment %s takes no sizes\n", e.Name)
			return exitBadInput
		}
		mem, haveMem := memTotal()
		for _, s := range strings.Split(*sizesFlag, ",") {
			s = strings.TrimSpace(s)
			nb, err := bufmgr.ParseSharedBuffers(s)
			if err != nil {
				fmt.Fprintf(stderr, "bufferlab bench: --shared-buffers %s: %v\n", s, err)
				return exitBadInput
			}
			if need := int64(nb) * exp.BytesPerBuffer; haveMem && need > mem {
				fmt.Fprintf(stderr, "bufferlab bench: --shared-buffers %s: the simulation needs about %s (%d buffers × ~%d bytes) but this machine has %s\n",
					s, bufmgr.FormatSize(need/(1<<20)*(1<<20)), nb, exp.BytesPerBuffer, bufmgr.FormatSize(mem/(1<<20)*(1<<20)))
				return exitBadInput
			}
			sizes = append(sizes, s)
		}
	}
	rep, err := e.Run(exp.Options{Sizes: sizes, Quick: *quick, Progress: benchProgress, Workers: *workers, Full: *full, Students: *students})
	if err != nil {
		fmt.Fprintf(stderr, "bufferlab bench %s: %v\n", e.Name, err)
		return exitCheck
	}
	if *asJSON {
		if err := writeJSON(stdout, rep); err != nil {
			fmt.Fprintf(stderr, "bufferlab bench: %v\n", err)
			return exitCheck
		}
	} else {
		e.WriteTable(rep, stdout)
	}
	if *plotFile != "" {
		if err := chart.Plot(rep, *plotFile); err != nil {
			fmt.Fprintf(stderr, "bufferlab bench: --plot %s: %v\n", *plotFile, err)
			return exitCheck
		}
	}
	return exitOK
}

// badCount reports (on stderr) whether count flag --name, given to
// experiment e, is refused: e does not take it (takes false; what names
// what it would set), or its value v is outside 1..most.
func badCount(stderr io.Writer, e *exp.Experiment, name string, takes bool, what string, v, most int) bool {
	if !takes {
		fmt.Fprintf(stderr, "bufferlab bench: --%s: experiment %s takes no %s\n", name, e.Name, what)
		return true
	}
	if v < 1 || v > most {
		fmt.Fprintf(stderr, "bufferlab bench: --%s %d: want 1..%d\n", name, v, most)
		return true
	}
	return false
}

// memTotal is the machine's memory (a variable so that a test can pretend
// to run on a small machine).
var memTotal = exp.MemTotal
