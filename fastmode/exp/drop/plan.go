package drop

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"unsafe"

	"bufferlab/engine/bufmgr"
	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/timer"
)

// DropPlan says how long each kind of measurement may run.
type DropPlan struct {
	Clock *timer.Clock
	// Full times every drop of every cell (--full).
	Full bool
	// BudgetS: a cell whose pilot estimates more than this many seconds is
	// sampled and extrapolated (unless Full).
	BudgetS float64
	// SampleS and MinSample: an extrapolated cell times drops one by one
	// until both this many seconds and this many drops are reached.
	SampleS   float64
	MinSample int
	// Repeats: a cell timed in full is run again (after reading its
	// relations back) up to this many times while the runs so far took less
	// than RepeatS; the reported time is the median run.
	Repeats int
	RepeatS float64
	// Rounds of the interleaved comparisons (the threshold finder, the
	// one-block speedup); UpkeepRounds for the dlist upkeep.
	Rounds, UpkeepRounds int
}

// The plans of a default and a --quick run.
var (
	DropDefaultPlan = DropPlan{BudgetS: 60, SampleS: 2, MinSample: 16, Repeats: 5, RepeatS: 1, Rounds: 7, UpkeepRounds: 25}
	DropQuickPlan   = DropPlan{BudgetS: 0.25, SampleS: 0.05, MinSample: 16, Repeats: 3, RepeatS: 0.05, Rounds: 5, UpkeepRounds: 15}
)

const (
	dropPilot      = 8    // drops timed as a batch to estimate a cell
	dropMaxRepeats = 201  // most runs of a cheap cell
	dropMinCellS   = 1e-3 // cheap cells are repeated until this much time is timed
	dropMinPointS  = 2e-3 // sweep points likewise (per strategy)
	dropMaxRounds  = 101  // most rounds of a sweep point
	dropLookupRun  = 32   // one-block lookups timed as one batch in the speedup rounds
	dropSpeedupTbl = 2 * dropLookupRun
)

func dropPlanFor(o exp.Options) DropPlan {
	p := DropDefaultPlan
	if o.Quick {
		p = DropQuickPlan
	}
	p.Clock, p.Full = o.Clock, o.Full
	if p.Clock == nil {
		p.Clock = timer.Best()
	}
	return p
}

// Relation-size arithmetic.

// DropTables is how many one-block relations make NBuffers/k blocks: at
// least one.
func DropTables(nbuffers, k int) int { return max(1, nbuffers/max(k, 1)) }

// DropPoolTables is how many one-block relations the pool of the 000 table
// holds: enough for the largest cell (NBuffers/16), at most half the pool.
func DropPoolTables(nbuffers int) int {
	return min(DropTables(nbuffers, slices.Min(DropKs)), max(1, nbuffers/2))
}

// Memory.

// DescSize is the size of the engine's BufferDesc (PostgreSQL pads its own
// to a cache line, DescBytes).
const DescSize = int(unsafe.Sizeof(bufmgr.BufferDesc{}))

// Per-buffer and per-relation memory of the drop experiment's pools,
// measured with runtime.MemStats on linux/amd64 (Go 1.26) and rounded up:
// the descriptor (DescSize), the mapping table's entry (a Go map of
// BufferTag → int32, 24-byte slots in groups of 8 with a control word, at
// most 7/8 full, grown by doubling per 1024-slot table), the relation
// (bufmgr.Relation) and, with Options.DropList, the per-buffer links (12
// bytes) and the relation's list head and index entry; without the lists,
// the copy of the descriptors in PostgreSQL's layout (PaddedDescBytes).
const (
	DropBytesPerBuffer      = 100 + BufferDescPadToSize
	DropBytesPerBufferDList = 116
	DropBytesPerTable       = 64
	DropBytesPerTableDList  = 200
)

// DropPoolBytes estimates a drop pool's memory.
func DropPoolBytes(nbuffers, tables int, dlist bool) int64 {
	if dlist {
		return int64(nbuffers)*DropBytesPerBufferDList + int64(tables)*DropBytesPerTableDList
	}
	return int64(nbuffers)*DropBytesPerBuffer + int64(tables)*DropBytesPerTable
}

// DropNeedBytes is what one size of the experiment needs at its peak: one
// pool at a time, or the physical references' 64-byte-per-buffer array,
// whichever is more, and half as much again for the garbage collector's
// headroom.
func DropNeedBytes(nbuffers, tables int) int64 {
	peak := max(DropPoolBytes(nbuffers, tables, true), DropPoolBytes(nbuffers, tables, false), int64(nbuffers)*exp.DescBytes+int64(nbuffers)*4)
	return peak * 3 / 2
}

// dropMemory is the memory the experiment may count on: three quarters of
// the machine's (MemTotal); in the browser, 2GB of WebAssembly's 4GB;
// unknown elsewhere. A variable so that tests can pretend to run on a small
// machine.
var dropMemory = func() (int64, bool) {
	if m, ok := exp.MemTotal(); ok {
		return m / 4 * 3, true
	}
	if runtime.GOOS == "js" {
		return 2 << 30, true
	}
	return 0, false
}

// dropFits reports whether a size fits; why says why not.
func dropFits(nbuffers, tables int) (ok bool, why string) {
	need := DropNeedBytes(nbuffers, tables)
	have, known := dropMemory()
	if !known || need <= have {
		return true, ""
	}
	return false, fmt.Sprintf("needs about %s, more than the %s this run may use (three quarters of the machine's memory)",
		mb(need), mb(have))
}

func mb(bytes int64) string {
	if bytes >= 1<<30 {
		return strconv.FormatFloat(float64(bytes)/(1<<30), 'f', 1, 64) + " GiB"
	}
	return strconv.FormatInt(bytes>>20, 10) + " MiB"
}
