package drop

import (
	"bufferlab/engine/bufmgr"
	"bufferlab/fastmode/exp"
)

func init() { exp.Register(dropExperiment) }

var dropExperiment = &exp.Experiment{
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
	Measure:    runDrop,
	Table:      dropTable,
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
