package poolview

import (
	"fmt"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
)

// laneInfo is what a lane shows about its backend's operation. It changes
// only at KOp, KOpDone and KError events and is shared by the nodes in
// between (the Data of the history's nodes); it holds no pointer to a
// node, so trimmed history is freed.
type laneInfo struct {
	op, scan, err     trace.Event
	hasOp, hasScan    bool
	hasErr, opDone    bool
	opCount, errCount int
	// casOK, casFails and spins count the backend's compare-and-swaps on
	// a state word, the failed ones, and its spin delays on BM_LOCKED.
	casOK, casFails, spins int
	// trail is the operation whose trail the backend draws (trail.go).
	trail OpTrail
}

var emptyInfo = &laneInfo{}

var (
	siteReadBegin = trace.SiteOf("read.begin")
	siteScanInit  = trace.SiteOf("scan.init")
	// PostgreSQL 17's (config pg=17): a scan through a read stream, and
	// ReadBuffer_common through StartReadBuffer.
	siteRead17Begin = trace.SiteOf("read17.begin")
	siteScan17Init  = trace.SiteOf("scan17.init")
	// PostgreSQL 18's (config pg=18): the same through AIO.
	siteRead18Begin = trace.SiteOf("read18.begin")
	siteScan18Init  = trace.SiteOf("scan18.init")
)

// isScanInit and isReadBegin: the op that begins a sequential scan, and
// the op of one block read (PostgreSQL 15's, 17's or 18's).
func isScanInit(s trace.Site) bool {
	return s == siteScanInit || s == siteScan17Init || s == siteScan18Init
}
func isReadBegin(s trace.Site) bool {
	return s == siteReadBegin || s == siteRead17Begin || s == siteRead18Begin
}

// nextInfo derives the lane information after e from the information before.
func nextInfo(prev *laneInfo, e trace.Event) *laneInfo {
	switch e.Kind {
	case trace.KOp:
		n := *prev
		n.trail = nextTrail(prev.trail, e)
		n.op, n.hasOp, n.opDone = e, true, false
		n.opCount++
		switch {
		case isScanInit(e.Site):
			n.scan, n.hasScan = e, true
		case isReadBegin(e.Site) && prev.hasScan && !prev.opDone:
			// a block read inside the open scan
		default:
			n.hasScan = false
		}
		return &n
	case trace.KOpDone:
		n := *prev
		n.trail = nextTrail(prev.trail, e)
		n.opDone, n.hasScan = true, false
		return &n
	case trace.KError:
		n := *prev
		n.trail = nextTrail(prev.trail, e)
		n.err, n.hasErr, n.hasScan = e, true, false
		n.errCount++
		return &n
	case trace.KCAS, trace.KDirty, trace.KCASFail, trace.KSpin:
		if e.Class != trace.OBuffer {
			return prev
		}
		n := *prev
		switch e.Kind {
		case trace.KCASFail:
			n.casFails++
		case trace.KSpin:
			n.spins++
		default:
			n.casOK++
		}
		return &n
	}
	return prev
}

// Lane is what the pool scene shows for one backend.
type Lane struct {
	Actor trace.Actor
	Name  string
	// Pins lists the buffers this backend pins and its private count on
	// each (from KPrivRef events), by buffer id.
	Pins []Pin
	// Last is the last event this backend performed (its current site in
	// the pseudo-code); HasLast is false before its first event.
	Last    trace.Event
	HasLast bool
	// Waiting reports that the last event was KLWWait, KSpin or KIOWait:
	// the backend is blocked until another one lets it go on.
	Waiting bool
	// Op is the backend's last KOp event: its Site tells the operation
	// (read.begin: Arg = packed tag; scan.init: Obj = relation, Before =
	// start block, After = blocks, Arg = ring size; others by site name).
	Op    trace.Event
	HasOp bool
	// OpDone is set by a KOpDone after Op (a scan's end).
	OpDone bool
	// Scan is the scan.init of the sequential scan in progress, if any: a
	// scan's block reads are operations of their own inside it.
	Scan    trace.Event
	HasScan bool
	// Err is the backend's last KError (Arg = bufmgr.ErrCode); it stays
	// until the next one. Failed reports whether it came after Op began.
	Err    trace.Event
	HasErr bool
	// Ops and Errors count the backend's KOp and KError events.
	Ops, Errors int
	// Word is the backend's local copy of a buffer's state word: the
	// value its last load, compare-and-swap or header lock in the current
	// operation read or wrote (PinBuffer's buf_state; after a failed CAS,
	// the value found, which the retry starts from). WordEvent is that
	// event (Obj = the buffer); HasWord is false when the operation has
	// not touched a state word yet.
	Word      uint32
	WordEvent trace.Event
	HasWord   bool
	// Spinning reports that the last event is a KSpin on a buffer: the
	// backend found BM_LOCKED set and is in the spin-delay loop
	// (LockBufHdr, WaitBufHdrUnlocked).
	Spinning bool
	// CASes, CASFailures and Spins count the backend's successful and
	// failed compare-and-swaps on state words (MarkBufferDirty's
	// included) and its spin delays on BM_LOCKED.
	CASes, CASFailures, Spins int
	// Trail is the operation whose trail the backend draws (a
	// sequential scan's, not its block reads'); Pool.Trails says whether
	// it is shown.
	Trail OpTrail
}

// wordWalk bounds how far Lane looks back through a backend's events for
// its local copy of a state word.
const wordWalk = 64

// wordKinds are the events whose After is the state word as the backend
// now knows it.
var wordKinds = map[trace.Kind]bool{trace.KLoad: true, trace.KCAS: true, trace.KCASFail: true,
	trace.KLockHdr: true, trace.KUnlockHdr: true, trace.KDirty: true}

// Pin is a private pin count.
type Pin struct {
	Buf   int32
	Count int32
}

// Failed reports whether the backend's last error happened during (or
// right before) its current operation.
func (l Lane) Failed() bool { return l.HasErr && (!l.HasOp || l.Err.Seq > l.Op.Seq) }

// ErrCode is the code of the last error (0 if none).
func (l Lane) ErrCode() bufmgr.ErrCode {
	if !l.HasErr {
		return 0
	}
	return bufmgr.ErrCode(l.Err.Arg)
}

// NumLanes is the number of lanes (index = actor; lane 0 is the system).
// At PostgreSQL 18 the I/O workers' actors come after every backend's
// (bufmgr.IOWorkerActor): LaneActors lists the lanes to show.
func (p *Pool) NumLanes() int { return len(p.lanes) }

// LaneActors are the lanes a scene shows, in order: every backend's lane
// the view has (an idle one too); at PostgreSQL 18, whose I/O workers'
// actors come after every backend's, the backends up to the last one that
// has acted and then the workers that have, not the unused actors
// between.
func (p *Pool) LaneActors() []trace.Actor {
	base := int(bufmgr.IOWorkerActor(0))
	var out []trace.Actor
	if len(p.lanes) <= base {
		for a := 1; a < len(p.lanes); a++ {
			out = append(out, trace.Actor(a))
		}
		return out
	}
	last := 0
	for a := 1; a < base; a++ {
		if p.h.ActorTop(trace.Actor(a)) != nil {
			last = a
		}
	}
	for a := 1; a <= last; a++ {
		out = append(out, trace.Actor(a))
	}
	for a := base; a < len(p.lanes); a++ {
		if p.h.ActorTop(trace.Actor(a)) != nil {
			out = append(out, trace.Actor(a))
		}
	}
	return out
}

// workerLabel is an I/O worker's lane status (its lane is named W0, W1,
// …): the handle it reads, the handle it completed at the event just
// applied, or that it waits for work (its last KAIO event, within
// wordWalk of its events). A worker that completed a read earlier waits
// for work, and its lane names the blocks it read last without the
// handle's number: the owner reclaims a handle and stages the next read
// in it, which another worker may be reading now (IoWorkerMain goes back
// to its latch after pgaio_io_process_completion).
func (p *Pool) workerLabel(a trace.Actor) string {
	for n, i := p.h.ActorTop(a), 0; n != nil && i < wordWalk; n, i = n.ActorPrev, i+1 {
		e := n.Ev
		if e.Kind == trace.KIORead && a == bufmgr.KernelActor() && e.Before == 0 {
			// The kernel's reads: no handle step of its own.
			t := bufmgr.UnpackTag(e.Arg)
			return fmt.Sprintf("kernel: read %s/%d..%d", p.RelName(t.RelNode), t.BlockNum, t.BlockNum+uint32(max(e.After, 1))-1)
		}
		if e.Kind != trace.KAIO {
			continue
		}
		blocks := p.aioBlocks(e)
		switch e.Arg & 0xff {
		case trace.AIODequeue:
			return fmt.Sprintf("reads handle %d (%s)", e.Obj, blocks)
		case trace.AIOComplete:
			if n == p.h.Top() {
				return fmt.Sprintf("completed handle %d (%s)", e.Obj, blocks)
			}
			return "waits for work (last read " + blocks + ")"
		}
	}
	return "waits for work"
}

// aioBlocks is a KAIO event's blocks in the view's names: "t/16..31".
func (p *Pool) aioBlocks(e trace.Event) string {
	rel := p.RelName(uint32(e.Arg >> 8))
	if e.After <= 1 {
		return fmt.Sprintf("%s/%d", rel, e.Before)
	}
	return fmt.Sprintf("%s/%d..%d", rel, e.Before, e.Before+e.After-1)
}

// Lane returns actor a's lane (an empty one for an actor never seen).
func (p *Pool) Lane(a trace.Actor) Lane {
	name := trace.ActorName(a)
	if int(a) < len(p.lanes) {
		name = p.lanes[a].name
	}
	if i, ok := bufmgr.IOWorkerOf(a); ok {
		name = fmt.Sprintf("W%d", i) // io worker i: a letter column's width
	}
	if a == bufmgr.KernelActor() {
		name = "K" // the kernel, under io_method=io_uring
	}
	if int(a) >= len(p.lanes) {
		return Lane{Actor: a, Name: name}
	}
	out := Lane{Actor: a, Name: name, Pins: p.Pins(a)}
	info := emptyInfo
	if top := p.h.ActorTop(a); top != nil {
		out.Last, out.HasLast = top.Ev, true
		switch top.Ev.Kind {
		case trace.KLWWait, trace.KSpin, trace.KIOWait:
			out.Waiting = true
		}
		info = top.Data.info
		out.Spinning = top.Ev.Kind == trace.KSpin && top.Ev.Class == trace.OBuffer
		for n, i := top, 0; n != nil && i < wordWalk; n, i = n.ActorPrev, i+1 {
			e := n.Ev
			if e.Kind == trace.KOp {
				break
			}
			if e.Class == trace.OBuffer && wordKinds[e.Kind] {
				out.Word, out.WordEvent, out.HasWord = uint32(e.After), e, true
				break
			}
		}
	}
	out.Op, out.HasOp, out.OpDone = info.op, info.hasOp, info.opDone
	out.Scan, out.HasScan = info.scan, info.hasScan
	out.Err, out.HasErr = info.err, info.hasErr
	out.Ops, out.Errors = info.opCount, info.errCount
	out.CASes, out.CASFailures, out.Spins = info.casOK, info.casFails, info.spins
	out.Trail = info.trail
	return out
}

// Pins lists actor a's private pin counts by buffer id.
func (p *Pool) Pins(a trace.Actor) []Pin {
	if int(a) >= len(p.lanes) || p.lanes[a].pins == nil {
		return nil
	}
	es := p.lanes[a].pins.sorted()
	out := make([]Pin, len(es))
	for i, e := range es {
		out[i] = Pin{Buf: int32(e.key), Count: e.val}
	}
	return out
}

// PinCount is actor a's private pin count on buffer buf.
func (p *Pool) PinCount(a trace.Actor, buf int) int {
	if int(a) >= len(p.lanes) || buf < 0 {
		return 0
	}
	c, _ := p.lanes[a].pins.get(uint64(buf))
	return int(c)
}

// OpLabel describes actor a's current operation for a lane header:
// "read t1/5", "scan t1 (20 blocks, ring 2)", "scan t1: read t1/7", or the
// site name and relation for operations the view does not know. It adds
// " (done)" after a KOpDone and "" means no operation yet.
func (p *Pool) OpLabel(a trace.Actor) string {
	l := p.Lane(a)
	if _, ok := bufmgr.IOWorkerOf(a); ok || a == bufmgr.KernelActor() {
		return p.workerLabel(a)
	}
	if !l.HasOp {
		return ""
	}
	s := p.opText(l.Op)
	if l.HasScan && !isScanInit(l.Op.Site) {
		s = p.opText(l.Scan) + ": " + s
	}
	if l.OpDone {
		s += " (done)"
	}
	return s
}

func (p *Pool) opText(e trace.Event) string {
	switch e.Site {
	case siteReadBegin, siteRead17Begin, siteRead18Begin:
		return "read " + p.TagString(e.Arg)
	case siteScanInit, siteScan17Init, siteScan18Init:
		// Before is the start block: not 0 for a synchronized scan that
		// joins where another scan of the relation reported being.
		from := ""
		if e.Before != 0 {
			from = fmt.Sprintf(", synchronized: starts at block %d", e.Before)
		}
		switch e.Site {
		case siteScan17Init:
			from += ", read stream"
		case siteScan18Init:
			from += ", read stream, asynchronous reads"
		}
		if e.Arg == 0 {
			return fmt.Sprintf("scan %s (%d blocks%s)", p.RelName(e.Obj), e.After, from)
		}
		return fmt.Sprintf("scan %s (%d blocks, ring %d%s)", p.RelName(e.Obj), e.After, e.Arg, from)
	}
	switch e.Site.String() {
	case "release.begin":
		return fmt.Sprintf("release %s (buffer %d)", p.TagString(e.Arg), e.Obj)
	case "dirty.begin":
		return fmt.Sprintf("dirty %s (buffer %d)", p.TagString(e.Arg), e.Obj)
	}
	if e.Class == trace.ORelation {
		return e.Site.String() + " " + p.RelName(e.Obj)
	}
	return e.Site.String()
}

// TrimHistory forgets all but the last keep applied events, so that Unapply
// can undo at most keep more; the state shown does not change. The dropped
// part of the chain becomes garbage unless a clone still uses it.
func (p *Pool) TrimHistory(keep int) { p.h.Trim(keep) }
