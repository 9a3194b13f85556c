// Package pin is bench pin: a native pgbench -S-like loop on real
// goroutines (partitioned RWMutex mapping, 64-byte descriptors,
// pin/touch/unpin) comparing the 9.6+ atomic state word with the pre-9.6
// header spinlock, throughput by worker count (--workers), beside the seed
// 003 thread's figures.
package pin
