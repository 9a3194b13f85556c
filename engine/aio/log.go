package aio

import (
	"fmt"
	"strings"
)

// Kind is what an Event records.
type Kind uint8

const (
	KindStartRead   Kind = iota // the stream calls StartReadBuffers (Asked blocks; One: StartReadBuffer)
	KindStarted                 // ... and it returned: N covered, Wait, Handle = forwarded buffers
	KindAsyncRead               // AsyncReadBuffers got a handle and BM_IO_IN_PROGRESS on N blocks
	KindAlreadyDone             // AsyncReadBuffers found the block valid: no I/O
	KindStage                   // pgaio_io_stage: STAGED, waiting for submission
	KindSyncIO                  // pgaio_io_stage: executed synchronously by the backend
	KindSubmit                  // pgaio_submit_staged: Handles; Worker woken (-1 none)
	KindDequeue                 // a worker took Handle; Handles: peers it woke
	KindWorkerIdle              // a worker found the queue empty and sleeps
	KindPreadv                  // the read itself, by Who
	KindComplete                // pgaio_io_process_completion by Who: BM_VALID
	KindReclaim                 // pgaio_io_reclaim by the owner: IDLE again
	KindWaitRead                // WaitReadBuffers
	KindWaitIO                  // the backend sleeps on an I/O not yet complete
	KindPrefetch                // smgrprefetch (io_method=sync with advice)
	KindPinLimit                // a read deferred by GetAdditionalPinLimit
	KindUnget                   // read_stream_unget_block
	KindDistance                // the distance changes from N to Asked (Who: why)
	KindFastPath                // the fast path turns on (N 1) or off (N 0)
	KindDeliver                 // read_stream_next_buffer returns Block
	KindEnd                     // read_stream_next_buffer returns InvalidBuffer
)

// Event is one step of the model. Stamped events carry the stream's state
// after them.
type Event struct {
	Kind    Kind
	Block   BlockNumber
	N       int
	Asked   int
	Handle  int
	Handles []int
	Worker  int
	Who     string
	Wait    bool
	Advice  bool
	One     bool

	Stamped               bool
	Pinned, IOs, Distance int

	// By is who did it, for the handle's steps (stage, submit, dequeue,
	// complete, reclaim, a wait): a backend, a worker or the kernel.
	By Proc
}

// Log records events in order.
type Log struct{ Events []Event }

func (l *Log) add(e Event) {
	if l != nil {
		l.Events = append(l.Events, e)
	}
}

func (s *System) event(e Event) {
	s.log.add(e)
	if s.observe != nil {
		s.observe(e)
	}
}

// event records e as done by backend s.
func (s *Backend) event(e Event) {
	e.By = ByBackend(s.id)
	s.System.event(e)
}

// SetObserver makes f see every event as it happens (nil: none), after the
// log: how a host turns the handles' steps into events of its own.
func (s *System) SetObserver(f func(Event)) { s.observe = f }

func blocks(b BlockNumber, n int) string {
	if n <= 1 {
		return fmt.Sprint(b)
	}
	return fmt.Sprintf("%d..%d", b, b+BlockNumber(n)-1)
}

func handles(ids []int) string {
	var parts []string
	for _, id := range ids {
		parts = append(parts, fmt.Sprintf("h%d", id))
	}
	return strings.Join(parts, " ")
}

// Line is the event as one line of text (without the state).
func (e Event) Line() string {
	switch e.Kind {
	case KindStartRead:
		if e.One {
			return fmt.Sprintf("StartReadBuffer(%d)", e.Block)
		}
		return fmt.Sprintf("StartReadBuffers(%d, %d)", e.Block, e.Asked)
	case KindStarted:
		s := fmt.Sprintf("  -> %d", e.N)
		if e.Wait {
			s += ", wait"
		} else {
			s += ", hit"
		}
		if e.Handle > 0 {
			s += fmt.Sprintf(", %d forwarded", e.Handle)
		}
		if e.Advice {
			s += ", advice"
		}
		return s
	case KindAsyncRead:
		return fmt.Sprintf("  AsyncReadBuffers %s: h%d", blocks(e.Block, e.N), e.Handle)
	case KindAlreadyDone:
		return fmt.Sprintf("  AsyncReadBuffers %d: already valid", e.Block)
	case KindStage:
		return fmt.Sprintf("  h%d staged", e.Handle)
	case KindSyncIO:
		return fmt.Sprintf("  h%d executed synchronously", e.Handle)
	case KindSubmit:
		s := fmt.Sprintf("submit %s", handles(e.Handles))
		if e.Worker >= 0 {
			s += fmt.Sprintf(", wake w%d", e.Worker)
		}
		return s
	case KindDequeue:
		s := fmt.Sprintf("w%d takes h%d (%s)", e.Worker, e.Handle, blocks(e.Block, e.N))
		for _, w := range e.Handles {
			s += fmt.Sprintf(", wakes w%d", w)
		}
		return s
	case KindWorkerIdle:
		return fmt.Sprintf("w%d finds the queue empty, sleeps", e.Worker)
	case KindPreadv:
		return fmt.Sprintf("%s: preadv h%d %s [%d]", e.Who, e.Handle, blocks(e.Block, e.N), e.N)
	case KindComplete:
		return fmt.Sprintf("%s: complete h%d, BM_VALID %s", e.Who, e.Handle, blocks(e.Block, e.N))
	case KindReclaim:
		return fmt.Sprintf("reclaim h%d", e.Handle)
	case KindWaitRead:
		return fmt.Sprintf("WaitReadBuffers %s", blocks(e.Block, e.N))
	case KindWaitIO:
		return fmt.Sprintf("  sleep on h%d", e.Handle)
	case KindPrefetch:
		return fmt.Sprintf("  smgrprefetch %s", blocks(e.Block, e.N))
	case KindPinLimit:
		return fmt.Sprintf("pin limit: %d more pins allowed, pending %s waits", e.Asked, blocks(e.Block, e.N))
	case KindUnget:
		return fmt.Sprintf("unget %d", e.Block)
	case KindDistance:
		return fmt.Sprintf("distance %d -> %d (%s)", e.N, e.Asked, e.Who)
	case KindFastPath:
		if e.N == 1 {
			return "fast path on"
		}
		return "fast path off"
	case KindDeliver:
		return fmt.Sprintf("=> %d", e.Block)
	case KindEnd:
		return "=> InvalidBuffer"
	}
	return fmt.Sprintf("event %d", e.Kind)
}

// String is every event, one a line; a stream's events end with its
// state (pinned, I/Os in progress, distance).
func (l *Log) String() string {
	var b strings.Builder
	for _, e := range l.Events {
		line := e.Line()
		if e.Stamped && e.Kind != KindStartRead {
			line = fmt.Sprintf("%-46s pinned %d, ios %d, distance %d", line, e.Pinned, e.IOs, e.Distance)
		}
		b.WriteString(strings.TrimRight(line, " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// Summary is the reads (preadv sizes and who did them), how the distance
// moved, the completion order and the waits.
func (l *Log) Summary() string {
	var b strings.Builder
	var sizes, by []string
	var dist []string
	var order []string
	waits, sleeps, delivered := 0, 0, 0
	for _, e := range l.Events {
		switch e.Kind {
		case KindPreadv:
			sizes = append(sizes, fmt.Sprintf("%s[%d]", blocks(e.Block, e.N), e.N))
			by = append(by, e.Who)
		case KindComplete:
			order = append(order, blocks(e.Block, e.N))
		case KindDistance:
			if len(dist) == 0 {
				dist = append(dist, fmt.Sprint(e.N))
			}
			dist = append(dist, fmt.Sprint(e.Asked))
		case KindWaitRead:
			waits++
		case KindWaitIO:
			sleeps++
		case KindDeliver:
			delivered++
		}
	}
	fmt.Fprintf(&b, "reads: %d preadv\n", len(sizes))
	for i := 0; i < len(sizes); i += 8 {
		j := min(i+8, len(sizes))
		fmt.Fprintf(&b, "  %s\n", strings.Join(sizes[i:j], " "))
	}
	count := map[string]int{}
	var whos []string
	for _, w := range by {
		if count[w] == 0 {
			whos = append(whos, w)
		}
		count[w]++
	}
	var parts []string
	for _, w := range whos {
		parts = append(parts, fmt.Sprintf("%s %d", w, count[w]))
	}
	fmt.Fprintf(&b, "read by: %s\n", strings.Join(parts, ", "))
	fmt.Fprintf(&b, "completed: %s\n", strings.Join(order, " "))
	fmt.Fprintf(&b, "distance: %s\n", strings.Join(dist, " "))
	fmt.Fprintf(&b, "WaitReadBuffers: %d calls, %d slept on an I/O\n", waits, sleeps)
	fmt.Fprintf(&b, "delivered: %d buffers\n", delivered)
	return b.String()
}
