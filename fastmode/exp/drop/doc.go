// Package drop is bench drop: dropping a relation's buffers (seeds 000
// and 001, issue 6).
//
// Four measurements, all on the engine's fast path (nil trace log, no
// scheduler, one backend playing the startup process), timed with the
// hardware clock:
//
//  1. The 000 table, "recovery after VACUUM": a full pool in recovery holds
//     NBuffers/16 one-block relations and a filler relation in every other
//     buffer; the first NBuffers/k of the one-block relations
//     (k = 512 … 16) are truncated to nothing one after another, as the replay of
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
//     layout.go; DropSweepPoint says how), which gives crossover_k;
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
//
// Files, by what the code does: experiment.go (registration, the sizes
// and ks), seeds.go (the seed threads' tables, quoted), plan.go (the
// memory plan: what fits this machine), measure.go (pools, cells, the
// sweep's points, the one-block speedup), crossover.go (the crossover
// fit), upkeep.go (the dlist's upkeep on reads), layout.go (PostgreSQL's
// 64-byte descriptor layout for the scan), cost.go (native costs for the
// drop race), run.go (the experiment's run into a report), report.go
// (reading a report's rows back, for the table and the chart), table.go
// (the text table).
package drop
