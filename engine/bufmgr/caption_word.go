package bufmgr

// The captions of the state word: a descriptor's word read (a drop's
// pre-check), changed by a CAS or under the header lock, a CAS that fails,
// the header lock taken, released and spun on (PinBuffer, UnpinBuffer,
// LockBufHdr, UnlockBufHdr; the 9.5 protocol's header spinlock). Caption
// (caption.go) dispatches here by kind.

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"bufferlab/engine/internal/narrate"
	"bufferlab/engine/trace"
)

// heldTag says which page a pre-check found in a descriptor (Arg: the
// packed tag, 0 for none).
func (c *captioner) heldTag(p uint64) string {
	if p == 0 {
		return "no page"
	}
	return c.tag(p)
}

func (c *captioner) cas() string {
	e := c.e
	b, a := c.before(), c.after()
	switch e.Site {
	case sPinCAS:
		return fmt.Sprintf("%s's CAS pins %s: refcount %d → %d, usage %d → %d.",
			c.who, c.buf(), StateRefcount(b), StateRefcount(a), StateUsagecount(b), StateUsagecount(a))
	case sUnpinCAS:
		return fmt.Sprintf("%s's CAS unpins %s: refcount %d → %d.", c.who, c.buf(), StateRefcount(b), StateRefcount(a))
	case sDListAllocLink:
		was := "it was empty"
		if int64(e.Before) >= 0 {
			was = fmt.Sprintf("before buffer %d", int64(e.Before))
		}
		return fmt.Sprintf("%s links buffer %d at the head of %s's buffer list (%s).", c.who, e.Arg, c.rel(), was)
	case sDListAllocUnlink, sInvalUnlink:
		why := "it now holds another relation's page"
		if e.Site == sInvalUnlink {
			why = "it was invalidated"
		}
		return fmt.Sprintf("%s unlinks buffer %d from %s's buffer list: %s.", c.who, e.Arg, c.rel(), why)
	}
	if e.Class == trace.OBuffer {
		return fmt.Sprintf("%s's CAS changes %s's state word: %s.", c.who, c.buf(), stateChange(b, a))
	}
	return ""
}

// casFail names the backends that changed the word between this backend's
// read of it (its latest load of the word, or its previous failed CAS,
// which hands back the word found) and its CAS: every writer (CAS, dirty,
// header lock or unlock) of the same buffer's word by another actor in
// between, within narrate.Window. Without that read in the window it names
// the latest writer, and without any it says only that the word changed.
// A failed CAS of the clock hand (not a buffer's) says so.
func (c *captioner) casFail() string {
	e := c.e
	if e.Class != trace.OBuffer {
		return fmt.Sprintf("%s's CAS to wrap the clock hand fails: another backend moved it to %d first. %s retries.",
			c.who, e.After, c.who)
	}
	change := casChange(c.before(), c.after())
	var writers []string // oldest first
	seen := map[trace.Actor]bool{}
	latest, read := "", false
	for j := c.i - 1; j >= 0 && j >= c.i-narrate.Window; j-- {
		o := c.evs[j]
		if o.Kind == trace.KNone || o.Class != trace.OBuffer || o.Obj != e.Obj {
			continue
		}
		if o.Actor == e.Actor {
			if o.Kind == trace.KLoad || o.Kind == trace.KCASFail {
				read = true
				break
			}
			continue
		}
		switch o.Kind {
		case trace.KCAS, trace.KDirty, trace.KLockHdr, trace.KUnlockHdr:
			if latest == "" {
				latest = c.actor(o.Actor)
			}
			if !seen[o.Actor] {
				seen[o.Actor] = true
				writers = append([]string{c.actor(o.Actor)}, writers...)
			}
		}
	}
	if !read && latest != "" {
		writers = []string{latest}
	}
	var s string
	if len(writers) == 0 {
		s = fmt.Sprintf("%s's CAS fails: %s's state word changed since %s read it (%s). %s retries with the new word.",
			c.who, c.buf(), c.who, change, c.who)
	} else {
		s = fmt.Sprintf("%s's CAS fails: %s changed %s's state word first (%s). %s retries with the new word.",
			c.who, narrate.List(writers), c.buf(), change, c.who)
	}
	// Two flags and long names can pass narrate.MaxLen: then the last
	// sentence is shortened (captions that fit are left as they were).
	if utf8.RuneCountInString(s) > narrate.MaxLen {
		s = strings.TrimSuffix(s, " with the new word.") + "."
	}
	return s
}

// casChange is the part of a state word that a failed CAS found changed,
// the most telling first: the refcount, else the usage count, else the
// flags.
func casChange(expected, found uint32) string {
	switch {
	case StateRefcount(expected) != StateRefcount(found):
		return fmt.Sprintf("refcount %d → %d", StateRefcount(expected), StateRefcount(found))
	case StateUsagecount(expected) != StateUsagecount(found):
		return fmt.Sprintf("usage %d → %d", StateUsagecount(expected), StateUsagecount(found))
	}
	return stateChange(expected, found)
}

// stateChange says how a state word changed, in words: the first two of
// the refcount, the usage count (if they changed), the flags set and the
// flags cleared ("refcount 1 → 2, usage 2 → 3"; "BM_VALID set,
// BM_IO_IN_PROGRESS cleared"); "no change" if none.
func stateChange(b, a uint32) string {
	var parts []string
	if StateRefcount(b) != StateRefcount(a) {
		parts = append(parts, fmt.Sprintf("refcount %d → %d", StateRefcount(b), StateRefcount(a)))
	}
	if StateUsagecount(b) != StateUsagecount(a) {
		parts = append(parts, fmt.Sprintf("usage %d → %d", StateUsagecount(b), StateUsagecount(a)))
	}
	if set := flagWords(a &^ b & BufFlagMask); set != "" {
		parts = append(parts, set+" set")
	}
	if cleared := flagWords(b &^ a & BufFlagMask); cleared != "" {
		parts = append(parts, cleared+" cleared")
	}
	if len(parts) == 0 {
		return "no change"
	}
	return strings.Join(parts[:min(2, len(parts))], ", ")
}

// flagWords names the flags of s as PostgreSQL does ("BM_DIRTY and
// BM_JUST_DIRTIED"); more than two are counted ("4 flags"); "" for none.
func flagWords(s uint32) string {
	names := FlagNames(s)
	if len(names) > 2 {
		return fmt.Sprintf("%d flags", len(names))
	}
	for i, f := range names {
		names[i] = "BM_" + f
	}
	return narrate.List(names)
}

func (c *captioner) dirty() string {
	if c.before()&BmDirty != 0 {
		return fmt.Sprintf("%s's CAS sets BM_DIRTY on %s, which was dirty already: no write happened since.", c.who, c.buf())
	}
	return fmt.Sprintf("%s's CAS sets BM_DIRTY on %s: the page must be written before the buffer is reused.", c.who, c.buf())
}

// lockHdrWords and unlockHdrWords are the sentences of the header lock and
// unlock sites that say only who and which buffer: each a format of the
// backend and the buffer, in that order.
var (
	lockHdrWords = map[trace.Site]string{
		sAllocRecheckLock: "%s locks victim %s's header: did anyone pin or dirty it meanwhile?",
		sStartIOLock:      "%s locks %s's header to start I/O on it (StartBufferIO).",
		sTermIOLock:       "%s locks %s's header to end its I/O (TerminateBufferIO).",
		sFlushLock:        "%s locks dirty %s's header before writing it out (FlushBuffer).",
		sWaitIOLock:       "%s locks %s's header to see whether its I/O is over (WaitIO).",
		sUnpinWaiterLock:  "%s locks %s's header: a backend waits for the pins to go (BM_PIN_COUNT_WAITER).",
		sDirty95Lock:      "%s takes %s's header spinlock to mark it dirty (9.5).",
		sCleanupClearLock: "%s, woken, locks %s's header to clear its waiter flag if still set.",
		sDropLock:         recheckTag,
		sDropAllLock:      recheckTag,
		sLookupHdrLock:    recheckTag,
		sDListHdrLock:     recheckTag,
	}
	unlockHdrWords = map[trace.Site]string{
		sStartIOSet:         "%s sets BM_IO_IN_PROGRESS on %s: the I/O is its to do.",
		sFlushUnlock:        "%s clears BM_JUST_DIRTIED on %s: a change from now on will dirty it again.",
		sSGBSweepUnlock:     "%s unlocks %s; the clock hand moves on.",
		sSGBErrorUnlock:     "%s unlocks %s: every buffer was pinned for a whole round of the clock.",
		sRingUnlock:         "%s unlocks ring %s and leaves it to others.",
		sDirty95Unlock:      "%s sets BM_DIRTY on %s under the header spinlock and releases it.",
		sCleanupClearUnlock: "%s unlocks %s and counts the pins again.",
		sInvalUnlock:        "%s unlocks %s's header to take its mapping partition's lock (InvalidateBuffer).",
		sInvalClear:         "%s clears %s's flags and usage count: it holds no valid page now.",
	}
)

// recheckTag is the sentence of every drop's header lock.
const recheckTag = "%s locks %s's header to check its tag again, now that nobody can change it."

func (c *captioner) lockHdr() string {
	e := c.e
	if f, ok := lockHdrWords[e.Site]; ok {
		return fmt.Sprintf(f, c.who, c.buf())
	}
	s := c.before()
	rc, u := StateRefcount(s), StateUsagecount(s)
	switch e.Site {
	case sSGBFreeLock:
		return fmt.Sprintf("%s locks the header of %s, just off the freelist: is it unused (refcount %d, usage %d)?", c.who, c.buf(), rc, u)
	case sSGBSweepLock:
		return fmt.Sprintf("%s locks the header of %s under the clock hand: refcount %d, usage %d.", c.who, c.buf(), rc, u)
	case sRingLock:
		return fmt.Sprintf("%s locks ring %s's header: can the ring reuse it (refcount %d, usage %d)?", c.who, c.buf(), rc, u)
	case sPin95Lock:
		return fmt.Sprintf("%s takes %s's header spinlock to pin it (9.5): refcount %d, usage %d.", c.who, c.buf(), rc, u)
	case sUnpin95Lock:
		return fmt.Sprintf("%s takes %s's header spinlock to unpin it (9.5): refcount %d.", c.who, c.buf(), rc)
	case sCleanupHdrLock:
		return fmt.Sprintf("%s locks %s's header to count its pins: refcount %d.", c.who, c.buf(), rc)
	case sInvalRelock:
		return fmt.Sprintf("%s relocks %s's header: still the same page, and unpinned (refcount %d)?", c.who, c.buf(), rc)
	}
	return fmt.Sprintf("%s locks %s's header (LockBufHdr): refcount %d, usage %d.", c.who, c.buf(), rc, u)
}

func (c *captioner) unlockHdr() string {
	e := c.e
	if f, ok := unlockHdrWords[e.Site]; ok {
		return fmt.Sprintf(f, c.who, c.buf())
	}
	b, a := c.before(), c.after()
	switch e.Site {
	case sAllocRetag:
		return fmt.Sprintf("%s unlocks %s with its new page: usage %d, BM_TAG_VALID set, not yet BM_VALID.",
			c.who, c.buf(), StateUsagecount(a))
	case sPinLockedUnlock:
		return fmt.Sprintf("%s pins victim %s and unlocks its header in one store (PinBuffer_Locked): refcount %d.",
			c.who, c.buf(), StateRefcount(a))
	case sStartIODoneUnlock:
		if a&BmValid != 0 {
			return fmt.Sprintf("%s finds %s valid already: another backend read the page. No I/O for %s.", c.who, c.buf(), c.who)
		}
		return fmt.Sprintf("%s finds %s clean already: another backend wrote it. No I/O for %s.", c.who, c.buf(), c.who)
	case sStartIOBusyUnlock:
		return fmt.Sprintf("Buffer %d has I/O in progress: %s unlocks it and waits for that I/O (WaitIO).", int32(c.e.Obj), c.who)
	case sTermIOUnlock:
		return fmt.Sprintf("%s ends the I/O on %s: %s.", c.who, c.buf(), stateChange(b&^BmLocked, a))
	case sWaitIOUnlock:
		if a&BmIOInProgress != 0 {
			return fmt.Sprintf("%s unlocks %s: its I/O is still in progress, so %s sleeps.", c.who, c.buf(), c.who)
		}
		return fmt.Sprintf("%s unlocks %s: its I/O is over.", c.who, c.buf())
	case sSGBFreeUnlock:
		return fmt.Sprintf("Buffer %d from the freelist is in use after all: %s unlocks it and tries again.", int32(c.e.Obj), c.who)
	case sAllocRecheckUnlock:
		return fmt.Sprintf("Someone pinned or dirtied victim %s meanwhile: %s gives it up and starts over.", c.buf(), c.who)
	case sUnpinWaiterUnlock, sUnpin95WaiterUnlock:
		return fmt.Sprintf("%s clears BM_PIN_COUNT_WAITER on %s: only the waiter's pin is left (refcount %d).",
			c.who, c.buf(), StateRefcount(a))
	case sUnpinWaiterNowake:
		return fmt.Sprintf("Other pins remain on %s (refcount %d): %s leaves the waiter asleep.", c.buf(), StateRefcount(a), c.who)
	case sPin95Unlock:
		return fmt.Sprintf("%s pins %s under the header spinlock and releases it: %s.", c.who, c.buf(), stateChange(b&^BmLocked, a))
	case sUnpin95Unlock:
		return fmt.Sprintf("%s unpins %s under the header spinlock and releases it: %s.", c.who, c.buf(), stateChange(b&^BmLocked, a))
	case sCleanupGot:
		return fmt.Sprintf("Only %s pins %s (refcount 1): %s unlocks the header with the cleanup lock held.", c.who, c.buf(), c.who)
	case sCleanupMultiUnlock:
		return fmt.Sprintf("Another backend already waits for %s's pins to go: %s unlocks it and gives up.", c.buf(), c.who)
	case sCleanupSetWaiter:
		return fmt.Sprintf("%s sets BM_PIN_COUNT_WAITER on %s (refcount %d) and will sleep until its pin is the last.",
			c.who, c.buf(), StateRefcount(a))
	case sDropUnlock, sDropAllUnlock, sLookupHdrUnlock, sDListHdrUnlock:
		return fmt.Sprintf("Buffer %d holds no block to drop: %s unlocks it and goes on.", int32(c.e.Obj), c.who)
	case sInvalChangedUnlock:
		return fmt.Sprintf("Buffer %d holds another page by now: %s leaves it alone.", int32(c.e.Obj), c.who)
	case sInvalPinnedUnlock:
		return fmt.Sprintf("Buffer %d is pinned (refcount %d): %s unlocks it and will wait.", int32(c.e.Obj), StateRefcount(a), c.who)
	}
	return fmt.Sprintf("%s unlocks %s's header: %s.", c.who, c.buf(), stateChange(b&^BmLocked, a))
}

func (c *captioner) spin() string {
	e := c.e
	if e.Class == trace.OStrategy {
		return fmt.Sprintf("%s spins: %s holds buffer_strategy_lock.", c.who, c.actor(trace.Actor(e.Before)))
	}
	holder := ""
	if o, ok := c.back(narrate.Window, func(o trace.Event) bool {
		return o.Class == trace.OBuffer && o.Obj == e.Obj && o.Kind == trace.KLockHdr && o.Actor != e.Actor
	}); ok {
		holder = ": " + c.actor(o.Actor) + " holds it"
	}
	switch e.Site {
	case sPinWait, sUnpinWait, sDirtyWait:
		return fmt.Sprintf("%s waits for %s's header lock to clear before its CAS (spin %d)%s.", c.who, c.buf(), e.Arg, holder)
	}
	return fmt.Sprintf("%s spins on %s's header lock (spin %d)%s.", c.who, c.buf(), e.Arg, holder)
}
