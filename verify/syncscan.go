package verify

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/runs"
)

// checkSyncScan is issue 13's measured case of synchronized scans
// (syncscan.c; heapam.c initscan, heapgettup_pagemode): a cold table of
// NBuffers/4 + 8 blocks (520 at 16MB), over the size where a scan takes a
// BULKREAD ring and may synchronize. A second connection opens a cursor
// over it and fetches up to the first row of block 99, so that its scan is
// paused there holding that page's pin, having last reported its position
// at block 96 (a report every 16 pages). Then a whole scan runs on the
// main connection: with synchronize_seqscans on (PostgreSQL's default, set
// explicitly here) it starts at 96, and its ring ends with the 32 blocks
// before it. Both sides list the table's blocks in the pool as runs
// (PostgreSQL 15.18: 36–99; without synchronized scans it would be 68–99
// and 488–519).
func checkSyncScan(ctx context.Context, e *env) (outcome, error) {
	const paused = 99 // the cursor's page
	want := e.info.NBuffers/4 + 8
	if want <= paused+1 || e.info.NBuffers/4 > 200000 {
		return outcome{}, fmt.Errorf("shared_buffers %s: the check needs NBuffers/4 between %d and 200000", e.info.Settings["shared_buffers"], paused+1)
	}
	t, n, err := e.coldTable(ctx, "syncscan", want)
	if err != nil {
		return outcome{}, err
	}
	free, err := e.serverFreeBuffers(ctx)
	if err != nil {
		return outcome{}, err
	}
	rows := paused*fsm.RowsPerPage(fsm.HeapTupleLen(4), 10) + 1
	a, err := e.connect(ctx)
	if err != nil {
		return outcome{}, err
	}
	for _, q := range []string{
		"SET enable_seqscan = on", "SET synchronize_seqscans = on", "SET max_parallel_workers_per_gather = 0",
		"BEGIN", "DECLARE c NO SCROLL CURSOR FOR SELECT ctid::text FROM " + t, fmt.Sprintf("MOVE %d IN c", rows-1),
	} {
		if _, err := a.Exec(ctx, q); err != nil {
			return outcome{}, fmt.Errorf("cursor connection: %s: %w", q, err)
		}
	}
	// The last row fetched names the page the cursor is paused on.
	var ctid string
	if err := a.QueryRow(ctx, "FETCH 1 FROM c").Scan(&ctid); err != nil {
		return outcome{}, fmt.Errorf("cursor connection: FETCH: %w", err)
	}
	for _, q := range []string{"SET synchronize_seqscans = on", "SET max_parallel_workers_per_gather = 0", "SELECT count(*) FROM " + t} {
		if err := e.exec(ctx, q); err != nil {
			return outcome{}, err
		}
	}
	blocks, err := queryRows(ctx, e, "SELECT relblocknumber FROM pg_buffercache WHERE relforknumber = 0 AND "+relBufWhere+" ORDER BY 1", []any{t},
		pgx.RowTo[int])
	if err != nil {
		return outcome{}, fmt.Errorf("reading pg_buffercache: %w", err)
	}
	if _, err := a.Exec(ctx, "COMMIT"); err != nil {
		return outcome{}, err
	}
	srv := fmt.Sprintf("%d blocks, cursor on block %s: %d buffers, blocks %s", n, ctidBlock(ctid), len(blocks), blockRanges(blocks))

	src := fmt.Sprintf("%srelation big blocks=%d\nbackend A: scan big pages=%d\nrun\nbackend B: scan big\nrun\n", e.config(), want, paused+1)
	r, err := engineRun("syncscan.scn", src, nil)
	if err != nil {
		return outcome{}, err
	}
	var eng []int
	for _, b := range engineRelBuffers(r, "big") {
		if b.fork == bufmgr.MainForkNum {
			eng = append(eng, int(b.blk))
		}
	}
	slices.Sort(eng)
	o := outcome{server: srv,
		engine: fmt.Sprintf("%d blocks, cursor on block %d: %d buffers, blocks %s", want, paused, len(eng), blockRanges(eng))}
	if free < 64 { // two BULKREAD rings of at most 32

		o.detail = fmt.Sprintf("the server had only %d free buffers: the clock sweep ran", free)
	}
	return o, nil
}

// ctidBlock is the block of a ctid "(B,O)".
func ctidBlock(ctid string) string {
	if b, _, ok := strings.Cut(strings.TrimPrefix(ctid, "("), ","); ok {
		return b
	}
	return ctid
}

// blockRanges prints ascending block numbers as runs: "36–99" or
// "68–99 488–519".
func blockRanges(xs []int) string {
	if len(xs) == 0 {
		return "none"
	}
	var parts []string
	for i, j := range runs.Of(len(xs), func(k int) bool { return xs[k] == xs[k-1]+1 }) {
		parts = append(parts, fmt.Sprintf("%d–%d", xs[i], xs[j]))
	}
	return strings.Join(parts, " ")
}
