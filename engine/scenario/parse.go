package scenario

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/slru"
)

// Script is a parsed scenario.
type Script struct {
	File  string
	Stmts []Stmt
	// Yield, when set, is called by every run of the script's runners
	// every YieldEvery scheduler steps (budget.go), with the events their
	// log holds. It is not parsed: the program that runs the script sets
	// it.
	Yield func(events int) error
}

// Stmt is one statement.
type Stmt interface{ At() Pos }

// RelationStmt is `relation NAME blocks=N …`.
type RelationStmt struct {
	Pos      Pos
	Name     string
	NBlocks  [bufmgr.MaxForkNum + 1]uint32
	Unlogged bool
	// Count > 0 (count=N) defines N relations of this shape, named Name0
	// … Name(N−1), numbered in that order.
	Count int
	// Heap (the word heap) makes it a table of the free space map model
	// with this fillfactor (default 100).
	Heap       bool
	FillFactor int
}

// Names lists the relations the statement defines.
func (st *RelationStmt) Names() []string {
	if st.Count == 0 {
		return []string{st.Name}
	}
	out := make([]string, st.Count)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", st.Name, i)
	}
	return out
}

// OpKind is a backend operation.
type OpKind uint8

// Operations.
const (
	OpRead OpKind = iota + 1
	OpRelease
	OpReleaseAll
	OpDirty
	OpTouch
	OpWrite
	OpScan
	OpCleanup
	OpDrop
	OpCLOG
	OpInsert
	OpDelete
	OpVacuum
	OpTruncate
)

func (k OpKind) String() string {
	if s := opSpecOf(k); s != nil {
		return s.Name
	}
	if k == OpReleaseAll {
		return "release all"
	}
	return "?"
}

// Op is one queued backend operation over blocks From..To of a fork.
type Op struct {
	Pos      Pos
	Kind     OpKind
	Rel      string
	Fork     bufmgr.ForkNumber
	From, To uint32
	// Rels are the relations a drop drops (Rel is the first) and Strategy
	// how it finds their buffers.
	Rels     []string
	Strategy bufmgr.DropStrategy
	// SLRU is a clog operation.
	SLRU slru.Op
	// Pages stops a scan after that many pages, as a paused cursor (0:
	// the whole relation).
	Pages uint32
	// Rows and Size (data bytes per row) of an insert; TID of a delete.
	Rows, Size int
	TID        fsm.TID
}

// BackendStmt is `backend NAME: OP; …`.
type BackendStmt struct {
	Pos  Pos
	Name string
	Ops  []Op
}

// ScheduleStmt is `schedule NAME[*N] …`: each NAME*N is one run of N
// steps of that backend (see schedule.go).
type ScheduleStmt struct {
	Pos  Pos
	Runs []ScheduleRun
}

// RunStmt is `run [steps=N]`; Steps 0 means to completion.
type RunStmt struct {
	Pos   Pos
	Steps int
}

// ShowStmt is `show [pool [all]|map|slru|heap]`.
type ShowStmt struct {
	Pos  Pos
	What string
	// All (show pool all) lists every buffer, whatever the pool's size.
	All bool
}

// ExpectStmt is `expect SUBJECT [ARGS] KEY=VALUE …`.
type ExpectStmt struct {
	Pos     Pos
	Subject string // pool, buffer, block, backend
	// Only, when set, limits the check to one variant, by name (`expect
	// spinlock: pool spins=2`, `expect lookup: …`); unqualified checks
	// hold for every variant.
	Only   string
	Args   []token
	Checks []check
}

type check struct {
	Key, Value string
	Pos        Pos
}

// At implements Stmt.
func (s *ConfigStmt) At() Pos { return s.Pos }

// At implements Stmt.
func (s *RelationStmt) At() Pos { return s.Pos }

// At implements Stmt.
func (s *BackendStmt) At() Pos { return s.Pos }

// At implements Stmt.
func (s *ScheduleStmt) At() Pos { return s.Pos }

// At implements Stmt.
func (s *RunStmt) At() Pos { return s.Pos }

// At implements Stmt.
func (s *ShowStmt) At() Pos { return s.Pos }

// At implements Stmt.
func (s *ExpectStmt) At() Pos { return s.Pos }

// Limits on what a scenario may ask for, so that no input hangs the engine.
const (
	MaxRelations     = 10000
	MaxRelBlocks     = 1 << 30     // blocks per fork (8TB; event tags pack 30 bits of block number)
	MaxOpBlocks      = 1 << 20     // blocks in one operation's range
	MaxScheduleSteps = MaxMaxSteps // steps the schedule lines before one run name
	DefaultMaxSteps  = 30_000_000  // a million-block touch (MaxOpBlocks) takes about 20 a block; natively ~5 s of a livelock
	MaxMaxSteps      = 50_000_000
)

type parser struct {
	file      string
	script    *Script
	rels      map[string]*RelationStmt
	backends  map[string]bool
	sawConfig bool
	sawOther  bool
	nbuffers  int
	variants  []Variant // the variants the config names (nil before it)
	dlist     bool      // the config keeps the dlist (strategy=dlist allowed)
	slru      bool      // the config has the commit log's SLRU (clog ops allowed)
	slruVar   slru.Variant
	fsm       bool // the config has the free space map model (heaps allowed)
	// schedSteps counts the steps the schedule lines since the last run
	// name (they add up).
	schedSteps uint64
	// varKey is the config key that named the variants, at varPos.
	varKey string
	varPos Pos
}

// Parse parses a scenario. name is used in error positions.
func Parse(name, src string) (*Script, error) {
	p := &parser{file: name, script: &Script{File: name}, rels: map[string]*RelationStmt{}, backends: map[string]bool{}}
	for i, line := range strings.Split(src, "\n") {
		toks, err := lexLine(name, i+1, line)
		if err != nil {
			return nil, err
		}
		if len(toks) == 0 {
			continue
		}
		st, err := p.statement(toks)
		if err != nil {
			return nil, err
		}
		p.script.Stmts = append(p.script.Stmts, st)
	}
	return p.script, p.complete()
}

// RequireStatements returns a positioned error for a script with no
// statement (only blank lines and comments): a scenario given to run
// must say something. (A lesson's prose may come with no scenario, so
// Parse accepts one.)
func (s *Script) RequireStatements() error {
	if len(s.Stmts) == 0 {
		return &Error{File: s.File, Pos: Pos{1, 1}, Msg: "the scenario has no statements (only blank lines and comments): expected at least relation, backend and run lines"}
	}
	return nil
}

// complete checks a whole script: nothing it queues is left without a
// run to do it.
func (p *parser) complete() error {
	// The first statement after the last run that would do nothing
	// without one: a backend's operations or a schedule.
	var waiting Stmt
	for _, st := range p.script.Stmts {
		switch st := st.(type) {
		case *RunStmt:
			waiting = nil
		case *BackendStmt:
			if waiting == nil && len(st.Ops) > 0 {
				waiting = st
			}
		case *ScheduleStmt:
			if waiting == nil {
				waiting = st
			}
		}
	}
	switch st := waiting.(type) {
	case *BackendStmt:
		return p.errf(st.Pos, "backend %s: its operations are queued, but no 'run' follows to run them: expected a run line after this one", st.Name)
	case *ScheduleStmt:
		return p.errf(st.Pos, "schedule: no 'run' follows to use it: expected a run line after this one")
	}
	return nil
}

func (p *parser) errf(pos Pos, format string, args ...any) error {
	return &Error{File: p.file, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

func endPos(toks []token) Pos {
	last := toks[len(toks)-1]
	return Pos{last.Pos.Line, last.Pos.Col + len(last.Text)}
}

// statements parses each statement after config by its keyword (config,
// which must come first and once, is parsed before them).
var statements = map[string]func(p *parser, toks []token) (Stmt, error){
	"relation": (*parser).relation, "backend": (*parser).backend, "schedule": (*parser).schedule,
	"run": (*parser).run, "show": (*parser).show, "expect": (*parser).expect,
}

func (p *parser) statement(toks []token) (Stmt, error) {
	kw := toks[0]
	if kw.Text == "config" {
		if p.sawOther {
			return nil, p.errf(kw.Pos, "config must be the first statement")
		}
		if p.sawConfig {
			return nil, p.errf(kw.Pos, "config given twice: expected one config line")
		}
		p.sawConfig = true
		return p.config(toks)
	}
	if !p.sawConfig {
		p.sawConfig = true
		p.nbuffers = 16
	}
	p.sawOther = true
	if parse, ok := statements[kw.Text]; ok {
		return parse(p, toks)
	}
	return nil, p.errf(kw.Pos, "expected a statement (config, relation, backend, schedule, run, show, expect), found %q", kw.Text)
}

func splitKV(t token) (key, val string, ok bool) {
	k, v, found := strings.Cut(t.Text, "=")
	return k, v, found
}

func (p *parser) uint(t token, val string, max uint64, what string) (uint64, error) {
	n, err := strconv.ParseUint(val, 10, 64)
	if err != nil {
		return 0, p.errf(t.Pos, "%s: expected a non-negative integer, found %q", what, val)
	}
	if n > max {
		return 0, p.errf(t.Pos, "%s: %d is too large (at most %d)", what, n, max)
	}
	return n, nil
}

func isIdent(s string) bool {
	if s == "" || len(s) > 63 {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func (p *parser) relation(toks []token) (Stmt, error) {
	if len(toks) < 2 {
		return nil, p.errf(endPos(toks), "expected a relation name after 'relation'")
	}
	name := toks[1]
	if !isIdent(name.Text) {
		return nil, p.errf(name.Pos, "expected a relation name (letters, digits, _), found %q", name.Text)
	}
	if _, dup := p.rels[name.Text]; dup {
		return nil, p.errf(name.Pos, "relation %q is already defined", name.Text)
	}
	if len(p.rels) >= MaxRelations {
		return nil, p.errf(name.Pos, "too many relations: at most %d", MaxRelations)
	}
	st := &RelationStmt{Pos: toks[0].Pos, Name: name.Text}
	sawBlocks := false
	for _, t := range toks[2:] {
		if t.Text == "unlogged" {
			st.Unlogged = true
			continue
		}
		if t.Text == "heap" {
			if !p.fsm {
				return nil, p.errf(t.Pos, "heap: heaps need the free space map model: expected config fsm=always|small-skip")
			}
			st.Heap, st.FillFactor = true, max(st.FillFactor, 100)
			continue
		}
		if k, v, ok := splitKV(t); ok && k == "fillfactor" {
			if err := p.heapKey(st, t, k, v); err != nil {
				return nil, err
			}
			st.Heap = true
			continue
		}
		k, v, ok := splitKV(t)
		if !ok {
			return nil, p.errf(t.Pos, "expected blocks=N, fsm=N, vm=N, init=N, count=N or unlogged, found %q", t.Text)
		}
		if k == "count" {
			n, err := p.uint(t, v, uint64(MaxRelations-len(p.rels)), "count")
			if err != nil {
				return nil, err
			}
			if n == 0 {
				return nil, p.errf(t.Pos, "count: expected at least 1, found 0")
			}
			st.Count = int(n)
			continue
		}
		var f bufmgr.ForkNumber
		switch k {
		case "blocks":
			f, sawBlocks = bufmgr.MainForkNum, true
		case "fsm":
			f = bufmgr.FSMForkNum
		case "vm":
			f = bufmgr.VMForkNum
		case "init":
			f = bufmgr.InitForkNum
		default:
			return nil, p.errf(t.Pos, "unknown relation key %q: expected blocks, fsm, vm, init, count or unlogged", k)
		}
		n, err := p.uint(t, v, ^uint64(0), k)
		if err != nil {
			return nil, err
		}
		if n > MaxRelBlocks {
			// PostgreSQL allows MaxBlockNumber + 1 = 0xFFFFFFFF blocks
			// (32 TB); events pack a tag's block number in 30 bits.
			return nil, p.errf(t.Pos, "%s: %d blocks is more than BufferLab simulates: expected at most %d (8 TB; PostgreSQL's own limit is MaxBlockNumber+1 = %d blocks, 32 TB)", k, n, MaxRelBlocks, uint64(1)<<32-1)
		}
		st.NBlocks[f] = uint32(n)
	}
	if !sawBlocks && !st.Heap {
		return nil, p.errf(endPos(toks), "relation %s: expected blocks=N (the size of its main fork)", name.Text)
	}
	for _, n := range st.Names() {
		if _, dup := p.rels[n]; dup {
			return nil, p.errf(name.Pos, "relation %q (of count=%d) is already defined", n, st.Count)
		}
	}
	for _, n := range st.Names() {
		p.rels[n] = st
	}
	return st, nil
}

func (p *parser) backend(toks []token) (Stmt, error) {
	if len(toks) < 2 || !isIdent(toks[1].Text) {
		at := endPos(toks)
		found := "end of line"
		if len(toks) >= 2 {
			at, found = toks[1].Pos, fmt.Sprintf("%q", toks[1].Text)
		}
		return nil, p.errf(at, "expected a backend name after 'backend', found %s", found)
	}
	name := toks[1]
	if !p.backends[name.Text] && len(p.backends) >= bufmgr.MaxSimBackends {
		return nil, p.errf(name.Pos, "too many backends: at most %d", bufmgr.MaxSimBackends)
	}
	p.backends[name.Text] = true
	st := &BackendStmt{Pos: toks[0].Pos, Name: name.Text}
	if len(toks) == 2 {
		return st, nil
	}
	if toks[2].Text != ":" {
		return nil, p.errf(toks[2].Pos, "expected ':' after the backend name, found %q", toks[2].Text)
	}
	rest := toks[3:]
	if len(rest) == 0 {
		return nil, p.errf(endPos(toks), "expected an operation after ':' (%s)", opList())
	}
	for len(rest) > 0 {
		end := 0
		for end < len(rest) && rest[end].Text != ";" {
			end++
		}
		if end == 0 {
			return nil, p.errf(rest[0].Pos, "expected an operation before ';'")
		}
		op, err := p.op(rest[:end])
		if err != nil {
			return nil, err
		}
		st.Ops = append(st.Ops, op)
		if end < len(rest) {
			end++ // the ';'
			if end == len(rest) {
				return nil, p.errf(endPos(rest), "expected an operation after ';'")
			}
		}
		rest = rest[end:]
	}
	return st, nil
}

func (p *parser) op(toks []token) (Op, error) {
	spec, ok := registry.ops[toks[0].Text]
	if !ok {
		return Op{}, p.errf(toks[0].Pos, "expected an operation (%s), found %q", opList(), toks[0].Text)
	}
	return spec.parse(p, Op{Pos: toks[0].Pos, Kind: spec.Kind}, toks)
}

// needRel is the error of an operation with no relation after its name.
func (p *parser) needRel(toks []token) error {
	if len(toks) < 2 {
		return p.errf(endPos(toks), "%s: expected a relation name", toks[0].Text)
	}
	return nil
}

// poolOp parses the pool's operations: read, release [all], dirty,
// touch, write, scan and cleanup over a relation's blocks.
func (p *parser) poolOp(op Op, toks []token) (Op, error) {
	kind := op.Kind
	if kind == OpRelease && len(toks) == 2 && toks[1].Text == "all" {
		op.Kind = OpReleaseAll
		return op, nil
	}
	if err := p.needRel(toks); err != nil {
		return Op{}, err
	}
	rt := toks[1]
	if prefix, ok := strings.CutSuffix(rt.Text, "*"); ok && (kind == OpRead || kind == OpTouch || kind == OpWrite) {
		// touch r* 0: the same blocks of every relation named r…, in the
		// order they were defined.
		names, err := p.matching(rt, prefix)
		if err != nil {
			return Op{}, err
		}
		op.Rels = names
		rt.Text = names[0]
	}
	rel, ok := p.rels[rt.Text]
	if !ok {
		if strings.HasSuffix(rt.Text, "*") {
			return Op{}, p.errf(rt.Pos, "%s: expected a relation defined above (PREFIX* works with read, touch, write and drop), found %q", toks[0].Text, rt.Text)
		}
		return Op{}, p.errf(rt.Pos, "%s: expected a relation defined above, found %q", toks[0].Text, rt.Text)
	}
	op.Rel = rt.Text
	if kind == OpScan {
		return p.scanOp(op, toks)
	}
	if len(toks) < 3 {
		return Op{}, p.errf(endPos(toks), "%s: expected a block number or range B..E after %s", toks[0].Text, rt.Text)
	}
	bt := toks[2]
	from, to, err := p.blockRange(bt)
	if err != nil {
		return Op{}, err
	}
	op.From, op.To = from, to
	for _, t := range toks[3:] {
		k, v, ok := splitKV(t)
		if !ok || k != "fork" {
			return Op{}, p.errf(t.Pos, "%s: expected fork=main|fsm|vm|init, found %q", toks[0].Text, t.Text)
		}
		f, ok := bufmgr.ParseFork(v)
		if !ok {
			return Op{}, p.errf(t.Pos, "fork: expected main, fsm, vm or init, found %q", v)
		}
		op.Fork = f
	}
	if op.To >= rel.NBlocks[op.Fork] && (kind == OpRelease || kind == OpDirty || kind == OpCleanup) {
		return Op{}, p.errf(bt.Pos, "%s: block %d is beyond %s's %s fork (%d blocks)", toks[0].Text, op.To, rel.Name, op.Fork, rel.NBlocks[op.Fork])
	}
	return op, nil
}

// dropOp parses `drop REL [REL …] [strategy=S]`: each REL a relation
// defined above or PREFIX* for every relation whose name starts so.
func (p *parser) dropOp(op Op, toks []token) (Op, error) {
	if err := p.needRel(toks); err != nil {
		return Op{}, err
	}
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			op.Rels = append(op.Rels, n)
		}
	}
	for _, t := range toks[1:] {
		if k, v, ok := splitKV(t); ok {
			if k != "strategy" {
				return Op{}, p.errf(t.Pos, "drop: expected strategy=auto|scan|lookup|dlist, found %q", t.Text)
			}
			s, err := p.dropStrategy(t, v)
			if err != nil {
				return Op{}, err
			}
			op.Strategy = s
			continue
		}
		if prefix, ok := strings.CutSuffix(t.Text, "*"); ok {
			names, err := p.matching(t, prefix)
			if err != nil {
				return Op{}, err
			}
			for _, n := range names {
				add(n)
			}
			continue
		}
		if _, ok := p.rels[t.Text]; !ok {
			return Op{}, p.errf(t.Pos, "drop: expected a relation defined above, found %q", t.Text)
		}
		add(t.Text)
	}
	if len(op.Rels) == 0 {
		return Op{}, p.errf(endPos(toks), "drop: expected a relation name")
	}
	op.Rel = op.Rels[0]
	return op, nil
}

// dropStrategy parses the value of a drop's or truncate's strategy=.
func (p *parser) dropStrategy(t token, v string) (bufmgr.DropStrategy, error) {
	s, ok := bufmgr.ParseDropStrategy(v)
	if !ok {
		return 0, p.errf(t.Pos, "strategy: expected auto, scan, lookup or dlist, found %q", v)
	}
	if s == bufmgr.DropDList && !p.dlist && !p.hasVariant("dlist") {
		return 0, p.errf(t.Pos, "strategy=dlist needs the per-relation lists: expected config dlist=on")
	}
	return s, nil
}

// matching lists the relations defined so far whose name starts with
// prefix, in the order they were defined.
func (p *parser) matching(t token, prefix string) ([]string, error) {
	var names []string
	for n := range p.rels {
		if strings.HasPrefix(n, prefix) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil, p.errf(t.Pos, "no relation defined above matches %q", t.Text)
	}
	sort.Slice(names, func(i, j int) bool { return p.relIndex(names[i]) < p.relIndex(names[j]) })
	return names, nil
}

// hasVariant reports whether the config runs a variant of that name.
func (p *parser) hasVariant(name string) bool {
	for _, v := range p.variants {
		if v.Name() == name {
			return true
		}
	}
	return false
}

// relIndex orders relations as they were defined (count=N members by
// their number).
func (p *parser) relIndex(name string) int {
	st := p.rels[name]
	i := 0
	for _, x := range p.script.Stmts {
		if x == Stmt(st) {
			break
		}
		if r, ok := x.(*RelationStmt); ok {
			i += len(r.Names())
		}
	}
	for j, n := range st.Names() {
		if n == name {
			return i + j
		}
	}
	return i
}

func (p *parser) blockRange(t token) (uint32, uint32, error) {
	a, b, isRange := strings.Cut(t.Text, "..")
	from, err := p.uint(t, a, MaxRelBlocks-1, "block")
	if err != nil {
		return 0, 0, err
	}
	to := from
	if isRange {
		to, err = p.uint(t, b, MaxRelBlocks-1, "block range end")
		if err != nil {
			return 0, 0, err
		}
		if to < from {
			return 0, 0, p.errf(t.Pos, "block range %s: expected the end to be at least the start", t.Text)
		}
		if to-from+1 > MaxOpBlocks {
			return 0, 0, p.errf(t.Pos, "block range %s has %d blocks; one operation takes at most %d", t.Text, to-from+1, MaxOpBlocks)
		}
	}
	return uint32(from), uint32(to), nil
}

func (p *parser) schedule(toks []token) (Stmt, error) {
	if len(toks) < 2 {
		return nil, p.errf(endPos(toks), "expected backend names after 'schedule'")
	}
	st := &ScheduleStmt{Pos: toks[0].Pos}
	for _, t := range toks[1:] {
		name, count := t.Text, uint64(1)
		if n, c, ok := strings.Cut(t.Text, "*"); ok {
			var err error
			name = n
			if count, err = strconv.ParseUint(c, 10, 64); err != nil || count == 0 || count > MaxScheduleSteps {
				return nil, p.errf(t.Pos, "schedule: %s: expected NAME*N with N a repeat count from 1 to %d, found %q", t.Text, MaxScheduleSteps, c)
			}
		}
		if !p.backends[name] {
			return nil, p.errf(t.Pos, "schedule: expected the name of a backend declared above, found %q", name)
		}
		p.schedSteps += count
		if p.schedSteps > MaxScheduleSteps {
			return nil, p.errf(t.Pos, "schedule: %s brings the schedule before the next run to %d steps; at most %d (the most max_steps allows)", t.Text, p.schedSteps, MaxScheduleSteps)
		}
		st.Runs = append(st.Runs, ScheduleRun{Name: name, Count: int(count), Pos: t.Pos})
	}
	return st, nil
}

func (p *parser) run(toks []token) (Stmt, error) {
	st := &RunStmt{Pos: toks[0].Pos}
	p.schedSteps = 0
	for _, t := range toks[1:] {
		k, v, ok := splitKV(t)
		if !ok || k != "steps" {
			return nil, p.errf(t.Pos, "run: expected steps=N or nothing, found %q", t.Text)
		}
		n, err := p.uint(t, v, MaxMaxSteps, "steps")
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, p.errf(t.Pos, "steps: expected at least 1, found 0")
		}
		st.Steps = int(n)
	}
	return st, nil
}

func (p *parser) show(toks []token) (Stmt, error) {
	st := &ShowStmt{Pos: toks[0].Pos, What: "pool"}
	if len(toks) == 3 && toks[1].Text == "pool" && toks[2].Text == "all" {
		st.All = true
		return st, nil
	}
	if len(toks) > 3 && toks[1].Text == "pool" && toks[2].Text == "all" {
		return nil, p.errf(toks[3].Pos, "show: expected nothing after 'pool all', found %q", toks[3].Text)
	}
	shows := orList(subjectList(true))
	if len(toks) > 2 {
		return nil, p.errf(toks[2].Pos, "show: expected at most one word (%s) or 'pool all', found %q", shows, toks[2].Text)
	}
	if len(toks) == 2 {
		mech, sub := subject(toks[1].Text, true)
		if sub == nil {
			return nil, p.errf(toks[1].Pos, "show: expected %s, found %q", shows, toks[1].Text)
		}
		if mech.absent != nil {
			if why := mech.absent(p); why != "" {
				return nil, p.errf(toks[1].Pos, "show %s: %s", toks[1].Text, why)
			}
		}
		st.What = toks[1].Text
	} else if p.slru {
		st.What = "slru" // a commit-log scenario shows its SLRU
	}
	return st, nil
}
