package bufmgr

import (
	"fmt"

	"bufferlab/engine/readstream"
	"bufferlab/engine/trace"
)

// PostgreSQL 17's read path (config pg=17): every read goes through
// StartReadBuffers and WaitReadBuffers (bufmgr.c, REL_17_9), and a
// sequential scan reads through a read stream (read_stream.c, modelled in
// engine/readstream) that looks ahead and combines up to io_combine_limit
// consecutive blocks into one smgrreadv. The buffer manager under it is
// 16's BufferAlloc (alloc16.go) without StartBufferIO: a buffer comes back
// pinned and tagged but not valid, and only WaitReadBuffers claims its
// I/O (StartBufferIO) and reads it.
//
// engine/readstream is pure: it calls the buffer manager through its Pool
// interface, which streamPool implements with this backend's modelled
// functions, so every pin, lock and read a stream makes yields to the
// scheduler and emits its events like any other.

// streamPool is one backend's buffer manager as StartReadBuffers,
// WaitReadBuffers and a read stream over one fork of one relation see it
// (readstream.Pool and readstream.Observer).
type streamPool struct {
	b        *Backend
	rel      *Relation
	fork     ForkNumber
	strategy *Strategy
}

// streamAbort carries an ERROR raised inside a Pool method (no unpinned
// buffers) out of engine/readstream, which has no errors to return: the
// caller recovers it, as PostgreSQL's ereport longjmps out of the stream.
type streamAbort struct{ err error }

// guard runs f and returns the ERROR a Pool method raised in it, if any.
// The stream is then abandoned with its pins, which the transaction's
// abort releases (the runner's AbortTransaction), as resource-owner
// cleanup does in PostgreSQL.
func guard(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			a, ok := r.(streamAbort)
			if !ok {
				panic(r)
			}
			err = a.err
		}
	}()
	f()
	return nil
}

func (sp *streamPool) desc(buf readstream.Buffer) *BufferDesc { return &sp.b.pool.descs[buf-1] }

// PinBufferForBlock is PinBufferForBlock (bufmgr.c, REL_17_9): BufferAlloc
// for the block, counting a hit when the buffer was valid. Events: the
// allocation's, then a hit at startread.hit or a miss at startread.miss
// (Arg = packed tag).
func (sp *streamPool) PinBufferForBlock(block readstream.BlockNumber) (readstream.Buffer, bool) {
	return sp.pinBufferForBlock(block, s17StartHit, s17StartMiss)
}

// pinBufferForBlock is PinBufferForBlock with its hit and miss sites (17's
// or 18's: the function is the same in both).
func (sp *streamPool) pinBufferForBlock(block readstream.BlockNumber, hit, miss trace.Site) (readstream.Buffer, bool) {
	b := sp.b
	tag := sp.rel.Tag(sp.fork, uint32(block))
	d, found, err := b.bufferAlloc16(sp.rel, tag, sp.strategy, false)
	if err != nil {
		panic(streamAbort{err})
	}
	if found {
		b.Stats.Hits++
		b.emitTag(trace.KHit, hit, trace.OBuffer, d.bufID, 0, 0, &tag)
	} else {
		b.Stats.Misses++
		b.emitTag(trace.KMiss, miss, trace.OBuffer, d.bufID, 0, 0, &tag)
	}
	return readstream.Buffer(d.bufID + 1), found
}

// Prefetch is smgrprefetch's posix_fadvise: no shared state, nothing to
// model (a sequential scan's stream never asks for it).
func (sp *streamPool) Prefetch(readstream.BlockNumber, int) {}

// StartBufferIO is StartBufferIO(buf, forInput = true, nowait).
func (sp *streamPool) StartBufferIO(buf readstream.Buffer, nowait bool) bool {
	return sp.b.startBufferIOWait(sp.desc(buf), true, nowait)
}

// ReadV is smgrreadv of len(bufs) consecutive blocks from first, then
// TerminateBufferIO(BM_VALID) for each: one step, then one io-read event
// per block at waitread.readv (Arg = packed tag, Before = the block's
// place in the call, After = the call's blocks when more than one; a
// one-block read is After 0, as PostgreSQL 15's smgrread).
//
// Cost: one system call (preadv) for the whole run.
func (sp *streamPool) ReadV(first readstream.BlockNumber, bufs []readstream.Buffer) {
	b := sp.b
	sp.readv(b, s17ReadV, bufs)
	b.ioCall(len(bufs))
	for _, buf := range bufs {
		b.terminateBufferIO(sp.desc(buf), false, BmValid)
	}
}

// readv is one read call of bufs' blocks by who at site: one step, then
// an io-read event per block (Before = its place, After = the call's
// blocks, 0 for one), each buffer's I/O in progress and not valid.
func (sp *streamPool) readv(who *Backend, site trace.Site, bufs []readstream.Buffer) {
	who.step(site)
	n := uint64(len(bufs))
	if n == 1 {
		n = 0
	}
	for i, buf := range bufs {
		d := sp.desc(buf)
		if s := d.state.Load(); s&BmIOInProgress == 0 || s&BmValid != 0 {
			panic(fmt.Sprintf("bufmgr: a read into buffer %d without its I/O in progress: %s", d.bufID, StateString(s)))
		}
		who.emitTag(trace.KIORead, site, trace.OBuffer, d.bufID, uint64(i), n, &d.tag)
	}
	who.pool.noteRead(len(bufs))
}

// ReleaseBuffer drops one pin (the consumer's, or the stream's at its end).
func (sp *streamPool) ReleaseBuffer(buf readstream.Buffer) { sp.b.unpinBuffer(sp.desc(buf)) }

// BufferGetBlockNumber reads the pinned buffer's tag.
func (sp *streamPool) BufferGetBlockNumber(buf readstream.Buffer) readstream.BlockNumber {
	return readstream.BlockNumber(sp.desc(buf).tag.BlockNum)
}

// Begin marks a StartReadBuffers or WaitReadBuffers call's start: a call
// event (Obj = relation, Before = first block, After = blocks asked or to
// read, Arg 0) at startread.begin or waitread.begin, in the step of the
// call's first shared-memory event (no yield of its own: the call touches
// nothing shared until then).
func (sp *streamPool) Begin(k readstream.Kind, block readstream.BlockNumber, n int) {
	site := s17StartBegin
	if k == readstream.KindWait {
		site = s17WaitBegin
	}
	sp.b.emit(trace.KCall, site, trace.ORelation, int32(sp.rel.Number), uint64(block), uint64(n), 0)
}

// End marks the call's end: a call event with Arg 1 at startread.done
// (After = blocks covered, the run cut at the first hit) or waitread.done
// (After = smgrreadv calls made). It is the same step as the call's last
// shared-memory event.
func (sp *streamPool) End(e readstream.Event) {
	site, after := s17StartDone, uint64(e.N)
	if e.Kind == readstream.KindWait {
		site, after = s17WaitDone, uint64(e.IO)
	}
	sp.b.emit(trace.KCall, site, trace.ORelation, int32(sp.rel.Number), uint64(e.Block), after, 1)
}

// readBuffer17 is ReadBuffer_common (bufmgr.c, REL_17_9) for RBM_NORMAL:
// StartReadBuffer for the one block and, when it is not valid,
// WaitReadBuffers. Events: an op at read17.begin (Arg = packed tag), the
// calls' events, and an op-done at read17.done.
//
// Cost: as 15's for a hit; a miss adds the call events' steps.
func (b *Backend) readBuffer17(rel *Relation, f ForkNumber, blk uint32, strategy *Strategy) (Buffer, bool, error) {
	tag := rel.Tag(f, blk)
	if blk >= rel.NBlocks[f] {
		return InvalidBuffer, false, b.readPastEnd(rel, s17ReadEOF, errBeyondEOF17(rel, f, blk))
	}
	b.emitTag(trace.KOp, s17ReadBegin, trace.ORelation, int32(rel.Number), 0, 0, &tag)
	sp := &streamPool{b: b, rel: rel, fork: f, strategy: strategy}
	op := readstream.NewReadBuffersOperation(sp, nil)
	var bufs [1]readstream.Buffer
	need := false
	if err := guard(func() {
		if need = readstream.StartReadBuffer(&op, bufs[:], readstream.BlockNumber(blk), 0); need {
			readstream.WaitReadBuffers(&op)
		}
	}); err != nil {
		return InvalidBuffer, false, err
	}
	d := sp.desc(bufs[0])
	b.emitTag(trace.KOpDone, s17ReadDone, trace.OBuffer, d.bufID, 0, 0, &tag)
	return Buffer(bufs[0]), !need, nil
}

// errBeyondEOF17 is mdreadv's ERROR (md.c, REL_17_9) for one block.
func errBeyondEOF17(rel *Relation, f ForkNumber, blk uint32) *PGError {
	return &PGError{Code: ErrReadBeyondEOF, Msg: fmt.Sprintf(
		"could not read blocks %d..%d in file \"base/%d/%d%s\": read only 0 of 8192 bytes",
		blk, blk, DefaultDatabaseOid, rel.Number, forkSuffix(f))}
}

// seqScanStream is a whole heap sequential scan as PostgreSQL 17 runs it
// (heapam.c, REL_17_9: initscan, heap_beginscan, heap_fetch_next_buffer,
// heap_scan_stream_read_next_serial, heap_endscan): the same ring and
// synchronized start as 15, but the pages come from a read stream, whose
// callback reports the scan's position ahead of the page being read.
// At most one consumer pin plus the stream's look-ahead pins are held.
//
// Events: an op at scan17.init (Obj = relation, Before = start block,
// After = blocks, Arg = ring size), the stream's calls, and an op-done at
// scan17.end (After = blocks).
func (b *Backend) seqScanStream(rel *Relation) error {
	p := b.pool
	strategy, n, start, allowSync := b.initScan(rel, s17ScanInit)
	cfg := readstream.DefaultConfig(readstream.Sequential)
	cfg.NBuffers, cfg.IOCombineLimit, cfg.EffectiveIOConcurrency = p.NBuffers, p.ioCombineLimit, p.effectiveIOConcurrency
	cfg.PrivateRefCountOverflowed = b.refOverflowed
	if strategy != nil {
		cfg.Strategy = readstream.Strategy{Type: readstream.BulkRead, Buffers: strategy.RingSize()}
	}
	if n > 0 {
		sp := &streamPool{b: b, rel: rel, fork: MainForkNum, strategy: strategy}
		s, err := readstream.Begin(cfg, sp, b.heapScanNext(rel, n, start, allowSync), nil)
		if err != nil {
			return err
		}
		if err := guard(func() { drain(s.NextBuffer, sp.ReleaseBuffer); s.End() }); err != nil {
			return err
		}
	}
	b.emit(trace.KOpDone, s17ScanEnd, trace.ORelation, int32(rel.Number), 0, uint64(n), 0)
	return nil
}

// initScan is initscan and heap_beginscan up to the stream (heapam.c,
// REL_17_9 and REL_18_4): the ring and synchronized start above NBuffers/4
// blocks, the op event at site (Obj = relation, Before = start block,
// After = blocks, Arg = ring size), then ss_get_location's start.
func (b *Backend) initScan(rel *Relation, site trace.Site) (strategy *Strategy, n, start uint32, allowSync bool) {
	p := b.pool
	b.step(site)
	n = rel.NBlocks[MainForkNum]
	if uint64(n) > uint64(p.NBuffers/4) {
		strategy = p.GetAccessStrategy(BASBulkRead)
		allowSync = p.syncScans
	}
	if allowSync {
		start = p.ss.startFor(rel.RelFileNode(), n)
	}
	b.emit(trace.KOp, site, trace.ORelation, int32(rel.Number), uint64(start), uint64(n), uint64(strategyRing(strategy)))
	if allowSync {
		start = b.ssGetLocation(rel, n)
	}
	return strategy, n, start, allowSync
}

// drain is heap_fetch_next_buffer over a whole scan: release the page
// before, take the next from the stream, until it has none (0, the
// invalid buffer).
func drain(next func() readstream.Buffer, release func(readstream.Buffer)) {
	for cur := next(); cur != readstream.InvalidBuffer; cur = next() {
		release(cur)
	}
}

// heapScanNext is heap_scan_stream_read_next_serial with
// heapgettup_initial_block and heapgettup_advance_block (heapam.c,
// REL_17_9) for a forward serial scan: start, then each next block,
// wrapping at the end, reporting the position (ss_report_location) as
// it goes when the scan may synchronize, until it is back at start.
func (b *Backend) heapScanNext(rel *Relation, n, start uint32, allowSync bool) readstream.Callback {
	inited := false
	block := start
	return func() readstream.BlockNumber {
		if !inited {
			inited = true
			return readstream.BlockNumber(start)
		}
		if block++; block >= n {
			block = 0
		}
		if allowSync {
			b.ssReportLocationAt(rel, block, s17ScanSyncReport)
		}
		if block == start {
			return readstream.InvalidBlockNumber
		}
		return readstream.BlockNumber(block)
	}
}

// ReadRun is Count consecutive read calls of Blocks blocks each, in the
// pool's sequence of read calls (ReadCalls).
type ReadRun struct {
	Blocks, Count int
}

// ioCall charges backend b's simulated time for one synchronous I/O call
// of n blocks (the latency model, Options.IOLatencyUS and IOBlockUS).
func (b *Backend) ioCall(n int) {
	p := b.pool
	b.Stats.IOTimeUS += p.ioLatencyUS + uint64(n)*p.ioBlockUS
}

// noteRead records a read call of n blocks: a PG 15 or 16 smgrread (1), or
// a PG 17 smgrreadv.
func (p *Pool) noteRead(n int) {
	p.readsMu.Lock()
	if k := len(p.reads); k > 0 && p.reads[k-1].Blocks == n {
		p.reads[k-1].Count++
	} else {
		p.reads = append(p.reads, ReadRun{Blocks: n, Count: 1})
	}
	p.readsMu.Unlock()
}

// ReadCalls is every read call the pool's backends made, in order, as
// runs of calls of the same length: a cold 160-block scan is 160×1 in
// PostgreSQL 15 and 1, 2, 4, 8, 16×9, 1 in 17 at shared_buffers=128MB.
func (p *Pool) ReadCalls() []ReadRun {
	p.readsMu.Lock()
	defer p.readsMu.Unlock()
	return append([]ReadRun(nil), p.reads...)
}

// FormatReadRuns writes runs as the scenario language's expect pool
// reads= value: "1,2,4,8,16x9,1" (a run of one call is its length alone),
// "none" for no reads.
func FormatReadRuns(runs []ReadRun) string {
	if len(runs) == 0 {
		return "none"
	}
	out := make([]byte, 0, 8*len(runs))
	for i, r := range runs {
		if i > 0 {
			out = append(out, ',')
		}
		out = fmt.Appendf(out, "%d", r.Blocks)
		if r.Count > 1 {
			out = fmt.Appendf(out, "x%d", r.Count)
		}
	}
	return string(out)
}

// Version is the PostgreSQL major version whose read path the pool runs.
func (p *Pool) Version() int { return p.version }
