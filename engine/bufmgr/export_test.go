package bufmgr

import "bufferlab/engine/trace"

// SetLogForTest replaces the pool's event log (nil turns tracing off). The
// benchmarks use it to fill a pool silently, then trace, starting a fresh
// log now and then so that memory stays bounded.
func SetLogForTest(p *Pool, l *trace.Log) { p.log = l }
