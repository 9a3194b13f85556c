package aio

import (
	"fmt"

	"bufferlab/engine/readstream"
)

// Callback is a ReadStreamBlockNumberCB: the next block, or
// InvalidBlockNumber at the end.
type Callback = readstream.Callback

// ReadStream is PostgreSQL 18.4's read stream: engine/readstream's model
// of read_stream.c at readstream.V18 (forwarded buffers, the pin limit
// asked before each read, one distance rule, the advice heuristic of
// io_method=sync, batch mode), reading through this package's
// StartReadBuffers and WaitReadBuffers on a Backend's AIO handles.
type ReadStream = readstream.ReadStream

// StreamStats and Params are engine/readstream's: what one stream did,
// and what read_stream_begin_impl chose.
type (
	StreamStats = readstream.Stats
	Params      = readstream.Params
)

// Begin is read_stream_begin_impl (read_stream.c, PG 18.4) for a stream
// with the flags and strategy of the backend's Config.
func Begin(be *Backend, cb Callback) (*ReadStream, error) {
	if be == nil {
		return nil, fmt.Errorf("aio: Begin needs a backend and a callback")
	}
	return BeginWith(be, be.cfg.Flags, be.cfg.Strategy, cb)
}

// BeginWith is Begin for a stream with its own flags and strategy (the
// system's Config gives the GUCs): read_stream_begin_relation's arguments,
// as heap_beginscan passes them for each scan. The stream sizes itself
// with GetPinLimit (MaxProportionalPins), takes sync_mode from io_method
// and batch_mode from READ_STREAM_USE_BATCHING.
func BeginWith(be *Backend, flags readstream.Flags, strategy Strategy, cb Callback) (*ReadStream, error) {
	if be == nil || cb == nil {
		return nil, fmt.Errorf("aio: Begin needs a backend and a callback")
	}
	var record func(readstream.Event)
	if be.log != nil {
		record = be.streamEvent
	}
	return readstream.Begin18(be.cfg.streamConfig(flags, strategy), streamBackend{be}, cb, record)
}

// streamBackend is a backend as its read streams call it
// (readstream.AIOBufferManager): ReadBuffersOperations of its own, its
// buffer manager's ReleaseBuffer, BufferGetBlockNumber and pin limits,
// and its batch mode.
type streamBackend struct{ be *Backend }

func (b streamBackend) NewOperation() readstream.Operation {
	op := NewReadBuffersOperation(b.be)
	return &op
}

func (b streamBackend) ReleaseBuffer(buf Buffer) { b.be.Buffers.ReleaseBuffer(buf) }

func (b streamBackend) BufferGetBlockNumber(buf Buffer) BlockNumber {
	return b.be.Buffers.BufferGetBlockNumber(buf)
}

// GetPinLimit is GetPinLimit (bufmgr.c, PG 18): MaxProportionalPins.
func (b streamBackend) GetPinLimit() int { return b.be.maxPinsPer }

// GetAdditionalPinLimit is GetAdditionalPinLimit (bufmgr.c, PG 18), as
// the backend's buffer manager counts the pins it holds.
func (b streamBackend) GetAdditionalPinLimit() int {
	return b.be.Buffers.GetAdditionalPinLimit(b.be.maxPinsPer)
}

func (b streamBackend) EnterBatchmode() { b.be.enterBatchmode() }
func (b streamBackend) ExitBatchmode()  { b.be.exitBatchmode() }

// streamEvent writes a stream's step into the backend's log, in this
// package's words, with the stream's state after it.
func (s *Backend) streamEvent(e readstream.Event) {
	a := Event{Block: e.Block, Stamped: e.Stamped, Pinned: e.Pinned, IOs: e.IOs, Distance: e.Distance}
	switch e.Kind {
	case readstream.KindCall:
		a.Kind, a.Asked, a.One = KindStartRead, e.Asked, e.One
	case readstream.KindStartRead, readstream.KindStartReadOne:
		a.Kind, a.Asked, a.N, a.Wait, a.Advice, a.Handle = KindStarted, e.Asked, e.N, e.Wait, e.Advice, e.Forwarded
		a.One = e.Kind == readstream.KindStartReadOne
	case readstream.KindDistance:
		a.Kind, a.N, a.Asked, a.Who = KindDistance, e.Before, e.After, e.Rule.String()
		if e.Rule == readstream.RuleA {
			a.Who = "hit" // behavior A: a read that needed no I/O
		}
	case readstream.KindPinLimit:
		a.Kind, a.N, a.Asked = KindPinLimit, e.N, e.Asked
	case readstream.KindUnget:
		a.Kind = KindUnget
	case readstream.KindFastPath:
		a.Kind, a.N = KindFastPath, e.After
	case readstream.KindDeliver:
		a.Kind = KindDeliver
	case readstream.KindEnd:
		a.Kind = KindEnd
	default:
		panic(fmt.Sprintf("aio: a stream event %v of no meaning here", e.Kind))
	}
	s.log.add(a)
}

// The stream's calls on an operation (readstream.Operation).

// Start is StartReadBuffers(op, ...).
func (op *ReadBuffersOperation) Start(buffers []Buffer, blockNum BlockNumber, nblocks *int, flags readstream.ReadBuffersFlag) bool {
	return StartReadBuffers(op, buffers, blockNum, nblocks, flags)
}

// StartOne is StartReadBuffer(op, ...).
func (op *ReadBuffersOperation) StartOne(buffer []Buffer, blockNum BlockNumber, flags readstream.ReadBuffersFlag) bool {
	return StartReadBuffer(op, buffer, blockNum, flags)
}

// Wait is WaitReadBuffers(op).
func (op *ReadBuffersOperation) Wait() { WaitReadBuffers(op) }

// Flags is op->flags, BlockNum op->blocknum, IOBuffersLen op->nblocks
// (18's operation covers the blocks of its I/O only).
func (op *ReadBuffersOperation) Flags() readstream.ReadBuffersFlag { return op.flags }
func (op *ReadBuffersOperation) BlockNum() BlockNumber             { return op.blocknum }
func (op *ReadBuffersOperation) IOBuffersLen() int                 { return op.nblocks }
