// Package exp is what the fast-mode experiments run by `bufferlab bench`
// share: Options, Report and Row (the JSON report), the Experiment
// registry (each experiment's package calls Register in its init; import
// fastmode/exp/all to link them all), and the report helpers. The
// experiments live in their own packages, fastmode/exp/<name>:
//
//   - limits: the machine's physical references at the size of the
//     descriptor array for a given shared_buffers (64 bytes per buffer, as
//     PostgreSQL's padded BufferDesc): streaming read bandwidth, dependent
//     load (pointer chase over a random cyclic permutation) latency, and the
//     cost of an uncontended and a two-goroutine-contended CAS;
//   - pool: the simulated pool's read hit (+release) and miss (clock
//     sweep) per operation at each size, beside the limits measured in the
//     same run, and the cost per event of step mode (a traced scenario run
//     through the scheduler) against the native operation;
//   - pin: a native pgbench -S-like loop on real goroutines (partitioned
//     RWMutex mapping, 64-byte descriptors, pin/touch/unpin) comparing the
//     9.6+ atomic state word with the pre-9.6 header spinlock, throughput
//     by worker count (--workers), beside the seed 003 thread's figures;
//   - drop: dropping relations' buffers (seeds 000, 001): the 000 table of
//     full scan, per-block lookup and dlist by shared_buffers and relation
//     size (long cells sampled and marked extrapolated unless --full), the
//     crossover where the lookup stops winning (NBuffers/k beside
//     PostgreSQL's 32; the full scan streams PostgreSQL's 64-byte padded
//     descriptors, the engine's compact 36-byte ones being a what-if),
//     one one-block relation at 20GB, and the dlist's
//     upkeep on the read hit and miss paths; MeasureDropCosts gives the
//     drop race its native pacing;
//   - slru: the commit log's SLRU lookups (seed 004): linear search of a
//     bank against a hash table by bank size, the crossover, a mixed
//     workload;
//   - fsm: the free space map and the reverted small-table skip (seed
//     002): pages read and time per table, and the FSM search against a
//     linear scan of the leaf level;
//   - classroom: the classroom server on loopback with N simulated
//     students (--students): goto fan-out latency, lost updates, answers
//     counted, heap. It opens sockets, so fastmode/exp/all (which the app
//     and the browser build link) leaves it out: cmd/bufferlab imports it.
//
// Each experiment returns a Report (JSON-ready) and has a testing.B twin in
// its package's tests for go test -bench and benchstat (exptest holds
// what the twins share). Its chart registers with fastmode/chart under
// the experiment's name.
package exp
