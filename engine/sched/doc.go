// Package sched runs simulated PostgreSQL backends as coroutines and decides
// who runs next.
//
// A backend is an ordinary Go function that receives a Yield. Engine code
// calls the Yield before every shared-memory operation (an atomic load or
// CAS on a buffer's state word, a header lock, a partition lock, the
// strategy spinlock), passing the Site of the operation it is about to do.
// The backend then stops until the scheduler resumes it; when resumed it
// performs that operation and runs on, through purely private work, to its
// next Yield. Each scheduling step therefore executes exactly one
// shared-memory operation, so interleavings such as "A loads the state word,
// B pins, A's CAS fails and retries" really happen.
//
// Backends are iter.Pull coroutines: one runs at a time, on the caller's
// goroutine, so a simulation is deterministic and needs no locks.
//
// A Policy picks the next backend at each step: RoundRobin, Random (seeded
// PCG), or Script (a list of backend names, as written in a scenario's
// `schedule` line), which falls back to another policy when it runs out. The
// Scheduler records every pick; replaying that record with Script gives the
// same event log and so the same trace hash.
//
// A backend that yields with Wait set is retrying something another backend
// must change first (a lock held, I/O in progress). Waiting backends are
// resumed like any other and retry; if every live backend is waiting and
// each has retried since anyone last made progress, the run stops with
// ErrDeadlock. A backend that yields with Until set sleeps instead (a latch,
// a condition variable): it is not resumed until Until reports true, and
// takes no steps meanwhile; if every live backend sleeps, or sleeps or has
// retried in vain, the run stops with ErrDeadlock too. Every run is bounded
// by a step limit.
package sched
