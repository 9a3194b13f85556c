// Package limits is bench limits: the machine's physical references at the
// size of the descriptor array for a given shared_buffers (64 bytes per
// buffer, as PostgreSQL's padded BufferDesc): streaming read bandwidth,
// dependent-load (pointer chase over a random cyclic permutation) latency,
// and the cost of an uncontended and a two-goroutine-contended CAS. The
// pool and drop experiments print the same references beside their rows
// (StreamRow, ChaseRow; ReferenceRows for both at one size); slru uses the
// chase as its random access pattern.
package limits
