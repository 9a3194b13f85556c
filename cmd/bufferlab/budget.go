package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
	"bufferlab/internal/spillfile"
)

// The memory budget of `bufferlab run` (issue 14.6). The engine bounds a
// traced run's events by a scenario.Budget; this file derives it from the
// machine, which the engine does not look at.
//
// A run may use half of the memory the process may have (GOMEMLIMIT when
// set, else the cgroup's memory.max, else the machine's MemTotal), and at
// most maxRunMemory, the documented cap, so that a runaway scenario stops
// within seconds and well under 1 GB whatever the machine. The events'
// cost depends on the output: measured peak resident memory per event
// over big scans (a 48-byte event in the log, its text line, and for
// --json its event object and encoded bytes), rounded up.
//
// A run whose events are summarised or left out (--summary, --no-events)
// keeps them compact and spills them to a temporary file (trace.Storage):
// its memory stays flat, a million-read run included, and its bound is the
// file's size, maxSpillBytes at spillEventBytes an event. Without a
// temporary directory it keeps them compact in memory.
const (
	maxRunMemory      = 512 << 20
	textEventBytes    = 600  // printed text: about 530 measured
	jsonEventBytes    = 2400 // --json: about 2200 measured
	compactEventBytes = 24   // compact in memory: 14-16 measured, and the GC's share
	maxSpillBytes     = 2 << 30
	spillEventBytes   = 16 // compact on disk: 14-16 measured
)

// outputMode is what a run makes of its events.
type outputMode int

const (
	printEvents outputMode = iota // the text of every event
	jsonEvents                    // --json: every event an object
	quietEvents                   // --summary, --no-events: none printed
)

// runStorage is how a run of that mode keeps its events.
func runStorage(mode outputMode) trace.Storage {
	if mode != quietEvents {
		return trace.Storage{}
	}
	return scenario.QuietStorage(openSpill)
}

// openSpill opens a run's spill file in the system's temporary directory.
func openSpill() (trace.SpillFile, error) { return spillfile.Open("") }

// runBudget is the budget of each of the variants runners of one run.
func runBudget(mode outputMode, variants int) scenario.Budget {
	if mode == quietEvents {
		if f, err := openSpill(); err == nil {
			f.Close()
			b := scenario.Budget{Bytes: maxSpillBytes, EventBytes: spillEventBytes, Source: "the cap of one bufferlab run's events spilled to disk"}
			if variants > 1 {
				b.Bytes /= int64(variants)
				b.Source += fmt.Sprintf(", shared by %d variants", variants)
			}
			return b
		}
	}
	bytes, source := int64(maxRunMemory), "the cap of one bufferlab run"
	if m, from := processMemory(); m > 0 {
		if m/2 < bytes {
			bytes, source = m/2, "half of "+from+" ("+sizeText(m)+")"
		} else {
			source += ", under half of " + from + " (" + sizeText(m) + ")"
		}
	}
	b := scenario.Budget{Bytes: bytes, EventBytes: textEventBytes, Source: source}
	switch mode {
	case jsonEvents:
		b.EventBytes = jsonEventBytes
		b.Source += ", for --json"
	case quietEvents:
		b.EventBytes = compactEventBytes
		b.Source += ", no temporary file for its events"
	}
	if variants > 1 {
		// Every variant's run is kept until the end.
		b.Bytes /= int64(variants)
		b.Source += fmt.Sprintf(", shared by %d variants", variants)
	}
	return b
}

// processMemory is the memory the process may use, and where that comes
// from; 0 when nothing says.
func processMemory() (int64, string) {
	if l := debug.SetMemoryLimit(-1); l > 0 && l < math.MaxInt64 {
		return l, "GOMEMLIMIT"
	}
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 {
			return n, "the cgroup's memory.max"
		}
	}
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// MemTotal:       131072000 kB
		if fields := strings.Fields(sc.Text()); len(fields) == 3 && fields[0] == "MemTotal:" && fields[2] == "kB" {
			if kb, err := strconv.ParseInt(fields[1], 10, 64); err == nil && kb > 0 {
				return kb << 10, "the machine's memory"
			}
		}
	}
	return 0, ""
}

func sizeText(n int64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%d MiB", n>>20)
}
