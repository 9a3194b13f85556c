// Package readstream models PostgreSQL 17's read stream
// (src/backend/storage/aio/read_stream.c, REL_17_9): the look-ahead that
// turns a sequence of block numbers into StartReadBuffers calls of up to
// io_combine_limit consecutive blocks, and into smgrreadv calls in
// WaitReadBuffers, where PostgreSQL 15 made one ReadBuffer (one 8kB read)
// per block. It is pure and deterministic: no I/O, no time, no goroutines.
//
// What it models, and from where (function names are PostgreSQL's, 17.9):
//
//   - read_stream_begin_relation (Begin): max_ios from
//     effective_io_concurrency (maintenance_io_concurrency with
//     READ_STREAM_MAINTENANCE), max_pinned_buffers = Max(4·max_ios,
//     io_combine_limit) clamped by the strategy
//     (GetAccessStrategyPinLimit, freelist.c) and by the backend's share
//     of the pool (LimitAdditionalPins, bufmgr.c), the queue of
//     max_pinned_buffers+1 slots plus io_combine_limit−1 of overflow,
//     whether advice is enabled, and the starting distance (1, or
//     io_combine_limit with READ_STREAM_FULL);
//   - read_stream_look_ahead, read_stream_start_pending_read,
//     read_stream_get_block / read_stream_unget_block (ReadStream's
//     lookAhead, startPendingRead, getBlock, ungetBlock): the pending read
//     that grows by merging consecutive blocks, the distance and max_ios
//     limits, reads started when full, when they fill the distance with
//     nothing pinned, or at the end of the stream;
//   - read_stream_next_buffer (NextBuffer) with its fast path for
//     all-cached scans and the distance rules after each wait: A (no I/O:
//     −1), B (no advice: ×2 up to io_combine_limit), C (advice: ×2 up to
//     max_pinned_buffers); read_stream_reset and read_stream_end;
//   - StartReadBuffers / StartReadBuffersImpl / StartReadBuffer and
//     WaitReadBuffers (bufmgr.c): a range cut short at the first block
//     already valid, smgrprefetch when advice is asked, and the smgrreadv
//     calls over blocks StartBufferIO lets this backend read;
//   - the callbacks of a serial heap scan (heap_scan_stream_read_next_serial,
//     heapam.c) and the configuration heap_beginscan gives its stream
//     (READ_STREAM_SEQUENTIAL, a BULKREAD ring only above NBuffers/4
//     blocks): HeapScanSerial, HeapSequentialScanConfig; and a consumer
//     that releases each buffer before asking for the next, as
//     heap_fetch_next_buffer does (Consume).
//
// The buffer pool is the Pool interface (PinBufferForBlock, Prefetch,
// StartBufferIO, ReadV, ReleaseBuffer, BufferGetBlockNumber). MemPool
// implements it for one backend without eviction; engine/bufmgr's pool can
// implement it with its real read path (BufferAlloc, StartBufferIO,
// TerminateBufferIO) to run a stream under the scheduler.
//
// Invariants (panics with a precise message if broken, as the C code's
// assertions would fail): a pending read is 1..io_combine_limit blocks and
// is started only when pinned_buffers + its length ≤ max_pinned_buffers;
// at most max_ios reads are in progress; the queue is empty exactly when
// nothing is pinned; at most one block is ungotten; every smgrreadv reads
// consecutive blocks whose I/O this backend started. The property test
// (TestProperties) checks what these give a user: every block the callback
// returns is delivered once, in order; every uncached block is read once;
// no read exceeds io_combine_limit.
//
// Not modelled: per-buffer data, temporary relations
// (LimitAdditionalLocalPins), tablespace overrides of the I/O
// concurrency, parallel scans, a 1GB segment boundary inside one
// smgrreadv (mdreadv splits it in two preadv calls), I/O errors, and
// PostgreSQL 18's asynchronous I/O (the stream there is another model).
// The record (Log) is this package's own; wiring it to engine/trace events
// and sites is the next step.
//
// Usage:
//
//	pool := readstream.NewMemPool()                  // nothing cached
//	cfg := readstream.HeapSequentialScanConfig(160, readstream.DefaultNBuffers)
//	log := &readstream.Log{}
//	s, _ := readstream.Begin(cfg, pool, readstream.HeapScanSerial(160, 0), log)
//	blocks := readstream.Consume(s, -1)              // 0..159 in order
//	s.End()
//	fmt.Print(log.Summary())                         // reads [1] [2] [4] [8] [16]×9 [1]
package readstream
