package scenario

import (
	"fmt"
	"strconv"
	"strings"

	"bufferlab/engine/aio"
	"bufferlab/engine/bufmgr"
	"bufferlab/engine/readstream"
	"bufferlab/engine/trace"
)

// The PostgreSQL version whose read path the pool runs (config pg=15,
// 16, 17, 18, or several side by side: pg=15,18), its read stream
// settings (17 and 18) and I/O method (18). The state word, the clock
// sweep, the freelist and the PinBuffer CAS loop are the same in every
// version; what differs is BufferAlloc (16: one mapping partition lock at
// a time), the read (17: StartReadBuffers, WaitReadBuffers and read
// streams that combine consecutive blocks into one smgrreadv; 18: the
// same reads made asynchronously, by I/O workers with io_method=worker)
// and the rings. See engine/bufmgr's alloc16.go, read17.go and read18.go.

// PGVersion is a PostgreSQL major version BufferLab models (config pg=).
type PGVersion int

func (v PGVersion) String() string { return strconv.Itoa(int(v)) }

// ParsePGVersion reads "15", "16", "17" or "18".
func ParsePGVersion(s string) (PGVersion, bool) {
	n, err := strconv.Atoi(s)
	if err != nil || n < bufmgr.MinVersion || n > bufmgr.MaxVersion || strconv.Itoa(n) != s {
		return 0, false
	}
	return PGVersion(n), true
}

var pgMechanism = Mechanism{
	Name: "pg", Title: "the PostgreSQL version's read path", Owner: trace.MPool,
	Keys: []Key{
		variantsKey("pg", "the PostgreSQL version whose buffer read path runs (15 by default); several in pane order run side by side",
			"15, 16, 17 or 18, or several in pane order (15,18)", []VariantInfo{
				{"15", "PostgreSQL 15: one read call a block", "PostgreSQL 15"},
				{"16", "PostgreSQL 16: one partition lock at a time", "PostgreSQL 16"},
				{"17", "PostgreSQL 17: read streams, reads combined", "PostgreSQL 17"},
				{"18", "PostgreSQL 18: asynchronous reads", "PostgreSQL 18"},
			}, ParsePGVersion, func(st *ConfigStmt, v PGVersion) { st.PG = v }),
		{Name: "io_method", Values: "worker|io_uring|sync", Doc: "PostgreSQL 18's io_method: worker (the default: I/O workers read), io_uring (the kernel reads) or sync (the backend reads)",
			parse: func(p *parser, st *ConfigStmt, t token, v string) error {
				if _, ok := aio.ParseIOMethod(v); !ok {
					return p.errf(t.Pos, "io_method: expected worker, io_uring or sync, found %q", v)
				}
				st.IOMethod, st.IOMethodPos = v, t.Pos
				return nil
			}},
		countKey("io_workers", "PostgreSQL 18's io_workers with io_method=worker (1 to 32; 3 by default)", aio.MaxIOWorkers,
			func(st *ConfigStmt, n int, pos Pos) { st.IOWorkers, st.IOMethodPos = n, pos }),
		{Name: "io_combine_limit", Values: "N|SIZE", Doc: "PostgreSQL 17's largest read, in blocks (1 to 32) or a size in kB (8kB to 256kB); 128kB (16) by default",
			parse: func(p *parser, st *ConfigStmt, t token, v string) error {
				n, err := parseIOCombineLimit(v)
				if err != nil {
					return p.errf(t.Pos, "io_combine_limit: %v", err)
				}
				st.IOCombineLimit = n
				return nil
			}},
		microsKey("io_latency", "the latency model: each simulated read or write call costs this much of its backend's time (100us, 2ms; 0 by default)",
			func(st *ConfigStmt, us int) { st.IOLatencyUS = us }),
		microsKey("io_block_time", "the latency model: and this much more per 8kB block it reads or writes (8us; 0 by default)",
			func(st *ConfigStmt, us int) { st.IOBlockUS = us }),
		{Name: "effective_io_concurrency", Values: "N", Doc: "the reads in progress per stream (0 to 1000; 1 by default at 17, 16 at 18)",
			parse: func(p *parser, st *ConfigStmt, t token, v string) error {
				n, err := p.uint(t, v, readstream.MaxIOConcurrency, "effective_io_concurrency")
				st.EffectiveIOConcurrency, st.EffectiveIOConcurrencySet = int(n), err == nil
				return err
			}},
	},
}

// parseIOCombineLimit reads io_combine_limit as PostgreSQL does (a
// number of blocks, or a size with a unit; guc_tables.c, REL_17_9:
// GUC_UNIT_BLOCKS, 1 to MAX_IO_COMBINE_LIMIT = 32).
func parseIOCombineLimit(v string) (int, error) {
	blocks := 0
	if n, err := strconv.Atoi(v); err == nil {
		blocks = n
	} else {
		num := strings.TrimSuffix(v, "kB")
		n, err := strconv.Atoi(num)
		if num == v || err != nil {
			return 0, fmt.Errorf("expected a number of blocks (1 to %d) or a size in kB (8kB to %dkB), found %q", readstream.MaxIOCombineLimit, 8*readstream.MaxIOCombineLimit, v)
		}
		if n%8 != 0 {
			return 0, fmt.Errorf("%q is not a whole number of 8kB blocks", v)
		}
		blocks = n / 8
	}
	if blocks < 1 || blocks > readstream.MaxIOCombineLimit {
		return 0, fmt.Errorf("%q is outside 1 to %d blocks (8kB to %dkB)", v, readstream.MaxIOCombineLimit, 8*readstream.MaxIOCombineLimit)
	}
	return blocks, nil
}

// PG is the PostgreSQL version the pane chose, if it chose one.
func (v Variant) PG() (PGVersion, bool) {
	return chosen(v, "pg", ParsePGVersion)
}

// PG is the PostgreSQL version this runner's pool models: the pane's pg=
// choice, else the config's single pg= value, else 15.
func (r *Runner) PG() PGVersion {
	if v, ok := r.variant.PG(); ok {
		return v
	}
	if r.cfg.PG != 0 {
		return r.cfg.PG
	}
	return bufmgr.MinVersion
}

// namesPG reports whether the config names a version (pg=), so that the
// run's report includes the read calls.
func (r *Runner) namesPG() bool {
	_, ok := r.variant.PG()
	return ok || r.cfg.PG != 0
}

// ReadCallsLine is the run's read calls in one line, when the config
// names a PostgreSQL version (pg=): "reads: 14 calls, 160 blocks:
// 1,2,4,8,16x9,1" (the value expect pool reads= takes). ok is false
// otherwise, so that the reports of scenarios without pg= stay as they
// were.
func (r *Runner) ReadCallsLine() (line string, ok bool) {
	if !r.namesPG() {
		return "", false
	}
	runs := r.pool.ReadCalls()
	calls, blocks := 0, 0
	for _, x := range runs {
		calls += x.Count
		blocks += x.Count * x.Blocks
	}
	line = fmt.Sprintf("reads at PostgreSQL %s: %d calls, %d blocks: %s", r.PG(), calls, blocks, bufmgr.FormatReadRuns(runs))
	if r.cfg.IOLatencyUS > 0 || r.cfg.IOBlockUS > 0 {
		line += fmt.Sprintf("; simulated I/O time %d us", r.pool.Stats().IOTimeUS)
	}
	return line, true
}

// parseReadRuns reads expect pool reads='s value ("1,2,4,8,16x9,1",
// "1x160", "none") into its canonical form, merging adjacent runs of
// one length as Pool.ReadCalls does.
func parseReadRuns(v string) (string, error) {
	if v == "none" {
		return v, nil
	}
	var runs []bufmgr.ReadRun
	for _, part := range strings.Split(v, ",") {
		blocks, count, hasCount := strings.Cut(part, "x")
		b, err := strconv.Atoi(blocks)
		c := 1
		if hasCount {
			c, err = atoiAnd(count, err)
		}
		if err != nil || b < 1 || c < 1 {
			return "", fmt.Errorf("reads: expected read calls as BLOCKS[xCOUNT],… (1,2,4,8,16x9,1) or none, found %q", v)
		}
		if k := len(runs); k > 0 && runs[k-1].Blocks == b {
			runs[k-1].Count += c
		} else {
			runs = append(runs, bufmgr.ReadRun{Blocks: b, Count: c})
		}
	}
	return bufmgr.FormatReadRuns(runs), nil
}

// atoiAnd is strconv.Atoi unless err is already set.
func atoiAnd(s string, err error) (int, error) {
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(s)
}

// microsKey is a config key of simulated microseconds (parseMicros);
// set stores the value.
func microsKey(name, doc string, set func(st *ConfigStmt, us int)) Key {
	return Key{Name: name, Values: "TIME", Doc: doc,
		parse: func(p *parser, st *ConfigStmt, t token, v string) error {
			n, err := parseMicros(v)
			if err != nil {
				return p.errf(t.Pos, "%s: %v", name, err)
			}
			set(st, n)
			return nil
		}}
}

// parseMicros reads a simulated duration: "100us", "2ms", "1s", or a bare
// number of microseconds, 0 to bufmgr.MaxIOTimeUS.
func parseMicros(v string) (int, error) {
	num, mult := v, 1
	for _, u := range []struct {
		suffix string
		mult   int
	}{{"us", 1}, {"ms", 1000}, {"s", 1_000_000}} {
		if strings.HasSuffix(v, u.suffix) {
			num, mult = strings.TrimSuffix(v, u.suffix), u.mult
			break
		}
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 || n > bufmgr.MaxIOTimeUS/mult {
		return 0, fmt.Errorf("expected a time from 0 to 1s in simulated microseconds (100us, 2ms, or a bare number of µs), found %q", v)
	}
	return n * mult, nil
}

// names18 reports whether the config runs PostgreSQL 18 in some pane.
func names18(cfg *ConfigStmt, vs []Variant) bool {
	if cfg.PG == 18 {
		return true
	}
	for _, v := range vs {
		if pg, ok := v.PG(); ok && pg == 18 {
			return true
		}
	}
	return false
}
