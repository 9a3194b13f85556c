package lwlock

import "bufferlab/engine/trace"

// Hooks is what the modelled paths need from the backend that takes a
// lock. Implement it on a small value type (the backend pointer, the
// lock's class and object): the paths are generic over it, so a call
// allocates nothing.
type Hooks interface {
	// Yield yields to the scheduler before a try at site; wait is true
	// for a retry after a failed try (sched.Point.Wait).
	Yield(site trace.Site, wait bool)
	// Event emits one lock event: k is KLWAcquire, KLWWait, KLWCondFail
	// or KLWRelease, before and after the holder words, m the mode asked
	// for (or, for KLWRelease, the mode released).
	Event(k trace.Kind, site trace.Site, before, after uint64, m Mode)
	// Acquired runs after a successful try, before its KLWAcquire event.
	Acquired(site trace.Site)
	// Waited runs after a failed try of Acquire, before its KLWWait
	// event. It returns whether to try again: false when nothing can
	// release the lock (no scheduler), and Acquire returns false.
	Waited(site trace.Site) bool
	// Released runs after the release, before its KLWRelease event.
	Released(site trace.Site)
}

// Acquire is LWLockAcquire's modelled path (lwlock.c, PG 9.5–18): yield,
// try; on success Acquired and a KLWAcquire event; on failure Waited and a
// KLWWait event with the holders unchanged, then, unless Waited said
// stop, yield as a waiter and try again. It returns whether a holds l.
func Acquire[H Hooks](h H, l *Lock, a trace.Actor, m Mode, site trace.Site) bool {
	for wait := false; ; wait = true {
		ok, before := try(h, l, a, m, site, wait)
		if ok {
			return true
		}
		again := h.Waited(site)
		h.Event(trace.KLWWait, site, before, before, m)
		if !again {
			return false
		}
	}
}

// ConditionalAcquire is LWLockConditionalAcquire (lwlock.c): yield, try
// once; on success Acquired and a KLWAcquire event, on failure a
// KLWCondFail event. It returns whether a holds l.
func ConditionalAcquire[H Hooks](h H, l *Lock, a trace.Actor, m Mode, site trace.Site) bool {
	ok, before := try(h, l, a, m, site, false)
	if !ok {
		h.Event(trace.KLWCondFail, site, before, before, m)
	}
	return ok
}

// try is one attempt, the same in both paths: yield (as a waiter when
// wait), try, and on success Acquired and the KLWAcquire event. It
// returns whether a now holds l, and the holder word before the try, for
// the failure's event.
func try[H Hooks](h H, l *Lock, a trace.Actor, m Mode, site trace.Site, wait bool) (bool, uint64) {
	h.Yield(site, wait)
	before := l.HolderWord()
	if !l.TryAcquire(a, m) {
		return false, before
	}
	h.Acquired(site)
	h.Event(trace.KLWAcquire, site, before, l.HolderWord(), m)
	return true, before
}

// Release is LWLockRelease's modelled path: yield, release, Released, a
// KLWRelease event with the mode released. It returns that mode.
func Release[H Hooks](h H, l *Lock, a trace.Actor, site trace.Site) Mode {
	h.Yield(site, false)
	before := l.HolderWord()
	m := l.Release(a)
	h.Released(site)
	h.Event(trace.KLWRelease, site, before, l.HolderWord(), m)
	return m
}
