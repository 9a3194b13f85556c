package bufmgr

import (
	"fmt"
	"sort"
	"strings"

	"bufferlab/engine/trace"
)

// RelNamer names a relation by its relfilenode; nil prints the number.
type RelNamer func(relNode uint32) string

func (n RelNamer) tag(t BufferTag) string {
	name := fmt.Sprint(t.RelNode)
	if n != nil {
		name = n(t.RelNode)
	}
	if t.ForkNum == MainForkNum {
		return fmt.Sprintf("%s/%d", name, t.BlockNum)
	}
	return fmt.Sprintf("%s/%s/%d", name, t.ForkNum, t.BlockNum)
}

// TagString prints a tag as rel/block (rel/fork/block for other forks).
func TagString(t BufferTag, names RelNamer) string { return names.tag(t) }

// Describe prints an event with its values decoded: state words as
// refcount, usage count and flags; tags as relation/block; lock holders as
// backend names.
func Describe(e trace.Event, names RelNamer) string {
	return DescribeWith(e, names, trace.ActorName)
}

// DescribeWith is Describe with backends named by actor (the scenario's
// names) in the actor column, lock holders and wake-ups. PostgreSQL 18's
// I/O workers and io_uring's kernel have the column's short forms, as
// their lanes in the scene: W0, W1, ... and K (ActorColumn).
func DescribeWith(e trace.Event, names RelNamer, actor func(trace.Actor) string) string {
	if s, ok := DescribeDropWith(e, names, actor); ok {
		return s
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%05d %-3s %-13s %-24s ", e.Seq, ActorColumn(e.Actor, actor), e.Kind, e.Site)
	obj := fmt.Sprintf("%s %d", e.Class, int32(e.Obj))
	if e.Class == trace.OStrategy {
		obj = "strategy"
	}
	if e.Class == trace.ORelation {
		obj = "rel " + names.tag(MakeTag(e.Obj, 0, 0))
		obj = obj[:strings.LastIndexByte(obj, '/')]
	}
	b.WriteString(obj)
	if d, ok := describeSyncScan(e); ok {
		b.WriteString(d)
		return b.String()
	}
	switch e.Kind {
	case trace.KLoad:
		if e.Class == trace.OBuffer {
			fmt.Fprintf(&b, ": %s", StateString(uint32(e.After)))
		} else {
			fmt.Fprintf(&b, ": %d -> %d", e.Before, e.After)
		}
	case trace.KCAS, trace.KCASFail, trace.KLockHdr, trace.KUnlockHdr, trace.KUsageDown, trace.KDirty:
		if e.Class == trace.OBuffer {
			fmt.Fprintf(&b, ": %s -> %s", StateString(uint32(e.Before)), StateString(uint32(e.After)))
			if e.Kind == trace.KCASFail {
				b.WriteString(" (expected -> found)")
			}
		} else {
			fmt.Fprintf(&b, ": %d -> %d", e.Before, e.After)
		}
	case trace.KSpin:
		fmt.Fprintf(&b, ": spin %d", e.Arg)
	case trace.KLWAcquire, trace.KLWWait, trace.KLWRelease, trace.KLWCondFail:
		fmt.Fprintf(&b, " %s: holders %s -> %s", LWLockMode(e.Arg), holders(e.Before, actor), holders(e.After, actor))
	case trace.KMapLookup:
		fmt.Fprintf(&b, ": %s -> %s", names.tag(UnpackTag(e.Arg)), bufOrNone(e.After))
	case trace.KMapInsert:
		if e.After == trace.NoBuffer {
			fmt.Fprintf(&b, ": %s -> buf %d inserted", names.tag(UnpackTag(e.Arg)), int64(e.Before))
		} else {
			fmt.Fprintf(&b, ": %s already -> buf %d", names.tag(UnpackTag(e.Arg)), int64(e.After))
		}
	case trace.KMapDelete:
		fmt.Fprintf(&b, ": %s (was buf %d)", names.tag(UnpackTag(e.Arg)), int64(e.Before))
	case trace.KFreelistPop:
		fmt.Fprintf(&b, ": first free %d -> %d", int64(e.Before), int64(e.After))
	case trace.KClockTick:
		fmt.Fprintf(&b, ": nextVictimBuffer %d, victim %d", e.Before, e.After)
	case trace.KClockWrap:
		fmt.Fprintf(&b, ": nextVictimBuffer %d -> %d, completePasses %d", e.Before, e.After, e.Arg)
	case trace.KSkipPinned:
		fmt.Fprintf(&b, ": %s, trycounter %d", StateString(uint32(e.After)), e.Arg)
	case trace.KVictim:
		fmt.Fprintf(&b, ": from %s, %s", [...]string{"?", "freelist", "clock sweep", "ring"}[min(e.Arg, 3)], StateString(uint32(e.After)))
	case trace.KRingAdd, trace.KRingReject:
		fmt.Fprintf(&b, ": ring slot %d", e.Arg)
	case trace.KHit, trace.KMiss, trace.KIORead, trace.KIOWrite, trace.KOp:
		if e.Kind == trace.KOp && (e.Site == sScanInit || e.Site == s17ScanInit || e.Site == s18ScanInit) {
			fmt.Fprintf(&b, ": %d blocks, ring %d", e.After, e.Arg)
			if e.Before != 0 {
				fmt.Fprintf(&b, ", starts at block %d", e.Before)
			}
		} else {
			fmt.Fprintf(&b, ": %s", names.tag(UnpackTag(e.Arg)))
			if e.Kind == trace.KIORead && e.After > 0 {
				fmt.Fprintf(&b, " (block %d of %d in one smgrreadv)", e.Before+1, e.After)
			}
		}
	case trace.KCall:
		b.WriteString(describeCall(e))
	case trace.KAIO:
		fmt.Fprintf(&b, ": %s, %s", aioStepNames[e.Arg&0xff], aioBlocks(e, names))
	case trace.KRetag:
		old := "(none)"
		if e.Before != noTag {
			old = names.tag(UnpackTag(e.Before))
		}
		fmt.Fprintf(&b, ": %s -> %s", old, names.tag(UnpackTag(e.After)))
	case trace.KPrivRef:
		fmt.Fprintf(&b, ": private count %d -> %d", e.Before, e.After)
	case trace.KError:
		if e.Class.IsFSM() || e.Class.IsSLRU() {
			// Another mechanism's code: its package describes it.
			fmt.Fprintf(&b, ": ERROR code %d of the %s's own table", e.Arg, e.Class)
			break
		}
		fmt.Fprintf(&b, ": %s", ErrCode(e.Arg))
	case trace.KWake:
		fmt.Fprintf(&b, ": wake %s", actor(trace.Actor(e.Arg)))
	case trace.KIOWait:
		fmt.Fprintf(&b, ": %s", StateString(uint32(e.After)))
	case trace.KSpinAcquire, trace.KSpinRelease:
		b.WriteString(" buffer_strategy_lock")
	}
	return b.String()
}

// describeCall describes a call event of PostgreSQL 17's read path
// (read17.go's streamPool.Begin and End), after the relation.
func describeCall(e trace.Event) string {
	span := func(n uint64) string {
		if n <= 1 {
			return fmt.Sprintf("block %d", e.Before)
		}
		return fmt.Sprintf("blocks %d..%d", e.Before, e.Before+n-1)
	}
	switch {
	case e.Site == s17StartBegin:
		return fmt.Sprintf(": StartReadBuffers(%s)", span(e.After))
	case e.Site == s17StartDone:
		return fmt.Sprintf(": StartReadBuffers covered %s", span(e.After))
	case e.Site == s17WaitBegin:
		return fmt.Sprintf(": WaitReadBuffers(%s)", span(e.After))
	case e.Site == s17WaitDone:
		return fmt.Sprintf(": WaitReadBuffers made %d smgrreadv", e.After)
	}
	return ""
}

func bufOrNone(v uint64) string {
	if v == trace.NoBuffer {
		return "not found"
	}
	return fmt.Sprintf("buf %d", v)
}

func holders(w uint64, actor func(trace.Actor) string) string {
	var out []string
	if x := trace.Actor(w >> 48); x != 0 {
		out = append(out, actor(x)+"(X)")
	}
	for a := 1; a <= 48; a++ {
		if w&(1<<(a-1)) != 0 {
			out = append(out, actor(trace.Actor(a)))
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ",")
}

// pictureRowsMax is the most descriptors Picture lists one per line.
const pictureRowsMax = 64

// Picture draws the pool as text: a header line (size, clock hand,
// complete passes, freelist), one line per descriptor for pools up to 64
// buffers (the clock hand marked), otherwise a summary by usage count and
// the pinned, dirty and locked buffers; then what each backend pins and
// which partition locks are held.
func (p *Pool) Picture(names RelNamer) string { return p.picture(names, false) }

// emptyRunMin is the shortest run of empty buffers PictureAll writes as
// one line.
const emptyRunMin = 8

// PictureAll is Picture with every descriptor listed, whatever the size
// of the pool (`show pool all`): one line per buffer, except that a run
// of at least 8 empty buffers (no tag, no pin, no flag, not under the
// clock hand) is one line, so a large pool mostly unused stays short.
func (p *Pool) PictureAll(names RelNamer) string { return p.picture(names, true) }

// IsEmpty reports whether a descriptor's state word says nothing: no
// tag, no pin, no usage, no flag (a buffer never used, or invalidated).
func IsEmpty(s uint32) bool {
	return s&BmTagValid == 0 && StateRefcount(s) == 0 && StateUsagecount(s) == 0 && len(FlagNames(s)) == 0
}

func (p *Pool) picture(names RelNamer, all bool) string {
	var b strings.Builder
	free := p.Freelist()
	fl := "empty"
	if len(free) > 0 {
		fl = fmt.Sprintf("%d buffers, head %d", len(free), free[0])
	}
	fmt.Fprintf(&b, "pool: %d buffers (%s), clock hand %d, complete passes %d, freelist %s\n",
		p.NBuffers, FormatSize(int64(p.NBuffers)*BLCKSZ), p.NextVictimBuffer(), p.completePasses, fl)
	hand := p.NextVictimBuffer()
	row := func(i int) {
		d := &p.descs[i]
		s := d.state.Load()
		tag := "-"
		if s&BmTagValid != 0 {
			tag = names.tag(d.tag)
		}
		mark := ""
		if i == hand {
			mark = "  <- clock hand"
		}
		fl := strings.Join(FlagNames(s), " ")
		if fl == "" {
			fl = "-"
		}
		fmt.Fprintf(&b, "  %4d  %-14s %2d  %d  %s%s\n", i, tag, StateRefcount(s), StateUsagecount(s), fl, mark)
	}
	if all {
		fmt.Fprintf(&b, "   buf  tag            rc  u  flags\n")
		for i := 0; i < len(p.descs); {
			j := i
			for j < len(p.descs) && j != hand && IsEmpty(p.descs[j].state.Load()) {
				j++
			}
			if j-i >= emptyRunMin {
				fmt.Fprintf(&b, "  %4d..%d  (%d empty buffers)\n", i, j-1, j-i)
				i = j
				continue
			}
			row(i)
			i++
		}
	} else if p.NBuffers <= pictureRowsMax {
		fmt.Fprintf(&b, "   buf  tag            rc  u  flags\n")
		for i := range p.descs {
			row(i)
		}
	} else {
		var byUsage [BmMaxUsageCount + 1]int
		var tagged, dirty int
		var notable []int
		for i := range p.descs {
			s := p.descs[i].state.Load()
			byUsage[StateUsagecount(s)]++
			if s&BmTagValid != 0 {
				tagged++
			}
			if s&BmDirty != 0 {
				dirty++
			}
			if StateRefcount(s) > 0 || s&(BmLocked|BmIOInProgress) != 0 || i == hand {
				notable = append(notable, i)
			}
		}
		fmt.Fprintf(&b, "  in use %d, dirty %d; usage count 0..5: %v\n", tagged, dirty, byUsage)
		if len(notable) > 0 {
			fmt.Fprintf(&b, "   buf  tag            rc  u  flags (pinned, locked, or under the hand)\n")
			for k, i := range notable {
				if k == pictureRowsMax {
					fmt.Fprintf(&b, "  … %d more\n", len(notable)-k)
					break
				}
				row(i)
			}
		}
	}
	for _, be := range p.backends {
		pins := be.Pins()
		if len(pins) == 0 {
			continue
		}
		var ps []string
		for _, pin := range pins {
			d := &p.descs[pin.Buffer-1]
			ps = append(ps, fmt.Sprintf("buf %d (%s) x%d", pin.Buffer-1, names.tag(d.tag), pin.Count))
		}
		fmt.Fprintf(&b, "  backend %s pins %s\n", be.Name, strings.Join(ps, ", "))
	}
	var locked []string
	for i := range p.parts {
		if l := &p.parts[i].lock; !l.Free() {
			locked = append(locked, fmt.Sprintf("%d by %s", i, holders(l.HolderWord(), trace.ActorName)))
		}
	}
	sort.Strings(locked)
	if len(locked) > 0 {
		fmt.Fprintf(&b, "  partition locks held: %s\n", strings.Join(locked, "; "))
	}
	return b.String()
}

// DescribeDrop decodes the events of the drop functions and of the dlist
// variant that Describe does not know: it returns Describe's layout and
// true for them, and "", false for any other event.
func DescribeDrop(e trace.Event, names RelNamer) (string, bool) {
	return DescribeDropWith(e, names, trace.ActorName)
}

// DescribeDropWith is DescribeDrop with backends named by actor, as
// DescribeWith.
func DescribeDropWith(e trace.Event, names RelNamer, actor func(trace.Actor) string) (string, bool) {
	detail, ok := dropDetail(e, names)
	if !ok {
		return "", false
	}
	obj := fmt.Sprintf("%s %d", e.Class, int32(e.Obj))
	switch e.Class {
	case trace.ORelation:
		obj = "rel " + names.relName(e.Obj)
	case trace.OStrategy:
		obj = "strategy"
	case trace.ONone:
		obj = fmt.Sprintf("%d relations", e.Obj)
	}
	return fmt.Sprintf("%05d %-3s %-13s %-24s %s%s", e.Seq, actor(e.Actor), e.Kind, e.Site, obj, detail), true
}

func (n RelNamer) relName(rel uint32) string {
	if n != nil {
		return n(rel)
	}
	return fmt.Sprint(rel)
}

func idOrNone(v uint64) string {
	if int64(v) < 0 {
		return "none"
	}
	return fmt.Sprintf("buf %d", v)
}

// dropDetail is DescribeDrop's text after the object, for the events it
// knows.
func dropDetail(e trace.Event, names RelNamer) (string, bool) {
	switch {
	case e.Kind == trace.KOp && (e.Site == sDropBegin || e.Site == sDropAllBegin):
		blocks := "sizes not cached"
		if e.Arg != uint64(InvalidBlockNumber) {
			blocks = fmt.Sprintf("%d blocks to drop", e.Arg)
		}
		return fmt.Sprintf(": strategy %s -> %s, %s", DropStrategy(e.Before), DropStrategy(e.After), blocks), true
	case e.Kind == trace.KOpDone && (e.Site == sDropLookupDone || e.Site == sDropScanDone || e.Site == sDropAllLookupDone ||
		e.Site == sDropAllScanDone || e.Site == sDListDone):
		return fmt.Sprintf(": %d buffers invalidated", e.After), true
	case e.Kind == trace.KLoad && (e.Site == sDropPrecheck || e.Site == sDropAllLinear || e.Site == sDropAllBSearch):
		tag := "none"
		if e.Arg != 0 {
			tag = names.tag(UnpackTag(e.Arg))
		}
		return fmt.Sprintf(": tag %s, %s", tag, StateString(uint32(e.After))), true
	case e.Kind == trace.KLoad && (e.Site == sDListHead || e.Site == sDListRestart):
		return fmt.Sprintf(": head %s, %d on the list", idOrNone(e.After), e.Arg), true
	case e.Kind == trace.KLoad && e.Site == sDListNext:
		return fmt.Sprintf(": next %s, %s", idOrNone(e.Arg), StateString(uint32(e.After))), true
	case e.Kind == trace.KCAS && (e.Site == sDListAllocLink):
		return fmt.Sprintf(": link buf %d at the head (was %s)", e.Arg, idOrNone(e.Before)), true
	case e.Kind == trace.KCAS && (e.Site == sDListAllocUnlink || e.Site == sInvalUnlink):
		return fmt.Sprintf(": unlink buf %d (between %s and %s)", e.Arg, idOrNone(e.Before), idOrNone(e.After)), true
	case e.Kind == trace.KRetag && e.After == noTag:
		return fmt.Sprintf(": %s -> (none)", names.tag(UnpackTag(e.Before))), true
	case e.Kind == trace.KFreelistPush:
		return fmt.Sprintf(": first free %d -> %d", int64(e.Before), int64(e.After)), true
	case e.Kind == trace.KIOWait && e.Site == sInvalWait:
		return fmt.Sprintf(": pinned, wait: %s", StateString(uint32(e.After))), true
	case e.Kind == trace.KError && e.Arg == uint64(ErrPinnedInInvalidate):
		return ": buffer is pinned in InvalidateBuffer", true
	}
	return "", false
}
