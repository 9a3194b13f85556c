package fsm

import (
	"errors"
	"fmt"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
)

// SeedConfig is the workload of the seed 002 thread (John Naylor,
// 2018-12-01): Tables tables of one int column with the given fillfactor,
// each pre-filled with one tuple and vacuumed ("so that the FSMs were
// already created when testing the master branch"), then, from a new
// session, filled to exactly Blocks pages. The thread ran it with 100
// tables, fillfactor 20 and 30, 4 and 8 blocks, master against the patch
// built with a threshold of 8, on stock settings (shared_buffers 128MB).
type SeedConfig struct {
	Tables     int     // 100
	FillFactor int     // 20 or 30
	Blocks     int     // heap pages each table ends with: 4 or 8
	Options    Options // the variant (and small-skip threshold)
	TupleLen   int     // t_len of each row; 0: one int column, HeapTupleLen(4) = 28
	NBuffers   int     // shared buffers; 0: 16384 (128MB)
	Log        *trace.Log
}

// SeedCounts are what one table's fill read, the numbers the thread
// argues about: "3 FSM pages + 4 relation pages" against "4 relation
// pages" are distinct pages accessed via shared buffers (FSMPages,
// HeapPages); the Reads are buffer accesses (ReadBuffer calls), counted as
// pg_statio_user_tables counts heap_blks_read + heap_blks_hit.
type SeedCounts struct {
	FSMPages, HeapPages, VMPages int    // distinct blocks read, by fork
	FSMReads, HeapReads, VMReads uint64 // ReadBuffer calls, by fork
	PagesTried                   uint64 // heap pages found too full
	FSMBlocks, HeapBlocks        uint32 // fork sizes after the fill
}

// Pages is FSMPages + HeapPages: the pages the thread counts.
func (c SeedCounts) Pages() int { return c.FSMPages + c.HeapPages }

// Reads is every buffer access, the visibility map's included.
func (c SeedCounts) Reads() uint64 { return c.FSMReads + c.HeapReads + c.VMReads }

// Seed is a prepared run of the seed workload: tables created, pre-filled
// and vacuumed; Fill does the measured part.
type Seed struct {
	Config      SeedConfig
	Pool        *bufmgr.Pool
	Store       *Store
	Heaps       []*Heap
	RowsPerPage int // rows a page takes at this fillfactor
	Rows        int // rows Fill inserts into each table
	fill        *Session
	filled      bool
	counts      []SeedCounts
}

// NewSeed builds the tables of the seed workload and runs its untimed
// preparation: create, insert one row, VACUUM (from a setup session).
func NewSeed(cfg SeedConfig) (*Seed, error) {
	if cfg.Tables < 1 || cfg.Tables > 100000 {
		return nil, fmt.Errorf("fsm: seed workload: %d tables, want 1..100000", cfg.Tables)
	}
	if cfg.Blocks < 1 || cfg.Blocks > 1<<20 {
		return nil, fmt.Errorf("fsm: seed workload: %d blocks per table, want 1..%d", cfg.Blocks, 1<<20)
	}
	if cfg.TupleLen == 0 {
		cfg.TupleLen = HeapTupleLen(4)
	}
	if cfg.NBuffers == 0 {
		cfg.NBuffers = 16384
	}
	if cfg.FillFactor < HeapMinFillFactor || cfg.FillFactor > 100 {
		return nil, fmt.Errorf("fsm: seed workload: fillfactor %d, want %d..100", cfg.FillFactor, HeapMinFillFactor)
	}
	if cfg.TupleLen < MaxAlign(SizeofHeapTupleHeader) || MaxAlign(cfg.TupleLen) > MaxHeapTupleSize {
		return nil, fmt.Errorf("fsm: seed workload: tuple length %d out of range [%d, %d]", cfg.TupleLen, MaxAlign(SizeofHeapTupleHeader), MaxHeapTupleSize)
	}
	per := RowsPerPage(cfg.TupleLen, cfg.FillFactor)
	if per < 1 {
		return nil, errors.New("fsm: seed workload: no row fits a page")
	}
	pool, err := bufmgr.NewPool(cfg.NBuffers, cfg.Log)
	if err != nil {
		return nil, err
	}
	st, err := NewStore(pool, cfg.Options)
	if err != nil {
		return nil, err
	}
	setupB, err := pool.NewBackend("setup")
	if err != nil {
		return nil, err
	}
	fillB, err := pool.NewBackend("fill")
	if err != nil {
		return nil, err
	}
	setup, err := st.NewSession(setupB)
	if err != nil {
		return nil, err
	}
	fill, err := st.NewSession(fillB)
	if err != nil {
		return nil, err
	}
	w := &Seed{Config: cfg, Pool: pool, Store: st, RowsPerPage: per, Rows: per*cfg.Blocks - 1, fill: fill}
	for i := 0; i < cfg.Tables; i++ {
		rel := &bufmgr.Relation{Name: fmt.Sprintf("t%d", i+1), Number: bufmgr.FirstNormalObjectId + uint32(i), Permanent: true}
		h, err := st.NewHeap(rel, cfg.FillFactor)
		if err != nil {
			return nil, err
		}
		if _, err := setup.HeapInsert(h, cfg.TupleLen); err != nil {
			return nil, err
		}
		if err := setup.Vacuum(h); err != nil {
			return nil, err
		}
		h.ResetAccessed()
		w.Heaps = append(w.Heaps, h)
	}
	return w, nil
}

// Fill inserts Rows rows into each table, one table after the other,
// from a session that has not touched them (a new connection, as the
// thread's scripts), which leaves each with exactly Blocks full pages.
// It can run once.
func (w *Seed) Fill() error {
	if w.filled {
		return errors.New("fsm: the seed workload was already filled")
	}
	w.filled = true
	s := w.fill
	w.counts = make([]SeedCounts, len(w.Heaps))
	for i, h := range w.Heaps {
		before := s.Stats
		for r := 0; r < w.Rows; r++ {
			if _, err := s.HeapInsert(h, w.Config.TupleLen); err != nil {
				return fmt.Errorf("table %s, row %d: %w", h.Rel.Name, r, err)
			}
		}
		d := s.Stats.Sub(before)
		w.counts[i] = SeedCounts{
			FSMPages: h.PagesAccessed(bufmgr.FSMForkNum), HeapPages: h.PagesAccessed(bufmgr.MainForkNum),
			VMPages:  h.PagesAccessed(bufmgr.VMForkNum),
			FSMReads: d.Reads[bufmgr.FSMForkNum], HeapReads: d.Reads[bufmgr.MainForkNum], VMReads: d.Reads[bufmgr.VMForkNum],
			PagesTried: d.PagesTried, FSMBlocks: h.FSMBlocks(), HeapBlocks: h.NBlocks(),
		}
	}
	return nil
}

// Counts returns each table's counts after Fill.
func (w *Seed) Counts() []SeedCounts { return w.counts }

// PerTable returns the counts of the first table after checking that
// every table's are the same (the workload is deterministic and the tables
// identical).
func (w *Seed) PerTable() (SeedCounts, error) {
	if len(w.counts) == 0 {
		return SeedCounts{}, errors.New("fsm: the seed workload has not been filled")
	}
	for i, c := range w.counts {
		if c != w.counts[0] {
			return SeedCounts{}, fmt.Errorf("fsm: table %d read %+v, table 1 %+v", i+1, c, w.counts[0])
		}
	}
	return w.counts[0], nil
}

// FillSession is the session Fill inserts from.
func (w *Seed) FillSession() *Session { return w.fill }
