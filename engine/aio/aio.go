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
	// submitAt is the issuing backend's clock when the I/O was submitted,
	// doneAt the clock of whoever read it when the read ended (the
	// latency model; both 0 without it).
	submitAt, doneAt uint64
	cqe              bool // io_uring: a completion waits in the ring
}

// ID is pgaio_io_get_id.
func (h *Handle) ID() int { return h.id }

// State is the handle's state.
func (h *Handle) State() HandleState { return h.state }

// System is the model's shared memory and processes: the buffer pool, one
// backend's AIO state (PgAioBackend: its io_max_concurrency handles, the
// idle and in-flight lists, the staged I/Os, batch mode) and the I/O
// method's (the workers and their submission queue, or the backend's
// io_uring). The backend runs through the calls of ReadStream and
// ReadBuffersOperation; the workers and the kernel are actors a Scheduler
// steps, between the backend's calls (Background) and whenever the
// backend must wait for them.
type System struct {
	cfg   Config
	Pool  *Pool
	log   *Log
	sched Scheduler

	handles    []Handle
	idle       []int // idle_ios: pop and push at the head (index 0)
	inFlight   []int // in_flight_ios, in submission order
	staged     []int // staged_ios
	handedOut  int   // handed_out_io, -1: none
	inBatch    bool  // in_batchmode
	submitSeq  int
	dequeues   int
	stats      Stats
	maxPinsPer int // MaxProportionalPins

	// io_method=worker
	queue      []int // the submission queue: handle ids, head at 0
	idleMask   uint64
	workers    []workerState
	queueLimit int

	// io_method=io_uring: submitted I/Os the kernel has not completed, in
	// submission order; completions wait in the handles (cqe).
	kernel []int
	cq     []int

	// now is the issuing backend's simulated clock (the latency model):
	// it advances by the reads the backend executes itself and jumps to
	// an I/O's doneAt when the backend takes the I/O's result.
	now uint64
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

// NewSystem builds the shared state for cfg over pool, with sched stepping
// the workers or the kernel (nil: round robin) and log recording (nil:
// none).
func NewSystem(cfg Config, pool *Pool, sched Scheduler, log *Log) (*System, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if pool == nil {
		pool = NewPool()
	}
	if sched == nil {
		sched = RoundRobin()
	}
	n := cfg.Handles()
	s := &System{cfg: cfg, Pool: pool, log: log, sched: sched, handedOut: -1,
		handles: make([]Handle, n), queueLimit: IOWorkerQueueSize,
		maxPinsPer: MaxProportionalPins(cfg.NBuffers, cfg.MaxBackends)}
	for i := range s.handles {
		s.handles[i].id = i
		s.idle = append(s.idle, i)
	}
	if cfg.IOMethod == Worker {
		s.workers = make([]workerState, cfg.IOWorkers)
		for i := range s.workers {
			s.idleMask |= 1 << i // pgaio_worker_register: idle from the start
		}
	}
	return s, nil
}

// Now is the issuing backend's simulated clock, in microseconds: the time
// it spent reading or waiting for reads (the latency model; no CPU time is
// charged for anything else). 0 without the latency model.
func (s *System) Now() uint64 { return s.now }

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
func (s *System) acquireNB(ret *ioReturn) *Handle {
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
func (s *System) acquire(ret *ioReturn) *Handle {
	for {
		if h := s.acquireNB(ret); h != nil {
			return h
		}
		s.waitForFree()
	}
}

// release is pgaio_io_release: a handed-out handle not needed after all
// (AsyncReadBuffers found the block valid) goes back, reclaimed.
func (s *System) release(h *Handle) {
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
func (s *System) stage(h *Handle) {
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
		s.performSynchronously(h, "backend")
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
func (s *System) needsSynchronousExecution(h *Handle) bool {
	return h.synchronous || s.cfg.IOMethod == Sync
}

// prepareSubmit is pgaio_io_prepare_submit: SUBMITTED, onto the tail of
// the in-flight list.
func (s *System) prepareSubmit(h *Handle) {
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
func (s *System) enterBatchmode() {
	if s.inBatch {
		panic("aio: starting batch while batch already in progress")
	}
	s.inBatch = true
}

func (s *System) exitBatchmode() {
	if !s.inBatch {
		panic("aio: exit of batch mode outside it")
	}
	s.submitStaged()
	s.inBatch = false
}

// haveStaged is pgaio_have_staged.
func (s *System) haveStaged() bool { return len(s.staged) > 0 }

// submitStaged is pgaio_submit_staged: the method's submit over all staged
// I/Os. worker: pgaio_worker_submit (each prepared, queued, and one idle
// worker woken; a full queue leaves the rest to be done synchronously);
// io_uring: pgaio_uring_submit (each prepared and handed to the kernel).
func (s *System) submitStaged() {
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

// performSynchronously is pgaio_io_perform_synchronously (aio_io.c): the
// preadv, then pgaio_io_process_completion, by who ("backend" or a
// worker).
func (s *System) performSynchronously(h *Handle, who string) {
	s.preadv(h, who, &s.now)
	s.processCompletion(h, who)
}

// preadv is the pg_preadv of the handle's blocks into its buffers, by who,
// whose simulated clock is at: the read takes ioCost of it, and the data
// is there when it ends (h.doneAt).
func (s *System) preadv(h *Handle, who string, at *uint64) {
	if h.state != HSSubmitted {
		panic(fmt.Sprintf("aio: preadv of handle %d in state %s", h.id, h.state))
	}
	for _, b := range h.buffers {
		d := s.Pool.desc(b)
		if !d.ioInProgress || d.valid {
			panic(fmt.Sprintf("aio: preadv into buffer %d (block %d) without its I/O in progress", b, d.block))
		}
		d.reads++
	}
	h.result = len(h.buffers)
	*at += s.ioCost(len(h.buffers))
	h.doneAt = *at
	s.stats.Reads++
	s.stats.BlocksRead += len(h.buffers)
	s.event(Event{Kind: KindPreadv, Handle: h.id, Block: h.block, N: len(h.buffers), Who: who})
}

// processCompletion is pgaio_io_process_completion (aio.c): COMPLETED_IO,
// the shared completion callbacks (shared_buffer_readv_complete →
// buffer_readv_complete → TerminateBufferIO(BM_VALID, release_aio) per
// buffer), COMPLETED_SHARED, the broadcast; and, when the completing
// process is the owner, pgaio_io_reclaim at once (local callbacks).
func (s *System) processCompletion(h *Handle, who string) {
	if h.state != HSSubmitted {
		panic(fmt.Sprintf("aio: completion of handle %d in state %s", h.id, h.state))
	}
	s.setState(h, HSCompletedIO)
	for _, b := range h.buffers {
		s.terminateBufferIO(b, true, true)
	}
	h.distilled = ioReturn{status: rsOK, result: h.result, doneAt: h.doneAt}
	s.setState(h, HSCompletedShared)
	s.stats.CompletedOrder = append(s.stats.CompletedOrder, h.id)
	s.event(Event{Kind: KindComplete, Handle: h.id, Block: h.block, N: len(h.buffers), Who: who})
	if who == "backend" {
		s.reclaim(h)
	}
}

// reclaim is pgaio_io_reclaim (aio.c), by the owner only: the local
// completion callbacks if COMPLETED_SHARED (shared_buffer_readv_complete_local,
// which only reports checksum failures) and COMPLETED_LOCAL, the result
// into the PgAioReturn, off the in-flight list, generation++, IDLE, onto
// the head of the idle list.
func (s *System) reclaim(h *Handle) {
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
func (s *System) wrefWait(w WaitRef) {
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
			// Our own unsubmitted I/O: the callers submit before waiting.
			panic(fmt.Sprintf("aio: waiting for own IO %d in state %s", h.id, h.state))
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
			s.block(fmt.Sprintf("handle %d", h.id), func() bool {
				return s.wasRecycled(w) || h.state == HSCompletedShared || h.state == HSCompletedLocal
			})
		case HSCompletedShared, HSCompletedLocal:
			// Waited for: the backend goes on once the data arrived.
			s.now = max(s.now, h.doneAt)
			s.reclaim(h)
			return
		}
	}
}

// wrefCheckDone is pgaio_wref_check_done (aio.c): done if recycled, idle,
// or COMPLETED_SHARED/LOCAL (the owner reclaims it then). It does not ask
// the method: under io_uring a completion waiting in the ring is not
// reaped here (the source's XXX), so the I/O reads as not done.
func (s *System) wrefCheckDone(w WaitRef) bool {
	if s.wasRecycled(w) {
		return true
	}
	h := s.h(w.index)
	switch h.state {
	case HSIdle:
		return true
	case HSCompletedShared, HSCompletedLocal:
		s.reclaim(h)
		return true
	}
	return false
}

// waitForFree is pgaio_io_wait_for_free (aio.c): reclaim every handle
// already COMPLETED_SHARED; if none, submit what is staged; if still no
// idle handle, wait for the oldest in-flight I/O.
func (s *System) waitForFree() {
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
func (s *System) bufferStageCommon(h *Handle) {
	w := s.wref(h)
	for i, b := range h.buffers {
		d := s.Pool.desc(b)
		if d.block != h.block+BlockNumber(i) {
			panic(fmt.Sprintf("aio: handle %d buffer %d holds block %d, want %d", h.id, i, d.block, h.block+BlockNumber(i)))
		}
		if d.valid || !d.ioInProgress || d.refcount < 1 || d.aioPin {
			panic(fmt.Sprintf("aio: staging buffer %d (block %d): valid %v, io in progress %v, refcount %d",
				b, d.block, d.valid, d.ioInProgress, d.refcount))
		}
		d.refcount++
		d.aioPin = true
		d.ioWref = w
	}
}

// startBufferIO is StartBufferIO(buf, forInput=true, nowait) (bufmgr.c):
// wait for (nowait: give up on) an I/O in progress, false if the buffer is
// valid by then, else set BM_IO_IN_PROGRESS and return true.
func (s *System) startBufferIO(buf Buffer, nowait bool) bool {
	for {
		d := s.Pool.desc(buf)
		if !d.ioInProgress {
			break
		}
		if nowait {
			return false
		}
		s.waitIO(buf)
	}
	d := s.Pool.desc(buf)
	if d.valid {
		return false
	}
	d.ioInProgress = true
	return true
}

// waitIO is WaitIO (bufmgr.c, PG 18): while BM_IO_IN_PROGRESS, wait on
// io_wref with pgaio_wref_wait if it is set (an asynchronous read);
// otherwise on the buffer's condition variable (someone's synchronous I/O:
// another backend, which this model does not have).
func (s *System) waitIO(buf Buffer) {
	for {
		d := s.Pool.desc(buf)
		if !d.ioInProgress {
			return
		}
		if !d.ioWref.valid {
			panic(fmt.Sprintf("aio: buffer %d has I/O in progress with no io_wref (another backend's synchronous I/O is not modelled)", buf))
		}
		s.wrefWait(d.ioWref)
	}
}

// terminateBufferIO is TerminateBufferIO(buf, clear_dirty=false,
// set_flag_bits, forget_owner=false, release_aio) as the read completion
// calls it: clear BM_IO_IN_PROGRESS, set BM_VALID, and with release_aio
// drop the AIO subsystem's pin and clear io_wref.
func (s *System) terminateBufferIO(buf Buffer, setValid, releaseAIO bool) {
	d := s.Pool.desc(buf)
	if !d.ioInProgress {
		panic(fmt.Sprintf("aio: TerminateBufferIO on buffer %d without I/O in progress", buf))
	}
	d.ioInProgress = false
	if releaseAIO {
		if !d.aioPin || d.refcount < 1 {
			panic(fmt.Sprintf("aio: buffer %d has no AIO pin to release", buf))
		}
		d.refcount--
		d.aioPin = false
		d.ioWref = WaitRef{}
	}
	if setValid {
		d.valid = true
	}
}

// CheckQuiet reports an error unless the system is at rest: every handle
// idle, nothing staged, queued or in the kernel, no buffer with I/O in
// progress, and no shared refcount beyond this backend's pins.
func (s *System) CheckQuiet() error {
	for i := range s.handles {
		if h := &s.handles[i]; h.state != HSIdle {
			return fmt.Errorf("aio: handle %d in state %s at rest", h.id, h.state)
		}
	}
	if len(s.staged)+len(s.queue)+len(s.kernel)+len(s.cq)+len(s.inFlight) > 0 || s.handedOut >= 0 {
		return fmt.Errorf("aio: %d staged, %d queued, %d in the kernel, %d completions, %d in flight at rest",
			len(s.staged), len(s.queue), len(s.kernel), len(s.cq), len(s.inFlight))
	}
	refs := 0
	for i := range s.Pool.descs {
		d := &s.Pool.descs[i]
		if d.ioInProgress || d.aioPin || d.ioWref.valid {
			return fmt.Errorf("aio: buffer %d (block %d) has I/O in progress at rest", i+1, d.block)
		}
		refs += d.refcount
	}
	if refs != s.Pool.Pins {
		return fmt.Errorf("aio: %d shared pins, the backend holds %d", refs, s.Pool.Pins)
	}
	return nil
}
