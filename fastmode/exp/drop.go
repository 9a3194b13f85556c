package exp

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"unsafe"

	"bufferlab/engine/bufmgr"
	"bufferlab/fastmode/harness"
	"bufferlab/fastmode/timer"
)

// bench drop: dropping a relation's buffers (seeds 000 and 001, issue 6).
//
// Four measurements, all on the engine's fast path (nil trace log, no
// scheduler, one backend playing the startup process), timed with the
// hardware clock:
//
//  1. The 000 table, "recovery after VACUUM": a full pool in recovery holds
//     NBuffers/16 one-block relations and a filler relation in every other
//     buffer; the first NBuffers/k of the one-block relations (k = 512 …
//     16) are truncated to nothing one after another, as the replay of
//     VACUUM's truncations does (DropRelationBuffers(rel, {main}, {0})),
//     with the full scan, the per-block lookup and the dlist walk (the last
//     on a second pool built with Options.DropList). A cell whose pilot
//     says it would take longer than the budget (a minute; a quarter of a
//     second with --quick) is sampled: drops are timed one by one for a
//     couple of seconds and the total is extrapolated as the median drop ×
//     the number of relations, and the cell is marked. --full times every
//     drop.
//  2. The threshold finder: one relation of NBuffers/k blocks, all
//     resident, dropped whole by the scan and by the lookup in interleaved
//     rounds, for k = 512, 256, … until the lookup has lost twice in a row
//     (or k = 2), then three more points between the two that bracket the
//     last crossing; the crossover is interpolated in log k against log
//     (scan time / lookup time), beside PostgreSQL's k = 32. The scan is
//     timed over PostgreSQL's descriptor layout (64-byte BufferDescPadded,
//     droplayout.go; DropSweepPoint says how), which gives crossover_k;
//     the engine's own scan over its compact 36-byte descriptors runs in
//     the same rounds as a labelled what-if (crossover_k_compact).
//
// Everywhere else too (the table, the one-block speedup), "scan" is the
// scan over PostgreSQL's layout.
//  3. One one-block relation at 20GB, scan time / lookup time
//     (speedup_1block_20GB), in rounds of one scan drop then a run of
//     lookup drops (cold after the scan).
//  4. The 001 question: what keeping the lists costs a read-only workload,
//     ReadBuffer + ReleaseBuffer on a 128MB pool, hits and misses (a miss
//     evicts a buffer of another relation, so the upkeep moves it between
//     two lists), with and without the lists, in interleaved A/B rounds;
//     the overhead is the median over the rounds of (with / without − 1).
//
// Without --quick it also runs the 001 thread's "VACUUM + failover" case:
// 1000 one-block relations dropped from a 100GB pool.
//
// Pools are built once per size and reused: a dropped relation's buffer goes
// to the freelist, so reading it back (untimed) takes it from there without
// evicting anything. Nothing is allocated per drop in a timed region.

func init() { register(dropExperiment) }

var dropExperiment = &Experiment{
	Name: "drop",
	Doc: "seeds 000/001: dropping relation buffers in recovery after VACUUM (scan, per-block lookup, dlist) at shared_buffers 128MB–50GB and " +
		"relation sizes NBuffers/512–/16, the lookup/scan crossover as NBuffers/k, one one-block relation at 20GB, and the dlist's upkeep on reads",
	TakesSizes:   true,
	TakesFull:    true,
	DefaultSizes: []string{"128MB", "1GB", "20GB", "50GB"},
	QuickSizes:   []string{"128MB", "1GB"},
	SummaryKeys: []string{"crossover_k", "descriptor_bytes", "crossover_k_compact", "descriptor_bytes_compact",
		"speedup_1block_20GB", "dlist_overhead_miss_pct", "dlist_overhead_hit_pct"},
	SignedKeys: []string{"dlist_overhead_miss_pct", "dlist_overhead_hit_pct"},
	run:        runDrop,
	table:      dropTable,
}

// DropKs are the 000 table's relation sizes: NBuffers/k blocks in all, k
// from 512 to 16 (the thread measured 512, 256 and 128, then was asked to
// go on "till we get the threshold where master performs better").
var DropKs = []int{512, 256, 128, 64, 32, 16}

// DropSweepKs are the threshold finder's coarse points, NBuffers/k blocks.
var DropSweepKs = []int{512, 256, 128, 64, 32, 16, 8, 4, 2}

// PGDropThresholdK is PostgreSQL's BUF_DROP_FULL_SCAN_THRESHOLD divisor:
// the lookup is used below NBuffers/32 blocks.
const PGDropThresholdK = 32

// Fixed sizes of the experiment.
const (
	DropSpeedupSize    = "20GB"  // speedup_1block_20GB
	DropUpkeepSize     = "128MB" // the dlist upkeep on reads
	DropFailoverSize   = "100GB" // seed 001's VACUUM + failover
	DropFailoverTables = 1000
)

// Strategy names in the report's rows.
var dropStrategies = []bufmgr.DropStrategy{bufmgr.DropScan, bufmgr.DropLookup, bufmgr.DropDList}

// SeedDropCell is one cell of seed 000's table (Tang Haiying, 2020-12-24):
// the recovery after VACUUM, in seconds, on master (full scan) and with the
// patch (per-block lookup, with the threshold check removed for the test),
// by shared_buffers and relation size NBuffers/K. Quoted, not measured here.
type SeedDropCell struct {
	SharedBuffers     string
	K                 int
	MasterS, PatchedS float64
}

// SeedDropTable is that table.
var SeedDropTable = []SeedDropCell{
	{"128MB", 512, 0.108, 0.108}, {"128MB", 256, 0.109, 0.108}, {"128MB", 128, 0.109, 0.108},
	{"1GB", 512, 0.310, 0.107}, {"1GB", 256, 0.410, 0.208}, {"1GB", 128, 0.811, 0.309},
	{"20GB", 512, 94.493, 1.511}, {"20GB", 256, 188.777, 3.014}, {"20GB", 128, 380.633, 6.020},
	{"50GB", 512, 537.978, 3.815}, {"50GB", 256, 867.453, 7.524}, {"50GB", 128, 1559.076, 15.541},
}

// SeedDrop returns seed 000's cell for a size and k.
func SeedDrop(size string, k int) (SeedDropCell, bool) {
	for _, c := range SeedDropTable {
		if c.SharedBuffers == size && c.K == k {
			return c, true
		}
	}
	return SeedDropCell{}, false
}

// Seed 001 (Kirk Jamison, 2020-03): VACUUM + failover with 100GB of
// shared_buffers and 1000 tables (18MB), master against the dlist patch.
// Quoted, not measured here.
const (
	SeedFailoverVacuumMasterS  = 77.755218 // "77755.218 ms (01:17.755)"
	SeedFailoverVacuumPatchS   = 2.147914  // "2147.914 ms (00:02.148)"
	SeedFailoverReplayMasterS  = 97.084    // "01:37.084 (1 min 37.884 s)": the thread gives both
	SeedFailoverReplayPatchS   = 1.627     // "1627 ms (1.627 s)"
	SeedFailoverSharedBuffers  = "100GB"
	SeedFailoverTables         = 1000
	SeedFailoverTablesMB       = 18
	seedFailoverReplayMasterAs = "01:37.084 (the thread also writes 1 min 37.884 s)"
)

// SeedTPSRow is one row of seed 001's read-only pgbench table (-S -M
// prepared, 60 s, 10 runs averaged): tps on master and with the dlist
// patch, and the thread's "% reg" = (master − patch) / master.
type SeedTPSRow struct {
	SharedBuffers string
	Clients       int
	Master, Patch float64
	RegPct        float64
}

// SeedDListTPS is that table. Quoted, not measured here.
var SeedDListTPS = []SeedTPSRow{
	{"128MB", 16, 77416.76, 77162.78, 0.33}, {"1GB", 16, 81941.30, 81812.05, 0.16},
	{"2GB", 16, 84273.69, 84356.38, -0.10}, {"100GB", 16, 83807.30, 83924.68, -0.14},
	{"128MB", 1, 12044.54, 12037.13, 0.06}, {"1GB", 1, 12736.57, 12774.77, -0.30},
	{"2GB", 1, 12948.98, 13159.90, -1.63}, {"100GB", 1, 12982.98, 13064.04, -0.62},
}

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

func dropPlanFor(o Options) DropPlan {
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
	peak := max(DropPoolBytes(nbuffers, tables, true), DropPoolBytes(nbuffers, tables, false), int64(nbuffers)*DescBytes+int64(nbuffers)*4)
	return peak * 3 / 2
}

// dropMemory is the memory the experiment may count on: three quarters of
// the machine's (MemTotal); in the browser, 2GB of WebAssembly's 4GB;
// unknown elsewhere. A variable so that tests can pretend to run on a small
// machine.
var dropMemory = func() (int64, bool) {
	if m, ok := MemTotal(); ok {
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

// The pool.

// DropPool is a full simulated pool (nil log, no scheduler: the engine's
// fast path) in recovery, holding one-block relations (Tables, in
// buffers 0…) and a filler relation in every other buffer: the pool of the
// "recovery after VACUUM" workload before the truncations are replayed.
// Its backend plays the startup process.
type DropPool struct {
	Pool    *bufmgr.Pool
	Backend *bufmgr.Backend
	Tables  []bufmgr.Relation
	Filler  bufmgr.Relation
	victim  bufmgr.Relation // the threshold finder's relation
	// Padded is the pool's descriptors in PostgreSQL's 64-byte layout, kept
	// in step (droplayout.go): the full scan runs over it. Nil in a pool
	// built with the per-relation lists, which only the dlist walk uses.
	Padded []PGBufferDescPadded
}

// The truncation of a one-block relation to nothing: its main fork from
// block 0 (VACUUM's smgrtruncate, replayed).
var (
	dropMainFork = []bufmgr.ForkNumber{bufmgr.MainForkNum}
	dropFrom0    = []uint32{0}
)

// NewDropPool builds a pool of nbuffers buffers in recovery (Options.DropList
// as dlist) and reads into it tables one-block relations, then a filler
// relation until the pool is full.
func NewDropPool(nbuffers, tables int, dlist bool) (*DropPool, error) {
	if tables < 1 || tables > nbuffers {
		return nil, fmt.Errorf("drop pool: %d one-block relations in %d buffers", tables, nbuffers)
	}
	p, err := bufmgr.NewPoolWith(nbuffers, nil, bufmgr.Options{DropList: dlist, InRecovery: true})
	if err != nil {
		return nil, err
	}
	be, err := p.NewBackend("startup")
	if err != nil {
		return nil, err
	}
	dp := &DropPool{Pool: p, Backend: be, Tables: make([]bufmgr.Relation, tables)}
	if !dlist {
		dp.Padded = NewPaddedDescs(nbuffers)
	}
	for i := range dp.Tables {
		t := &dp.Tables[i]
		t.Name, t.Number, t.Permanent = "t", uint32(bufmgr.FirstNormalObjectId+1+i), true
		t.NBlocks[bufmgr.MainForkNum] = 1
	}
	dp.Filler = bufmgr.Relation{Name: "filler", Number: bufmgr.FirstNormalObjectId, Permanent: true}
	dp.Filler.NBlocks[bufmgr.MainForkNum] = uint32(nbuffers - tables)
	dp.victim = bufmgr.Relation{Name: "victim", Number: uint32(bufmgr.FirstNormalObjectId + 1 + tables), Permanent: true}
	if err := dp.readTables(0, tables); err != nil {
		return nil, err
	}
	for blk := uint32(0); blk < dp.Filler.NBlocks[bufmgr.MainForkNum]; blk++ {
		if _, err := dp.read(&dp.Filler, blk); err != nil {
			return nil, err
		}
	}
	if p.FirstFreeBuffer() >= 0 {
		return nil, fmt.Errorf("drop pool of %d buffers: not full after the fill (first free %d)", nbuffers, p.FirstFreeBuffer())
	}
	return dp, nil
}

func (dp *DropPool) read(rel *bufmgr.Relation, blk uint32) (hit bool, err error) {
	buf, hit, err := dp.Backend.ReadBuffer(rel, bufmgr.MainForkNum, blk, nil)
	if err != nil {
		return false, err
	}
	err = dp.Backend.ReleaseBuffer(buf)
	if dp.Padded != nil {
		dp.syncPadded(int(buf) - 1) // the buffer's new tag (a miss may have evicted another)
	}
	return hit, err
}

// readTables reads tables[lo:hi] back after their drop: each must miss
// (its buffer is gone) and takes a buffer from the freelist.
func (dp *DropPool) readTables(lo, hi int) error {
	for i := lo; i < hi; i++ {
		hit, err := dp.read(&dp.Tables[i], 0)
		if err != nil {
			return err
		}
		if hit {
			return fmt.Errorf("drop pool: relation %d was still in the pool after its drop", dp.Tables[i].Number)
		}
	}
	return nil
}

// dropRel truncates rel's main fork to nothing with st. The full scan runs
// over PostgreSQL's 64-byte layout (dropScanPadded), unless compact asks
// for the engine's own scan over its 36-byte descriptors (the what-if).
func (dp *DropPool) dropRel(rel *bufmgr.Relation, st bufmgr.DropStrategy, compact bool) error {
	if st == bufmgr.DropScan && !compact {
		return dp.dropScanPadded(rel, bufmgr.MainForkNum, 0)
	}
	_, err := dp.Backend.DropRelationBuffers(rel, dropMainFork, dropFrom0, st)
	return err
}

// dropTables truncates tables[lo:hi] one after another with st (the scan
// over PostgreSQL's layout).
func (dp *DropPool) dropTables(lo, hi int, st bufmgr.DropStrategy) error {
	for i := lo; i < hi; i++ {
		if err := dp.dropRel(&dp.Tables[i], st, false); err != nil {
			return err
		}
	}
	return nil
}

// DropCell is one cell of the 000 table: the time to drop Tables one-block
// relations one after another with Strategy.
type DropCell struct {
	Strategy bufmgr.DropStrategy
	Tables   int
	// Seconds is the time to drop them all: the median of Seconds.Samples
	// full runs, or, when Extrapolated, the median drop × Tables (P10 and
	// P90 likewise from the sampled drops).
	Seconds      harness.Summary
	Extrapolated bool
	Sampled      int     // drops timed one by one (Extrapolated)
	EstimateS    float64 // the pilot's estimate of one full run
	// Counters per drop.
	DescsPerDrop, LookupsPerDrop, HopsPerDrop float64
}

// PerDropNs is the median time of one drop.
func (c DropCell) PerDropNs() float64 { return c.Seconds.Median * 1e9 / float64(max(c.Tables, 1)) }

// DropSampleDecision estimates a cell of n drops whose first p took
// pilotNs, and says whether it must be sampled: its estimate is over
// budgetS seconds and full is off.
func DropSampleDecision(pilotNs float64, p, n int, budgetS float64, full bool) (estimateS float64, sample bool) {
	if p <= 0 {
		return math.NaN(), false
	}
	estimateS = pilotNs / float64(p) * float64(n) / 1e9
	return estimateS, !full && p < n && estimateS > budgetS
}

// DropExtrapolate estimates the total time of n drops from drops timed one
// by one (ns): the median × n, with p10 and p90 likewise, in seconds.
func DropExtrapolate(perDropNs []float64, n int) harness.Summary {
	s := harness.Summarise(perDropNs)
	f := float64(n) / 1e9
	s.Median, s.P10, s.P90 = s.Median*f, s.P10*f, s.P90*f
	s.Batch = 1
	return s
}

// MeasureCell drops tables[:tables] with st, timed by plan, and reads them
// back. The pool must hold them all.
func (dp *DropPool) MeasureCell(plan DropPlan, tables int, st bufmgr.DropStrategy) (DropCell, error) {
	if tables < 1 || tables > len(dp.Tables) {
		return DropCell{}, fmt.Errorf("drop cell of %d relations in a pool of %d", tables, len(dp.Tables))
	}
	c := DropCell{Strategy: st, Tables: tables}
	clk := plan.Clock
	be := dp.Backend
	before := be.Stats
	drops := 0
	p := min(tables, dropPilot)
	t0 := clk.Now()
	err := dp.dropTables(0, p, st)
	pilot := clk.Nanos(clk.Now() - t0)
	if err != nil {
		return c, err
	}
	drops += p
	var sample bool
	c.EstimateS, sample = DropSampleDecision(pilot, p, tables, plan.BudgetS, plan.Full)
	if !sample {
		t0 = clk.Now()
		err = dp.dropTables(p, tables, st)
		rest := clk.Nanos(clk.Now() - t0)
		if err != nil {
			return c, err
		}
		drops += tables - p
		runs := []float64{(pilot + rest) / 1e9}
		cum := runs[0]
		if err := dp.readTables(0, tables); err != nil {
			return c, err
		}
		for len(runs) < dropMaxRepeats && (len(runs) < plan.Repeats && cum+runs[len(runs)-1] <= plan.RepeatS || cum < dropMinCellS) {
			t0 = clk.Now()
			err = dp.dropTables(0, tables, st)
			d := clk.Nanos(clk.Now()-t0) / 1e9
			if err != nil {
				return c, err
			}
			drops += tables
			runs = append(runs, d)
			cum += d
			if err := dp.readTables(0, tables); err != nil {
				return c, err
			}
		}
		c.Seconds = harness.Summarise(runs)
		c.Seconds.Batch = tables
	} else {
		per := make([]float64, 0, min(tables, 1<<16))
		sum := 0.0
		n := p
		for n < tables && (len(per) < plan.MinSample || sum < plan.SampleS*1e9) {
			t0 = clk.Now()
			err := dp.dropRel(&dp.Tables[n], st, false)
			d := clk.Nanos(clk.Now() - t0)
			if err != nil {
				return c, err
			}
			per = append(per, d)
			sum += d
			n++
		}
		drops += n - p
		if err := dp.readTables(0, n); err != nil {
			return c, err
		}
		c.Seconds = DropExtrapolate(per, tables)
		c.Extrapolated, c.Sampled = true, len(per)
	}
	d := be.Stats
	inv := d.DropInvalidated - before.DropInvalidated
	if inv != uint64(drops) {
		return c, fmt.Errorf("drop %s of %d relations: %d buffers invalidated in %d drops, want one each", st, tables, inv, drops)
	}
	per := func(a, b uint64) float64 { return float64(a-b) / float64(drops) }
	c.DescsPerDrop = per(d.DropDescsTouched, before.DropDescsTouched)
	c.LookupsPerDrop = per(d.DropLookups, before.DropLookups)
	c.HopsPerDrop = per(d.DropListHops, before.DropListHops)
	return c, nil
}

// The threshold finder.

// DropSweepPoint is one point of the threshold finder: one relation of
// Blocks = NBuffers/K blocks, all resident, dropped whole.
//
// The scan over PostgreSQL's layout is Compact + Pass64 − Pass36, per
// round: the engine's scan, whose locked half (LockBufHdr, the re-check,
// InvalidateBuffer) works on the descriptor its pre-check has just read, as
// PostgreSQL's does, with its pre-check pass over the 36-byte descriptors
// replaced by one over the 64-byte ones, each timed on its own as a scan
// that finds nothing. The padded scan of the table's cells
// (dropScanPadded) runs its locked half on the engine's descriptor, a
// second cache line that PostgreSQL's scan does not touch: harmless for a
// one-block relation, but for the finder's NBuffers/k blocks it added a
// miss per block and moved the crossover.
type DropSweepPoint struct {
	K, Blocks    int
	Scan, Lookup harness.Summary // ns per drop of the relation; Scan over PostgreSQL's 64-byte layout
	Ratio        harness.Summary // scan time / lookup time, per round
	// The what-if: the engine's scan over its compact descriptors
	// (DescSize bytes), and its time / the lookup's, per round.
	Compact, RatioCompact harness.Summary
	// The pre-check passes alone (a scan that finds nothing), over the
	// 64-byte and the 36-byte descriptors, ns.
	Pass64, Pass36 harness.Summary
	Rounds         int
}

// LookupWins reports whether the lookup was faster than the scan over
// PostgreSQL's layout (median ratio > 1).
func (pt DropSweepPoint) LookupWins() bool { return pt.Ratio.Median > 1 }

// LookupWinsCompact is LookupWins against the scan over the compact layout.
func (pt DropSweepPoint) LookupWinsCompact() bool { return pt.RatioCompact.Median > 1 }

// What the threshold finder times in a round.
const (
	sweepLookup      = iota // the per-block lookup drop
	sweepScanCompact        // the engine's scan drop, over its 36-byte descriptors
	sweepPass64             // the pre-check pass over PostgreSQL's 64-byte layout, finding nothing
	sweepPass36             // the same over the engine's 36-byte descriptors
	sweepWays
)

// loadVictim makes the finder's relation blocks long and reads it all in.
func (dp *DropPool) loadVictim(blocks int) error {
	dp.victim.NBlocks[bufmgr.MainForkNum] = uint32(blocks)
	for blk := 0; blk < blocks; blk++ {
		if _, err := dp.read(&dp.victim, uint32(blk)); err != nil {
			return err
		}
	}
	return nil
}

// MeasureSweepPoint drops a resident relation of NBuffers/k blocks with the
// lookup and with the engine's scan, then times the two pre-check passes
// over the relation, gone, in rounds that alternate which goes first; the
// scan over PostgreSQL's layout is derived per round (DropSweepPoint).
func (dp *DropPool) MeasureSweepPoint(plan DropPlan, k int) (DropSweepPoint, error) {
	nb := dp.Pool.NBuffers
	pt := DropSweepPoint{K: k, Blocks: nb / k}
	if pt.Blocks < 1 || pt.Blocks > nb/2 {
		return pt, fmt.Errorf("sweep point NBuffers/%d: %d blocks in %d buffers", k, pt.Blocks, nb)
	}
	if dp.Padded == nil {
		return pt, fmt.Errorf("sweep point: the pool has no descriptors in PostgreSQL's layout")
	}
	clk := plan.Clock
	var times [sweepWays][]float64
	var scan, ratio, ratioCompact []float64
	cum := [sweepWays]float64{}
	timed := func(which int, want uint64, drop func() error) error {
		before := dp.Backend.Stats.DropInvalidated
		t0 := clk.Now()
		err := drop()
		d := clk.Nanos(clk.Now() - t0)
		if err != nil {
			return err
		}
		if inv := dp.Backend.Stats.DropInvalidated - before; inv != want {
			return fmt.Errorf("sweep (way %d) of %d blocks invalidated %d buffers, want %d", which, pt.Blocks, inv, want)
		}
		times[which] = append(times[which], d)
		cum[which] += d
		return nil
	}
	for r := 0; r < dropMaxRounds && (r < plan.Rounds || min(cum[0], cum[1]) < dropMinPointS*1e9); r++ {
		for j := 0; j < 2; j++ {
			which := j ^ (r & 1) // sweepLookup or sweepScanCompact
			st := []bufmgr.DropStrategy{bufmgr.DropLookup, bufmgr.DropScan}[which]
			if err := dp.loadVictim(pt.Blocks); err != nil {
				return pt, err
			}
			if err := timed(which, uint64(pt.Blocks), func() error { return dp.dropRel(&dp.victim, st, true) }); err != nil {
				return pt, err
			}
		}
		// The engine's drops left the relation's tags in the padded copy
		// on the buffers they freed: bring it in step (untimed), so that
		// the passes find nothing.
		for i := range dp.Padded {
			dp.syncPadded(i)
		}
		for j := 0; j < 2; j++ {
			which := sweepPass64 + (j ^ (r & 1))
			pass := func() error { return dp.dropScanPadded(&dp.victim, bufmgr.MainForkNum, 0) }
			if which == sweepPass36 {
				pass = func() error { return dp.dropRel(&dp.victim, bufmgr.DropScan, true) }
			}
			if err := timed(which, 0, pass); err != nil {
				return pt, err
			}
		}
		n := len(times[sweepLookup]) - 1
		s64 := times[sweepScanCompact][n] + times[sweepPass64][n] - times[sweepPass36][n]
		scan = append(scan, s64)
		ratio = append(ratio, s64/times[sweepLookup][n])
		ratioCompact = append(ratioCompact, times[sweepScanCompact][n]/times[sweepLookup][n])
	}
	pt.Scan, pt.Lookup, pt.Compact = harness.Summarise(scan), harness.Summarise(times[sweepLookup]), harness.Summarise(times[sweepScanCompact])
	pt.Pass64, pt.Pass36 = harness.Summarise(times[sweepPass64]), harness.Summarise(times[sweepPass36])
	pt.Ratio, pt.RatioCompact = harness.Summarise(ratio), harness.Summarise(ratioCompact)
	for _, s := range []*harness.Summary{&pt.Scan, &pt.Lookup, &pt.Compact, &pt.Pass64, &pt.Pass36, &pt.Ratio, &pt.RatioCompact} {
		s.Batch = 1
	}
	pt.Rounds = len(ratio)
	return pt, nil
}

// DropCrossover finds where the lookup stops winning. ks and ratio (scan
// time / lookup time, > 1 while the lookup wins) are parallel, in any
// order. The ratio can only fall as the relation grows (k falls): the scan
// costs the same whatever the size, the lookup one probe more per block. So
// the measured ratios are first made monotone (MonotoneRatios), which
// pools a noisy point with its neighbours instead of letting it move the
// crossover on its own; the crossover lies after the last point where the
// lookup still wins on the monotone fit, and is interpolated linearly in
// log k against log ratio between that point and the next. bound is +1 if
// the lookup never wins (the crossover is above the largest k measured;
// twice that is returned), -1 if it wins at every point (at or below the
// smallest k; that k is returned), else 0.
func DropCrossover(ks []int, ratio []float64) (k float64, bound int) {
	n := len(ks)
	if n == 0 || len(ratio) != n {
		return math.NaN(), 0
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return ks[idx[a]] > ks[idx[b]] })
	sk := make([]float64, n)
	sr := make([]float64, n)
	for j, i := range idx {
		sk[j], sr[j] = float64(ks[i]), ratio[i]
	}
	fit := MonotoneRatios(sr)
	last := -1
	for j, v := range fit {
		if v >= 1 {
			last = j
		}
	}
	switch {
	case last < 0:
		return 2 * sk[0], 1
	case last == n-1:
		return sk[n-1], -1
	}
	x0, x1 := math.Log(sk[last]), math.Log(sk[last+1])
	y0, y1 := math.Log(fit[last]), math.Log(fit[last+1])
	return math.Exp(x0 + (x1-x0)*y0/(y0-y1)), 0
}

// MonotoneRatios returns the non-increasing sequence closest to ratios (in
// log, least squares: the pool-adjacent-violators algorithm): each run of
// points that rise where they should fall is replaced by its geometric
// mean. ratios are in order of decreasing k (growing relations).
func MonotoneRatios(ratios []float64) []float64 {
	type block struct {
		sum float64 // of the logs
		n   int
	}
	var bs []block
	for _, r := range ratios {
		bs = append(bs, block{math.Log(r), 1})
		for len(bs) > 1 {
			a, b := bs[len(bs)-2], bs[len(bs)-1]
			if a.sum/float64(a.n) >= b.sum/float64(b.n) {
				break
			}
			bs = append(bs[:len(bs)-2], block{a.sum + b.sum, a.n + b.n})
		}
	}
	out := make([]float64, 0, len(ratios))
	for _, b := range bs {
		v := math.Exp(b.sum / float64(b.n))
		for range b.n {
			out = append(out, v)
		}
	}
	return out
}

// DropFineKs returns the points between two coarse ks (hi > lo) that the
// finder adds near the crossover: three, evenly spaced in log k, rounded,
// without hi, lo or repeats.
func DropFineKs(hi, lo int) []int {
	var out []int
	for j := 1; j <= 3; j++ {
		k := int(math.Round(float64(hi) * math.Pow(float64(lo)/float64(hi), float64(j)/4)))
		if k < hi && k > lo && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// Sweep runs the threshold finder on the pool. measured is called after
// every point.
func (dp *DropPool) Sweep(plan DropPlan, measured func(DropSweepPoint)) ([]DropSweepPoint, error) {
	nb := dp.Pool.NBuffers
	var pts []DropSweepPoint
	have := map[int]bool{} // blocks measured
	measure := func(k int) (DropSweepPoint, bool, error) {
		b := nb / k
		if b < 1 || b > nb/2 || have[b] {
			return DropSweepPoint{}, false, nil
		}
		have[b] = true
		pt, err := dp.MeasureSweepPoint(plan, k)
		if err != nil {
			return pt, false, err
		}
		pts = append(pts, pt)
		if measured != nil {
			measured(pt)
		}
		return pt, true, nil
	}
	losses := 0
	for _, k := range DropSweepKs {
		pt, ok, err := measure(k)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if pt.LookupWins() {
			losses = 0
		} else if losses++; losses == 2 {
			break
		}
	}
	// The lookup lost even at the smallest relation (against either
	// layout's scan): go on with smaller ones.
	for _, wins := range []func(DropSweepPoint) bool{DropSweepPoint.LookupWins, DropSweepPoint.LookupWinsCompact} {
		if len(pts) == 0 || slices.ContainsFunc(pts, wins) {
			continue
		}
		for k := 2 * slices.Max(sweepKs(pts)); nb/k >= 1; k *= 2 {
			pt, ok, err := measure(k)
			if err != nil {
				return nil, err
			}
			if ok && wins(pt) {
				break
			}
		}
	}
	// Finer points around the last crossing of each layout.
	for _, wins := range []func(DropSweepPoint) bool{DropSweepPoint.LookupWins, DropSweepPoint.LookupWinsCompact} {
		sortSweep(pts)
		for i := len(pts) - 2; i >= 0; i-- {
			if wins(pts[i]) && !wins(pts[i+1]) {
				for _, k := range DropFineKs(pts[i].K, pts[i+1].K) {
					if _, _, err := measure(k); err != nil {
						return nil, err
					}
				}
				break
			}
		}
	}
	sortSweep(pts)
	return pts, nil
}

func sweepKs(pts []DropSweepPoint) []int {
	ks := make([]int, len(pts))
	for i, pt := range pts {
		ks[i] = pt.K
	}
	return ks
}

func sortSweep(pts []DropSweepPoint) {
	sort.SliceStable(pts, func(a, b int) bool { return pts[a].K > pts[b].K })
}

// SweepCrossover is DropCrossover over a sweep's points, for the scan over
// PostgreSQL's 64-byte layout.
func SweepCrossover(pts []DropSweepPoint) (k float64, bound int) {
	ratio := make([]float64, len(pts))
	for i, pt := range pts {
		ratio[i] = pt.Ratio.Median
	}
	return DropCrossover(sweepKs(pts), ratio)
}

// SweepCrossoverCompact is the same for the scan over the compact layout.
func SweepCrossoverCompact(pts []DropSweepPoint) (k float64, bound int) {
	ratio := make([]float64, len(pts))
	for i, pt := range pts {
		ratio[i] = pt.RatioCompact.Median
	}
	return DropCrossover(sweepKs(pts), ratio)
}

// The one-block speedup.

// DropSpeedup is one one-block relation dropped by the scan and by the
// lookup: per drop, in rounds (see MeasureSpeedup).
type DropSpeedup struct {
	SharedBuffers string
	NBuffers      int
	Scan, Lookup  harness.Summary // ns per drop
	Ratio         harness.Summary // scan / lookup per round
}

// MeasureSpeedup times, in each of rounds rounds, one scan drop of a
// one-block relation, then a run of dropLookupRun lookup drops of others
// (divided by the run's length), and reads them back. The order is fixed,
// not alternated: the scan streams the whole descriptor array through the
// caches, so the lookups that follow find their mapping entries and
// descriptors cold, as a drop in the middle of a replay would, in every
// round (alternating would make every other round's lookups run warm, just
// after the read-back, and the median flip between the two).
func (dp *DropPool) MeasureSpeedup(plan DropPlan, size string, rounds int) (DropSpeedup, error) {
	s := DropSpeedup{SharedBuffers: size, NBuffers: dp.Pool.NBuffers}
	if len(dp.Tables) < dropLookupRun+1 {
		return s, fmt.Errorf("speedup: the pool holds %d one-block relations, want %d", len(dp.Tables), dropLookupRun+1)
	}
	clk := plan.Clock
	var scan, look, ratio []float64
	for r := 0; r < rounds; r++ {
		var t [2]float64
		t0 := clk.Now()
		err := dp.dropTables(0, 1, bufmgr.DropScan)
		t[0] = clk.Nanos(clk.Now() - t0)
		if err != nil {
			return s, err
		}
		t0 = clk.Now()
		err = dp.dropTables(1, 1+dropLookupRun, bufmgr.DropLookup)
		t[1] = clk.Nanos(clk.Now() - t0)
		if err != nil {
			return s, err
		}
		t[1] /= dropLookupRun
		if err := dp.readTables(0, 1+dropLookupRun); err != nil {
			return s, err
		}
		scan, look, ratio = append(scan, t[0]), append(look, t[1]), append(ratio, t[0]/t[1])
	}
	s.Scan, s.Lookup, s.Ratio = harness.Summarise(scan), harness.Summarise(look), harness.Summarise(ratio)
	s.Scan.Batch, s.Lookup.Batch, s.Ratio.Batch = 1, dropLookupRun, 1
	return s, nil
}

// The dlist's upkeep on reads (seed 001's question).

// UpkeepBench is a full pool ready for read hits or misses, with or
// without the per-relation lists.
type UpkeepBench struct {
	Pool    *bufmgr.Pool
	Backend *bufmgr.Backend
	Miss    bool
	rels    [2]bufmgr.Relation
	cur     int
	next    uint32
}

// NewUpkeepBench builds a pool of nbuffers buffers (Options.DropList as
// dlist) holding blocks 0… of a relation. Hits cycle through them; misses
// read a second relation of the same size, then the first again, and so on,
// so that every miss evicts a buffer of the other relation: the upkeep
// moves it from one list to the other under both list locks.
func NewUpkeepBench(nbuffers int, dlist, miss bool) (*UpkeepBench, error) {
	p, err := bufmgr.NewPoolWith(nbuffers, nil, bufmgr.Options{DropList: dlist})
	if err != nil {
		return nil, err
	}
	be, err := p.NewBackend("reader")
	if err != nil {
		return nil, err
	}
	u := &UpkeepBench{Pool: p, Backend: be, Miss: miss}
	for i := range u.rels {
		u.rels[i] = bufmgr.Relation{Name: "r" + strconv.Itoa(i), Number: uint32(bufmgr.FirstNormalObjectId + i), Permanent: true}
		u.rels[i].NBlocks[bufmgr.MainForkNum] = uint32(nbuffers)
	}
	if err := u.Run(nbuffers); err != nil {
		return nil, err
	}
	if miss {
		u.cur = 1
	}
	u.next = 0
	be.Stats = bufmgr.Stats{}
	return u, nil
}

// Run performs n reads (ReadBuffer + ReleaseBuffer).
func (u *UpkeepBench) Run(n int) error {
	be, nb := u.Backend, uint32(u.Pool.NBuffers)
	rel, next := &u.rels[u.cur], u.next
	for i := 0; i < n; i++ {
		buf, _, err := be.ReadBuffer(rel, bufmgr.MainForkNum, next, nil)
		if err != nil {
			return err
		}
		if err := be.ReleaseBuffer(buf); err != nil {
			return err
		}
		if next++; next == nb {
			next = 0
			if u.Miss {
				u.cur ^= 1
				rel = &u.rels[u.cur]
			}
		}
	}
	u.next = next
	return nil
}

// Check verifies that the reads were what they should be: only hits, or
// only misses.
func (u *UpkeepBench) Check() error {
	st := u.Backend.Stats
	if u.Miss && st.Hits != 0 || !u.Miss && st.Misses != 0 {
		return fmt.Errorf("upkeep bench (miss %v): %d hits, %d misses", u.Miss, st.Hits, st.Misses)
	}
	return nil
}

// DropUpkeep is one read path with and without the lists.
type DropUpkeep struct {
	Path        string          // "hit" or "miss"
	Off, On     harness.Summary // ns per read, median per round
	OverheadPct harness.Summary // (on / off − 1) × 100, per round
	Rounds      int
	LinksPerOp  float64 // list links per read with the lists (misses: 1)
}

// MeasureUpkeep compares reads with and without the lists on pools of
// nbuffers buffers, in rounds: each round measures, for hits and for
// misses, one side then the other (alternating which goes first) with
// harness.Measure, and the overhead of the round is the ratio of the two.
func MeasureUpkeep(cfg harness.Config, nbuffers, rounds int, step func(string)) ([]DropUpkeep, error) {
	type side struct {
		u   *UpkeepBench
		med []float64
		ops uint64
	}
	out := []DropUpkeep{{Path: "hit"}, {Path: "miss"}}
	var sides [2][2]*side // [path][dlist]
	for i := range out {
		for j := range 2 {
			u, err := NewUpkeepBench(nbuffers, j == 1, i == 1)
			if err != nil {
				return nil, err
			}
			sides[i][j] = &side{u: u}
		}
	}
	c := cfg
	c.Samples = max(3, cfg.Samples/max(rounds, 1))
	pct := [2][]float64{}
	for r := 0; r < rounds; r++ {
		if step != nil {
			step(fmt.Sprintf("dlist upkeep, round %d/%d", r+1, rounds))
		}
		if r > 0 {
			c.Warmup = 0
		}
		for i := range out {
			var m [2]float64
			for j := 0; j < 2; j++ {
				d := j ^ (r & 1)
				sd := sides[i][d]
				var runErr error
				s := harness.Measure(c, func(n int) {
					if err := sd.u.Run(n); err != nil && runErr == nil {
						runErr = err
					}
					sd.ops += uint64(n)
				})
				if runErr != nil {
					return nil, runErr
				}
				m[d] = s.Median
				sd.med = append(sd.med, s.Median)
			}
			pct[i] = append(pct[i], (m[1]/m[0]-1)*100)
		}
	}
	for i := range out {
		for j := range 2 {
			if err := sides[i][j].u.Check(); err != nil {
				return nil, err
			}
		}
		off, on := sides[i][0], sides[i][1]
		out[i].Off, out[i].On = harness.Summarise(off.med), harness.Summarise(on.med)
		out[i].OverheadPct = harness.Summarise(pct[i])
		out[i].Rounds = rounds
		out[i].LinksPerOp = float64(on.u.Backend.Stats.DListLinks) / float64(max(on.ops, 1))
	}
	return out, nil
}

// Running it.

// Row names.
const (
	dropRowCell     = "drop/"     // + strategy: a cell of the 000 table
	dropRowFailover = "failover/" // + strategy: the VACUUM + failover case
	dropRowSweep    = "sweep/"    // + scan, lookup or scan-compact
	dropRowSpeedup  = "1block/"   // + scan or lookup
	dropRowUpkeep   = "upkeep/"   // + hit or miss + /off, /on, /overhead
	dropRowSkipped  = "skipped"
)

func cellRow(prefix, size string, nb, k int, c DropCell) Row {
	row := Row{Name: prefix + c.Strategy.String(), SharedBuffers: size, NBuffers: nb, Unit: "s", Summary: c.Seconds,
		PerOp: map[string]float64{
			"k": float64(k), "tables": float64(c.Tables), "per_drop_ns": c.PerDropNs(),
			"descs_per_drop": c.DescsPerDrop, "lookups_per_drop": c.LookupsPerDrop, "list_hops_per_drop": c.HopsPerDrop,
			"extrapolated": 0, "sampled_drops": 0,
		}}
	if c.Strategy == bufmgr.DropScan {
		row.PerOp["descriptor_bytes"] = BufferDescPadToSize
	}
	if c.Extrapolated {
		row.PerOp["extrapolated"], row.PerOp["sampled_drops"] = 1, float64(c.Sampled)
		row.Note = fmt.Sprintf("extrapolated: %d of %d drops timed one by one, the median drop × %d (a full run was estimated at %s; --full times it)",
			c.Sampled, c.Tables, c.Tables, fmtSeconds(c.EstimateS))
	}
	return row
}

func runDrop(o Options, r *Report) error {
	plan := dropPlanFor(o)
	type sizeInfo struct {
		size   string
		nb     int
		fits   bool
		why    string
		tables int
	}
	var szs []sizeInfo
	speedupHere := ""
	for _, s := range o.Sizes {
		nb, err := bufmgr.ParseSharedBuffers(s)
		if err != nil {
			return err
		}
		si := sizeInfo{size: s, nb: nb, tables: DropPoolTables(nb)}
		si.fits, si.why = dropFits(nb, si.tables)
		szs = append(szs, si)
		if si.fits && nb == mustNBuffers(DropSpeedupSize) && speedupHere == "" && si.tables > dropLookupRun {
			speedupHere = s
		}
	}
	failNB := mustNBuffers(DropFailoverSize)
	failFits, failWhy := dropFits(failNB, DropFailoverTables)
	doFailover := !o.Quick

	total := 0
	for _, si := range szs {
		total++
		if si.fits {
			total += 3*len(DropKs) + 5
			if si.size == speedupHere {
				total++
			}
		}
	}
	if speedupHere == "" {
		total++
	}
	total += plan.UpkeepRounds
	if doFailover {
		total += 2
	}
	prog := harness.NewProgressFunc(o.Progress, "bench drop", total, o.OnStep)
	defer prog.Done()

	var speedup *DropSpeedup
	largest := "" // the largest size measured (the crossover reported)
	largestNB := 0
	for _, si := range szs {
		if !si.fits {
			prog.Step(si.size + " skipped")
			r.Rows = append(r.Rows, Row{Name: dropRowSkipped, SharedBuffers: si.size, NBuffers: si.nb, Note: si.why})
			continue
		}
		prog.Step(fmt.Sprintf("%s: filling the pool (%d relations)", si.size, si.tables))
		dp, err := NewDropPool(si.nb, si.tables, false)
		if err != nil {
			return err
		}
		for _, k := range DropKs {
			n := min(DropTables(si.nb, k), si.tables)
			for _, st := range dropStrategies[:2] {
				prog.Step(fmt.Sprintf("%s: NBuffers/%d, %s", si.size, k, st))
				c, err := dp.MeasureCell(plan, n, st)
				if err != nil {
					return fmt.Errorf("%s, NBuffers/%d: %w", si.size, k, err)
				}
				r.Rows = append(r.Rows, cellRow(dropRowCell, si.size, si.nb, k, c))
			}
		}
		if si.size == speedupHere {
			prog.Step(si.size + ": one one-block relation")
			s, err := dp.MeasureSpeedup(plan, si.size, 3*plan.Rounds)
			if err != nil {
				return err
			}
			speedup = &s
		}
		prog.Step(si.size + ": threshold finder")
		pts, err := dp.Sweep(plan, nil)
		if err != nil {
			return fmt.Errorf("%s, threshold finder: %w", si.size, err)
		}
		r.Rows = append(r.Rows, sweepRows(si.size, si.nb, pts)...)
		ck, bound := SweepCrossover(pts)
		r.Summary["crossover_k_"+si.size] = ck
		r.Summary["crossover_bound_"+si.size] = float64(bound)
		ck, bound = SweepCrossoverCompact(pts)
		r.Summary["crossover_k_compact_"+si.size] = ck
		r.Summary["crossover_bound_compact_"+si.size] = float64(bound)
		if si.nb > largestNB {
			largest, largestNB = si.size, si.nb
		}
		dp = nil
		runtime.GC()

		prog.Step(si.size + ": filling the pool with lists")
		dl, err := NewDropPool(si.nb, si.tables, true)
		if err != nil {
			return err
		}
		for _, k := range DropKs {
			prog.Step(fmt.Sprintf("%s: NBuffers/%d, dlist", si.size, k))
			c, err := dl.MeasureCell(plan, min(DropTables(si.nb, k), si.tables), bufmgr.DropDList)
			if err != nil {
				return fmt.Errorf("%s, NBuffers/%d: %w", si.size, k, err)
			}
			r.Rows = append(r.Rows, cellRow(dropRowCell, si.size, si.nb, k, c))
		}
		dl = nil
		runtime.GC()

		prog.Step(si.size + ": streaming the descriptor array")
		r.Rows = append(r.Rows, streamRow(o.Config, si.size, si.nb))
		prog.Step(si.size + ": dependent loads")
		r.Rows = append(r.Rows, chaseRow(o.Config, si.size, si.nb))
		runtime.GC()
	}
	if largest != "" {
		r.Summary["crossover_k"] = r.Summary["crossover_k_"+largest]
		r.Summary["crossover_bound"] = r.Summary["crossover_bound_"+largest]
		r.Summary["crossover_k_compact"] = r.Summary["crossover_k_compact_"+largest]
		r.Summary["crossover_bound_compact"] = r.Summary["crossover_bound_compact_"+largest]
		r.Summary["crossover_nbuffers"] = float64(largestNB)
	}
	r.Summary["descriptor_bytes"] = BufferDescPadToSize
	r.Summary["descriptor_bytes_compact"] = float64(DescSize)
	r.Summary["pg_threshold_k"] = PGDropThresholdK

	if speedup == nil {
		prog.Step("one one-block relation at " + DropSpeedupSize)
		s, err := dropSpeedupAlone(plan)
		if err != nil {
			return err
		}
		speedup = &s
	}
	target := mustNBuffers(DropSpeedupSize)
	ratio := speedup.Ratio.Median
	note := fmt.Sprintf("measured at %s", speedup.SharedBuffers)
	if speedup.NBuffers != target {
		// Scaled: the scan examines every descriptor, so its time is linear
		// in NBuffers; the lookup's does not depend on it.
		ratio *= float64(target) / float64(speedup.NBuffers)
		note = fmt.Sprintf("%s does not fit in this machine's memory: measured at %s, the scan's time scaled ×%.1f to %d buffers (it is linear in NBuffers), the lookup's kept",
			DropSpeedupSize, speedup.SharedBuffers, float64(target)/float64(speedup.NBuffers), target)
		r.Summary["speedup_1block_extrapolated"] = 1
	} else {
		r.Summary["speedup_1block_extrapolated"] = 0
	}
	r.Summary["speedup_1block_20GB"] = ratio
	r.Summary["speedup_1block_nbuffers"] = float64(speedup.NBuffers)
	for _, x := range []struct {
		st string
		s  harness.Summary
	}{{"scan", speedup.Scan}, {"lookup", speedup.Lookup}} {
		r.Rows = append(r.Rows, Row{Name: dropRowSpeedup + x.st, SharedBuffers: speedup.SharedBuffers, NBuffers: speedup.NBuffers,
			Unit: "ns/drop", Summary: x.s, PerOp: map[string]float64{"ratio": speedup.Ratio.Median, "ratio_p10": speedup.Ratio.P10,
				"ratio_p90": speedup.Ratio.P90, "target_nbuffers": float64(target)}, Note: note})
	}

	upNB := mustNBuffers(DropUpkeepSize)
	ups, err := MeasureUpkeep(o.Config, upNB, plan.UpkeepRounds, prog.Step)
	if err != nil {
		return err
	}
	for _, u := range ups {
		per := map[string]float64{"rounds": float64(u.Rounds), "list_links_per_read": u.LinksPerOp}
		r.Rows = append(r.Rows,
			Row{Name: dropRowUpkeep + u.Path + "/off", SharedBuffers: DropUpkeepSize, NBuffers: upNB, Unit: "ns/read", Summary: u.Off, PerOp: per},
			Row{Name: dropRowUpkeep + u.Path + "/on", SharedBuffers: DropUpkeepSize, NBuffers: upNB, Unit: "ns/read", Summary: u.On, PerOp: per},
			Row{Name: dropRowUpkeep + u.Path + "/overhead", SharedBuffers: DropUpkeepSize, NBuffers: upNB, Unit: "%", Summary: u.OverheadPct, PerOp: per,
				Note: "median over interleaved rounds of (with lists / without − 1)"})
		r.Summary["dlist_overhead_"+u.Path+"_pct"] = u.OverheadPct.Median
	}

	if doFailover {
		if !failFits {
			prog.Step("VACUUM + failover skipped")
			prog.Step("")
			r.Rows = append(r.Rows, Row{Name: dropRowSkipped, SharedBuffers: DropFailoverSize, NBuffers: failNB,
				Note: "VACUUM + failover (1000 relations): " + failWhy})
		} else if err := runFailover(plan, r, prog, failNB); err != nil {
			return err
		}
	}
	return nil
}

// sweepRows are the report's rows of a size's threshold finder: per point,
// the scan over PostgreSQL's layout (ratio: its time / the lookup's), the
// lookup, and the scan over the compact layout (ratio likewise), each scan
// with its descriptor_bytes.
func sweepRows(size string, nb int, pts []DropSweepPoint) []Row {
	var rows []Row
	for _, pt := range pts {
		for _, x := range []struct {
			name  string
			s, r  harness.Summary
			bytes int
		}{{"scan", pt.Scan, pt.Ratio, BufferDescPadToSize}, {"lookup", pt.Lookup, pt.Ratio, 0}, {"scan-compact", pt.Compact, pt.RatioCompact, DescSize}} {
			per := map[string]float64{"k": float64(pt.K), "blocks": float64(pt.Blocks), "ratio": x.r.Median,
				"ratio_p10": x.r.P10, "ratio_p90": x.r.P90, "rounds": float64(pt.Rounds)}
			if x.bytes > 0 {
				per["descriptor_bytes"] = float64(x.bytes)
				per["precheck_pass_ns"] = map[bool]float64{true: pt.Pass64.Median, false: pt.Pass36.Median}[x.bytes == BufferDescPadToSize]
			}
			rows = append(rows, Row{Name: dropRowSweep + x.name, SharedBuffers: size, NBuffers: nb, Unit: "ns/drop", Summary: x.s, PerOp: per})
		}
	}
	return rows
}

// dropSpeedupAlone measures the one-block speedup on a pool of its own at
// 20GB, or, if that does not fit, at the largest of 8GB, 4GB, 2GB, 1GB and
// 128MB that does (the caller scales the ratio to 20GB and says so).
func dropSpeedupAlone(plan DropPlan) (DropSpeedup, error) {
	size := ""
	for _, s := range []string{DropSpeedupSize, "8GB", "4GB", "2GB", "1GB", "128MB"} {
		if ok, _ := dropFits(mustNBuffers(s), dropSpeedupTbl); ok {
			size = s
			break
		}
	}
	if size == "" {
		size = "128MB"
	}
	dp, err := NewDropPool(mustNBuffers(size), dropSpeedupTbl, false)
	if err != nil {
		return DropSpeedup{}, err
	}
	defer runtime.GC()
	return dp.MeasureSpeedup(plan, size, 3*plan.Rounds)
}

// runFailover is seed 001's VACUUM + failover: 1000 one-block relations
// dropped one after another from a 100GB pool, by each strategy.
func runFailover(plan DropPlan, r *Report, prog *harness.Progress, nb int) error {
	prog.Step(DropFailoverSize + ": VACUUM + failover, scan and lookup")
	dp, err := NewDropPool(nb, DropFailoverTables, false)
	if err != nil {
		return err
	}
	for _, st := range dropStrategies[:2] {
		c, err := dp.MeasureCell(plan, DropFailoverTables, st)
		if err != nil {
			return err
		}
		r.Rows = append(r.Rows, cellRow(dropRowFailover, DropFailoverSize, nb, 0, c))
	}
	dp = nil
	runtime.GC()
	prog.Step(DropFailoverSize + ": VACUUM + failover, dlist")
	dl, err := NewDropPool(nb, DropFailoverTables, true)
	if err != nil {
		return err
	}
	c, err := dl.MeasureCell(plan, DropFailoverTables, bufmgr.DropDList)
	if err != nil {
		return err
	}
	r.Rows = append(r.Rows, cellRow(dropRowFailover, DropFailoverSize, nb, 0, c))
	dl = nil
	runtime.GC()
	return nil
}

func mustNBuffers(size string) int {
	nb, err := bufmgr.ParseSharedBuffers(size)
	if err != nil {
		panic(err)
	}
	return nb
}

// Reading a report back (the table, the chart).

// DropCellRow is a cell of a drop report.
type DropCellRow struct {
	SharedBuffers string
	NBuffers, K   int
	Strategy      string
	Tables        int
	Seconds       float64 // median (or extrapolated) time to drop them all
	P10, P90      float64
	Extrapolated  bool
	Sampled       int
	PerDropNs     float64
	DescsPerDrop  float64
}

// DropCells returns the cells of a drop report's 000 table (failover false)
// or of its VACUUM + failover case (true), in report order.
func DropCells(r *Report, failover bool) []DropCellRow {
	prefix := dropRowCell
	if failover {
		prefix = dropRowFailover
	}
	var out []DropCellRow
	for _, row := range r.Rows {
		st, ok := strings.CutPrefix(row.Name, prefix)
		if !ok {
			continue
		}
		out = append(out, DropCellRow{SharedBuffers: row.SharedBuffers, NBuffers: row.NBuffers, K: int(row.PerOp["k"]), Strategy: st,
			Tables: int(row.PerOp["tables"]), Seconds: row.Median, P10: row.P10, P90: row.P90,
			Extrapolated: row.PerOp["extrapolated"] != 0, Sampled: int(row.PerOp["sampled_drops"]),
			PerDropNs: row.PerOp["per_drop_ns"], DescsPerDrop: row.PerOp["descs_per_drop"]})
	}
	return out
}

// DropCellOf finds a cell.
func DropCellOf(cells []DropCellRow, size string, k int, strategy string) (DropCellRow, bool) {
	for _, c := range cells {
		if c.SharedBuffers == size && c.K == k && c.Strategy == strategy {
			return c, true
		}
	}
	return DropCellRow{}, false
}

// DropSweepRow is a point of the threshold finder read back from a report:
// the scan over PostgreSQL's 64-byte layout (ScanNs, Ratio = scan / lookup)
// and, when measured, over the compact layout (CompactNs, RatioCompact).
type DropSweepRow struct {
	SharedBuffers           string
	NBuffers                int
	K, Blocks               int
	ScanNs, LookupNs        float64
	Ratio                   float64
	CompactNs, RatioCompact float64
}

// DropSweepRows returns the threshold finder's points of a report, in
// report order (by size, then k descending).
func DropSweepRows(r *Report) []DropSweepRow {
	var out []DropSweepRow
	for _, row := range r.Rows {
		if row.Name != dropRowSweep+"scan" {
			continue
		}
		pt := DropSweepRow{SharedBuffers: row.SharedBuffers, NBuffers: row.NBuffers, K: int(row.PerOp["k"]),
			Blocks: int(row.PerOp["blocks"]), ScanNs: row.Median, Ratio: row.PerOp["ratio"]}
		for _, l := range r.Rows {
			if l.SharedBuffers != row.SharedBuffers || l.PerOp["k"] != row.PerOp["k"] {
				continue
			}
			switch l.Name {
			case dropRowSweep + "lookup":
				pt.LookupNs = l.Median
			case dropRowSweep + "scan-compact":
				pt.CompactNs, pt.RatioCompact = l.Median, l.PerOp["ratio"]
			}
		}
		out = append(out, pt)
	}
	return out
}

// DropTieRange returns the largest and smallest k of the finder's points
// at size whose ratio is within tol of 1 (the scan and the lookup within
// that fraction of each other), if any.
func DropTieRange(pts []DropSweepRow, size string, tol float64) (hiK, loK int, ok bool) {
	for _, pt := range pts {
		if pt.SharedBuffers != size || math.Abs(pt.Ratio-1) > tol {
			continue
		}
		if !ok || pt.K > hiK {
			hiK = pt.K
		}
		if !ok || pt.K < loK {
			loK = pt.K
		}
		ok = true
	}
	return hiK, loK, ok
}

// fmtSeconds prints a time in seconds with three significant digits and
// the unit that suits it.
func fmtSeconds(s float64) string {
	switch {
	case !(s > 0):
		return "-"
	case s >= 1:
		return num(s) + " s"
	case s >= 1e-3:
		return num(s*1e3) + " ms"
	case s >= 1e-6:
		return num(s*1e6) + " µs"
	default:
		return num(s*1e9) + " ns"
	}
}

// cellText is a cell's time, starred when extrapolated.
func cellText(c DropCellRow, ok bool) string {
	if !ok {
		return "-"
	}
	if c.Extrapolated {
		return fmtSeconds(c.Seconds) + "*"
	}
	return fmtSeconds(c.Seconds)
}

func dropTable(r *Report, w io.Writer) {
	cells := DropCells(r, false)
	var sizes []Row
	seen := map[string]bool{}
	for _, row := range r.Rows {
		if (strings.HasPrefix(row.Name, dropRowCell) || row.Name == dropRowSkipped && row.SharedBuffers != DropFailoverSize) && !seen[row.SharedBuffers] {
			seen[row.SharedBuffers] = true
			sizes = append(sizes, row)
		}
	}
	var ran, skipped []string
	for _, s := range sizes {
		if s.Name == dropRowSkipped {
			skipped = append(skipped, s.SharedBuffers)
		} else {
			ran = append(ran, s.SharedBuffers)
		}
	}
	fmt.Fprintf(w, "recovery after VACUUM (seed 000): a full pool in recovery holds one-block relations whose total is NBuffers/k blocks, and the rest of\n")
	fmt.Fprintf(w, "the pool another relation; each is truncated to nothing one after another (DropRelationBuffers, as the replay of VACUUM's truncation\n")
	fmt.Fprintf(w, "does): time to drop them all. lookup is PG 14+'s per-block lookup (each relation has 1 block, below NBuffers/32, so PostgreSQL\n")
	fmt.Fprintf(w, "picks it in recovery); dlist is the thread's per-relation list, on a pool built with it. Only the drops are timed: no WAL replay.\n")
	fmt.Fprintf(w, "scan streams PostgreSQL's descriptor layout: %d-byte BufferDescPadded, cache-line aligned, the unlocked pre-check reading tag.rnode.\n", BufferDescPadToSize)
	fmt.Fprintf(w, "sizes measured: %s", strings.Join(ran, ", "))
	if len(skipped) > 0 {
		fmt.Fprintf(w, "; skipped: %s", strings.Join(skipped, ", "))
	}
	fmt.Fprintln(w)
	for _, s := range sizes {
		if s.Name == dropRowSkipped {
			fmt.Fprintf(w, "  %s skipped: %s\n", s.SharedBuffers, s.Note)
		}
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "shared_buffers\trelation size\trelations\tscan (%d B)\tlookup\tdlist\tlookup vs scan\tdlist vs scan\tthread master / patched (quoted)\t\n", BufferDescPadToSize)
	extrap := 0
	for _, s := range sizes {
		if s.Name == dropRowSkipped {
			continue
		}
		for _, k := range DropKs {
			sc, ok1 := DropCellOf(cells, s.SharedBuffers, k, "scan")
			lk, ok2 := DropCellOf(cells, s.SharedBuffers, k, "lookup")
			dl, ok3 := DropCellOf(cells, s.SharedBuffers, k, "dlist")
			if !ok1 && !ok2 && !ok3 {
				continue
			}
			for _, c := range []DropCellRow{sc, lk, dl} {
				if c.Extrapolated {
					extrap++
				}
			}
			seed := ""
			if sd, ok := SeedDrop(s.SharedBuffers, k); ok {
				seed = fmt.Sprintf("%.3f s / %.3f s", sd.MasterS, sd.PatchedS)
			}
			rel := max(sc.Tables, lk.Tables, dl.Tables)
			fmt.Fprintf(tw, "%s\tNBuffers/%d\t%d\t%s\t%s\t%s\tlookup %s\tdlist %s\t%s\t\n", s.SharedBuffers, k, rel,
				cellText(sc, ok1), cellText(lk, ok2), cellText(dl, ok3), Faster(lk.Seconds, sc.Seconds), Faster(dl.Seconds, sc.Seconds), seed)
		}
	}
	tw.Flush()
	if extrap > 0 {
		fmt.Fprintf(w, "* extrapolated (%d cells): the pilot estimated more than the time budget, so only a sample of the drops was timed, one by one,\n", extrap)
		fmt.Fprintf(w, "  and the cell is the median drop × the number of relations; --full times every drop. (JSON: per_op.extrapolated = 1, sampled_drops.)\n")
	} else {
		fmt.Fprintf(w, "every cell timed in full (none extrapolated)\n")
	}
	fmt.Fprintf(w, "The thread's columns are quoted from seed 000 (whole recovery of PostgreSQL on its poster's machine, WAL replay and file removal\n")
	fmt.Fprintf(w, "included, hence the ~0.1 s floor), not measured here; its master is the scan, its patched the lookup with the threshold removed.\n")
	var other []string
	for _, sd := range SeedDropTable {
		if !slices.Contains(ran, sd.SharedBuffers) && !slices.Contains(other, sd.SharedBuffers) {
			other = append(other, sd.SharedBuffers)
		}
	}
	for _, size := range other {
		var parts []string
		for _, sd := range SeedDropTable {
			if sd.SharedBuffers == size {
				parts = append(parts, fmt.Sprintf("NBuffers/%d %.3f s / %.3f s", sd.K, sd.MasterS, sd.PatchedS))
			}
		}
		fmt.Fprintf(w, "  thread at %s (not measured in this run; master / patched): %s\n", size, strings.Join(parts, ", "))
	}

	// Physical references.
	var refs []string
	for _, s := range sizes {
		sc, ok := DropCellOf(cells, s.SharedBuffers, DropKs[0], "scan")
		st, ok2 := find(r, "stream", s.SharedBuffers)
		ch, ok3 := find(r, "chase", s.SharedBuffers)
		lk, ok4 := DropCellOf(cells, s.SharedBuffers, DropKs[0], "lookup")
		if !ok || !ok2 || !ok3 || !ok4 || s.NBuffers == 0 {
			continue
		}
		perDesc := sc.PerDropNs / float64(s.NBuffers)
		refs = append(refs, fmt.Sprintf("  %s: the scan examines a descriptor in %s ns (%s GB/s over %d-byte descriptors); streaming reads %s GB/s (%s ns per 64-byte descriptor);\n"+
			"  %s  a one-block lookup drop takes %s ns, %s dependent loads of %s ns",
			s.SharedBuffers, num(perDesc), num(float64(BufferDescPadToSize)/perDesc), BufferDescPadToSize, num(st.Median), num(DescBytes/st.Median),
			strings.Repeat(" ", len(s.SharedBuffers)), num(lk.PerDropNs), num(lk.PerDropNs/ch.Median), num(ch.Median)))
	}
	if len(refs) > 0 {
		fmt.Fprintln(w, "\nphysical references, same run:")
		for _, l := range refs {
			fmt.Fprintln(w, l)
		}
	}

	// The threshold finder.
	pts := DropSweepRows(r)
	if len(pts) > 0 {
		fmt.Fprintln(w, "\nthreshold finder: ONE relation of NBuffers/k blocks, all resident, truncated to nothing in one call (the threshold applies per call),")
		fmt.Fprintln(w, "by the scan and by the lookup in interleaved rounds; ratio = scan time / lookup time, median over the rounds (> 1: the lookup wins);")
		fmt.Fprintln(w, "the crossover is interpolated on the ratios made monotone (a larger relation cannot favour the lookup more: a noisy point is pooled")
		fmt.Fprintln(w, "with its neighbours)")
		fmt.Fprintf(w, "scan: over PostgreSQL's layout, %d-byte padded descriptors (BufferDescPadded) - the result: per round, the engine's scan with its\n", BufferDescPadToSize)
		fmt.Fprintf(w, "pre-check pass over %d-byte descriptors replaced by one over %d-byte ones (each timed alone, finding nothing); the locked half\n", DescSize, BufferDescPadToSize)
		fmt.Fprintf(w, "stays on the line the pre-check read, as in PostgreSQL. what-if: the engine's scan over its compact %d-byte descriptors as it is,\n", DescSize)
		fmt.Fprintf(w, "which streams %d/%d of the bytes - timed in the same rounds, not PostgreSQL's\n", DescSize, BufferDescPadToSize)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "shared_buffers\tk\tblocks\tscan (%d B)\tlookup\tscan/lookup\twinner\twhat-if: scan (%d B)\tscan/lookup\t\n", BufferDescPadToSize, DescSize)
		for _, pt := range pts {
			win := "lookup " + Faster(pt.LookupNs, pt.ScanNs)
			if pt.Ratio <= 1 {
				win = "scan " + Faster(pt.ScanNs, pt.LookupNs)
			}
			compact, rc := "-", "-"
			if pt.CompactNs > 0 {
				compact, rc = fmtSeconds(pt.CompactNs/1e9), fmt.Sprintf("%.2f", pt.RatioCompact)
			}
			fmt.Fprintf(tw, "%s\tNBuffers/%d\t%d\t%s\t%s\t%.2f\t%s\t%s\t%s\t\n", pt.SharedBuffers, pt.K, pt.Blocks,
				fmtSeconds(pt.ScanNs/1e9), fmtSeconds(pt.LookupNs/1e9), pt.Ratio, win, compact, rc)
		}
		tw.Flush()
		var done []string
		for _, pt := range pts {
			if slices.Contains(done, pt.SharedBuffers) {
				continue
			}
			done = append(done, pt.SharedBuffers)
			writeCrossover(w, fmt.Sprintf("crossover at %s (%d-byte descriptors, PostgreSQL's layout)", pt.SharedBuffers, BufferDescPadToSize), pt.NBuffers,
				r.Summary["crossover_k_"+pt.SharedBuffers], int(r.Summary["crossover_bound_"+pt.SharedBuffers]))
			if hi, lo, ok := DropTieRange(pts, pt.SharedBuffers, 0.05); ok {
				fmt.Fprintf(w, "  (a soft crossover: the two are within 5%% of each other from NBuffers/%d to NBuffers/%d)\n", hi, lo)
			}
			if k, ok := r.Summary["crossover_k_compact_"+pt.SharedBuffers]; ok {
				writeCrossover(w, fmt.Sprintf("  what-if at %s (the engine's compact %d-byte descriptors)", pt.SharedBuffers, DescSize), pt.NBuffers,
					k, int(r.Summary["crossover_bound_compact_"+pt.SharedBuffers]))
			}
		}
		if n := r.Summary["crossover_nbuffers"]; n > 0 {
			fmt.Fprintf(w, "crossover_k (descriptor_bytes %d) and the what-if crossover_k_compact (descriptor_bytes_compact %d) are the ones at the\n", BufferDescPadToSize, DescSize)
			fmt.Fprintf(w, "largest size measured (%d buffers)\n", int(n))
		}
	}

	// The one-block speedup.
	if sc, ok := find(r, dropRowSpeedup+"scan", speedupSize(r)); ok {
		lk, _ := find(r, dropRowSpeedup+"lookup", sc.SharedBuffers)
		fmt.Fprintf(w, "\none one-block relation at %s: scan %s, lookup %s per drop (median of %d rounds; in each, one scan drop, then a run of %d lookup\n",
			sc.SharedBuffers, fmtSeconds(sc.Median/1e9), fmtSeconds(lk.Median/1e9), sc.Samples, dropLookupRun)
		fmt.Fprintf(w, "  drops of other relations, which the scan has left cold in the caches, as in a replay; the table's lookup cells run just after\n")
		fmt.Fprintf(w, "  their relations were read back, warmer):\n")
		fmt.Fprintf(w, "  the lookup is %s (scan/lookup %.0f, p10–p90 %.0f–%.0f)", Faster(1, sc.PerOp["ratio"]), sc.PerOp["ratio"], sc.PerOp["ratio_p10"], sc.PerOp["ratio_p90"])
		if r.Summary["speedup_1block_extrapolated"] != 0 {
			fmt.Fprintf(w, "\n  speedup_1block_20GB = %.0f is NOT measured at 20GB: %s\n", r.Summary["speedup_1block_20GB"], sc.Note)
		} else {
			fmt.Fprintln(w, "; measured at 20GB")
		}
	}

	// The dlist upkeep.
	if hit, ok := find(r, dropRowUpkeep+"hit/overhead", DropUpkeepSize); ok {
		miss, _ := find(r, dropRowUpkeep+"miss/overhead", DropUpkeepSize)
		fmt.Fprintf(w, "\nwhat the dlist's upkeep costs reads (seed 001's question): ReadBuffer + ReleaseBuffer at %s, without and with the lists,\n", DropUpkeepSize)
		fmt.Fprintf(w, "in %d interleaved rounds (A/B, B/A, …); overhead = median over the rounds of (with / without − 1)\n", hit.Samples)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "path\twithout lists ns\twith lists ns\toverhead\t(p10 – p90)\tlist links per read\t")
		for _, x := range []struct {
			path string
			o    Row
		}{{"hit", hit}, {"miss", miss}} {
			off, _ := find(r, dropRowUpkeep+x.path+"/off", DropUpkeepSize)
			on, _ := find(r, dropRowUpkeep+x.path+"/on", DropUpkeepSize)
			fmt.Fprintf(tw, "%s\t%s\t%s\t%+.1f%%\t%+.1f%% – %+.1f%%\t%.2f\t\n", x.path, num(off.Median), num(on.Median), x.o.Median, x.o.P10, x.o.P90, x.o.PerOp["list_links_per_read"])
		}
		tw.Flush()
		fmt.Fprintln(w, "a hit does not touch the lists; a miss evicts a buffer of another relation and moves it between two lists under both list locks.")
		fmt.Fprintln(w, "reported in the thread (seed 001, not measured here): pgbench -S -M prepared, tps, \"% reg\" = (master − patch) / master:")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "clients\tshared_buffers\tmaster tps\tpatch tps\t% reg\t")
		for _, s := range SeedDListTPS {
			fmt.Fprintf(tw, "%d\t%s\t%.2f\t%.2f\t%.2f%%\t\n", s.Clients, s.SharedBuffers, s.Master, s.Patch, s.RegPct)
		}
		tw.Flush()
	}

	// VACUUM + failover.
	fo := DropCells(r, true)
	for _, row := range r.Rows {
		if row.Name == dropRowSkipped && row.SharedBuffers == DropFailoverSize {
			fmt.Fprintf(w, "\nVACUUM + failover (seed 001) skipped: %s\n", row.Note)
		}
	}
	if len(fo) > 0 {
		get := func(st string) DropCellRow {
			for _, c := range fo {
				if c.Strategy == st {
					return c
				}
			}
			return DropCellRow{}
		}
		sc, lk, dl := get("scan"), get("lookup"), get("dlist")
		fmt.Fprintf(w, "\nVACUUM + failover (seed 001): %d one-block relations dropped one after another from a %s pool:\n", sc.Tables, DropFailoverSize)
		fmt.Fprintf(w, "  scan %s, lookup %s, dlist %s; lookup %s, dlist %s than the scan\n", cellText(sc, true), cellText(lk, true), cellText(dl, true),
			Faster(lk.Seconds, sc.Seconds), Faster(dl.Seconds, sc.Seconds))
		fmt.Fprintln(w, "  on the primary (VACUUM itself) sizes are not cached, so PG 14+ still scans; only the replay (failover) takes the lookup.")
		fmt.Fprintf(w, "  reported in the thread (seed 001, not measured: PostgreSQL, %d tables of %d MB in all, %s):\n", SeedFailoverTables, SeedFailoverTablesMB, SeedFailoverSharedBuffers)
		fmt.Fprintf(w, "  VACUUM %.3f s on master, %.3f s with the dlist patch (%s); failover %s on master, %.3f s with the patch\n",
			SeedFailoverVacuumMasterS, SeedFailoverVacuumPatchS, Faster(SeedFailoverVacuumPatchS, SeedFailoverVacuumMasterS),
			seedFailoverReplayMasterAs, SeedFailoverReplayPatchS)
		if sc.Extrapolated || lk.Extrapolated || dl.Extrapolated {
			fmt.Fprintln(w, "  * extrapolated from a sample of the drops, as above")
		}
	} else if !hasRow(r, dropRowSkipped, DropFailoverSize) {
		fmt.Fprintf(w, "\nVACUUM + failover (seed 001, %d relations at %s): not run with --quick\n", DropFailoverTables, DropFailoverSize)
	}
}

func hasRow(r *Report, name, size string) bool {
	_, ok := find(r, name, size)
	return ok
}

// writeCrossover says where the lookup stops winning (bound as
// DropCrossover's), beside PostgreSQL's threshold.
func writeCrossover(w io.Writer, what string, nbuffers int, k float64, bound int) {
	switch bound {
	case 1:
		fmt.Fprintf(w, "%s: the lookup lost at every size measured: above NBuffers/%.0f (PostgreSQL: NBuffers/%d)\n", what, k/2, PGDropThresholdK)
	case -1:
		fmt.Fprintf(w, "%s: the lookup won at every size measured, down to NBuffers/%.0f (PostgreSQL: NBuffers/%d)\n", what, k, PGDropThresholdK)
	default:
		fmt.Fprintf(w, "%s: the lookup stops winning at about NBuffers/%.0f = %.0f blocks on this machine; PostgreSQL's threshold is NBuffers/%d = %d blocks\n",
			what, k, float64(nbuffers)/k, PGDropThresholdK, nbuffers/PGDropThresholdK)
	}
}

// speedupSize is the size the one-block speedup was measured at.
func speedupSize(r *Report) string {
	for _, row := range r.Rows {
		if row.Name == dropRowSpeedup+"scan" {
			return row.SharedBuffers
		}
	}
	return ""
}
