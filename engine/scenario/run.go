package scenario

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/sched"
	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
)

// Runner executes a parsed scenario against a fresh engine.
type Runner struct {
	script        *Script
	cfg           *ConfigStmt
	log           *trace.Log
	pool          *bufmgr.Pool
	rels          map[string]*bufmgr.Relation
	relNames      map[uint32]string
	backends      []*backendState
	backendByName map[string]*backendState
	sched         *sched.Scheduler
	runStmt       *RunStmt
	pending       *ScheduleStmt
	script0       *scriptPolicy
	runs          int
	schedules     [][]trace.Actor
	next          int // next statement to execute
	variant       Variant
	variants      int        // how many variants the config names
	budget        Budget     // bounds the event log (SetBudget)
	noText        bool       // a run prints no events (SetEventText)
	slru          *slru.SLRU // the commit log's SLRU (config slru=…)
	fsm           *fsm.Store // the free space map model (config fsm=…)
}

type backendState struct {
	name string
	b    *bufmgr.Backend
	sb   *slru.Backend // the same backend on the SLRU (nil without one)
	fs   *fsm.Session  // its free space map session (opened on first use)
	// lastTID is the ctid of its last insert.
	lastTID fsm.TID
	queue   []Op
	held    map[bufmgr.BufferTag]bufmgr.Buffer
	err     *bufmgr.PGError
}

// Output is what one statement printed.
type Output struct {
	Stmt Stmt
	Text string
}

// NewRunner prepares a runner for the scenario's first pin variant. With
// trace false the engine runs with a nil log (fast simulation): `run` then
// prints nothing.
func NewRunner(s *Script, traced bool) (*Runner, error) {
	return newRunner(s, traced, -1)
}

// NewVariantRunner prepares a runner for variant i of the variants the
// scenario's config names (ConfigStmt.AllVariants): the same statements,
// schedule and seed on a pool whose pins work the other way, or whose
// drops take the variant's strategy.
func NewVariantRunner(s *Script, traced bool, i int) (*Runner, error) {
	return newRunner(s, traced, i)
}

func newRunner(s *Script, traced bool, variant int) (*Runner, error) {
	r := &Runner{script: s, rels: map[string]*bufmgr.Relation{}, relNames: map[uint32]string{},
		backendByName: map[string]*backendState{}}
	r.cfg = &ConfigStmt{SharedBuffers: "128kB", NBuffers: 16, Policy: "rr", MaxSteps: DefaultMaxSteps}
	if len(s.Stmts) > 0 {
		if c, ok := s.Stmts[0].(*ConfigStmt); ok {
			r.cfg = c
		}
	}
	vs := r.cfg.AllVariants()
	r.variant, r.variants = vs[0], len(vs)
	if variant >= 0 {
		if variant >= len(vs) {
			return nil, fmt.Errorf("%s: the config names %d variant(s) (%s), no variant %d", s.File, len(vs), variantList(vs), variant)
		}
		r.variant = vs[variant]
	}
	if traced {
		r.log = trace.NewLog()
	}
	r.SetBudget(DefaultBudget)
	opt := bufmgr.Options{Pins: r.Pins(), InRecovery: r.cfg.InRecovery, DropList: r.cfg.DropList, SyncScans: !r.cfg.NoSyncScans,
		Version: int(r.PG()), IOCombineLimit: r.cfg.IOCombineLimit, EffectiveIOConcurrency: -1,
		IOLatencyUS: r.cfg.IOLatencyUS, IOBlockUS: r.cfg.IOBlockUS}
	if r.cfg.EffectiveIOConcurrencySet {
		opt.EffectiveIOConcurrency = r.cfg.EffectiveIOConcurrency
	}
	if r.cfg.IOMethod != "" || r.cfg.IOWorkers != 0 {
		switch {
		case opt.Version >= 18:
			opt.IOMethod, opt.IOWorkers = r.cfg.IOMethod, r.cfg.IOWorkers
		case !names18(r.cfg, vs):
			return nil, &Error{File: s.File, Pos: r.cfg.IOMethodPos, Msg: "io_method and io_workers are PostgreSQL 18's: expected pg=18 (or a pane at 18: pg=15,18)"}
		}
	}
	if d, ok := r.variant.Drop(); ok && d == bufmgr.DropDList {
		opt.DropList = true
	}
	if opt.DropList && opt.Version > bufmgr.MinVersion {
		return nil, &Error{File: s.File, Pos: r.cfg.Pos, Msg: fmt.Sprintf(
			"pg=%d with the dlist drop variant (drop=dlist or dlist=on): that reverted patch is modelled on PostgreSQL 15's BufferAlloc only (pg=15)", opt.Version)}
	}
	pool, err := bufmgr.NewPoolWith(r.cfg.NBuffers, r.log, opt)
	if err != nil {
		return nil, err
	}
	r.pool = pool
	if err := r.newSLRU(); err != nil {
		return nil, err
	}
	if err := r.newFSM(); err != nil {
		return nil, err
	}
	return r, nil
}

// Pool returns the engine's buffer pool.
func (r *Runner) Pool() *bufmgr.Pool { return r.pool }

// Log returns the event log (nil when not traced).
func (r *Runner) Log() *trace.Log { return r.log }

// Pins is the pin variant this runner's pool uses.
// (the pane's pins= choice, else the config's single pins= value, which
// every pane of another key's variants shares).
func (r *Runner) Pins() bufmgr.PinsMode {
	if r.variant.Has("pins") {
		return r.variant.Pins()
	}
	return r.cfg.Pins
}

// Variant is the variant this runner runs.
func (r *Runner) Variant() Variant { return r.variant }

// variantNote names the variant in an error when the scenario runs more
// than one, so a failed check says which pane it is about.
func (r *Runner) variantNote() string {
	if r.variants > 1 {
		return " (" + r.variant.String() + ")"
	}
	return ""
}

// Config returns the configuration in force.
func (r *Runner) Config() *ConfigStmt { return r.cfg }

// Schedules returns, for each completed or paused run, the backends resumed
// at each step.
func (r *Runner) Schedules() [][]trace.Actor { return r.schedules }

// RelName names a relation number as the scenario does.
func (r *Runner) RelName(n uint32) string {
	if s, ok := r.relNames[n]; ok {
		return s
	}
	return fmt.Sprint(n)
}

func (r *Runner) relName(n uint32) string { return r.RelName(n) }

// Relations lists the relations defined so far in definition order
// (their relation numbers ascending).
func (r *Runner) Relations() []*bufmgr.Relation {
	out := make([]*bufmgr.Relation, 0, len(r.rels))
	for _, rel := range r.rels {
		out = append(out, rel)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Number < out[j].Number })
	return out
}

// BackendError is the message of the ERROR that aborted the backend's
// last operations ("" if none did, or no backend has that name).
func (r *Runner) BackendError(name string) string {
	if be, ok := r.backendByName[name]; ok && be.err != nil {
		return be.err.Msg
	}
	return ""
}

// BackendNames returns backend names by actor number (index 0 is the system).
func (r *Runner) BackendNames() []string {
	out := []string{"sys"}
	for _, b := range r.backends {
		out = append(out, b.name)
	}
	return out
}

func (r *Runner) errf(pos Pos, format string, args ...any) error {
	return &Error{File: r.script.File, Pos: pos, Msg: fmt.Sprintf(format, args...) + r.variantNote()}
}

// Variants returns the variants a parsed scenario runs (one unless its
// config names several).
func Variants(s *Script) []Variant {
	if len(s.Stmts) > 0 {
		if c, ok := s.Stmts[0].(*ConfigStmt); ok {
			return c.AllVariants()
		}
	}
	return (&ConfigStmt{}).AllVariants()
}

// Done reports whether every statement has been executed.
func (r *Runner) Done() bool { return r.next >= len(r.script.Stmts) }

// Step executes the next statement and returns what it printed.
func (r *Runner) Step() (Output, error) {
	st := r.script.Stmts[r.next]
	r.next++
	text, err := r.exec(st)
	return Output{Stmt: st, Text: text}, err
}

// SetEventText says whether a run statement's output describes its events
// (on, the default: `bufferlab run` prints them) or is empty (off). Off,
// the events stay in the log, each described when asked (DescribeEvent):
// what keeps only the events (the player, a lesson's play, run --summary)
// saves formatting every event to text, a line of about 100 bytes and a
// microsecond or so each (the 576,147 events of the 128MB pool warming
// up: 3.6 s and 900 MB allocated to open in the player with the text, on
// this project's machine). Other statements (show, expect) print as
// always.
func (r *Runner) SetEventText(on bool) { r.noText = !on }

// RunAll executes every remaining statement and returns their outputs.
func (r *Runner) RunAll() ([]Output, error) {
	var outs []Output
	for !r.Done() {
		o, err := r.Step()
		if o.Text != "" {
			outs = append(outs, o)
		}
		if err != nil {
			return outs, err
		}
	}
	return outs, nil
}

// Run parses and runs a scenario, returning the runner (for its final
// state) and everything printed. A scenario naming several pin variants
// also runs the others afterwards, so that their expect statements are
// checked too; the runner and output are the first variant's.
func Run(name, src string, traced bool) (*Runner, string, error) {
	s, err := Parse(name, src)
	if err != nil {
		return nil, "", err
	}
	return RunScript(s, traced)
}

// RunScript is Run of a parsed script.
func RunScript(s *Script, traced bool) (*Runner, string, error) {
	r, err := NewRunner(s, traced)
	if err != nil {
		return nil, "", err
	}
	outs, err := r.RunAll()
	var b strings.Builder
	for _, o := range outs {
		b.WriteString(o.Text)
	}
	for v := 1; err == nil && v < len(Variants(s)); v++ {
		var alt *Runner
		if alt, err = NewVariantRunner(s, false, v); err == nil {
			_, err = alt.RunAll()
		}
	}
	return r, b.String(), err
}

func (r *Runner) exec(st Stmt) (string, error) {
	switch st := st.(type) {
	case *ConfigStmt:
		return "", nil
	case *RelationStmt:
		for _, name := range st.Names() {
			num := uint32(bufmgr.FirstNormalObjectId + len(r.rels))
			rel := &bufmgr.Relation{Name: name, Number: num, Permanent: !st.Unlogged, NBlocks: st.NBlocks}
			r.rels[name] = rel
			r.relNames[num] = name
			if st.Heap {
				if _, err := r.fsm.NewHeap(rel, st.FillFactor); err != nil {
					return "", r.errf(st.Pos, "%v", err)
				}
			}
		}
		return "", nil
	case *BackendStmt:
		be, err := r.backend(st)
		if err != nil {
			return "", err
		}
		if len(st.Ops) > 0 && r.sched != nil && r.live(be) {
			return "", r.errf(st.Pos, "backend %s is still running the operations of a paused run: expected 'run' to finish them first", st.Name)
		}
		be.queue = append(be.queue, st.Ops...)
		return "", nil
	case *ScheduleStmt:
		if r.pending == nil {
			r.pending = &ScheduleStmt{Pos: st.Pos}
		}
		// Schedule lines before one run add up: a long schedule spans
		// lines.
		r.pending.Runs = append(r.pending.Runs, st.Runs...)
		return "", nil
	case *RunStmt:
		return r.run(st)
	case *ShowStmt:
		if st.What == "map" {
			return r.showMap(), nil
		}
		if st.What == "slru" {
			return r.slru.Picture(), nil
		}
		if st.What == "heap" {
			return r.fsm.Picture(r.relName), nil
		}
		if st.All {
			return r.pool.PictureAll(r.relName), nil
		}
		return r.pool.Picture(r.relName), nil
	case *ExpectStmt:
		return "", r.evalExpect(st)
	}
	return "", r.errf(st.At(), "internal: unknown statement %T", st)
}

func (r *Runner) backend(st *BackendStmt) (*backendState, error) {
	if be, ok := r.backendByName[st.Name]; ok {
		return be, nil
	}
	b, err := r.pool.NewBackend(st.Name)
	if err != nil {
		return nil, r.errf(st.Pos, "%v", err)
	}
	be := &backendState{name: st.Name, b: b, held: map[bufmgr.BufferTag]bufmgr.Buffer{}}
	if r.slru != nil {
		// The same actor number on the SLRU: both attach in order.
		if be.sb, err = r.slru.NewBackend(st.Name); err != nil {
			return nil, r.errf(st.Pos, "%v", err)
		}
	}
	r.backends = append(r.backends, be)
	r.backendByName[st.Name] = be
	return be, nil
}

func (r *Runner) live(be *backendState) bool {
	for _, p := range r.sched.Live() {
		if p.Actor == be.b.Actor {
			return true
		}
	}
	return false
}

func (r *Runner) basePolicy() sched.Policy {
	if r.cfg.Policy == "random" {
		return sched.NewRandom(r.cfg.Seed + uint64(r.runs))
	}
	return &sched.RoundRobin{}
}

func (r *Runner) run(st *RunStmt) (string, error) {
	firstEvent := r.log.Len()
	if err := r.checkMaxSteps(); err != nil {
		return "", err
	}
	if r.sched == nil {
		policy := r.basePolicy()
		r.script0 = nil
		if r.pending != nil {
			r.script0 = r.newScript(r.pending, policy)
			policy = r.script0
		}
		r.sched = sched.New(policy)
		for _, be := range r.backends {
			if len(be.queue) > 0 {
				r.spawn(be)
			}
		}
		r.spawnIOWorkers()
		r.runs++
		r.schedules = append(r.schedules, nil)
	} else if r.pending != nil {
		return "", r.errf(r.pending.Pos, "a schedule cannot change in the middle of a paused run: expected it before the first 'run steps=N'")
	} else {
		// A paused run goes on. A backend given operations since the
		// pause (one declared then, or one whose operations had all
		// finished) joins it, after those already running.
		for _, be := range r.backends {
			if len(be.queue) > 0 && !r.live(be) {
				r.spawn(be)
			}
		}
	}
	r.runStmt = st
	limit := r.cfg.MaxSteps
	if st.Steps > 0 && st.Steps < limit {
		limit = st.Steps
	}
	steps := 0
	var runErr error
	for steps < limit {
		more, err := r.sched.Step()
		if err != nil {
			runErr = err
			break
		}
		if !more {
			break
		}
		steps++
		if r.log.Dropped() > 0 {
			runErr = r.budgetErr(st, steps)
			break
		}
		if r.script.Yield != nil && steps%YieldEvery == 0 {
			if err := r.script.Yield(r.log.Len()); err != nil {
				runErr = r.yieldErr(st, steps, err)
				break
			}
		}
	}
	// The schedule so far: what this run statement added to what a paused
	// run's earlier statements took (TakeRecord: no copy of 25M steps).
	if last := &r.schedules[len(r.schedules)-1]; *last == nil {
		*last = r.sched.TakeRecord()
	} else {
		*last = append(*last, r.sched.TakeRecord()...)
	}
	out := r.describe(firstEvent)
	if runErr == nil {
		for _, p := range r.sched.Procs() {
			if p.Done() && p.Err() != nil {
				runErr = p.Err()
				break
			}
		}
	}
	errPos := st.Pos
	if r.script0 != nil && r.script0.inScript() {
		errPos = r.script0.pos() // the schedule token of the step that failed
	}
	finished := len(r.sched.Live()) == 0
	if runErr != nil || finished || steps >= r.cfg.MaxSteps {
		if !finished && runErr == nil {
			runErr = r.errf(st.Pos, "run stopped after max_steps=%d steps with backends still running; raise max_steps in config or check the schedule", r.cfg.MaxSteps)
		}
		r.sched.Stop()
		r.sched = nil
		r.pending = nil
	}
	if runErr != nil {
		var se *Error
		if errors.As(runErr, &se) {
			return out, se
		}
		return out, r.errf(errPos, "run: %v", runErr)
	}
	return out, nil
}

// spawnIOWorkers starts the pool's I/O workers (PostgreSQL 18,
// io_method=worker) as processes of the run, after its backends: each
// runs until no backend of the run is left and it has nothing to do
// (bufmgr.Pool.RunIOWorker), so a run ends when its backends' work and
// their reads are done.
func (r *Runner) spawnIOWorkers() {
	clientsDone := func() bool {
		for _, be := range r.backends {
			if r.live(be) {
				return false
			}
		}
		return true
	}
	for i := range r.pool.IOWorkers() {
		r.sched.Spawn(bufmgr.IOWorkerActor(i), IOWorkerName(i), func(y sched.Yield) error {
			return r.pool.RunIOWorker(i, y, clientsDone)
		})
	}
	if r.pool.UsesKernel() {
		// io_method=io_uring: the kernel finishes the reads in flight in
		// an order of its own, drawn from the scenario's seed.
		rng := rand.New(rand.NewPCG(r.cfg.Seed, uint64(r.runs)))
		r.sched.Spawn(bufmgr.KernelActor(), "kernel", func(y sched.Yield) error {
			return r.pool.RunKernel(y, clientsDone, rng.IntN)
		})
	}
}

// IOWorkerName is how the scenario names I/O worker i (PostgreSQL 18):
// "io worker 0" (the process title's "io worker" and its number).
func IOWorkerName(i int) string { return fmt.Sprintf("io worker %d", i) }

// ProcessName names PostgreSQL 18's processes that are not a scenario's
// backends, in words: an I/O worker ("io worker 0") and, under
// io_method=io_uring, the kernel. ok is false for any other actor. The
// runner's captions and a player's (which has no pool) both name them so.
func ProcessName(a trace.Actor) (name string, ok bool) {
	if i, ok := bufmgr.IOWorkerOf(a); ok {
		return IOWorkerName(i), true
	}
	if a == bufmgr.KernelActor() {
		return "kernel", true
	}
	return "", false
}

// spawn starts a coroutine running be's queued operations in the
// current run.
func (r *Runner) spawn(be *backendState) {
	be.err = nil
	drives := []sched.Yielder{be.b}
	if be.sb != nil {
		drives = append(drives, be.sb)
	}
	r.sched.SpawnDriving(be.b.Actor, be.name, func(sched.Yield) error { return r.body(be) }, drives...)
}

func (r *Runner) describe(from int) string {
	if r.log == nil || r.noText {
		return ""
	}
	var b strings.Builder
	for e := range r.log.Range(from, r.log.Len()) {
		b.WriteString(r.DescribeEvent(e))
		b.WriteByte('\n')
	}
	return b.String()
}

// DescribeEvent prints an event with the scenario's backend and relation names.
// The mechanism that claims the event describes it; the pool's
// description is the default.
func (r *Runner) DescribeEvent(e trace.Event) string {
	for _, m := range registry.mechs {
		if m.describes != nil && m.describes(e) {
			return m.describe(r, e)
		}
	}
	return bufmgr.DescribeWith(e, r.relName, r.actorName)
}

// actorName names an actor as the scenario does (the letter for one it
// does not know).
func (r *Runner) actorName(a trace.Actor) string {
	if int(a) >= 1 && int(a) <= len(r.backends) {
		return r.backends[a-1].name
	}
	if name, ok := ProcessName(a); ok {
		return name
	}
	return trace.ActorName(a)
}

// body runs a backend's queued operations.
func (r *Runner) body(be *backendState) error {
	for len(be.queue) > 0 {
		op := be.queue[0]
		be.queue = be.queue[1:]
		if err := r.execOp(be, op); err != nil {
			var pg *bufmgr.PGError
			if errors.As(err, &pg) {
				be.err = pg
				be.b.AbortTransaction()
				clear(be.held)
				be.queue = nil
				return nil
			}
			be.queue = nil
			return err
		}
	}
	return nil
}

// execOp runs one queued operation with the runner of the mechanism
// that registered it (release all is release's).
func (r *Runner) execOp(be *backendState, op Op) error {
	spec := opSpecOf(op.Kind)
	if spec == nil {
		spec = opSpecOf(OpRelease)
	}
	return spec.run(r, be, op)
}

// execPoolOp runs the pool's operations over a relation's blocks.
func (r *Runner) execPoolOp(be *backendState, op Op) error {
	b := be.b
	if op.Kind == OpReleaseAll {
		for _, pin := range b.Pins() {
			for i := 0; i < pin.Count; i++ {
				if err := b.ReleaseBuffer(pin.Buffer); err != nil {
					return r.errf(op.Pos, "release all: %v", err)
				}
			}
		}
		clear(be.held)
		return nil
	}
	if len(op.Rels) > 1 {
		for _, n := range op.Rels {
			one := op
			one.Rel, one.Rels = n, nil
			if err := r.execOp(be, one); err != nil {
				return err
			}
		}
		return nil
	}
	rel := r.rels[op.Rel]
	if op.Kind == OpScan {
		buf, err := b.SeqScanPages(rel, op.Pages)
		if err == nil && buf != bufmgr.InvalidBuffer {
			be.held[r.pool.Desc(int(buf-1)).Tag()] = buf // the paused cursor's pin
		}
		return err
	}
	for blk := op.From; ; blk++ {
		tag := rel.Tag(op.Fork, blk)
		switch op.Kind {
		case OpRead, OpTouch, OpWrite:
			buf, _, err := b.ReadBuffer(rel, op.Fork, blk, nil)
			if err != nil {
				return err
			}
			if op.Kind == OpRead {
				be.held[tag] = buf
				break
			}
			if op.Kind == OpWrite {
				if err := b.MarkBufferDirty(buf); err != nil {
					return r.errf(op.Pos, "write: %v", err)
				}
			}
			if b.PrivateRefCount(buf) == 1 {
				delete(be.held, tag)
			}
			if err := b.ReleaseBuffer(buf); err != nil {
				return r.errf(op.Pos, "%s: %v", op.Kind, err)
			}
		case OpRelease, OpDirty, OpCleanup:
			buf, ok := be.held[tag]
			if !ok {
				return r.errf(op.Pos, "%s %s %d: expected backend %s to hold a pin on %s, but it does not (read it first)",
					op.Kind, op.Rel, blk, be.name, bufmgr.TagString(tag, r.relName))
			}
			if op.Kind == OpDirty {
				if err := b.MarkBufferDirty(buf); err != nil {
					return r.errf(op.Pos, "dirty: %v", err)
				}
				break
			}
			if op.Kind == OpCleanup {
				// LockBufferForCleanup, then LockBuffer(UNLOCK): the
				// backend keeps its pin, as VACUUM does between pages.
				if err := b.LockBufferForCleanup(buf); err != nil {
					var pg *bufmgr.PGError
					if errors.As(err, &pg) && pg.Code == bufmgr.ErrMultiplePinWaiters {
						return err // a PostgreSQL ERROR: aborts the transaction
					}
					return r.errf(op.Pos, "cleanup: %v", err)
				}
				if err := b.UnlockBuffer(buf); err != nil {
					return r.errf(op.Pos, "cleanup: %v", err)
				}
				break
			}
			if b.PrivateRefCount(buf) == 1 {
				delete(be.held, tag)
			}
			if err := b.ReleaseBuffer(buf); err != nil {
				return r.errf(op.Pos, "release: %v", err)
			}
		}
		if blk == op.To {
			return nil
		}
	}
}

// dropStrategy is the strategy of a drop or truncate that names s: its own
// when it names one, else the pane's drop= variant, else the config's one
// drop= strategy beside several variants of another key, else auto.
func (r *Runner) dropStrategy(s bufmgr.DropStrategy) bufmgr.DropStrategy {
	switch {
	case s != bufmgr.DropAuto:
		return s
	case r.variant.Has("drop"):
		d, _ := r.variant.Drop()
		return d
	}
	return s
}

// execDrop drops the buffers of the relations of one DROP TABLE's commit,
// or its replay in recovery: smgrdounlinkall (smgr.c, PG 15) makes one
// call of DropRelFileNodesAllBuffers for all of them, even for one
// relation. (DropRelFileNodeBuffers belongs to smgrtruncate: see
// execTruncate.)
func (r *Runner) execDrop(be *backendState, op Op) error {
	op.Strategy = r.dropStrategy(op.Strategy)
	rels := make([]*bufmgr.Relation, len(op.Rels))
	for i, n := range op.Rels {
		rels[i] = r.rels[n]
	}
	_, err := be.b.DropRelationsAllBuffers(rels, op.Strategy)
	if err != nil {
		var pg *bufmgr.PGError
		if errors.As(err, &pg) {
			return err // a PostgreSQL ERROR: aborts the transaction
		}
		return r.errf(op.Pos, "drop: %v", err)
	}
	return nil
}

func (r *Runner) showMap() string {
	var b strings.Builder
	entries := r.pool.MappingEntries()
	fmt.Fprintf(&b, "mapping table: %d entries in %d partitions\n", len(entries), bufmgr.NumBufferPartitions)
	for _, e := range entries {
		fmt.Fprintf(&b, "  %-14s -> buf %-5d partition %d (hash %#08x)\n", bufmgr.TagString(e.Tag, r.relName), e.BufID, e.Partition, bufmgr.BufTableHashCode(e.Tag))
	}
	return b.String()
}
