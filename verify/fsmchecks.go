package verify

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
)

// The free space map and heap checks: the engine side drives package fsm
// (heaps, sessions, HeapInsert, HeapDelete, Vacuum) with the same rows
// the server gets; the server side reads pg_relation_size,
// pg_freespace (pg_freespacemap), fsm_page_contents (pageinspect) and the
// ctid of each row.

func fsmChecks() []Check {
	return []Check{
		{Name: "fsm-created-by-vacuum", Writes: true, run: checkFSMCreatedByVacuum,
			What: "a one-row table: FSM and VM fork sizes before VACUUM (0, 0) and after (24576 B = 3 pages, 8192 B)"},
		{Name: "fsm-one-row", Writes: true, run: checkFSMOneRow,
			What: "the same table after VACUUM: pg_freespace (0, 8128) and fsm_page_contents of FSM pages 0, 1, 2 (254 on the path to the root)"},
		{Name: "fsm-4069-4070", Writes: true, run: checkFSM4069,
			What: "VACUUM of a 4069-page heap leaves 3 FSM pages; one more row makes 4070 pages and the next VACUUM 4 FSM pages"},
		{Name: "fsm-category-rounding", Writes: true, run: checkFSMCategories,
			What: "pg_freespace of pages with 0, 24, 32, 56, 3128, 4056 and 8160 free bytes after VACUUM: categories of 32 bytes rounded down, 8160 for a full page"},
		{Name: "fsm-page-contents", Writes: true, run: checkFSMPageContents,
			What: "fsm_page_contents of every FSM page of that table after one more insert: every node of the max-tree and fp_next_slot"},
		{Name: "fsm-root-empty-after-inserts", Writes: true, run: checkFSMRootEmpty,
			What: "a 3-page table built by INSERT only: an FSM of 3 pages whose root and middle pages are still empty; only the leaf knows the full pages"},
		{Name: "vacuum-buffers", Writes: true, run: checkVacuumBuffers,
			What: "VACUUM of a cold table over NBuffers/4 blocks: 32 main-fork buffers (the 256kB VACUUM ring), and the usage count of each FSM and VM page it read"},
		{Name: "fsm-two-leaves", Writes: true, run: checkFSMTwoLeaves,
			What: "a 4100-page table with one emptied page under each of its two FSM leaf pages: where 50 new rows go (the stale upper pages fixed on the way) and every FSM page after"},
		{Name: "rows-per-page", Writes: true, run: checkRowsPerPage,
			What: "rows of one int column per block at fillfactor 100, 20 and 10 (226, 44, 22)"},
		{Name: "ctid-sequence", Writes: true, run: checkCtidSequence,
			What: "the ctid of every row of a scripted run of inserts (two backends), deletes and VACUUMs, predicted by the engine's RelationGetBufferForTuple and FSM"},
		{Name: "ctid-random", Writes: true, run: checkCtidRandom,
			What: "the same for 1500 seeded random steps at fillfactor 70: rows of 0–3000 characters, deletes, VACUUMs, three backends that reconnect; then pg_freespace and every FSM page"},
		{Name: "ctid-random-ff10", Writes: true, run: checkCtidRandomFF10,
			What: "the same at fillfactor 10, where the table outgrows 32 pages and VACUUM skips runs of all-visible pages (and so keeps some target blocks cached)"},
	}
}

// fsmEngine is an engine store over a pool the size of the server's.
type fsmEngine struct {
	pool     *bufmgr.Pool
	store    *fsm.Store
	sessions map[string]*fsm.Session
	nrel     uint32
}

func newFSMEngine(nbuffers int) (*fsmEngine, error) {
	pool, err := bufmgr.NewPool(max(nbuffers, bufmgr.MinNBuffers), nil)
	if err != nil {
		return nil, err
	}
	st, err := fsm.NewStore(pool, fsm.Options{Variant: fsm.Always})
	if err != nil {
		return nil, err
	}
	return &fsmEngine{pool: pool, store: st, sessions: map[string]*fsm.Session{}}, nil
}

// session returns the session of backend name, started on first use (a
// new connection).
func (f *fsmEngine) session(name string) (*fsm.Session, error) {
	if s, ok := f.sessions[name]; ok {
		return s, nil
	}
	b, err := f.pool.NewBackend(name)
	if err != nil {
		return nil, err
	}
	s, err := f.store.NewSession(b)
	if err != nil {
		return nil, err
	}
	f.sessions[name] = s
	return s, nil
}

// reconnect replaces backend name's session with a new one, as a new
// connection starts without cached target blocks. The engine's backend
// (its pins: none between statements) is reused: a pool has room for 64.
func (f *fsmEngine) reconnect(name string) error {
	s, err := f.session(name)
	if err != nil {
		return err
	}
	ns, err := f.store.NewSession(s.Backend())
	if err != nil {
		return err
	}
	f.sessions[name] = ns
	return nil
}

// engineTable is the engine's side of a check: a fresh free space map
// model the size of the server's pool, with table t at fillfactor ff and
// session A.
func (e *env) engineTable(ff int) (*fsmEngine, *fsm.Heap, *fsm.Session, error) {
	f, err := newFSMEngine(e.info.NBuffers)
	if err != nil {
		return nil, nil, nil, err
	}
	h, err := f.heap("t", ff)
	if err != nil {
		return nil, nil, nil, err
	}
	s, err := f.session("A")
	return f, h, s, err
}

// heap adds a heap named name with the given fillfactor.
func (f *fsmEngine) heap(name string, fillfactor int) (*fsm.Heap, error) {
	rel := &bufmgr.Relation{Name: name, Number: bufmgr.FirstNormalObjectId + f.nrel, Permanent: true}
	f.nrel++
	return f.store.NewHeap(rel, fillfactor)
}

// pageContents prints an FSM page as pageinspect's fsm_page_contents
// does: "node: value" for every non-zero node, then fp_next_slot.
func pageContents(p fsm.Page) string {
	var b strings.Builder
	nodes := p.Nodes()
	for i, v := range nodes {
		if v != 0 {
			fmt.Fprintf(&b, "%d: %d\n", i, v)
		}
	}
	fmt.Fprintf(&b, "fp_next_slot: %d\n", p.NextSlot())
	return b.String()
}

// contentsSummary condenses fsm_page_contents text: how many non-zero
// nodes, the root, fp_next_slot.
func contentsSummary(text string) string {
	n, root, next := 0, "0", "?"
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		k, v, _ := strings.Cut(l, ": ")
		switch {
		case k == "fp_next_slot":
			next = v
		case k == "0":
			root = v
			n++
		default:
			n++
		}
	}
	return fmt.Sprintf("%d nodes, root %s, next %s", n, root, next)
}

// engineFSMPages prints every page of the heap's FSM fork.
func engineFSMPages(h *fsm.Heap) []string {
	var out []string
	for phys := uint32(0); phys < h.FSMBlocks(); phys++ {
		p, _ := h.FSMPage(phys)
		out = append(out, pageContents(p))
	}
	return out
}

// serverFSMPages reads every page of table's FSM fork with
// fsm_page_contents.
func (e *env) serverFSMPages(ctx context.Context, table string) ([]string, error) {
	n, err := e.int(ctx, "SELECT pg_relation_size($1::regclass, 'fsm') / current_setting('block_size')::int", table)
	if err != nil {
		return nil, err
	}
	var out []string
	for i := int64(0); i < n; i++ {
		s, err := e.text(ctx, "SELECT fsm_page_contents(get_raw_page($1, 'fsm', $2::bigint))", table, i)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// comparePages builds an outcome from FSM page texts: the summaries say
// how many nodes each page has; the full texts must be equal.
func comparePages(prefix string, eng, srv []string, engExtra, srvExtra string) outcome {
	sum := func(pages []string, extra string) string {
		var parts []string
		for i, p := range pages {
			parts = append(parts, fmt.Sprintf("p%d %s", i, contentsSummary(p)))
		}
		s := prefix + strings.Join(parts, "; ")
		if extra != "" {
			s = extra + "; " + s
		}
		return s
	}
	o := outcome{engine: sum(eng, engExtra), server: sum(srv, srvExtra)}
	ej, sj := strings.Join(eng, "--\n"), strings.Join(srv, "--\n")
	if ej != sj {
		// Make the difference visible in the compared strings.
		o.engine += " [page text differs]"
		o.detail = firstDiff(ej, sj)
	}
	return o
}

// forkSizes reads the FSM and VM sizes in bytes.
func (e *env) forkSizes(ctx context.Context, table string) (string, error) {
	var f, v int64
	err := e.conn.QueryRow(ctx, "SELECT pg_relation_size($1::regclass, 'fsm'), pg_relation_size($1::regclass, 'vm')", table).Scan(&f, &v)
	return fmt.Sprintf("fsm %d B, vm %d B", f, v), err
}

func engineForkSizes(h *fsm.Heap) string {
	return fmt.Sprintf("fsm %d B, vm %d B", int(h.FSMBlocks())*fsm.BLCKSZ, int(h.Rel.NBlocks[bufmgr.VMForkNum])*fsm.BLCKSZ)
}

var intRow = fsm.HeapTupleLen(4) // one int4 column: t_len 28

// oneRow makes the one-row table on both sides, before VACUUM.
func (e *env) oneRow(ctx context.Context, name string) (string, *fsmEngine, *fsm.Heap, error) {
	t, err := e.table(ctx, name)
	if err != nil {
		return "", nil, nil, err
	}
	if err := e.execAll(ctx, "CREATE TABLE "+t+" (a int)", "INSERT INTO "+t+" VALUES (1)"); err != nil {
		return "", nil, nil, err
	}
	f, h, s, err := e.engineTable(100)
	if err != nil {
		return "", nil, nil, err
	}
	if _, err := s.HeapInsert(h, intRow); err != nil {
		return "", nil, nil, fmt.Errorf("engine: %w", err)
	}
	return t, f, h, nil
}

func checkFSMCreatedByVacuum(ctx context.Context, e *env) (outcome, error) {
	t, f, h, err := e.oneRow(ctx, "fsm_created")
	if err != nil {
		return outcome{}, err
	}
	before, err := e.forkSizes(ctx, t)
	if err != nil {
		return outcome{}, err
	}
	if err := e.exec(ctx, "VACUUM "+t); err != nil {
		return outcome{}, err
	}
	after, err := e.forkSizes(ctx, t)
	if err != nil {
		return outcome{}, err
	}
	engBefore := engineForkSizes(h)
	s, _ := f.session("A")
	if err := s.Vacuum(h); err != nil {
		return outcome{}, fmt.Errorf("engine: %w", err)
	}
	return outcome{engine: engBefore + " → " + engineForkSizes(h), server: before + " → " + after}, nil
}

// serverFreeSpace reads pg_freespace(table) as "blk:avail ...".
func (e *env) serverFreeSpace(ctx context.Context, table string) (string, error) {
	rows, err := e.conn.Query(ctx, "SELECT blkno, avail FROM pg_freespace($1::regclass) ORDER BY blkno", table)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var parts []string
	for rows.Next() {
		var blk int64
		var avail int16
		if err := rows.Scan(&blk, &avail); err != nil {
			return "", err
		}
		parts = append(parts, fmt.Sprintf("%d:%d", blk, avail))
	}
	return strings.Join(parts, " "), rows.Err()
}

// engineFreeSpace is pg_freespace on the engine: GetRecordedFreeSpace of
// every heap block.
func engineFreeSpace(s *fsm.Session, h *fsm.Heap) (string, error) {
	var parts []string
	for blk := uint32(0); blk < h.NBlocks(); blk++ {
		avail, err := s.GetRecordedFreeSpace(h, blk)
		if err != nil {
			return "", fmt.Errorf("engine: %w", err)
		}
		parts = append(parts, fmt.Sprintf("%d:%d", blk, avail))
	}
	return strings.Join(parts, " "), nil
}

func checkFSMOneRow(ctx context.Context, e *env) (outcome, error) {
	t, f, h, err := e.oneRow(ctx, "fsm_one_row")
	if err != nil {
		return outcome{}, err
	}
	if err := e.exec(ctx, "VACUUM "+t); err != nil {
		return outcome{}, err
	}
	srvFree, err := e.serverFreeSpace(ctx, t)
	if err != nil {
		return outcome{}, err
	}
	srvPages, err := e.serverFSMPages(ctx, t)
	if err != nil {
		return outcome{}, err
	}
	s, _ := f.session("A")
	if err := s.Vacuum(h); err != nil {
		return outcome{}, fmt.Errorf("engine: %w", err)
	}
	engFree, err := engineFreeSpace(s, h)
	if err != nil {
		return outcome{}, err
	}
	return comparePages("", engineFSMPages(h), srvPages, "pg_freespace "+engFree, "pg_freespace "+srvFree), nil
}

func checkFSM4069(ctx context.Context, e *env) (outcome, error) {
	t, err := e.table(ctx, "fsm_4069")
	if err != nil {
		return outcome{}, err
	}
	rpp := fsm.RowsPerPage(intRow, 10)
	rows := 4069 * rpp
	pages := func() (string, error) {
		var heap, fsmb int64
		err := e.conn.QueryRow(ctx, "SELECT pg_relation_size($1::regclass) / 8192, pg_relation_size($1::regclass, 'fsm') / 8192", t).Scan(&heap, &fsmb)
		return fmt.Sprintf("%d heap pages → %d FSM pages", heap, fsmb), err
	}
	var srv []string
	for _, s := range []string{
		"CREATE TABLE " + t + " (a int) WITH (fillfactor = 10)",
		fmt.Sprintf("INSERT INTO %s SELECT generate_series(1, %d)", t, rows),
		"VACUUM " + t,
		"", // read
		fmt.Sprintf("INSERT INTO %s VALUES (%d)", t, rows+1),
		"VACUUM " + t,
		"",
	} {
		if s == "" {
			p, err := pages()
			if err != nil {
				return outcome{}, err
			}
			srv = append(srv, p)
			continue
		}
		if err := e.exec(ctx, s); err != nil {
			return outcome{}, err
		}
	}
	_, h, s, err := e.engineTable(10)
	if err != nil {
		return outcome{}, err
	}
	var eng []string
	for i := 0; i <= rows; i++ {
		if _, err := s.HeapInsert(h, intRow); err != nil {
			return outcome{}, fmt.Errorf("engine: %w", err)
		}
		if i == rows-1 || i == rows {
			if err := s.Vacuum(h); err != nil {
				return outcome{}, fmt.Errorf("engine: %w", err)
			}
			eng = append(eng, fmt.Sprintf("%d heap pages → %d FSM pages", h.NBlocks(), h.FSMBlocks()))
		}
	}
	return outcome{engine: strings.Join(eng, "; "), server: strings.Join(srv, "; ")}, nil
}

// The category table: one text column stored PLAIN (no compression, no
// TOAST, a 4-byte header), so that a row of n characters has t_len
// 24 + 4 + n. Each row is too big for any page before it, so each takes a
// page of its own, leaving 8160 - MAXALIGN(28 + n) bytes free; the row on
// block 6 is deleted, so VACUUM leaves that page empty (8160 bytes: one
// unused line pointer is kept). vacuum_truncate is off because the engine
// does not model VACUUM's truncation of empty pages at the end (none is at
// the end here anyway).
var categoryRows = []struct {
	n    int // characters
	free int // the page's free space after VACUUM
}{{8132, 0}, {8108, 24}, {8100, 32}, {8076, 56}, {5000, 3128}, {4076, 4056}, {4076, 8160}, {4076, 4056}}

const categoryDeleted = 6

// categoryTable builds the category table on both sides and VACUUMs it.
func (e *env) categoryTable(ctx context.Context, name string) (string, *fsmEngine, *fsm.Heap, error) {
	t, err := e.table(ctx, name)
	if err != nil {
		return "", nil, nil, err
	}
	if err := e.execAll(ctx,
		"CREATE TABLE "+t+" (b text) WITH (vacuum_truncate = false)",
		"ALTER TABLE "+t+" ALTER COLUMN b SET STORAGE PLAIN",
	); err != nil {
		return "", nil, nil, err
	}
	f, h, s, err := e.engineTable(100)
	if err != nil {
		return "", nil, nil, err
	}
	var srvTid, engTid []string
	var deleteSrv string
	var deleteEng fsm.TID
	for i, r := range categoryRows {
		ctid, err := e.text(ctx, "INSERT INTO "+t+" VALUES (repeat('x', $1::int)) RETURNING ctid::text", r.n)
		if err != nil {
			return "", nil, nil, err
		}
		tid, err := s.HeapInsert(h, fsm.HeapTupleLen(4+r.n))
		if err != nil {
			return "", nil, nil, fmt.Errorf("engine: %w", err)
		}
		srvTid, engTid = append(srvTid, ctid), append(engTid, tid.String())
		if i == categoryDeleted {
			deleteSrv, deleteEng = ctid, tid
		}
	}
	if strings.Join(srvTid, " ") != strings.Join(engTid, " ") {
		return "", nil, nil, fmt.Errorf("the rows landed differently: engine %v, server %v", engTid, srvTid)
	}
	if err := e.exec(ctx, tidScanOnly); err != nil {
		return "", nil, nil, err
	}
	if err := e.exec(ctx, "DELETE FROM "+t+" WHERE ctid = $1::tid", deleteSrv); err != nil {
		return "", nil, nil, err
	}
	if err := s.HeapDelete(h, deleteEng); err != nil {
		return "", nil, nil, fmt.Errorf("engine: %w", err)
	}
	if err := e.exec(ctx, "VACUUM "+t); err != nil {
		return "", nil, nil, err
	}
	if err := s.Vacuum(h); err != nil {
		return "", nil, nil, fmt.Errorf("engine: %w", err)
	}
	for blk, r := range categoryRows {
		if got := h.HeapPage(uint32(blk)).HeapFreeSpace(); got != r.free {
			return "", nil, nil, fmt.Errorf("engine: block %d has %d bytes free, the check expects %d", blk, got, r.free)
		}
	}
	return t, f, h, nil
}

func checkFSMCategories(ctx context.Context, e *env) (outcome, error) {
	t, f, h, err := e.categoryTable(ctx, "fsm_categories")
	if err != nil {
		return outcome{}, err
	}
	srv, err := e.serverFreeSpace(ctx, t)
	if err != nil {
		return outcome{}, err
	}
	s, _ := f.session("A")
	eng, err := engineFreeSpace(s, h)
	if err != nil {
		return outcome{}, err
	}
	// The free bytes themselves, from pageinspect, to say what was rounded.
	var frees []string
	for blk := range categoryRows {
		var lower, upper int64
		if err := e.conn.QueryRow(ctx, "SELECT lower, upper FROM page_header(get_raw_page($1, 'main', $2::bigint))", t, blk).Scan(&lower, &upper); err != nil {
			return outcome{}, err
		}
		frees = append(frees, strconv.FormatInt(upper-lower-4, 10))
	}
	o := outcome{engine: eng, server: srv}
	o.detail = "server free bytes per block (pd_upper - pd_lower - 4): " + strings.Join(frees, " ")
	return o, nil
}

func checkFSMPageContents(ctx context.Context, e *env) (outcome, error) {
	t, f, h, err := e.categoryTable(ctx, "fsm_contents")
	if err != nil {
		return outcome{}, err
	}
	// One more row of 3000 characters (3032 bytes): the search from the
	// root finds block 4 (3104 recorded) and moves the leaf's fp_next_slot
	// past it.
	ctid, err := e.text(ctx, "INSERT INTO "+t+" VALUES (repeat('x', 3000)) RETURNING ctid::text")
	if err != nil {
		return outcome{}, err
	}
	srvPages, err := e.serverFSMPages(ctx, t)
	if err != nil {
		return outcome{}, err
	}
	s, _ := f.session("A")
	tid, err := s.HeapInsert(h, fsm.HeapTupleLen(4+3000))
	if err != nil {
		return outcome{}, fmt.Errorf("engine: %w", err)
	}
	return comparePages("", engineFSMPages(h), srvPages, "new row "+tid.String(), "new row "+ctid), nil
}

func checkFSMRootEmpty(ctx context.Context, e *env) (outcome, error) {
	t, err := e.table(ctx, "fsm_root")
	if err != nil {
		return outcome{}, err
	}
	if err := e.execAll(ctx,
		"CREATE TABLE "+t+" (a int, b text)",
		"ALTER TABLE "+t+" ALTER COLUMN b SET STORAGE PLAIN",
		// 1032-byte rows, 7 a page: a full page keeps 912 bytes.
		"INSERT INTO "+t+" SELECT i, repeat('x', 1000) FROM generate_series(1, 20) i",
	); err != nil {
		return outcome{}, err
	}
	srvFree, err := e.serverFreeSpace(ctx, t)
	if err != nil {
		return outcome{}, err
	}
	srvPages, err := e.serverFSMPages(ctx, t)
	if err != nil {
		return outcome{}, err
	}
	_, h, s, err := e.engineTable(100)
	if err != nil {
		return outcome{}, err
	}
	for i := 0; i < 20; i++ {
		if _, err := s.HeapInsert(h, fsm.HeapTupleLen(4+4+1000)); err != nil {
			return outcome{}, fmt.Errorf("engine: %w", err)
		}
	}
	engFree, err := engineFreeSpace(s, h)
	if err != nil {
		return outcome{}, err
	}
	return comparePages("", engineFSMPages(h), srvPages, "pg_freespace "+engFree, "pg_freespace "+srvFree), nil
}

func checkRowsPerPage(ctx context.Context, e *env) (outcome, error) {
	var eng, srv []string
	for _, c := range []struct{ ff, rows int }{{100, 500}, {20, 100}, {10, 50}} {
		t, err := e.table(ctx, fmt.Sprintf("rows_ff%d", c.ff))
		if err != nil {
			return outcome{}, err
		}
		if err := e.execAll(ctx,
			fmt.Sprintf("CREATE TABLE %s (a int) WITH (fillfactor = %d)", t, c.ff),
			fmt.Sprintf("INSERT INTO %s SELECT generate_series(1, %d)", t, c.rows),
		); err != nil {
			return outcome{}, err
		}
		rows, err := e.conn.Query(ctx, "SELECT (ctid::text::point)[0]::int AS blk, count(*) FROM "+t+" GROUP BY 1 ORDER BY 1")
		if err != nil {
			return outcome{}, err
		}
		var counts []string
		for rows.Next() {
			var blk, n int64
			if err := rows.Scan(&blk, &n); err != nil {
				rows.Close()
				return outcome{}, err
			}
			counts = append(counts, fmt.Sprint(n))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return outcome{}, err
		}
		srv = append(srv, fmt.Sprintf("ff%d: %s", c.ff, strings.Join(counts, " ")))

		_, h, s, err := e.engineTable(c.ff)
		if err != nil {
			return outcome{}, err
		}
		for i := 0; i < c.rows; i++ {
			if _, err := s.HeapInsert(h, intRow); err != nil {
				return outcome{}, fmt.Errorf("engine: %w", err)
			}
		}
		counts = counts[:0]
		for blk := uint32(0); blk < h.NBlocks(); blk++ {
			counts = append(counts, fmt.Sprint(h.HeapPage(blk).Live()))
		}
		eng = append(eng, fmt.Sprintf("ff%d: %s", c.ff, strings.Join(counts, " ")))
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

func checkCtidSequence(ctx context.Context, e *env) (outcome, error) {
	t, err := e.table(ctx, "ctid")
	if err != nil {
		return outcome{}, err
	}
	if err := e.execAll(ctx,
		"CREATE TABLE "+t+" (a int, b text) WITH (vacuum_truncate = false)",
		"ALTER TABLE "+t+" ALTER COLUMN b SET STORAGE PLAIN",
	); err != nil {
		return outcome{}, err
	}
	a, err := e.connect(ctx)
	if err != nil {
		return outcome{}, err
	}
	b, err := e.connect(ctx)
	if err != nil {
		return outcome{}, err
	}
	f, h, _, err := e.engineTable(100)
	if err != nil {
		return outcome{}, err
	}
	srvCtid, engCtid := map[int]string{}, map[int]fsm.TID{}
	var srvSeq, engSeq []string
	rowLen := fsm.HeapTupleLen(4 + 4 + ctidRowChars)
	for _, st := range ctidScript {
		c := a
		if st.who == "B" {
			c = b
		}
		s, err := f.session(st.who)
		if err != nil {
			return outcome{}, err
		}
		switch st.op {
		case 'i':
			for id := st.from; id <= st.to; id++ {
				var ctid string
				if err := c.QueryRow(ctx, "INSERT INTO "+t+" VALUES ($1::int, repeat('x', $2::int)) RETURNING ctid::text", id, ctidRowChars).Scan(&ctid); err != nil {
					return outcome{}, fmt.Errorf("%s: insert %d: %w", st.who, id, err)
				}
				tid, err := s.HeapInsert(h, rowLen)
				if err != nil {
					return outcome{}, fmt.Errorf("engine: %s: insert %d: %w", st.who, id, err)
				}
				srvCtid[id], engCtid[id] = ctid, tid
				srvSeq, engSeq = append(srvSeq, ctid), append(engSeq, tid.String())
			}
		case 'd':
			for _, id := range st.ids {
				if _, err := c.Exec(ctx, "DELETE FROM "+t+" WHERE ctid = $1::tid", srvCtid[id]); err != nil {
					return outcome{}, fmt.Errorf("%s: delete %d: %w", st.who, id, err)
				}
				if err := s.HeapDelete(h, engCtid[id]); err != nil {
					return outcome{}, fmt.Errorf("engine: %s: delete %d: %w", st.who, id, err)
				}
			}
		case 'v':
			if _, err := c.Exec(ctx, "VACUUM "+t); err != nil {
				return outcome{}, fmt.Errorf("%s: VACUUM: %w", st.who, err)
			}
			if err := s.Vacuum(h); err != nil {
				return outcome{}, fmt.Errorf("engine: VACUUM: %w", err)
			}
		}
	}
	o := outcome{engine: blockRuns(engSeq), server: blockRuns(srvSeq)}
	ej, sj := strings.Join(engSeq, "\n"), strings.Join(srvSeq, "\n")
	if ej != sj {
		o.engine += " [ctids differ]"
		o.detail = "row by row: " + firstDiff(ej, sj)
	}
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

// forkUsages prints the buffers of one fork block by block:
// "0:1 1:1 2:5".
func forkUsages(bs []relBuf, f bufmgr.ForkNumber) string {
	var parts []string
	for _, b := range bs {
		if b.fork == f {
			parts = append(parts, fmt.Sprintf("%d:%d", b.blk, b.usage))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " ")
}

// engineHeapBuffers lists the buffers of heap h in the engine's pool,
// by fork and block.
func (f *fsmEngine) heapBuffers(h *fsm.Heap) []relBuf {
	var out []relBuf
	for _, m := range f.pool.MappingEntries() {
		if m.Tag.RelNode != h.Rel.Number {
			continue
		}
		st := f.pool.Desc(m.BufID).State()
		out = append(out, relBuf{fork: m.Tag.ForkNum, blk: m.Tag.BlockNum, usage: bufmgr.StateUsagecount(st), rc: bufmgr.StateRefcount(st)})
	}
	slices.SortFunc(out, func(a, b relBuf) int {
		if a.fork != b.fork {
			return int(a.fork) - int(b.fork)
		}
		return int(a.blk) - int(b.blk)
	})
	return out
}

// serverHeapBuffers lists the buffers of table in the server's pool, by
// fork and block.
func (e *env) serverHeapBuffers(ctx context.Context, table string) ([]relBuf, error) {
	rows, err := e.conn.Query(ctx, "SELECT relforknumber, relblocknumber, usagecount, pinning_backends FROM pg_buffercache WHERE "+
		relBufWhere+" ORDER BY 1, 2", table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []relBuf
	for rows.Next() {
		var f, blk int64
		var u int16
		var pinning int32
		if err := rows.Scan(&f, &blk, &u, &pinning); err != nil {
			return nil, err
		}
		out = append(out, relBuf{fork: bufmgr.ForkNumber(f), blk: uint32(blk), usage: uint32(u), rc: uint32(pinning)})
	}
	return out, rows.Err()
}

// checkVacuumBuffers vacuums a cold table (VACUUM FULL's new file; on the
// engine, the table's buffers dropped, as the rewrite's new relfilenode
// has none) and compares what VACUUM left in the pool. The main fork goes
// through the VACUUM ring; the FSM and VM pages through the default
// strategy, so their usage counts count VACUUM's reads of them.
func checkVacuumBuffers(ctx context.Context, e *env) (outcome, error) {
	want := e.info.NBuffers/4 + 64
	t, n, err := e.coldTable(ctx, "vacuum", want)
	if err != nil {
		return outcome{}, err
	}
	if err := e.exec(ctx, "VACUUM "+t); err != nil {
		return outcome{}, err
	}
	sb, err := e.serverHeapBuffers(ctx, t)
	if err != nil {
		return outcome{}, err
	}
	srv := fmt.Sprintf("%d blocks: main %s; fsm %s; vm %s", n, summarize(sb), forkUsages(sb, bufmgr.FSMForkNum), forkUsages(sb, bufmgr.VMForkNum))

	f, h, s, err := e.engineTable(10)
	if err != nil {
		return outcome{}, err
	}
	rows := want * fsm.RowsPerPage(intRow, 10)
	for i := 0; i < rows; i++ {
		if _, err := s.HeapInsert(h, intRow); err != nil {
			return outcome{}, fmt.Errorf("engine: %w", err)
		}
	}
	// VACUUM FULL: the rows move to a new file that is not in the pool,
	// and the old file's buffers are dropped when it is unlinked at
	// commit (smgrdounlinkall → DropRelFileNodesAllBuffers; the inserts'
	// FSM goes with it: the rewrite makes none).
	if _, err := s.Backend().DropRelationsAllBuffers([]*bufmgr.Relation{h.Rel}, bufmgr.DropAuto); err != nil {
		return outcome{}, fmt.Errorf("engine: %w", err)
	}
	if err := s.Vacuum(h); err != nil {
		return outcome{}, fmt.Errorf("engine: %w", err)
	}
	eb := f.heapBuffers(h)
	eng := fmt.Sprintf("%d blocks: main %s; fsm %s; vm %s", h.NBlocks(), summarize(eb), forkUsages(eb, bufmgr.FSMForkNum), forkUsages(eb, bufmgr.VMForkNum))
	return outcome{engine: eng, server: srv}, nil
}

// checkFSMTwoLeaves: 4100 pages of one-int rows at fillfactor 10 (22 a
// page) have a two-leaf FSM (blocks 0–4068 on the first leaf page, the
// rest on the second). After VACUUM every full page records 7372 bytes
// (category 230), short of the 7404 a row wants (32 + fillfactor's 7372);
// emptying block 100 and block 4090 and vacuuming again leaves just those
// two with room (8160). New rows fill block 100, then the search from the
// root, whose slots are stale, descends to the first leaf, finds nothing,
// fixes the parent's slot and restarts (fsm_search), reaches block 4090,
// and later extends the table.
func checkFSMTwoLeaves(ctx context.Context, e *env) (outcome, error) {
	const blocks, emptyA, emptyB, newRows = 4100, 100, 4090, 50
	t, err := e.table(ctx, "fsm_two_leaves")
	if err != nil {
		return outcome{}, err
	}
	rpp := fsm.RowsPerPage(intRow, 10)
	tids := func(blk int) string {
		var parts []string
		for o := 1; o <= rpp; o++ {
			parts = append(parts, fmt.Sprintf(`"(%d,%d)"`, blk, o))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	if err := e.execAll(ctx,
		"CREATE TABLE "+t+" (a int) WITH (fillfactor = 10, vacuum_truncate = false)",
		fmt.Sprintf("INSERT INTO %s SELECT generate_series(1, %d)", t, blocks*rpp),
		"VACUUM "+t,
		tidScanOnly,
		fmt.Sprintf("DELETE FROM %s WHERE ctid = ANY('%s'::tid[] || '%s'::tid[])", t, tids(emptyA), tids(emptyB)),
		"VACUUM "+t,
	); err != nil {
		return outcome{}, err
	}
	var srvSeq []string
	for i := 0; i < newRows; i++ {
		ctid, err := e.text(ctx, "INSERT INTO "+t+" VALUES (0) RETURNING ctid::text")
		if err != nil {
			return outcome{}, err
		}
		srvSeq = append(srvSeq, ctid)
	}
	srvPages, err := e.serverFSMPages(ctx, t)
	if err != nil {
		return outcome{}, err
	}

	_, h, s, err := e.engineTable(10)
	if err != nil {
		return outcome{}, err
	}
	for i := 0; i < blocks*rpp; i++ {
		if _, err := s.HeapInsert(h, intRow); err != nil {
			return outcome{}, fmt.Errorf("engine: %w", err)
		}
	}
	if err := s.Vacuum(h); err != nil {
		return outcome{}, fmt.Errorf("engine: %w", err)
	}
	for _, blk := range []uint32{emptyA, emptyB} {
		for o := 1; o <= rpp; o++ {
			if err := s.HeapDelete(h, fsm.TID{Block: blk, Offset: uint16(o)}); err != nil {
				return outcome{}, fmt.Errorf("engine: %w", err)
			}
		}
	}
	if err := s.Vacuum(h); err != nil {
		return outcome{}, fmt.Errorf("engine: %w", err)
	}
	var engSeq []string
	for i := 0; i < newRows; i++ {
		tid, err := s.HeapInsert(h, intRow)
		if err != nil {
			return outcome{}, fmt.Errorf("engine: %w", err)
		}
		engSeq = append(engSeq, tid.String())
	}
	o := comparePages("", engineFSMPages(h), srvPages, blockRuns(engSeq), blockRuns(srvSeq))
	if ej, sj := strings.Join(engSeq, "\n"), strings.Join(srvSeq, "\n"); ej != sj {
		o.engine += " [ctids differ]"
		o.detail = strings.TrimSpace(o.detail + " rows: " + firstDiff(ej, sj))
	}
	return o, nil
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
	t, err := e.table(ctx, "ctid_random")
	if err != nil {
		return outcome{}, err
	}
	if err := e.execAll(ctx,
		fmt.Sprintf("CREATE TABLE %s (a int, b text) WITH (fillfactor = %d, vacuum_truncate = false)", t, ff),
		"ALTER TABLE "+t+" ALTER COLUMN b SET STORAGE PLAIN",
	); err != nil {
		return outcome{}, err
	}
	f, h, _, err := e.engineTable(ff)
	if err != nil {
		return outcome{}, err
	}
	names := []string{"A", "B", "C"}
	conns := map[string]*pgxConn{}
	conn := func(who string) (*pgxConn, *fsm.Session, error) {
		c, ok := conns[who]
		if !ok {
			pc, err := e.connect(ctx)
			if err != nil {
				return nil, nil, err
			}
			c = &pgxConn{pc}
			conns[who] = c
		}
		s, err := f.session(who)
		return c, s, err
	}
	rng := newRand(seed)
	sizes := []int{0, 60, 200, 700, 1500, 3000}
	type row struct {
		srv string
		eng fsm.TID
	}
	live := map[int]row{}
	var liveIDs []int
	var srvSeq, engSeq []string
	next := 1
	for step := 0; step < steps; step++ {
		who := names[rng.intn(len(names))]
		c, s, err := conn(who)
		if err != nil {
			return outcome{}, err
		}
		switch r := rng.intn(100); {
		case r < 60 || len(liveIDs) == 0:
			n := sizes[rng.intn(len(sizes))]
			var ctid string
			if err := c.QueryRow(ctx, "INSERT INTO "+t+" VALUES ($1::int, repeat('x', $2::int)) RETURNING ctid::text", next, n).Scan(&ctid); err != nil {
				return outcome{}, fmt.Errorf("step %d: %s inserts: %w", step, who, err)
			}
			tid, err := s.HeapInsert(h, fsm.HeapTupleLen(4+4+n))
			if err != nil {
				return outcome{}, fmt.Errorf("engine: step %d: %w", step, err)
			}
			live[next] = row{ctid, tid}
			liveIDs = append(liveIDs, next)
			srvSeq, engSeq = append(srvSeq, ctid), append(engSeq, tid.String())
			next++
		case r < 90:
			i := rng.intn(len(liveIDs))
			id := liveIDs[i]
			liveIDs = append(liveIDs[:i], liveIDs[i+1:]...)
			if _, err := c.Exec(ctx, "DELETE FROM "+t+" WHERE ctid = $1::tid", live[id].srv); err != nil {
				return outcome{}, fmt.Errorf("step %d: %s deletes: %w", step, who, err)
			}
			if err := s.HeapDelete(h, live[id].eng); err != nil {
				return outcome{}, fmt.Errorf("engine: step %d: %w", step, err)
			}
			delete(live, id)
		case r < 95:
			if _, err := c.Exec(ctx, "VACUUM "+t); err != nil {
				return outcome{}, fmt.Errorf("step %d: %s vacuums: %w", step, who, err)
			}
			if err := s.Vacuum(h); err != nil {
				return outcome{}, fmt.Errorf("engine: step %d: %w", step, err)
			}
		default:
			// A new connection: a new backend, no cached target block.
			if err := c.Close(ctx); err != nil {
				return outcome{}, err
			}
			delete(conns, who)
			if err := f.reconnect(who); err != nil {
				return outcome{}, err
			}
		}
	}
	srvFree, err := e.serverFreeSpace(ctx, t)
	if err != nil {
		return outcome{}, err
	}
	srvPages, err := e.serverFSMPages(ctx, t)
	if err != nil {
		return outcome{}, err
	}
	s, _ := f.session("A")
	engFree, err := engineFreeSpace(s, h)
	if err != nil {
		return outcome{}, err
	}
	o := comparePages("", engineFSMPages(h), srvPages, fmt.Sprintf("%d rows in %d blocks", len(engSeq), h.NBlocks()), fmt.Sprintf("%d rows in %d blocks", len(srvSeq), len(strings.Fields(srvFree))))
	if engFree != srvFree {
		o.engine += " [pg_freespace differs]"
		o.detail = strings.TrimSpace(o.detail + " pg_freespace: " + firstDiff(strings.ReplaceAll(engFree, " ", "\n"), strings.ReplaceAll(srvFree, " ", "\n")))
	}
	if ej, sj := strings.Join(engSeq, "\n"), strings.Join(srvSeq, "\n"); ej != sj {
		o.engine += " [ctids differ]"
		o.detail = strings.TrimSpace(o.detail + " rows: " + firstDiff(ej, sj))
	}
	return o, nil
}
