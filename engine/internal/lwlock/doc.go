// Package lwlock is the lightweight lock (lwlock.c) that bufmgr and slru
// share: the holder state a view draws (one exclusive holder, or a count
// and mask of shared holders), the holder word events carry, and the
// modelled acquisition and release paths with their yields and events.
//
// A Lock is only its holders. PostgreSQL's LWLock also has a wait list and
// wakes waiters on release (LWLockWakeup); here a waiter is a backend that
// retries under the scheduler, one KLWWait per failed try, until a try
// succeeds. That is what LWLockAcquire looks like from outside: a waiter
// sleeps on its semaphore and, woken, tries again (the loop in
// LWLockAcquire, lwlock.c, PG 9.5–18); who gets the lock first is the
// scheduler's choice, not the wait list's order.
//
// The modelled paths (Acquire, ConditionalAcquire, Release) take the
// caller's Hooks: the caller yields at its own sites, emits its own events
// and keeps its own counters, so the events each caller writes are the
// ones it wrote before the two copies were merged. The unhooked fast paths
// (a nil log and no scheduler) stay in the callers, who call TryAcquire and
// Release directly.
//
// Where the two copies (engine/bufmgr/pool.go and engine/slru/lock.go)
// differed:
//
//   - A failed try with nobody to wait for. slru's backend may run without
//     a scheduler and then reports ErrWouldWait (the caller left a lock
//     held across calls); bufmgr's backends never do, and its stepWait
//     panics there. Both are kept: Hooks.Waited returns whether to try
//     again; slru returns false without a scheduler, bufmgr always true.
//   - Held-lock bookkeeping. slru keeps held_lwlocks for LWLockReleaseAll
//     on an ERROR; bufmgr models no errors and keeps none. It stays in
//     slru, through Hooks.Acquired and a call before Release.
//   - Counters. bufmgr counts partition locks, waits and the drop's locks;
//     slru counts every failed try. Each stays in its Hooks.
//   - Releasing a lock as actor 0 (no backend): bufmgr's copy treated it as
//     an exclusive release of a lock with no exclusive holder; slru's
//     panicked, as it does here. Actors are 1-based, so neither engine did
//     it. Likewise Holds(0) is now false (both copies said true for a lock
//     without an exclusive holder; no caller passed 0).
//   - Mode.String of a value that is neither mode: bufmgr printed
//     "exclusive", slru "unlocked"; it is "unlocked" here. Lock events
//     carry 1 or 2 only, so no description changes.
package lwlock
