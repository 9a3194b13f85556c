package fsm

import (
	"fmt"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/internal/narrate"
	"bufferlab/engine/trace"
)

// Captions: one plain-English line per event of the free space map and
// the heap insert path, by site (each site is one line of one modelled
// function, and its event always has the same kind), written from the
// event's values alone: O(1). The buffer accesses these paths make are the
// pool's events and its captions (bufmgr.Caption).

// Caption says event i of evs in plain English, in one line, with the
// scenario's names: the free space map's and the heap insert path's events.
func Caption(evs []trace.Event, i int, names bufmgr.RelNamer, actor func(trace.Actor) string) string {
	c := captioner{e: evs[i], names: names, actor: actor}
	c.who = narrate.Who(c.e.Actor, actor)
	if s := c.caption(); s != "" {
		return s
	}
	return c.who + narrate.Generic + c.rel() + "'s free space map or heap: " + kindWords[c.e.Kind] + "."
}

type captioner struct {
	e     trace.Event
	names bufmgr.RelNamer
	actor func(trace.Actor) string
	who   string
}

func (c *captioner) rel() string { return relName(c.names, c.e.Obj) }

// page names the FSM page or heap page of the event's Arg: "t's FSM page 2
// (leaf 0)", "t/3".
func (c *captioner) page() string {
	f, blk, _ := UnpackAddr(c.e.Arg)
	if f == bufmgr.FSMForkNum {
		return fmt.Sprintf("%s's FSM page %d (%s)", c.rel(), blk, addrWords(AddressOf(blk)))
	}
	return bufmgr.TagString(bufmgr.MakeTag(c.e.Obj, f, blk), c.names)
}

// addrWords names an FSM page by its place in the tree: "root page",
// "leaf page 3", "level-1 page 0".
func addrWords(a Address) string {
	switch a.Level {
	case FSMRootLevel:
		return "root page"
	case FSMBottomLevel:
		return fmt.Sprintf("leaf page %d", a.LogPageNo)
	}
	return fmt.Sprintf("level-%d page %d", a.Level, a.LogPageNo)
}

// fsmPage names an FSM page without its place in the tree: "t's FSM page 2".
func (c *captioner) fsmPage() string {
	_, blk, _ := UnpackAddr(c.e.Arg)
	return fmt.Sprintf("%s's FSM page %d", c.rel(), blk)
}

// node is the event's node number (Arg).
func (c *captioner) node() int {
	_, _, n := UnpackAddr(c.e.Arg)
	return n
}

// block names a heap block number, or "none".
func block(v uint64) string {
	if uint32(v) == InvalidBlockNumber || v == NoSlot {
		return "none"
	}
	return fmt.Sprintf("block %d", v)
}

// leafHeapBlock is the heap block a leaf of an FSM page stands for, if the
// page is a bottom-level page.
func leafHeapBlock(phys uint32, node int) (uint32, bool) {
	a := AddressOf(phys)
	if a.Level != FSMBottomLevel || node < NonLeafNodesPerPage {
		return 0, false
	}
	return a.LogPageNo*SlotsPerFSMPage + uint32(node-NonLeafNodesPerPage), true
}

// kindWords says what each kind of event is, for an event this file has
// no sentence for.
var kindWords = map[trace.Kind]string{
	trace.KLoad: "a value read", trace.KOp: "an operation begins", trace.KOpDone: "an operation ends",
	trace.KError: "an ERROR", trace.KNodeStore: "a node of an FSM page written", trace.KCategory: "a leaf of an FSM page written",
	trace.KSearchStep: "a node read by a search", trace.KNextSlot: "an FSM page's fp_next_slot hint changed",
	trace.KFSMSkip: "an FSM page past the fork's end, not read", trace.KPageTried: "a heap page found too full",
	trace.KHeapPage: "a heap page's layout changed", trace.KLocalMap: "a local map entry changed",
	trace.KLocalMapSize: "a local map's size changed", trace.KForkSize: "a fork created or extended",
	trace.KTarget: "a cached target block changed",
}

func (c *captioner) caption() string {
	e := c.e
	b, a := e.Before, e.After
	switch e.Site {
	// fsmpage.c
	case sSetAvailLeaf:
		_, phys, _ := UnpackAddr(e.Arg)
		if blk, ok := leafHeapBlock(phys, c.node()); ok {
			return fmt.Sprintf("%s records category %d for heap block %d in %s (was %d).", c.who, a, blk, c.fsmPage(), b)
		}
		return fmt.Sprintf("%s sets slot %d of %s to %d (was %d): a child page's maximum.",
			c.who, c.node()-NonLeafNodesPerPage, c.fsmPage(), a, b)
	case sSetAvailParent:
		return fmt.Sprintf("%s carries the change up %s: node %d %d → %d.", c.who, c.fsmPage(), c.node(), b, a)
	case sSetAvailCorrupt:
		return fmt.Sprintf("%s's root (%d) is below the value just set: %s rebuilds the page (fsm_rebuild_page).",
			c.fsmPage(), a, c.who)
	case sRebuildNode:
		return fmt.Sprintf("%s rebuilds node %d of %s from its children: %d → %d.", c.who, c.node(), c.fsmPage(), b, a)
	case sSearchRoot:
		if a < b {
			return fmt.Sprintf("%s reads %s's root: %d < %d, nothing on this page is enough.", c.who, c.fsmPage(), a, b)
		}
		return fmt.Sprintf("%s reads %s's root: %d ≥ %d, so a slot here has room.", c.who, c.fsmPage(), a, b)
	case sSearchClimb:
		if a >= b {
			return fmt.Sprintf("%s's search of %s stops climbing at node %d: %d ≥ %d.", c.who, c.fsmPage(), c.node(), a, b)
		}
		return fmt.Sprintf("%s's search of %s reads node %d: %d < %d, it climbs to the right.", c.who, c.fsmPage(), c.node(), a, b)
	case sSearchLeft, sSearchRight:
		side := "left"
		if e.Site == sSearchRight {
			side = "right"
		}
		if a < b {
			return fmt.Sprintf("%s's search of %s reads the %s child, node %d: %d < %d, not that way.",
				c.who, c.fsmPage(), side, c.node(), a, b)
		}
		return fmt.Sprintf("%s descends %s to the %s child, node %d: %d ≥ %d.", c.who, c.fsmPage(), side, c.node(), a, b)
	case sSearchTorn:
		return fmt.Sprintf("Node %d of %s says %d, but neither child has %d: a torn page. %s rebuilds it.",
			c.node(), c.fsmPage(), a, b, c.who)
	case sSearchNextSlot:
		return fmt.Sprintf("%s sets %s's fp_next_slot %d → %d: the next search starts there.", c.who, c.fsmPage(), int32(b), int32(a))

	// freespace.c
	case sCatError, sHioTooBig:
		return fmt.Sprintf("ERROR for %s: %s.", c.who, ErrorText(e))
	case sGPWFSBegin:
		return fmt.Sprintf("%s asks %s's FSM for a page with %d bytes free: category %d (GetPageWithFreeSpace).",
			c.who, c.rel(), e.Arg, a)
	case sGPWFSLast:
		return fmt.Sprintf("The FSM found nothing and %s has %s: %s tries the last one, block %d.",
			c.rel(), narrate.Plural(b, "block"), c.who, a)
	case sGPWFSLocal:
		return fmt.Sprintf("%s has no FSM and only %s (threshold %d): %s builds a local map (small-table skip).",
			c.rel(), narrate.Plural(a, "block"), e.Arg, c.who)
	case sGPWFSDone:
		if uint32(a) == InvalidBlockNumber {
			return fmt.Sprintf("%s's free space search of %s finds no page with room.", c.who, c.rel())
		}
		return fmt.Sprintf("%s's free space search of %s answers block %d.", c.who, c.rel(), a)
	case sRPWFSSkip:
		return fmt.Sprintf("%s may have no FSM yet: %s does not record block %d's %d bytes (small-table skip).",
			c.rel(), c.who, b, e.Arg)
	case sRPWFSBegin:
		return fmt.Sprintf("%s records block %d's %d bytes free in %s's FSM: category %d (RecordPageWithFreeSpace).",
			c.who, b, e.Arg, c.rel(), a)
	case sRPWFSDone:
		return fmt.Sprintf("%s has recorded category %d for block %d of %s.", c.who, a, b, c.rel())
	case sRAGPLocal:
		return fmt.Sprintf("Block %d was too full: %s marks it not available in its local map.", e.Arg, c.who)
	case sRAGPLocalNew:
		return fmt.Sprintf("Block %d was too full and %s has no FSM (%s): %s builds a local map.",
			b, c.rel(), narrate.Plural(a, "block"), c.who)
	case sRAGPBegin:
		return fmt.Sprintf("%s records block %d as category %d and asks for category %d (RecordAndGetPageWithFreeSpace).",
			c.who, b, a, e.Arg)
	case sRAGPSamePage:
		return fmt.Sprintf("The same FSM page points %s to block %d next.", c.who, a)
	case sRAGPSearch:
		if uint32(a) == InvalidBlockNumber {
			return fmt.Sprintf("%s's search from the root of %s's FSM finds no page with room.", c.who, c.rel())
		}
		return fmt.Sprintf("%s's search from the root of %s's FSM answers block %d.", c.who, c.rel(), a)
	case sGRFSDone:
		return fmt.Sprintf("%s's FSM records category %d for the block: %d bytes (GetRecordedFreeSpace).", c.rel(), b, a)
	case sFSMReadBeyond:
		_, blk, _ := UnpackAddr(e.Arg)
		if b == 0 {
			return fmt.Sprintf("The FSM has no page %d yet: %s has no FSM fork, so %s reads nothing.", blk, c.rel(), c.who)
		}
		return fmt.Sprintf("The FSM has no page %d yet: %s's FSM fork has %s, so %s reads nothing.",
			blk, c.rel(), narrate.Plural(a, "block"), c.who)
	case sFSMReadZeroed:
		if c.node() == NodePage {
			return fmt.Sprintf("%s fails its header check (a torn write): it reads as zeroes.", c.fsmPage())
		}
		return fmt.Sprintf("Node %d of %s reads as 0 (was %d): the page was zeroed.", c.node(), c.fsmPage(), int64(b))
	case sFSMReadInit:
		return fmt.Sprintf("%s is new: %s initialises it.", c.fsmPage(), c.who)
	case sFSMExtCreate:
		return fmt.Sprintf("%s creates %s's FSM fork (fsm_extend).", c.who, c.rel())
	case sFSMExtExtend, sVMExtend, sHioExtend:
		return c.forkSize()
	case sFSMSearchBegin:
		return fmt.Sprintf("%s searches %s's FSM from the root for category %d or more (fsm_search).", c.who, c.rel(), a)
	case sFSMSearchEOFRestart, sFSMSearchRestart:
		return fmt.Sprintf("%s starts its search over from the root (restart %d).", c.who, a)
	case sFSMSearchSlot:
		if a == NoSlot {
			return fmt.Sprintf("%s finds no slot with room on %s's FSM %s.", c.who, c.rel(), addrWords(UnpackAddrWord(b)))
		}
		return fmt.Sprintf("%s finds slot %d with room on %s's FSM %s.", c.who, a, c.rel(), addrWords(UnpackAddrWord(b)))
	case sFSMSearchFound:
		return fmt.Sprintf("The FSM points %s to heap block %d (category %d or more), which exists.", c.who, a, b)
	case sFSMSearchBeyondEOF:
		return fmt.Sprintf("The FSM points to block %d, past %s's end (%s): %s zeroes that slot.",
			a, c.rel(), narrate.Plural(b, "block"), c.who)
	case sFSMSearchGiveUp:
		return fmt.Sprintf("%s gives up after %s: no page found.", c.who, narrate.Plural(a, "restart"))
	case sFSMSearchNone:
		return fmt.Sprintf("No page of %s has category %d or more: the search finds nothing.", c.rel(), b)
	case sFSMSearchFixParent:
		return fmt.Sprintf("%s's FSM %s has only %d, less than its parent said: %s corrects the parent.",
			c.rel(), addrWords(UnpackAddrWord(b)), a, c.who)
	case sFSMVacBegin:
		return fmt.Sprintf("%s updates %s's upper FSM pages for heap blocks %d..%s (FreeSpaceMapVacuumRange).",
			c.who, c.rel(), b, endString(a))
	case sFSMVacDone:
		return fmt.Sprintf("%s's upper FSM pages now hold their children's maxima (blocks %d..%s).", c.rel(), b, endString(a))
	case sFSMVacEOF:
		return fmt.Sprintf("%s's FSM %s is past the fork's end: %s stops there.", c.rel(), addrWords(UnpackAddrWord(b)), c.who)
	case sFSMVacMax:
		if UnpackAddrWord(b).Level == FSMRootLevel {
			return fmt.Sprintf("%s's FSM root page holds at most %d: no page of %s is recorded with more.", c.rel(), a, c.rel())
		}
		return fmt.Sprintf("%s's FSM %s holds at most %d: its parent's slot is set to that.", c.rel(), addrWords(UnpackAddrWord(b)), a)
	case sFSMVacResetNext:
		return fmt.Sprintf("%s resets %s's fp_next_slot %d → 0 (a hint: not dirtied).", c.who, c.fsmPage(), int32(b))

	// The small-table skip (PG 12 development, reverted): the patch's own
	// functions, which no released PostgreSQL has, are not named.
	case sAllowBlk:
		return fmt.Sprintf("Block %d is past the small-table threshold: its free space goes to an FSM.", b)
	case sAllowNblocks, sAllowRelpages:
		what := "blocks"
		if e.Site == sAllowRelpages {
			what = "pages by relpages"
		}
		return fmt.Sprintf("%s has %d %s, %s: %s.", c.rel(), e.Arg, what, overThreshold(a), allowWords(a))
	case sAllowExists:
		return fmt.Sprintf("%s has an FSM fork already: block %d's free space goes to it.", c.rel(), b)
	case sAllowNo:
		return fmt.Sprintf("%s has %s and no FSM: block %d is not recorded (small-table skip).",
			c.rel(), narrate.Plural(e.Arg, "block"), b)
	case sAllowCounted:
		return fmt.Sprintf("%s counts %s's blocks: %d, %s: %s.", c.who, c.rel(), e.Arg, overThreshold(a), allowWords(a))
	case sLocalSetAvail:
		return fmt.Sprintf("%s marks block %d available in its local map.", c.who, e.Arg)
	case sLocalSetNblocks:
		return fmt.Sprintf("%s's local map now covers %s's %s.", c.who, relName(c.names, uint32(e.Arg)), narrate.Plural(a, "block"))
	case sLocalSetTarget:
		return fmt.Sprintf("%s marks block %d not available in its local map: it just tried it.", c.who, e.Arg)
	case sLocalSearchCheck:
		if a == localAvail {
			return fmt.Sprintf("%s's local map says block %d may have room: %s tries it.", c.who, e.Arg, c.who)
		}
		return fmt.Sprintf("%s's local map says block %d has no room.", c.who, e.Arg)
	case sLocalSearchNone:
		return fmt.Sprintf("%s's local map has no block left to try.", c.who)
	case sLocalClear:
		if e.Kind == trace.KLocalMapSize {
			return fmt.Sprintf("%s clears its local map (it covered %s of %s).",
				c.who, narrate.Plural(b, "block"), relName(c.names, uint32(e.Arg)))
		}
		return fmt.Sprintf("%s clears its local map's entry for block %d.", c.who, e.Arg)

	// PostgreSQL 16's bulk extension: hio.c, bufmgr.c, lmgr.c
	case sExtLockGrant:
		return fmt.Sprintf("%s takes %s's extension lock: nobody holds or awaits it (LockRelationForExtension).", c.who, c.rel())
	case sExtLockWait:
		h, n := UnpackExtLockWord(a)
		return fmt.Sprintf("%s's extension lock is held by %s: %s queues for it and sleeps (%d asking now).", c.rel(), c.actorName(h), c.who, n)
	case sExtLockWoken:
		return fmt.Sprintf("%s wakes holding %s's extension lock, granted by its last holder.", c.who, c.rel())
	case sExtLockRelease:
		if h, _ := UnpackExtLockWord(a); h != 0 {
			return fmt.Sprintf("%s releases %s's extension lock; the first waiter, %s, gets it (ProcLockWakeup).", c.who, c.rel(), c.actorName(h))
		}
		return fmt.Sprintf("%s releases %s's extension lock; nobody waits.", c.who, c.rel())
	case sAddBlocksWaiters:
		return fmt.Sprintf("%s counts the backends holding or awaiting %s's extension lock: %d (RelationExtensionLockWaiterCount).", c.who, c.rel(), a)
	case sAddBlocksBegin:
		if a > e.Arg {
			return fmt.Sprintf("%s will extend %s by %d pages, 1 + %d for the others asking (RelationAddBlocks).", c.who, c.rel(), a, b)
		}
		return fmt.Sprintf("%s will extend %s by %s: nobody else is asking (RelationAddBlocks).", c.who, c.rel(), narrate.Plural(a, "page"))
	case sExtendLimit:
		return fmt.Sprintf("A backend's share of %d buffers is %s pinned: %s extends by %d, not %d (LimitAdditionalPins).",
			e.Arg, narrate.Plural(a, "page"), c.who, a, b)
	case sExtendFork:
		_, bn := UnpackForkWord(b)
		_, an := UnpackForkWord(a)
		return fmt.Sprintf("%s extends %s from %d to %s in one call, holding the extension lock (ExtendBufferedRelBy).", c.who, c.rel(), bn, narrate.Plural(uint64(an), "block"))
	case sAddBlocksInit:
		return fmt.Sprintf("%s initialises the new page %s, which it keeps: %d bytes free.", c.who, c.page(), UnpackHeapWord(a).FreeSpace())
	case sAddBlocksDone:
		if b > 1 {
			return fmt.Sprintf("%s keeps block %d for itself; the other %s are in the FSM for anyone.", c.who, a, narrate.Plural(b-1, "new page"))
		}
		return fmt.Sprintf("%s keeps the one new block, %d, for itself.", c.who, a)
	case sExtendLockFirst:
		return fmt.Sprintf("%s keeps the first new page, %s, locked until its tuple is in (EB_LOCK_FIRST).", c.who, c.page())
	case sHioWaitNew:
		return fmt.Sprintf("%s is the new page %s has just added: %s waits for its lock.", c.page(), c.actorName(trace.Actor(a)), c.who)
	case sHioUnlockNew:
		return fmt.Sprintf("%s's tuple is in: it lets go of its lock on the new page %s.", c.who, c.page())
	case sAddBlocksRecheck:
		if a >= b {
			return fmt.Sprintf("%s still has %d bytes free after its lock was let go; %s needs %d: it fits.", c.page(), a, c.who, b)
		}
		return fmt.Sprintf("%s has only %d bytes free after its lock was let go; %s needs %d: it starts over.", c.page(), a, c.who, b)

	// hio.c, heapam.c, vacuumlazy.c, visibilitymap.c
	case sHioBegin:
		return fmt.Sprintf("%s needs a page for a tuple of %d bytes: %d free, fillfactor keeping %d (RelationGetBufferForTuple).",
			c.who, e.Arg, a, b)
	case sHioCached:
		if uint32(a) == InvalidBlockNumber {
			return fmt.Sprintf("%s has no target block cached for %s: it asks the FSM.", c.who, c.rel())
		}
		return fmt.Sprintf("%s's cached target block for %s is block %d: it tries that first.", c.who, c.rel(), a)
	case sHioLast:
		return fmt.Sprintf("The FSM knows nothing: %s tries %s's last page, block %d.", c.who, c.rel(), a)
	case sHioRead:
		return fmt.Sprintf("%s tries %s.", c.who, c.page())
	case sHioVMPin, sHDelVMPin:
		return fmt.Sprintf("Block %d is all-visible: %s pins %s, the map page covering it (visibilitymap_pin).", b, c.who, c.pageOnly())
	case sVacVMPin:
		return fmt.Sprintf("%s pins %s, the visibility map page covering block %d (visibilitymap_pin).", c.who, c.pageOnly(), b)
	case sHioInit:
		return fmt.Sprintf("%s is a new page: %s initialises it.", c.page(), c.who)
	case sHioCheck:
		if a >= b {
			return fmt.Sprintf("%s has %d bytes free; %s wants %d: the tuple fits.", c.page(), a, c.who, b)
		}
		return fmt.Sprintf("%s has %d bytes free; %s wants %d: too little.", c.page(), a, c.who, b)
	case sHioFull:
		return fmt.Sprintf("%s is too full (%d < %d): %s releases it and asks the FSM again.", c.page(), a, b, c.who)
	case sHioSetTarget:
		return fmt.Sprintf("%s caches %s as its target block for %s (was %s).", c.who, block(a), c.rel(), block(b))
	case sHioUse:
		return fmt.Sprintf("%s will put the tuple on block %d of %s.", c.who, a, c.rel())
	case sHioExtendInit:
		return fmt.Sprintf("%s initialises the new page %s: %d bytes free.", c.who, c.page(), UnpackHeapWord(a).FreeSpace())
	case sHioExtended:
		return fmt.Sprintf("%s will put the tuple on the new block %d (not in the FSM until VACUUM).", c.who, a)
	case sHInsBegin:
		return fmt.Sprintf("%s inserts a tuple of %d bytes into %s (heap_insert).", c.who, e.Arg, c.rel())
	case sHInsPut:
		return fmt.Sprintf("%s adds the tuple to %s as line pointer %d: free %d → %d bytes.",
			c.who, c.pageOnly(), c.node(), UnpackHeapWord(b).FreeSpace(), UnpackHeapWord(a).FreeSpace())
	case sHInsClearVM, sHDelClearVM:
		return fmt.Sprintf("%s is no longer all-visible: %s clears its visibility map bit too.", c.page(), c.who)
	case sHInsDone:
		return fmt.Sprintf("%s's tuple is in %s at %s.", c.who, c.rel(), UnpackTID(a))
	case sHDelBegin:
		return fmt.Sprintf("%s deletes %s's tuple %s (heap_delete).", c.who, c.rel(), c.tid())
	case sHDelMark:
		return fmt.Sprintf("%s marks tuple %s deleted: its space stays used until VACUUM.", c.who, c.tid())
	case sHDelDone:
		return fmt.Sprintf("%s's delete of %s's tuple %s is done.", c.who, c.rel(), c.tid())
	case sVacBegin:
		return fmt.Sprintf("%s vacuums %s: %s to scan (lazy_scan_heap).", c.who, c.rel(), narrate.Plural(a, "block"))
	case sVacSkip:
		return fmt.Sprintf("Blocks %d..%d of %s are all-visible: %s's VACUUM skips them.", b, a-1, c.rel(), c.who)
	case sVacNew:
		if b == 0 {
			return fmt.Sprintf("%s is a new, uninitialised page: %s records %d bytes free for it.", c.page(), c.who, a)
		}
		return fmt.Sprintf("%s is a new, uninitialised page, and the FSM has %d bytes for it already.", c.page(), b)
	case sVacEmpty:
		return fmt.Sprintf("%s is empty: %d bytes free.", c.page(), a)
	case sVacPrune:
		bi, ai := UnpackHeapWord(b), UnpackHeapWord(a)
		if n := bi.Deleted - ai.Deleted; n > 0 {
			return fmt.Sprintf("%s prunes %s: %s removed, free %d → %d bytes.",
				c.who, c.page(), narrate.Plural(uint64(n), "dead tuple"), bi.FreeSpace(), ai.FreeSpace())
		}
		return fmt.Sprintf("%s prunes %s: no dead tuple, %d bytes free.", c.who, c.page(), ai.FreeSpace())
	case sVacAllVisible:
		return fmt.Sprintf("%s is all-visible now: %s sets its visibility map bit.", c.page(), c.who)
	case sVacVMCount:
		return fmt.Sprintf("%s counts the all-visible pages: it reads %s (visibilitymap_count).", c.who, c.pageOnly())
	case sVacDone:
		if e.Arg == 1 {
			return fmt.Sprintf("%s's VACUUM is done: relpages %d → %d, pg_class unchanged, target blocks kept.", c.who, b, a)
		}
		return fmt.Sprintf("%s's VACUUM is done: relpages %d → %d; every backend forgets its target block.", c.who, b, a)

	// A crash's torn write (the system's doing).
	case sTornNode:
		return fmt.Sprintf("A crash tears %s: node %d is written alone, %d → %d.", c.fsmPage(), c.node(), b, a)
	case sTornHeader:
		return fmt.Sprintf("A crash damages %s's header: the next read zeroes the page.", c.fsmPage())
	}
	return ""
}

// pageOnly names the heap page of the event's Arg without its line
// pointer: "t/0".
func (c *captioner) pageOnly() string {
	f, blk, _ := UnpackAddr(c.e.Arg)
	return bufmgr.TagString(bufmgr.MakeTag(c.e.Obj, f, blk), c.names)
}

// tid is the tuple id in the event's Arg: "(0,3)".
func (c *captioner) tid() string {
	_, blk, off := UnpackAddr(c.e.Arg)
	return TID{Block: blk, Offset: uint16(off)}.String()
}

// forkSize: a fork created or extended (Before → After fork words).
func (c *captioner) forkSize() string {
	f, _, _ := UnpackAddr(c.e.Arg)
	bx, bn := UnpackForkWord(c.e.Before)
	_, an := UnpackForkWord(c.e.After)
	fork := map[bufmgr.ForkNumber]string{bufmgr.MainForkNum: "", bufmgr.FSMForkNum: "FSM fork", bufmgr.VMForkNum: "visibility map"}[f]
	if f == bufmgr.MainForkNum {
		return fmt.Sprintf("%s extends %s by a block: %d → %s.", c.who, c.rel(), bn, narrate.Plural(uint64(an), "block"))
	}
	if !bx {
		return fmt.Sprintf("%s creates %s's %s, with %s.", c.who, c.rel(), fork, narrate.Plural(uint64(an), "block"))
	}
	return fmt.Sprintf("%s extends %s's %s with zero pages: %d → %s.", c.who, c.rel(), fork, bn, narrate.Plural(uint64(an), "block"))
}

func overThreshold(ok uint64) string {
	if ok != 0 {
		return "over the threshold"
	}
	return "not over the threshold"
}

func allowWords(ok uint64) string {
	if ok != 0 {
		return "its free space goes to an FSM"
	}
	return "no FSM (small-table skip)"
}

// actorName names a backend by its actor.
func (c *captioner) actorName(a trace.Actor) string { return narrate.Who(a, c.actor) }
