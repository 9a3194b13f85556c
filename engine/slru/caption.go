package slru

import (
	"fmt"
	"strings"

	"bufferlab/engine/internal/narrate"
	"bufferlab/engine/trace"
)

// Captions: one plain-English line per event of the SLRU, written from the
// event's values and its site (canonical: a PG 16 block's site reads as
// the shared function's, and names the ControlLock instead of a bank's
// lock). Two kinds of event look back (narrate.Back), for what the event
// itself does not carry:
//
//	slot-scan   the bank being searched: the backend's latest bank event
//	io-write    the page a dirty victim is written out for: the page the
//	            backend's latest search was for
//
// Both find their event within a bank's worth of events in practice
// (SLRU_BANK_SIZE slots, or every slot for a single SLRU) and never look
// further than narrate.Window events; every other caption reads only its
// own event: O(1).

// Caption says event i of evs in plain English, in one line, with the
// scenario's backend names: the SLRU's events.
func Caption(evs []trace.Event, i int, actor func(trace.Actor) string) string {
	c := captioner{evs: evs, i: i, e: evs[i], actor: actor, site: canonical(evs[i].Site)}
	c.who = narrate.Who(c.e.Actor, actor)
	c.pg16 = strings.Contains(evs[i].Site.String(), "16.")
	if s := c.caption(); s != "" {
		return s
	}
	return c.who + narrate.Generic + c.object() + ": " + kindWords[c.e.Kind] + "."
}

type captioner struct {
	evs   []trace.Event
	i     int
	e     trace.Event
	site  trace.Site // canonical
	pg16  bool       // a single SLRU's event: PG 16's code, one ControlLock
	actor func(trace.Actor) string
	who   string
}

func (c *captioner) slot() string { return fmt.Sprintf("slot %d", c.e.Obj) }

// object names what the event's class says Obj is.
func (c *captioner) object() string {
	switch c.e.Class {
	case ClassBank:
		return c.bankLock()
	case ClassSlot:
		return c.slot()
	case ClassSlotIO:
		return fmt.Sprintf("slot %d's I/O lock", c.e.Obj)
	}
	return "the commit log"
}

// bankLock names the lock of a bank event: bank_locks[b], or PG 16's one
// ControlLock.
func (c *captioner) bankLock() string {
	if c.pg16 {
		return "the ControlLock"
	}
	return fmt.Sprintf("bank %d's lock", c.e.Obj)
}

// bankOf is the bank a slot event's search is in: the bank of the
// backend's latest bank event (its lock, LRU counter or hash table) within
// narrate.Window; "" for a single SLRU or when there is none.
func (c *captioner) bankOf() string {
	if c.pg16 {
		return ""
	}
	if o, _, ok := narrate.Back(c.evs, c.i, narrate.Window, func(o trace.Event) bool {
		return o.Actor == c.e.Actor && o.Class == ClassBank
	}); ok {
		return fmt.Sprintf(" of bank %d", o.Obj)
	}
	return ""
}

// pageSought is the page the backend's latest search was for (a slot
// compare or a hash probe), within narrate.Window.
func (c *captioner) pageSought() (uint64, bool) {
	o, _, ok := narrate.Back(c.evs, c.i, narrate.Window, func(o trace.Event) bool {
		return o.Actor == c.e.Actor && (o.Kind == trace.KSlotScan || o.Kind == trace.KMapLookup && o.Class == ClassBank)
	})
	return o.Arg, ok
}

// wordText says a slot word in words: "empty", "page 7 (valid, dirty)".
func wordText(w uint64) string {
	p, st, d := UnpackSlotWord(w)
	if st == PageEmpty {
		return "empty"
	}
	s := fmt.Sprintf("page %d (%s", p, statusWords[st])
	if d {
		s += ", dirty"
	}
	return s + ")"
}

var statusWords = [...]string{PageEmpty: "empty", PageReadInProgress: "being read in", PageValid: "valid",
	PageWriteInProgress: "being written out"}

var xidWords = [...]string{StatusInProgress: "in progress", StatusCommitted: "committed", StatusAborted: "aborted",
	StatusSubCommitted: "sub-committed"}

func xidText(st uint64) string {
	if st < uint64(len(xidWords)) {
		return xidWords[st]
	}
	return fmt.Sprintf("status %d", st)
}

// kindWords says what each kind of event is, for the caption of an event
// this file has no sentence for.
var kindWords = map[trace.Kind]string{
	trace.KLoad: "a read of a shared value", trace.KLWAcquire: "a lock taken", trace.KLWWait: "a wait for a lock",
	trace.KLWRelease: "a lock released", trace.KLWCondFail: "a lock not taken without waiting",
	trace.KMapLookup: "a probe of a bank's table", trace.KMapInsert: "an entry added to a bank's table",
	trace.KMapDelete: "an entry removed from a bank's table", trace.KHit: "a page found", trace.KMiss: "a page not found",
	trace.KVictim: "a slot chosen", trace.KIORead: "a page read", trace.KIOWrite: "a page written",
	trace.KIOWait: "a wait for I/O", trace.KDirty: "a page marked dirty", trace.KError: "an ERROR",
	trace.KOp: "an operation begins", trace.KOpDone: "an operation ends", trace.KSlotScan: "a slot compared",
	trace.KSlotState: "a slot's state changed", trace.KLRUCount: "an LRU counter moved",
	trace.KLRUTouch: "a slot made the most recently used", trace.KCandidate: "a slot weighed as victim",
	trace.KSkipLatest: "the latest page passed over", trace.KStore: "a value stored",
}

func (c *captioner) caption() string {
	e := c.e
	switch e.Kind {
	case trace.KOp:
		return c.op()
	case trace.KOpDone:
		return c.opDone()
	case trace.KLWAcquire, trace.KLWWait, trace.KLWRelease, trace.KLWCondFail:
		return c.lw()
	case trace.KSlotScan:
		return c.slotScan()
	case trace.KMapLookup:
		if e.After == trace.NoBuffer {
			return fmt.Sprintf("%s probes bank %d's hash table for page %d: not there (%s compared).",
				c.who, e.Obj, e.Arg, narrate.Plural(e.Before, "entry"))
		}
		return fmt.Sprintf("%s probes bank %d's hash table for page %d: slot %d (%s compared), no scan.",
			c.who, e.Obj, e.Arg, e.After, narrate.Plural(e.Before, "entry"))
	case trace.KMapInsert:
		return fmt.Sprintf("%s enters page %d → slot %d in bank %d's hash table.", c.who, e.Arg, e.After, e.Obj)
	case trace.KMapDelete:
		return fmt.Sprintf("%s removes page %d (slot %d) from bank %d's hash table.", c.who, e.Arg, e.Before, e.Obj)
	case trace.KLoad:
		return c.load()
	case trace.KLRUTouch:
		counter := "the LRU counter"
		if !c.pg16 {
			counter = "its bank's counter"
		}
		return fmt.Sprintf("%s makes %s the most recently used: its count %d → %d, %s %d → %d.",
			c.who, c.slot(), int32(e.Before), int32(e.After), counter, int32(e.Arg), int32(e.After))
	case trace.KLRUCount:
		if e.Class == ClassSlot {
			return fmt.Sprintf("%s's count %d was ahead of the counter (a lost update): %s sets it to %d.",
				capital(c.slot()), int32(e.Before), c.who, int32(e.After))
		}
		counter := "the LRU counter"
		if !c.pg16 {
			counter = fmt.Sprintf("bank %d's LRU counter", e.Obj)
		}
		return fmt.Sprintf("%s advances %s %d → %d: each slot's age is measured from %d.",
			c.who, counter, int32(e.Before), int32(e.After), int32(e.Before))
	case trace.KCandidate:
		return c.candidate()
	case trace.KSkipLatest:
		return fmt.Sprintf("%s passes %s: it holds page %d, the latest page, which is never evicted.", c.who, c.slot(), e.Arg)
	case trace.KVictim:
		return c.victim()
	case trace.KHit:
		if c.site == roBanks.hit || c.site == roSingle.hit || c.site == roHash.hit {
			return fmt.Sprintf("%s finds page %d in %s: a hit, under the shared lock.", c.who, e.Arg, c.slot())
		}
		return fmt.Sprintf("%s finds page %d in %s: a hit.", c.who, e.Arg, c.slot())
	case trace.KMiss:
		return fmt.Sprintf("Page %d is not in memory (a miss): %s reads it into %s.", e.Arg, c.who, c.slot())
	case trace.KSlotState:
		return c.slotState()
	case trace.KDirty:
		return fmt.Sprintf("%s marks %s dirty: page %d must be written out before the slot is reused.", c.who, c.slot(), e.Arg)
	case trace.KIORead:
		if e.After != 0 {
			return fmt.Sprintf("%s's read of page %d into %s fails (SlruPhysicalReadPage).", c.who, e.Arg, c.slot())
		}
		return fmt.Sprintf("%s reads page %d from segment %04X into %s (SlruPhysicalReadPage).",
			c.who, e.Arg, int64(e.Arg)/SlruPagesPerSegment, c.slot())
	case trace.KIOWrite:
		if e.After != 0 {
			return fmt.Sprintf("%s's write of page %d from %s fails (SlruPhysicalWritePage).", c.who, e.Arg, c.slot())
		}
		if p, ok := c.pageSought(); ok && p != e.Arg {
			return fmt.Sprintf("%s writes page %d of %s to disk, to make room for page %d (SlruPhysicalWritePage).",
				c.who, e.Arg, c.slot(), p)
		}
		return fmt.Sprintf("%s writes page %d of %s to segment %04X (SlruPhysicalWritePage).",
			c.who, e.Arg, c.slot(), int64(e.Arg)/SlruPagesPerSegment)
	case trace.KIOWait:
		return fmt.Sprintf("%s must wait for the I/O on %s (page %d) to end (SimpleLruWaitIO).", c.who, c.slot(), e.Arg)
	case trace.KStore:
		if e.Class == ClassSlot {
			return fmt.Sprintf("%s writes byte %d of %s's page: %#02x → %#02x.", c.who, e.Arg, c.slot(), e.Before, e.After)
		}
		return fmt.Sprintf("%s sets latest_page_number %d → %d: that page is never a victim.",
			c.who, int64(e.Before), int64(e.After))
	case trace.KError:
		return c.error()
	}
	return ""
}

// capital capitalises the first letter of s.
func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func (c *captioner) op() string {
	e := c.e
	switch e.Arg {
	case OpGetStatus:
		return fmt.Sprintf("%s asks for xid %d's status (TransactionIdGetStatus): on page %d.", c.who, e.Obj, e.Obj/ClogXactsPerPage)
	case OpSetStatus:
		return fmt.Sprintf("%s records xid %d as %s (TransactionIdSetPageStatus), on page %d.",
			c.who, e.Obj, xidText(e.After), e.Obj/ClogXactsPerPage)
	case OpExtend:
		return fmt.Sprintf("%s makes room for xid %d in the commit log (ExtendCLOG).", c.who, e.Obj)
	case OpBootstrap:
		return fmt.Sprintf("%s creates the commit log's first page (BootStrapCLOG).", c.who)
	case OpReadOnly:
		return fmt.Sprintf("%s wants page %d, only to read it (SimpleLruReadPage_ReadOnly).", c.who, e.Obj)
	case OpRead:
		return fmt.Sprintf("%s wants page %d under an exclusive lock (SimpleLruReadPage).", c.who, e.Obj)
	case OpZero:
		return fmt.Sprintf("%s puts a new, zeroed page %d in memory (SimpleLruZeroPage).", c.who, e.Obj)
	case OpWriteAll:
		return fmt.Sprintf("%s writes every dirty page out, as a checkpoint does (SimpleLruWriteAll).", c.who)
	}
	return ""
}

func (c *captioner) opDone() string {
	e := c.e
	switch e.Arg {
	case OpGetStatus:
		return fmt.Sprintf("%s has its answer: xid %d is %s.", c.who, e.Obj, xidText(e.After))
	case OpSetStatus:
		return fmt.Sprintf("%s is done: xid %d is %s in the commit log.", c.who, e.Obj, xidText(e.After))
	case OpWriteAll:
		return fmt.Sprintf("%s has written out every slot's dirty page, as a checkpoint does.", c.who)
	case OpExtend:
		if e.After == trace.NoBuffer {
			return fmt.Sprintf("xid %d does not start a page: %s has nothing to extend.", e.Obj, c.who)
		}
		return fmt.Sprintf("%s is done: the commit log's new page is in slot %d.", c.who, e.After)
	case OpBootstrap:
		return fmt.Sprintf("%s is done: the commit log's first page is written (slot %d).", c.who, e.After)
	}
	if e.After == trace.NoBuffer {
		return fmt.Sprintf("%s is done with page %d: nothing to do.", c.who, e.Obj)
	}
	return fmt.Sprintf("%s is done: page %d is in slot %d.", c.who, e.Obj, e.After)
}

func (c *captioner) lw() string {
	if c.e.Kind == trace.KLWCondFail && c.site == sWaitCond {
		return fmt.Sprintf("%s cannot take %s at once: the I/O is still going on.", c.who, c.object())
	}
	return lockWords.Caption(c.e, c.site, c.who, c.object(), c.actor)
}

// lockWords are the SLRU's sentences for its LWLock events: a bank's lock
// (or PG 16's ControlLock) and a slot's I/O lock.
var lockWords = narrate.LockWords{
	Take: map[trace.Site]string{
		roBanks.lock:      roLook,
		roSingle.lock:     roLook,
		roHash.lock:       roLook,
		roBanks.relock:    roRead,
		roSingle.relock:   roRead,
		roHash.relock:     roRead,
		sReadIOLock:       "%s takes %s exclusively: whoever needs the page waits for it.",
		sReadRelock:       "%s takes %s again to finish the read.",
		sWaitIOLock:       "%s gets %s (shared): the I/O it waited for is over.",
		sWaitRelock:       "%s takes %s again and looks at the slot once more.",
		sWaitCond:         "%s gets %s at once: nobody is doing the I/O, it failed without cleaning up.",
		sWriteIOLock:      "%s takes %s exclusively for its write.",
		sWriteRelock:      "%s takes %s again to finish the write.",
		sWriteAllLock:     writeAll,
		sWriteAllLockNext: writeAll,
		sClogSetLock:      "%s takes %s exclusively to change a status.",
		sExtendLock:       "%s takes %s exclusively to add a page.",
		sBootLock:         "%s takes %s exclusively to create the first page.",
	},
	Release: map[trace.Site]string{
		roBanks.unlock:  roUnlock,
		roSingle.unlock: roUnlock,
		roHash.unlock:   roUnlock,
		sReadUnlock:     "%s releases %s: others can use it while the page is read.",
		sReadIOUnlock:   "%s releases %s: the read is over, and any waiter wakes.",
		sWaitUnlock:     "%s releases %s to wait for the slot's I/O (SimpleLruWaitIO).",
		sWaitIOUnlock:   waitedOnly,
		sWaitCondUnlock: waitedOnly,
		sWriteUnlock:    "%s releases %s: others can use it while the page is written.",
		sWriteIOUnlock:  "%s releases %s: the write is over, and any waiter wakes.",
		sClogGetUnlock:  "%s releases %s: it has read the status.",
		sClogSetUnlock:  "%s releases %s: the page is done with.",
		sAbortRelease:   "%s's ERROR releases %s, as an abort releases every lock held.",
	},
}

// The sentences of lockWords that several sites say: SimpleLruReadPage_ReadOnly's
// in each variant, and others'.
const (
	roLook     = "%s takes %s (shared) to look for its page."
	roRead     = "%s takes %s exclusively to read the page in."
	roUnlock   = "Page not found, or not usable yet: %s releases %s to take it exclusively."
	writeAll   = "%s takes %s exclusively to write out the dirty pages it covers."
	waitedOnly = "%s releases %s at once: it only waited for the I/O to end."
)

func (c *captioner) slotScan() string {
	e := c.e
	page, st, _ := UnpackSlotWord(e.After)
	search := fmt.Sprintf("%s's search%s compares %s", c.who, c.bankOf(), c.slot())
	if c.site == selBanks.scan || c.site == selSingle.scan {
		// SlruSelectLRUPage's first loop: is the page here already?
		search = fmt.Sprintf("Before picking a victim, %s compares %s%s", c.who, c.slot(), c.bankOf())
	}
	switch {
	case st == PageEmpty:
		return fmt.Sprintf("%s: empty.", search)
	case page != int64(e.Arg):
		return fmt.Sprintf("%s: page %d, not page %d.", search, page, e.Arg)
	case st == PageReadInProgress && (c.site == roBanks.scan || c.site == roSingle.scan):
		return fmt.Sprintf("%s: page %d is still being read in, so not usable yet.", search, page)
	}
	return fmt.Sprintf("%s: page %d — the page sought.", search, page)
}

func (c *captioner) load() string {
	e := c.e
	switch {
	case c.site == sLRURead:
		if c.pg16 {
			return fmt.Sprintf("%s reads the LRU counter: %d.", c.who, int32(e.After))
		}
		return fmt.Sprintf("%s reads bank %d's LRU counter: %d.", c.who, e.Obj, int32(e.After))
	case c.site == sClogGetByte:
		return fmt.Sprintf("%s reads byte %d of %s's page: the xid is %s.", c.who, e.Before, c.slot(), xidText(e.Arg))
	case c.site == sClogSetCheck:
		return fmt.Sprintf("%s checks the change is allowed: %s → %s.", c.who, xidText(e.Before), xidText(e.Arg))
	case c.site == sWriteSkip:
		return fmt.Sprintf("%s needs no write: it is %s.", capital(c.slot()), wordText(e.After))
	case c.site == sWriteAllSlot:
		return fmt.Sprintf("%s's checkpoint looks at %s: %s.", c.who, c.slot(), wordText(e.After))
	case c.site == roHash.check:
		_, st, _ := UnpackSlotWord(e.After)
		if st == PageReadInProgress {
			return fmt.Sprintf("%s checks %s, which the probe found: still being read in, not usable yet.", c.who, c.slot())
		}
		return fmt.Sprintf("%s checks %s, which the probe found: %s.", c.who, c.slot(), wordText(e.After))
	case e.Class == ClassSlot:
		return fmt.Sprintf("%s looks at %s: %s.", c.who, c.slot(), wordText(e.After))
	}
	return ""
}

func (c *captioner) candidate() string {
	e := c.e
	what := "a victim"
	if c.site == selBanks.busy || c.site == selSingle.busy {
		what = "a victim, busy with I/O"
	}
	verdict := "no older than the best so far"
	switch e.Arg {
	case VerdictBest:
		verdict = "the oldest so far"
	case VerdictBestBusy:
		verdict = "the oldest busy slot so far"
	}
	return fmt.Sprintf("%s weighs %s as %s: age %d, %s.", c.who, c.slot(), what, int32(e.After), verdict)
}

func (c *captioner) victim() string {
	e := c.e
	page, _, _ := UnpackSlotWord(e.Before)
	switch e.Arg {
	case VictimEmpty:
		return fmt.Sprintf("%s is empty: %s uses it at once, nothing is evicted.", capital(c.slot()), c.who)
	case VictimDirty:
		return fmt.Sprintf("%s (page %d, age %d) is the oldest but dirty: %s writes it out first, then looks again.",
			capital(c.slot()), page, int32(e.After), c.who)
	}
	return fmt.Sprintf("%s's victim is %s: page %d, clean, the least recently used (age %d).", c.who, c.slot(), page, int32(e.After))
}

func (c *captioner) slotState() string {
	e := c.e
	_, st, d := UnpackSlotWord(e.After)
	switch c.site {
	case sReadClaim:
		return fmt.Sprintf("%s claims %s for page %d: being read in, so others wait for it.", c.who, c.slot(), e.Arg)
	case sReadDone:
		if st == PageEmpty {
			return fmt.Sprintf("The read failed: %s sets %s empty again.", c.who, c.slot())
		}
		return fmt.Sprintf("%s now holds page %d, valid: the read is over.", capital(c.slot()), e.Arg)
	case sWriteBegin:
		return fmt.Sprintf("%s marks %s being written out, and clean: a change meanwhile dirties it again.", c.who, c.slot())
	case sWriteDone:
		if d {
			return fmt.Sprintf("%s's write is over: valid, and dirty again (changed meanwhile, or the write failed).", capital(c.slot()))
		}
		return fmt.Sprintf("%s's write is over: page %d is valid and clean.", capital(c.slot()), e.Arg)
	case sZeroSet:
		return fmt.Sprintf("%s puts page %d in %s, zeroed: valid and dirty.", c.who, e.Arg, c.slot())
	case sWaitFix:
		return fmt.Sprintf("Nobody is doing %s's I/O any more (it failed): %s makes it %s.", c.slot(), c.who, wordText(e.After))
	}
	return fmt.Sprintf("%s changes %s: %s → %s.", c.who, c.slot(), wordText(e.Before), wordText(e.After))
}

func (c *captioner) error() string {
	e := c.e
	switch ErrCode(e.Arg) {
	case ErrReadFailed:
		return fmt.Sprintf("ERROR for %s: the read into %s failed, and the abort releases its locks.", c.who, c.slot())
	case ErrStatusChange:
		return fmt.Sprintf("ERROR for %s: that status change is not allowed (%s).", c.who, c.slot())
	case ErrZeroUnderIO:
		return fmt.Sprintf("ERROR for %s: the page to zero is under I/O in %s.", c.who, c.slot())
	case ErrWouldWait:
		return fmt.Sprintf("ERROR for %s: it would wait for %s, but no scheduler runs the holder.", c.who, c.object())
	}
	return fmt.Sprintf("ERROR for %s: %s.", c.who, ErrCode(e.Arg))
}
