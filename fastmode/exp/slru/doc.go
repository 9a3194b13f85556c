// Package slru is bench slru: the commit log's SLRU lookups (seed 004),
// linear search of a bank against a hash table by bank size, the
// crossover, and a mixed workload. (It imports the engine's slru package
// under the same name.)
package slru
