package poolview

import (
	"fmt"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
	"bufferlab/viz/viewkit"
)

// Trails: what an operation went through, kept on screen after the
// current event has moved on. A backend's operation (from its KOp to its
// KOpDone or KError; a sequential scan's block reads are part of the
// scan) marks the descriptors and the mapping partitions it passes:
//
//	KLoad at drop.precheck, dropall.precheck-*   the descriptor examined (the drop's full scan)
//	KLoad at dlist.next                          the descriptor examined (the dlist walk)
//	KMapLookup at lookup.lookup, found           the descriptor examined (the per-block lookup)
//	KRetag at inval.clear                        the descriptor invalidated (InvalidateBuffer)
//	KClockTick                                   the descriptor the hand passed (ClockSweepTick)
//	KVictim from the sweep                       the descriptor evicted
//	KRingAdd, KVictim from a ring                the descriptor in the scan's ring (BULKREAD)
//	KMapLookup                                   the partition probed (and whether it found the tag)
//	KMapInsert (inserted), KMapDelete            the partition's entry added or removed
//
// Which trails are shown (viewkit.TrailShown): an operation's while it
// runs, and after it ends until the next operation begins in the view
// (any backend's, the pane's): a drop's trail stays over the pool until
// someone starts something else, and two backends working at once each
// keep theirs.
//
// Cost: one word a descriptor, beside its state word in the copy-on-write
// chunk (8 bytes a buffer, 128 kB at 16 384 buffers; a keyframe copies
// only the chunks a trail wrote since the last), one a partition (in its
// copy-on-write group), and two words in every history node (the marks an
// event replaced, for Unapply).
// Nothing is cleared when an operation begins: a mark names the
// operation that made it, and a mark of an operation no longer shown is
// not shown.

// A mark word packs, low to high: the operation (the low 32 bits of the
// Seq of its KOp, plus one; 0: no mark; a log of 2³² events could name two
// operations alike), the backend (8 bits: the lock holder words allow 48
// backends), the Mark bits (8 bits), and how many times the operation
// passed it (16 bits, saturating; TrailMark.Count).
const (
	markOpBits    = 32
	markActorShft = 32
	markFlagShft  = 40
	markCountShft = 48
	markCountMax  = 0xffff
)

// Mark says what the operation of a shown trail did with a descriptor or
// a mapping partition.
type Mark uint8

// Marks of a descriptor.
const (
	MarkExamined Mark = 1 << iota // a drop read its tag: the scan's pre-check, the dlist's hop, the lookup's find
	MarkSwept                     // the clock hand passed it (a tick of ClockSweepTick)
	MarkRing                      // it is in the scan's ring (BULKREAD): added, or reused from it
	MarkDropped                   // the drop invalidated it (InvalidateBuffer)
	MarkEvicted                   // the clock sweep chose it as its victim: its page is thrown out
)

// Marks of a mapping partition.
const (
	MarkProbed  Mark = 1 << iota // a tag was looked up in it (BufTableLookup)
	MarkFound                    // … and found
	MarkChanged                  // an entry was inserted or deleted
)

var cellMarkNames = [...]string{"examined", "swept", "ring", "dropped", "evicted"}
var partMarkNames = [...]string{"probed", "found", "changed"}

func markString(m Mark, names []string) string {
	var out []string
	for i, n := range names {
		if m&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return "-"
	}
	return strings.Join(out, "+")
}

// TrailMark is one descriptor's or partition's part in a shown trail.
type TrailMark struct {
	Marks Mark
	Actor trace.Actor // the backend whose operation made the trail
	// Count is how many times that operation passed it: a descriptor's
	// examinations and the clock hand's ticks on it (a sweep that goes
	// round twice passes a buffer twice), a partition's probes and
	// changes.
	Count int
}

// opID is the mark's name for the operation that began at seq.
func opID(seq uint64) uint64 { return uint64(uint32(seq)) + 1 }

func packMark(op uint64, a trace.Actor, m Mark, count int) uint64 {
	return op | uint64(uint8(a))<<markActorShft | uint64(m)<<markFlagShft | uint64(min(count, markCountMax))<<markCountShft
}

func unpackMark(w uint64) (op uint64, a trace.Actor, m Mark, count int) {
	return w & (1<<markOpBits - 1), trace.Actor(uint8(w >> markActorShft)), Mark(w >> markFlagShft), int(uint16(w >> markCountShft))
}

// addMark is the word w becomes when actor a's operation op marks it with
// m, counting one more pass when pass is set.
func addMark(w, op uint64, a trace.Actor, m Mark, pass bool) uint64 {
	wop, wa, wm, n := unpackMark(w)
	if wop != op || wa != a {
		wm, n = 0, 0
	}
	if pass {
		n++
	}
	return packMark(op, a, wm|m, n)
}

// OpTrail is a backend's trail as its lane knows it: the operation that
// draws it. It changes only at KOp, KOpDone and KError (laneInfo).
type OpTrail struct {
	Has, Done bool
	InScan    bool        // the operation is a sequential scan: its block reads are part of it
	Op        trace.Event // the KOp that began it
	End       uint64      // Seq of the KOpDone or KError that ended it
}

var siteScanEnd, siteScanPause, siteScan17End, siteScan18End = trace.SiteOf("scan.end"), trace.SiteOf("scan.pause"), trace.SiteOf("scan17.end"), trace.SiteOf("scan18.end")

// nextTrail is the trail after e (a KOp, KOpDone or KError of the lane).
func nextTrail(t OpTrail, e trace.Event) OpTrail {
	switch e.Kind {
	case trace.KOp:
		if t.Has && !t.Done && t.InScan && isReadBegin(e.Site) {
			return t // a block read of the scan
		}
		return OpTrail{Has: true, Op: e, InScan: isScanInit(e.Site)}
	case trace.KOpDone:
		if !t.Has || t.Done || t.InScan && e.Site != siteScanEnd && e.Site != siteScanPause && e.Site != siteScan17End && e.Site != siteScan18End {
			return t // a block read of the scan ends, not the scan
		}
		t.Done, t.End, t.InScan = true, e.Seq, false
	case trace.KError:
		if t.Has && !t.Done {
			t.Done, t.End, t.InScan = true, e.Seq, false
		}
	}
	return t
}

// Sites whose events mark a descriptor examined (the full scans'
// pre-checks) or invalidated.
var (
	siteDropPrecheck, siteDropAllLinear = trace.SiteOf("drop.precheck"), trace.SiteOf("dropall.precheck-linear")
	siteDropAllBSearch, siteInvalClear  = trace.SiteOf("dropall.precheck-bsearch"), trace.SiteOf("inval.clear")
)

// marksOf says which descriptor (buf, -1: none) and which partition (part,
// -1: none) e marks, and with what.
func marksOf(e trace.Event) (buf int, bm Mark, part int, pm Mark) {
	buf, part = -1, -1
	switch e.Kind {
	case trace.KLoad:
		// Four compares, not a map: a load is the commonest event of a
		// pin loop, and Apply is the hot path of playing.
		if e.Class == trace.OBuffer && (e.Site == siteDropPrecheck || e.Site == siteDropAllLinear || e.Site == siteDropAllBSearch || e.Site == siteDListNext) {
			buf, bm = int(e.Obj), MarkExamined
		}
	case trace.KRetag:
		if e.Site == siteInvalClear {
			buf, bm = int(e.Obj), MarkDropped
		}
	case trace.KClockTick:
		buf, bm = int(e.After), MarkSwept
	case trace.KVictim:
		switch e.Arg {
		case bufmgr.VictimSweep:
			buf, bm = int(e.Obj), MarkEvicted
		case bufmgr.VictimRing:
			buf, bm = int(e.Obj), MarkRing
		}
	case trace.KRingAdd:
		if e.Obj != NoObj {
			buf, bm = int(e.Obj), MarkRing
		}
	case trace.KMapLookup:
		part, pm = int(e.Obj), MarkProbed
		if e.After != trace.NoBuffer {
			pm |= MarkFound
			if e.Site == siteLookupLookup {
				buf, bm = int(int64(e.After)), MarkExamined
			}
		}
	case trace.KMapInsert:
		part, pm = int(e.Obj), MarkProbed
		if e.After == trace.NoBuffer {
			pm |= MarkChanged
		} else {
			pm |= MarkFound
		}
	case trace.KMapDelete:
		part, pm = int(e.Obj), MarkChanged
	}
	return buf, bm, part, pm
}

// noMark is a nodeData's "this event marked nothing there".
const noMark = ^uint64(0)

// mark writes the marks of e, applied by a backend whose trail (after e)
// is t, and returns the words it replaced (noMark where it wrote none).
func (p *Pool) mark(e trace.Event, t OpTrail) (prevCell, prevPart uint64) {
	prevCell, prevPart = noMark, noMark
	if !t.Has || t.Done {
		return // an event outside an operation leaves no trail
	}
	buf, bm, part, pm := marksOf(e)
	op := opID(t.Op.Seq)
	if buf >= 0 && buf < p.n {
		c, j := p.wchunk(buf)
		prevCell = c.mark[j]
		c.mark[j] = addMark(prevCell, op, e.Actor, bm, bm&(MarkExamined|MarkSwept) != 0)
	}
	if part >= 0 && part < NumPartitions {
		g, j := p.wgroup(part)
		prevPart = g.mark[j]
		g.mark[j] = addMark(prevPart, op, e.Actor, pm, true)
	}
	return prevCell, prevPart
}

// unmark puts back the words mark replaced for e.
func (p *Pool) unmark(e trace.Event, d nodeData) {
	buf, _, part, _ := marksOf(e)
	if d.prevCell != noMark {
		c, j := p.wchunk(buf)
		c.mark[j] = d.prevCell
	}
	if d.prevPart != noMark {
		g, j := p.wgroup(part)
		g.mark[j] = d.prevPart
	}
}

// Trails is the trails a view shows, for reading many marks: each
// backend's operation whose trail is shown (viewkit.TrailShown). Get it
// once per layout (Pool.Trails), then ask Cell and Partition.
type Trails struct {
	p     *Pool
	shown []uint64 // by actor: the op id of its shown trail, 0 for none
	any   bool
}

// Trails returns the trails shown now. Cost: a look at every lane.
func (p *Pool) Trails() Trails {
	t := Trails{p: p, shown: make([]uint64, len(p.lanes))}
	latest, has := uint64(0), false
	for a := range p.lanes {
		if lt := p.laneTrail(trace.Actor(a)); lt.Has && (!has || lt.Op.Seq > latest) {
			latest, has = lt.Op.Seq, true
		}
	}
	for a := range p.lanes {
		lt := p.laneTrail(trace.Actor(a))
		if lt.Has && viewkit.TrailShown(lt.Done, lt.End, latest) {
			t.shown[a], t.any = opID(lt.Op.Seq), true
		}
	}
	return t
}

// Any reports whether some trail is shown.
func (t Trails) Any() bool { return t.any }

// of reads a mark word: its part in a shown trail (Marks 0 when it
// belongs to none).
func (t Trails) of(w uint64) TrailMark {
	op, a, m, n := unpackMark(w)
	if op == 0 || int(a) >= len(t.shown) || t.shown[a] != op {
		return TrailMark{}
	}
	return TrailMark{Marks: m, Actor: a, Count: n}
}

// Cell is descriptor i's part in the trails shown (Marks 0: none).
func (t Trails) Cell(i int) TrailMark {
	if !t.any {
		return TrailMark{}
	}
	c, j := t.p.rchunk(i)
	return t.of(c.mark[j])
}

// Partition is mapping partition i's part in the trails shown.
func (t Trails) Partition(i int) TrailMark {
	if !t.any {
		return TrailMark{}
	}
	g, j := t.p.group(i)
	return t.of(g.mark[j])
}

// Marked counts the descriptors the trails shown mark (with any of m;
// m 0: any mark at all). Cost: NBuffers reads.
func (t Trails) Marked(m Mark) int {
	n := 0
	for i := 0; t.any && i < t.p.n; i++ {
		if c := t.Cell(i); c.Marks != 0 && (m == 0 || c.Marks&m != 0) {
			n++
		}
	}
	return n
}

// laneTrail is actor a's trail (none for an actor never seen).
func (p *Pool) laneTrail(a trace.Actor) OpTrail {
	if top := p.h.ActorTop(a); top != nil {
		return top.Data.info.trail
	}
	return OpTrail{}
}

// TrailLabel describes actor a's trail's operation: the scan (not its
// block reads), a drop with the strategy it took ("drop t (full scan)"),
// others as OpLabel does; " (done)" once it ended, "" when there is none.
func (p *Pool) TrailLabel(a trace.Actor) string {
	t := p.laneTrail(a)
	if !t.Has {
		return ""
	}
	s := p.opText(t.Op)
	switch t.Op.Site {
	case siteDropBegin, siteDropAllBegin:
		what := "drop"
		if t.Op.Site == siteDropBegin {
			what = "truncate" // DropRelationBuffers: a truncation, or forks dropped
		}
		rel := p.RelName(t.Op.Obj)
		if t.Op.Class != trace.ORelation {
			rel = fmt.Sprintf("%d relations", t.Op.Obj)
		}
		s = fmt.Sprintf("%s %s (%s)", what, rel, dropStrategyText[min(int(t.Op.After), len(dropStrategyText)-1)])
	}
	if t.Done {
		s += " (done)"
	}
	return s
}

var siteDropBegin, siteDropAllBegin = trace.SiteOf("drop.begin"), trace.SiteOf("dropall.begin")

// dropStrategyText names the path a drop took (bufmgr.DropStrategy).
var dropStrategyText = [...]string{bufmgr.DropAuto: "auto", bufmgr.DropScan: "full scan", bufmgr.DropLookup: "per-block lookup", bufmgr.DropDList: "the relation's list", bufmgr.DropDList + 1: "?"}

// CellMarkString is m as words for a descriptor ("examined+dropped").
func CellMarkString(m Mark) string { return markString(m, cellMarkNames[:]) }

// PartitionMarkString is m as words for a mapping partition ("probed+found").
func PartitionMarkString(m Mark) string { return markString(m, partMarkNames[:]) }

// markDiff describes two raw mark words for Diff.
func markDiff(w uint64, names []string) string {
	op, a, m, n := unpackMark(w)
	if op == 0 {
		return "none"
	}
	return fmt.Sprintf("op %d of %s: %s ×%d", op-1, trace.ActorName(a), markString(m, names), n)
}
