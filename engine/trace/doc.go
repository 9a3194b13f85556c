// Package trace is BufferLab's event model: the record of every shared-memory
// operation the engine performs.
//
// An Event is a small fixed-size value with no pointers: a sequence number,
// the actor (backend) that performed it, its Kind, the code Site it came
// from, the object it touched (an ObjClass and an id), the value of that
// object before and after, and one argument. The engine appends events to a
// *Log; every method of *Log is safe on a nil receiver and does nothing, so
// the fast path (fast mode, benchmarks) pays one predictable branch.
//
// A Log keeps its events in chunks of 4096 (log.go): appending never
// copies what is kept. Its Storage says what a full chunk becomes: plain
// 48-byte records (the default), a compact encoding of about 15 bytes an
// event (the player's runs), or that encoding written to a spill file the
// program passes in (the engine opens no files; `bufferlab run` gives it
// an unlinked temporary file, internal/spillfile) once 32 MiB of it are
// in memory (`bufferlab run
// --summary`: a run of tens of millions of events keeps a flat memory).
// Whatever plays events reads them through the Events interface (Len,
// At), which a Log and a Slice implement, or ranges over a span of a Log
// (Range): never the whole log as one slice (Events copies it, for tests
// and small logs).
//
// Sites tie an event to one line of the pseudo-code of a modelled PostgreSQL
// function. Engine packages register their functions with DefineFunc, whose
// pseudo-code marks site lines with "@name"; Site values are assigned in
// registration order, which Go's package initialisation makes deterministic.
//
// Invariants:
//   - Events in a Log have Seq 0, 1, 2, … in append order.
//   - Event.String is the golden text compared by tests; it depends only on
//     the event's fields and the site table, never on map order or time.
//   - A Log gives back exactly the events appended, whatever its Storage:
//     Hash and String do not depend on it (TestLogStorage).
//   - Log.Hash is FNV-1a over a fixed little-endian encoding of every field,
//     so it is the same on every GOOS/GOARCH (amd64, arm64, js/wasm).
package trace
