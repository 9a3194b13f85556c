package drop

import (
	"math"
	"strings"

	"bufferlab/fastmode/exp"
)

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
func DropCells(r *exp.Report, failover bool) []DropCellRow {
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
func DropSweepRows(r *exp.Report) []DropSweepRow {
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
