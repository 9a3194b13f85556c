package scenario

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/trace"
)

// The free space map and heap inserts in scenarios (engine/fsm).
//
// Configuration: fsm=always (PostgreSQL 15) or fsm=small-skip (the
// reverted PG 12 patch: no FSM while the heap has at most fsm_threshold
// pages, default 4) turns it on. The store follows the pool's version
// (pg=): with fsm=always at pg=16, 17 or 18 a heap grows through PostgreSQL
// 16's RelationAddBlocks, by one page more for each backend holding or
// awaiting its extension lock, the extra pages put in the FSM
// (engine/fsm/extend16.go); at 15, and with small-skip at any version, a
// page at a time. A heap is `relation NAME heap
// [fillfactor=N] [blocks=N]`: a table whose pages and free space engine/fsm
// keeps, empty unless blocks= says otherwise.
//
// Operations: insert REL [N] [size=B] inserts N rows (default 1) of a
// table with B data bytes per row (default 4: one int column; at most
// MaxRowSize, and over 8136 PostgreSQL's "row is too big") through
// heap_insert and RelationGetBufferForTuple; delete REL B:O deletes the
// row at that ctid; vacuum REL is a VACUUM of the table (it records every
// page's free space and updates the map).
//
// Expectations: expect heap REL KEY=V (blocks, fsm_blocks, fsm_exists,
// rows: live rows), expect heap REL page=B KEY=V (one heap page: rows,
// free: PageGetHeapFreeSpace in bytes, category: that free space as an FSM
// category, map: the category the FSM's leaf records for the page), expect backend A ctid=B.O (its last insert's ctid)
// and expect fsm KEY=V (the sum over backends of:
// heap_reads, fsm_reads, vm_reads, fsm_skipped, pages_tried, inserts,
// extends).

// MaxRowSize bounds insert's size=: MaxAllocSize (memutils.h, 1GB - 1),
// the largest allocation PostgreSQL makes, so no row of a real server is
// larger. A row above MaxHeapTupleSize (8160 bytes, MAXALIGN'd with its
// 24-byte header) reaches RelationGetBufferForTuple's "row is too big"
// ERROR as in PostgreSQL (TOAST, which would move a long value out of
// line first, is not modelled: the row is as if its columns were
// STORAGE PLAIN).
const MaxRowSize = 0x3fffffff

// fsmConfig is the FSM part of ConfigStmt.
type fsmConfig struct {
	On        bool
	Variant   fsm.Variant
	Threshold int
}

var fsmMechanism = Mechanism{
	Name: "fsm", Title: "the free space map", Owner: trace.MFSM,
	Keys: []Key{
		variantsKey("fsm", "the free space map model, and heaps; both in pane order run side by side",
			"always, small-skip or both in pane order (always,small-skip)", []VariantInfo{
				{"always", "fsm=always: PostgreSQL 15, a map for every table", "fsm=always (PG 15)"},
				{"small-skip", "fsm=small-skip: no map up to 4 pages (PG 12 devel, reverted)", "fsm=small-skip (reverted)"},
			}, fsm.ParseVariant, func(st *ConfigStmt, vr fsm.Variant) { st.FSM.On, st.FSM.Variant = true, vr }),
		countKey("fsm_threshold", "small-skip's page count below which a heap has no map (default 4)", 1<<20,
			func(st *ConfigStmt, n int, _ Pos) { st.FSM.Threshold = n }),
	},
	Ops: []OpSpec{
		{Name: "insert", Kind: OpInsert, Grammar: "insert REL [N] [size=B]: heap_insert of N rows", parse: (*parser).fsmOp, run: (*Runner).execFSM},
		{Name: "delete", Kind: OpDelete, Grammar: "delete REL B:O: the row at that ctid", parse: (*parser).fsmOp, run: (*Runner).execFSM},
		{Name: "vacuum", Kind: OpVacuum, Grammar: "vacuum REL: record every page's free space and update the map", parse: (*parser).fsmOp, run: (*Runner).execFSM},
	},
	Subjects: []Subject{
		{Name: "heap", Expect: true, Show: true, Keys: []string{"blocks", "fsm_blocks", "rows", "fsm_exists", "free", "category", "map"}},
		{Name: "fsm", Expect: true, Keys: []string{"heap_reads", "fsm_reads", "vm_reads", "fsm_skipped", "pages_tried", "inserts", "extends"}},
	},
	ErrorText: fsm.ErrorText,
	Caption: func(evs []trace.Event, i int, n Names) string {
		return fsm.Caption(evs, i, n.Rel, n.Actor)
	},
	Moment: fsm.MomentOf,
	// The free space map's events (by their call sites), its error codes
	// among them, are described by package fsm.
	describes: fsm.IsFSMEvent,
	describe:  func(r *Runner, e trace.Event) string { return fsm.DescribeWith(e, r.relName, r.actorName) },
	absent: func(p *parser) string {
		if p.fsm {
			return ""
		}
		return "the scenario has no free space map model: expected config fsm=always|small-skip"
	},
}

// FSM is the free space map variant the pane chose, if it chose one.
func (v Variant) FSM() (fsm.Variant, bool) {
	return chosen(v, "fsm", fsm.ParseVariant)
}

// heapKey parses a relation key that only heaps take.
func (p *parser) heapKey(st *RelationStmt, t token, k, v string) error {
	if !p.fsm {
		return p.errf(t.Pos, "%s: heaps need the free space map model: expected config fsm=always|small-skip", k)
	}
	n, err := p.uint(t, v, 100, k)
	if err != nil {
		return err
	}
	if n < 10 {
		return p.errf(t.Pos, "fillfactor: expected 10..100, found %d", n)
	}
	st.FillFactor = int(n)
	return nil
}

// fsmOp parses insert, delete and vacuum.
func (p *parser) fsmOp(op Op, toks []token) (Op, error) {
	word := toks[0].Text
	if !p.fsm {
		return Op{}, p.errf(toks[0].Pos, "%s: heaps need the free space map model: expected config fsm=always|small-skip", word)
	}
	if len(toks) < 2 {
		return Op{}, p.errf(endPos(toks), "%s: expected a heap relation", word)
	}
	st, ok := p.rels[toks[1].Text]
	if !ok || !st.Heap {
		return Op{}, p.errf(toks[1].Pos, "%s: expected a heap defined above (relation NAME heap), found %q", word, toks[1].Text)
	}
	op.Rel = toks[1].Text
	rest := toks[2:]
	switch op.Kind {
	case OpInsert:
		op.Rows, op.Size = 1, 4
		for i, t := range rest {
			if k, v, ok := splitKV(t); ok {
				if k != "size" {
					return Op{}, p.errf(t.Pos, "insert: expected size=B, found %q", t.Text)
				}
				n, err := p.uint(t, v, ^uint64(0), "size")
				if err != nil {
					return Op{}, err
				}
				if n > MaxRowSize {
					return Op{}, p.errf(t.Pos, "size: %d bytes is more than one row can hold: expected at most %d (MaxAllocSize, 1GB - 1; rows over MaxHeapTupleSize, %d bytes with the header, fail with PostgreSQL's \"row is too big\")", n, MaxRowSize, fsm.MaxHeapTupleSize)
				}
				op.Size = int(n)
				continue
			}
			if i != 0 {
				return Op{}, p.errf(t.Pos, "insert: expected size=B, found %q", t.Text)
			}
			n, err := p.uint(t, t.Text, MaxOpBlocks, "rows")
			if err != nil {
				return Op{}, err
			}
			if n == 0 {
				return Op{}, p.errf(t.Pos, "rows: expected at least 1, found 0")
			}
			op.Rows = int(n)
		}
	case OpDelete:
		if len(rest) != 1 {
			return Op{}, p.errf(endPos(toks), "delete: expected one ctid B.O after %s", op.Rel)
		}
		tid, err := p.parseCtid(rest[0])
		if err != nil {
			return Op{}, err
		}
		op.TID = tid
	case OpVacuum:
		if len(rest) > 0 {
			return Op{}, p.errf(rest[0].Pos, "vacuum: expected nothing after the relation name, found %q", rest[0].Text)
		}
	}
	return op, nil
}

// parseCtid parses B.O.
func (p *parser) parseCtid(t token) (fsm.TID, error) {
	b, o, ok := strings.Cut(t.Text, ".")
	if !ok {
		return fsm.TID{}, p.errf(t.Pos, "delete: expected a ctid written B.O (block.offset), found %q", t.Text)
	}
	bn, err := p.uint(t, b, MaxRelBlocks-1, "ctid block")
	if err != nil {
		return fsm.TID{}, err
	}
	on, err := p.uint(t, o, 1<<16-1, "ctid offset")
	if err != nil {
		return fsm.TID{}, err
	}
	if on == 0 {
		return fsm.TID{}, p.errf(t.Pos, "ctid offset: expected at least 1 (offsets start at 1), found 0")
	}
	return fsm.TID{Block: uint32(bn), Offset: uint16(on)}, nil
}

// newFSM builds the runner's FSM store when the config asks.
func (r *Runner) newFSM() error {
	if !r.cfg.FSM.On {
		return nil
	}
	vr := r.cfg.FSM.Variant
	if own, ok := r.variant.FSM(); ok {
		vr = own
	}
	var err error
	r.fsm, err = fsm.NewStore(r.pool, fsm.Options{Variant: vr, Threshold: r.cfg.FSM.Threshold})
	return err
}

// FSM is the scenario's free space map store (nil without fsm=).
func (r *Runner) FSM() *fsm.Store { return r.fsm }

// session returns be's FSM session, opening it on first use.
func (r *Runner) session(be *backendState) (*fsm.Session, error) {
	if be.fs == nil {
		s, err := r.fsm.NewSession(be.b)
		if err != nil {
			return nil, err
		}
		be.fs = s
	}
	return be.fs, nil
}

// execFSM runs insert, delete and vacuum. A PostgreSQL ERROR aborts the
// session's transaction (its pins released) and then the backend's.
func (r *Runner) execFSM(be *backendState, op Op) error {
	s, err := r.session(be)
	if err != nil {
		return r.errf(op.Pos, "%v", err)
	}
	h, _ := r.fsm.HeapOf(r.rels[op.Rel].Number)
	switch op.Kind {
	case OpInsert:
		for i := 0; i < op.Rows; i++ {
			tid, e := s.HeapInsert(h, fsm.HeapTupleLen(op.Size))
			if e != nil {
				err = e
				break
			}
			be.lastTID = tid
		}
	case OpDelete:
		err = s.HeapDelete(h, op.TID)
	case OpVacuum:
		err = s.Vacuum(h)
	}
	if err != nil {
		var pg *fsm.PGError
		var bpg *bufmgr.PGError
		if errors.As(err, &pg) || errors.As(err, &bpg) {
			s.Abort()
			if bpg != nil {
				return bpg
			}
			return &bufmgr.PGError{Msg: pg.Msg}
		}
		return r.errf(op.Pos, "%s %s: %v", op.Kind, op.Rel, err)
	}
	return nil
}

func (r *Runner) fsmExpectValue(st *ExpectStmt, c check) (string, error) {
	if r.fsm == nil {
		return "", r.errf(c.Pos, "expect %s: the scenario has no free space map model (config fsm=…)", st.Subject)
	}
	u := func(v uint64) string { return strconv.FormatUint(v, 10) }
	switch st.Subject {
	case "heap":
		h, _ := r.fsm.HeapOf(r.rels[st.Args[0].Text].Number)
		if len(st.Args) > 1 {
			if v, ok := heapPageValue(h, st.Args[1], c); ok {
				return v, nil
			}
			return "", r.errf(c.Pos, "expect heap %s: %s is not a key of one page (rows, free, category, map)", st.Args[1].Text, c.Key)
		}
		switch c.Key {
		case "free", "category", "map":
			return "", r.errf(c.Pos, "expect heap: %s= needs page=B (which heap page)", c.Key)
		case "blocks":
			return u(uint64(h.NBlocks())), nil
		case "fsm_blocks":
			return u(uint64(h.FSMBlocks())), nil
		case "fsm_exists":
			return yesNo(h.FSMExists()), nil
		case "rows":
			n := 0
			for b := uint32(0); b < h.NBlocks(); b++ {
				hp := h.HeapPage(b)
				n += hp.Live()
			}
			return strconv.Itoa(n), nil
		}
	case "fsm":
		var t fsm.Stats
		for _, be := range r.backends {
			if be.fs != nil {
				t.Add(be.fs.Stats)
			}
		}
		if v, ok := counter(c.Key, map[string]uint64{"heap_reads": t.Reads[bufmgr.MainForkNum], "fsm_reads": t.Reads[bufmgr.FSMForkNum],
			"vm_reads": t.Reads[bufmgr.VMForkNum], "fsm_skipped": t.FSMSkipped, "pages_tried": t.PagesTried, "inserts": t.Inserts,
			"extends": t.Extends[bufmgr.MainForkNum]}); ok {
			return v, nil
		}
	}
	return "", r.errf(c.Pos, "expect %s: unknown key %q", st.Subject, c.Key)
}

// heapPageValue answers an expect heap REL page=B check: one heap page's
// live rows, its free space (PageGetHeapFreeSpace, what hio.c records), that
// space as a category, and what the FSM's leaf holds for it.
func heapPageValue(h *fsm.Heap, page token, c check) (string, bool) {
	_, v, _ := splitKV(page)
	blk, _ := strconv.ParseUint(v, 10, 32)
	if uint32(blk) >= h.NBlocks() {
		return "(page " + v + " is past the heap's " + strconv.FormatUint(uint64(h.NBlocks()), 10) + " pages)", true
	}
	hp := h.HeapPage(uint32(blk))
	switch c.Key {
	case "rows":
		return strconv.Itoa(hp.Live()), true
	case "free":
		return strconv.Itoa(hp.HeapFreeSpace()), true
	case "category":
		return strconv.Itoa(int(fsm.SpaceAvailToCat(hp.HeapFreeSpace()))), true
	case "map":
		return strconv.Itoa(int(h.RecordedCat(uint32(blk)))), true
	}
	return "", false
}

// lastCtid is the ctid of a backend's last insert, for expect backend.
func (be *backendState) lastCtid() string {
	return fmt.Sprintf("%d.%d", be.lastTID.Block, be.lastTID.Offset)
}

// HeapStart is a heap as the scenario declares it, before any event.
type HeapStart struct {
	Rel        uint32
	Name       string
	FillFactor int
	Main, FSM  uint32 // fork sizes from blocks= and fsm=
}

// Heaps lists the heaps a parsed scenario declares, with their relation
// numbers (in definition order, from FirstNormalObjectId like every
// relation), for a view of the free space map that starts before the
// first event.
func Heaps(s *Script) []HeapStart {
	var out []HeapStart
	n := uint32(bufmgr.FirstNormalObjectId)
	for _, st := range s.Stmts {
		rs, ok := st.(*RelationStmt)
		if !ok {
			continue
		}
		for _, name := range rs.Names() {
			if rs.Heap {
				out = append(out, HeapStart{Rel: n, Name: name, FillFactor: rs.FillFactor,
					Main: rs.NBlocks[bufmgr.MainForkNum], FSM: rs.NBlocks[bufmgr.FSMForkNum]})
			}
			n++
		}
	}
	return out
}

// Script is the parsed scenario the runner runs.
func (r *Runner) Script() *Script { return r.script }
