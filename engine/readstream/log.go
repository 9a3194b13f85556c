package readstream

import (
	"fmt"
	"strings"

	"bufferlab/engine/internal/enum"
	"bufferlab/engine/runs"
)

// Kind is what an Event records.
type Kind uint8

const (
	// KindStartRead is a StartReadBuffers(Block, Asked) call that covered
	// N blocks, IO of them to be read (Wait). With Advice it asked for
	// READ_BUFFERS_ISSUE_ADVICE, so a call with Wait also made one
	// smgrprefetch over the IO blocks.
	KindStartRead Kind = iota + 1
	// KindStartReadOne is a StartReadBuffer(Block) call (the fast path's).
	KindStartReadOne
	// KindWait is a WaitReadBuffers of the readable run Block..Block+N-1.
	KindWait
	// KindReadV is one smgrreadv of N blocks from Block.
	KindReadV
	// KindSkipIO is WaitReadBuffers skipping Block: StartBufferIO found it
	// valid (another backend, or an earlier read of this stream, read it).
	KindSkipIO
	// KindDistance is the look-ahead distance going from Before to After
	// by Rule.
	KindDistance
	// KindUnget is read_stream_unget_block(Block): the look-ahead took it
	// from the callback but must stop (max_ios reads in progress).
	KindUnget
	// KindDeliver is read_stream_next_buffer returning Block's buffer.
	KindDeliver
	// KindFastPath is the fast path turning on (After 1) or off (After 0).
	KindFastPath
	// KindEnd is read_stream_next_buffer returning InvalidBuffer.
	KindEnd
	// KindCall is the stream calling StartReadBuffers(Block, Asked) (One:
	// StartReadBuffer(Block)); its KindStartRead or KindStartReadOne
	// follows when it returns. 17's record leaves it out.
	KindCall
	// KindPinLimit is a pending read of N blocks from Block that waits:
	// GetAdditionalPinLimit allows Asked more pins (18).
	KindPinLimit
)

// Rule is why the distance changed: read_stream.c's behaviors A, B and C
// (17), the doubling after any wait and the pin limit (18), the end of the
// stream, or a reset.
type Rule uint8

const (
	// RuleA: a StartReadBuffers needed no I/O, distance−1 (down to 1).
	RuleA Rule = iota + 1
	// RuleB: a read without advice was waited for: distance×2 up to
	// io_combine_limit (and max_pinned_buffers), or −1 from above it.
	RuleB
	// RuleC: a read with advice was waited for: distance×2 up to
	// max_pinned_buffers.
	RuleC
	// RuleEnd: the callback returned InvalidBlockNumber, distance 0.
	RuleEnd
	// RuleReset: read_stream_reset (0 while draining, then 1).
	RuleReset
	// RuleIO (18): a read was waited for, advice or not: distance×2 up to
	// max_pinned_buffers.
	RuleIO
	// RulePinLimit (18): GetAdditionalPinLimit allows fewer pins than the
	// pending read needs: the distance drops to pinned + that limit.
	RulePinLimit
)

var ruleNames = [...]string{RuleA: "A", RuleB: "B", RuleC: "C", RuleEnd: "end", RuleReset: "reset", RuleIO: "I/O", RulePinLimit: "pin limit"}

func (r Rule) String() string { return enum.Name(ruleNames[:], r, "Rule") }

// Event is one step of a stream: a call it made into the buffer manager,
// a change of its distance, or a buffer it handed out. Stamped events also
// carry the stream's state after the step.
type Event struct {
	Kind         Kind
	Block        BlockNumber
	Asked, N, IO int
	Wait, Advice bool
	One          bool // KindCall: StartReadBuffer
	Forwarded    int  // KindStartRead: buffers a split read left pinned for the next call (18)
	Before       int
	After        int
	Rule         Rule

	Stamped      bool // the fields below are set
	Pinned, IOs  int
	Distance     int
	PendingBlock BlockNumber
	Pending      int
}

// Log is the record of one stream (and of StartReadBuffers and
// WaitReadBuffers calls made through operations with this log). A nil
// *Log records nothing.
type Log struct {
	Events []Event
}

// add appends e; nil-safe.
func (l *Log) add(e Event) {
	if l != nil {
		l.Events = append(l.Events, e)
	}
}

// span is "b" for one block, "b..e" for more.
func span(b BlockNumber, n int) string {
	if n == 1 {
		return fmt.Sprint(b)
	}
	return fmt.Sprintf("%d..%d", b, b+BlockNumber(n)-1)
}

// String is the event's line, e.g.
//
//	StartReadBuffers(3, 4) -> 3: read 3..4, hit 5, wait
//	smgrreadv 3..4 [2]
//	distance 4 -> 8 (B)
func (e Event) String() string {
	var s string
	switch e.Kind {
	case KindStartRead, KindStartReadOne:
		if e.Kind == KindStartRead {
			s = fmt.Sprintf("StartReadBuffers(%d, %d) -> %d: ", e.Block, e.Asked, e.N)
		} else {
			s = fmt.Sprintf("StartReadBuffer(%d): ", e.Block)
		}
		switch {
		case !e.Wait:
			s += "hit"
		case e.IO < e.N:
			s += fmt.Sprintf("read %s, hit %d", span(e.Block, e.IO), e.Block+BlockNumber(e.IO))
		default:
			s += "read " + span(e.Block, e.IO)
		}
		if e.Wait {
			s += ", wait"
			if e.Advice {
				s += ", advice"
			}
		}
	case KindWait:
		s = "WaitReadBuffers " + span(e.Block, e.N)
	case KindReadV:
		s = fmt.Sprintf("  smgrreadv %s [%d]", span(e.Block, e.N), e.N)
	case KindSkipIO:
		s = fmt.Sprintf("  skip %d: already valid", e.Block)
	case KindDistance:
		s = fmt.Sprintf("distance %d -> %d (%s)", e.Before, e.After, e.Rule)
	case KindUnget:
		s = fmt.Sprintf("unget %d", e.Block)
	case KindDeliver:
		s = fmt.Sprintf("=> %d", e.Block)
	case KindFastPath:
		if e.After == 1 {
			s = "fast path on"
		} else {
			s = "fast path off"
		}
	case KindEnd:
		s = "=> InvalidBuffer"
	case KindCall:
		s = fmt.Sprintf("call StartReadBuffers(%d, %d)", e.Block, e.Asked)
		if e.One {
			s = fmt.Sprintf("call StartReadBuffer(%d)", e.Block)
		}
	case KindPinLimit:
		s = fmt.Sprintf("pin limit: %d more pins allowed, pending %s waits", e.Asked, span(e.Block, e.N))
	default:
		s = fmt.Sprintf("Kind(%d)", uint8(e.Kind))
	}
	if !e.Stamped {
		return s
	}
	pend := "-"
	if e.Pending > 0 {
		pend = span(e.PendingBlock, e.Pending)
	}
	return fmt.Sprintf("%-53s pinned %d, ios %d, pending %s, distance %d", s, e.Pinned, e.IOs, pend, e.Distance)
}

// String is every event, one a line.
func (l *Log) String() string {
	var b strings.Builder
	for _, e := range l.Events {
		b.WriteString(e.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// Read is one smgrreadv: its first block and length.
type Read struct {
	Block BlockNumber
	N     int
}

// Reads is the smgrreadv calls in the order they were made.
func (l *Log) Reads() []Read {
	return collect(l, func(e Event) (Read, bool) { return Read{e.Block, e.N}, e.Kind == KindReadV })
}

// Delivered is the blocks handed to the consumer, in order.
func (l *Log) Delivered() []BlockNumber {
	return collect(l, func(e Event) (BlockNumber, bool) { return e.Block, e.Kind == KindDeliver })
}

// Starts is the StartReadBuffers and StartReadBuffer calls, in order.
func (l *Log) Starts() []Event {
	return collect(l, func(e Event) (Event, bool) { return e, e.Kind == KindStartRead || e.Kind == KindStartReadOne })
}

// collect is what pick takes of each of l's events, in order: its value
// for the events it keeps (ok), nil when it keeps none.
func collect[T any](l *Log, pick func(Event) (v T, ok bool)) []T {
	var out []T
	for _, e := range l.Events {
		if v, ok := pick(e); ok {
			out = append(out, v)
		}
	}
	return out
}

// Ranges writes a block sequence compactly: runs of consecutive blocks as
// "a..b", separated by spaces.
func Ranges(bs []BlockNumber) string {
	var parts []string
	for i, j := range runs.Of(len(bs), func(k int) bool { return bs[k] == bs[k-1]+1 }) {
		parts = append(parts, span(bs[i], j-i+1))
	}
	return strings.Join(parts, " ")
}

// Summary is a stream's record in a few lines: the StartReadBuffers calls
// (a run of single-block calls with the same outcome on consecutive
// blocks as one line), the reads (their sizes, then each one's blocks;
// run-length encoded past 20 reads), the distance's changes and the
// blocks delivered.
func (l *Log) Summary() string {
	var b strings.Builder
	starts := l.Starts()
	fmt.Fprintf(&b, "StartReadBuffers: %d calls\n", len(starts))
	for i, j := range runs.Of(len(starts), func(k int) bool { return sameRun(starts[k-1], starts[k]) }) {
		e := starts[i]
		if j-i < 2 || (e.N > 1 && len(starts) <= 20) {
			// A short run, or full-size reads in a summary short enough
			// to list: a line per call.
			for _, e := range starts[i : j+1] {
				fmt.Fprintf(&b, "  %s\n", Event{Kind: e.Kind, Block: e.Block, Asked: e.Asked, N: e.N, IO: e.IO,
					Wait: e.Wait, Advice: e.Advice})
			}
			continue
		}
		call := fmt.Sprintf("StartReadBuffers(b, %d) -> %d: ", e.N, e.N)
		if e.Kind == KindStartReadOne {
			call = "StartReadBuffer(b): "
		}
		out := "hit"
		if e.Wait {
			out = "read b, wait"
			if e.N > 1 {
				out = fmt.Sprintf("read b..b+%d, wait", e.N-1)
			}
			if e.Advice {
				out += ", advice"
			}
		}
		bs := fmt.Sprintf("%d..%d", e.Block, starts[j].Block)
		if e.N > 1 {
			bs = fmt.Sprintf("%d, %d, .., %d", e.Block, starts[i+1].Block, starts[j].Block)
		}
		fmt.Fprintf(&b, "  %s%s, for b = %s (%d calls)\n", call, out, bs, j-i+1)
	}
	reads := l.Reads()
	total := 0
	var sizes, spans []string
	var readBlocks []BlockNumber
	for _, r := range reads {
		total += r.N
		sizes = append(sizes, fmt.Sprintf("[%d]", r.N))
		spans = append(spans, span(r.Block, r.N))
		for k := 0; k < r.N; k++ {
			readBlocks = append(readBlocks, r.Block+BlockNumber(k))
		}
	}
	fmt.Fprintf(&b, "reads: %d smgrreadv calls, %d blocks\n", len(reads), total)
	if len(reads) > 20 {
		fmt.Fprintf(&b, "  sizes: %s\n", runLength(sizes))
		fmt.Fprintf(&b, "  blocks, in read order: %s\n", Ranges(readBlocks))
	} else if len(reads) > 0 {
		fmt.Fprintf(&b, "  sizes: %s\n", strings.Join(sizes, " "))
		fmt.Fprintf(&b, "  blocks: %s\n", strings.Join(spans, " | "))
	}
	var dist []string
	for _, e := range l.Events {
		if e.Kind != KindDistance {
			continue
		}
		if len(dist) == 0 {
			dist = append(dist, fmt.Sprint(e.Before))
		}
		dist = append(dist, fmt.Sprintf("-%s-> %d", e.Rule, e.After))
	}
	if len(dist) > 0 {
		fmt.Fprintf(&b, "distance: %s\n", strings.Join(dist, " "))
	}
	d := l.Delivered()
	fmt.Fprintf(&b, "delivered: %d buffers: %s\n", len(d), Ranges(d))
	return b.String()
}

// sameRun reports whether start b continues a's run: the same call and
// outcome, both covering all they asked (and reading all of it, if they
// read), b starting where a ended.
func sameRun(a, b Event) bool {
	full := func(e Event) bool { return e.N == e.Asked && (!e.Wait || e.IO == e.N) }
	return a.Kind == b.Kind && a.Wait == b.Wait && a.Advice == b.Advice && a.N == b.N &&
		full(a) && full(b) && b.Block == a.Block+BlockNumber(a.N)
}

// runLength joins words, writing a run of k ≥ 3 equal ones as "w×k".
func runLength(words []string) string {
	var out []string
	for i, j := range runs.Of(len(words), func(k int) bool { return words[k] == words[k-1] }) {
		if j-i >= 2 {
			out = append(out, fmt.Sprintf("%s×%d", words[i], j-i+1))
		} else {
			out = append(out, words[i:j+1]...)
		}
	}
	return strings.Join(out, " ")
}
