// Package pooltest is what the tests of the pool view (viz/poolview) and
// of the timeline (viz/timeline, which plays pool views) share: the
// scenarios they replay (a seeded contention run, the embedded lessons),
// running one, with or without a hook after every event, and the view of
// a run's pool before its first event. It is test support: its functions
// fail the test they are given instead of returning errors.
//
// Usage:
//
//	r := pooltest.Run(t, "contention", pooltest.Contention(7))
//	v := pooltest.NewView(r)
//	for _, e := range r.Log().Events() {
//		v.Apply(e)
//	}
package pooltest
