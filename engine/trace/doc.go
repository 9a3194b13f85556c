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
// Sites tie an event to one line of the pseudo-code of a modelled PostgreSQL
// function. Engine packages register their functions with DefineFunc, whose
// pseudo-code marks site lines with "@name"; Site values are assigned in
// registration order, which Go's package initialisation makes deterministic.
//
// Invariants:
//   - Events in a Log have Seq 0, 1, 2, … in append order.
//   - Event.String is the golden text compared by tests; it depends only on
//     the event's fields and the site table, never on map order or time.
//   - Log.Hash is FNV-1a over a fixed little-endian encoding of every field,
//     so it is the same on every GOOS/GOARCH (amd64, arm64, js/wasm).
package trace
