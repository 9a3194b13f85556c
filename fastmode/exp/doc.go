// Package exp holds the fast-mode experiments run by `bufferlab bench`:
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
//     by worker count (--workers), beside the seed 003 thread's figures.
//
// Each experiment returns a Report (JSON-ready) and has a testing.B twin in
// the package's tests for go test -bench and benchstat.
package exp
