// Package pgsize parses and prints PostgreSQL memory sizes counted in 8kB
// blocks (GUC_UNIT_BLOCKS settings such as shared_buffers and the SLRU
// buffer GUCs), for bufmgr and slru, which each wrap it with their own
// range checks and messages.
//
// The accepted syntax is the one both copies had: a decimal number,
// possibly fractional, then optionally (after spaces) a unit B, kB, MB, GB
// or TB, case-sensitive, each 1024 times the one before; no unit counts
// blocks. The size is rounded once, to the nearest block, half to even.
// PostgreSQL (convert_to_base_unit and parse_int, guc.c, PG 12–18) rounds
// a fractional value with a unit first to the next smaller unit, then to a
// block: 30.1GB is 3 945 216 blocks there and 3 945 267 here. Whole
// numbers of a unit agree. Signs, exponents and hexadecimal, which strtod
// would take, are rejected here.
package pgsize
