package drop

import (
	"fmt"
	"runtime"

	"bufferlab/engine/bufmgr"
	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/exp/limits"
	"bufferlab/fastmode/harness"
)

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

func cellRow(prefix, size string, nb, k int, c DropCell) exp.Row {
	row := exp.Row{Name: prefix + c.Strategy.String(), SharedBuffers: size, NBuffers: nb, Unit: "s", Summary: c.Seconds,
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

func runDrop(o exp.Options, r *exp.Report) error {
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
			r.Rows = append(r.Rows, exp.Row{Name: dropRowSkipped, SharedBuffers: si.size, NBuffers: si.nb, Note: si.why})
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
		r.Rows = append(r.Rows, limits.StreamRow(o.Config, si.size, si.nb))
		prog.Step(si.size + ": dependent loads")
		r.Rows = append(r.Rows, limits.ChaseRow(o.Config, si.size, si.nb))
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
		r.Rows = append(r.Rows, exp.Row{Name: dropRowSpeedup + x.st, SharedBuffers: speedup.SharedBuffers, NBuffers: speedup.NBuffers,
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
			exp.Row{Name: dropRowUpkeep + u.Path + "/off", SharedBuffers: DropUpkeepSize, NBuffers: upNB, Unit: "ns/read", Summary: u.Off, PerOp: per},
			exp.Row{Name: dropRowUpkeep + u.Path + "/on", SharedBuffers: DropUpkeepSize, NBuffers: upNB, Unit: "ns/read", Summary: u.On, PerOp: per},
			exp.Row{Name: dropRowUpkeep + u.Path + "/overhead", SharedBuffers: DropUpkeepSize, NBuffers: upNB, Unit: "%", Summary: u.OverheadPct, PerOp: per,
				Note: "median over interleaved rounds of (with lists / without − 1)"})
		r.Summary["dlist_overhead_"+u.Path+"_pct"] = u.OverheadPct.Median
	}

	if doFailover {
		if !failFits {
			prog.Step("VACUUM + failover skipped")
			prog.Step("")
			r.Rows = append(r.Rows, exp.Row{Name: dropRowSkipped, SharedBuffers: DropFailoverSize, NBuffers: failNB,
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
func sweepRows(size string, nb int, pts []DropSweepPoint) []exp.Row {
	var rows []exp.Row
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
			rows = append(rows, exp.Row{Name: dropRowSweep + x.name, SharedBuffers: size, NBuffers: nb, Unit: "ns/drop", Summary: x.s, PerOp: per})
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
func runFailover(plan DropPlan, r *exp.Report, prog *harness.Progress, nb int) error {
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
