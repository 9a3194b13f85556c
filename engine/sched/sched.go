package sched

import (
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"strings"

	"bufferlab/engine/trace"
)

// Point is what a backend yields: the site of the shared-memory operation
// it will perform when next resumed, and whether it is waiting (retrying an
// operation that cannot succeed until another backend acts).
type Point struct {
	Site trace.Site
	Wait bool
	// Until, when set, puts the backend to sleep (a latch, a condition
	// variable: PostgreSQL 18's I/O worker waiting for work, a backend
	// waiting for an AIO read): it is not resumed, and so takes no step,
	// until Until reports true, because another backend acted.
	Until func() bool
}

// Yield is called by engine code before each shared-memory operation. A nil
// Yield means "not scheduled": the code runs straight through (fast mode).
type Yield func(Point)

// Body is a simulated backend's program.
type Body func(y Yield) error

// Proc is one running backend.
type Proc struct {
	Actor   trace.Actor
	Name    string
	next    func() (Point, bool)
	stop    func()
	pending Point
	done    bool
	err     error
	steps   int
	// waitEpoch is the scheduler's progress epoch when this backend last
	// yielded Wait; a waiter whose epoch is older has not retried since
	// someone made progress.
	waitEpoch int
	// stale is set by Step just before Pick: the backend is waiting and
	// has retried since the last step that made progress, so resuming it
	// again cannot change anything shared (Explore skips it).
	stale bool
}

// Pending is the operation the backend will perform when next resumed.
func (p *Proc) Pending() Point { return p.pending }

// Done reports whether the backend's body has returned.
func (p *Proc) Done() bool { return p.done }

// Err is the error the body returned, if it has returned.
func (p *Proc) Err() error { return p.err }

// Steps is how many times this backend has been resumed.
func (p *Proc) Steps() int { return p.steps }

// errAbort unwinds a body whose coroutine is being stopped early.
type abortSignal struct{}

// Policy chooses which live backend runs at each step.
type Policy interface {
	// Pick returns an index into live (never empty). step counts from 0.
	Pick(live []*Proc, step int) (int, error)
	// Name describes the policy for reports.
	Name() string
}

// ErrDeadlock is returned when every live backend is waiting.
var ErrDeadlock = errors.New("deadlock: every live backend is waiting")

// ErrStepLimit is returned when a run exceeds its step limit.
var ErrStepLimit = errors.New("step limit exceeded")

// Scheduler runs a set of backends under a policy.
type Scheduler struct {
	procs    []*Proc
	policy   Policy
	record   []trace.Actor
	live     []*Proc // Step's list of live backends, reused: no allocation a step
	awake    []*Proc // Step's live backends not asleep, when some sleep: reused too
	steps    int
	epoch    int // bumped by every step that makes progress
	MaxSteps int // 0 means DefaultMaxSteps
}

// DefaultMaxSteps bounds a run when MaxSteps is 0.
const DefaultMaxSteps = 10_000_000

// New returns a scheduler with the given policy.
func New(p Policy) *Scheduler { return &Scheduler{policy: p} }

// Policy returns the scheduler's policy.
func (s *Scheduler) Policy() Policy { return s.policy }

// Spawn starts a backend: it runs body up to its first Yield (private work
// only, no shared-memory operation) or to its end.
func (s *Scheduler) Spawn(actor trace.Actor, name string, body Body) *Proc {
	p := &Proc{Actor: actor, Name: name}
	seq := func(yield func(Point) bool) {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(abortSignal); ok {
					return
				}
				panic(r)
			}
		}()
		p.err = body(func(pt Point) {
			if !yield(pt) {
				panic(abortSignal{})
			}
		})
	}
	p.next, p.stop = iter.Pull(iter.Seq[Point](seq))
	s.procs = append(s.procs, p)
	s.advance(p)
	p.waitEpoch = -1
	return p
}

// Yielder is what a process drives: a backend whose operations yield
// through the hook SetYield installs (nil: they run straight through).
type Yielder interface{ SetYield(Yield) }

// SpawnDriving is Spawn for a process that drives ws (a buffer pool
// backend, and its SLRU backend where it has one): while body runs, each
// one's hook is the process's Yield, so their operations yield to s at
// every step and wait; after it they run straight through again.
func (s *Scheduler) SpawnDriving(actor trace.Actor, name string, body Body, ws ...Yielder) *Proc {
	return s.Spawn(actor, name, func(y Yield) error {
		for _, w := range ws {
			w.SetYield(y)
			defer w.SetYield(nil)
		}
		return body(y)
	})
}

func (s *Scheduler) advance(p *Proc) {
	pt, ok := p.next()
	if !ok {
		p.done = true
		p.stop()
		return
	}
	p.pending = pt
}

// Procs returns every backend spawned, live or done, in spawn order.
func (s *Scheduler) Procs() []*Proc { return s.procs }

// Live returns the backends that have not finished, in spawn order.
func (s *Scheduler) Live() []*Proc {
	var live []*Proc
	for _, p := range s.procs {
		if !p.done {
			live = append(live, p)
		}
	}
	return live
}

// Record is the schedule that ran: the actor resumed at each step.
func (s *Scheduler) Record() []trace.Actor { return append([]trace.Actor(nil), s.record...) }

// TakeRecord is Record without the copy, for a caller done with the
// scheduler: it hands over the schedule (two bytes a step: a
// million-block read's 25M steps are 50 MB) and the scheduler keeps none.
func (s *Scheduler) TakeRecord() []trace.Actor {
	r := s.record
	s.record = nil
	return r
}

// Steps is the number of steps run so far.
func (s *Scheduler) Steps() int { return s.steps }

// Step resumes one backend chosen by the policy. It returns false when no
// backend is live.
func (s *Scheduler) Step() (bool, error) {
	live := s.live[:0]
	for _, p := range s.procs {
		if !p.done {
			live = append(live, p)
		}
	}
	s.live = live
	if len(live) == 0 {
		return false, nil
	}
	// Sleeping backends are not among those the policy picks from, until
	// what they sleep on holds.
	awake := live
	for i, p := range live {
		if p.pending.Until != nil && !p.pending.Until() {
			// Filter into the scheduler's own slice (no allocation a step).
			awake = append(s.awake[:0], live[:i]...)
			for _, q := range live[i+1:] {
				if q.pending.Until == nil || q.pending.Until() {
					awake = append(awake, q)
				}
			}
			s.awake = awake
			break
		}
	}
	if len(awake) == 0 || s.deadlocked(awake) {
		return false, ErrDeadlock
	}
	live = awake
	for _, p := range live {
		p.stale = p.pending.Wait && p.waitEpoch == s.epoch
	}
	i, err := s.policy.Pick(live, s.steps)
	if err != nil {
		return false, err
	}
	p := live[i]
	s.record = append(s.record, p.Actor)
	s.steps++
	p.steps++
	wasWaiting := p.pending.Wait
	s.advance(p)
	// A step makes progress unless it was a retry that must be retried
	// again: a backend resumed while waiting that yields waiting once more.
	// (The first attempt of any operation yields without Wait, so a retry
	// that succeeded never looks like one that failed.)
	if p.done || !wasWaiting || !p.pending.Wait {
		s.epoch++
	} else {
		p.waitEpoch = s.epoch
	}
	return true, nil
}

// deadlocked reports whether every live backend is waiting and has retried
// since the last step that made progress: then nothing can change.
func (s *Scheduler) deadlocked(live []*Proc) bool {
	for _, p := range live {
		if !p.pending.Wait || p.waitEpoch != s.epoch {
			return false
		}
	}
	return true
}

// Run steps until no backend is live, an error occurs, or the step limit is
// reached.
func (s *Scheduler) Run() error {
	limit := s.MaxSteps
	if limit == 0 {
		limit = DefaultMaxSteps
	}
	for {
		if s.steps >= limit {
			s.Stop()
			return fmt.Errorf("%w (%d steps)", ErrStepLimit, limit)
		}
		more, err := s.Step()
		if err != nil {
			s.Stop()
			return err
		}
		if !more {
			return nil
		}
	}
}

// Stop ends every live backend's coroutine.
func (s *Scheduler) Stop() {
	for _, p := range s.procs {
		if !p.done {
			p.done = true
			p.stop()
		}
	}
}

// RoundRobin resumes live backends in turn. A waiting backend gets its turn
// too and retries (a spinning backend burns its time slice, as in
// PostgreSQL).
type RoundRobin struct{ last trace.Actor }

// Name implements Policy.
func (*RoundRobin) Name() string { return "round-robin" }

// Pick implements Policy.
func (r *RoundRobin) Pick(live []*Proc, step int) (int, error) {
	// The first live backend after the last one resumed, wrapping.
	for i, p := range live {
		if p.Actor > r.last {
			r.last = p.Actor
			return i, nil
		}
	}
	r.last = live[0].Actor
	return 0, nil
}

// Random resumes a uniformly chosen live backend, waiting or not, from a
// PCG generator seeded by Seed. (Waiting backends retry, so a holder and
// its waiters interleave as they would on real cores.)
type Random struct {
	Seed uint64
	rng  *rand.Rand
}

// NewRandom returns a seeded random policy.
func NewRandom(seed uint64) *Random {
	return &Random{Seed: seed, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// Name implements Policy.
func (r *Random) Name() string { return fmt.Sprintf("random(seed=%d)", r.Seed) }

// Pick implements Policy.
func (r *Random) Pick(live []*Proc, step int) (int, error) {
	return r.rng.IntN(len(live)), nil
}

// Script resumes the named backends in order; when the list is exhausted it
// defers to Then (an error if Then is nil).
type Script struct {
	Actors []trace.Actor
	Then   Policy
	pos    int
}

// Name implements Policy.
func (s *Script) Name() string {
	var b strings.Builder
	fmt.Fprintf(&b, "script(%d steps", len(s.Actors))
	if s.Then != nil {
		fmt.Fprintf(&b, ", then %s", s.Then.Name())
	}
	b.WriteString(")")
	return b.String()
}

// Used is how many entries of the script have been consumed.
func (s *Script) Used() int { return s.pos }

// Pick implements Policy. Picking a backend that has finished is an error
// naming the step, since a script that does so does not say what it means.
func (s *Script) Pick(live []*Proc, step int) (int, error) {
	if s.pos < len(s.Actors) {
		a := s.Actors[s.pos]
		s.pos++
		for i, p := range live {
			if p.Actor == a {
				return i, nil
			}
		}
		return 0, fmt.Errorf("schedule step %d names %s, which has no operation left to run", s.pos, trace.ActorName(a))
	}
	if s.Then == nil {
		return 0, fmt.Errorf("schedule exhausted after %d steps with backends still running", len(s.Actors))
	}
	return s.Then.Pick(live, step)
}
