package aio

import "fmt"

// HandleState is PgAioHandleState (aio_internal.h, PG 18). A handle's life:
//
//	IDLE ──acquire──▶ HANDED_OUT ──stage──▶ DEFINED ──stage cbs──▶ STAGED
//	  ▲        └──release (no I/O needed)──┐                        │ submit
//	  │                                    ▼                        ▼
//	  └──reclaim── COMPLETED_LOCAL ◀─local cbs─ COMPLETED_SHARED ◀─ COMPLETED_IO ◀─ SUBMITTED
//	                (owner only)               (shared cbs, anyone)   (I/O done)
type HandleState uint8

const (
	HSIdle HandleState = iota
	HSHandedOut
	HSDefined
	HSStaged
	HSSubmitted
	HSCompletedIO
	HSCompletedShared
	HSCompletedLocal
)

// String is the state's name without PGAIO_HS_ (pgaio_io_state_get_name).
func (s HandleState) String() string {
	return [...]string{"IDLE", "HANDED_OUT", "DEFINED", "STAGED", "SUBMITTED",
		"COMPLETED_IO", "COMPLETED_SHARED", "COMPLETED_LOCAL"}[s]
}

// WaitRef is PgAioWaitRef (aio_types.h): a handle's index and the
// generation it had, so that a reference to a handle since reclaimed
// ("recycled") reads as done.
type WaitRef struct {
	index      int
	generation uint64
	valid      bool
}

// Valid is pgaio_wref_valid.
func (w WaitRef) Valid() bool { return w.valid }

// resultStatus is PgAioResultStatus as reads use it: UNKNOWN until the
// owner's reclaim copies the distilled result into the PgAioReturn, then
// OK (partial reads and errors are not modelled).
type resultStatus uint8

const (
	rsUnknown resultStatus = iota
	rsOK
)

// ioReturn is PgAioReturn: where pgaio_io_reclaim reports the result
// (ReadBuffersOperation.io_return).
type ioReturn struct {
	status resultStatus
	result int    // blocks read
	doneAt uint64 // simulated time the data arrived (the latency model)
}

// Handle is a PgAioHandle (aio_internal.h) for a readv of shared buffers:
// its state and generation, the PGAIO_HF_SYNCHRONOUS flag, the target
// (blocks from block), the handle data (the buffers,
// pgaio_io_set_handle_data_32) and where to report.
type Handle struct {
	id          int
	state       HandleState
	generation  uint64
	synchronous bool // PGAIO_HF_SYNCHRONOUS
	block       BlockNumber
	buffers     []Buffer
	result      int // ioh->result: bytes in C, blocks here
	distilled   ioReturn
	report      *ioReturn
	seq         int // submission order, for the log and schedulers
	inFlight    bool
	owner       *Backend // owner_procno
	// submitAt is the issuing backend's clock when the I/O was submitted,
	// doneAt the clock of whoever read it when the read ended (the
	// latency model; both 0 without it).
	submitAt, doneAt uint64
	cqe              bool // io_uring: a completion waits in the ring
}

// ID is pgaio_io_get_id.
func (h *Handle) ID() int { return h.id }

// Block is the first block the handle reads, Blocks how many, Owner the
// ID of the backend that owns it (owner_procno).
func (h *Handle) Block() BlockNumber { return h.block }
func (h *Handle) Blocks() int        { return len(h.buffers) }
func (h *Handle) Owner() int         { return h.owner.id }

// Synchronous is PGAIO_HF_SYNCHRONOUS (or io_method=sync's execution):
// the issuing backend executes the I/O itself, at once.
func (h *Handle) Synchronous() bool { return h.synchronous }

// Handle is handle id.
func (s *System) Handle(id int) *Handle { return &s.handles[id] }

// State is the handle's state.
func (h *Handle) State() HandleState { return h.state }

// System is the model's shared memory: every backend's AIO handles (in
// one array, each backend owning its io_max_concurrency of them, as
// pgaio_ctl->io_handles), the I/O method's state (the workers and their
// submission queue; under io_uring each backend's ring is its own) and
// the backends that issue reads. A backend runs through the calls of
// ReadStream and ReadBuffersOperation; the workers and the kernel are
// actors that a Scheduler steps (Background, and whenever a backend must
// wait for them: the Waiter), or that a host such as engine/bufmgr runs
// as processes of its own (WorkerRunnable, StepWorker, SetWaiter).
type System struct {
	cfg      Config
	log      *Log
	observe  func(Event)
	sched    Scheduler
	waiter   Waiter
	backends []*Backend

	handles    []Handle
	submitSeq  int
	dequeues   int
	stats      Stats
	maxPinsPer int // MaxProportionalPins

	// io_method=worker
	queue      []int // the submission queue: handle ids, head at 0
	idleMask   uint64
	workers    []workerState
	queueLimit int
}

// Backend is one backend's AIO state (PgAioBackend, aio_internal.h: its
// io_max_concurrency handles, the idle and in-flight lists, the staged
// I/Os, batch mode; under io_uring its ring) and the buffer manager it
// reads through. It sees the shared System as its own fields.
type Backend struct {
	*System
	id      int
	Name    string  // who it is in the log ("backend")
	Buffers Buffers // this backend's buffer manager

	idle      []int // idle_ios: pop and push at the head (index 0)
	inFlight  []int // in_flight_ios, in submission order
	staged    []int // staged_ios
	handedOut int   // handed_out_io, -1: none
	inBatch   bool  // in_batchmode

	// io_method=io_uring: submitted I/Os the kernel has not completed, in
	// submission order; completions wait in the handles (cqe).
	kernel []int
	cq     []int

	// now is the backend's simulated clock (the latency model): it
	// advances by the reads the backend executes itself and jumps to an
	// I/O's doneAt when the backend takes the I/O's result.
	now uint64
}

// Proc is who executes or completes an I/O: an I/O worker (0, 1, ...),
// the kernel (ByKernel), or a backend (ByBackend).
type Proc int

// ByKernel is the kernel finishing an io_uring read.
const ByKernel Proc = -1

// ByBackend is backend id (Backend.ID) executing or completing an I/O.
func ByBackend(id int) Proc { return Proc(-2 - id) }

// Worker is the I/O worker's number, if p is one.
func (p Proc) Worker() (int, bool) { return int(p), p >= 0 }

// Backend is the backend's id, if p is one.
func (p Proc) Backend() (int, bool) { return int(-2 - p), p <= -2 }

// Buffers is the buffer manager under the read path (bufmgr.c, PG 18), as
// one backend calls it. Pool implements it for the model alone;
// engine/bufmgr implements it with its own buffer pool, so that every pin,
// header lock and read is the engine's. The issuing backend calls the
// first seven; whoever executes the read (by) calls Preadv, and whoever
// completes it TerminateBufferIO.
type Buffers interface {
	// PinBufferForBlock is PinBufferForBlock → BufferAlloc: the buffer
	// for block, pinned (ReservePrivateRefCountEntry first); found is
	// BM_VALID.
	PinBufferForBlock(block BlockNumber) (buf Buffer, found bool)
	// ReleaseBuffer drops one of this backend's pins.
	ReleaseBuffer(buf Buffer)
	// BufferGetBlockNumber reads a pinned buffer's tag.
	BufferGetBlockNumber(buf Buffer) BlockNumber
	// BufferIsValid is the relaxed BM_VALID load StartReadBuffersImpl
	// makes on a forwarded buffer.
	BufferIsValid(buf Buffer) bool
	// AssertValid is BM_VALID as an assertion reads it
	// (CheckReadBuffersOperation): no shared access to model.
	AssertValid(buf Buffer) bool
	// GetAdditionalPinLimit is GetAdditionalPinLimit (bufmgr.c, PG 18).
	GetAdditionalPinLimit(maxProportionalPins int) int
	// StartBufferIO is StartBufferIO(buf, forInput = true, nowait): an
	// I/O in progress is waited for (WaitIO: on its io_wref with
	// Backend.WrefWait) unless nowait; false if the buffer is valid by
	// then or nowait found I/O in progress; else BM_IO_IN_PROGRESS set.
	StartBufferIO(buf Buffer, nowait bool) bool
	// StageBuffer is buffer_stage_common for one buffer of a read of
	// block: tagged, not valid, BM_IO_IN_PROGRESS set by this backend; it
	// gains a pin owned by the AIO subsystem and io_wref = w.
	StageBuffer(buf Buffer, block BlockNumber, w WaitRef)
	// Preadv is the pg_preadv of len(bufs) blocks from block into bufs,
	// executed by by: each buffer must have I/O in progress and not be
	// valid.
	Preadv(by Proc, block BlockNumber, bufs []Buffer)
	// TerminateBufferIO is TerminateBufferIO(buf, clear_dirty = false,
	// set_flag_bits, forget_owner = false, release_aio) as the read's
	// completion calls it, by by: clear BM_IO_IN_PROGRESS, BM_VALID if
	// setValid, and with releaseAIO drop the AIO pin and io_wref.
	TerminateBufferIO(by Proc, buf Buffer, setValid, releaseAIO bool)
}

// Waiter is how a backend sleeps until another process has done
// something (done() holds): a condition variable's sleep, or waiting in
// the kernel. The default steps the system's actors with its Scheduler.
type Waiter interface {
	// Sleep returns once done() holds. handle is the handle waited for
	// (its id), what says it in words.
	Sleep(be *Backend, handle int, what string, done func() bool)
}

// Stats counts what the system did.
type Stats struct {
	Submits        int // pgaio_submit_staged calls that submitted
	Submitted      int // I/Os submitted
	Synchronous    int // I/Os executed synchronously by the backend
	Reads          int // preadv calls
	BlocksRead     int
	Waits          int // pgaio_io_wait calls on an I/O not yet complete
	BlockedSteps   int // actor steps taken while the backend waited
	MaxInFlight    int // the most handles submitted and not reclaimed
	CompletedOrder []int
	// HandleWaits counts pgaio_io_wait_for_free calls that had to wait.
	HandleWaits int
}

// NewSystem builds the shared state for cfg with one backend reading
// through pool (nil: an empty Pool), the workers or the kernel stepped by
// sched (nil: round robin), and log recording (nil: none).
func NewSystem(cfg Config, pool *Pool, sched Scheduler, log *Log) (*System, error) {
	s, err := NewShared(cfg, sched, log)
	if err != nil {
		return nil, err
	}
	if pool == nil {
		pool = NewPool()
	}
	pool.be = s.NewBackend("backend", pool)
	return s, nil
}

// NewShared builds the shared state for cfg with no backend yet.
func NewShared(cfg Config, sched Scheduler, log *Log) (*System, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if sched == nil {
		sched = RoundRobin()
	}
	s := &System{cfg: cfg, log: log, sched: sched, queueLimit: IOWorkerQueueSize,
		maxPinsPer: MaxProportionalPins(cfg.NBuffers, cfg.MaxBackends)}
	s.waiter = stepper{}
	if cfg.IOMethod == Worker {
		s.workers = make([]workerState, cfg.IOWorkers)
		for i := range s.workers {
			s.idleMask |= 1 << i // pgaio_worker_register: idle from the start
		}
	}
	return s, nil
}

// NewBackend adds a backend named name (for the log) reading through
// buffers, with its io_max_concurrency handles (pgaio_init_backend).
func (s *System) NewBackend(name string, buffers Buffers) *Backend {
	be := &Backend{System: s, id: len(s.backends), Name: name, Buffers: buffers, handedOut: -1}
	n := s.cfg.Handles()
	for range n {
		id := len(s.handles)
		s.handles = append(s.handles, Handle{id: id, owner: be})
		be.idle = append(be.idle, id)
	}
	s.backends = append(s.backends, be)
	return be
}

// Backend is backend number id.
func (s *System) Backend(id int) *Backend { return s.backends[id] }

// ID is the backend's number (its ProcNumber among the system's).
func (be *Backend) ID() int { return be.id }

// SetWaiter makes w the way backends sleep (nil: the default, stepping
// the actors with the system's Scheduler).
func (s *System) SetWaiter(w Waiter) {
	if w == nil {
		w = stepper{}
	}
	s.waiter = w
}

// Now is the backend's simulated clock, in microseconds: the time it
// spent reading or waiting for reads (the latency model; no CPU time is
// charged for anything else). 0 without the latency model.
func (s *Backend) Now() uint64 { return s.now }

// ioCost is the simulated time a preadv of n blocks takes.
func (s *System) ioCost(n int) uint64 {
	return uint64(s.cfg.IOLatencyUS) + uint64(n)*uint64(s.cfg.IOBlockUS)
}

// Config is the system's configuration.
func (s *System) Config() Config { return s.cfg }

// Stats returns the counters.
func (s *System) Stats() Stats { return s.stats }

func (s *System) h(id int) *Handle { return &s.handles[id] }

func (s *System) setState(h *Handle, st HandleState) { h.state = st } // pgaio_io_update_state

// wref is pgaio_io_get_wref.
func (s *System) wref(h *Handle) WaitRef {
	return WaitRef{index: h.id, generation: h.generation, valid: true}
}

// acquireNB is pgaio_io_acquire_nb (aio.c): submit first if 32 I/Os are
// staged; then the head of the idle list, HANDED_OUT, reporting into ret;
// nil when every handle is in use.
func (s *Backend) acquireNB(ret *ioReturn) *Handle {
	if len(s.staged) >= SubmitBatchSize {
		s.submitStaged()
	}
	if s.handedOut >= 0 {
		panic("aio: API violation: Only one IO can be handed out")
	}
	if len(s.idle) == 0 {
		return nil
	}
	id := s.idle[0]
	s.idle = s.idle[1:]
	h := s.h(id)
	if h.state != HSIdle {
		panic(fmt.Sprintf("aio: idle handle %d in state %s", id, h.state))
	}
	s.setState(h, HSHandedOut)
	s.handedOut = id
	h.report = ret
	ret.status = rsUnknown
	return h
}

// acquire is pgaio_io_acquire: acquireNB, waiting for a free handle
// (pgaio_io_wait_for_free) as long as there is none.
func (s *Backend) acquire(ret *ioReturn) *Handle {
	for {
		if h := s.acquireNB(ret); h != nil {
			return h
		}
		s.waitForFree()
	}
}

// release is pgaio_io_release: a handed-out handle not needed after all
// (AsyncReadBuffers found the block valid) goes back, reclaimed.
func (s *Backend) release(h *Handle) {
	if s.handedOut != h.id || h.state != HSHandedOut {
		panic("aio: release in unexpected state")
	}
	s.handedOut = -1
	s.reclaim(h)
}

// stage is smgrstartreadv → mdstartreadv → pgaio_io_start_readv →
// pgaio_io_stage (aio.c): DEFINED, the stage callbacks
// (shared_buffer_readv_stage → buffer_stage_common), STAGED; then executed
// synchronously at once if it must be (PGAIO_HF_SYNCHRONOUS, or the
// method says so: always under sync), else added to the staged I/Os and,
// outside batch mode, submitted.
func (s *Backend) stage(h *Handle) {
	if h.state != HSHandedOut || s.handedOut != h.id {
		panic(fmt.Sprintf("aio: stage of handle %d in state %s", h.id, h.state))
	}
	h.result = 0
	s.setState(h, HSDefined)
	s.handedOut = -1
	s.bufferStageCommon(h)
	s.setState(h, HSStaged)
	if s.needsSynchronousExecution(h) {
		s.prepareSubmit(h)
		s.event(Event{Kind: KindSyncIO, Handle: h.id, Block: h.block, N: len(h.buffers)})
		s.stats.Synchronous++
		s.performSynchronously(h)
		return
	}
	s.staged = append(s.staged, h.id)
	if len(s.staged) > SubmitBatchSize {
		panic("aio: more than PGAIO_SUBMIT_BATCH_SIZE staged")
	}
	s.event(Event{Kind: KindStage, Handle: h.id, Block: h.block, N: len(h.buffers)})
	if !s.inBatch {
		s.submitStaged()
	}
}

// needsSynchronousExecution is pgaio_io_needs_synchronous_execution:
// PGAIO_HF_SYNCHRONOUS, or the method's rule (method_sync.c: always;
// method_worker.c: not for a shared relation's read under the postmaster;
// io_uring: never).
func (s *Backend) needsSynchronousExecution(h *Handle) bool {
	return h.synchronous || s.cfg.IOMethod == Sync
}

// prepareSubmit is pgaio_io_prepare_submit: SUBMITTED, onto the tail of
// the in-flight list.
func (s *Backend) prepareSubmit(h *Handle) {
	s.setState(h, HSSubmitted)
	h.submitAt = s.now
	h.inFlight = true
	s.submitSeq++
	h.seq = s.submitSeq
	s.inFlight = append(s.inFlight, h.id)
	s.stats.MaxInFlight = max(s.stats.MaxInFlight, len(s.inFlight))
}

// enterBatchmode and exitBatchmode are pgaio_enter_batchmode and
// pgaio_exit_batchmode (which submits what is staged).
func (s *Backend) enterBatchmode() {
	if s.inBatch {
		panic("aio: starting batch while batch already in progress")
	}
	s.inBatch = true
}

func (s *Backend) exitBatchmode() {
	if !s.inBatch {
		panic("aio: exit of batch mode outside it")
	}
	s.submitStaged()
	s.inBatch = false
}

// haveStaged is pgaio_have_staged.
func (s *Backend) haveStaged() bool { return len(s.staged) > 0 }

// submitStaged is pgaio_submit_staged: the method's submit over all staged
// I/Os. worker: pgaio_worker_submit (each prepared, queued, and one idle
// worker woken; a full queue leaves the rest to be done synchronously);
// io_uring: pgaio_uring_submit (each prepared and handed to the kernel).
func (s *Backend) submitStaged() {
	if len(s.staged) == 0 {
		return
	}
	ids := s.staged
	s.staged = nil
	s.stats.Submits++
	s.stats.Submitted += len(ids)
	for _, id := range ids {
		s.prepareSubmit(s.h(id))
	}
	switch s.cfg.IOMethod {
	case Worker:
		s.workerSubmit(ids)
	case IOUring:
		s.kernel = append(s.kernel, ids...)
		s.event(Event{Kind: KindSubmit, Handles: ids, Worker: -1})
	default:
		panic("aio: submit under io_method=sync")
	}
}

// performSynchronously is pgaio_io_perform_synchronously (aio_io.c) by
// the backend that issued the I/O: the preadv on its own clock, then
// pgaio_io_process_completion (which, the owner completing, reclaims).
func (s *Backend) performSynchronously(h *Handle) {
	s.preadv(h, s.Name, ByBackend(s.id), &s.now)
	s.processCompletion(h, s.Name, ByBackend(s.id))
}

// preadv is the pg_preadv of the handle's blocks into its buffers by by
// (who, in the log), whose simulated clock is at: the read takes ioCost
// of it, and the data is there when it ends (h.doneAt).
func (s *System) preadv(h *Handle, who string, by Proc, at *uint64) {
	if h.state != HSSubmitted {
		panic(fmt.Sprintf("aio: preadv of handle %d in state %s", h.id, h.state))
	}
	h.owner.Buffers.Preadv(by, h.block, h.buffers)
	h.result = len(h.buffers)
	*at += s.ioCost(len(h.buffers))
	h.doneAt = *at
	s.stats.Reads++
	s.stats.BlocksRead += len(h.buffers)
	s.event(Event{Kind: KindPreadv, Handle: h.id, Block: h.block, N: len(h.buffers), Who: who, By: by})
}

// processCompletion is pgaio_io_process_completion (aio.c) by by (who, in
// the log): COMPLETED_IO, the shared completion callbacks
// (shared_buffer_readv_complete → buffer_readv_complete →
// TerminateBufferIO(BM_VALID, release_aio) per buffer), COMPLETED_SHARED,
// the broadcast; and, when the completing process is the owner,
// pgaio_io_reclaim at once (local callbacks).
func (s *System) processCompletion(h *Handle, who string, by Proc) {
	if h.state != HSSubmitted {
		panic(fmt.Sprintf("aio: completion of handle %d in state %s", h.id, h.state))
	}
	s.setState(h, HSCompletedIO)
	for _, b := range h.buffers {
		h.owner.Buffers.TerminateBufferIO(by, b, true, true)
	}
	h.distilled = ioReturn{status: rsOK, result: h.result, doneAt: h.doneAt}
	s.setState(h, HSCompletedShared)
	s.stats.CompletedOrder = append(s.stats.CompletedOrder, h.id)
	s.event(Event{Kind: KindComplete, Handle: h.id, Block: h.block, N: len(h.buffers), Who: who, By: by})
	if by == ByBackend(h.owner.id) {
		h.owner.reclaim(h)
	}
}

// reclaim is pgaio_io_reclaim (aio.c), by the owner only: the local
// completion callbacks if COMPLETED_SHARED (shared_buffer_readv_complete_local,
// which only reports checksum failures) and COMPLETED_LOCAL, the result
// into the PgAioReturn, off the in-flight list, generation++, IDLE, onto
// the head of the idle list.
func (s *Backend) reclaim(h *Handle) {
	if h.owner != s {
		panic(fmt.Sprintf("aio: %s reclaims handle %d of %s", s.Name, h.id, h.owner.Name))
	}
	if h.state == HSIdle {
		panic(fmt.Sprintf("aio: reclaim of idle handle %d", h.id))
	}
	if h.state == HSCompletedShared {
		s.setState(h, HSCompletedLocal)
		if h.report != nil {
			*h.report = h.distilled
		}
	}
	if h.state != HSHandedOut && h.inFlight {
		for i, id := range s.inFlight {
			if id == h.id {
				s.inFlight = append(s.inFlight[:i:i], s.inFlight[i+1:]...)
				break
			}
		}
		h.inFlight = false
		s.event(Event{Kind: KindReclaim, Handle: h.id, Block: h.block, N: len(h.buffers)})
	}
	h.generation++
	s.setState(h, HSIdle)
	h.synchronous = false
	h.buffers = nil
	h.report = nil
	h.result = 0
	h.distilled = ioReturn{}
	h.cqe = false
	h.submitAt, h.doneAt = 0, 0
	s.idle = append([]int{h.id}, s.idle...)
}

// wasRecycled is pgaio_io_was_recycled.
func (s *System) wasRecycled(w WaitRef) bool { return s.h(w.index).generation != w.generation }

// wrefWait is pgaio_wref_wait → pgaio_io_wait (aio.c), for this backend:
//
//	recycled: return (done and reclaimed)
//	SUBMITTED: io_uring has wait_one (reap completions), unless the I/O
//	           is executed synchronously; worker and sync do not
//	DEFINED, STAGED, COMPLETED_IO, SUBMITTED (worker):
//	           sleep on the handle's condition variable until it is
//	           COMPLETED_SHARED or later
//	COMPLETED_SHARED / COMPLETED_LOCAL: the owner reclaims; return
//
// Sleeping is where the scheduler runs the workers (or the kernel) until
// the handle is done.
func (s *Backend) wrefWait(w WaitRef) {
	if !w.valid {
		panic("aio: wait on an invalid wait reference")
	}
	if s.wasRecycled(w) {
		return
	}
	h := s.h(w.index)
	waited := false
	for {
		if s.wasRecycled(w) {
			return
		}
		switch h.state {
		case HSIdle, HSHandedOut:
			panic(fmt.Sprintf("aio: IO in wrong state: %s", h.state))
		case HSDefined, HSStaged:
			if h.owner == s {
				// Our own unsubmitted I/O: the callers submit before waiting.
				panic(fmt.Sprintf("aio: waiting for own IO %d in state %s", h.id, h.state))
			}
			// Another backend's, not submitted yet: sleep until it is
			// complete, as for one in flight.
			s.waiter.Sleep(s, h.id, fmt.Sprintf("handle %d", h.id), func() bool {
				return s.wasRecycled(w) || h.state == HSCompletedShared || h.state == HSCompletedLocal
			})
		case HSSubmitted, HSCompletedIO:
			if !waited {
				waited = true
				s.stats.Waits++
				s.event(Event{Kind: KindWaitIO, Handle: h.id, Block: h.block, N: len(h.buffers)})
			}
			if h.state == HSSubmitted && s.cfg.IOMethod == IOUring && !h.synchronous {
				s.uringWaitOne(h, w)
				continue
			}
			s.waiter.Sleep(s, h.id, fmt.Sprintf("handle %d", h.id), func() bool {
				return s.wasRecycled(w) || h.state == HSCompletedShared || h.state == HSCompletedLocal
			})
		case HSCompletedShared, HSCompletedLocal:
			// Waited for: the backend goes on once the data arrived.
			s.now = max(s.now, h.doneAt)
			if h.owner == s {
				s.reclaim(h)
			}
			return
		}
	}
}

// wrefCheckDone is pgaio_wref_check_done (aio.c): done if recycled, idle,
// or COMPLETED_SHARED/LOCAL (the owner reclaims it then). It does not ask
// the method: under io_uring a completion waiting in the ring is not
// reaped here (the source's XXX), so the I/O reads as not done.
func (s *Backend) wrefCheckDone(w WaitRef) bool {
	if s.wasRecycled(w) {
		return true
	}
	h := s.h(w.index)
	switch h.state {
	case HSIdle:
		return true
	case HSCompletedShared, HSCompletedLocal:
		if h.owner == s {
			s.reclaim(h)
		}
		return true
	}
	return false
}

// waitForFree is pgaio_io_wait_for_free (aio.c): reclaim every handle
// already COMPLETED_SHARED; if none, submit what is staged; if still no
// idle handle, wait for the oldest in-flight I/O.
func (s *Backend) waitForFree() {
	s.stats.HandleWaits++
	reclaimed := 0
	for i := range s.handles {
		if h := &s.handles[i]; h.state == HSCompletedShared {
			s.reclaim(h)
			reclaimed++
		}
	}
	if reclaimed > 0 {
		return
	}
	if len(s.staged) > 0 {
		s.submitStaged()
	}
	if len(s.idle) > 0 {
		return
	}
	if len(s.inFlight) == 0 {
		panic("aio: no free IOs despite no in-flight IOs")
	}
	h := s.h(s.inFlight[0])
	switch h.state {
	case HSSubmitted, HSCompletedIO:
		s.wrefWait(s.wref(h))
	case HSCompletedShared:
		s.reclaim(h)
	default:
		panic(fmt.Sprintf("aio: in-flight handle %d in state %s", h.id, h.state))
	}
	if len(s.idle) == 0 {
		panic("aio: no idle IO after waiting for IO to terminate")
	}
}

// bufferStageCommon is buffer_stage_common (bufmgr.c, PG 18) for a read
// of shared buffers: each buffer must be tagged, not valid, with
// BM_IO_IN_PROGRESS set (by this backend's StartBufferIO); it gains a pin
// owned by the AIO subsystem (released in TerminateBufferIO) and io_wref
// pointing at the handle, so that another backend's WaitIO waits on the
// handle, not on the buffer's condition variable.
func (s *Backend) bufferStageCommon(h *Handle) {
	w := s.wref(h)
	for i, b := range h.buffers {
		s.Buffers.StageBuffer(b, h.block+BlockNumber(i), w)
	}
}

// WrefWait is pgaio_wref_wait by this backend: what WaitIO calls for a
// buffer whose io_wref is set (a Buffers implementation's StartBufferIO).
// The owner reclaims the handle once it is complete; another backend only
// waits for its completion.
func (s *Backend) WrefWait(w WaitRef) { s.wrefWait(w) }

// CheckQuiet reports an error unless the system is at rest: every handle
// idle, nothing staged, queued or in the kernel, and each backend's
// buffer manager at rest too when it can tell (Pool: no buffer with I/O
// in progress, no shared refcount beyond the backend's pins).
func (s *System) CheckQuiet() error {
	for i := range s.handles {
		if h := &s.handles[i]; h.state != HSIdle {
			return fmt.Errorf("aio: handle %d in state %s at rest", h.id, h.state)
		}
	}
	if len(s.queue) > 0 {
		return fmt.Errorf("aio: %d queued at rest", len(s.queue))
	}
	for _, be := range s.backends {
		if len(be.staged)+len(be.kernel)+len(be.cq)+len(be.inFlight) > 0 || be.handedOut >= 0 {
			return fmt.Errorf("aio: %s: %d staged, %d in the kernel, %d completions, %d in flight at rest",
				be.Name, len(be.staged), len(be.kernel), len(be.cq), len(be.inFlight))
		}
		if q, ok := be.Buffers.(interface{ checkQuiet() error }); ok {
			if err := q.checkQuiet(); err != nil {
				return err
			}
		}
	}
	return nil
}
