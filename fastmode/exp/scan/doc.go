// Package scan is the `bufferlab bench scan` experiment: a cold sequential
// scan read one block a call (PostgreSQL 15's ReadBuffer) against
// PostgreSQL 17's read stream, which combines up to io_combine_limit
// consecutive blocks into one smgrreadv, on the engine's fast path, with
// the simulated I/O time of the latency model at several latencies, and
// PostgreSQL 18's asynchronous reads (I/O workers, io_uring,
// io_method=sync) under the same latency model, where reads in flight
// together overlap.
package scan
