package verify

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"bufferlab/engine/bufmgr"
	"bufferlab/internal/linediff"
	"bufferlab/verify/pgserver"
)

// FirstXid is the first transaction id of the servers ServerOptions
// starts: the first xid of commit-log segment 0001 (1048576 = 32 pages of
// 32768), so that the commit-log checks leave the first segment file.
const FirstXid = 1 << 20

// ServerOptions are the options of the server `bufferlab verify` and the
// tests start: pgserver's defaults (shared_buffers 16MB, autovacuum off)
// and xids from FirstXid on.
func ServerOptions() pgserver.Options {
	return pgserver.Options{NextXid: FirstXid}
}

// Target is the server the checks run against.
type Target struct {
	// Connect opens a new connection. Checks that need two backends (the
	// pins held by cursors) call it more than once.
	Connect func(ctx context.Context) (*pgx.Conn, error)
	// Own says the server is one pgserver started with ServerOptions: a
	// fresh cluster whose first xid is FirstXid. Checks with OwnOnly need
	// it.
	Own bool
	// AllowWrites lets the checks that create tables, VACUUM or CHECKPOINT
	// run; without it they are skipped.
	AllowWrites bool
	// CheckTimeout bounds each check (0: 2 minutes).
	CheckTimeout time.Duration
}

// Check is one paired check: the same operations on the server (SQL) and
// on the engine (a scenario or the engine's API), and the two results.
type Check struct {
	// Name is short and stable (it names the check in tables and JSON).
	Name string
	// What says in one line what is compared.
	What string
	// Writes says that the check creates tables, vacuums, checkpoints or
	// starts transactions that take an xid.
	Writes bool
	// OwnOnly says that the check needs a fresh server started by
	// bufferlab (Target.Own).
	OwnOnly bool
	// Versions are the PostgreSQL major versions (first, last) whose
	// behaviour the check's engine side models; the zero value is 15
	// alone. Against a server of another version the check is skipped,
	// saying so (Run: versionSkip), never run against the wrong model.
	Versions [2]int
	run      func(ctx context.Context, e *env) (outcome, error)
}

// versions is c.Versions with the zero value filled in.
func (c Check) versions() (first, last int) {
	if c.Versions == [2]int{} {
		return 15, 15
	}
	return c.Versions[0], c.Versions[1]
}

// versionSkip says why c does not run against a server whose
// server_version_num is num: "" when its major version is one the check
// models. A version the check does not model is reported, not run.
func versionSkip(c Check, num int, version string) string {
	major := num / 10000
	first, last := c.versions()
	if major >= first && major <= last {
		return ""
	}
	models := fmt.Sprintf("PostgreSQL %d", first)
	if last > first {
		models = fmt.Sprintf("PostgreSQL %d to %d", first, last)
	}
	return fmt.Sprintf("the server is PostgreSQL %s; this check's engine side models %s", version, models)
}

// Result is what one check found.
type Result struct {
	Name string `json:"name"`
	// Engine and Server are what each says, in the same words, so that
	// they are equal exactly when the check matches.
	Engine string `json:"engine"`
	Server string `json:"server"`
	Match  bool   `json:"match"`
	// Detail says, when they differ (or the check failed), where.
	Detail string `json:"detail,omitempty"`
	// Skipped, when not empty, says why the check did not run (it then
	// neither matches nor differs).
	Skipped string `json:"-"`
	// Seconds is how long the check took.
	Seconds float64 `json:"-"`
}

// Info describes the server.
type Info struct {
	Version    string            `json:"version"`
	VersionNum int               `json:"version_num"`
	NBuffers   int               `json:"nbuffers"`
	Settings   map[string]string `json:"settings"`
	// Own says the server was started by bufferlab (and is gone after the
	// run); FirstXid is then the first xid it handed out.
	Own      bool   `json:"started_by_bufferlab"`
	FirstXid uint32 `json:"first_xid,omitempty"`
}

// InfoSettings are the settings Info reports.
var InfoSettings = []string{"shared_buffers", "block_size", "autovacuum", "fsync", "synchronous_commit",
	"synchronize_seqscans", "wal_level", "data_checksums", "wal_log_hints", "full_page_writes", "jit", "max_connections"}

// ServerInfo reads the server's version and settings.
func ServerInfo(ctx context.Context, conn *pgx.Conn) (Info, error) {
	inf := Info{Settings: map[string]string{}}
	var num string
	if err := conn.QueryRow(ctx, "SELECT current_setting('server_version'), current_setting('server_version_num')").Scan(&inf.Version, &num); err != nil {
		return inf, err
	}
	inf.VersionNum, _ = strconv.Atoi(num)
	for _, s := range InfoSettings {
		var v string
		if err := conn.QueryRow(ctx, "SELECT current_setting($1, true)", s).Scan(&v); err == nil {
			inf.Settings[s] = v
		}
	}
	n, err := bufmgr.ParseSharedBuffers(inf.Settings["shared_buffers"])
	if err != nil {
		return inf, fmt.Errorf("shared_buffers %q: %w", inf.Settings["shared_buffers"], err)
	}
	inf.NBuffers = n
	if bs := inf.Settings["block_size"]; bs != strconv.Itoa(bufmgr.BLCKSZ) {
		return inf, fmt.Errorf("the server's block_size is %s; BufferLab models %d-byte blocks", bs, bufmgr.BLCKSZ)
	}
	return inf, nil
}

// Run runs the checks (all of Checks when nil) in order against t and
// reports each result to progress (when not nil) as it comes.
func Run(ctx context.Context, t Target, checks []Check, progress func(Result)) (Info, []Result, error) {
	if checks == nil {
		checks = Checks()
	}
	conn, err := t.Connect(ctx)
	if err != nil {
		return Info{}, nil, fmt.Errorf("connecting: %w", err)
	}
	defer conn.Close(context.Background())
	inf, err := ServerInfo(ctx, conn)
	if err != nil {
		return inf, nil, err
	}
	inf.Own = t.Own
	if t.Own {
		inf.FirstXid = FirstXid
	}
	timeout := t.CheckTimeout
	if timeout == 0 {
		timeout = 2 * time.Minute
	}
	var results []Result
	for _, c := range checks {
		r := Result{Name: c.Name}
		why := versionSkip(c, inf.VersionNum, inf.Version)
		switch {
		case why != "":
			r.Skipped = why
		case c.OwnOnly && !t.Own:
			r.Skipped = "needs a fresh server started by bufferlab verify (no --dsn)"
		case c.Writes && !t.AllowWrites:
			r.Skipped = "writes to the server (--allow-writes)"
		default:
			r = runOne(ctx, t, c, conn, inf, timeout)
		}
		results = append(results, r)
		if progress != nil {
			progress(r)
		}
		if ctx.Err() != nil {
			return inf, results, ctx.Err()
		}
		if conn.IsClosed() {
			return inf, results, errors.New("the connection to the server was lost")
		}
	}
	return inf, results, nil
}

func runOne(ctx context.Context, t Target, c Check, conn *pgx.Conn, inf Info, timeout time.Duration) Result {
	start := time.Now()
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	e := &env{t: t, conn: conn, info: inf}
	o, err := c.run(cctx, e)
	e.cleanup()
	r := Result{Name: c.Name, Engine: o.engine, Server: o.server, Match: err == nil && o.engine == o.server, Detail: o.detail,
		Seconds: time.Since(start).Seconds()}
	if err != nil {
		r.Match = false
		if r.Server == "" {
			r.Server = "error"
		}
		r.Detail = strings.TrimSpace(r.Detail + " " + err.Error())
	} else if !r.Match && r.Detail == "" {
		r.Detail = "the engine and the server differ"
	}
	return r
}

// outcome is what a check's body returns: what each side says, in the
// same words, and where they differ when they do.
type outcome struct {
	engine, server string
	detail         string
}

// env is what a check's body works with.
type env struct {
	t      Target
	conn   *pgx.Conn
	info   Info
	tables []string
	extra  []*pgx.Conn
}

// TablePrefix starts the name of every table the checks create; each
// check drops its tables when it ends (and before it starts, should an
// interrupted run have left them).
const TablePrefix = "bufferlab_verify_"

// table returns the name of a scratch table, dropping any leftover.
func (e *env) table(ctx context.Context, name string) (string, error) {
	n := TablePrefix + name
	if _, err := e.conn.Exec(ctx, "DROP TABLE IF EXISTS "+n); err != nil {
		return "", err
	}
	e.tables = append(e.tables, n)
	return n, nil
}

// connect opens one more connection, closed when the check ends. Like
// the main connection in every check that deletes, it plans without seq
// scans (tidScanOnly).
func (e *env) connect(ctx context.Context) (*pgx.Conn, error) {
	c, err := e.t.Connect(ctx)
	if err != nil {
		return nil, err
	}
	e.extra = append(e.extra, c)
	if _, err := c.Exec(ctx, tidScanOnly); err != nil {
		return nil, err
	}
	return c, nil
}

// tidScanOnly makes `DELETE … WHERE ctid = …` a TID scan even on a table
// of a few pages, where the planner prefers a seq scan (3 pages cost less
// than one random_page_cost): a seq scan prunes every page it reads
// that is nearly full and has deleted tuples (heap_page_prune_opt), which
// the engine does not model; a TID scan (heap_fetch) never prunes.
const tidScanOnly = "SET enable_seqscan = off"

func (e *env) cleanup() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, c := range e.extra {
		c.Close(ctx)
	}
	if e.conn.IsClosed() {
		return
	}
	// A failed statement may have left a transaction open, and a check
	// may have changed settings.
	e.conn.Exec(ctx, "ROLLBACK")
	e.conn.Exec(ctx, "RESET ALL")
	for _, t := range e.tables {
		e.conn.Exec(ctx, "DROP TABLE IF EXISTS "+t)
	}
}

func (e *env) exec(ctx context.Context, sql string, args ...any) error {
	_, err := e.conn.Exec(ctx, sql, args...)
	if err != nil {
		return fmt.Errorf("%s: %w", firstLine(sql), err)
	}
	return nil
}

// execAll runs statements on the server in order and stops at the first
// that fails.
func (e *env) execAll(ctx context.Context, stmts ...string) error {
	for _, sql := range stmts {
		if err := e.exec(ctx, sql); err != nil {
			return err
		}
	}
	return nil
}

func (e *env) int(ctx context.Context, sql string, args ...any) (int64, error) {
	var v int64
	if err := e.conn.QueryRow(ctx, sql, args...).Scan(&v); err != nil {
		return 0, fmt.Errorf("%s: %w", firstLine(sql), err)
	}
	return v, nil
}

func (e *env) text(ctx context.Context, sql string, args ...any) (string, error) {
	var v string
	if err := e.conn.QueryRow(ctx, sql, args...).Scan(&v); err != nil {
		return "", fmt.Errorf("%s: %w", firstLine(sql), err)
	}
	return v, nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	if len(s) > 80 {
		s = s[:77] + "…"
	}
	return s
}

// firstDiff says where two texts first differ, line by line.
func firstDiff(engine, server string) string {
	for n, d := range linediff.Differing(engine, server) {
		return fmt.Sprintf("first difference at line %d: engine %q, server %q", n, d[0], d[1])
	}
	return ""
}

// Checks returns every check, in the order they run. The buffer pool
// checks come first, while a fresh server's freelist still has room for
// every block they read, so that no clock sweep (whose path depends on
// what the server did before) is involved.
func Checks() []Check {
	var cs []Check
	cs = append(cs, poolChecks()...)
	cs = append(cs, fsmChecks()...)
	cs = append(cs, clogChecks()...)
	return cs
}
