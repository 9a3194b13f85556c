// Package pooltest is the test support of the pool view (viz/poolview),
// shared with the timeline's tests (viz/timeline, which plays pool
// views): the scenarios they replay (a seeded contention run, the
// embedded lessons, drops, a cleanup waiter: Scenarios), running one,
// with or without a hook after every event, the view of a run's pool
// before its first event, and the engine's state at one moment (Snap,
// read through bufmgr's inspection API, never the view's) with Compare,
// which says how a view differs from it. Its functions fail the test they
// are given instead of returning errors.
//
// Usage:
//
//	r := pooltest.Run(t, "contention", pooltest.Contention(7))
//	v := pooltest.NewView(r)
//	for _, e := range r.Log().Events() {
//		v.Apply(e)
//	}
package pooltest
