// Package classroom is bench classroom: the classroom server
// (internal/classroom) on a real loopback socket with N simulated
// students (--students, default 200) and a teacher, all in this process,
// each a WebSocket of its own. The teacher goes through every step of
// every lesson (a goto, then three gotos while "playing", each waited
// for until every student holds it) and asks lesson pinning's questions:
// every student answers each with a seeded random choice, the teacher
// locks, reveals, asks again (a second round), and reveals again; then
// the class ends. The run fails after Timeout (plus a little per
// student).
//
// Summary keys:
//
//   - students: the class size;
//   - step_to_all_p50_ms, step_to_all_p99_ms: from the teacher's goto
//     sent to the moment the last student received that state, over every
//     goto (golang.org/x/exp/stats quantiles, as the harness's);
//   - answers_sent, answers_counted: answer messages the students sent
//     and the server counted (they must be equal: none dropped);
//   - lost_updates: students whose last state is not the server's last
//     once the class has settled (must be 0: each connection's writer
//     always ends with the newest state);
//   - server_peak_heap_mb: the peak of runtime.MemStats.HeapAlloc,
//     sampled every 20 ms while the class runs. The students' clients
//     share the process, so this counts their side too (their sockets'
//     buffers, their last states): an upper bound for the server alone;
//   - server_peak_goroutines: the server's own goroutines at the peak (two
//     per connection).
//
// It is not linked into the browser build or the app's fast mode (which
// import fastmode/exp/all): it opens sockets. cmd/bufferlab imports it
// for `bufferlab bench classroom`.
package classroom
