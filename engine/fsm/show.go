package fsm

import (
	"fmt"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
)

// Events of this package use the FSM classes of package trace (Obj is the
// relfilenode, except OLocalMap's, the backend's actor; Arg packs fork,
// block and node or line pointer, PackAddr, unless said otherwise):
//
//   - KOp / KOpDone (OFSMRel) at the start and end of GetPageWithFreeSpace,
//     RecordPageWithFreeSpace, RecordAndGetPageWithFreeSpace,
//     FreeSpaceMapVacuumRange, RelationGetBufferForTuple, heap_insert,
//     heap_delete and VACUUM;
//   - KSearchStep (OFSMNode) for each node fsm_search_avail reads: After
//     = its value, Before = the category sought; (OLocalMap) each entry
//     fsm_local_search reads;
//   - KCategory (a leaf) and KNodeStore (an inner node) for each node
//     written, Before → After; KNextSlot (OFSMPage) for fp_next_slot;
//   - KFSMSkip (OFSMPage) for an FSM page fsm_readbuf did not read because
//     the fork is missing or too short;
//   - KHeapPage (OHeapPage) for each change of a heap page's layout:
//     Before → After page words (HeapPage.Word); KPageTried for a page
//     RelationGetBufferForTuple found too full;
//   - KForkSize (OFSMRel) for a fork created or extended (fork words,
//     ForkWord); KTarget for a backend's cached target block;
//   - KLocalMap / KLocalMapSize (OLocalMap) for the small-skip local
//     map's entries and size;
//   - KLoad for a value read or a decision (a slot found on a page, the
//     heap page's free space, fsm_allow_writes's answer, …);
//   - KError (OFSMRel) for an ERROR, Arg = ErrCode.
//
// Every change is emitted right after it is made, before any other event,
// so that a view applying the events agrees with the engine after each
// one (viz/fsmview). Describe decodes them; Site tells exactly which line
// did what.

var ownSites = func() map[trace.Site]bool {
	m := map[trace.Site]bool{}
	for _, f := range pseudoFuncs {
		for s := trace.Site(1); int(s) < trace.Sites(); s++ {
			if s.Info().Func == f {
				m[s] = true
			}
		}
	}
	return m
}()

// IsFSMEvent reports whether e comes from this package.
func IsFSMEvent(e trace.Event) bool { return ownSites[e.Site] }

func relName(names bufmgr.RelNamer, rel uint32) string {
	if names != nil {
		return names(rel)
	}
	return fmt.Sprint(rel)
}

// AddrString prints a packed address as rel/fork/block[ node n], with the
// main fork's name left out ("t/3 lp 2" for a line pointer).
func AddrString(names bufmgr.RelNamer, rel uint32, a uint64) string {
	f, blk, node := UnpackAddr(a)
	s := bufmgr.TagString(bufmgr.MakeTag(rel, f, blk), names)
	switch {
	case node == NodePage:
		return s
	case node == NodeNextSlot:
		return s + " fp_next_slot"
	case f == bufmgr.MainForkNum:
		return fmt.Sprintf("%s lp %d", s, node)
	}
	return fmt.Sprintf("%s node %d", s, node)
}

func blkString(v uint64) string {
	if uint32(v) == InvalidBlockNumber || v == NoSlot {
		return "none"
	}
	return fmt.Sprint(v)
}

// Describe prints an event with its values decoded; events of other
// packages go to bufmgr.Describe.
func Describe(e trace.Event, names bufmgr.RelNamer) string {
	return DescribeWith(e, names, trace.ActorName)
}

// DescribeWith is Describe with backends named by actor (a scenario's
// names).
func DescribeWith(e trace.Event, names bufmgr.RelNamer, actor func(trace.Actor) string) string {
	if !IsFSMEvent(e) {
		return bufmgr.DescribeWith(e, names, actor)
	}
	head := fmt.Sprintf("%05d %-3s %-13s %-24s ", e.Seq, actor(e.Actor), e.Kind, e.Site)
	rel := relName(names, e.Obj)
	addr := AddrString(names, e.Obj, e.Arg)
	b, a := e.Before, e.After
	var d string
	switch e.Site.String() {
	case "setavail.leaf", "setavail.parent", "rebuild.node":
		d = fmt.Sprintf("%s: %d -> %d", addr, b, a)
	case "setavail.corrupt":
		d = fmt.Sprintf("%s: root %d is below the value set: rebuild", addr, a)
	case "srchavail.root", "srchavail.climb", "srchavail.left", "srchavail.right":
		node := map[string]string{"srchavail.root": " (root)", "srchavail.left": " (left child)", "srchavail.right": " (right child)"}[e.Site.String()]
		d = fmt.Sprintf("%s = %d%s, want %d", addr, a, node, b)
	case "srchavail.torn":
		d = fmt.Sprintf("%s = %d, neither child has %d: torn page, rebuild", addr, a, b)
	case "srchavail.next-slot", "fsmvac.reset-next":
		d = fmt.Sprintf("%s %d -> %d", addr, int32(b), int32(a))
	case "cat.error", "hio.too-big":
		d = fmt.Sprintf("rel %s: %s", rel, errText(ErrCode(e.Arg), b))
	case "gpwfs.begin":
		d = fmt.Sprintf("rel %s: need %d bytes = category %d", rel, e.Arg, a)
	case "gpwfs.last":
		d = fmt.Sprintf("rel %s: no FSM hit, %s: try the last, %d", rel, plural(b, "block"), a)
	case "gpwfs.local":
		d = fmt.Sprintf("rel %s: no FSM, %s <= threshold %d: local map", rel, plural(a, "block"), e.Arg)
	case "gpwfs.done", "ragp.search", "ragp.same-page":
		d = fmt.Sprintf("rel %s: -> block %s", rel, blkString(a))
		if e.Site.String() == "ragp.same-page" {
			d += " (same leaf page)"
		}
	case "rpwfs.skip":
		d = fmt.Sprintf("rel %s: block %d, %d bytes: no FSM allowed, not recorded", rel, b, e.Arg)
	case "rpwfs.begin":
		d = fmt.Sprintf("rel %s: block %d has %d bytes = category %d", rel, b, e.Arg, a)
	case "rpwfs.done":
		d = fmt.Sprintf("rel %s: block %d recorded", rel, b)
	case "ragp.begin":
		d = fmt.Sprintf("rel %s: block %d is category %d now; want category %d", rel, b, a, e.Arg)
	case "ragp.local-new":
		d = fmt.Sprintf("rel %s: block %d full, no FSM (%s): local map", rel, b, plural(a, "block"))
	case "grfs.done":
		d = fmt.Sprintf("%s: category %d = %d bytes", addr, b, a)
	case "fsmread.beyond":
		fork := "no fork"
		if b != 0 {
			fork = "fork of " + plural(a, "block")
		}
		d = fmt.Sprintf("%s: %s, not read", addr, fork)
	case "fsmread.zeroed":
		if _, _, node := UnpackAddr(e.Arg); node == NodePage {
			d = fmt.Sprintf("%s: torn page header, zeroed", addr)
		} else {
			d = fmt.Sprintf("%s: %d -> 0 (zeroed)", addr, int64(b))
		}
	case "fsmread.init", "hio.init", "hio.extend-init":
		d = fmt.Sprintf("%s: new page initialised", addr)
		if e.Site.String() != "fsmread.init" {
			d += fmt.Sprintf(", %d bytes free", UnpackHeapWord(a).FreeSpace())
		}
	case "fsmext.create":
		d = fmt.Sprintf("rel %s: FSM fork created", rel)
	case "fsmext.extend", "vm.extend", "hio.extend":
		f, _, _ := UnpackAddr(e.Arg)
		bx, bn := UnpackForkWord(b)
		_, an := UnpackForkWord(a)
		d = fmt.Sprintf("rel %s: %s fork %d -> %s", rel, f, bn, plural(uint64(an), "block"))
		if !bx {
			d += " (created)"
		}
	case "torn.node":
		d = fmt.Sprintf("%s: %d -> %d, written alone (a torn page)", addr, b, a)
	case "torn.header":
		d = fmt.Sprintf("%s: page header torn; the next read zeroes the page", addr)
	case "fsmsearch.begin":
		d = fmt.Sprintf("rel %s: fsm_search for category %d from the root", rel, a)
	case "fsmsearch.slot":
		d = fmt.Sprintf("%s (%s): slot %s", addr, UnpackAddrWord(b), slotString(a))
	case "fsmsearch.found":
		d = fmt.Sprintf("rel %s: category %d at block %d", rel, b, a)
	case "fsmsearch.beyond-eof":
		d = fmt.Sprintf("rel %s: block %d is past the end (%s): slot zeroed, restart", rel, a, plural(b, "block"))
	case "fsmsearch.give-up":
		d = fmt.Sprintf("rel %s: %d restarts: give up", rel, a)
	case "fsmsearch.none":
		d = fmt.Sprintf("rel %s: no page has category %d", rel, b)
	case "fsmsearch.fix-parent":
		d = fmt.Sprintf("%s: %s has only %d: set its parent slot", addr, UnpackAddrWord(b), a)
	case "fsmsearch.restart", "fsmsearch.eof-restart":
		d = fmt.Sprintf("rel %s: restart %d from the root", rel, a)
	case "fsmvac.begin", "fsmvac.done":
		d = fmt.Sprintf("rel %s: heap blocks %d..%s", rel, b, endString(a))
	case "fsmvac.eof":
		d = fmt.Sprintf("%s (%s): beyond the fork", addr, UnpackAddrWord(b))
	case "fsmvac.max":
		d = fmt.Sprintf("%s (%s): max %d", addr, UnpackAddrWord(b), a)
	case "allow.blk", "allow.nblocks", "allow.relpages", "allow.exists", "allow.no", "allow.counted":
		what := map[string]string{"allow.blk": "block", "allow.nblocks": "nblocks", "allow.relpages": "relpages",
			"allow.exists": "FSM fork blocks", "allow.no": "nblocks", "allow.counted": "nblocks counted"}[e.Site.String()]
		d = fmt.Sprintf("rel %s: block %d, %s %d: %s", rel, b, what, e.Arg, yesNo(a))
	case "localset.avail", "localset.target", "ragp.local":
		d = fmt.Sprintf("local map of %s: block %d %s -> %s", trace.ActorName(trace.Actor(e.Obj)), e.Arg, availString(b), availString(a))
	case "localset.nblocks":
		d = fmt.Sprintf("local map of %s: for rel %s, %s", trace.ActorName(trace.Actor(e.Obj)), relName(names, uint32(e.Arg)), plural(a, "block"))
		if b != 0 {
			d += fmt.Sprintf(" (was set for %s: an assertion failure in a debug build)", plural(b, "block"))
		}
	case "localsearch.check":
		d = fmt.Sprintf("local map of %s: block %d %s", trace.ActorName(trace.Actor(e.Obj)), e.Arg, availString(a))
	case "localsearch.none":
		d = fmt.Sprintf("local map of %s: nothing left to try", trace.ActorName(trace.Actor(e.Obj)))
	case "localclear":
		if e.Kind == trace.KLocalMapSize {
			d = fmt.Sprintf("local map of %s: cleared (was for %s of rel %s)", trace.ActorName(trace.Actor(e.Obj)), plural(b, "block"), relName(names, uint32(e.Arg)))
		} else {
			d = fmt.Sprintf("local map of %s: block %d %s -> %s", trace.ActorName(trace.Actor(e.Obj)), e.Arg, availString(b), availString(a))
		}
	case "extlock.grant", "extlock.wait", "extlock.woken", "extlock.release":
		d = fmt.Sprintf("rel %s: extension lock %s -> %s", rel, extLockString(b), extLockString(a))
	case "addblocks.waiters":
		d = fmt.Sprintf("rel %s: %d backends hold or await the extension lock", rel, a)
	case "addblocks.begin":
		d = fmt.Sprintf("rel %s: %s wanted, waitcount %d: extend by %d", rel, plural(e.Arg, "page"), b, a)
	case "extend.limit":
		d = fmt.Sprintf("rel %s: LimitAdditionalPins (%d buffers): %d -> %d pages", rel, e.Arg, b, a)
	case "extend.fork":
		_, bn := UnpackForkWord(b)
		_, an := UnpackForkWord(a)
		d = fmt.Sprintf("rel %s: main fork %d -> %s (blocks %d..%d)", rel, bn, plural(uint64(an), "block"), bn, an-1)
	case "addblocks.init":
		d = fmt.Sprintf("%s: new page initialised, %d bytes free", addr, UnpackHeapWord(a).FreeSpace())
	case "addblocks.done":
		d = fmt.Sprintf("rel %s: -> block %d; %s in the FSM", rel, a, plural(b-1, "more page"))
	case "extend.lock-first":
		d = fmt.Sprintf("%s: content-locked by %s until its tuple is in", addr, trace.ActorName(trace.Actor(a)))
	case "hio.wait-new":
		d = fmt.Sprintf("%s: content-locked by %s (its new page): wait", addr, trace.ActorName(trace.Actor(a)))
	case "heapins16.unlock-new":
		d = fmt.Sprintf("%s: content lock of %s released", addr, trace.ActorName(trace.Actor(b)))
	case "hio16.recheck":
		d = fmt.Sprintf("%s: %d bytes free after the unlock, need %d", addr, a, b)
	case "hio.begin":
		d = fmt.Sprintf("rel %s: tuple %d bytes, fillfactor keeps %d: want %d free", rel, e.Arg, b, a)
	case "hio.cached":
		d = fmt.Sprintf("rel %s: cached target block %s", rel, blkString(a))
	case "hio.last":
		d = fmt.Sprintf("rel %s: FSM knows nothing: try the last page, %d", rel, a)
	case "hio.read":
		d = fmt.Sprintf("rel %s: try block %d", rel, a)
	case "hio.vm-pin", "heapdel.vm-pin", "vacuum.vm-pin":
		d = fmt.Sprintf("rel %s: block %d is covered by %s", rel, b, addr)
	case "hio.check":
		d = fmt.Sprintf("%s: %d bytes free, want %d", addr, a, b)
	case "hio.full":
		d = fmt.Sprintf("%s: too full (%d < %d), release", addr, a, b)
	case "hio.set-target":
		d = fmt.Sprintf("rel %s: target block %s -> %s", rel, blkString(b), blkString(a))
	case "hio.use", "hio.extended":
		d = fmt.Sprintf("rel %s: -> block %d", rel, a)
	case "heapins.begin":
		d = fmt.Sprintf("rel %s: tuple of %d bytes", rel, e.Arg)
	case "heapins.put":
		d = fmt.Sprintf("%s: free %d -> %d", addr, UnpackHeapWord(b).FreeSpace(), UnpackHeapWord(a).FreeSpace())
	case "heapins.clear-vm", "heapdel.clear-vm", "vacuum.all-visible":
		d = fmt.Sprintf("%s: all-visible %s -> %s", addr, yesNo(b2u(UnpackHeapWord(b).AllVisible)), yesNo(b2u(UnpackHeapWord(a).AllVisible)))
	case "heapins.done":
		d = fmt.Sprintf("rel %s: tuple at %s", rel, UnpackTID(a))
	case "heapdel.begin", "heapdel.mark", "heapdel.done":
		d = addr
		if e.Site.String() == "heapdel.mark" {
			d += ": deleted"
		}
	case "vacuum.begin":
		d = fmt.Sprintf("rel %s: %s", rel, plural(a, "block"))
	case "vacuum.skip":
		d = fmt.Sprintf("rel %s: blocks %d..%d are all-visible: skipped", rel, b, a-1)
	case "vacuum.vm-count":
		d = fmt.Sprintf("rel %s: visibilitymap_count reads %s", rel, addr)
	case "vacuum.done":
		d = fmt.Sprintf("rel %s: relpages %d -> %d; every backend's target block forgotten", rel, b, a)
		if e.Arg == 1 {
			d = fmt.Sprintf("rel %s: relpages %d -> %d; pg_class unchanged, no invalidation: target blocks kept", rel, b, a)
		}
	case "vacuum.new":
		d = fmt.Sprintf("%s: new page, the map records %d bytes", addr, b)
	case "vacuum.empty":
		d = fmt.Sprintf("%s: empty, %d bytes free", addr, a)
	case "vacuum.prune":
		bi, ai := UnpackHeapWord(b), UnpackHeapWord(a)
		d = fmt.Sprintf("%s: free %d -> %d", addr, bi.FreeSpace(), ai.FreeSpace())
		if n := bi.Deleted - ai.Deleted; n > 0 {
			d += fmt.Sprintf(", %s removed", plural(uint64(n), "dead tuple"))
		}
	default:
		d = fmt.Sprintf("%s: %#x -> %#x arg %#x", addr, b, a, e.Arg)
	}
	return head + d
}

func slotString(v uint64) string {
	if v == NoSlot {
		return "none"
	}
	return fmt.Sprint(v)
}

func endString(v uint64) string {
	if uint32(v) == InvalidBlockNumber {
		return "end"
	}
	return fmt.Sprint(v - 1)
}

func yesNo(v uint64) string {
	if v != 0 {
		return "yes"
	}
	return "no"
}

func availString(v uint64) string {
	if v == localAvail {
		return "AVAIL"
	}
	return "NOT_AVAIL"
}

// ErrorText is the ERROR an FSM error event (kind error) reports, as
// its PostgreSQL message says it: "row is too big: size 8216, maximum
// size 8160".
func ErrorText(e trace.Event) string {
	return strings.TrimPrefix(errText(ErrCode(e.Arg), e.Before), "ERROR ")
}

func errText(c ErrCode, v uint64) string {
	switch c {
	case ErrInvalidRequestSize:
		return "ERROR invalid FSM request size"
	case ErrRowTooBig:
		return fmt.Sprintf("ERROR row is too big: size %d, maximum size %d", v, MaxHeapTupleSize)
	}
	return fmt.Sprintf("ERROR %d", c)
}

// maxPictureSlots bounds the slots Picture lists per FSM page,
// maxPictureBlocks the heap pages.
const (
	maxPictureSlots  = 12
	maxPictureBlocks = 16
)

func plural(n uint64, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// Picture draws a heap as text: one line per heap page (line pointers,
// pd_lower, pd_upper, PageGetHeapFreeSpace, its category, what the FSM
// records, all-visible), then each FSM page's root, fp_next_slot and
// non-zero slots, then each session's target block and local map.
func Picture(h *Heap, names bufmgr.RelNamer, sessions ...*Session) string {
	var b strings.Builder
	name := relName(names, h.Rel.Number)
	fsm := "no fsm"
	if h.fsmExists {
		fsm = "fsm " + plural(uint64(h.FSMBlocks()), "block")
	}
	vm := "no vm"
	if h.vmExists {
		vm = "vm " + plural(uint64(h.Rel.NBlocks[bufmgr.VMForkNum]), "block")
	}
	fmt.Fprintf(&b, "heap %s: fillfactor %d, %s, relpages %d, %s, %s\n", name, h.fillfactor, plural(uint64(h.NBlocks()), "block"), h.relpages, fsm, vm)
	if h.NBlocks() > 0 {
		b.WriteString("   blk  lps  lower  upper  free  cat  fsm  all-visible\n")
	}
	for blk := uint32(0); blk < h.NBlocks(); blk++ {
		if blk == maxPictureBlocks {
			fmt.Fprintf(&b, "  ... %s more\n", plural(uint64(h.NBlocks()-blk), "block"))
			break
		}
		p := h.HeapPage(blk)
		if p.IsNew() {
			fmt.Fprintf(&b, "  %4d  new page                        fsm %3d\n", blk, h.RecordedCat(blk))
			continue
		}
		dead := 0
		for _, it := range p.Items {
			if it.Flags == LPNormal && it.Deleted {
				dead++
			}
		}
		lps := fmt.Sprint(len(p.Items))
		if dead > 0 {
			lps = fmt.Sprintf("%d(%d deleted)", len(p.Items), dead)
		}
		free := p.HeapFreeSpace()
		fmt.Fprintf(&b, "  %4d  %3s  %5d  %5d  %4d  %3d  %3d  %s\n", blk, lps, p.Lower, p.Upper, free, SpaceAvailToCat(free),
			h.RecordedCat(blk), yesNo(b2u(p.AllVisible)))
	}
	for phys := uint32(0); phys < h.FSMBlocks() && phys < 16; phys++ {
		pg, _ := h.FSMPage(phys)
		fmt.Fprintf(&b, "  fsm block %d (%s): root %d, fp_next_slot %d, slots", phys, AddressOf(phys), pg.MaxAvail(), pg.NextSlot())
		n := 0
		for slot := 0; slot < SlotsPerFSMPage; slot++ {
			if v := pg.GetAvail(slot); v != 0 {
				if n < maxPictureSlots {
					fmt.Fprintf(&b, " %d:%d", slot, v)
				}
				n++
			}
		}
		switch {
		case n == 0:
			b.WriteString(" -")
		case n > maxPictureSlots:
			fmt.Fprintf(&b, " ... (%d non-zero)", n)
		}
		if !pg.Consistent() {
			b.WriteString(" TORN")
		}
		b.WriteByte('\n')
	}
	for _, s := range sessions {
		fmt.Fprintf(&b, "  session %s: target block %s", s.b.Name, blkString(uint64(s.TargetBlock(h))))
		if n, m := s.LocalMap(); n > 0 {
			fmt.Fprintf(&b, ", local map for %s %v", plural(uint64(n), "block"), m[:n])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// extLockString prints an extension lock word (ExtLockWord): "free",
// "A + 1 waiting".
func extLockString(w uint64) string {
	holder, n := UnpackExtLockWord(w)
	if holder == 0 {
		if n == 0 {
			return "free"
		}
		return fmt.Sprintf("free, %d requested", n)
	}
	if n <= 1 {
		return fmt.Sprintf("held by %s", trace.ActorName(holder))
	}
	return fmt.Sprintf("held by %s, %d waiting", trace.ActorName(holder), n-1)
}
