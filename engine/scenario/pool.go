package scenario

import (
	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
)

// The buffer pool's mechanisms in the scenario language: the pool itself
// (reads, releases, scans: bufmgr.c's ReadBuffer_common and its callers),
// pins (the state word's CAS of PG 9.6+ or 9.5's header spinlock), and
// drop (DropRelFileNodesAllBuffers and DropRelFileNodeBuffers: the full
// scan, the per-block lookup, or the reverted per-relation list).

func init() {
	// Registration order is the order of the parser's error lists and of
	// the mechanisms the layers above iterate.
	Register(poolMechanism)
	Register(pinsMechanism)
	Register(dropMechanism)
	Register(slruMechanism)
	Register(fsmMechanism)
	Register(pgMechanism)
}

var poolMechanism = Mechanism{
	Name: "pool", Title: "the shared buffer pool", Owner: trace.MPool,
	Keys: []Key{
		onOffKey("synchronize_seqscans", "a scan of over NBuffers/4 blocks starts where the last scan of the table reported being (PostgreSQL's default on)",
			func(st *ConfigStmt, on bool) { st.NoSyncScans = !on }),
	},
	Ops: []OpSpec{
		{Name: "read", Kind: OpRead, Grammar: "read REL B[..E] [fork=F]: ReadBuffer and keep the pin", parse: (*parser).poolOp, run: (*Runner).execPoolOp},
		{Name: "release", Kind: OpRelease, Grammar: "release REL B[..E] | release all: ReleaseBuffer", parse: (*parser).poolOp, run: (*Runner).execPoolOp},
		{Name: "dirty", Kind: OpDirty, Grammar: "dirty REL B[..E]: MarkBufferDirty on a pinned block", parse: (*parser).poolOp, run: (*Runner).execPoolOp},
		{Name: "touch", Kind: OpTouch, Grammar: "touch REL B[..E]: read and release", parse: (*parser).poolOp, run: (*Runner).execPoolOp},
		{Name: "write", Kind: OpWrite, Grammar: "write REL B[..E]: read, dirty and release", parse: (*parser).poolOp, run: (*Runner).execPoolOp},
		{Name: "scan", Kind: OpScan, Grammar: "scan REL [pages=N]: a sequential scan through its ring", parse: (*parser).poolOp, run: (*Runner).execPoolOp},
		{Name: "cleanup", Kind: OpCleanup, Grammar: "cleanup REL B: LockBufferForCleanup on a pinned block", parse: (*parser).poolOp, run: (*Runner).execPoolOp},
	},
	Subjects: []Subject{
		{Name: "pool", Expect: true, Show: true, Keys: []string{"hits", "misses", "writes", "hand", "passes", "free", "in_use", "ticks", "decrements", "errors",
			"cas", "cas_failures", "header_locks", "spins", "reads", "io_time"}},
		{Name: "buffer", Expect: true, Keys: []string{"tag", "rc", "usage", "flags", "dirty", "valid"}},
		{Name: "block", Expect: true, Keys: []string{"in", "resident", "usage", "rc"}},
		{Name: "backend", Expect: true, Keys: []string{"pins", "error", "ctid"}},
		{Name: "map", Show: true},
	},
	ErrorText: func(e trace.Event) string { return bufmgr.ErrCode(e.Arg).String() },
	Caption: func(evs []trace.Event, i int, n Names) string {
		return bufmgr.Caption(evs, i, n.Rel, n.Actor)
	},
	Moment: bufmgr.MomentOf,
}

var pinsMechanism = Mechanism{
	Name: "pins", Title: "pinning a buffer", Owner: trace.MPool,
	Keys: []Key{
		variantsKey("pins", "how PinBuffer changes the state word; both in pane order run side by side",
			"atomic, spinlock or both in pane order (atomic,spinlock)", []VariantInfo{
				{"atomic", "pins=atomic: one CAS on the state word (PostgreSQL 9.6 to 18)", "pins=atomic: one CAS (PG 9.6+)"},
				{"spinlock", "pins=spinlock: 9.5's header spinlock, drawn on the 9.6 state word", "pins=spinlock: 9.5 locking on the 9.6 word"},
			}, bufmgr.ParsePins, func(st *ConfigStmt, m bufmgr.PinsMode) { st.Pins = m }),
	},
}

var dropMechanism = Mechanism{
	Name: "drop", Title: "dropping a relation's buffers", Owner: trace.MPool,
	Keys: []Key{
		variantsKey("drop", "the strategy of every drop and truncate that names none; several in pane order run side by side",
			"strategies among auto, scan, lookup, dlist in pane order (scan,lookup,dlist)", []VariantInfo{
				{"scan", "drop=scan: every descriptor of the pool, checked in turn", "drop=scan: the full pool scan"},
				{"lookup", "drop=lookup: each block looked up in the mapping table", "drop=lookup: per-block lookups"},
				{"dlist", "drop=dlist: the relation's own list of buffers (reverted idea)", "drop=dlist: the relation's list"},
				{"auto", "drop=auto: what PostgreSQL 15 chooses", "drop=auto: PostgreSQL's choice"},
			}, bufmgr.ParseDropStrategy, nil),
		onOffKey("in_recovery", "the dropping backend is the startup process replaying WAL (sizes cached: the lookup is allowed)",
			func(st *ConfigStmt, on bool) { st.InRecovery = on }),
		onOffKey("dlist", "keep the per-relation buffer lists of the dlist strategy", func(st *ConfigStmt, on bool) { st.DropList = on }),
	},
	Ops: []OpSpec{
		{Name: "drop", Kind: OpDrop, Grammar: "drop REL [REL|PREFIX* …] [strategy=S]: DROP TABLE's DropRelFileNodesAllBuffers",
			parse: (*parser).dropOp, run: (*Runner).execDrop},
		{Name: "truncate", Kind: OpTruncate, Grammar: "truncate REL [to N] [strategy=S]: smgrtruncate's DropRelFileNodeBuffers",
			parse: (*parser).truncateOp, run: (*Runner).execTruncate},
	},
}

// Pins is the pin variant the pane runs (atomic unless it chose one).
func (v Variant) Pins() bufmgr.PinsMode {
	m, _ := chosen(v, "pins", bufmgr.ParsePins)
	return m
}

// Drop is the drop strategy the pane chose, if it chose one.
func (v Variant) Drop() (bufmgr.DropStrategy, bool) {
	return chosen(v, "drop", bufmgr.ParseDropStrategy)
}
