// Package readstream models PostgreSQL's read stream
// (src/backend/storage/aio/read_stream.c) as 17 (REL_17_9) and 18
// (REL_18_4) have it: the look-ahead that turns a sequence of block
// numbers into StartReadBuffers calls of up to io_combine_limit
// consecutive blocks, where PostgreSQL 15 made one ReadBuffer (one 8kB
// read) per block. It is pure and deterministic: no I/O, no time, no
// goroutines.
//
// One read_stream.c, one model: PostgreSQL 18 changed the file where the
// buffer manager under it became asynchronous, and ReadStream follows
// either release (Version), each difference gated and cited where it is:
// the sizing (max_pinned_buffers, GetPinLimit), the advice (17:
// suppress_advice; 18: io_method=sync only, seq_until_processed), the pin
// limit asked before each read, forwarded buffers, batch mode, and the
// distance after a wait (17: behaviors B and C; 18: always doubling). The
// stream reads through a buffer manager (BufferManager, Operation): 17's
// is this package's StartReadBuffers / WaitReadBuffers over a Pool
// (Begin); 18's is engine/aio's, which starts the I/O on AIO handles and
// has workers or the kernel complete it (Begin18).
//
// What it models, and from where (function names are PostgreSQL's, 17.9;
// 18.4 where it says so):
//
//   - read_stream_begin_relation (Begin; 18: read_stream_begin_impl,
//     Begin18): max_ios from
//     effective_io_concurrency (maintenance_io_concurrency with
//     READ_STREAM_MAINTENANCE), max_pinned_buffers = Max(4·max_ios,
//     io_combine_limit) clamped by the strategy
//     (GetAccessStrategyPinLimit, freelist.c) and by the backend's share
//     of the pool (LimitAdditionalPins, bufmgr.c), the queue of
//     max_pinned_buffers+1 slots plus io_combine_limit−1 of overflow,
//     whether advice is enabled, and the starting distance (1, or
//     io_combine_limit with READ_STREAM_FULL); at 18 max_pinned_buffers =
//     (max_ios + 1)·io_combine_limit clamped by GetPinLimit, sync_mode and
//     batch_mode, and READ_BUFFERS_SYNCHRONOUSLY when max_ios is 0;
//   - read_stream_look_ahead, read_stream_start_pending_read,
//     read_stream_get_block / read_stream_unget_block (ReadStream's
//     lookAhead, startPendingRead, getBlock, ungetBlock): the pending read
//     that grows by merging consecutive blocks, the distance and max_ios
//     limits, reads started when full, when they fill the distance with
//     nothing pinned, or at the end of the stream; at 18 the pin limit
//     (GetAdditionalPinLimit) before each read, forwarded buffers after a
//     split, the look-ahead inside pgaio_enter_batchmode /
//     pgaio_exit_batchmode;
//   - read_stream_next_buffer (NextBuffer) with its fast path for
//     all-cached scans and the distance rules after each wait: A (no I/O:
//     −1), B (no advice: ×2 up to io_combine_limit), C (advice: ×2 up to
//     max_pinned_buffers; 18: ×2 up to max_pinned_buffers after any
//     wait); read_stream_reset and read_stream_end;
//   - 17's StartReadBuffers / StartReadBuffersImpl / StartReadBuffer and
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
// smgrreadv (mdreadv splits it in two preadv calls), I/O errors. 18's
// buffer manager and AIO subsystem are engine/aio's. The record (Log) is
// 17's; at 18 the stream's steps go to engine/aio's record, in its words.
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
