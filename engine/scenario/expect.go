package scenario

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/slru"
)

func (p *parser) expect(toks []token) (Stmt, error) {
	only := ""
	all := toks
	if len(toks) >= 3 && toks[2].Text == ":" {
		vs := p.variants
		if vs == nil {
			vs = (&ConfigStmt{}).AllVariants()
		}
		name := toks[1].Text
		if !p.hasVariant(name) {
			var names []string
			for _, v := range vs {
				names = append(names, v.Name())
			}
			if key := variantKeyOf(name); key != "" {
				runs := variantList(vs)
				if key == "slru" && len(vs) < 2 {
					// The SLRU is off, or its one variant is no pane's.
					runs = "none"
					if p.slru {
						runs = "slru=" + p.slruVar.String()
					}
				}
				return nil, p.errf(toks[1].Pos, "expect %s: the scenario does not run %s=%s (its config runs %s)", name, key, name, runs)
			}
			return nil, p.errf(toks[1].Pos, "expect: expected a variant the config runs (%s) before ':', found %q", strings.Join(names, ", "), name)
		}
		only = name
		toks = append([]token{toks[0]}, toks[3:]...)
	}
	if len(toks) < 2 {
		return nil, p.errf(endPos(all), "expected a subject after 'expect': pool, buffer N, block REL B, or backend NAME")
	}
	subj := toks[1]
	mech, sub := subject(subj.Text, false)
	if sub == nil {
		return nil, p.errf(subj.Pos, "expect: expected %s, found %q", orList(subjectList(false)), subj.Text)
	}
	if mech.absent != nil {
		if why := mech.absent(p); why != "" {
			return nil, p.errf(subj.Pos, "expect %s: %s", subj.Text, why)
		}
	}
	keys := sub.Keys
	st := &ExpectStmt{Pos: toks[0].Pos, Subject: subj.Text, Only: only}
	rest := toks[2:]
	nargs := map[string]int{"pool": 0, "buffer": 1, "block": 2, "backend": 1, "page": 1, "heap": 1, "fsm": 0}[subj.Text]
	if len(rest) < nargs {
		return nil, p.errf(endPos(toks), "expect %s: expected %s", subj.Text, map[string]string{
			"buffer": "a buffer number", "block": "a relation and a block number", "backend": "a backend name", "page": "an SLRU page number",
			"heap": "a heap relation"}[subj.Text])
	}
	st.Args = rest[:nargs]
	rest = rest[nargs:]
	switch subj.Text {
	case "buffer":
		if _, err := p.uint(st.Args[0], st.Args[0].Text, uint64(p.nbuffers-1), "buffer number"); err != nil {
			return nil, err
		}
	case "block":
		if _, ok := p.rels[st.Args[0].Text]; !ok {
			return nil, p.errf(st.Args[0].Pos, "expect block: expected a relation defined above, found %q", st.Args[0].Text)
		}
		if _, err := p.uint(st.Args[1], st.Args[1].Text, MaxRelBlocks-1, "block"); err != nil {
			return nil, err
		}
	case "page":
		if _, err := p.uint(st.Args[0], st.Args[0].Text, uint64(slru.MaxPageNumber), "page"); err != nil {
			return nil, err
		}
	case "heap":
		if r, ok := p.rels[st.Args[0].Text]; !ok || !r.Heap {
			return nil, p.errf(st.Args[0].Pos, "expect heap: expected a heap defined above (relation NAME heap), found %q", st.Args[0].Text)
		}
	case "backend":
		if !p.backends[st.Args[0].Text] {
			return nil, p.errf(st.Args[0].Pos, "expect backend: expected a backend declared above, found %q", st.Args[0].Text)
		}
	}
	if len(rest) == 0 {
		return nil, p.errf(endPos(toks), "expect %s: expected at least one KEY=VALUE (%s)", subj.Text, strings.Join(keys, ", "))
	}
	for _, t := range rest {
		k, v, ok := splitKV(t)
		if subj.Text == "block" && k == "fork" {
			if _, okf := bufmgr.ParseFork(v); !okf {
				return nil, p.errf(t.Pos, "fork: expected main, fsm, vm or init, found %q", v)
			}
			st.Args = append(st.Args, t)
			continue
		}
		if subj.Text == "heap" && k == "page" {
			if len(st.Args) > 1 {
				return nil, p.errf(t.Pos, "expect heap: page= is given twice")
			}
			if _, err := p.uint(t, v, MaxRelBlocks-1, "page"); err != nil {
				return nil, err
			}
			st.Args = append(st.Args, t)
			continue
		}
		if !ok || !slices.Contains(keys, k) {
			return nil, p.errf(t.Pos, "expect %s: expected KEY=VALUE with KEY one of %s, found %q", subj.Text, strings.Join(keys, ", "), t.Text)
		}
		if subj.Text == "pool" && k == "reads" {
			canon, err := parseReadRuns(v)
			if err != nil {
				return nil, p.errf(t.Pos, "expect pool %v", err)
			}
			v = canon
		}
		st.Checks = append(st.Checks, check{Key: k, Value: v, Pos: t.Pos})
	}
	return st, nil
}

// variantList writes variants as the config does: pins=atomic,spinlock.
func variantList(vs []Variant) string {
	if len(vs) == 0 {
		return ""
	}
	key, names := vs[0].Key()+"=", []string{}
	for _, v := range vs {
		names = append(names, v.Name())
	}
	return key + strings.Join(names, ",")
}

// evalExpect checks an expect statement against the runner's state and
// returns the first mismatch as a positioned error. A check limited to
// another pin variant holds trivially.
func (r *Runner) evalExpect(st *ExpectStmt) error {
	if st.Only != "" && st.Only != r.variant.Name() {
		return nil
	}
	for _, c := range st.Checks {
		got, err := r.expectValue(st, c)
		if err != nil {
			return err
		}
		want := c.Value
		if st.Subject == "buffer" && c.Key == "flags" || st.Subject == "backend" && c.Key == "pins" {
			want = normaliseList(want)
		}
		if got != want {
			return &Error{File: r.script.File, Pos: c.Pos, Check: true, Msg: fmt.Sprintf(
				"expect %s%s %s: expected %s, the engine has %s%s", st.Subject, argText(st.Args), c.Key, quoteEmpty(want), quoteEmpty(got), r.variantNote())}
		}
	}
	return nil
}

func quoteEmpty(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

func argText(args []token) string {
	var b strings.Builder
	for _, a := range args {
		b.WriteString(" " + a.Text)
	}
	return b.String()
}

func normaliseList(s string) string {
	if s == "none" || s == "" {
		return "none"
	}
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// counter is the value of an expect key that is one of a subject's
// counters (pool hits, slru reads, fsm inserts), if key is one.
func counter(key string, counters map[string]uint64) (string, bool) {
	n, ok := counters[key]
	return strconv.FormatUint(n, 10), ok
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func (r *Runner) expectValue(st *ExpectStmt, c check) (string, error) {
	if m, _ := subject(st.Subject, false); m != nil {
		switch m.Name {
		case "slru":
			return r.slruExpectValue(st, c)
		case "fsm":
			return r.fsmExpectValue(st, c)
		}
	}
	pool := r.pool
	switch st.Subject {
	case "pool":
		s := pool.Stats()
		if v, ok := counter(c.Key, map[string]uint64{"hits": s.Hits, "misses": s.Misses, "writes": s.Writes,
			"ticks": s.ClockTicks, "decrements": s.UsageDecrements, "errors": s.Errors, "cas": s.CASAttempts,
			"cas_failures": s.CASFailures, "header_locks": s.HeaderLocks, "spins": s.Spins, "io_time": s.IOTimeUS}); ok {
			return v, nil
		}
		switch c.Key {
		case "reads":
			return bufmgr.FormatReadRuns(pool.ReadCalls()), nil
		case "hand":
			return strconv.Itoa(pool.NextVictimBuffer()), nil
		case "passes":
			return strconv.FormatUint(uint64(pool.CompletePasses()), 10), nil
		case "free":
			return strconv.Itoa(len(pool.Freelist())), nil
		case "in_use":
			n := 0
			for i := 0; i < pool.NBuffers; i++ {
				if pool.Desc(i).State()&bufmgr.BmTagValid != 0 {
					n++
				}
			}
			return strconv.Itoa(n), nil
		}
	case "buffer":
		id, _ := strconv.Atoi(st.Args[0].Text)
		d := pool.Desc(id)
		s := d.State()
		switch c.Key {
		case "tag":
			if s&bufmgr.BmTagValid == 0 {
				return "none", nil
			}
			return bufmgr.TagString(d.Tag(), r.relName), nil
		case "rc":
			return strconv.Itoa(int(bufmgr.StateRefcount(s))), nil
		case "usage":
			return strconv.Itoa(int(bufmgr.StateUsagecount(s))), nil
		case "flags":
			return normaliseList(strings.Join(bufmgr.FlagNames(s), ",")), nil
		case "dirty":
			return yesNo(s&bufmgr.BmDirty != 0), nil
		case "valid":
			return yesNo(s&bufmgr.BmValid != 0), nil
		}
	case "block":
		rel := r.rels[st.Args[0].Text]
		blk, _ := strconv.ParseUint(st.Args[1].Text, 10, 32)
		fork := bufmgr.MainForkNum
		if len(st.Args) > 2 {
			fork, _ = bufmgr.ParseFork(strings.TrimPrefix(st.Args[2].Text, "fork="))
		}
		id, ok := pool.Lookup(rel.Tag(fork, uint32(blk)))
		switch c.Key {
		case "resident":
			return yesNo(ok), nil
		case "in":
			if !ok {
				return "none", nil
			}
			return strconv.Itoa(id), nil
		}
		if !ok {
			// A well-formed check the engine's state fails: exit 1, not 2.
			return "", &Error{File: r.script.File, Pos: c.Pos, Check: true, Msg: fmt.Sprintf(
				"expect block%s %s: expected %s, but the block is not resident (not in the pool)%s", argText(st.Args), c.Key, c.Value, r.variantNote())}
		}
		s := pool.Desc(id).State()
		if c.Key == "usage" {
			return strconv.Itoa(int(bufmgr.StateUsagecount(s))), nil
		}
		return strconv.Itoa(int(bufmgr.StateRefcount(s))), nil
	case "backend":
		be := r.backendByName[st.Args[0].Text]
		switch c.Key {
		case "ctid":
			return be.lastCtid(), nil
		case "error":
			if be.err == nil {
				return "none", nil
			}
			return be.err.Msg, nil
		case "pins":
			var ps []string
			if be.b != nil {
				for _, pin := range be.b.Pins() {
					t := bufmgr.TagString(pool.Desc(int(pin.Buffer-1)).Tag(), r.relName)
					if pin.Count > 1 {
						t += fmt.Sprintf("x%d", pin.Count)
					}
					ps = append(ps, t)
				}
			}
			return normaliseList(strings.Join(ps, ",")), nil
		}
	}
	return "", r.errf(c.Pos, "expect %s: unknown key %q", st.Subject, c.Key)
}
