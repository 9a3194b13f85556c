// Package counters sums and subtracts the engine's statistics structs
// (bufmgr.Stats, slru.Stats, fsm.Stats) field by field, so that a counter
// added to one of them is summed over backends and sessions without a
// line written for it.
//
// A statistics struct holds counters only: every field is a uint64, an
// array of them, or a struct of such fields. Add and Sub walk the fields
// by reflection and panic, naming the type, on any other field (a
// programming error the struct's own tests reach at once). Arithmetic is
// modulo 2^64, as the hand-written sums were. Neither is meant for a hot
// path: they serve the totals a pool, an SLRU or a session reports.
package counters
