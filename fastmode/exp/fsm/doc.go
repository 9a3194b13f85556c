// Package fsm is bench fsm: the free space map and the reverted small-table
// skip (seed 002): pages read and time per table, and the FSM search
// against a linear scan of the leaf level. (It imports the engine's fsm
// package under the same name.)
package fsm
