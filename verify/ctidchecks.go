package verify

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"bufferlab/engine/fsm"
)

// The heap checks: where rows land. The engine's RelationGetBufferForTuple
// (package fsm: the cached target block, the FSM's search, extension)
// against the ctid the server gives each row, for scripted and seeded
// random runs of inserts, deletes and VACUUMs by several backends.

func checkRowsPerPage(ctx context.Context, e *env) (outcome, error) {
	var eng, srv []string
	for _, c := range []struct{ ff, rows int }{{100, 500}, {20, 100}, {10, 50}} {
		t, err := e.intTable(ctx, fmt.Sprintf("rows_ff%d", c.ff), fmt.Sprintf("fillfactor = %d", c.ff), c.rows)
		if err != nil {
			return outcome{}, err
		}
		counts, err := e.joinRows(ctx, " ", "%[2]d", "SELECT (ctid::text::point)[0]::int AS blk, count(*) FROM "+t+" GROUP BY 1 ORDER BY 1")
		if err != nil {
			return outcome{}, err
		}
		srv = append(srv, fmt.Sprintf("ff%d: %s", c.ff, counts))

		_, h, s, err := e.engineTable(c.ff)
		if err != nil {
			return outcome{}, err
		}
		if err := insertRows(s, h, c.rows, intRow); err != nil {
			return outcome{}, err
		}
		var live []string
		for blk := uint32(0); blk < h.NBlocks(); blk++ {
			live = append(live, fmt.Sprint(h.HeapPage(blk).Live()))
		}
		eng = append(eng, fmt.Sprintf("ff%d: %s", c.ff, strings.Join(live, " ")))
	}
	return outcome{engine: strings.Join(eng, "; "), server: strings.Join(srv, "; ")}, nil
}

// ctidStep is one step of the ctid script: backend A or B inserts rows
// (ids), deletes rows (by the ctid each side gave them), or VACUUMs.
type ctidStep struct {
	who  string
	op   byte // 'i' insert, 'd' delete, 'v' vacuum
	from int  // ids from..to
	to   int
	ids  []int
}

// ctidScript: 1032-byte rows (an int and 1000 characters stored PLAIN),
// seven to a page. Inserts go to the cached target block, then, when it
// is full, to what the FSM offers (it learns of pages as inserts find them
// full, and of freed space only from VACUUM), then to a new page. A
// VACUUM makes every backend forget its target block (relcache
// invalidation); a new backend (B) starts without one. Deletes are by
// ctid (a TID scan, which unlike a seq scan does not prune the page) and
// no trailing page is emptied (VACUUM's truncation is not modelled).
var ctidScript = []ctidStep{
	{who: "A", op: 'i', from: 1, to: 20},
	{who: "A", op: 'd', ids: []int{2, 3, 4, 9}},
	{who: "A", op: 'i', from: 21, to: 23},
	{who: "A", op: 'v'},
	{who: "A", op: 'i', from: 24, to: 30},
	{who: "B", op: 'i', from: 31, to: 33},
	{who: "A", op: 'd', ids: []int{10, 11, 12, 13, 14, 24, 31}},
	{who: "B", op: 'v'},
	{who: "B", op: 'i', from: 34, to: 40},
	{who: "A", op: 'i', from: 41, to: 45},
	{who: "A", op: 'd', ids: []int{1, 5, 6, 7, 8}},
	{who: "A", op: 'v'},
	{who: "A", op: 'i', from: 46, to: 52},
	{who: "B", op: 'i', from: 53, to: 56},
}

const ctidRowChars = 1000

// ctidRun runs inserts, deletes and VACUUMs on both sides, each by a
// named backend: on the server its own connection (backends), on the
// engine its own session (fsmEngine.session); it records where every row
// landed. Rows are an int (the row's id) and a text of some characters
// stored PLAIN, so that both sides see the same t_len.
type ctidRun struct {
	t     string
	f     *fsmEngine
	h     *fsm.Heap
	conns *backends
	// srv and eng are the live rows' ctids by id; srvSeq and engSeq
	// every insert's, in order.
	srv            map[int]string
	eng            map[int]fsm.TID
	srvSeq, engSeq []string
}

// newCtidRun makes the table (a int, b text) WITH opts on the server and
// a heap at fillfactor ff on a fresh engine.
func (e *env) newCtidRun(ctx context.Context, name, opts string, ff int) (*ctidRun, error) {
	t, err := e.plainTable(ctx, name, "a int, b text", opts)
	if err != nil {
		return nil, err
	}
	f, h, _, err := e.engineTable(ff)
	if err != nil {
		return nil, err
	}
	return &ctidRun{t: t, f: f, h: h, conns: e.backends(), srv: map[int]string{}, eng: map[int]fsm.TID{}}, nil
}

// backend returns backend who's connection and session, each started on
// first use.
func (r *ctidRun) backend(ctx context.Context, who string) (*pgx.Conn, *fsm.Session, error) {
	c, err := r.conns.conn(ctx, who)
	if err != nil {
		return nil, nil, err
	}
	s, err := r.f.session(who)
	return c, s, err
}

// insert inserts row id, of chars characters, as backend who.
func (r *ctidRun) insert(ctx context.Context, who string, id, chars int) error {
	c, s, err := r.backend(ctx, who)
	if err != nil {
		return err
	}
	var ctid string
	if err := c.QueryRow(ctx, "INSERT INTO "+r.t+" VALUES ($1::int, repeat('x', $2::int)) RETURNING ctid::text", id, chars).Scan(&ctid); err != nil {
		return fmt.Errorf("%s: insert %d: %w", who, id, err)
	}
	tid, err := s.HeapInsert(r.h, fsm.HeapTupleLen(4+4+chars))
	if err != nil {
		return fmt.Errorf("engine: %s: insert %d: %w", who, id, err)
	}
	r.srv[id], r.eng[id] = ctid, tid
	r.srvSeq, r.engSeq = append(r.srvSeq, ctid), append(r.engSeq, tid.String())
	return nil
}

// delete deletes row id by the ctid each side gave it, as backend who.
func (r *ctidRun) delete(ctx context.Context, who string, id int) error {
	c, s, err := r.backend(ctx, who)
	if err != nil {
		return err
	}
	if _, err := c.Exec(ctx, "DELETE FROM "+r.t+" WHERE ctid = $1::tid", r.srv[id]); err != nil {
		return fmt.Errorf("%s: delete %d: %w", who, id, err)
	}
	if err := s.HeapDelete(r.h, r.eng[id]); err != nil {
		return fmt.Errorf("engine: %s: delete %d: %w", who, id, err)
	}
	delete(r.srv, id)
	delete(r.eng, id)
	return nil
}

// vacuum VACUUMs the table as backend who.
func (r *ctidRun) vacuum(ctx context.Context, who string) error {
	c, s, err := r.backend(ctx, who)
	if err != nil {
		return err
	}
	if _, err := c.Exec(ctx, "VACUUM "+r.t); err != nil {
		return fmt.Errorf("%s: VACUUM: %w", who, err)
	}
	if err := s.Vacuum(r.h); err != nil {
		return fmt.Errorf("engine: VACUUM: %w", err)
	}
	return nil
}

// reconnect gives backend who a new connection and session: a new
// backend, with no cached target block.
func (r *ctidRun) reconnect(ctx context.Context, who string) error {
	if err := r.conns.reconnect(ctx, who); err != nil {
		return err
	}
	return r.f.reconnect(who)
}

// rows compares the ctids of every insert: their blocks as runs, and row
// by row in the detail.
func (r *ctidRun) rows(o *outcome, label string) {
	o.mark("ctids differ", label, strings.Join(r.engSeq, "\n"), strings.Join(r.srvSeq, "\n"))
}

func checkCtidSequence(ctx context.Context, e *env) (outcome, error) {
	r, err := e.newCtidRun(ctx, "ctid", "vacuum_truncate = false", 100)
	if err != nil {
		return outcome{}, err
	}
	for _, st := range ctidScript {
		switch st.op {
		case 'i':
			for id := st.from; id <= st.to; id++ {
				if err := r.insert(ctx, st.who, id, ctidRowChars); err != nil {
					return outcome{}, err
				}
			}
		case 'd':
			for _, id := range st.ids {
				if err := r.delete(ctx, st.who, id); err != nil {
					return outcome{}, err
				}
			}
		case 'v':
			if err := r.vacuum(ctx, st.who); err != nil {
				return outcome{}, err
			}
		}
	}
	o := outcome{engine: blockRuns(r.engSeq), server: blockRuns(r.srvSeq)}
	r.rows(&o, "row by row")
	return o, nil
}

// blockRuns condenses a list of ctids "(b,o)" into the blocks in order,
// run-length encoded: "0×7 1×7 2×7 3×2 …".
func blockRuns(ctids []string) string {
	var parts []string
	prev, n := "", 0
	flush := func() {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s×%d", prev, n))
		}
	}
	for _, c := range ctids {
		blk, _, _ := strings.Cut(strings.Trim(c, "()"), ",")
		if blk != prev {
			flush()
			prev, n = blk, 0
		}
		n++
	}
	flush()
	return fmt.Sprintf("%d rows: %s", len(ctids), strings.Join(parts, " "))
}

// checkCtidRandom is ctid-sequence with a seeded random script: the same
// on every run (PCG with a fixed seed), long enough to reach corners the
// hand-written one does not: reuse of freed line pointers, backends whose
// cached target block another one filled, and VACUUMs that change nothing
// in pg_class (relpages, reltuples, relallvisible, relfrozenxid) and so
// send no relcache invalidation: every backend keeps its target block.
// At fillfactor 10 the table grows past 32 pages and VACUUM skips runs of
// all-visible pages, estimating reltuples (vac_estimate_reltuples) and
// keeping relfrozenxid. These three found the engine's differences that
// engine/fsm now models (see the README).
func checkCtidRandom(ctx context.Context, e *env) (outcome, error) {
	return ctidRandom(ctx, e, 20260515, 1500, 70)
}

func checkCtidRandomFF10(ctx context.Context, e *env) (outcome, error) {
	return ctidRandom(ctx, e, 4, 1500, 10)
}

func ctidRandom(ctx context.Context, e *env, seed uint64, steps, ff int) (outcome, error) {
	r, err := e.newCtidRun(ctx, "ctid_random", fmt.Sprintf("fillfactor = %d, vacuum_truncate = false", ff), ff)
	if err != nil {
		return outcome{}, err
	}
	names := []string{"A", "B", "C"}
	rng := newRand(seed)
	sizes := []int{0, 60, 200, 700, 1500, 3000}
	var liveIDs []int
	next := 1
	for step := 0; step < steps; step++ {
		who := names[rng.intn(len(names))]
		if _, _, err := r.backend(ctx, who); err != nil {
			return outcome{}, err
		}
		switch x := rng.intn(100); {
		case x < 60 || len(liveIDs) == 0:
			err = r.insert(ctx, who, next, sizes[rng.intn(len(sizes))])
			liveIDs = append(liveIDs, next)
			next++
		case x < 90:
			i := rng.intn(len(liveIDs))
			id := liveIDs[i]
			liveIDs = append(liveIDs[:i], liveIDs[i+1:]...)
			err = r.delete(ctx, who, id)
		case x < 95:
			err = r.vacuum(ctx, who)
		default:
			err = r.reconnect(ctx, who)
		}
		if err != nil {
			return outcome{}, fmt.Errorf("step %d: %w", step, err)
		}
	}
	srv, err := e.serverFSM(ctx, r.t)
	if err != nil {
		return outcome{}, err
	}
	s, _ := r.f.session("A")
	eng, err := engineFSM(s, r.h)
	if err != nil {
		return outcome{}, err
	}
	o := comparePages(eng.pages, srv.pages, fmt.Sprintf("%d rows in %d blocks", len(r.engSeq), r.h.NBlocks()), fmt.Sprintf("%d rows in %d blocks", len(r.srvSeq), len(strings.Fields(srv.free))))
	o.mark("pg_freespace differs", "pg_freespace", strings.ReplaceAll(eng.free, " ", "\n"), strings.ReplaceAll(srv.free, " ", "\n"))
	r.rows(&o, "rows")
	return o, nil
}
