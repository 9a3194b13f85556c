// Package aio models PostgreSQL 18.4's asynchronous read path:
// StartReadBuffers / AsyncReadBuffers / WaitReadBuffers
// (src/backend/storage/buffer/bufmgr.c), and the AIO subsystem as far as
// a read needs it (aio.c, aio_io.c, method_worker.c, method_io_uring.c,
// method_sync.c), under the read stream as 18 changed it
// (src/backend/storage/aio/read_stream.c). It is pure and deterministic:
// no goroutines, no time, no I/O. Every piece cites the function it
// models (PostgreSQL's names).
//
// The read stream itself is engine/readstream's, at readstream.V18: there
// is one read_stream.c, and 18's changes to it (forwarded buffers, a pin
// limit asked before each read, one distance rule, advice only under
// io_method=sync, batch mode) are gated there. What makes this a package
// of its own is what lies under the stream: in 18 StartReadBuffers starts
// the I/O (AsyncReadBuffers), an AIO handle owns the buffers' I/O until
// some other process completes it, and whether the backend must sleep
// depends on I/O workers or the kernel that a scheduler steps. A Backend
// is the stream's buffer manager (readstream.AIOBufferManager): its
// ReadBuffersOperations, GetPinLimit, GetAdditionalPinLimit and batch
// mode; the stream's steps are written into this package's Log.
//
// What it models, and from where (PG 18.4):
//
//   - read_stream_begin_impl (Begin, BeginWith): engine/readstream's
//     stream at 18, given this system's GUCs: io_combine_limit (the
//     smaller of io_combine_limit and io_max_combine_limit), sync_mode
//     from io_method, GetPinLimit = MaxProportionalPins.
//   - StartReadBuffersImpl, AsyncReadBuffers, ReadBuffersCanStartIO,
//     WaitReadBuffers, ProcessReadBuffersResult, CheckReadBuffersOperation:
//     a range split at a hit (forwarded, not counted), smgrmaxcombine's
//     segment limit, BM_IO_IN_PROGRESS set by the issuing backend before
//     the I/O is staged, nblocks_done and the retry loop.
//   - buffer_stage_common, buffer_readv_complete(_one),
//     shared_buffer_readv_complete_local, TerminateBufferIO(release_aio),
//     StartBufferIO, WaitIO (waiting on io_wref), and this backend's
//     PrivateRefCount array/hash (ReservePrivateRefCountEntry and friends),
//     whose overflow count GetAdditionalPinLimit reads.
//   - The handle's life (aio.c): pgaio_io_acquire(_nb), pgaio_io_release,
//     pgaio_io_stage, pgaio_io_prepare_submit, pgaio_submit_staged,
//     pgaio_io_process_completion, pgaio_io_reclaim, pgaio_io_wait /
//     pgaio_wref_wait, pgaio_wref_check_done, pgaio_io_wait_for_free.
//   - io_method=worker (method_worker.c): the submission queue, the idle
//     mask, one worker woken per submission and a fan-out of 2 per dequeue,
//     and each worker's loop as three steps a scheduler interleaves
//     (dequeue, read, complete). io_method=io_uring (method_io_uring.c):
//     the backend submits; the kernel finishes I/Os in any order (one step
//     each) and posts completions that only a waiter's
//     pgaio_uring_wait_one drains. io_method=sync (method_sync.c): every
//     I/O executed when staged, in WaitReadBuffers.
//   - 18's BULKREAD ring (freelist.c: GetAccessStrategy) and GUC defaults
//     (guc_tables.c, bufmgr.h, proc.h, aio_init.c: AioChooseMaxConcurrency).
//
// Processes: System is shared memory: every backend's handles, the
// workers' submission queue and idle mask; each Backend (NewBackend) is one
// issuing backend's PgAioBackend and the Buffers it reads through. A
// backend runs through ReadStream's and ReadBuffersOperation's calls; its
// buffer manager is an interface (Buffers), which Pool implements for the
// model alone and engine/bufmgr with its own pool. The workers (or, under
// io_uring, the kernel's I/Os) are Actors: Runnable lists them, Step runs
// one step, and a Scheduler (RoundRobin, NewestFirst, Seeded,
// EarliestFirst) picks, both when a backend sleeps (pgaio_io_wait, through
// the Waiter) and between buffers (Background). A host that runs the
// workers as processes of its own steps each with WorkerRunnable and
// StepWorker and puts its own Waiter in (SetWaiter). The same scheduler
// and seed give the same run.
//
// Time: with the latency model (Config.IOLatencyUS, IOBlockUS) each
// process has a simulated clock; a read costs its executor latency +
// blocks × block time, and a backend that takes a read's result is at
// least at the read's end (Backend.Now).
//
// Invariants (panics with a precise message, as the C assertions would):
// handle state transitions, only the owner reclaims, at most one handle
// handed out and 32 staged, a preadv only into buffers with
// BM_IO_IN_PROGRESS and an AIO pin, completion only of a SUBMITTED
// handle, the stream's queue and pin accounting, forwarded buffers
// matching the pending read, CheckReadBuffersOperation. A backend that
// must sleep while nothing can run is a deadlock and panics.
//
// Not modelled in Pool: other backends (so no buffer whose I/O another
// backend does synchronously, and no eviction: Pool never runs out). Not
// modelled at all: I/O errors,
// partial reads and their retries, checksum failures and
// zero_damaged_pages, temporary relations (local buffers, which io
// workers cannot read), per-buffer data, tablespace overrides of the
// concurrency GUCs, io_uring's IOSQE_ASYNC choice and the queue-full
// case of the worker's submission queue beyond its limit (modelled but
// unreachable with one backend), writes.
//
// Usage:
//
//	cfg := aio.HeapSequentialScanConfig(aio.DefaultConfig(0), 160)
//	log := &aio.Log{}
//	sys, _ := aio.NewSystem(cfg, aio.NewPool(), aio.RoundRobin(), log)
//	s, _ := aio.Begin(sys.Backend(0), aio.HeapScanSerial(160, 0))
//	blocks := aio.Consume(s, -1, 1) // one worker step after each buffer
//	s.End()
//	sys.Quiesce()
//	fmt.Print(log.Summary())        // reads [1] [2] [4] [8] [16]×9 [1]
package aio
