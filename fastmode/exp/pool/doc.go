// Package pool is bench pool: the simulated pool's read hit (+release) and
// miss (clock sweep) per operation at each size, beside the limits
// measured in the same run, and the cost per event of step mode (a traced
// scenario run through the scheduler) against the native operation.
package pool
