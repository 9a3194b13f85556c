package pin

import (
	_ "embed"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/exp/limits"
	"bufferlab/fastmode/harness"
	"bufferlab/fastmode/timer"
)

func init() {
	exp.Register(&exp.Experiment{
		Name:         "pin",
		Doc:          "a native pgbench -S-like pin/unpin loop on real goroutines: atomic state word (9.6+) against a per-descriptor spinlock (pre-9.6), throughput by worker count",
		TakesWorkers: true,
		SummaryKeys:  []string{"atomic_ns_uncontended", "spinlock_ns_uncontended", "speedup_at_max_workers"},
		Measure:      runPin,
		Table:        pinTable,
	})
}

// State word layout (buf_internals.h, 9.6–18).
const (
	BufRefcountOne   = 1
	BufRefcountMask  = 1<<18 - 1
	BufUsagecountOne = 1 << 18
	BufUsagecountMsk = 0x003C0000
	BufUsagecountSh  = 18
	BMMaxUsageCount  = 5
	BMLocked         = 1 << 22
	BMValid          = 1 << 24
	BMTagValid       = 1 << 25
)

// PinVariant selects how pin and unpin change the shared descriptor.
type PinVariant int

const (
	// PinAtomic is 9.6+: CAS loops on the packed uint32 state word,
	// waiting out BM_LOCKED.
	PinAtomic PinVariant = iota
	// PinSpinlock is pre-9.6: every pin and unpin takes the descriptor's
	// header spinlock and changes plain refcount and usage fields.
	PinSpinlock
)

// PinVariants lists the variants in report order.
var PinVariants = []PinVariant{PinAtomic, PinSpinlock}

func (v PinVariant) String() string {
	if v == PinSpinlock {
		return "spinlock"
	}
	return "atomic"
}

// PinPartitions is the number of mapping partitions (NUM_BUFFER_PARTITIONS).
const PinPartitions = 128

// PinHotBuffers is the default number of pre-loaded hot blocks.
const PinHotBuffers = 1024

// PinPageBytes is the size of each buffer's page.
const PinPageBytes = 8192

// SpinsPerDelay is how many failed tries a spinner makes before it yields
// (s_lock.c's spins_per_delay starts at 100; PostgreSQL then sleeps, here
// runtime.Gosched stands for the sleep).
const SpinsPerDelay = 100

// PinDesc is one shared buffer descriptor padded to 64 bytes, as
// PostgreSQL's BufferDescPadded. State is used by the atomic variant; Lock,
// Refcount and Usage by the spinlock variant.
type PinDesc struct {
	State    atomic.Uint32 // refcount 0–17, usage 18–21, flags 22–31
	Lock     atomic.Uint32 // slock_t buf_hdr_lock (pre-9.6)
	Refcount uint32        // pre-9.6, under Lock
	Usage    uint32        // pre-9.6, under Lock
	ID       int32
	Tag      PinTag
	_        [64 - 4*5 - 8]byte
}

// PinTag names a block (a reduced BufferTag: relation and block number).
type PinTag struct {
	Rel   uint32
	Block uint32
}

func (t PinTag) hash() uint32 {
	h := uint64(t.Rel)<<32 | uint64(t.Block)
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return uint32(h)
}

// pinPartition is one BufMappingLock partition: read-locked for lookups.
type pinPartition struct {
	mu sync.RWMutex
	m  map[PinTag]int32
	_  [64]byte // keep neighbouring partitions' locks off one cache line
}

// PinPool is the shared state of the native pin loop.
type PinPool struct {
	Descs []PinDesc
	parts [PinPartitions]pinPartition
	pages []byte // nhot pages of PinPageBytes
	hot   []PinTag
}

// NewPinPool builds a pool of nhot buffers, each holding one block of one
// relation, mapped in the partitioned table and marked valid.
func NewPinPool(nhot int) *PinPool {
	p := &PinPool{Descs: make([]PinDesc, nhot), pages: make([]byte, nhot*PinPageBytes), hot: make([]PinTag, nhot)}
	for i := range p.parts {
		p.parts[i].m = map[PinTag]int32{}
	}
	for i := range p.Descs {
		tag := PinTag{Rel: 16384, Block: uint32(i)}
		d := &p.Descs[i]
		d.ID, d.Tag = int32(i), tag
		d.State.Store(BMValid | BMTagValid)
		p.hot[i] = tag
		p.parts[tag.hash()%PinPartitions].m[tag] = int32(i)
		pg := p.pages[i*PinPageBytes : (i+1)*PinPageBytes]
		for j := 0; j < len(pg); j += 64 {
			pg[j] = byte(i + j)
		}
	}
	return p
}

// lookup finds tag's buffer under its partition lock held shared.
func (p *PinPool) lookup(tag PinTag) int32 {
	part := &p.parts[tag.hash()%PinPartitions]
	part.mu.RLock()
	id, ok := part.m[tag]
	part.mu.RUnlock()
	if !ok {
		return -1
	}
	return id
}

// PinStats counts one worker's events.
type PinStats struct {
	Ops         uint64 // pin+unpin pairs
	CASFailures uint64 // atomic: failed compare-and-swaps on the state word
	LockedWaits uint64 // atomic: re-reads while BM_LOCKED was set
	Spins       uint64 // spinlock: failed tries to take the header lock
	Delays      uint64 // both: spin delays (a yield every SpinsPerDelay spins)
}

func (s *PinStats) add(o PinStats) {
	s.Ops += o.Ops
	s.CASFailures += o.CASFailures
	s.LockedWaits += o.LockedWaits
	s.Spins += o.Spins
	s.Delays += o.Delays
}

// spinDelay is perform_spin_delay's model: every SpinsPerDelay spins yield.
type spinDelay struct{ n int }

func (d *spinDelay) spin(st *PinStats) {
	if d.n++; d.n >= SpinsPerDelay {
		d.n = 0
		st.Delays++
		runtime.Gosched()
	}
}

// PinWorker is one client: a private PCG and its counts.
type PinWorker struct {
	Pool    *PinPool
	Variant PinVariant
	Stats   PinStats
	rng     *rand.PCG
	sink    uint64
}

// NewWorker returns a worker whose block choices come from a PCG seeded
// with seed.
func (p *PinPool) NewWorker(v PinVariant, seed uint64) *PinWorker {
	return &PinWorker{Pool: p, Variant: v, rng: rand.NewPCG(seed, 0x9e3779b97f4a7c15)}
}

// Run performs n iterations: pick a hot block, look it up (shared
// partition lock), pin, read a few bytes of its page, unpin.
func (w *PinWorker) Run(n int) {
	p, st, atomicV := w.Pool, &w.Stats, w.Variant == PinAtomic
	nh := uint64(len(p.hot))
	var x uint64
	for i := 0; i < n; i++ {
		tag := p.hot[(w.rng.Uint64()>>32)*nh>>32]
		id := p.lookup(tag)
		if id < 0 {
			panic(fmt.Sprintf("pin: block %v not mapped", tag))
		}
		d := &p.Descs[id]
		if atomicV {
			pinAtomic(d, st)
		} else {
			pinSpinlock(d, st)
		}
		pg := p.pages[int(id)*PinPageBytes:]
		x += uint64(pg[0]) + uint64(pg[4096])<<8 + uint64(pg[8128])<<16
		if atomicV {
			unpinAtomic(d, st)
		} else {
			unpinSpinlock(d, st)
		}
	}
	st.Ops += uint64(n)
	w.sink += x
}

// waitUnlocked is WaitBufHdrUnlocked: re-read until BM_LOCKED is clear.
func waitUnlocked(d *PinDesc, st *PinStats) uint32 {
	var sd spinDelay
	s := d.State.Load()
	for s&BMLocked != 0 {
		st.LockedWaits++
		sd.spin(st)
		s = d.State.Load()
	}
	return s
}

// pinAtomic is PinBuffer's CAS loop (default strategy, first pin by this
// backend): refcount+1, usage+1 below BM_MAX_USAGE_COUNT.
func pinAtomic(d *PinDesc, st *PinStats) {
	old := d.State.Load()
	for {
		if old&BMLocked != 0 {
			old = waitUnlocked(d, st)
		}
		s := old + BufRefcountOne
		if (s&BufUsagecountMsk)>>BufUsagecountSh < BMMaxUsageCount {
			s += BufUsagecountOne
		}
		if d.State.CompareAndSwap(old, s) {
			return
		}
		st.CASFailures++
		old = d.State.Load()
	}
}

// unpinAtomic is UnpinBuffer's CAS loop: refcount−1.
func unpinAtomic(d *PinDesc, st *PinStats) {
	old := d.State.Load()
	for {
		if old&BMLocked != 0 {
			old = waitUnlocked(d, st)
		}
		if d.State.CompareAndSwap(old, old-BufRefcountOne) {
			return
		}
		st.CASFailures++
		old = d.State.Load()
	}
}

// LockBufHdr sets BM_LOCKED (fetch_or until the old word lacked it) and
// returns the word without it.
func LockBufHdr(d *PinDesc, st *PinStats) uint32 {
	var sd spinDelay
	for {
		old := d.State.Or(BMLocked)
		if old&BMLocked == 0 {
			return old
		}
		st.LockedWaits++
		sd.spin(st)
	}
}

// UnlockBufHdr stores s with BM_LOCKED clear.
func UnlockBufHdr(d *PinDesc, s uint32) { d.State.Store(s &^ BMLocked) }

// lockSpin takes the pre-9.6 header spinlock (TAS in a spin loop).
func lockSpin(d *PinDesc, st *PinStats) {
	var sd spinDelay
	for !d.Lock.CompareAndSwap(0, 1) {
		st.Spins++
		sd.spin(st)
	}
}

func pinSpinlock(d *PinDesc, st *PinStats) {
	lockSpin(d, st)
	d.Refcount++
	if d.Usage < BMMaxUsageCount {
		d.Usage++
	}
	d.Lock.Store(0)
}

func unpinSpinlock(d *PinDesc, st *PinStats) {
	lockSpin(d, st)
	d.Refcount--
	d.Lock.Store(0)
}

// Check reports an error unless every buffer is unpinned, unlocked and
// has a usage count of at most BM_MAX_USAGE_COUNT (call with no worker
// running).
func (p *PinPool) Check() error {
	for i := range p.Descs {
		d := &p.Descs[i]
		s := d.State.Load()
		switch {
		case s&BufRefcountMask != 0:
			return fmt.Errorf("buffer %d: refcount %d after the run", i, s&BufRefcountMask)
		case (s&BufUsagecountMsk)>>BufUsagecountSh > BMMaxUsageCount:
			return fmt.Errorf("buffer %d: usage count %d > %d", i, (s&BufUsagecountMsk)>>BufUsagecountSh, BMMaxUsageCount)
		case s&BMLocked != 0:
			return fmt.Errorf("buffer %d: BM_LOCKED left set", i)
		case s&BMValid == 0:
			return fmt.Errorf("buffer %d: BM_VALID lost", i)
		case d.Lock.Load() != 0:
			return fmt.Errorf("buffer %d: header spinlock left held", i)
		case d.Refcount != 0:
			return fmt.Errorf("buffer %d: refcount %d after the run", i, d.Refcount)
		case d.Usage > BMMaxUsageCount:
			return fmt.Errorf("buffer %d: usage count %d > %d", i, d.Usage, BMMaxUsageCount)
		}
	}
	return nil
}

// Usage returns buffer i's usage count for variant v.
func (p *PinPool) Usage(v PinVariant, i int) uint32 {
	if v == PinSpinlock {
		return p.Descs[i].Usage
	}
	return (p.Descs[i].State.Load() & BufUsagecountMsk) >> BufUsagecountSh
}

// RunWorkers runs workers goroutines of variant v, each performing n
// iterations, released together; it returns the nanoseconds from the
// release until the last finished (by clock) and the summed counts.
func (p *PinPool) RunWorkers(v PinVariant, workers, n int, seed uint64, clock *timer.Clock) (float64, PinStats) {
	ws := make([]*PinWorker, workers)
	for i := range ws {
		ws[i] = p.NewWorker(v, seed+uint64(i)*0x632be59bd9b4e019)
	}
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	ready.Add(workers)
	done.Add(workers)
	for _, w := range ws {
		go func() {
			defer done.Done()
			ready.Done()
			<-start
			w.Run(n)
		}()
	}
	ready.Wait()
	t0 := clock.Now()
	close(start)
	done.Wait()
	ns := clock.Nanos(clock.Now() - t0)
	var st PinStats
	var x uint64
	for _, w := range ws {
		st.add(w.Stats)
		x += w.sink
	}
	limits.Sink.Add(x)
	return ns, st
}

// PinWorkerCounts returns 1, 2, 4, … up to max, with max itself last.
func PinWorkerCounts(max int) []int {
	var c []int
	for w := 1; w < max; w *= 2 {
		c = append(c, w)
	}
	return append(c, max)
}

// MaxPinWorkers is the largest --workers accepted.
const MaxPinWorkers = 1024

func runPin(o exp.Options, r *exp.Report) error {
	maxW := o.Workers
	if maxW == 0 {
		maxW = 2 * runtime.GOMAXPROCS(0)
		if o.Quick {
			maxW = 4
		}
	}
	if maxW < 1 || maxW > MaxPinWorkers {
		return fmt.Errorf("workers %d out of range 1..%d", maxW, MaxPinWorkers)
	}
	counts := PinWorkerCounts(maxW)
	samples := max(1, min(o.Config.Samples, 7))
	targetNs := 100e6
	if o.Quick {
		targetNs = 15e6
	}
	prog := harness.NewProgressFunc(o.Progress, "bench pin", len(counts)*len(PinVariants), o.OnStep)
	defer prog.Done()
	pool := NewPinPool(PinHotBuffers)
	for _, w := range counts {
		for _, v := range PinVariants {
			prog.Step(fmt.Sprintf("pin %s workers=%d", v, w))
			// Size the per-worker op count so that one sample lasts about targetNs.
			n := 1000
			for {
				ns, _ := pool.RunWorkers(v, w, n, 1, o.Clock)
				if ns >= targetNs/4 || n >= 1<<30 {
					n = int(min(float64(1<<30), max(1000, float64(n)*targetNs/max(ns, 1))))
					break
				}
				n *= 8
			}
			tput := make([]float64, samples)
			var tot PinStats
			for i := range tput {
				ns, st := pool.RunWorkers(v, w, n, uint64(i+2), o.Clock)
				if err := pool.Check(); err != nil {
					return fmt.Errorf("%s, %d workers: %w", v, w, err)
				}
				tput[i] = float64(st.Ops) / ns * 1e9
				tot.add(st)
			}
			sum := harness.Summarise(tput)
			sum.Batch = n * w
			ops := float64(tot.Ops)
			row := exp.Row{Name: v.String(), Workers: w, Unit: "ops/s", Summary: sum}
			if v == PinAtomic {
				row.PerOp = map[string]float64{"cas_failures": float64(tot.CASFailures) / ops, "locked_waits": float64(tot.LockedWaits) / ops, "spin_delays": float64(tot.Delays) / ops}
			} else {
				row.PerOp = map[string]float64{"spins": float64(tot.Spins) / ops, "spin_delays": float64(tot.Delays) / ops}
			}
			r.Rows = append(r.Rows, row)
		}
	}
	a1, _ := findPin(r, PinAtomic, 1)
	s1, _ := findPin(r, PinSpinlock, 1)
	am, _ := findPin(r, PinAtomic, maxW)
	sm, _ := findPin(r, PinSpinlock, maxW)
	r.Summary["atomic_ns_uncontended"] = 1e9 / a1.Median
	r.Summary["spinlock_ns_uncontended"] = 1e9 / s1.Median
	r.Summary["speedup_at_max_workers"] = am.Median / sm.Median
	return nil
}

func findPin(r *exp.Report, v PinVariant, workers int) (exp.Row, bool) {
	for _, row := range r.Rows {
		if row.Name == v.String() && row.Workers == workers {
			return row, true
		}
	}
	return exp.Row{}, false
}

// PinWorkers lists the worker counts of a pin report, in order.
func PinWorkers(r *exp.Report) []int {
	var ws []int
	seen := map[int]bool{}
	for _, row := range r.Rows {
		if row.Workers > 0 && !seen[row.Workers] {
			seen[row.Workers] = true
			ws = append(ws, row.Workers)
		}
	}
	sort.Ints(ws)
	return ws
}

// Ratio writes how a compares with b as throughputs (higher is better):
// "×N faster" or "×N slower", never a percentage.
func Ratio(a, b float64) string {
	if !(a > 0) || !(b > 0) {
		return "-"
	}
	if a >= b {
		return "×" + strconv.FormatFloat(a/b, 'f', 2, 64) + " faster"
	}
	return "×" + strconv.FormatFloat(b/a, 'f', 2, 64) + " slower"
}

func mops(v float64) string { return exp.Num(v / 1e6) }

func pinTable(r *exp.Report, w io.Writer) {
	fmt.Fprintf(w, "native pgbench -S-like loop: %d hot blocks, %d mapping partitions (RWMutex, shared), 64-byte descriptors; each op = lookup, pin, read page bytes, unpin\n\n", PinHotBuffers, PinPartitions)
	tw := exp.NewTable(w)
	fmt.Fprintln(tw, "workers\tatomic Mops/s\tspinlock Mops/s\tatomic vs spinlock\tatomic CAS fail/op\tatomic delays/op\tspinlock spins/op\tspinlock delays/op\t")
	for _, n := range PinWorkers(r) {
		a, _ := findPin(r, PinAtomic, n)
		s, _ := findPin(r, PinSpinlock, n)
		fmt.Fprintf(tw, "%d\t%s\t%s\tatomic %s\t%s\t%s\t%s\t%s\t\n", n, mops(a.Median), mops(s.Median), Ratio(a.Median, s.Median),
			fix(a.PerOp["cas_failures"]), fix(a.PerOp["spin_delays"]), fix(s.PerOp["spins"]), fix(s.PerOp["spin_delays"]))
	}
	tw.Flush()
	if r.Machine.CPUs < 16 {
		fmt.Fprintf(w, "\nnote: this machine has %d CPUs (fewer than 16): the contention of 64 and 128 clients on a large machine cannot be reproduced here; goroutines beyond the CPUs take turns rather than contend.\n", r.Machine.CPUs)
	}
	th := PinThread()
	fmt.Fprintf(w, "\n---- reported in the thread (not measured here) ----\n")
	fmt.Fprintf(w, "%s (seed 003, pgsql-hackers, %s)\n", th.Subject, th.Author)
	fmt.Fprintf(w, "test: %s\n", th.Command)
	fmt.Fprintf(w, "pgbench tps on the poster's machine; every row runs the atomic pin/unpin patch (no spinlock baseline in these figures), so they are not comparable with the ops/s above.\n")
	tw = exp.NewTable(w)
	fmt.Fprintf(tw, "patch\t%d clients tps\t%d clients tps\t\n", th.Clients[0], th.Clients[1])
	for _, row := range th.Rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t\n", row.Patch, row.TPS[0], row.TPS[1])
	}
	tw.Flush()
}

func fix(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }

//go:embed seed003_pin_thread.txt
var pinThreadText string

// PinThreadRow is one row of the seed thread's table.
type PinThreadRow struct {
	Patch string
	TPS   [2]int
}

// PinThreadData is what the seed 003 thread reports.
type PinThreadData struct {
	Subject string
	Author  string
	Command string
	Clients [2]int
	Rows    []PinThreadRow
}

// PinThread parses the embedded copy of seed 003 (the pgsql-hackers
// thread "Move PinBuffer and UnpinBuffer to atomics"): the last
// unquoted "Client_Count/Patch_ver 64 128" table, the pgbench command and
// the subject.
func PinThread() PinThreadData { return ParsePinThread(pinThreadText) }

// ParsePinThread parses a copy of the seed 003 thread.
func ParsePinThread(text string) PinThreadData {
	var d PinThreadData
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	if len(lines) > 0 {
		d.Subject = strings.TrimSpace(lines[0])
	}
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(strings.TrimLeft(lines[i], "> "))
		if d.Command == "" && strings.HasPrefix(l, "pgbench ") {
			d.Command = l
			if i+1 < len(lines) {
				if n := strings.TrimSpace(strings.TrimLeft(lines[i+1], "> ")); strings.HasPrefix(n, "(") {
					d.Command += " " + n
				}
			}
		}
		if strings.HasPrefix(lines[i], ">") {
			continue
		}
		f := strings.Fields(lines[i])
		if len(f) == 3 && f[0] == "Client_Count/Patch_ver" {
			c0, e0 := strconv.Atoi(f[1])
			c1, e1 := strconv.Atoi(f[2])
			if e0 != nil || e1 != nil {
				continue
			}
			d.Clients = [2]int{c0, c1}
			d.Rows = nil
			for j := i + 1; j < len(lines); j++ {
				g := strings.Fields(lines[j])
				if len(g) != 3 {
					break
				}
				t0, e0 := strconv.Atoi(g[1])
				t1, e1 := strconv.Atoi(g[2])
				if e0 != nil || e1 != nil {
					break
				}
				d.Rows = append(d.Rows, PinThreadRow{Patch: g[0], TPS: [2]int{t0, t1}})
			}
		}
	}
	// The signature of the (unquoted) message that carries the table.
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], "With Regards,") && i+1 < len(lines) {
			d.Author = strings.TrimSuffix(strings.TrimSpace(lines[i+1]), ".")
			break
		}
	}
	return d
}
