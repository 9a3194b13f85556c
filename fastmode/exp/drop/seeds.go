package drop

import ()

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
