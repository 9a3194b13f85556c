package verify

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"bufferlab/engine/slru"
)

// The commit log checks: the engine side is package slru's commit log
// (clog.c's arithmetic, BootStrapCLOG, ExtendCLOG, the status bits and the
// simulated pg_xact directory); the server side reads its pg_xact files
// with pg_stat_file and pg_read_binary_file after a CHECKPOINT has
// written the commit log out.

func clogChecks() []Check {
	return []Check{
		{Name: "xact-slru-size", run: checkXactShmem, Versions: [2]int{15, 16}, // 17 sizes it by transaction_buffers, in banks
			What: "the commit log's shared memory ('Xact' in pg_shmem_allocations) for the engine's CLOG slot count at this shared_buffers (PG ≤ 16: Min(128, Max(4, NBuffers/512)))"},
		{Name: "pg-xact-files", Writes: true, OwnOnly: true, run: checkXactFiles,
			What: "after a CHECKPOINT, the files of pg_xact and their sizes: 0000 from initdb (8192 B) and 0001, whose first page the server zeroed for xid 1048576"},
		{Name: "clog-bits", Writes: true, run: checkClogBits,
			What: "eight transactions committed or rolled back in turn: the two status bits at the page, byte and shift the engine computes for each xid, read from the server's pg_xact file"},
	}
}

// xactShmemSize is SimpleLruShmemSize(nslots, CLOG_LSNS_PER_PAGE) of
// PostgreSQL 9.6–16 on a 64-bit build: the SlruSharedData header (88
// bytes), the per-slot arrays (page_buffer pointers, page_status,
// page_dirty, page_number, page_lru_count, a padded LWLock of 128 bytes
// per slot), the group LSNs (8 bytes × 1024 per slot), each MAXALIGN'd,
// the total aligned to ALIGNOF_BUFFER (32), then the pages. 32 slots give
// 529152 (the reference sheet's fact 17).
func xactShmemSize(nslots int) int {
	maxAlign := func(n int) int { return (n + 7) &^ 7 }
	sz := maxAlign(88)
	sz += maxAlign(nslots * 8)   // page_buffer
	sz += maxAlign(nslots * 4)   // page_status
	sz += maxAlign(nslots * 1)   // page_dirty
	sz += maxAlign(nslots * 4)   // page_number
	sz += maxAlign(nslots * 4)   // page_lru_count
	sz += maxAlign(nslots * 128) // buffer_locks
	sz += maxAlign(nslots * slru.ClogLSNsPerPage * 8)
	sz = (sz + 31) &^ 31
	return sz + slru.BLCKSZ*nslots
}

func checkXactShmem(ctx context.Context, e *env) (outcome, error) {
	n := slru.CLOGBuffersPG16(e.info.NBuffers)
	size, err := e.int(ctx, "SELECT size FROM pg_shmem_allocations WHERE name = 'Xact'")
	if err != nil {
		return outcome{}, err
	}
	srvSlots := "?"
	for k := 1; k <= 1024; k++ {
		if int64(xactShmemSize(k)) == size {
			srvSlots = fmt.Sprint(k)
			break
		}
	}
	return outcome{engine: fmt.Sprintf("%d slots, %d B", n, xactShmemSize(n)), server: fmt.Sprintf("%s slots, %d B", srvSlots, size)}, nil
}

// newClog is the engine's commit log as initdb leaves it: page 0 zeroed
// and written (pg_xact/0000, 8192 bytes). PostgreSQL 15 has one
// ControlLock over all slots: the single variant.
func (e *env) newClog() (*slru.Backend, error) {
	s, err := slru.New(slru.Config{Variant: slru.Single, Slots: slru.CLOGBuffersPG16(e.info.NBuffers)}, nil)
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	b, err := s.NewBackend("A")
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	if err := b.BootStrapCLOG(); err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	return b, nil
}

// serverXactFiles lists pg_xact's files with their sizes.
func (e *env) serverXactFiles(ctx context.Context) (string, error) {
	return e.joinRows(ctx, ", ", "%s %d B", "SELECT f, (pg_stat_file('pg_xact/' || f)).size FROM pg_ls_dir('pg_xact') f ORDER BY f")
}

func engineXactFiles(s *slru.SLRU) string {
	var parts []string
	for _, seg := range s.Disk().Segments() {
		size, _ := s.Disk().FileSize(seg)
		parts = append(parts, fmt.Sprintf("%04X %d B", seg, size))
	}
	return strings.Join(parts, ", ")
}

// checkXactFiles replays the server's life on the engine's commit log:
// initdb's bootstrap, pg_resetwal's next xid (StartupCLOG), ExtendCLOG for
// every xid handed out since (the server's next xid says how far), and
// the checkpoint's SimpleLruWriteAll.
func checkXactFiles(ctx context.Context, e *env) (outcome, error) {
	if err := e.exec(ctx, "CHECKPOINT"); err != nil {
		return outcome{}, err
	}
	srv, err := e.serverXactFiles(ctx)
	if err != nil {
		return outcome{}, err
	}
	next, err := e.int(ctx, "SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint")
	if err != nil {
		return outcome{}, err
	}
	b, err := e.newClog()
	if err != nil {
		return outcome{}, err
	}
	b.SLRU().StartupCLOG(FirstXid)
	for x := int64(FirstXid); x < next; x++ {
		if err := b.ExtendCLOG(uint32(x)); err != nil {
			return outcome{}, fmt.Errorf("engine: ExtendCLOG(%d): %w", x, err)
		}
	}
	if err := b.WriteAll(); err != nil {
		return outcome{}, fmt.Errorf("engine: %w", err)
	}
	return outcome{engine: engineXactFiles(b.SLRU()), server: srv,
		detail: fmt.Sprintf("xids %d..%d handed out", FirstXid, next-1)}, nil
}

// clogPattern is how the eight transactions end: C commits, A rolls back.
const clogPattern = "CACCAACA"

// statusLetter is the first letter of the status's name in the engine
// (clog.h's four: I in progress, C committed, A aborted, S sub-committed).
func statusLetter(st slru.XidStatus) string {
	return strings.ToUpper(st.String()[:1])
}

func checkClogBits(ctx context.Context, e *env) (outcome, error) {
	var xids []uint32
	for _, c := range clogPattern {
		end := "COMMIT"
		if c == 'A' {
			end = "ROLLBACK"
		}
		if err := e.exec(ctx, "BEGIN"); err != nil {
			return outcome{}, err
		}
		x, err := e.int(ctx, "SELECT txid_current()")
		if err != nil {
			return outcome{}, err
		}
		if err := e.exec(ctx, end); err != nil {
			return outcome{}, err
		}
		xids = append(xids, uint32(x&0xFFFFFFFF))
	}
	if err := e.exec(ctx, "CHECKPOINT"); err != nil {
		return outcome{}, err
	}

	// The engine: the pages these xids live on, extended as the server
	// did when it reached them; the statuses set; the log written out.
	b, err := e.newClog()
	if err != nil {
		return outcome{}, err
	}
	b.SLRU().StartupCLOG(xids[0])
	var pages []int64
	for _, x := range xids {
		if p := slru.TransactionIdToPage(x); p != 0 && !slices.Contains(pages, p) {
			pages = append(pages, p)
			if err := b.ExtendCLOG(uint32(p * slru.ClogXactsPerPage)); err != nil {
				return outcome{}, fmt.Errorf("engine: %w", err)
			}
		}
	}
	for i, x := range xids {
		st := slru.StatusCommitted
		if clogPattern[i] == 'A' {
			st = slru.StatusAborted
		}
		if err := b.TransactionIdSetStatus(x, st); err != nil {
			return outcome{}, fmt.Errorf("engine: %w", err)
		}
	}
	if err := b.WriteAll(); err != nil {
		return outcome{}, fmt.Errorf("engine: %w", err)
	}

	var where, engBits, srvBits, srvStatus []string
	for _, x := range xids {
		loc := slru.Locate(x)
		where = append(where, fmt.Sprintf("%d→%04X+%d byte %d shift %d", x, loc.Segment, loc.Offset, loc.Byte, loc.Shift))
		file := b.SLRU().Disk().File(loc.Segment)
		engBits = append(engBits, statusLetter(slru.XidStatus(file[loc.Offset+int64(loc.Byte)]>>loc.Shift)&slru.ClogXactBitmask))

		var raw []byte
		err := e.conn.QueryRow(ctx, "SELECT pg_read_binary_file($1, $2::bigint, 1)",
			fmt.Sprintf("pg_xact/%04X", loc.Segment), loc.Offset+int64(loc.Byte)).Scan(&raw)
		if err != nil {
			return outcome{}, fmt.Errorf("reading pg_xact: %w", err)
		}
		if len(raw) != 1 {
			return outcome{}, fmt.Errorf("pg_xact/%04X has no byte at %d", loc.Segment, loc.Offset+int64(loc.Byte))
		}
		srvBits = append(srvBits, statusLetter(slru.XidStatus(raw[0]>>loc.Shift)&slru.ClogXactBitmask))
		st, err := e.text(ctx, "SELECT pg_xact_status($1::text::xid8)", fmt.Sprint(x))
		if err != nil {
			return outcome{}, err
		}
		srvStatus = append(srvStatus, map[string]string{"committed": "C", "aborted": "A", "in progress": "I"}[st])
	}
	first, last := slru.Locate(xids[0]), slru.Locate(xids[len(xids)-1])
	head := fmt.Sprintf("xids %d–%d, page %d bytes %d–%d: ", xids[0], xids[len(xids)-1], first.Page, first.Byte, last.Byte)
	o := outcome{engine: head + strings.Join(engBits, ""), server: head + strings.Join(srvBits, "")}
	if got := strings.Join(srvStatus, ""); got != strings.Join(srvBits, "") {
		o.server += " (pg_xact_status: " + got + ")"
	}
	o.detail = "locations: " + strings.Join(where, ", ")
	if strings.Join(engBits, "") != clogPattern {
		o.engine += " (the transactions ended " + clogPattern + ")"
	}
	return o, nil
}
