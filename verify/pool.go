package verify

import (
	"context"
	"fmt"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/scenario"
)

// The buffer pool checks: the engine side is a scenario (package
// scenario) run statement by statement, its pool read after each `run`
// through Runner.Pool(); the server side reads pg_buffercache.

func poolChecks() []Check {
	return []Check{
		{Name: "nbuffers", run: checkNBuffers, Versions: [2]int{15, 18}, // NBuffers = shared_buffers / BLCKSZ in every version
			What: "NBuffers: the engine's parse of the server's shared_buffers setting against count(*) of pg_buffercache"},
		{Name: "usage-cap-catalog", run: checkUsageCapCatalog, Versions: [2]int{15, 18}, // BM_MAX_USAGE_COUNT 5 and PinBuffer's bump: buf_internals.h, bufmgr.c through REL_18_4
			What: "six read-only seq scans of pg_class: every one of its blocks at usage count 5 (BM_MAX_USAGE_COUNT), none in the pool above 5"},
		{Name: "usage-after-scans", Writes: true, run: checkUsageAfterScans,
			What: "usage count of a cold one-page table's buffer after 1, 2, … 6 seq scans: 1 2 3 4 5 5 (no ring for a small table)"},
		{Name: "no-ring-at-quarter", Writes: true, run: checkNoRingAtQuarter,
			What: "a cold seq scan of a table of exactly NBuffers/4 blocks uses no ring: every block stays cached, usage 1"},
		{Name: "bulkread-ring", Writes: true, run: checkBulkreadRing, Versions: [2]int{15, 17}, // 256kB through REL_17_9 (freelist.c GetAccessStrategy); 18 adds io_combine_limit × effective_io_concurrency
			What: "a cold seq scan of a table over NBuffers/4 blocks leaves exactly 32 of its buffers (the 256kB BULKREAD ring), its last blocks, usage ≤ 1"},
		{Name: "bulkread-rescan", Writes: true, run: checkBulkreadRescan,
			What: "a second seq scan of that table (synchronized scans off): a new ring for the misses, hits on the first ring's buffers left alone: 64 buffers"},
		{Name: "sync-scan", Writes: true, run: checkSyncScan,
			What: "synchronized scans: a cursor paused on block 99 of a cold NBuffers/4+8-block table, then a whole scan: it starts at the cursor's last report (96); the table's resident blocks (PG 15.18 at 16MB: 36–99)"},
		{Name: "pinning-backends", Writes: true, run: checkPinningBackends,
			What: "pinning_backends of a block pinned by cursors: A opens one, A a second, B one, A commits, B commits: 1 1 2 1 0"},
		{Name: "drop-table-buffers", Writes: true, run: checkDropBuffers,
			What: "a 3-block table's buffers before DROP TABLE, and of any fork after: 3 then 0"},
	}
}

// engineRun runs a scenario statement by statement and calls after with
// the runner after each `run` statement.
func engineRun(name, src string, after func(r *scenario.Runner) error) (*scenario.Runner, error) {
	s, err := scenario.Parse(name, src)
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	r, err := scenario.NewRunner(s, false)
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	for !r.Done() {
		o, err := r.Step()
		if err != nil {
			return r, fmt.Errorf("engine: %w", err)
		}
		if _, ok := o.Stmt.(*scenario.RunStmt); ok && after != nil {
			if err := after(r); err != nil {
				return r, err
			}
		}
	}
	return r, nil
}

// relBuf is one buffer of a relation, as pg_buffercache shows it.
type relBuf struct {
	fork         bufmgr.ForkNumber
	blk          uint32
	usage, rc    uint32
	valid, dirty bool
}

// engineRelBuffers lists the buffers holding blocks of relation rel in the
// engine's pool, by buffer id.
func engineRelBuffers(r *scenario.Runner, rel string) []relBuf {
	var out []relBuf
	p := r.Pool()
	for _, m := range p.MappingEntries() {
		if r.RelName(m.Tag.RelNode) != rel {
			continue
		}
		st := p.Desc(m.BufID).State()
		out = append(out, relBuf{fork: m.Tag.ForkNum, blk: m.Tag.BlockNum, usage: bufmgr.StateUsagecount(st),
			rc: bufmgr.StateRefcount(st), valid: st&bufmgr.BmValid != 0, dirty: st&bufmgr.BmDirty != 0})
	}
	return out
}

// bufSummary is what the scan checks compare: how many buffers of the
// relation's main fork, which blocks, the largest usage count.
type bufSummary struct {
	n, minBlk, maxBlk, maxUsage, minUsage int
}

func (s bufSummary) String() string {
	if s.n == 0 {
		return "0 buffers"
	}
	return fmt.Sprintf("%d buffers, blocks %d–%d, usage %d–%d", s.n, s.minBlk, s.maxBlk, s.minUsage, s.maxUsage)
}

func summarize(bs []relBuf) bufSummary {
	s := bufSummary{minBlk: -1, minUsage: -1}
	for _, b := range bs {
		if b.fork != bufmgr.MainForkNum {
			continue
		}
		s.n++
		if s.minBlk < 0 || int(b.blk) < s.minBlk {
			s.minBlk = int(b.blk)
		}
		s.maxBlk = max(s.maxBlk, int(b.blk))
		s.maxUsage = max(s.maxUsage, int(b.usage))
		if s.minUsage < 0 || int(b.usage) < s.minUsage {
			s.minUsage = int(b.usage)
		}
	}
	return s
}

// relBufWhere selects pg_buffercache rows of relation $1 (a regclass, or
// a relfilenode when relfilenode=true) in this database.
const relBufWhere = `relfilenode = pg_relation_filenode($1::regclass)
  AND reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())`

// serverMainBuffers summarises the main-fork buffers of table in the
// server's pool.
func (e *env) serverMainBuffers(ctx context.Context, table string) (bufSummary, error) {
	var s bufSummary
	err := e.conn.QueryRow(ctx, `SELECT count(*), coalesce(min(relblocknumber), -1), coalesce(max(relblocknumber), 0),
  coalesce(max(usagecount), 0), coalesce(min(usagecount), -1)
  FROM pg_buffercache WHERE relforknumber = 0 AND `+relBufWhere, table).Scan(&s.n, &s.minBlk, &s.maxBlk, &s.maxUsage, &s.minUsage)
	if err != nil {
		return s, fmt.Errorf("reading pg_buffercache: %w", err)
	}
	return s, nil
}

// serverFreeBuffers counts buffers holding no page (pg_buffercache shows
// them with a null relfilenode): at least what a fresh server still has
// on its freelist.
func (e *env) serverFreeBuffers(ctx context.Context) (int64, error) {
	return e.int(ctx, "SELECT count(*) FROM pg_buffercache WHERE relfilenode IS NULL")
}

// config is the engine's config line for the server's pool.
func (e *env) config() string {
	return "config shared_buffers=" + e.info.Settings["shared_buffers"] + "\n"
}

func checkNBuffers(ctx context.Context, e *env) (outcome, error) {
	r, err := engineRun("nbuffers.scn", e.config(), nil)
	if err != nil {
		return outcome{}, err
	}
	n, err := e.int(ctx, "SELECT count(*) FROM pg_buffercache")
	if err != nil {
		return outcome{}, err
	}
	return outcome{engine: fmt.Sprint(r.Pool().NBuffers), server: fmt.Sprint(n)}, nil
}

// checkUsageCapCatalog scans pg_class six times: read-only, so it runs on
// a user's server too. A busy server's clock sweep could decrement the
// counts between the scans and the reading; the check reads right after.
func checkUsageCapCatalog(ctx context.Context, e *env) (outcome, error) {
	for _, s := range []string{"SET enable_indexscan = off", "SET enable_bitmapscan = off", "SET enable_indexonlyscan = off"} {
		if err := e.exec(ctx, s); err != nil {
			return outcome{}, err
		}
	}
	defer e.conn.Exec(context.Background(), "RESET ALL")
	blocks, err := e.int(ctx, "SELECT pg_relation_size('pg_class') / current_setting('block_size')::int")
	if err != nil {
		return outcome{}, err
	}
	for i := 0; i < 6; i++ {
		if err := e.exec(ctx, "SELECT count(*) FROM pg_class"); err != nil {
			return outcome{}, err
		}
	}
	s, err := e.serverMainBuffers(ctx, "pg_class")
	if err != nil {
		return outcome{}, err
	}
	poolMax, err := e.int(ctx, "SELECT coalesce(max(usagecount), 0) FROM pg_buffercache")
	if err != nil {
		return outcome{}, err
	}
	srv := fmt.Sprintf("pg_class %d blocks: %s; pool max usage %d", blocks, s, poolMax)

	var src strings.Builder
	src.WriteString(e.config())
	fmt.Fprintf(&src, "relation pg_class blocks=%d\n", blocks)
	for i := 0; i < 6; i++ {
		src.WriteString("backend A: scan pg_class\nrun\n")
	}
	r, err := engineRun("usage-cap.scn", src.String(), nil)
	if err != nil {
		return outcome{}, err
	}
	es := summarize(engineRelBuffers(r, "pg_class"))
	engMax := 0
	for id := 0; id < r.Pool().NBuffers; id++ {
		engMax = max(engMax, int(bufmgr.StateUsagecount(r.Pool().Desc(id).State())))
	}
	eng := fmt.Sprintf("pg_class %d blocks: %s; pool max usage %d", blocks, es, engMax)
	return outcome{engine: eng, server: srv}, nil
}

func checkUsageAfterScans(ctx context.Context, e *env) (outcome, error) {
	t, err := e.coldIntTable(ctx, "usage", "", 1)
	if err != nil {
		return outcome{}, err
	}
	var srv []string
	for i := 0; i < 6; i++ {
		if err := e.exec(ctx, "SELECT * FROM "+t); err != nil {
			return outcome{}, err
		}
		u, err := e.int(ctx, "SELECT coalesce(max(usagecount), 0) FROM pg_buffercache WHERE relforknumber = 0 AND relblocknumber = 0 AND "+relBufWhere, t)
		if err != nil {
			return outcome{}, err
		}
		srv = append(srv, fmt.Sprint(u))
	}
	var src strings.Builder
	src.WriteString(e.config() + "relation t blocks=1\n")
	for i := 0; i < 6; i++ {
		src.WriteString("backend A: scan t\nrun\n")
	}
	var eng []string
	_, err = engineRun("usage.scn", src.String(), func(r *scenario.Runner) error {
		s := summarize(engineRelBuffers(r, "t"))
		eng = append(eng, fmt.Sprint(s.maxUsage))
		return nil
	})
	if err != nil {
		return outcome{}, err
	}
	return outcome{engine: strings.Join(eng, " "), server: strings.Join(srv, " ")}, nil
}

// coldIntTable makes intTable's table of rows rows WITH opts, then
// rewrites it with VACUUM FULL: into a new relfilenode without going
// through shared buffers, so that none of its blocks is cached.
func (e *env) coldIntTable(ctx context.Context, name, opts string, rows int) (string, error) {
	t, err := e.intTable(ctx, name, opts, rows)
	if err != nil {
		return "", err
	}
	return t, e.exec(ctx, "VACUUM FULL "+t)
}

// coldTable makes a cold table of (about) blocks blocks: one int column
// at fillfactor 10, as many rows as the engine says fill that many pages
// (fsm.RowsPerPage), none of them in shared buffers (coldIntTable). It
// returns the table's size in blocks.
func (e *env) coldTable(ctx context.Context, name string, blocks int) (string, int64, error) {
	t, err := e.coldIntTable(ctx, name, "fillfactor = 10", blocks*fsm.RowsPerPage(intRow, 10))
	if err != nil {
		return "", 0, err
	}
	n, err := e.int(ctx, "SELECT pg_relation_size($1::regclass) / current_setting('block_size')::int", t)
	return t, n, err
}

// scanCold scans a cold table once on both sides and summarises its
// buffers. The engine's table has want blocks; the server's whatever
// coldTable made (the summaries name the sizes, so a different size shows
// as a difference). Free buffers are checked first: the scan must not
// need the clock sweep, whose path depends on the server's history.
func (e *env) scanCold(ctx context.Context, name string, want int) (outcome, error) {
	t, n, err := e.coldTable(ctx, name, want)
	if err != nil {
		return outcome{}, err
	}
	free, err := e.serverFreeBuffers(ctx)
	if err != nil {
		return outcome{}, err
	}
	if err := e.exec(ctx, "SELECT count(*) FROM "+t); err != nil {
		return outcome{}, err
	}
	s, err := e.serverMainBuffers(ctx, t)
	if err != nil {
		return outcome{}, err
	}
	srv := fmt.Sprintf("%d blocks: %s", n, s)
	src := fmt.Sprintf("%srelation big blocks=%d\nbackend A: scan big\nrun\n", e.config(), want)
	r, err := engineRun(name+".scn", src, nil)
	if err != nil {
		return outcome{}, err
	}
	eng := fmt.Sprintf("%d blocks: %s", want, summarize(engineRelBuffers(r, "big")))
	o := outcome{engine: eng, server: srv}
	if free < n {
		o.detail = fmt.Sprintf("the server had only %d free buffers for %d blocks: the clock sweep ran", free, n)
	}
	return o, nil
}

func checkNoRingAtQuarter(ctx context.Context, e *env) (outcome, error) {
	return e.scanCold(ctx, "quarter", e.info.NBuffers/4)
}

func checkBulkreadRing(ctx context.Context, e *env) (outcome, error) {
	if e.info.NBuffers/4 > 200000 {
		return outcome{}, fmt.Errorf("shared_buffers %s would need a table of over %d blocks", e.info.Settings["shared_buffers"], e.info.NBuffers/4)
	}
	return e.scanCold(ctx, "ring", e.info.NBuffers/4+64)
}

// checkBulkreadRescan scans a cold table over NBuffers/4 blocks twice.
// The second scan's ring starts empty: blocks 0.. miss and cycle through
// 32 new buffers; blocks 544..575 hit the first scan's buffers (a hit is
// not added to the ring, and a ring pin leaves usage 1 at 1). Both sides
// run it with synchronize_seqscans off, to check the ring alone. It makes
// no difference here (a scan that runs to the end leaves its start block
// as the reported position, so the next one starts at 0 too: 32, 64, 96
// buffers after 1, 2, 3 scans either way); a scan that stops early, or one
// running beside another, starts elsewhere (checkSyncScan).
func checkBulkreadRescan(ctx context.Context, e *env) (outcome, error) {
	want := e.info.NBuffers/4 + 64
	t, n, err := e.coldTable(ctx, "rescan", want)
	if err != nil {
		return outcome{}, err
	}
	for _, q := range []string{"SET synchronize_seqscans = off", "SELECT count(*) FROM " + t, "SELECT count(*) FROM " + t} {
		if err := e.exec(ctx, q); err != nil {
			return outcome{}, err
		}
	}
	s, err := e.serverMainBuffers(ctx, t)
	if err != nil {
		return outcome{}, err
	}
	src := fmt.Sprintf("%srelation big blocks=%d\nbackend A: scan big\nrun\nbackend A: scan big\nrun\n",
		strings.Replace(e.config(), "\n", " synchronize_seqscans=off\n", 1), want)
	r, err := engineRun("rescan.scn", src, nil)
	if err != nil {
		return outcome{}, err
	}
	return outcome{engine: fmt.Sprintf("%d blocks: %s", want, summarize(engineRelBuffers(r, "big"))),
		server: fmt.Sprintf("%d blocks: %s", n, s)}, nil
}

// checkPinningBackends holds pins with cursors: a cursor that has fetched
// one row keeps the scan's current buffer pinned. Two cursors of one
// backend pin the buffer twice but count once: the shared refcount counts
// backends (the private refcount the rest).
func checkPinningBackends(ctx context.Context, e *env) (outcome, error) {
	t, err := e.intTable(ctx, "pins", "", 10)
	if err != nil {
		return outcome{}, err
	}
	conns := e.backends()
	pins := func() (string, error) {
		n, err := e.int(ctx, "SELECT coalesce(sum(pinning_backends), 0) FROM pg_buffercache WHERE relforknumber = 0 AND relblocknumber = 0 AND "+relBufWhere, t)
		return fmt.Sprint(n), err
	}
	steps := [][]string{
		{"A", "BEGIN", "DECLARE c1 CURSOR FOR SELECT * FROM " + t, "FETCH 1 FROM c1"},
		{"A", "DECLARE c2 CURSOR FOR SELECT * FROM " + t, "FETCH 1 FROM c2"},
		{"B", "BEGIN", "DECLARE c1 CURSOR FOR SELECT * FROM " + t, "FETCH 1 FROM c1"},
		{"A", "COMMIT"},
		{"B", "COMMIT"},
	}
	var srv []string
	for _, st := range steps {
		c, err := conns.conn(ctx, st[0])
		if err != nil {
			return outcome{}, err
		}
		for _, q := range st[1:] {
			if _, err := c.Exec(ctx, q); err != nil {
				return outcome{}, fmt.Errorf("%s: %s: %w", st[0], q, err)
			}
		}
		p, err := pins()
		if err != nil {
			return outcome{}, err
		}
		srv = append(srv, p)
	}
	src := e.config() + `relation t blocks=1
backend A: read t 0
run
backend A: read t 0
run
backend B: read t 0
run
backend A: release all
run
backend B: release all
run
`
	var eng []string
	_, err = engineRun("pins.scn", src, func(r *scenario.Runner) error {
		rc := 0
		for _, b := range engineRelBuffers(r, "t") {
			rc += int(b.rc)
		}
		eng = append(eng, fmt.Sprint(rc))
		return nil
	})
	if err != nil {
		return outcome{}, err
	}
	return outcome{engine: strings.Join(eng, " "), server: strings.Join(srv, " ")}, nil
}

// checkDropBuffers drops a table whose three blocks are cached. DROP
// TABLE removes its buffers at commit (smgrdounlinkall →
// DropRelFileNodesAllBuffers); the engine's drop is the same function.
func checkDropBuffers(ctx context.Context, e *env) (outcome, error) {
	// 600 rows of one int: 226 + 226 + 148, three blocks.
	t, err := e.intTable(ctx, "drop", "", 600)
	if err != nil {
		return outcome{}, err
	}
	if err := e.exec(ctx, "SELECT count(*) FROM "+t); err != nil {
		return outcome{}, err
	}
	node, err := e.int(ctx, "SELECT pg_relation_filenode($1::regclass)::bigint", t)
	if err != nil {
		return outcome{}, err
	}
	const byNode = `SELECT count(*) FROM pg_buffercache WHERE relfilenode = $1
  AND reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())`
	before, err := e.int(ctx, byNode+" AND relforknumber = 0", node)
	if err != nil {
		return outcome{}, err
	}
	if err := e.exec(ctx, "DROP TABLE "+t); err != nil {
		return outcome{}, err
	}
	after, err := e.int(ctx, byNode, node)
	if err != nil {
		return outcome{}, err
	}
	src := e.config() + `relation t blocks=3
backend A: touch t 0..2
run
backend A: drop t
run
`
	var eng []string
	_, err = engineRun("drop.scn", src, func(r *scenario.Runner) error {
		eng = append(eng, fmt.Sprint(len(engineRelBuffers(r, "t"))))
		return nil
	})
	if err != nil {
		return outcome{}, err
	}
	return outcome{engine: "before " + eng[0] + ", after " + eng[1], server: fmt.Sprintf("before %d, after %d", before, after)}, nil
}
