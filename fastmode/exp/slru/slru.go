package slru

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"

	"bufferlab/engine/slru"
	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/exp/limits"
	"bufferlab/fastmode/harness"
)

func init() {
	exp.Register(slruExperiment)
}

var slruExperiment = &exp.Experiment{
	Name: "slru",
	Doc: "SLRU bank lookups (seed 004): read-only status lookups of a present page in banks of 8–256 slots, " +
		"linear search (PG 17) against a hash table (the thread's dynahash attempt), a mixed workload with misses, the crossover bank size",
	SummaryKeys: []string{"crossover_slots", "hash_over_linear_at_16", "linear_over_hash_at_64"},
	Measure:     runSlru,
	Table:       slruTable,
}

// SlruBankSizes are the bank sizes measured: the thread's 8–64 slots and
// two more doublings.
var SlruBankSizes = []int{8, 16, 32, 64, 128, 256}

// SlruBanks is the number of banks of every measured SLRU: 2, what
// transaction_buffers gives at the default shared_buffers (128MB: 32 slots
// in 2 banks of 16).
const SlruBanks = 2

// slruSeqLen is the length of the precomputed page sequence a run cycles
// through (a power of two).
const slruSeqLen = 4096

// SlruSeries names the measured series.
const (
	SlruLinear      = "linear"       // slru=banks: SimpleLruReadPage_ReadOnly's linear search of the bank
	SlruHash        = "hash"         // slru=banks+hash: a dynahash-like table probe
	SlruGoMap       = "gomap"        // slru=banks+hash with a Go map, for comparison
	SlruMixedLinear = "mixed-linear" // the mixed workload on slru=banks
	SlruMixedHash   = "mixed-hash"   // the mixed workload on slru=banks+hash
	SlruChase       = "chase-l1"     // dependent-load latency in L1, the physical reference
)

// SlruBench is one SLRU ready for a timed loop, with one backend and a
// precomputed sequence of pages.
type SlruBench struct {
	SLRU    *slru.SLRU
	Backend *slru.Backend
	Mixed   bool
	pages   []int64
	pos     int
	sum     int
}

// NewSlruBench builds an SLRU of SlruBanks banks of bankSize slots (nil
// log, no scheduler: the fast path) for the variant (slru.Banks, or
// slru.BanksHash with table h).
//
// Read-only (mixed false), as benchmark_slru_page_readonly in the seed:
// every slot holds a page, and each operation is SimpleLruReadPage_ReadOnly
// of a present page, then the bank lock released; the pages come in a
// seeded random order, so a linear search runs over half a bank on average.
//
// Mixed: the working set is a quarter larger than the cache, so about one
// lookup in five misses (SlruSelectLRUPage, a victim, an 8kB read from the
// simulated disk); one operation in eight sets a status (so victims are
// sometimes dirty and written back first); the others are
// TransactionIdGetStatus. The latest page, zeroed first, stays resident.
func NewSlruBench(v slru.Variant, h slru.HashTable, bankSize int, mixed bool, seed uint64) (*SlruBench, error) {
	s, err := slru.New(slru.Config{Variant: v, HashTable: h, Slots: SlruBanks * bankSize, BankSize: bankSize}, nil)
	if err != nil {
		return nil, err
	}
	b, err := s.NewBackend("bench")
	if err != nil {
		return nil, err
	}
	nslots := int64(s.NumSlots())
	working := nslots
	if mixed {
		working = nslots + nslots/4
	}
	s.Disk().FormatPages(0, working)
	sb := &SlruBench{SLRU: s, Backend: b, Mixed: mixed, pages: make([]int64, slruSeqLen)}
	if mixed {
		// The latest page: created by ExtendCLOG, never evicted.
		if err := b.ExtendCLOG(uint32(working) * slru.ClogXactsPerPage); err != nil {
			return nil, err
		}
	} else {
		s.SetLatestPageNumber(working + 1000) // not resident: every slot may hold a lookup's page
	}
	for p := int64(0); p < min(working, nslots); p++ {
		if _, err := b.ReadPageReadOnly(p, 0); err != nil {
			return nil, err
		}
		if err := b.ReleaseBankLock(p); err != nil {
			return nil, err
		}
	}
	if !mixed {
		for p := int64(0); p < nslots; p++ {
			if _, ok := s.Find(p); !ok {
				return nil, fmt.Errorf("slru bench: page %d not resident after filling %d slots", p, nslots)
			}
		}
	}
	r := rand.New(rand.NewPCG(seed, uint64(bankSize)))
	for i := range sb.pages {
		sb.pages[i] = r.Int64N(working)
	}
	b.Stats = slru.Stats{}
	return sb, nil
}

// Run performs n operations.
func (sb *SlruBench) Run(n int) error {
	b, pages, pos, sum := sb.Backend, sb.pages, sb.pos, sb.sum
	if !sb.Mixed {
		for i := 0; i < n; i++ {
			p := pages[pos]
			pos = (pos + 1) & (slruSeqLen - 1)
			slot, err := b.ReadPageReadOnly(p, 0)
			if err != nil {
				return err
			}
			sum += slot
			if err := b.ReleaseBankLock(p); err != nil {
				return err
			}
		}
	} else {
		for i := 0; i < n; i++ {
			p := pages[pos]
			pos = (pos + 1) & (slruSeqLen - 1)
			xid := uint32(p)*slru.ClogXactsPerPage + uint32(pos) + slru.FirstNormalTransactionId
			if i&7 == 7 {
				if err := b.TransactionIdSetStatus(xid, slru.StatusCommitted); err != nil {
					return err
				}
				continue
			}
			st, err := b.TransactionIdGetStatus(xid)
			if err != nil {
				return err
			}
			sum += int(st)
		}
	}
	sb.pos, sb.sum = pos, sum
	limits.Sink.Add(uint64(sum))
	return nil
}

// SlruResult is what the slru experiment measured. The slices run
// parallel to BankSizes; times are nanoseconds per operation.
type SlruResult struct {
	BankSizes                []int
	Linear, Hash, GoMap      []harness.Summary // read-only lookups of a present page
	LinearScanned            []float64         // slots compared per linear lookup
	MixedLinear, MixedHash   []harness.Summary // the mixed workload
	MixedMissRatio           []float64         // misses per mixed operation (slru=banks)
	MixedWritesPerOp         []float64         // pages written per mixed operation (slru=banks)
	ChaseL1                  harness.Summary   // dependent load in L1, ns
	Crossover                float64           // bank size where hash starts to win (see SlruCrossover)
	CrossoverBound           int               // 0: measured between two sizes; -1: at or below the smallest; +1: above the largest
	HashOverLinear16         float64           // hash time / linear time at 16 slots
	LinearOverHash64         float64           // linear time / hash time at 64 slots
	MixedHashOverLinearAt16  float64
	MixedHashOverLinearAt256 float64
}

// SlruCrossover finds where the time ratio hash/linear crosses 1 for the
// last time going up in bank size (from then on the hash table is faster),
// interpolating linearly in log2(size) against log(ratio). bound is -1 if
// the hash is faster at every size (the crossover is at or below the
// smallest, which is returned), +1 if it is never faster at the largest
// (twice the largest is returned: "beyond"), else 0.
func SlruCrossover(sizes []int, ratio []float64) (slots float64, bound int) {
	n := len(sizes)
	if n == 0 || len(ratio) != n {
		return math.NaN(), 0
	}
	if ratio[n-1] >= 1 {
		return float64(2 * sizes[n-1]), 1
	}
	i := n - 1
	for i > 0 && ratio[i-1] < 1 {
		i--
	}
	if i == 0 {
		return float64(sizes[0]), -1
	}
	// ratio[i-1] >= 1 > ratio[i]
	x0, x1 := math.Log2(float64(sizes[i-1])), math.Log2(float64(sizes[i]))
	y0, y1 := math.Log(ratio[i-1]), math.Log(ratio[i])
	x := x0 + (x1-x0)*y0/(y0-y1)
	return math.Exp2(x), 0
}

// SeedSlruRow is one row of the thread's table (seed 004, Dilip Kumar,
// 2023-11-06): seconds of benchmark_slru_page_readonly per nslots, without
// and with the buffer-mapping hash table.
type SeedSlruRow struct {
	Slots          int
	NoHashS, HashS float64
}

// SeedSlruTable is that table, quoted from the seed (not measured here).
var SeedSlruTable = []SeedSlruRow{{8, 10, 13}, {16, 10, 13}, {32, 15, 13}, {64, 17, 13}}

// Seed figures of Andrey Borodin's first run in the same thread:
// benchmark_slru_page_readonly before and after the hash table, seconds.
const (
	SeedSlruBorodinNoHashS = 14.837851
	SeedSlruBorodinHashS   = 22.723243
)

// slruPoint is one measured point: a series at a bank size.
type slruPoint struct {
	series  string
	variant slru.Variant
	h       slru.HashTable
	bank    int
	mixed   bool
	sb      *SlruBench
	medians []float64 // one per round
	batch   int
	ops     uint64
}

// SlruRounds is how many interleaved rounds bench slru measures every point
// in (SlruQuickRounds with --quick): each round measures every series at
// every size once, and a point's figure is the median over the rounds, so
// a noisy moment of the machine spoils one round of a few points rather
// than every sample of one point.
const (
	SlruRounds      = 5
	SlruQuickRounds = 3
)

func (pt *slruPoint) measure(cfg harness.Config) error {
	s, runErr := harness.MeasureErr(cfg, func(n int) error {
		err := pt.sb.Run(n)
		pt.ops += uint64(n)
		return err
	})
	if runErr != nil {
		return fmt.Errorf("slru %s bank %d: %w", pt.series, pt.bank, runErr)
	}
	if st := pt.sb.Backend.Stats; !pt.mixed && st.Reads != 0 {
		return fmt.Errorf("slru %s bank %d: %d misses in a read-only run of present pages", pt.series, pt.bank, st.Reads)
	}
	pt.medians = append(pt.medians, s.Median)
	pt.batch = s.Batch
	return nil
}

func (pt *slruPoint) summary() harness.Summary {
	s := harness.Summarise(pt.medians)
	s.Batch = pt.batch
	return s
}

// RunSlru runs the slru experiment with o (zero fields take the defaults).
func RunSlru(o exp.Options) (*SlruResult, error) {
	o.Fill(slruExperiment)
	return runSlruResult(o)
}

func runSlruResult(o exp.Options) (*SlruResult, error) {
	res := &SlruResult{BankSizes: append([]int(nil), SlruBankSizes...)}
	rounds := SlruRounds
	if o.Quick {
		rounds = SlruQuickRounds
	}
	var points []*slruPoint
	for _, bank := range res.BankSizes {
		for _, d := range []slruPoint{
			{series: SlruLinear, variant: slru.Banks},
			{series: SlruHash, variant: slru.BanksHash},
			{series: SlruGoMap, variant: slru.BanksHash, h: slru.HashGoMap},
			{series: SlruMixedLinear, variant: slru.Banks, mixed: true},
			{series: SlruMixedHash, variant: slru.BanksHash, mixed: true},
		} {
			sb, err := NewSlruBench(d.variant, d.h, bank, d.mixed, 42)
			if err != nil {
				return nil, err
			}
			pt := d
			pt.bank, pt.sb = bank, sb
			points = append(points, &pt)
		}
	}
	p := harness.NewProgressFunc(o.Progress, "bench slru", rounds*len(points)+1, o.OnStep)
	defer p.Done()
	cfg := o.Config
	cfg.Samples = max(3, cfg.Samples/rounds)
	for r := 0; r < rounds; r++ {
		if r > 0 {
			cfg.Warmup = 0 // warm already: only the batch sizing runs again
		}
		for _, pt := range points {
			p.Step(fmt.Sprintf("round %d/%d: %s, bank of %d", r+1, rounds, pt.series, pt.bank))
			if err := pt.measure(cfg); err != nil {
				return nil, err
			}
		}
	}
	p.Step("dependent load (L1)")
	chase := limits.NewChase(64, 1)
	var at uint64
	res.ChaseL1 = harness.Measure(o.Config, func(n int) { at = limits.Chase(chase, at, n) })
	limits.Sink.Add(at)

	for _, pt := range points {
		s, st := pt.summary(), pt.sb.Backend.Stats
		per := func(x uint64) float64 { return float64(x) / float64(max(pt.ops, 1)) }
		switch pt.series {
		case SlruLinear:
			res.Linear = append(res.Linear, s)
			res.LinearScanned = append(res.LinearScanned, per(st.SlotsScanned))
		case SlruHash:
			res.Hash = append(res.Hash, s)
		case SlruGoMap:
			res.GoMap = append(res.GoMap, s)
		case SlruMixedLinear:
			res.MixedLinear = append(res.MixedLinear, s)
			res.MixedMissRatio = append(res.MixedMissRatio, per(st.Reads))
			res.MixedWritesPerOp = append(res.MixedWritesPerOp, per(st.Writes))
		case SlruMixedHash:
			res.MixedHash = append(res.MixedHash, s)
		}
	}
	ratio := make([]float64, len(res.BankSizes))
	for i := range ratio {
		ratio[i] = res.Hash[i].Median / res.Linear[i].Median
	}
	res.Crossover, res.CrossoverBound = SlruCrossover(res.BankSizes, ratio)
	if i := slruIndexOf(res.BankSizes, 16); i >= 0 {
		res.HashOverLinear16 = ratio[i]
		res.MixedHashOverLinearAt16 = res.MixedHash[i].Median / res.MixedLinear[i].Median
	}
	if i := slruIndexOf(res.BankSizes, 64); i >= 0 {
		res.LinearOverHash64 = 1 / ratio[i]
	}
	if i := slruIndexOf(res.BankSizes, 256); i >= 0 {
		res.MixedHashOverLinearAt256 = res.MixedHash[i].Median / res.MixedLinear[i].Median
	}
	return res, nil
}

func slruIndexOf(xs []int, v int) int {
	for i, x := range xs {
		if x == v {
			return i
		}
	}
	return -1
}

// Summary is the report's summary: the experiment's keys and a few more.
func (res *SlruResult) Summary() map[string]float64 {
	m := map[string]float64{
		"crossover_slots":                 res.Crossover,
		"crossover_bound":                 float64(res.CrossoverBound),
		"hash_over_linear_at_16":          res.HashOverLinear16,
		"linear_over_hash_at_64":          res.LinearOverHash64,
		"mixed_hash_over_linear_at_16":    res.MixedHashOverLinearAt16,
		"mixed_hash_over_linear_at_256":   res.MixedHashOverLinearAt256,
		"chase_l1_ns":                     res.ChaseL1.Median,
		"seed_hash_over_linear_at_16":     13.0 / 10.0,
		"seed_linear_over_hash_at_64":     17.0 / 13.0,
		"seed_borodin_hash_over_no_hash":  SeedSlruBorodinHashS / SeedSlruBorodinNoHashS,
		"seed_crossover_between_slots_lo": 16,
		"seed_crossover_between_slots_hi": 32,
	}
	for i, n := range res.BankSizes {
		k := strconv.Itoa(n)
		m["linear_ns_"+k] = res.Linear[i].Median
		m["hash_ns_"+k] = res.Hash[i].Median
		m["gomap_ns_"+k] = res.GoMap[i].Median
	}
	return m
}

// Rows returns the result as report rows: one per series and bank size
// (PerOp["bank_slots"] carries the size; see SlruPoints), then the L1
// dependent load.
func (res *SlruResult) Rows() []exp.Row {
	var rows []exp.Row
	add := func(name, unit string, s harness.Summary, bank int, extra map[string]float64, note string) {
		per := map[string]float64{"bank_slots": float64(bank)}
		for k, v := range extra {
			per[k] = v
		}
		rows = append(rows, exp.Row{Name: name, Unit: unit, Summary: s, PerOp: per, Note: note})
	}
	for i, n := range res.BankSizes {
		add(SlruLinear, "ns/lookup", res.Linear[i], n, map[string]float64{"slots_compared": res.LinearScanned[i]},
			fmt.Sprintf("SimpleLruReadPage_ReadOnly + release, %d banks of %d, page present", SlruBanks, n))
		add(SlruHash, "ns/lookup", res.Hash[i], n, map[string]float64{"probes": 1}, "dynahash-like table")
		add(SlruGoMap, "ns/lookup", res.GoMap[i], n, map[string]float64{"probes": 1}, "Go map")
	}
	for i, n := range res.BankSizes {
		add(SlruMixedLinear, "ns/op", res.MixedLinear[i], n,
			map[string]float64{"miss_ratio": res.MixedMissRatio[i], "writes": res.MixedWritesPerOp[i]},
			"7/8 TransactionIdGetStatus, 1/8 set, working set 5/4 of the cache")
		add(SlruMixedHash, "ns/op", res.MixedHash[i], n, nil, "")
	}
	rows = append(rows, exp.Row{Name: SlruChase, Unit: "ns/load", Summary: res.ChaseL1, Note: "dependent load over 4kB (L1)"})
	return rows
}

// SlruPoints returns the bank sizes and median times of one series of an
// slru report (for a chart: time per lookup against bank size).
func SlruPoints(r *exp.Report, name string) (slots []int, ns []float64) {
	for _, row := range r.Rows {
		if row.Name == name && row.PerOp["bank_slots"] > 0 {
			slots = append(slots, int(row.PerOp["bank_slots"]))
			ns = append(ns, row.Median)
		}
	}
	return slots, ns
}

func runSlru(o exp.Options, r *exp.Report) error {
	res, err := runSlruResult(o)
	if err != nil {
		return err
	}
	r.Rows = res.Rows()
	for k, v := range res.Summary() {
		r.Summary[k] = v
	}
	return nil
}

func slruTable(r *exp.Report, w io.Writer) {
	fmt.Fprintf(w, "read-only status lookups of a present page (benchmark_slru_page_readonly): SimpleLruReadPage_ReadOnly + LWLockRelease,\n%d banks, pages in random order; linear = PG 17's search of the bank, hash = the thread's table (dynahash-like), gomap = a Go map\n\n", SlruBanks)
	tw := exp.NewTable(w)
	fmt.Fprintln(tw, "bank slots\tlinear ns\thash ns\tgomap ns\tlinear Mlookups/s\thash Mlookups/s\thash/linear time\twinner\tslots compared\t")
	lin, _ := slruSeries(r, SlruLinear)
	hash, _ := slruSeries(r, SlruHash)
	gm, _ := slruSeries(r, SlruGoMap)
	for i, row := range lin {
		n := int(row.PerOp["bank_slots"])
		h, g := hash[i], gm[i]
		win := "linear " + exp.Faster(row.Median, h.Median)
		if h.Median < row.Median {
			win = "hash " + exp.Faster(h.Median, row.Median)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%.2f\t%s\t%.1f\t\n", n, exp.Num(row.Median), exp.Num(h.Median), exp.Num(g.Median),
			exp.Num(1e3/row.Median), exp.Num(1e3/h.Median), h.Median/row.Median, win, row.PerOp["slots_compared"])
	}
	tw.Flush()
	cross := r.Summary["crossover_slots"]
	switch int(r.Summary["crossover_bound"]) {
	case -1:
		fmt.Fprintf(w, "\ncrossover: the hash table is faster at every size measured (at or below %s slots)\n", exp.Num(cross))
	case 1:
		fmt.Fprintf(w, "\ncrossover: the hash table is not faster even at %d slots (beyond the sizes measured)\n", int(cross/2))
	default:
		fmt.Fprintf(w, "\ncrossover: the hash table becomes faster at about %s slots per bank on this machine; the seed thread found it between 16 and 32\n", exp.Num(cross))
	}
	fmt.Fprintln(w)
	tw = exp.NewTable(w)
	fmt.Fprintln(tw, "bank slots\tmixed linear ns/op\tmixed hash ns/op\thash/linear time\tmisses/op\tpages written/op\t")
	ml, _ := slruSeries(r, SlruMixedLinear)
	mh, _ := slruSeries(r, SlruMixedHash)
	for i, row := range ml {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%.2f\t%.3f\t%.3f\t\n", int(row.PerOp["bank_slots"]), exp.Num(row.Median), exp.Num(mh[i].Median),
			mh[i].Median/row.Median, row.PerOp["miss_ratio"], row.PerOp["writes"])
	}
	tw.Flush()
	fmt.Fprintf(w, "mixed: 7/8 TransactionIdGetStatus, 1/8 TransactionIdSetStatus, uniform over a working set 5/4 of the cache: misses read 8kB from the simulated disk\n")
	if c, ok := slruSeries(r, SlruChase); ok && len(c) > 0 {
		fmt.Fprintf(w, "\nphysical reference: a dependent load in L1 takes %s ns\n", exp.Num(c[0].Median))
	}
	fmt.Fprintf(w, "\n---- reported in the thread (seed 004, not measured here) ----\n")
	fmt.Fprintf(w, "benchmark_slru_page_readonly, seconds (Dilip Kumar, 2023-11-06); Andrey Borodin's first run: %.1f s without, %.1f s with the hash table\n",
		SeedSlruBorodinNoHashS, SeedSlruBorodinHashS)
	tw = exp.NewTable(w)
	fmt.Fprintln(tw, "nslots\tno hash s\thash s\thash/no-hash time\t")
	for _, row := range SeedSlruTable {
		fmt.Fprintf(tw, "%d\t%g\t%g\t%.2f\t\n", row.Slots, row.NoHashS, row.HashS, row.HashS/row.NoHashS)
	}
	tw.Flush()
}

// slruSeries returns the rows of one series, in bank-size order.
func slruSeries(r *exp.Report, name string) ([]exp.Row, bool) {
	var out []exp.Row
	for _, row := range r.Rows {
		if row.Name == name {
			out = append(out, row)
		}
	}
	return out, len(out) > 0
}
