package scan

import (
	"fmt"
	"io"

	"bufferlab/engine/aio"
	"bufferlab/engine/bufmgr"
	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/harness"
)

func init() {
	exp.Register(&exp.Experiment{
		Name: "scan",
		Doc: "a cold sequential scan: PostgreSQL 15's one read a block against 17's read stream (io_combine_limit 1 to 32) " +
			"and 18's asynchronous reads (io_method worker, io_uring, sync), the engine's cost per block and the latency " +
			"model's simulated I/O time at 10, 100 and 1000 us a call",
		SummaryKeys: []string{"speedup_stream_over_sync_at_100us", "speedup_aio_over_sync_at_100us", "speedup_aio_over_stream_at_100us",
			"read_calls_sync", "read_calls_stream", "read_calls_aio", "stream_over_sync_native"},
		Measure: runScan,
		Table:   scanTable,
	})
}

// The scanned table and the pool: 160 blocks (the gallery's read-ahead
// scenario and a real 17.9's traced scan) in 128MB, PostgreSQL's default,
// where a PostgreSQL 17 stream may pin 119 buffers (LimitAdditionalPins)
// and so is limited by io_combine_limit alone.
const (
	ScanBlocks   = 160
	ScanNBuffers = 16384
)

// Latencies are the latency model's costs per read call, in simulated
// microseconds (about a page-cache hit, a fast SSD, a network disk); each
// block adds BlockUS (8kB at about 1 GB/s).
var (
	Latencies = []int{10, 100, 1000}
	BlockUS   = 8
)

// Variant is one measured way of reading: a PostgreSQL version and, for
// 17, io_combine_limit in blocks; for 18, the io_method.
type Variant struct {
	Name           string
	Version        int
	IOCombineLimit int
	IOMethod       aio.IOMethod // 18 only
}

// Variants are the measured variants: 15, then 17 at io_combine_limit
// 1, 4, 16 (the default, 128kB) and 32 (its maximum), then 18 at its
// defaults (io_combine_limit 16, effective_io_concurrency 16) with each
// io_method: worker (the default, io_workers = 3), io_uring and sync.
var Variants = []Variant{
	{"pg15 sync", 15, 0, 0},
	{"pg17 stream icl=1", 17, 1, 0},
	{"pg17 stream icl=4", 17, 4, 0},
	{"pg17 stream icl=16", 17, 16, 0},
	{"pg17 stream icl=32", 17, 32, 0},
	{"pg18 aio worker", 18, 16, aio.Worker},
	{"pg18 aio io_uring", 18, 16, aio.IOUring},
	{"pg18 io_method=sync", 18, 16, aio.Sync},
}

// The rows the summary compares.
const (
	rowSync   = "pg15 sync"
	rowStream = "pg17 stream icl=16"
	rowAIO    = "pg18 aio worker"
)

// IOTime is one cold scan's read calls and simulated I/O time under the
// latency model at latencyUS a call and BlockUS a block (deterministic: no
// timing).
//
// At PostgreSQL 18 the engine steps the I/O workers itself while the scan
// waits (unscheduled), in the order of their simulated clocks; the time is
// the backend's clock at the scan's end: the reads it made itself and its
// waits for the workers' (or the kernel's, io_uring), so I/Os in flight
// together overlap.
func IOTime(v Variant, latencyUS int) (calls int, ioUS uint64, err error) {
	p, err := bufmgr.NewPoolWith(ScanNBuffers, nil, options(v, latencyUS))
	if err != nil {
		return 0, 0, err
	}
	b, err := p.NewBackend("bench")
	if err != nil {
		return 0, 0, err
	}
	rel := &bufmgr.Relation{Name: "t", Number: bufmgr.FirstNormalObjectId, Permanent: true}
	rel.NBlocks[bufmgr.MainForkNum] = ScanBlocks
	if err := b.SeqScan(rel); err != nil {
		return 0, 0, err
	}
	for _, r := range p.ReadCalls() {
		calls += r.Count
	}
	return calls, b.Stats.IOTimeUS, nil
}

// scanner runs cold scans of fresh tables (a new relation number each)
// on one pool: an operation is one block read. When the pool is full the
// clock sweep evicts the older tables' pages, the same for every variant.
type scanner struct {
	b    *bufmgr.Backend
	next uint32
}

// options are variant v's pool options with the latency model at
// latencyUS a call (0: none).
func options(v Variant, latencyUS int) bufmgr.Options {
	o := bufmgr.Options{Version: v.Version, IOCombineLimit: v.IOCombineLimit, EffectiveIOConcurrency: -1}
	if latencyUS > 0 {
		o.IOLatencyUS, o.IOBlockUS = latencyUS, BlockUS
	}
	if v.Version >= 18 {
		o.IOMethod = v.IOMethod.String()
	}
	return o
}

func newScanner(v Variant) (*scanner, error) {
	p, err := bufmgr.NewPoolWith(ScanNBuffers, nil, options(v, 0))
	if err != nil {
		return nil, err
	}
	b, err := p.NewBackend("bench")
	if err != nil {
		return nil, err
	}
	return &scanner{b: b, next: bufmgr.FirstNormalObjectId}, nil
}

// run scans ceil(n / ScanBlocks) cold tables.
func (s *scanner) run(n int) error {
	for done := 0; done < n; done += ScanBlocks {
		rel := &bufmgr.Relation{Name: "t", Number: s.next, Permanent: true}
		rel.NBlocks[bufmgr.MainForkNum] = ScanBlocks
		s.next++
		if err := s.b.SeqScan(rel); err != nil {
			return err
		}
	}
	return nil
}

func runScan(o exp.Options, r *exp.Report) error {
	p := harness.NewProgressFunc(o.Progress, "bench scan", len(Variants), o.OnStep)
	defer p.Done()
	var syncNS, streamNS float64
	for _, v := range Variants {
		p.Step(v.Name)
		row := exp.Row{Name: v.Name, Unit: "ns/block", PerOp: map[string]float64{}}
		s, err := newScanner(v)
		if err != nil {
			return err
		}
		if row.Summary, err = harness.MeasureErr(o.Config, s.run); err != nil {
			return fmt.Errorf("scan %s: %w", v.Name, err)
		}
		for _, lat := range Latencies {
			calls, us, err := IOTime(v, lat)
			if err != nil {
				return fmt.Errorf("scan %s at %d us: %w", v.Name, lat, err)
			}
			row.PerOp["read_calls"] = float64(calls)
			row.PerOp[fmt.Sprintf("io_us_at_%dus", lat)] = float64(us)
		}
		row.Note = fmt.Sprintf("%d blocks in %d read calls; simulated I/O: the latency a call + %d us a block", ScanBlocks, int(row.PerOp["read_calls"]), BlockUS)
		if v.Version == 18 && v.IOMethod != aio.Sync {
			row.Note += "; the reads in flight overlapping"
		}
		r.Rows = append(r.Rows, row)
		switch v.Name {
		case rowSync:
			syncNS = row.Median
			r.Summary["read_calls_sync"] = row.PerOp["read_calls"]
		case rowStream:
			streamNS = row.Median
			r.Summary["read_calls_stream"] = row.PerOp["read_calls"]
		case rowAIO:
			r.Summary["read_calls_aio"] = row.PerOp["read_calls"]
		}
	}
	sync := r.Row(rowSync, "")
	stream := r.Row(rowStream, "")
	async := r.Row(rowAIO, "")
	r.Summary["speedup_stream_over_sync_at_100us"] = sync.PerOp["io_us_at_100us"] / stream.PerOp["io_us_at_100us"]
	r.Summary["speedup_aio_over_sync_at_100us"] = sync.PerOp["io_us_at_100us"] / async.PerOp["io_us_at_100us"]
	r.Summary["speedup_aio_over_stream_at_100us"] = stream.PerOp["io_us_at_100us"] / async.PerOp["io_us_at_100us"]
	r.Summary["stream_over_sync_native"] = streamNS / syncNS
	return nil
}

func scanTable(r *exp.Report, w io.Writer) {
	tw := exp.NewTable(w)
	fmt.Fprint(tw, "\tns/block\tread calls\t")
	for _, lat := range Latencies {
		fmt.Fprintf(tw, "I/O at %dus\t", lat)
	}
	fmt.Fprintln(tw)
	for _, row := range r.Rows {
		native := "–"
		if row.Samples > 0 {
			native = exp.Num(row.Median)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t", row.Name, native, int(row.PerOp["read_calls"]))
		for _, lat := range Latencies {
			fmt.Fprintf(tw, "%s us\t", exp.Num(row.PerOp[fmt.Sprintf("io_us_at_%dus", lat)]))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nA cold scan of %d blocks in a %d-buffer pool; simulated I/O: the latency a call plus %d us a block. Up to 17\n"+
		"the backend reads synchronously; 18's reads overlap in the I/O workers or the kernel (io_uring).\n"+
		"At 100 us a call the read stream at io_combine_limit 16 is %s and 18's\n"+
		"asynchronous reads (3 I/O workers) %s than one read a block (%s than 17's stream). In the engine's\n"+
		"own time the stream costs %.2f× one read a block.\n",
		ScanBlocks, ScanNBuffers, BlockUS, exp.Faster(1, r.Summary["speedup_stream_over_sync_at_100us"]),
		exp.Faster(1, r.Summary["speedup_aio_over_sync_at_100us"]), exp.Faster(1, r.Summary["speedup_aio_over_stream_at_100us"]),
		r.Summary["stream_over_sync_native"])
}
