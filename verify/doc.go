// Package verify holds BufferLab's engine against a real PostgreSQL
// server: paired checks, each running the same operations on the server
// (SQL, read back through pg_buffercache, pg_freespacemap, pageinspect
// and the server's own files) and on the engine (a scenario of package
// scenario, or the APIs of packages fsm and slru), and comparing what
// both show. `bufferlab verify` runs them against a server it starts
// (package pgserver) or, read-only unless allowed to write, against the
// user's own.
//
// Each Check has a stable Name and a one-line What; Run runs them in
// order and returns a Result per check: what the engine says and what
// the server says, in the same words, so that they match exactly when the
// strings are equal, and a Detail saying where they differ. The checks
// cover the buffer pool (NBuffers, usage counts and their cap, the
// BULKREAD ring and the NBuffers/4 rule, pins counted per backend, DROP
// TABLE's buffers), the free space map (when the fork appears and how big
// it grows, categories, the pages' max-trees and fp_next_slot, the root
// left stale by inserts), the heap (rows per page, the block every new
// row lands on) and the commit log (shared memory, pg_xact's files, the
// status bits of the xids the server hands out).
//
// What keeps them deterministic on a real server:
//
//   - autovacuum is off (pgserver's settings); a check's tables are its
//     own (TablePrefix) and dropped when it ends;
//   - a table is made cold, with none of its blocks in shared buffers, by
//     VACUUM FULL, which writes the new relfilenode without the buffer
//     pool (PostgreSQL 15 has no way to evict a buffer);
//   - the pool checks run first, while a fresh server's freelist holds
//     every block they read: no clock sweep, whose path depends on what
//     the server did before, takes part (a check says so in its Detail
//     when the server had too few free buffers);
//   - rows are deleted by ctid (a TID scan), never by a seq scan, which
//     would prune the page on the way; no check empties a table's last
//     page (the engine does not model VACUUM's truncation), and the
//     tables that delete say vacuum_truncate = false besides;
//   - text columns that set a row's size are stored PLAIN, so that the
//     bytes on the page are known: no compression, no TOAST;
//   - CHECKPOINT writes the commit log out before its files are read.
//
// The checks that write (Check.Writes) create tables, VACUUM,
// CHECKPOINT and run transactions; on a user's server (Target.Own false)
// they run only with Target.AllowWrites. The checks that need a fresh
// cluster with a known first xid (Check.OwnOnly) run only on a server
// started by bufferlab with ServerOptions.
package verify
