// Package iostat is a read-only statistics panel in the manner of
// PostgreSQL 16's pg_stat_io view, added through the mechanism seam
// (scenario.Register and mech.Add) as its proof: config io_stats=on turns
// it on, and it draws a table of the run's shared-buffer I/O by context
// beside the pool scene. It touched no file outside this package but the
// one import line in viz/mech/all.
//
// What it counts, as PostgreSQL 16+ counts it for IOOBJECT_RELATION (the
// pgstat_count_io_op calls of bufmgr.c):
//   - reads: a block read into a shared buffer (KIORead; PG: IOOP_READ in
//     ReadBuffer_common / WaitReadBuffers);
//   - hits: a block found in the pool (KHit; IOOP_HIT);
//   - writes: a dirty victim written out (KIOWrite; IOOP_WRITE in
//     FlushBuffer);
//   - evictions and reuses: a victim that held a valid page (a retag from
//     a tag, KRetag), counted as IOOP_REUSE when it came from the
//     strategy ring and IOOP_EVICT otherwise, as GetVictimBuffer does.
//
// The context is "bulkread" while the backend's operation uses a
// BULKREAD ring (it has added a buffer to its ring, or reused one), else
// "normal" (IOCONTEXT_BULKREAD vs IOCONTEXT_NORMAL). PostgreSQL knows the
// context from the strategy the caller passed; the trace carries no
// strategy, so a scan's first victim before its first ring-add counts as
// normal. The panel is computed from events alone, so it moves backwards
// and forwards with the player like every view.
package iostat
