package bufmgr

import (
	"fmt"

	"bufferlab/engine/aio"
	"bufferlab/engine/readstream"
	"bufferlab/engine/sched"
	"bufferlab/engine/trace"
)

// PostgreSQL 18's read path (config pg=18): asynchronous I/O. A read goes
// through StartReadBuffers, which now starts the I/O itself
// (AsyncReadBuffers: an AIO handle, the buffers staged, the handle
// submitted), and WaitReadBuffers, which waits for the handle; with
// io_method=worker (18's default) I/O workers, processes of their own,
// take the handles from a queue in shared memory, read and complete them.
// A sequential scan reads through 18's read stream, which keeps several
// such I/Os in flight. engine/aio models all of that (bufmgr.c,
// read_stream.c, aio.c, method_worker.c at REL_18_4); this file gives it
// the engine's buffer pool and processes:
//
//   - aioBuffers is aio.Buffers for one backend: every pin, header lock
//     and read goes through this backend's modelled functions (BufferAlloc
//     is 16's, bufferAlloc16), so it yields and emits like any other;
//   - the I/O workers are Backends of their own (IOWorkerActor), run as
//     scheduled processes by RunIOWorker: each dequeue, read and
//     completion is theirs, so completions interleave with the issuing
//     backend and with each other;
//   - a backend that must wait for an I/O sleeps at the scheduler
//     (aioWaiter) while the workers run; unscheduled (fast mode), it
//     steps the workers itself, in the order of their simulated clocks.
//
// With io_method=io_uring the backend hands its reads to the kernel, one
// process of its own here too (KernelActor, RunKernel): it finishes the
// reads in flight in an order of its own, and the completions wait in the
// owner's ring until a backend that waits drains them and completes the
// I/O itself (pgaio_uring_wait_one).
//
// What is not here yet: a paused scan (scan pages=), the handles' own
// events for the stream's distance, and writes through AIO (18 writes
// synchronously too).

// IOWorkerActor is the actor of I/O worker i: after every actor a client
// backend can have (MaxSimBackends), so that the workers never take a
// backend's letter.
func IOWorkerActor(i int) trace.Actor { return trace.Actor(MaxSimBackends + 1 + i) }

// IOWorker reports which I/O worker actor a is, if it is one of the
// pool's.
func (p *Pool) IOWorker(a trace.Actor) (int, bool) {
	i, ok := IOWorkerOf(a)
	return i, ok && i < len(p.ioWorkers)
}

// IOWorkerOf reports which I/O worker actor a would be (any pool's: up to
// io_workers' maximum), for a view that has no pool.
func IOWorkerOf(a trace.Actor) (int, bool) {
	i := int(a) - MaxSimBackends - 1
	return i, i >= 0 && i < aio.MaxIOWorkers
}

// KernelActor is the actor of the kernel under io_method=io_uring: after
// every I/O worker's (MaxIOWorkers of them).
func KernelActor() trace.Actor { return IOWorkerActor(aio.MaxIOWorkers) }

// ActorColumn is a's name in a listing's three-letter actor column: W0,
// W1, ... for I/O worker 0, 1, ..., K for the kernel, and name(a) for a
// backend. Captions name them in words ("io worker 0"); a column and a
// lane cannot.
func ActorColumn(a trace.Actor, name func(trace.Actor) string) string {
	if i, ok := IOWorkerOf(a); ok {
		return fmt.Sprintf("W%d", i)
	}
	if a == KernelActor() {
		return "K"
	}
	return name(a)
}

// IOWorkers is the number of I/O workers the pool runs (io_workers at
// pg=18 with io_method=worker; 0 otherwise).
func (p *Pool) IOWorkers() int { return len(p.ioWorkers) }

// IOMethod is the pool's io_method at pg=18 ("" below 18).
func (p *Pool) IOMethod() string {
	if p.aio == nil {
		return ""
	}
	return p.aio.Config().IOMethod.String()
}

// initAIO sets up PostgreSQL 18's AIO for the pool: the shared state with
// the pool's settings, and the I/O workers (io_method=worker).
func (p *Pool) initAIO(opt Options) error {
	cfg := aio.DefaultConfig(0)
	cfg.NBuffers = p.NBuffers
	cfg.IOCombineLimitGUC = p.ioCombineLimit
	cfg.EffectiveIOConcurrency = p.effectiveIOConcurrency
	cfg.IOLatencyUS, cfg.IOBlockUS = opt.IOLatencyUS, opt.IOBlockUS
	if opt.IOMethod != "" {
		m, ok := aio.ParseIOMethod(opt.IOMethod)
		if !ok {
			return fmt.Errorf("bufmgr: io_method %q: expected worker, io_uring or sync", opt.IOMethod)
		}
		cfg.IOMethod = m
	}
	if opt.IOWorkers != 0 {
		cfg.IOWorkers = opt.IOWorkers
	}
	sys, err := aio.NewShared(cfg, aio.EarliestFirst(), nil)
	if err != nil {
		return fmt.Errorf("bufmgr: %w", err)
	}
	p.aio = sys
	sys.SetWaiter(aioWaiter{p})
	sys.SetObserver(p.aioEvent)
	p.ioWrefs = map[int32]aio.WaitRef{}
	for i := range sys.Workers() {
		p.ioWorkers = append(p.ioWorkers, &Backend{pool: p, log: p.log, Actor: IOWorkerActor(i),
			Name: fmt.Sprintf("io worker %d", i), reserved: -1, refHash: map[Buffer]int32{}})
	}
	if cfg.IOMethod == aio.IOUring {
		p.kernel = &Backend{pool: p, log: p.log, Actor: KernelActor(), Name: "kernel", reserved: -1, refHash: map[Buffer]int32{}}
	}
	return nil
}

// attachAIO gives a new backend its AIO state (pgaio_init_backend): its
// handles and the aio.Buffers it reads through.
func (p *Pool) attachAIO(b *Backend) {
	b.aioBuf = &aioBuffers{streamPool{b: b}}
	b.aio = p.aio.NewBackend(b.Name, b.aioBuf)
	p.aioOwners = append(p.aioOwners, b)
}

// proc is the Backend that takes a step the AIO model attributes to by.
func (p *Pool) proc(by aio.Proc) *Backend {
	if i, ok := by.Worker(); ok {
		return p.ioWorkers[i]
	}
	if id, ok := by.Backend(); ok {
		return p.aioOwners[id]
	}
	if by == aio.ByKernel && p.kernel != nil {
		return p.kernel
	}
	panic(fmt.Sprintf("bufmgr: no process for AIO step by %d", by))
}

// aioEvent turns the AIO model's steps of a handle into KAIO events by
// the process that took them. They belong to the step of the shared
// operation around them (the staging's header unlock, the worker's
// dequeue), so they do not yield on their own.
func (p *Pool) aioEvent(e aio.Event) {
	if p.log == nil {
		return
	}
	var step uint64
	site := s18Stage
	rel := func(id int) uint64 {
		return uint64(p.aioOwners[p.aio.Handle(id).Owner()].aioBuf.rel.Number) << 8
	}
	switch e.Kind {
	case aio.KindStage:
		step = trace.AIOStage
	case aio.KindSyncIO:
		step, site = trace.AIOSyncIO, s18SyncIO
	case aio.KindSubmit:
		b := p.proc(e.By)
		for _, id := range e.Handles {
			h := p.aio.Handle(id)
			b.emit(trace.KAIO, s18Submit, trace.OAIO, int32(id), uint64(h.Block()), uint64(h.Blocks()), trace.AIOSubmit|rel(id))
		}
		return
	case aio.KindDequeue:
		step, site = trace.AIODequeue, s18Dequeue
	case aio.KindComplete:
		step, site = trace.AIOComplete, s18Complete
		if _, backend := e.By.Backend(); backend && p.kernel != nil && !p.aio.Handle(e.Handle).Synchronous() {
			site = s18Drain // a backend drains io_uring's completions
		}
	case aio.KindReclaim:
		step, site = trace.AIOReclaim, s18Reclaim
	case aio.KindWaitIO:
		step, site = trace.AIOWait, s18Sleep
		if p.kernel != nil {
			site = s18UringWait
		}
	default:
		return
	}
	p.proc(e.By).emit(trace.KAIO, site, trace.OAIO, int32(e.Handle), uint64(e.Block), uint64(e.N), step|rel(e.Handle))
}

// aioWaiter is how a backend sleeps on an AIO handle (pgaio_io_wait's
// ConditionVariableSleep): scheduled, it yields as a waiting process
// until the handle is complete, while the I/O workers run; unscheduled,
// it steps the workers itself (aio's default: in the order of their
// simulated clocks).
type aioWaiter struct{ p *Pool }

func (w aioWaiter) Sleep(be *aio.Backend, handle int, what string, done func() bool) {
	b := w.p.aioOwners[be.ID()]
	if !hooks || b.y == nil {
		be.RunUntil(what, done)
		return
	}
	for !done() {
		b.sleep(s18Sleep, done)
	}
}

// RunIOWorker is I/O worker i's process (IoWorkerMain, method_worker.c,
// REL_18_4) under a scheduler: while the worker can step (its latch set,
// or mid-loop) it takes its next step (dequeue, read, complete: each
// yields first); otherwise it sleeps (WaitLatch) until one can, and ends
// when clientsDone reports that no client backend is left and it is
// asleep with nothing queued (the postmaster's shutdown at the run's end).
func (p *Pool) RunIOWorker(i int, y sched.Yield, clientsDone func() bool) error {
	w := p.ioWorkers[i]
	w.SetYield(y)
	defer w.SetYield(nil)
	for {
		if p.aio.WorkerRunnable(i) {
			w.step(s18WorkerStep)
			p.aio.StepWorker(i)
			continue
		}
		if clientsDone() {
			return nil
		}
		w.sleep(s18WorkerIdle, func() bool { return p.aio.WorkerRunnable(i) || clientsDone() })
	}
}

// UsesKernel reports whether the pool's reads go to the kernel
// (io_method=io_uring): a run then needs the kernel's process (RunKernel).
func (p *Pool) UsesKernel() bool { return p.kernel != nil }

// RunKernel is the kernel under io_method=io_uring as a scheduled process:
// while reads are in flight it finishes one (the data arrives, a
// completion waits in its owner's ring; pick chooses which of the n in
// flight, as a device finishes them in an order of its own), and sleeps
// until one is submitted otherwise; it ends when clientsDone reports that
// no backend is left and nothing is in flight.
func (p *Pool) RunKernel(y sched.Yield, clientsDone func() bool, pick func(n int) int) error {
	k := p.kernel
	k.SetYield(y)
	defer k.SetYield(nil)
	for {
		if ids := p.aio.InKernel(); len(ids) > 0 {
			k.step(s18KernelRead)
			p.aio.StepKernel(ids[pick(len(ids))])
			continue
		}
		if clientsDone() {
			return nil
		}
		k.sleep(s18KernelIdle, func() bool { return len(p.aio.InKernel()) > 0 || clientsDone() })
	}
}

// aioBuffers is one backend's buffer manager as PostgreSQL 18's read path
// calls it (aio.Buffers): 17's stream pool (read17.go) for the relation
// fork and ring of the read in progress (one at a time per backend), with
// 18's AIO steps.
type aioBuffers struct{ streamPool }

// PinBufferForBlock is PinBufferForBlock (bufmgr.c, REL_18_4): 17's, with
// 18's sites (startread18.hit, startread18.miss).
func (ab *aioBuffers) PinBufferForBlock(block aio.BlockNumber) (aio.Buffer, bool) {
	return ab.pinBufferForBlock(block, s18StartHit, s18StartMiss)
}

// AssertValid reads BM_VALID for an assertion (no event).
func (ab *aioBuffers) AssertValid(buf aio.Buffer) bool { return ab.desc(buf).state.Load()&BmValid != 0 }

// BufferIsValid is StartReadBuffersImpl's relaxed read of a forwarded
// buffer's BM_VALID: one atomic load (event at startread18.forwarded).
func (ab *aioBuffers) BufferIsValid(buf aio.Buffer) bool {
	b, d := ab.b, ab.desc(buf)
	b.step(s18Forwarded)
	s := d.state.Load()
	b.emit(trace.KLoad, s18Forwarded, trace.OBuffer, d.bufID, 0, uint64(s), 0)
	return s&BmValid != 0
}

// GetAdditionalPinLimit is GetAdditionalPinLimit (bufmgr.c, REL_18_4):
// the backend's share of the pool less the pins it is estimated to hold
// (PrivateRefCountOverflowed + REFCOUNT_ARRAY_ENTRIES), 0 when it holds
// more. Private state: no event.
func (ab *aioBuffers) GetAdditionalPinLimit(maxProportionalPins int) int {
	held := ab.b.refOverflowed + RefcountArrayEntries
	if held > maxProportionalPins {
		return 0
	}
	return maxProportionalPins - held
}

// waitIO18 is WaitIO (bufmgr.c, REL_18_4), which StartBufferIO calls at
// pg=18: under the header lock read BM_IO_IN_PROGRESS and io_wref; none
// in progress: done; an AIO handle owns it: pgaio_wref_wait, then look
// again; otherwise another backend's synchronous I/O: sleep on the
// buffer's condition variable.
func (b *Backend) waitIO18(d *BufferDesc) {
	for {
		s := b.lockBufHdr(d, s18WaitIOLock)
		iow, async := b.pool.ioWrefs[d.bufID]
		b.unlockBufHdr(d, s, s18WaitIOUnlock)
		if s&BmIOInProgress == 0 {
			return
		}
		if async {
			b.aio.WrefWait(iow) // a KAIO wait event if it sleeps
			continue
		}
		b.Stats.IOWaits++
		b.emit(trace.KIOWait, sWaitIOSleep, trace.OBuffer, d.bufID, 0, uint64(s), 0)
		b.stepWait(sWaitIOSleep)
	}
}

// StageBuffer is buffer_stage_common (bufmgr.c, REL_18_4) for one buffer:
// under the header lock, the AIO subsystem's pin (refcount + 1, no
// private entry) and io_wref = the handle.
func (ab *aioBuffers) StageBuffer(buf aio.Buffer, block aio.BlockNumber, w aio.WaitRef) {
	b, d := ab.b, ab.desc(buf)
	s := b.lockBufHdr(d, s18StageLock)
	if d.tag.BlockNum != uint32(block) || s&BmTagValid == 0 || s&(BmValid|BmDirty) != 0 || s&BmIOInProgress == 0 || StateRefcount(s) < 1 {
		panic(fmt.Sprintf("bufmgr: staging buffer %d for block %d: it holds block %d, %s", d.bufID, block, d.tag.BlockNum, StateString(s)))
	}
	b.unlockBufHdrAnd(d, s+BufRefcountOne, s18StagePin, func() { b.pool.ioWrefs[d.bufID] = w })
}

// Preadv is the read itself (pg_preadv of the handle's blocks), by the
// process that executes it: one step, then one io-read event per block at
// async18.preadv (Arg = packed tag, Before = the block's place, After =
// the read's blocks, 0 for one block).
func (ab *aioBuffers) Preadv(by aio.Proc, block aio.BlockNumber, bufs []aio.Buffer) {
	ab.readv(ab.b.pool.proc(by), s18Preadv, bufs)
}

// TerminateBufferIO is TerminateBufferIO(buf, false, BM_VALID, false,
// release_aio) (bufmgr.c, REL_18_4) as buffer_readv_complete calls it, by
// the completing process: BM_IO_IN_PROGRESS and BM_IO_ERROR off,
// BM_VALID on, and with releaseAIO the AIO subsystem's pin and io_wref
// gone.
func (ab *aioBuffers) TerminateBufferIO(by aio.Proc, buf aio.Buffer, setValid, releaseAIO bool) {
	p := ab.b.pool
	who, d := p.proc(by), ab.desc(buf)
	s := who.lockBufHdr(d, s18TermLock)
	s &^= BmIOInProgress | BmIOError
	if releaseAIO {
		if StateRefcount(s) < 1 {
			panic(fmt.Sprintf("bufmgr: buffer %d has no AIO pin to release", d.bufID))
		}
		s -= BufRefcountOne
	}
	if setValid {
		s |= BmValid
	}
	who.unlockBufHdrAnd(d, s, s18TermUnlock, func() {
		if releaseAIO {
			delete(p.ioWrefs, d.bufID)
		}
	})
}

var _ aio.Buffers = (*aioBuffers)(nil)

// aioPins is the AIO subsystem's pins on buffer id: 1 while a staged or
// submitted read owns it (its io_wref set), else 0.
func (p *Pool) aioPins(id int32) int {
	if _, ok := p.ioWrefs[id]; ok {
		return 1
	}
	return 0
}

// readBuffer18 is ReadBuffer_common (bufmgr.c, REL_18_4) for RBM_NORMAL:
// StartReadBuffer with READ_BUFFERS_SYNCHRONOUSLY (the one block read by
// this backend at once, never by a worker) and WaitReadBuffers when it is
// not valid. Events: an op at read18.begin, the handle's, and an op-done
// at read18.done.
func (b *Backend) readBuffer18(rel *Relation, f ForkNumber, blk uint32, strategy *Strategy) (Buffer, bool, error) {
	tag := rel.Tag(f, blk)
	if blk >= rel.NBlocks[f] {
		return InvalidBuffer, false, b.readPastEnd(rel, s18ReadEOF, errBeyondEOF17(rel, f, blk))
	}
	b.emitTag(trace.KOp, s18ReadBegin, trace.ORelation, int32(rel.Number), 0, 0, &tag)
	b.aioBuf.rel, b.aioBuf.fork, b.aioBuf.strategy = rel, f, strategy
	op := aio.NewReadBuffersOperation(b.aio)
	var bufs [1]aio.Buffer
	need := false
	start := b.aio.Now()
	if err := guard(func() {
		if need = aio.StartReadBuffer(&op, bufs[:], aio.BlockNumber(blk), readstream.ReadBuffersSynchronously); need {
			aio.WaitReadBuffers(&op)
		}
	}); err != nil {
		return InvalidBuffer, false, err
	}
	b.Stats.IOTimeUS += b.aio.Now() - start
	d := &b.pool.descs[bufs[0]-1]
	b.emitTag(trace.KOpDone, s18ReadDone, trace.OBuffer, d.bufID, 0, 0, &tag)
	return Buffer(bufs[0]), !need, nil
}

// seqScan18 is a whole heap sequential scan as PostgreSQL 18 runs it
// (heapam.c, REL_18_4: initscan, heap_beginscan with READ_STREAM_SEQUENTIAL
// | READ_STREAM_USE_BATCHING, heap_fetch_next_buffer,
// heap_scan_stream_read_next_serial, heap_endscan): 17's scan, with 18's
// ring (sized from io_combine_limit × effective_io_concurrency) and
// stream, whose reads run in the I/O workers. Events: an op at
// scan18.init (Obj = relation, Before = start block, After = blocks, Arg
// = ring size), the reads' and handles' events, an op-done at scan18.end.
func (b *Backend) seqScan18(rel *Relation) error {
	strategy, n, start, allowSync := b.initScan(rel, s18ScanInit)
	var ring aio.Strategy
	if strategy != nil {
		ring = aio.Strategy{Type: aio.BulkRead, Buffers: strategy.RingSize()}
	}
	if n > 0 {
		b.aioBuf.rel, b.aioBuf.fork, b.aioBuf.strategy = rel, MainForkNum, strategy
		s, err := aio.BeginWith(b.aio, readstream.Sequential|readstream.UseBatching, ring, aio.Callback(b.heapScanNext(rel, n, start, allowSync)))
		if err != nil {
			return err
		}
		t0 := b.aio.Now()
		if err := guard(func() { drain(s.NextBuffer, b.aioBuf.ReleaseBuffer); s.End() }); err != nil {
			return err
		}
		b.Stats.IOTimeUS += b.aio.Now() - t0
	}
	b.emit(trace.KOpDone, s18ScanEnd, trace.ORelation, int32(rel.Number), 0, uint64(n), 0)
	return nil
}

// aioStepNames name KAIO's steps for Describe.
var aioStepNames = [trace.NumAIOSteps]string{trace.AIOStage: "staged", trace.AIOSyncIO: "executed at once",
	trace.AIOSubmit: "submitted", trace.AIODequeue: "taken by a worker", trace.AIOComplete: "completed",
	trace.AIOReclaim: "reclaimed", trace.AIOWait: "waited for"}

// aioBlocks is a KAIO event's blocks: "t/1..t/2 (2 blocks)", "t/0".
func aioBlocks(e trace.Event, names RelNamer) string {
	rel := uint32(e.Arg >> 8)
	first := names.tag(MakeTag(rel, MainForkNum, uint32(e.Before)))
	if e.After <= 1 {
		return first
	}
	return fmt.Sprintf("%s..%s (%d blocks)", first, names.tag(MakeTag(rel, MainForkNum, uint32(e.Before+e.After-1))), e.After)
}

// aio captions a step of an AIO handle's life (KAIO).
func (c *captioner) aio() string {
	e := c.e
	h, blocks := int32(e.Obj), aioBlocks(e, c.names)
	switch e.Arg & 0xff {
	case trace.AIOStage:
		return fmt.Sprintf("%s stages AIO handle %d for %s: BM_IO_IN_PROGRESS and an AIO pin on each buffer.", c.who, h, blocks)
	case trace.AIOSyncIO:
		return fmt.Sprintf("%s reads %s itself, at once, through AIO handle %d (a synchronous read: no worker).", c.who, blocks, h)
	case trace.AIOSubmit:
		return fmt.Sprintf("%s submits handle %d (%s) to the I/O workers' queue and goes on without waiting.", c.who, h, blocks)
	case trace.AIODequeue:
		return fmt.Sprintf("%s takes handle %d (%s) from the queue: it will read for the backend.", c.who, h, blocks)
	case trace.AIOComplete:
		return fmt.Sprintf("%s completes handle %d: %s valid, the AIO pins released.", c.who, h, blocks)
	case trace.AIOReclaim:
		return fmt.Sprintf("%s reclaims handle %d: its result read, the handle free for the next read.", c.who, h)
	case trace.AIOWait:
		if e.Site == s18UringWait {
			return fmt.Sprintf("%s needs %s before handle %d is complete: it waits for the kernel, then completes it.", c.who, blocks, h)
		}
		return fmt.Sprintf("%s needs %s before handle %d is complete: it sleeps until a worker completes it.", c.who, blocks, h)
	}
	return ""
}
