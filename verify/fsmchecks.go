package verify

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

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
	return started(f.sessions, name, func() (*fsm.Session, error) {
		b, err := f.pool.NewBackend(name)
		if err != nil {
			return nil, err
		}
		return f.store.NewSession(b)
	})
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
func comparePages(eng, srv []string, engExtra, srvExtra string) outcome {
	sum := func(pages []string, extra string) string {
		var parts []string
		for i, p := range pages {
			parts = append(parts, fmt.Sprintf("p%d %s", i, contentsSummary(p)))
		}
		s := strings.Join(parts, "; ")
		if extra != "" {
			s = extra + "; " + s
		}
		return s
	}
	o := outcome{engine: sum(eng, engExtra), server: sum(srv, srvExtra)}
	o.mark("page text differs", "", strings.Join(eng, "--\n"), strings.Join(srv, "--\n"))
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
func (e *env) oneRow(ctx context.Context, name string) (string, *fsm.Heap, *fsm.Session, error) {
	t, err := e.intTable(ctx, name, "", 1)
	if err != nil {
		return "", nil, nil, err
	}
	_, h, s, err := e.engineTable(100)
	if err != nil {
		return "", nil, nil, err
	}
	return t, h, s, insertRows(s, h, 1, intRow)
}

func checkFSMCreatedByVacuum(ctx context.Context, e *env) (outcome, error) {
	t, h, s, err := e.oneRow(ctx, "fsm_created")
	if err != nil {
		return outcome{}, err
	}
	before, err := e.forkSizes(ctx, t)
	if err != nil {
		return outcome{}, err
	}
	engBefore := engineForkSizes(h)
	if err := e.vacuum(ctx, t, s, h); err != nil {
		return outcome{}, err
	}
	after, err := e.forkSizes(ctx, t)
	if err != nil {
		return outcome{}, err
	}
	return outcome{engine: engBefore + " → " + engineForkSizes(h), server: before + " → " + after}, nil
}

// vacuum runs VACUUM on table t on the server, then on heap h as session
// s on the engine (lazy_scan_heap's FSM updates, FreeSpaceMapVacuum).
func (e *env) vacuum(ctx context.Context, t string, s *fsm.Session, h *fsm.Heap) error {
	if err := e.exec(ctx, "VACUUM "+t); err != nil {
		return err
	}
	if err := s.Vacuum(h); err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	return nil
}

// serverFreeSpace reads pg_freespace(table) as "blk:avail ...".
func (e *env) serverFreeSpace(ctx context.Context, table string) (string, error) {
	return e.joinRows(ctx, " ", "%d:%d", "SELECT blkno, avail FROM pg_freespace($1::regclass) ORDER BY blkno", table)
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

// fsmText is what pg_freespace ("blk:avail …", serverFreeSpace) and
// fsm_page_contents (a text a page, serverFSMPages) show of a table's
// free space map.
type fsmText struct {
	free  string
	pages []string
}

func (e *env) serverFSM(ctx context.Context, table string) (fsmText, error) {
	free, err := e.serverFreeSpace(ctx, table)
	if err != nil {
		return fsmText{}, err
	}
	pages, err := e.serverFSMPages(ctx, table)
	return fsmText{free, pages}, err
}

func engineFSM(s *fsm.Session, h *fsm.Heap) (fsmText, error) {
	free, err := engineFreeSpace(s, h)
	return fsmText{free, engineFSMPages(h)}, err
}

// compareFSM reads table t's free space map on the server and heap h's
// on the engine (as session s) and compares their pages (comparePages),
// the summaries led by pg_freespace.
func (e *env) compareFSM(ctx context.Context, t string, s *fsm.Session, h *fsm.Heap) (outcome, error) {
	srv, err := e.serverFSM(ctx, t)
	if err != nil {
		return outcome{}, err
	}
	eng, err := engineFSM(s, h)
	if err != nil {
		return outcome{}, err
	}
	return comparePages(eng.pages, srv.pages, "pg_freespace "+eng.free, "pg_freespace "+srv.free), nil
}

func checkFSMOneRow(ctx context.Context, e *env) (outcome, error) {
	t, h, s, err := e.oneRow(ctx, "fsm_one_row")
	if err != nil {
		return outcome{}, err
	}
	if err := e.vacuum(ctx, t, s, h); err != nil {
		return outcome{}, err
	}
	return e.compareFSM(ctx, t, s, h)
}

func checkFSM4069(ctx context.Context, e *env) (outcome, error) {
	rows := 4069 * fsm.RowsPerPage(intRow, 10)
	t, err := e.intTable(ctx, "fsm_4069", "fillfactor = 10", rows)
	if err != nil {
		return outcome{}, err
	}
	// VACUUM, then one more row and VACUUM again, reading the sizes after
	// each VACUUM.
	var srv []string
	for _, stmts := range [][]string{{"VACUUM " + t}, {fmt.Sprintf("INSERT INTO %s VALUES (%d)", t, rows+1), "VACUUM " + t}} {
		if err := e.execAll(ctx, stmts...); err != nil {
			return outcome{}, err
		}
		var heap, fsmb int64
		if err := e.conn.QueryRow(ctx, "SELECT pg_relation_size($1::regclass) / 8192, pg_relation_size($1::regclass, 'fsm') / 8192", t).Scan(&heap, &fsmb); err != nil {
			return outcome{}, err
		}
		srv = append(srv, fmt.Sprintf("%d heap pages → %d FSM pages", heap, fsmb))
	}
	_, h, s, err := e.engineTable(10)
	if err != nil {
		return outcome{}, err
	}
	var eng []string
	for _, n := range []int{rows, 1} {
		if err := insertRows(s, h, n, intRow); err != nil {
			return outcome{}, err
		}
		if err := s.Vacuum(h); err != nil {
			return outcome{}, fmt.Errorf("engine: %w", err)
		}
		eng = append(eng, fmt.Sprintf("%d heap pages → %d FSM pages", h.NBlocks(), h.FSMBlocks()))
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
func (e *env) categoryTable(ctx context.Context, name string) (string, *fsm.Heap, *fsm.Session, error) {
	t, err := e.plainTable(ctx, name, "b text", "vacuum_truncate = false")
	if err != nil {
		return "", nil, nil, err
	}
	_, h, s, err := e.engineTable(100)
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
	if err := e.vacuum(ctx, t, s, h); err != nil {
		return "", nil, nil, err
	}
	for blk, r := range categoryRows {
		if got := h.HeapPage(uint32(blk)).HeapFreeSpace(); got != r.free {
			return "", nil, nil, fmt.Errorf("engine: block %d has %d bytes free, the check expects %d", blk, got, r.free)
		}
	}
	return t, h, s, nil
}

func checkFSMCategories(ctx context.Context, e *env) (outcome, error) {
	t, h, s, err := e.categoryTable(ctx, "fsm_categories")
	if err != nil {
		return outcome{}, err
	}
	srv, err := e.serverFreeSpace(ctx, t)
	if err != nil {
		return outcome{}, err
	}
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
	t, h, s, err := e.categoryTable(ctx, "fsm_contents")
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
	tid, err := s.HeapInsert(h, fsm.HeapTupleLen(4+3000))
	if err != nil {
		return outcome{}, fmt.Errorf("engine: %w", err)
	}
	return comparePages(engineFSMPages(h), srvPages, "new row "+tid.String(), "new row "+ctid), nil
}

func checkFSMRootEmpty(ctx context.Context, e *env) (outcome, error) {
	t, err := e.plainTable(ctx, "fsm_root", "a int, b text", "")
	if err != nil {
		return outcome{}, err
	}
	// 1032-byte rows, 7 a page: a full page keeps 912 bytes.
	if err := e.exec(ctx, "INSERT INTO "+t+" SELECT i, repeat('x', 1000) FROM generate_series(1, 20) i"); err != nil {
		return outcome{}, err
	}
	_, h, s, err := e.engineTable(100)
	if err != nil {
		return outcome{}, err
	}
	if err := insertRows(s, h, 20, fsm.HeapTupleLen(4+4+1000)); err != nil {
		return outcome{}, err
	}
	return e.compareFSM(ctx, t, s, h)
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
	return queryRows(ctx, e, "SELECT relforknumber, relblocknumber, usagecount, pinning_backends FROM pg_buffercache WHERE "+
		relBufWhere+" ORDER BY 1, 2", []any{table},
		func(row pgx.CollectableRow) (relBuf, error) {
			var f, blk int64
			var u int16
			var pinning int32
			err := row.Scan(&f, &blk, &u, &pinning)
			return relBuf{fork: bufmgr.ForkNumber(f), blk: uint32(blk), usage: uint32(u), rc: uint32(pinning)}, err
		})
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
	if err := insertRows(s, h, want*fsm.RowsPerPage(intRow, 10), intRow); err != nil {
		return outcome{}, err
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
	rpp := fsm.RowsPerPage(intRow, 10)
	t, err := e.intTable(ctx, "fsm_two_leaves", "fillfactor = 10, vacuum_truncate = false", blocks*rpp)
	if err != nil {
		return outcome{}, err
	}
	tids := func(blk int) string {
		var parts []string
		for o := 1; o <= rpp; o++ {
			parts = append(parts, fmt.Sprintf(`"(%d,%d)"`, blk, o))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	if err := e.execAll(ctx,
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
	if err := insertRows(s, h, blocks*rpp, intRow); err != nil {
		return outcome{}, err
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
	o := comparePages(engineFSMPages(h), srvPages, blockRuns(engSeq), blockRuns(srvSeq))
	o.mark("ctids differ", "rows", strings.Join(engSeq, "\n"), strings.Join(srvSeq, "\n"))
	return o, nil
}
