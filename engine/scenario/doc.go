// Package scenario is BufferLab's scenario language: a small line-oriented
// language that drives the engine in lessons, golden tests, `bufferlab run`
// and permalinks.
//
// A scenario is a sequence of statements, one per line; `#` starts a
// comment. Example:
//
//	config shared_buffers=128kB schedule=rr
//	relation t1 blocks=17
//	backend A: touch t1 0..16
//	run
//	expect block t1 16 in=0 usage=1
//	expect pool hits=0 misses=17 passes=1
//	show
//
// Statements:
//
//	config KEY=VALUE ...        first statement, at most once, each key at
//	                            most once. Keys:
//	                            shared_buffers (128kB, 1MB, … or a number of
//	                            8kB buffers; default 128kB), schedule
//	                            (rr | random; default rr), seed (for random),
//	                            max_steps (bound on one run, default 30000000;
//	                            a traced run also has a memory budget, see
//	                            budget.go, which max_steps may not exceed),
//	                            pins (atomic: PG 9.6+ CAS on the state word,
//	                            the default; spinlock: PG ≤ 9.5, every pin
//	                            and unpin under the buffer header spinlock;
//	                            atomic,spinlock: both, side by side: the
//	                            same statements, schedule and seed run once
//	                            per variant, in that order). drop=, fsm=
//	                            and slru= (see drop, fsm.go, slru.go) may
//	                            name several variants the same way, e.g.
//	                            slru=single,banks,banks+hash; only one key
//	                            per config does. A single drop=S beside such
//	                            a key is every pane's strategy.
//	                            synchronize_seqscans (on, the default, or
//	                            off) as PostgreSQL's. Every key belongs to
//	                            the scenario (shared_buffers, schedule, seed,
//	                            max_steps) or to a registered mechanism
//	                            (mechanism.go): a mechanism registered from
//	                            another package adds its own (io_stats=on,
//	                            viz/iostat), kept in ConfigStmt.Ext.
//	relation NAME blocks=N [fsm=N] [vm=N] [init=N] [unlogged]
//	                            (at most 2^30 blocks a fork)
//	backend NAME: OP; OP; ...   queue operations for a backend (declaring it);
//	                            a run must follow.
//	schedule NAME[*N] ...       who runs at each yield point of the next run
//	                            (NAME*N: N steps in a row); then the
//	                            configured policy takes over. Schedule lines
//	                            before one run add up (schedule.go).
//	run [steps=N]               run the queued operations (or N steps of them);
//	                            after a paused run, backends given
//	                            operations since join it.
//	show [pool [all]|map|slru|heap]
//	                            print the pool (all: every buffer, runs of
//	                            empty ones on one line), the mapping table, the
//	                            commit log's SLRU, or the heaps with their
//	                            free space map (the default for a scenario
//	                            with an SLRU is slru).
//	expect SUBJECT KEY=VALUE …  check the engine state: pool (hits, misses,
//	                            writes, hand, passes, free, in_use, ticks,
//	                            decrements, errors, cas, cas_failures,
//	                            header_locks, spins), buffer N (tag, rc,
//	                            usage, flags, dirty, valid), block REL B
//	                            [fork=F] (in, resident, usage, rc; usage and
//	                            rc of a block not resident fail), backend
//	                            NAME (pins, error).
//	expect VARIANT: SUBJECT …   the same, checked only in that variant
//	                            (expect spinlock: pool spins=3, expect
//	                            banks+hash: slru probes=2); unqualified
//	                            checks must hold in every variant.
//
// Operations, expect and show subjects, and the keys above, are each
// registered by a mechanism (Register; pool.go, slru.go, fsm.go); the
// parser's error lists come from the registry.
//
// Operations (each models what a backend does through bufmgr.c):
//
//	read REL B[..E] [fork=F]    ReadBuffer each block and keep the pin
//	release REL B[..E] [fork=F] ReleaseBuffer a block this backend pins
//	release all                 release every pin the backend holds
//	dirty REL B[..E] [fork=F]   MarkBufferDirty a pinned block (content lock X)
//	touch REL B[..E] [fork=F]   ReadBuffer then ReleaseBuffer each block
//	write REL B[..E] [fork=F]   ReadBuffer, MarkBufferDirty, ReleaseBuffer
//	cleanup REL B[..E] [fork=F] LockBufferForCleanup on a block this backend
//	                            pins once (wait, as VACUUM does, until its
//	                            pin is the only one; content lock X), then
//	                            release the content lock and keep the pin.
//	                            A second waiter on the same buffer gets
//	                            ERROR "multiple backends attempting to wait
//	                            for pincount 1".
//	scan REL [pages=N]          a heap sequential scan (BULKREAD ring when
//	                            the relation has more than NBuffers/4 blocks;
//	                            then, with synchronize_seqscans=on, the
//	                            default, it starts where the last scan of the
//	                            relation reported being). pages=N stops it
//	                            after N pages, keeping the last one pinned: a
//	                            cursor paused mid-scan.
//	drop REL [REL …] [strategy=S]
//	                            DROP TABLE of the relations, at commit or in
//	                            replay (smgrdounlinkall): one call of
//	                            DropRelFileNodesAllBuffers for all of them
//	truncate REL [to N] [strategy=S]
//	                            cut the relation to N blocks (default 0), as
//	                            VACUUM's tail truncation does (RelationTruncate
//	                            → smgrtruncate → DropRelFileNodeBuffers, with
//	                            the FSM and VM forks where they exist)
//
// Every backend's queued operations run as one coroutine (package sched), so
// the schedule decides the interleaving of their shared-memory operations.
// A PostgreSQL ERROR (such as "no unpinned buffers available") aborts the
// backend's transaction: its pins are released and its remaining queued
// operations are dropped; `expect backend A error="…"` checks for it.
//
// Every error in a scenario names file:line:col and says what was expected
// and what was found. Parsing and running never panic on any input; the
// fuzz target FuzzScenario checks that.
package scenario
