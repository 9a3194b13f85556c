package fsm

import (
	"errors"
	"fmt"
	"io"
	"runtime"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/exp/pin"
	"bufferlab/fastmode/harness"
)

func init() { exp.Register(fsmExperiment) }

var fsmExperiment = &exp.Experiment{
	Name: "fsm",
	Doc: "seed 002: filling 100 small tables with the free space map (PG 15) and without it (the reverted PG 12 small-table skip, threshold 8 as the thread built it): " +
		"ms per 100 tables and pages read per table, fillfactor 20 and 30 × 4 and 8 blocks; then the FSM search against a linear scan of the leaf level for large heaps",
	SummaryKeys: []string{"reads_always_4blocks", "reads_small_skip_4blocks", "speedup_ff20_4blocks"},
	Measure:     runFSM,
	Table:       fsmTable,
}

// FSMSeedTables is the thread's number of tables per run.
const FSMSeedTables = 100

// FSMSeedSharedBuffers is the thread's shared_buffers (stock settings).
const FSMSeedSharedBuffers = "128MB"

// FSMSeedThreshold is the HEAP_FSM_CREATION_THRESHOLD the thread's patch
// was built with ("compiled with a threshold of 8, but testing inserts of
// 4 pages effectively simulates a threshold of 4").
const FSMSeedThreshold = 8

// FSMThreadMs is what the thread reported, in ms for 100 tables (the
// average of 40 runs less the 10% highest and lowest), master against the
// patch, by fillfactor and blocks. Quoted, not measured here.
var FSMThreadMs = map[[2]int][2]float64{
	{20, 4}: {19.1, 17.5}, {20, 8}: {33.4, 30.9},
	{30, 4}: {20.1, 19.7}, {30, 8}: {34.7, 34.9},
}

// FSMSeedCells lists the table's cells in report order: fillfactor, blocks.
var FSMSeedCells = [][2]int{{20, 4}, {20, 8}, {30, 4}, {30, 8}}

// FSMVariants are the two sides the seed compares.
var FSMVariants = []fsm.Options{
	{Variant: fsm.Always},
	{Variant: fsm.SmallSkip, Threshold: FSMSeedThreshold},
}

// FSMSeedPoint is one cell of the seed's table for one variant: the time
// to fill the tables and what each read.
type FSMSeedPoint struct {
	FillFactor int
	Blocks     int
	Options    fsm.Options
	Tables     int
	Ms         harness.Summary // ms per fill of Tables tables
	Counts     fsm.SeedCounts  // per table
}

// FSMSearchPoint is the cost of finding the one page with room in a heap
// of HeapBlocks pages whose map says all the others are full: the tree
// search from the root (3 FSM pages) against a linear scan of the leaf
// level (every leaf page).
type FSMSearchPoint struct {
	HeapBlocks    uint32
	Search        harness.Summary // ns per GetPageWithFreeSpace
	Scan          harness.Summary // ns per linear scan of the leaves
	SearchFSMRead float64         // FSM pages read per search
	ScanFSMRead   float64         // FSM pages read per scan
}

// FSMResult is the fsm experiment's result.
type FSMResult struct {
	Seed   []FSMSeedPoint
	Search []FSMSearchPoint
	// ReadsAlways4Blocks and ReadsSmallSkip4Blocks are the pages (FSM +
	// heap, distinct) each table's fill read at fillfactor 20, 4 blocks:
	// the thread's "3 FSM pages + 4 relation pages" against "4 relation
	// pages". SpeedupFF20_4Blocks is the median time with the map over the
	// median time without, at fillfactor 20, 4 blocks (the thread: 19.1
	// ms / 17.5 ms = 1.09).
	ReadsAlways4Blocks, ReadsSmallSkip4Blocks, SpeedupFF20_4Blocks float64
}

// Summary returns the report's summary keys.
func (r *FSMResult) Summary() map[string]float64 {
	return map[string]float64{
		"reads_always_4blocks":     r.ReadsAlways4Blocks,
		"reads_small_skip_4blocks": r.ReadsSmallSkip4Blocks,
		"speedup_ff20_4blocks":     r.SpeedupFF20_4Blocks,
	}
}

// Point returns the seed cell for fillfactor, blocks and variant.
func (r *FSMResult) Point(ff, blocks int, v fsm.Variant) (FSMSeedPoint, bool) {
	for _, p := range r.Seed {
		if p.FillFactor == ff && p.Blocks == blocks && p.Options.Variant == v {
			return p, true
		}
	}
	return FSMSeedPoint{}, false
}

// NewFSMSeed prepares one run of the seed workload (untimed: create the
// tables, one row each, VACUUM) on a pool of the thread's size.
func NewFSMSeed(ff, blocks int, opt fsm.Options, tables int) (*fsm.Seed, error) {
	nb, err := bufmgr.ParseSharedBuffers(FSMSeedSharedBuffers)
	if err != nil {
		return nil, err
	}
	return fsm.NewSeed(fsm.SeedConfig{Tables: tables, FillFactor: ff, Blocks: blocks, Options: opt, NBuffers: nb})
}

// FSMFillsPerSample is how many prepared workloads one timing sample
// fills back to back (1 with Quick).
const FSMFillsPerSample = 3

// MeasureFSMSeed times the fill of the seed workload for each of opts at
// one fillfactor and size. Each sample prepares fills workloads (untimed:
// tables created, one row each, VACUUM) and times filling them one after
// the other; the variants take turns sample by sample, alternating which
// goes first, so that both see the same machine. It returns, per variant,
// the time in ms per fill of tables tables and the per-table counts, which
// must not change between samples.
func MeasureFSMSeed(o exp.Options, ff, blocks int, opts []fsm.Options, tables, samples, fills int) ([]FSMSeedPoint, error) {
	pts := make([]FSMSeedPoint, len(opts))
	xs := make([][]float64, len(opts))
	for j, opt := range opts {
		pts[j] = FSMSeedPoint{FillFactor: ff, Blocks: blocks, Options: opt, Tables: tables}
	}
	fills = max(fills, 1)
	for i := 0; i < max(samples, 1); i++ {
		for k := range opts {
			j := k
			if i%2 == 1 {
				j = len(opts) - 1 - k
			}
			ws := make([]*fsm.Seed, fills)
			for f := range ws {
				w, err := NewFSMSeed(ff, blocks, opts[j], tables)
				if err != nil {
					return nil, err
				}
				ws[f] = w
			}
			runtime.GC()
			t0 := o.Clock.Now()
			for _, w := range ws {
				if err := w.Fill(); err != nil {
					return nil, err
				}
			}
			ns := o.Clock.Nanos(o.Clock.Now() - t0)
			for f, w := range ws {
				c, err := w.PerTable()
				if err != nil {
					return nil, err
				}
				if (i > 0 || f > 0) && c != pts[j].Counts {
					return nil, fmt.Errorf("fsm seed: the counts changed between runs: %+v, then %+v", pts[j].Counts, c)
				}
				pts[j].Counts = c
			}
			xs[j] = append(xs[j], ns/1e6/float64(fills))
		}
	}
	for j := range pts {
		pts[j].Ms = harness.Summarise(xs[j])
	}
	return pts, nil
}

// FSMSearchHeap builds a heap of nblocks pages whose map records every
// page full (category 0) except the last, with room for anything (255),
// on a pool that holds the whole map: an append-only table, where a linear
// scan has the farthest to go. It returns a session on it.
func FSMSearchHeap(nblocks uint32) (*fsm.Session, *fsm.Heap, error) {
	if nblocks == 0 {
		return nil, nil, errors.New("fsm search: an empty heap")
	}
	need := fsm.ForkPagesFor(nblocks)
	nb, err := bufmgr.ParseSharedBuffers(FSMSeedSharedBuffers)
	if err != nil {
		return nil, nil, err
	}
	nb = max(nb, int(need)+64)
	pool, err := bufmgr.NewPool(nb, nil)
	if err != nil {
		return nil, nil, err
	}
	st, err := fsm.NewStore(pool, fsm.Options{})
	if err != nil {
		return nil, nil, err
	}
	h, err := st.NewHeap(&bufmgr.Relation{Name: "big", Number: bufmgr.FirstNormalObjectId, Permanent: true}, 100)
	if err != nil {
		return nil, nil, err
	}
	free := nblocks - 1
	if err := h.BuildFSM(nblocks, func(b uint32) uint8 {
		if b == free {
			return 255
		}
		return 0
	}); err != nil {
		return nil, nil, err
	}
	b, err := pool.NewBackend("search")
	if err != nil {
		return nil, nil, err
	}
	s, err := st.NewSession(b)
	return s, h, err
}

// FSMSearchRun performs n searches for one int row's worth of space, by
// the tree (GetPageWithFreeSpace) or by a linear scan of the leaves, and
// checks each finds the page with room.
func FSMSearchRun(s *fsm.Session, h *fsm.Heap, n int, linear bool) error {
	for i := 0; i < n; i++ {
		var blk uint32
		var err error
		if linear {
			blk, err = s.LinearSearch(h, 32)
		} else {
			blk, err = s.GetPageWithFreeSpace(h, 32)
		}
		if err != nil {
			return err
		}
		if blk == fsm.InvalidBlockNumber || h.RecordedCat(blk) != 255 {
			return fmt.Errorf("fsm search on %d blocks found %d", h.NBlocks(), blk)
		}
	}
	return nil
}

// MeasureFSMSearch measures both searches on a heap of nblocks pages.
func MeasureFSMSearch(cfg harness.Config, nblocks uint32) (FSMSearchPoint, error) {
	p := FSMSearchPoint{HeapBlocks: nblocks}
	s, h, err := FSMSearchHeap(nblocks)
	if err != nil {
		return p, err
	}
	for _, linear := range []bool{false, true} {
		before := s.Stats
		if err := FSMSearchRun(s, h, 1, linear); err != nil {
			return p, err
		}
		reads := float64(s.Stats.Sub(before).Reads[bufmgr.FSMForkNum])
		sum, err := harness.MeasureErr(cfg, func(n int) error { return FSMSearchRun(s, h, n, linear) })
		if err != nil {
			return p, err
		}
		if linear {
			p.Scan, p.ScanFSMRead = sum, reads
		} else {
			p.Search, p.SearchFSMRead = sum, reads
		}
	}
	return p, nil
}

// FSMSearchSizes are the heap sizes of the search comparison: one leaf
// page's worth, then 100 000 pages (781 MB), 1 000 000 (7.6 GB) and
// 10 000 000 (76 GB); quick: the first three.
var FSMSearchSizes = []uint32{4069, 100_000, 1_000_000, 10_000_000}

// RunFSM runs the fsm experiment.
func RunFSM(o exp.Options) (*FSMResult, error) {
	o.Fill(fsmExperiment)
	return runFSMResult(o)
}

func runFSMResult(o exp.Options) (*FSMResult, error) {
	sizes := FSMSearchSizes
	if o.Quick {
		sizes = sizes[:3]
	}
	prog := harness.NewProgressFunc(o.Progress, "bench fsm", len(FSMSeedCells)+len(sizes), o.OnStep)
	defer prog.Done()
	res := &FSMResult{}
	fills := FSMFillsPerSample
	if o.Quick {
		fills = 1
	}
	for _, cell := range FSMSeedCells {
		prog.Step(fmt.Sprintf("fill ff=%d blocks=%d", cell[0], cell[1]))
		pts, err := MeasureFSMSeed(o, cell[0], cell[1], FSMVariants, FSMSeedTables, o.Config.Samples, fills)
		if err != nil {
			return nil, err
		}
		res.Seed = append(res.Seed, pts...)
	}
	for _, n := range sizes {
		prog.Step(fmt.Sprintf("search %d blocks", n))
		p, err := MeasureFSMSearch(o.Config, n)
		if err != nil {
			return nil, err
		}
		res.Search = append(res.Search, p)
		runtime.GC()
	}
	a, _ := res.Point(20, 4, fsm.Always)
	s, _ := res.Point(20, 4, fsm.SmallSkip)
	res.ReadsAlways4Blocks = float64(a.Counts.Pages())
	res.ReadsSmallSkip4Blocks = float64(s.Counts.Pages())
	if s.Ms.Median > 0 {
		res.SpeedupFF20_4Blocks = a.Ms.Median / s.Ms.Median
	}
	return res, nil
}

func fsmRowName(p FSMSeedPoint) string {
	return fmt.Sprintf("fill %s ff=%d blocks=%d", p.Options.Variant, p.FillFactor, p.Blocks)
}

func runFSM(o exp.Options, r *exp.Report) error {
	res, err := runFSMResult(o)
	if err != nil {
		return err
	}
	nb, _ := bufmgr.ParseSharedBuffers(FSMSeedSharedBuffers)
	for _, p := range res.Seed {
		c := p.Counts
		th := FSMThreadMs[[2]int{p.FillFactor, p.Blocks}]
		quoted := th[0]
		if p.Options.Variant == fsm.SmallSkip {
			quoted = th[1]
		}
		r.Rows = append(r.Rows, exp.Row{Name: fsmRowName(p), SharedBuffers: FSMSeedSharedBuffers, NBuffers: nb,
			Unit: fmt.Sprintf("ms/%d tables", p.Tables), Summary: p.Ms,
			PerOp: map[string]float64{
				"fsm_pages": float64(c.FSMPages), "heap_pages": float64(c.HeapPages), "pages": float64(c.Pages()),
				"fsm_reads": float64(c.FSMReads), "heap_reads": float64(c.HeapReads), "vm_reads": float64(c.VMReads),
				"pages_tried": float64(c.PagesTried), "fsm_blocks": float64(c.FSMBlocks),
			},
			Note: fmt.Sprintf("per table; the thread reported %.1f ms for %s", quoted, map[fsm.Variant]string{fsm.Always: "master", fsm.SmallSkip: "the patch"}[p.Options.Variant])})
	}
	for _, p := range res.Search {
		for _, linear := range []bool{false, true} {
			name, sum, reads := "fsm_search", p.Search, p.SearchFSMRead
			if linear {
				name, sum, reads = "leaf_scan", p.Scan, p.ScanFSMRead
			}
			r.Rows = append(r.Rows, exp.Row{Name: fmt.Sprintf("%s heap_blocks=%d", name, p.HeapBlocks), SharedBuffers: FSMSeedSharedBuffers,
				NBuffers: nb, Unit: "ns/search", Summary: sum,
				PerOp: map[string]float64{"heap_blocks": float64(p.HeapBlocks), "fsm_pages_read": reads}})
		}
	}
	for k, v := range res.Summary() {
		r.Summary[k] = v
	}
	return nil
}

// fsmSeedFromReport rebuilds the seed points of a report (for the table).
func fsmSeedFromReport(r *exp.Report) []FSMSeedPoint {
	var out []FSMSeedPoint
	for _, cell := range FSMSeedCells {
		for _, opt := range FSMVariants {
			p := FSMSeedPoint{FillFactor: cell[0], Blocks: cell[1], Options: opt}
			row, ok := exp.Find(r, fsmRowName(p), FSMSeedSharedBuffers)
			if !ok {
				continue
			}
			p.Ms = row.Summary
			p.Counts = fsm.SeedCounts{FSMPages: int(row.PerOp["fsm_pages"]), HeapPages: int(row.PerOp["heap_pages"]),
				FSMReads: uint64(row.PerOp["fsm_reads"]), HeapReads: uint64(row.PerOp["heap_reads"]), VMReads: uint64(row.PerOp["vm_reads"])}
			out = append(out, p)
		}
	}
	return out
}

func fsmTable(r *exp.Report, w io.Writer) {
	fmt.Fprintf(w, "seed 002: %d tables of one int column, pre-filled with one row and vacuumed, then filled to N blocks from a new session; shared_buffers %s; small-skip built with threshold %d as in the thread\n\n",
		FSMSeedTables, FSMSeedSharedBuffers, FSMSeedThreshold)
	pts := fsmSeedFromReport(r)
	get := func(ff, blocks int, v fsm.Variant) FSMSeedPoint {
		for _, p := range pts {
			if p.FillFactor == ff && p.Blocks == blocks && p.Options.Variant == v {
				return p
			}
		}
		return FSMSeedPoint{}
	}
	tw := exp.NewTable(w)
	fmt.Fprintln(tw, "fillfactor\tblocks\talways ms\tsmall-skip ms\tsmall-skip vs always\tpages/table always\tpages/table small-skip\tbuffer reads always\tbuffer reads small-skip\tthread master ms\tthread patch ms\t")
	for _, cell := range FSMSeedCells {
		a, s := get(cell[0], cell[1], fsm.Always), get(cell[0], cell[1], fsm.SmallSkip)
		th := FSMThreadMs[cell]
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\tsmall-skip %s\t%d FSM + %d heap\t%d FSM + %d heap\t%d\t%d\t%.1f\t%.1f\t\n",
			cell[0], cell[1], exp.Num(a.Ms.Median), exp.Num(s.Ms.Median), pin.Ratio(a.Ms.Median, s.Ms.Median),
			a.Counts.FSMPages, a.Counts.HeapPages, s.Counts.FSMPages, s.Counts.HeapPages,
			a.Counts.Reads(), s.Counts.Reads(), th[0], th[1])
	}
	tw.Flush()
	fmt.Fprintln(w, "pages/table: distinct pages read through shared buffers (the thread's \"3 FSM pages + 4 relation pages\");")
	fmt.Fprintln(w, "buffer reads: every ReadBuffer of the table's forks (FSM, heap, visibility map), as pg_statio_user_tables counts them.")
	fmt.Fprintln(w, "The thread's times are quoted (PostgreSQL on its poster's machine, fsync off), not measured here.")

	fmt.Fprintln(w, "\nfinding the one page with room in a large heap (the last; the map up to date, all other pages full):")
	tw = exp.NewTable(w)
	fmt.Fprintln(tw, "heap blocks\tFSM search ns\tFSM pages read\tleaf scan ns\tleaf pages read\tsearch vs scan\t")
	for _, size := range FSMSearchSizes {
		s, ok1 := exp.Find(r, fmt.Sprintf("fsm_search heap_blocks=%d", size), FSMSeedSharedBuffers)
		l, ok2 := exp.Find(r, fmt.Sprintf("leaf_scan heap_blocks=%d", size), FSMSeedSharedBuffers)
		if !ok1 || !ok2 {
			continue
		}
		fmt.Fprintf(tw, "%d\t%s\t%.0f\t%s\t%.0f\tsearch %s\t\n", size, exp.Num(s.Median), s.PerOp["fsm_pages_read"],
			exp.Num(l.Median), l.PerOp["fsm_pages_read"], exp.Faster(s.Median, l.Median))
	}
	tw.Flush()
}
