// Package runs groups the items of a sequence into maximal runs: the
// loop behind run-length text ("16x9", "A*3", "w×4") and ranges of
// consecutive numbers ("3–5, 9"), written once. Of yields each run as
// its first and last index; what makes an item continue the run before
// it is the caller's (equal to the one before, one more than it, …).
//
// It sits under engine/ and outside engine/internal so that the engine
// (engine/readstream's logs, engine/scenario's schedule lines) and the
// layers above it (the FSM scenes, verify's block ranges) share it: it
// imports nothing but the standard library's iter.
package runs
