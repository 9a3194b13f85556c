package bufmgr_test

import (
	"fmt"
	"strconv"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
)

// forkAnd reads FORK<sep>N (main=4, fsm:2): a fork name and a number.
func forkAnd(s, sep string) (bufmgr.ForkNumber, int, bool) {
	fs, ns, _ := strings.Cut(s, sep)
	f, ok := bufmgr.ParseFork(fs)
	n, err := strconv.Atoi(ns)
	return f, n, ok && err == nil
}

// runDropScript runs the script of a case of testdata/drop/ (see
// TestDropGolden) and returns its output.
func runDropScript(script string) (string, error) {
	var (
		p        *bufmgr.Pool
		log      = trace.NewLog()
		rels     = map[string]*bufmgr.Relation{}
		relNames = map[uint32]string{}
		backends = map[string]*bufmgr.Backend{}
		tracing  = -1
		out      strings.Builder
		inv      = func() error { return nil } // until the pool exists
	)
	names := func(n uint32) string {
		if s, ok := relNames[n]; ok {
			return s
		}
		return strconv.Itoa(int(n))
	}
	backend := func(name string) (*bufmgr.Backend, error) {
		if b := backends[name]; b != nil {
			return b, nil
		}
		b, err := p.NewBackend(name)
		backends[name] = b
		return b, err
	}
	relFork := func(s string) (*bufmgr.Relation, bufmgr.ForkNumber, error) {
		name, fork, _ := strings.Cut(s, "/")
		r := rels[name]
		if r == nil {
			return nil, 0, fmt.Errorf("no relation %q", name)
		}
		f := bufmgr.MainForkNum
		if fork != "" {
			var ok bool
			if f, ok = bufmgr.ParseFork(fork); !ok {
				return nil, 0, fmt.Errorf("no fork %q", fork)
			}
		}
		return r, f, nil
	}
	// dropLine reads "drop B ARG... strategy=S" (or dropall): the backend,
	// the arguments and the strategy.
	dropLine := func(w []string) (*bufmgr.Backend, []string, bufmgr.DropStrategy, error) {
		b, err := backend(w[1])
		if err != nil {
			return nil, nil, 0, err
		}
		last := w[len(w)-1]
		v, ok := strings.CutPrefix(last, "strategy=")
		if !ok {
			return nil, nil, 0, fmt.Errorf("want strategy=S last, found %q", last)
		}
		st, ok := bufmgr.ParseDropStrategy(v)
		if !ok {
			return nil, nil, 0, fmt.Errorf("unknown strategy %q", v)
		}
		return b, w[2 : len(w)-1], st, nil
	}
	result := func(res bufmgr.DropResult) {
		blocks := "not cached"
		if res.Cached {
			blocks = fmt.Sprint(res.BlocksToInvalidate)
		}
		fmt.Fprintf(&out, "result: %s -> %s (blocks to drop %s, threshold %d, bsearch %v): touched %d, lookups %d, partition locks %d, list hops %d, invalidated %d, pin waits %d\n",
			res.Requested, res.Strategy, blocks, res.Threshold, res.BSearch, res.DescsTouched, res.Lookups, res.PartitionLocks, res.ListHops, res.Invalidated, res.PinWaits)
	}
	for ln, line := range strings.Split(strings.TrimSpace(script), "\n") {
		w := strings.Fields(line)
		if len(w) == 0 || strings.HasPrefix(w[0], "#") {
			continue
		}
		fail := func(format string, a ...any) (string, error) {
			return "", fmt.Errorf("line %d %q: %s", ln+1, line, fmt.Sprintf(format, a...))
		}
		if p == nil && w[0] != "pool" {
			return fail("the first line must be pool")
		}
		switch w[0] {
		case "pool":
			n, err := strconv.Atoi(w[1])
			if err != nil {
				return fail("%v", err)
			}
			var opt bufmgr.Options
			for _, o := range w[2:] {
				switch o {
				case "recovery":
					opt.InRecovery = true
				case "dlist":
					opt.DropList = true
				default:
					return fail("unknown option %q", o)
				}
			}
			if p, err = bufmgr.NewPoolWith(n, log, opt); err != nil {
				return fail("%v", err)
			}
			inv = watchInvariants(log, p)
		case "rel":
			r := &bufmgr.Relation{Name: w[1], Number: uint32(bufmgr.FirstNormalObjectId + len(rels)), Permanent: true}
			for _, kv := range w[2:] {
				f, n, ok := forkAnd(kv, "=")
				if !ok {
					return fail("bad fork size %q", kv)
				}
				r.NBlocks[f] = uint32(n)
			}
			rels[r.Name], relNames[r.Number] = r, r.Name
		case "read", "dirty":
			b, err := backend(w[1])
			if err != nil {
				return fail("%v", err)
			}
			r, f, err := relFork(w[2])
			if err != nil {
				return fail("%v", err)
			}
			for _, s := range w[3:] {
				blk, err := strconv.Atoi(s)
				if err != nil {
					return fail("%v", err)
				}
				buf, _, err := b.ReadBuffer(r, f, uint32(blk), nil)
				if err != nil {
					return fail("%v", err)
				}
				if w[0] == "dirty" {
					if err := b.MarkBufferDirty(buf); err != nil {
						return fail("%v", err)
					}
				}
				if err := b.ReleaseBuffer(buf); err != nil {
					return fail("%v", err)
				}
			}
		case "trace":
			tracing = log.Len()
		case "drop":
			b, args, st, err := dropLine(w)
			if err != nil {
				return fail("%v", err)
			}
			r := rels[args[0]]
			if r == nil {
				return fail("no relation %q", args[0])
			}
			var forks []bufmgr.ForkNumber
			var first []uint32
			for _, fa := range args[1:] {
				f, n, ok := forkAnd(fa, ":")
				if !ok {
					return fail("bad fork:first %q", fa)
				}
				forks, first = append(forks, f), append(first, uint32(n))
			}
			res, err := b.DropRelationBuffers(r, forks, first, st)
			if err != nil {
				return fail("%v", err)
			}
			result(res)
		case "dropall":
			b, args, st, err := dropLine(w)
			if err != nil {
				return fail("%v", err)
			}
			var list []*bufmgr.Relation
			for _, a := range args {
				if rels[a] == nil {
					return fail("no relation %q", a)
				}
				list = append(list, rels[a])
			}
			res, err := b.DropRelationsAllBuffers(list, st)
			if err != nil {
				return fail("%v", err)
			}
			result(res)
		default:
			return fail("unknown command")
		}
	}
	if err := inv(); err != nil {
		return "", err
	}
	if err := p.CheckQuiescent(); err != nil {
		return "", err
	}
	var events strings.Builder
	if tracing >= 0 {
		for _, e := range log.Events()[tracing:] {
			s, ok := bufmgr.DescribeDrop(e, names)
			if !ok {
				s = bufmgr.Describe(e, names)
			}
			events.WriteString(strings.TrimRight(s, " "))
			events.WriteByte('\n')
		}
	}
	events.WriteString(out.String())
	events.WriteString(p.Picture(names))
	for _, rn := range p.RelLists() {
		fmt.Fprintf(&events, "  dlist %s: %v\n", names(rn.RelNode), p.RelListBuffers(rn))
	}
	return events.String(), nil
}
