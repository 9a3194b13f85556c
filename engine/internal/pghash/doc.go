// Package pghash is PostgreSQL's hash_bytes (common/hashfn.c, PG 12–18;
// hash_any before PG 12): Bob Jenkins' lookup3 with the initial value
// 0x9e3779b9 + length + 3923095, reading words little-endian as
// PostgreSQL does on x86 and arm64. It is what dynahash's tag_hash
// computes for a HASH_BLOBS key, so both engine models of a dynahash
// table use it: bufmgr's shared buffer lookup table (BufTableHashCode,
// unrolled for the 20-byte tag) and slru's banks+hash variant (the
// 8-byte page number). Mix and Final are lookup3's mix() and final();
// they are exported so that those callers can unroll the fixed-length
// case without a byte slice. Nothing here allocates.
package pghash
