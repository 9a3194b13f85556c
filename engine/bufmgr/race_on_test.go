//go:build race

package bufmgr_test

// raceEnabled: under the race detector every coroutine switch and every
// memory access is several times slower, so the long randomised tests run
// fewer and shorter streams (as in engine/slru). They keep their several
// backends, their parallel streams and their checks that the concurrent
// paths were reached; only their lengths shrink.
const raceEnabled = true
