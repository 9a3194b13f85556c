package verify

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"bufferlab/engine/fsm"
)

// The pieces the checks share: reading a query's rows, making the tables
// the checks use on the server, filling the engine's heap, the extra
// connections that stand for backends, and marking a difference in an
// outcome.

// queryRows runs sql on the check's connection and scans every row with
// scan (pgx.CollectRows: the rows are closed and their error returned).
// It costs one round trip and the rows in memory.
func queryRows[T any](ctx context.Context, e *env, sql string, args []any, scan func(pgx.CollectableRow) (T, error)) ([]T, error) {
	rows, err := e.conn.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, scan)
}

// joinRows runs sql and prints each row's values with format (the
// values as pgx decodes them: int8 as int64, int2 as int16, text as
// string), joined by sep.
func (e *env) joinRows(ctx context.Context, sep, format, sql string, args ...any) (string, error) {
	parts, err := queryRows(ctx, e, sql, args, func(row pgx.CollectableRow) (string, error) {
		vals, err := row.Values()
		return fmt.Sprintf(format, vals...), err
	})
	return strings.Join(parts, sep), err
}

// started returns m[k], starting it with start and keeping it on first
// use: a backend's connection, a session.
func started[K comparable, V any](m map[K]V, k K, start func() (V, error)) (V, error) {
	if v, ok := m[k]; ok {
		return v, nil
	}
	v, err := start()
	if err == nil {
		m[k] = v
	}
	return v, err
}

// createTable creates a scratch table of columns cols WITH opts (none
// when empty) and returns its name.
func (e *env) createTable(ctx context.Context, name, cols, opts string) (string, error) {
	t, err := e.table(ctx, name)
	if err != nil {
		return "", err
	}
	create := "CREATE TABLE " + t + " (" + cols + ")"
	if opts != "" {
		create += " WITH (" + opts + ")"
	}
	return t, e.exec(ctx, create)
}

// intTable creates a scratch table of one int column a WITH opts holding
// 1..rows (none when rows is 0): 28-byte tuples (intRow), 226 to a page
// at fillfactor 100.
func (e *env) intTable(ctx context.Context, name, opts string, rows int) (string, error) {
	t, err := e.createTable(ctx, name, "a int", opts)
	if err != nil || rows == 0 {
		return t, err
	}
	return t, e.exec(ctx, fmt.Sprintf("INSERT INTO %s SELECT generate_series(1, %d)", t, rows))
}

// plainTable creates a scratch table of columns cols (one of them a text
// column b) WITH opts, b stored PLAIN (no compression, no TOAST), so that
// a row's bytes on the page are known: t_len = 24 + the columns' bytes.
func (e *env) plainTable(ctx context.Context, name, cols, opts string) (string, error) {
	t, err := e.createTable(ctx, name, cols, opts)
	if err != nil {
		return t, err
	}
	return t, e.exec(ctx, "ALTER TABLE "+t+" ALTER COLUMN b SET STORAGE PLAIN")
}

// insertRows inserts n rows of tupleLen bytes into the engine's heap h,
// as session s (HeapInsert each: RelationGetBufferForTuple's path, one
// FSM search or cached target block per row).
func insertRows(s *fsm.Session, h *fsm.Heap, n, tupleLen int) error {
	for i := 0; i < n; i++ {
		if _, err := s.HeapInsert(h, tupleLen); err != nil {
			return fmt.Errorf("engine: %w", err)
		}
	}
	return nil
}

// backends are the connections standing for named backends ("A", "B",
// …), opened on first use by env.connect (closed when the check ends).
type backends struct {
	e     *env
	conns map[string]*pgx.Conn
}

func (e *env) backends() *backends { return &backends{e: e, conns: map[string]*pgx.Conn{}} }

// conn returns backend who's connection, connecting on first use.
func (b *backends) conn(ctx context.Context, who string) (*pgx.Conn, error) {
	return started(b.conns, who, func() (*pgx.Conn, error) { return b.e.connect(ctx) })
}

// reconnect closes backend who's connection: its next statement runs on
// a new one, a new backend.
func (b *backends) reconnect(ctx context.Context, who string) error {
	c, ok := b.conns[who]
	if !ok {
		return nil
	}
	delete(b.conns, who)
	return c.Close(ctx)
}

// mark records in o that the engine's and the server's texts (lines)
// differ: the engine's side gets " [what]", so that the compared strings
// differ too, and the detail where, after label when not empty.
func (o *outcome) mark(what, label, eng, srv string) {
	if eng == srv {
		return
	}
	o.engine += " [" + what + "]"
	d := firstDiff(eng, srv)
	if label != "" {
		d = label + ": " + d
	}
	o.detail = strings.TrimSpace(o.detail + " " + d)
}
