package aio

import (
	"fmt"
	"math/bits"
	"slices"
)

// workerPhase is where an I/O worker is in IoWorkerMain's loop
// (method_worker.c, PG 18).
type workerPhase uint8

const (
	// wSleeping: in WaitLatch, idle bit set; runnable once its latch is set.
	wSleeping workerPhase = iota
	// wLooking: back at the top of the loop after an I/O; runnable.
	wLooking
	// wGotJob: took a handle from the queue; its next step is the preadv.
	wGotJob
	// wRead: did the preadv; its next step is the completion.
	wRead
)

type workerState struct {
	phase workerPhase
	latch bool // its Latch is set
	job   int  // handle id, when phase is wGotJob or wRead
	jobAt int  // the step count when it took the job
	// clock is the worker's simulated time (the latency model): it takes
	// a job no earlier than the job's submission and spends the read's
	// cost on it.
	clock uint64
}

// workerSubmit is pgaio_worker_submit and pgaio_worker_submit_internal
// (method_worker.c): under AioWorkerSubmissionQueueLock, each I/O into the
// submission queue (a full queue: kept to run synchronously afterwards);
// the first time one goes in, the lowest idle worker is chosen
// (pgaio_worker_choose_idle clears its idle bit) and, after the lock, its
// latch is set. One submission wakes at most one worker: the woken worker
// wakes more (fan-out) when it finds the queue deeper.
func (s *Backend) workerSubmit(ids []int) {
	var sync []int
	woken := -1
	chosen := false
	for _, id := range ids {
		if len(s.queue)+1 >= s.queueLimit { // new_head == tail: full
			sync = append(sync, id)
			continue
		}
		s.queue = append(s.queue, id)
		if !chosen {
			chosen = true
			woken = s.chooseIdle()
		}
	}
	if woken >= 0 {
		s.workers[woken].latch = true
	}
	s.event(Event{Kind: KindSubmit, Handles: ids, Worker: woken})
	for _, id := range sync {
		s.stats.Synchronous++
		s.performSynchronously(s.h(id))
	}
}

// chooseIdle is pgaio_worker_choose_idle: the lowest set bit of
// idle_worker_mask, cleared; -1 when no worker is idle.
func (s *System) chooseIdle() int {
	if s.idleMask == 0 {
		return -1
	}
	w := bits.TrailingZeros64(s.idleMask)
	s.idleMask &^= 1 << w
	return w
}

// workerStep runs worker i's next step of IoWorkerMain:
//
//	dequeue  (LWLock, pgaio_worker_submission_queue_consume): empty →
//	         set own idle bit, WaitLatch; else clear own idle bit, wake
//	         Min(queue depth, IO_WORKER_WAKEUP_FANOUT) idle peers
//	read     (pgaio_io_reopen, pg_preadv): the blocks arrive; the handle
//	         stays SUBMITTED
//	complete (pgaio_io_process_completion): COMPLETED_IO, the shared
//	         callbacks (BM_VALID, the AIO pin released), COMPLETED_SHARED,
//	         the broadcast that wakes a waiting backend. The worker is not
//	         the owner: the handle stays COMPLETED_SHARED until the issuing
//	         backend reclaims it.
//
// pgaio_io_perform_synchronously does the read and the completion in one
// critical section; they are two steps here so that another process can
// run between the data arriving and the buffers becoming valid.
func (s *System) workerStep(i int) {
	w := &s.workers[i]
	switch w.phase {
	case wSleeping, wLooking:
		if w.phase == wSleeping {
			if !w.latch {
				panic(fmt.Sprintf("aio: worker %d stepped while asleep", i))
			}
			w.latch = false // WaitLatch returns, ResetLatch
		}
		if len(s.queue) == 0 {
			s.idleMask |= 1 << i
			w.phase = wSleeping
			s.event(Event{Kind: KindWorkerIdle, Worker: i, By: Proc(i)})
			return
		}
		id := s.queue[0]
		s.queue = s.queue[1:]
		s.idleMask &^= 1 << i
		var woke []int
		for n := min(len(s.queue), IOWorkerWakeupFanout); n > 0; n-- {
			p := s.chooseIdle()
			if p < 0 {
				break
			}
			woke = append(woke, p)
		}
		for _, p := range woke {
			s.workers[p].latch = true
		}
		s.dequeues++
		w.phase, w.job, w.jobAt = wGotJob, id, s.dequeues
		h := s.h(id)
		w.clock = max(w.clock, h.submitAt)
		s.event(Event{Kind: KindDequeue, Worker: i, Handle: id, Block: h.block, N: len(h.buffers), Handles: woke, By: Proc(i)})
	case wGotJob:
		s.preadv(s.h(w.job), fmt.Sprintf("worker %d", i), Proc(i), &w.clock)
		w.phase = wRead
	case wRead:
		s.processCompletion(s.h(w.job), fmt.Sprintf("worker %d", i), Proc(i))
		w.phase, w.job = wLooking, -1
	}
}

// uringKernelStep is the kernel finishing one I/O of its owner's ring:
// the read happens and a completion (CQE) is posted. Nothing in
// PostgreSQL runs: the handle stays SUBMITTED until someone drains the
// ring (pgaio_uring_drain_locked).
func (s *System) uringKernelStep(id int) {
	h := s.h(id)
	ring := h.owner
	for i, k := range ring.kernel {
		if k == id {
			ring.kernel = append(ring.kernel[:i:i], ring.kernel[i+1:]...)
			break
		}
	}
	// The device serves the rings' I/Os in parallel: each takes its cost
	// from its own submission, whatever else is in flight.
	at := h.submitAt
	s.preadv(h, "kernel", ByKernel, &at)
	h.cqe = true
	ring.cq = append(ring.cq, id)
}

// uringWaitOne is pgaio_uring_wait_one (method_io_uring.c) by backend s:
// under the owner's completion lock, until the handle is no longer
// SUBMITTED: drain the completions the owner's ring holds
// (pgaio_uring_drain_locked, each through pgaio_io_process_completion in
// this backend, which reclaims at once only if it is the owner), or wait
// in the kernel (io_uring_wait_cqes) for one.
func (s *Backend) uringWaitOne(h *Handle, w WaitRef) {
	ring := h.owner
	for {
		if s.wasRecycled(w) || h.state != HSSubmitted {
			return
		}
		if len(ring.cq) > 0 {
			s.uringDrain(ring)
			continue
		}
		s.waiter.Sleep(s, h.id, fmt.Sprintf("a completion for handle %d", h.id), func() bool { return len(ring.cq) > 0 })
	}
}

// uringDrain is pgaio_uring_drain_locked by backend s on ring's ring:
// every completion ready now, in the order the kernel posted them.
func (s *Backend) uringDrain(ring *Backend) {
	cq := ring.cq
	ring.cq = nil
	for _, id := range cq {
		h := s.h(id)
		h.cqe = false
		s.processCompletion(h, s.Name, ByBackend(s.id))
	}
}

// Actor is a process the scheduler can step: an I/O worker ("w0"), or,
// under io_uring, the kernel finishing one submitted I/O ("k3": handle 3).
type Actor struct {
	Name string
	// At is the simulated time at which its next step happens (the
	// latency model): a worker's clock, a kernel I/O's submission.
	At  uint64
	key int // ordering: workers by number, kernel I/Os by submission
	job int // when it took the I/O it holds (kernel: its submission); 0: none
	wkr int
	hid int
}

// Runnable lists the actors that can take a step now, in key order:
// workers whose latch is set or that are mid-loop; under io_uring, every
// submitted I/O the kernel has not finished.
func (s *System) Runnable() []Actor {
	var rs []Actor
	for i, w := range s.workers {
		if w.phase != wSleeping || w.latch {
			job := 0
			if w.phase == wGotJob || w.phase == wRead {
				job = w.jobAt
			}
			rs = append(rs, Actor{Name: fmt.Sprintf("w%d", i), At: w.clock, key: i, job: job, wkr: i, hid: -1})
		}
	}
	n := len(rs)
	for _, be := range s.backends {
		for _, id := range be.kernel {
			h := s.h(id)
			rs = append(rs, Actor{Name: fmt.Sprintf("k%d", id), At: h.submitAt, key: 1000 + h.seq, job: h.seq, wkr: -1, hid: id})
		}
	}
	slices.SortFunc(rs[n:], func(a, b Actor) int { return a.key - b.key })
	return rs
}

// Step takes one step of actor a.
func (s *System) Step(a Actor) {
	if a.wkr >= 0 {
		s.workerStep(a.wkr)
		return
	}
	s.uringKernelStep(a.hid)
}

// Background lets the scheduler take up to n steps, as the workers (or
// the kernel) run while the backend is busy elsewhere. It returns the
// steps taken.
func (s *System) Background(n int) int {
	taken := 0
	for ; taken < n; taken++ {
		rs := s.Runnable()
		if len(rs) == 0 {
			break
		}
		s.Step(rs[s.sched.Pick(rs)])
	}
	return taken
}

// Quiesce runs the actors until none can step (every queued I/O done and
// every worker asleep).
func (s *System) Quiesce() {
	for s.Background(1) == 1 {
	}
}

// stepper is the default Waiter: while the backend sleeps, the system's
// Scheduler steps the other processes until done() holds. No runnable
// process while not done is a deadlock in the model (a bug): it panics.
type stepper struct{}

func (stepper) Sleep(be *Backend, _ int, what string, done func() bool) { be.RunUntil(what, done) }

// RunUntil is the default way backend s sleeps: the system's Scheduler
// steps the other processes until done() holds (what says what it waits
// for). A host whose Waiter runs without processes of its own calls it.
func (be *Backend) RunUntil(what string, done func() bool) {
	s := be.System
	for !done() {
		rs := s.Runnable()
		if len(rs) == 0 {
			panic(fmt.Sprintf("aio: %s waits for %s, and nothing can run", be.Name, what))
		}
		s.Step(rs[s.sched.Pick(rs)])
		s.stats.BlockedSteps++
	}
}

// WorkerRunnable reports whether I/O worker i can take a step: its latch
// is set or it is in the middle of its loop (a host running the workers
// as processes of their own asks it before StepWorker).
func (s *System) WorkerRunnable(i int) bool {
	w := &s.workers[i]
	return w.phase != wSleeping || w.latch
}

// StepWorker takes I/O worker i's next step (dequeue, read or complete;
// see workerStep). It panics if the worker is asleep with its latch unset.
func (s *System) StepWorker(i int) { s.workerStep(i) }

// Workers is the number of I/O workers (io_method=worker; 0 otherwise).
func (s *System) Workers() int { return len(s.workers) }

// InKernel lists the handles the kernel has been given and not finished
// (io_method=io_uring), every backend's, in submission order: a host that
// runs the kernel as a process of its own picks one and StepKernel
// finishes it.
func (s *System) InKernel() []int {
	var ids []int
	for _, a := range s.Runnable() {
		if a.hid >= 0 {
			ids = append(ids, a.hid)
		}
	}
	return ids
}

// StepKernel is the kernel finishing handle id's read (uringKernelStep):
// the data arrives and a completion waits in the owner's ring.
func (s *System) StepKernel(id int) { s.uringKernelStep(id) }

// Scheduler picks which runnable actor steps next (an index into rs,
// which is never empty). Schedulers are deterministic.
type Scheduler interface {
	Pick(rs []Actor) int
}

type roundRobin struct{ last int }

// RoundRobin steps the actors in turn: the first runnable one after the
// last stepped, by key (w0, w1, w2, w0, ...; under io_uring the oldest
// I/O first). Workers then finish I/Os in the order they took them.
func RoundRobin() Scheduler { return &roundRobin{last: -1} }

func (r *roundRobin) Pick(rs []Actor) int {
	for i, a := range rs {
		if a.key > r.last {
			r.last = a.key
			return i
		}
	}
	r.last = rs[0].key
	return 0
}

type newestFirst struct{}

// NewestFirst lets every worker that can take an I/O take it first (the
// lowest-numbered such worker), then steps the one holding the I/O taken
// most recently; under io_uring the kernel finishes the newest I/O first.
// I/Os in flight together then complete newest first: out of order.
func NewestFirst() Scheduler { return newestFirst{} }

func (newestFirst) Pick(rs []Actor) int {
	best := 0
	for i, a := range rs {
		if a.job == 0 {
			return i
		}
		if a.job > rs[best].job {
			best = i
		}
	}
	return best
}

type earliestFirst struct{}

// EarliestFirst steps the actor whose next step is soonest in simulated
// time (Actor.At; ties: the first in key order), so that the I/O workers
// take jobs as real ones would, the one free first taking the next: the
// scheduler for timing the latency model, where the order of steps must
// follow the clocks.
func EarliestFirst() Scheduler { return earliestFirst{} }

func (earliestFirst) Pick(rs []Actor) int {
	best := 0
	for i, a := range rs {
		if a.At < rs[best].At {
			best = i
		}
	}
	return best
}

type seeded struct{ x uint64 }

// Seeded picks uniformly with a xorshift64* generator from seed: the same
// seed, the same schedule.
func Seeded(seed uint64) Scheduler { return &seeded{x: seed*2654435761 + 0x9E3779B97F4A7C15} }

func (r *seeded) Pick(rs []Actor) int {
	r.x ^= r.x >> 12
	r.x ^= r.x << 25
	r.x ^= r.x >> 27
	return int((r.x * 2685821657736338717) >> 33 % uint64(len(rs)))
}
