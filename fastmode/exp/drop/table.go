package drop

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"bufferlab/fastmode/exp"
)

// fmtSeconds prints a time in seconds with three significant digits and
// the unit that suits it.
func fmtSeconds(s float64) string {
	switch {
	case !(s > 0):
		return "-"
	case s >= 1:
		return exp.Num(s) + " s"
	case s >= 1e-3:
		return exp.Num(s*1e3) + " ms"
	case s >= 1e-6:
		return exp.Num(s*1e6) + " µs"
	default:
		return exp.Num(s*1e9) + " ns"
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

func dropTable(r *exp.Report, w io.Writer) {
	cells := DropCells(r, false)
	var sizes []exp.Row
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
	tw := exp.NewTable(w)
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
				cellText(sc, ok1), cellText(lk, ok2), cellText(dl, ok3), exp.Faster(lk.Seconds, sc.Seconds), exp.Faster(dl.Seconds, sc.Seconds), seed)
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
		st, ok2 := exp.Find(r, "stream", s.SharedBuffers)
		ch, ok3 := exp.Find(r, "chase", s.SharedBuffers)
		lk, ok4 := DropCellOf(cells, s.SharedBuffers, DropKs[0], "lookup")
		if !ok || !ok2 || !ok3 || !ok4 || s.NBuffers == 0 {
			continue
		}
		perDesc := sc.PerDropNs / float64(s.NBuffers)
		refs = append(refs, fmt.Sprintf("  %s: the scan examines a descriptor in %s ns (%s GB/s over %d-byte descriptors); streaming reads %s GB/s (%s ns per 64-byte descriptor);\n"+
			"  %s  a one-block lookup drop takes %s ns, %s dependent loads of %s ns",
			s.SharedBuffers, exp.Num(perDesc), exp.Num(float64(BufferDescPadToSize)/perDesc), BufferDescPadToSize, exp.Num(st.Median), exp.Num(exp.DescBytes/st.Median),
			strings.Repeat(" ", len(s.SharedBuffers)), exp.Num(lk.PerDropNs), exp.Num(lk.PerDropNs/ch.Median), exp.Num(ch.Median)))
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
		tw = exp.NewTable(w)
		fmt.Fprintf(tw, "shared_buffers\tk\tblocks\tscan (%d B)\tlookup\tscan/lookup\twinner\twhat-if: scan (%d B)\tscan/lookup\t\n", BufferDescPadToSize, DescSize)
		for _, pt := range pts {
			win := "lookup " + exp.Faster(pt.LookupNs, pt.ScanNs)
			if pt.Ratio <= 1 {
				win = "scan " + exp.Faster(pt.ScanNs, pt.LookupNs)
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
	if sc, ok := exp.Find(r, dropRowSpeedup+"scan", speedupSize(r)); ok {
		lk := r.Row(dropRowSpeedup+"lookup", sc.SharedBuffers)
		fmt.Fprintf(w, "\none one-block relation at %s: scan %s, lookup %s per drop (median of %d rounds; in each, one scan drop, then a run of %d lookup\n",
			sc.SharedBuffers, fmtSeconds(sc.Median/1e9), fmtSeconds(lk.Median/1e9), sc.Samples, dropLookupRun)
		fmt.Fprintf(w, "  drops of other relations, which the scan has left cold in the caches, as in a replay; the table's lookup cells run just after\n")
		fmt.Fprintf(w, "  their relations were read back, warmer):\n")
		fmt.Fprintf(w, "  the lookup is %s (scan/lookup %.0f, p10–p90 %.0f–%.0f)", exp.Faster(1, sc.PerOp["ratio"]), sc.PerOp["ratio"], sc.PerOp["ratio_p10"], sc.PerOp["ratio_p90"])
		if r.Summary["speedup_1block_extrapolated"] != 0 {
			fmt.Fprintf(w, "\n  speedup_1block_20GB = %.0f is NOT measured at 20GB: %s\n", r.Summary["speedup_1block_20GB"], sc.Note)
		} else {
			fmt.Fprintln(w, "; measured at 20GB")
		}
	}

	// The dlist upkeep.
	if hit, ok := exp.Find(r, dropRowUpkeep+"hit/overhead", DropUpkeepSize); ok {
		miss := r.Row(dropRowUpkeep+"miss/overhead", DropUpkeepSize)
		fmt.Fprintf(w, "\nwhat the dlist's upkeep costs reads (seed 001's question): ReadBuffer + ReleaseBuffer at %s, without and with the lists,\n", DropUpkeepSize)
		fmt.Fprintf(w, "in %d interleaved rounds (A/B, B/A, …); overhead = median over the rounds of (with / without − 1)\n", hit.Samples)
		tw = exp.NewTable(w)
		fmt.Fprintln(tw, "path\twithout lists ns\twith lists ns\toverhead\t(p10 – p90)\tlist links per read\t")
		for _, x := range []struct {
			path string
			o    exp.Row
		}{{"hit", hit}, {"miss", miss}} {
			off := r.Row(dropRowUpkeep+x.path+"/off", DropUpkeepSize)
			on := r.Row(dropRowUpkeep+x.path+"/on", DropUpkeepSize)
			fmt.Fprintf(tw, "%s\t%s\t%s\t%+.1f%%\t%+.1f%% – %+.1f%%\t%.2f\t\n", x.path, exp.Num(off.Median), exp.Num(on.Median), x.o.Median, x.o.P10, x.o.P90, x.o.PerOp["list_links_per_read"])
		}
		tw.Flush()
		fmt.Fprintln(w, "a hit does not touch the lists; a miss evicts a buffer of another relation and moves it between two lists under both list locks.")
		fmt.Fprintln(w, "reported in the thread (seed 001, not measured here): pgbench -S -M prepared, tps, \"% reg\" = (master − patch) / master:")
		tw = exp.NewTable(w)
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
			exp.Faster(lk.Seconds, sc.Seconds), exp.Faster(dl.Seconds, sc.Seconds))
		fmt.Fprintln(w, "  on the primary (VACUUM itself) sizes are not cached, so PG 14+ still scans; only the replay (failover) takes the lookup.")
		fmt.Fprintf(w, "  reported in the thread (seed 001, not measured: PostgreSQL, %d tables of %d MB in all, %s):\n", SeedFailoverTables, SeedFailoverTablesMB, SeedFailoverSharedBuffers)
		fmt.Fprintf(w, "  VACUUM %.3f s on master, %.3f s with the dlist patch (%s); failover %s on master, %.3f s with the patch\n",
			SeedFailoverVacuumMasterS, SeedFailoverVacuumPatchS, exp.Faster(SeedFailoverVacuumPatchS, SeedFailoverVacuumMasterS),
			seedFailoverReplayMasterAs, SeedFailoverReplayPatchS)
		if sc.Extrapolated || lk.Extrapolated || dl.Extrapolated {
			fmt.Fprintln(w, "  * extrapolated from a sample of the drops, as above")
		}
	} else if !hasRow(r, dropRowSkipped, DropFailoverSize) {
		fmt.Fprintf(w, "\nVACUUM + failover (seed 001, %d relations at %s): not run with --quick\n", DropFailoverTables, DropFailoverSize)
	}
}

func hasRow(r *exp.Report, name, size string) bool {
	_, ok := exp.Find(r, name, size)
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
func speedupSize(r *exp.Report) string {
	for _, row := range r.Rows {
		if row.Name == dropRowSpeedup+"scan" {
			return row.SharedBuffers
		}
	}
	return ""
}
