package drop

import (
	"fmt"
	"math"
	"slices"

	"bufferlab/engine/bufmgr"
	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/harness"
)

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
	// in step (layout.go): the full scan runs over it. Nil in a pool
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
	buf, hit, err := exp.ReadRelease(dp.Backend, rel, blk)
	if err != nil && buf == bufmgr.InvalidBuffer {
		return false, err
	}
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
