package poolmech

import (
	"bufferlab/viz/mech"
	"bufferlab/viz/poolview"
)

func init() {
	mech.Add(mech.Def[*poolview.Pool]{
		Name:        "pool",
		Title:       func(*poolview.Pool) string { return "Shared buffer pool (BufferDescriptors)" },
		Experiments: []string{"pool"},
		Checks:      []string{"nbuffers", "usage-cap-catalog", "usage-after-scans", "no-ring-at-quarter", "bulkread-ring", "bulkread-rescan", "sync-scan"},
	})
	mech.Add(mech.Def[*poolview.Pool]{Name: "pins", Experiments: []string{"pin"}, Checks: []string{"pinning-backends"}})
	mech.Add(mech.Def[*poolview.Pool]{Name: "drop", Experiments: []string{"drop"}, Checks: []string{"drop-table-buffers"}})
	// The PostgreSQL version's read path (config pg=): the pool's view
	// shows it; verify checks picked by the server's version are still to
	// come (issue 21).
	mech.Add(mech.Def[*poolview.Pool]{Name: "pg", Experiments: []string{"scan"}})
}
