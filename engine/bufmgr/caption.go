package bufmgr

import (
	"fmt"

	"bufferlab/engine/internal/narrate"
	"bufferlab/engine/trace"
)

// Captions: one plain-English line per event of the pool, its pins, rings,
// scans and drops, written from the event's values (what the site's line of
// pseudo-code did, to which buffer, page or lock) and, for a few events,
// from an earlier one found by a bounded look back (narrate.Back):
//
//	cas-fail            the backends that wrote the word since this one read it
//	spin (header)       the backend holding the header lock
//	io-write            the page the victim is being cleaned for
//	lw-acquire (read)   the page whose mapping partition is locked
//	load (dlist.next)   the relation whose list is walked
//	lw-acquire (inval)  the buffer InvalidateBuffer removes (its header event)
//
// Every other caption reads only its own event: O(1). A look back stops at the event it wants, within a few
// events for all but a dirty victim's write (after the clock sweep that
// found the victim: four events per buffer passed), and never goes past
// narrate.Window events (idle padding included); when it finds nothing in
// the window the caption says less rather than guess.

// Caption says event i of evs in plain English, in one line, with the
// scenario's names: the pool's and its pins' and drops' events, and the
// runner's own (class none). Cost: O(1), or a bounded look back (above).
func Caption(evs []trace.Event, i int, names RelNamer, actor func(trace.Actor) string) string {
	c := captioner{evs: evs, i: i, e: evs[i], names: names, actor: actor}
	c.who = narrate.Who(c.e.Actor, actor)
	if s := c.caption(); s != "" {
		return s
	}
	return c.generic()
}

type captioner struct {
	evs   []trace.Event
	i     int
	e     trace.Event
	names RelNamer
	actor func(trace.Actor) string
	who   string
}

func (c *captioner) buf() string { return fmt.Sprintf("buffer %d", int32(c.e.Obj)) }

func (c *captioner) tag(p uint64) string { return TagString(UnpackTag(p), c.names) }

func (c *captioner) rel() string { return c.names.relName(c.e.Obj) }

func (c *captioner) before() uint32 { return uint32(c.e.Before) }

func (c *captioner) after() uint32 { return uint32(c.e.After) }

// back finds the latest event before this one, within window, that ok
// accepts.
func (c *captioner) back(window int, ok func(trace.Event) bool) (trace.Event, bool) {
	e, _, found := narrate.Back(c.evs, c.i, window, ok)
	return e, found
}

// readingTag is the page this backend's current read is for (its latest
// op at read.begin within narrate.Window), if any.
func (c *captioner) readingTag() (string, bool) {
	e, ok := c.back(narrate.Window, func(o trace.Event) bool {
		return o.Actor == c.e.Actor && o.Kind == trace.KOp && o.Site == sReadBegin
	})
	if !ok {
		return "", false
	}
	return c.tag(e.Arg), true
}

// byKind are the kinds whose captions are methods of their own, by site
// or by the event's values; caption says each of the others in a
// sentence.
var byKind = [trace.NumKinds]func(*captioner) string{
	trace.KOp:           (*captioner).op,
	trace.KOpDone:       (*captioner).opDone,
	trace.KLoad:         (*captioner).load,
	trace.KCAS:          (*captioner).cas,
	trace.KCASFail:      (*captioner).casFail,
	trace.KDirty:        (*captioner).dirty,
	trace.KLockHdr:      (*captioner).lockHdr,
	trace.KUnlockHdr:    (*captioner).unlockHdr,
	trace.KSpin:         (*captioner).spin,
	trace.KLWAcquire:    (*captioner).lw,
	trace.KLWWait:       (*captioner).lw,
	trace.KLWRelease:    (*captioner).lw,
	trace.KLWCondFail:   (*captioner).lw,
	trace.KSpinAcquire:  (*captioner).strategyLock,
	trace.KSpinRelease:  (*captioner).strategyLock,
	trace.KMapLookup:    (*captioner).mapLookup,
	trace.KMapInsert:    (*captioner).mapInsert,
	trace.KMapDelete:    (*captioner).mapDelete,
	trace.KFreelistPush: (*captioner).freelistPush,
	trace.KVictim:       (*captioner).victim,
	trace.KRetag:        (*captioner).retag,
	trace.KPrivRef:      (*captioner).privRef,
	trace.KError:        (*captioner).error,
}

func (c *captioner) caption() string {
	e := c.e
	if say := byKind[e.Kind]; say != nil {
		return say(c)
	}
	switch e.Kind {
	case trace.KFreelistPop:
		next := "the freelist is empty now"
		if int64(e.After) >= 0 {
			next = fmt.Sprintf("buffer %d is next", int64(e.After))
		}
		return fmt.Sprintf("%s takes %s off the head of the freelist: %s.", c.who, c.buf(), next)
	case trace.KClockTick:
		return fmt.Sprintf("%s advances the clock hand past buffer %d, which it examines next (nextVictimBuffer %d).",
			c.who, e.After, e.Before+1)
	case trace.KClockWrap:
		return fmt.Sprintf("%s brings the clock hand back into range (%d → %d): complete passes %d.",
			c.who, e.Before, e.After, e.Arg)
	case trace.KUsageDown:
		return fmt.Sprintf("The clock hand passes %s: usage %d → %d.",
			c.buf(), StateUsagecount(c.before()), StateUsagecount(c.after()))
	case trace.KSkipPinned:
		return fmt.Sprintf("The clock hand passes %s: pinned (refcount %d), so %s cannot take it; %s left.",
			c.buf(), StateRefcount(c.after()), c.who, narrate.Plural(e.Arg, "try"))
	case trace.KRingAdd:
		return fmt.Sprintf("%s puts %s into its ring, slot %d, to reuse it on the ring's next turn.", c.who, c.buf(), e.Arg)
	case trace.KRingReject:
		if int32(e.Obj) < 0 {
			return fmt.Sprintf("%s's ring slot %d is still empty: %s allocates a buffer the usual way.", c.who, e.Arg, c.who)
		}
		return fmt.Sprintf("%s cannot reuse ring %s (refcount %d, usage %d): it allocates the usual way.",
			c.who, c.buf(), StateRefcount(c.after()), StateUsagecount(c.after()))
	case trace.KHit:
		if e.Site == s17StartHit || e.Site == s18StartHit {
			return fmt.Sprintf("%s finds %s valid in %s: a hit, which ends this StartReadBuffers range.", c.who, c.tag(e.Arg), c.buf())
		}
		return fmt.Sprintf("%s finds %s in %s: a hit, no read needed.", c.who, c.tag(e.Arg), c.buf())
	case trace.KMiss:
		if e.Site == s18StartMiss {
			return fmt.Sprintf("%s has %s pinned and tagged for %s, not valid yet: AsyncReadBuffers will start its read.", c.who, c.buf(), c.tag(e.Arg))
		}
		if e.Site == s17StartMiss {
			return fmt.Sprintf("%s has %s pinned and tagged for %s, not valid yet: WaitReadBuffers will read it.", c.who, c.buf(), c.tag(e.Arg))
		}
		return fmt.Sprintf("%s did not find %s in the pool (a miss): it reads the page into %s.", c.who, c.tag(e.Arg), c.buf())
	case trace.KIORead:
		if e.After > 1 {
			if e.Before == 0 {
				return fmt.Sprintf("%s reads %d blocks with one smgrreadv: %s into %s first.", c.who, e.After, c.tag(e.Arg), c.buf())
			}
			return fmt.Sprintf("The same smgrreadv fills %s with %s (block %d of %d).", c.buf(), c.tag(e.Arg), e.Before+1, e.After)
		}
		if e.Site == s17ReadV {
			return fmt.Sprintf("%s reads %s from disk into %s (smgrreadv of one block).", c.who, c.tag(e.Arg), c.buf())
		}
		return fmt.Sprintf("%s reads %s from disk into %s (smgrread).", c.who, c.tag(e.Arg), c.buf())
	case trace.KCall:
		return c.call()
	case trace.KAIO:
		return c.aio()
	case trace.KIOWrite:
		if t, ok := c.readingTag(); ok {
			return fmt.Sprintf("%s writes dirty %s (%s) to disk, to make room for %s (smgrwrite).",
				c.who, c.buf(), c.tag(e.Arg), t)
		}
		return fmt.Sprintf("%s writes dirty %s (%s) to disk before reusing it (smgrwrite).", c.who, c.buf(), c.tag(e.Arg))
	case trace.KIOWait:
		if e.Site == sInvalWait {
			return fmt.Sprintf("Buffer %d is pinned by another backend: %s waits for the pin to go, then retries.", int32(e.Obj), c.who)
		}
		return fmt.Sprintf("%s sleeps until the I/O on %s ends (WaitIO): another backend is doing it.", c.who, c.buf())
	case trace.KWake:
		w := c.actor(trace.Actor(e.Arg))
		return fmt.Sprintf("%s wakes %s: only %s's pin is left on %s (ProcSendSignal).", c.who, w, w, c.buf())
	case trace.KStore:
		if e.Site == s17ScanSyncReport {
			return fmt.Sprintf("%s's read stream, ahead of its reading, reports block %d of %s for other scans (ss_report_location).",
				c.who, e.After, c.rel())
		}
		if e.Site == sScanSyncReport {
			return fmt.Sprintf("%s reports its scan of %s at block %d, for other scans to join (ss_report_location).",
				c.who, c.rel(), e.After)
		}
	}
	return ""
}

// generic is the caption of an event this file has no sentence for (a
// kind and site the pool never emits together): what kind of thing
// happened, to what, in words.
func (c *captioner) generic() string {
	what := map[trace.ObjClass]string{
		trace.OBuffer: c.buf(), trace.OPartition: fmt.Sprintf("mapping partition %d", c.e.Obj),
		trace.OContent: fmt.Sprintf("buffer %d's content lock", c.e.Obj), trace.OStrategy: "the clock sweep's state",
		trace.ORelation: c.rel(), trace.OBackend: fmt.Sprintf("backend %s", c.actor(trace.Actor(c.e.Obj))),
	}[c.e.Class]
	if what == "" {
		what = "the pool"
	}
	return c.who + narrate.Generic + what + ": " + kindWords[c.e.Kind] + "."
}

// kindWords says what each kind of event is, for generic.
var kindWords = map[trace.Kind]string{
	trace.KLoad: "a read of a shared value", trace.KCAS: "a compare-and-swap that succeeded",
	trace.KCASFail: "a compare-and-swap that failed", trace.KLockHdr: "a buffer header locked",
	trace.KSpin: "a spin on a held lock", trace.KUnlockHdr: "a buffer header unlocked",
	trace.KLWAcquire: "a lock taken", trace.KLWWait: "a wait for a lock", trace.KLWRelease: "a lock released",
	trace.KLWCondFail: "a lock not taken without waiting", trace.KSpinAcquire: "a spinlock taken",
	trace.KSpinRelease: "a spinlock released", trace.KMapLookup: "a mapping-table lookup",
	trace.KMapInsert: "a mapping-table insert", trace.KMapDelete: "a mapping-table delete",
	trace.KFreelistPop: "a buffer taken off the freelist", trace.KFreelistPush: "a buffer put on the freelist",
	trace.KClockTick: "a clock-hand tick", trace.KClockWrap: "the clock hand wrapped",
	trace.KUsageDown: "a usage count lowered", trace.KSkipPinned: "a pinned buffer passed",
	trace.KVictim: "a victim chosen", trace.KRingAdd: "a buffer added to a ring",
	trace.KRingReject: "a ring buffer not reused", trace.KHit: "a page found in the pool",
	trace.KMiss: "a page not in the pool", trace.KRetag: "a buffer given another page",
	trace.KIORead: "a page read from disk", trace.KIOWrite: "a page written to disk",
	trace.KIOWait: "a wait for I/O", trace.KPrivRef: "a private pin count changed",
	trace.KDirty: "a buffer marked dirty", trace.KError: "an ERROR", trace.KOp: "an operation begins",
	trace.KOpDone: "an operation ends", trace.KWake: "a waiting backend woken", trace.KStore: "a shared value stored",
}

func (c *captioner) op() string {
	e := c.e
	switch e.Site {
	case sReadBegin:
		return fmt.Sprintf("%s wants %s (ReadBuffer_common): is it in the pool already?", c.who, c.tag(e.Arg))
	case sReleaseBegin:
		return fmt.Sprintf("%s releases its pin on %s (%s).", c.who, c.buf(), c.tag(e.Arg))
	case sDirtyBegin:
		return fmt.Sprintf("%s changes the page in %s (%s) and marks it dirty (MarkBufferDirty).", c.who, c.buf(), c.tag(e.Arg))
	case sCleanupBegin:
		return fmt.Sprintf("%s wants the cleanup lock on %s (%s): its own pin must be the only one.", c.who, c.buf(), c.tag(e.Arg))
	case s17ReadBegin:
		return fmt.Sprintf("%s wants %s (ReadBuffer_common): StartReadBuffer pins a buffer for it.", c.who, c.tag(e.Arg))
	case s18ReadBegin:
		return fmt.Sprintf("%s wants %s (ReadBuffer_common): one block, which it reads itself if it must.", c.who, c.tag(e.Arg))
	case sScanInit, s17ScanInit, s18ScanInit:
		switch e.Site {
		case s17ScanInit:
			return fmt.Sprintf("%s starts a sequential scan of %s (%s) through a read stream, which looks ahead and combines reads.",
				c.who, c.rel(), narrate.Plural(e.After, "block"))
		case s18ScanInit:
			return fmt.Sprintf("%s starts a sequential scan of %s (%s) through a read stream whose reads I/O workers make.",
				c.who, c.rel(), narrate.Plural(e.After, "block"))
		}
		ring := "no ring: the table is at most a quarter of the pool"
		if e.Arg > 0 {
			ring = fmt.Sprintf("a ring of %s", narrate.Plural(e.Arg, "buffer"))
		}
		from := ""
		if e.Before != 0 {
			from = fmt.Sprintf(", from block %d", e.Before)
		}
		return fmt.Sprintf("%s starts a sequential scan of %s (%s%s), %s.", c.who, c.rel(), narrate.Plural(e.After, "block"), from, ring)
	case sDropBegin, sDropAllBegin:
		return c.dropBegin()
	}
	return ""
}

// dropBegin: Before = the strategy asked for, After = the one taken, Arg =
// the blocks to drop (InvalidBlockNumber: sizes not cached).
func (c *captioner) dropBegin() string {
	e := c.e
	what := c.rel() + "'s buffers"
	if e.Class == trace.ONone {
		what = fmt.Sprintf("the buffers of %d relations", e.Obj)
	}
	how := map[DropStrategy]string{
		DropScan:   "scanning every buffer in the pool",
		DropLookup: "looking each block up in the mapping table",
		DropDList:  "walking the relation's own buffer list",
	}[DropStrategy(e.After)]
	if how == "" {
		how = "the strategy " + DropStrategy(e.After).String()
	}
	size := "sizes not cached"
	if e.Arg != uint64(InvalidBlockNumber) {
		size = narrate.Plural(e.Arg, "block") + " to drop"
	}
	if DropStrategy(e.Before) == DropAuto {
		pick := map[DropStrategy]string{DropScan: "the full scan", DropLookup: "the per-block lookup"}[DropStrategy(e.After)]
		if pick == "" {
			pick = DropStrategy(e.After).String()
		}
		return fmt.Sprintf("%s drops %s (%s): PostgreSQL's rule picks %s.", c.who, what, size, pick)
	}
	return fmt.Sprintf("%s drops %s (%s) by %s.", c.who, what, size, how)
}

func (c *captioner) opDone() string {
	e := c.e
	switch e.Site {
	case sReadHitReturn:
		return fmt.Sprintf("%s has %s in %s, pinned: done without I/O.", c.who, c.tag(e.Arg), c.buf())
	case sReadDone:
		return fmt.Sprintf("%s has %s in %s, pinned and valid.", c.who, c.tag(e.Arg), c.buf())
	case sReleaseUnpin:
		return fmt.Sprintf("%s's release of %s is done.", c.who, c.buf())
	case sLockBufferUnlock:
		return fmt.Sprintf("%s is done: %s (%s) is dirty, to be written out before it is reused.", c.who, c.buf(), c.tag(e.Arg))
	case sCleanupGot:
		return fmt.Sprintf("%s holds the cleanup lock on %s (%s): nobody else pins it.", c.who, c.buf(), c.tag(e.Arg))
	case sScanEnd, s17ScanEnd, s18ScanEnd:
		return fmt.Sprintf("%s's scan of %s is done: %s read, its last pin released.", c.who, c.rel(), narrate.Plural(e.After, "block"))
	case s17ReadDone, s18ReadDone:
		return fmt.Sprintf("%s has %s in %s, pinned and valid.", c.who, c.tag(e.Arg), c.buf())
	case sScanPause:
		return fmt.Sprintf("%s's scan of %s pauses after %s, keeping its current page pinned.",
			c.who, c.rel(), narrate.Plural(e.After, "block"))
	case sDropLookupDone, sDropScanDone, sDropAllLookupDone, sDropAllScanDone, sDListDone:
		what := c.rel()
		if e.Class == trace.ONone {
			what = fmt.Sprintf("%d relations", e.Obj)
		}
		return fmt.Sprintf("%s's drop of %s is done: %s invalidated.", c.who, what, narrate.Plural(e.After, "buffer"))
	}
	return ""
}

func (c *captioner) load() string {
	e := c.e
	s := c.after()
	switch e.Site {
	case sPinLoad:
		return fmt.Sprintf("%s reads %s's state word (refcount %d, usage %d) to pin it with a CAS.",
			c.who, c.buf(), StateRefcount(s), StateUsagecount(s))
	case sUnpinLoad:
		return fmt.Sprintf("%s reads %s's state word (refcount %d) to take its pin off with a CAS.",
			c.who, c.buf(), StateRefcount(s))
	case sDirtyLoad:
		return fmt.Sprintf("%s reads %s's state word to set BM_DIRTY with a CAS.", c.who, c.buf())
	case s18Forwarded:
		if s&BmValid != 0 {
			return fmt.Sprintf("%s finds %s, pinned by its last call and handed on, already valid: no read for it.", c.who, c.buf())
		}
		return fmt.Sprintf("%s finds %s, pinned by its last call and handed on, not valid yet: it must be read.", c.who, c.buf())
	case sPinWait, sUnpinWait, sDirtyWait:
		if s&BmLocked != 0 {
			return fmt.Sprintf("%s reads %s's state word again: its header is still locked.", c.who, c.buf())
		}
		return fmt.Sprintf("%s reads %s's state word again: the header lock is free, so it tries its CAS.", c.who, c.buf())
	case sDropPrecheck:
		return fmt.Sprintf("%s's scan reads %s's tag without a lock: %s.", c.who, c.buf(), c.heldTag(e.Arg))
	case sDropAllLinear, sDropAllBSearch:
		how := "against each relation dropped"
		if e.Site == sDropAllBSearch {
			how = "by binary search among those dropped"
		}
		return fmt.Sprintf("%s's scan checks %s's relation %s: it holds %s.", c.who, c.buf(), how, c.heldTag(e.Arg))
	case sDListNext:
		next := "it is the last on the list"
		if int64(e.Arg) >= 0 {
			next = fmt.Sprintf("next is buffer %d", int64(e.Arg))
		}
		if l, ok := c.back(narrate.Window, func(o trace.Event) bool { return o.Actor == e.Actor && o.Class == trace.ORelation }); ok {
			return fmt.Sprintf("%s's walk of %s's list reaches %s: %s.", c.who, c.names.relName(l.Obj), c.buf(), next)
		}
		return fmt.Sprintf("%s's list walk reaches %s: %s.", c.who, c.buf(), next)
	case sSGBAllocs:
		return fmt.Sprintf("%s needs a free buffer: it counts the allocation (numBufferAllocs %d → %d).", c.who, e.Before, e.After)
	case sScanSyncStart:
		if uint32(e.Before) == InvalidBlockNumber {
			return fmt.Sprintf("No other scan of %s has reported where it is: %s starts at block %d (ss_get_location).",
				c.rel(), c.who, e.After)
		}
		return fmt.Sprintf("Another scan of %s reported block %d: %s starts at block %d to share its reads.",
			c.rel(), e.Before, c.who, e.After)
	case sDListHead:
		if e.After == trace.NoBuffer {
			return fmt.Sprintf("%s never had a buffer on a list: %s has nothing to drop.", c.rel(), c.who)
		}
		return fmt.Sprintf("%s reads the head of %s's buffer list: buffer %d, %s on the list.",
			c.who, c.rel(), int64(e.After), narrate.Plural(e.Arg, "buffer"))
	case sDListRestart:
		head := "the list is empty now"
		if int64(e.After) >= 0 {
			head = fmt.Sprintf("head buffer %d, %s left", int64(e.After), narrate.Plural(e.Arg, "buffer"))
		}
		return fmt.Sprintf("The next buffer left %s's list meanwhile: %s starts over (%s).", c.rel(), c.who, head)
	}
	return ""
}

// lockName names the lock of an LWLock event.
func (c *captioner) lockName() string {
	switch c.e.Class {
	case trace.OPartition:
		return fmt.Sprintf("mapping partition %d", c.e.Obj)
	case trace.OContent:
		return fmt.Sprintf("buffer %d's content lock", c.e.Obj)
	case trace.ORelation:
		return c.rel() + "'s buffer-list lock"
	}
	return "a lock"
}

func (c *captioner) lw() string {
	e := c.e
	lock := c.lockName()
	if e.Kind == trace.KLWCondFail && e.Site == sAllocContentCond {
		return fmt.Sprintf("%s does not wait for dirty %s's content lock (%s): it takes another victim.",
			c.who, c.buf(), narrate.HolderVerb(e.Before, c.actor))
	}
	if e.Kind == trace.KLWAcquire {
		switch e.Site {
		case sAllocLockShared:
			if t, ok := c.readingTag(); ok {
				return fmt.Sprintf("%s locks %s (shared) to look for %s.", c.who, lock, t)
			}
		case sInvalLockPart:
			return fmt.Sprintf("%s locks %s exclusively to remove %s's entry.", c.who, lock, c.invalBuf())
		case sAllocContentCond:
			return fmt.Sprintf("%s gets dirty %s's content lock (shared) without waiting: it can write the page.", c.who, c.buf())
		}
	}
	return lockWords.Caption(e, e.Site, c.who, lock, c.actor)
}

// lockWords are the pool's sentences for its LWLock events: the mapping
// partitions', the content locks' and the buffer lists'.
var lockWords = narrate.LockWords{
	Take: map[trace.Site]string{
		sAllocLockShared:    "%s locks %s (shared) to look its page up.",
		sAllocLockFirst:     "%s locks %s exclusively: of the old and new pages' partitions, the lower first.",
		sAllocLockSecond:    "%s locks %s exclusively, the higher of the two partitions.",
		sAllocLockNew:       "%s locks %s exclusively to map its page to the victim.",
		sLookupLock:         "%s locks %s (shared) to look up the next block to drop.",
		sLockBufferAcquire:  "%s takes %s exclusively to change the page.",
		sCleanupContentLock: "%s takes %s exclusively, as the cleanup lock requires.",
		sInvalLockList:      "%s takes %s exclusively to unlink the buffer.",
		sDListLock:          dlistRead,
		sDListRelock:        dlistRead,
		sDListAllocLock:     "%s takes %s exclusively to move its new buffer onto the list.",
	},
	Release: map[trace.Site]string{
		sAllocMissUnlock:       "%s releases %s: the page is not in the pool, so it looks for a victim.",
		sAllocHitUnlock:        "%s releases %s: it holds a pin on the page's buffer.",
		sAllocCollideUnlockOld: oldPartition,
		sAllocRecheckUnlockOld: oldPartition,
		sAllocUnlockOld:        oldPartition,
		sAllocCollideUnlockNew: "%s releases %s: it pinned the buffer another backend loaded the page into.",
		sAllocRecheckUnlockNew: "%s releases %s and looks for another victim.",
		sAllocUnlockNew:        "%s releases %s: the page is mapped to its buffer.",
		sAllocContentRelease:   "%s releases %s: the page is written out.",
		sCleanupMultiRelease:   otherPins,
		sCleanupContentUnlock:  otherPins,
		sInvalChangedRelease:   notInvalidated,
		sInvalPinnedRelease:    notInvalidated,
		sInvalRelease:          "%s releases %s: the buffer is invalidated, and goes on the freelist next.",
		sInvalUnlink:           "%s releases %s: the buffer is off the list.",
		sDListUnlock:           "%s releases %s while it checks the buffer.",
		sDListDone:             "%s releases %s: the end of the list.",
	},
}

// The sentences of lockWords that several sites say.
const (
	dlistRead      = "%s takes %s (shared) to read the next link."
	oldPartition   = "%s releases %s, the old page's partition."
	otherPins      = "%s releases %s so that the other pins can go."
	notInvalidated = "%s releases %s without invalidating the buffer."
)

// invalBuf is the buffer InvalidateBuffer works on: this backend's latest
// header event before the partition lock, within narrate.Window.
func (c *captioner) invalBuf() string {
	if o, ok := c.back(narrate.Window, func(o trace.Event) bool {
		return o.Actor == c.e.Actor && o.Class == trace.OBuffer && (o.Kind == trace.KUnlockHdr || o.Kind == trace.KIOWait)
	}); ok {
		return fmt.Sprintf("buffer %d", int32(o.Obj))
	}
	return "the buffer"
}

func (c *captioner) strategyLock() string {
	e := c.e
	if e.Kind == trace.KSpinAcquire {
		switch e.Site {
		case sSGBSpinAcquire:
			return fmt.Sprintf("%s takes buffer_strategy_lock to pop a buffer off the freelist.", c.who)
		case sTickSpinAcquire:
			return fmt.Sprintf("%s takes buffer_strategy_lock to bring the clock hand back into range.", c.who)
		case sFreeSpinAcquire:
			return fmt.Sprintf("%s takes buffer_strategy_lock to put the buffer on the freelist.", c.who)
		}
		return fmt.Sprintf("%s takes buffer_strategy_lock.", c.who)
	}
	if e.Site == sSGBSpinEmpty {
		return fmt.Sprintf("The freelist is empty after all: %s releases buffer_strategy_lock and runs the clock.", c.who)
	}
	return fmt.Sprintf("%s releases buffer_strategy_lock.", c.who)
}

func (c *captioner) mapLookup() string {
	e := c.e
	part := fmt.Sprintf("mapping partition %d", e.Obj)
	t := c.tag(e.Arg)
	if e.Site == sLookupLookup {
		if e.After == trace.NoBuffer {
			return fmt.Sprintf("%s looks up %s in %s: not in the pool, nothing to drop.", c.who, t, part)
		}
		return fmt.Sprintf("%s looks up %s in %s: buffer %d holds it, to be invalidated.", c.who, t, part, int64(e.After))
	}
	if e.After == trace.NoBuffer {
		return fmt.Sprintf("%s looks up %s in %s: not there (a miss).", c.who, t, part)
	}
	return fmt.Sprintf("%s looks up %s in %s: buffer %d holds it (a hit).", c.who, t, part, int64(e.After))
}

func (c *captioner) mapInsert() string {
	e := c.e
	t := c.tag(e.Arg)
	if e.After == trace.NoBuffer {
		return fmt.Sprintf("%s maps %s to buffer %d in mapping partition %d.", c.who, t, int64(e.Before), e.Obj)
	}
	return fmt.Sprintf("%s finds %s mapped to buffer %d already: another backend loaded it first.", c.who, t, int64(e.After))
}

func (c *captioner) mapDelete() string {
	e := c.e
	t := c.tag(e.Arg)
	switch e.Site {
	case sAllocDeleteOld:
		return fmt.Sprintf("%s removes the old page %s (buffer %d) from mapping partition %d.", c.who, t, int64(e.Before), e.Obj)
	case sAllocRecheckDelete:
		return fmt.Sprintf("%s takes its entry for %s back out of mapping partition %d.", c.who, t, e.Obj)
	}
	return fmt.Sprintf("%s removes %s (buffer %d) from mapping partition %d.", c.who, t, int64(e.Before), e.Obj)
}

func (c *captioner) freelistPush() string {
	e := c.e
	if int64(e.Before) < 0 {
		return fmt.Sprintf("%s puts %s on the freelist, which was empty.", c.who, c.buf())
	}
	return fmt.Sprintf("%s puts %s at the head of the freelist, before buffer %d.", c.who, c.buf(), int64(e.Before))
}

func (c *captioner) victim() string {
	e := c.e
	switch e.Arg {
	case VictimFreelist:
		return fmt.Sprintf("%s takes %s from the freelist as its victim: unpinned, usage 0.", c.who, c.buf())
	case VictimSweep:
		return fmt.Sprintf("The clock hand stops at %s: unpinned, usage 0. It is %s's victim.", c.buf(), c.who)
	case VictimRing:
		return fmt.Sprintf("%s takes %s from its ring again (ring slot %d): a bulk operation reuses its own buffers.",
			c.who, c.buf(), e.Before)
	}
	return fmt.Sprintf("%s takes %s as its victim.", c.who, c.buf())
}

// call says a call event of PostgreSQL 17's read path.
func (c *captioner) call() string {
	e := c.e
	blocks := func(n uint64) string {
		if n <= 1 {
			return fmt.Sprintf("block %d", e.Before)
		}
		return fmt.Sprintf("blocks %d..%d", e.Before, e.Before+n-1)
	}
	switch e.Site {
	case s17StartBegin:
		return fmt.Sprintf("%s calls StartReadBuffers for %s of %s: a pin for each, up to the first already valid.", c.who, blocks(e.After), c.rel())
	case s17StartDone:
		return fmt.Sprintf("%s's StartReadBuffers covered %s.", c.who, blocks(e.After))
	case s17WaitBegin:
		return fmt.Sprintf("%s calls WaitReadBuffers: %s to read.", c.who, blocks(e.After))
	case s17WaitDone:
		return fmt.Sprintf("%s's WaitReadBuffers is done: %s.", c.who, narrate.Plural(e.After, "smgrreadv call"))
	}
	return ""
}

func (c *captioner) retag() string {
	e := c.e
	if e.After == noTag {
		return fmt.Sprintf("%s clears %s's tag: %s is gone from the pool.", c.who, c.buf(), c.tag(e.Before))
	}
	if e.Before == noTag {
		return fmt.Sprintf("%s gives empty %s the tag %s.", c.who, c.buf(), c.tag(e.After))
	}
	return fmt.Sprintf("%s retags %s: %s → %s. The old page is evicted.", c.who, c.buf(), c.tag(e.Before), c.tag(e.After))
}

func (c *captioner) privRef() string {
	e := c.e
	switch e.Site {
	case sUnpinPrivate, sUnpin95Private:
		if e.After > 0 {
			return fmt.Sprintf("%s's own pin count of %s drops %d → %d: it still pins it, no shared write.",
				c.who, c.buf(), e.Before, e.After)
		}
		return fmt.Sprintf("%s's own pin count of %s drops to 0: it takes its shared pin off next.", c.who, c.buf())
	}
	if e.Before > 0 {
		return fmt.Sprintf("%s pins %s again: its own count %d → %d, the state word untouched.", c.who, c.buf(), e.Before, e.After)
	}
	return fmt.Sprintf("%s notes its pin of %s in its private table (count %d → %d).", c.who, c.buf(), e.Before, e.After)
}

func (c *captioner) error() string {
	e := c.e
	switch ErrCode(e.Arg) {
	case ErrNoUnpinnedBuffers:
		return fmt.Sprintf("ERROR for %s: no unpinned buffers available. Every buffer stayed pinned.", c.who)
	case ErrReadBeyondEOF:
		return fmt.Sprintf("ERROR for %s: the block asked for is past the end of %s.", c.who, c.rel())
	case ErrMultiplePinWaiters:
		return fmt.Sprintf("ERROR for %s: multiple backends attempting to wait for pincount 1 (%s).", c.who, c.buf())
	case ErrPinnedInInvalidate:
		return fmt.Sprintf("ERROR for %s: %s is pinned in InvalidateBuffer, by %s itself.", c.who, c.buf(), c.who)
	}
	return fmt.Sprintf("ERROR for %s: %s.", c.who, ErrCode(e.Arg))
}
