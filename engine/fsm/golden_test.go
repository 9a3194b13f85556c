package fsm_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/sched"
	"bufferlab/engine/trace"
	"bufferlab/internal/goldentest"
)

// TestGolden runs the datadriven files in testdata/. Each case is a small
// script (one command per line) run on a fresh pool and store; the output
// below "----" depends on the directive:
//
//	events [variant=V] [threshold=N] [buffers=N] [pg=N] [brief]
//	         the events logged after the script's "trace" command (all of
//	         them without one), described, then the final picture; brief
//	         keeps only this package's events and the buffer manager's
//	         read, release, hit and miss lines; pg is the pool's
//	         PostgreSQL version (15 by default; 16 to 18 extend through
//	         RelationAddBlocks); sites=a,b,... prints only the
//	         events of those sites; nopicture prints each heap's
//	         size and pages in the FSM instead of its picture
//	picture  [variant=...]   only the final picture
//	error    [variant=...]   the script must fail; the output is the error
//
// Script commands:
//
//	heap NAME [fillfactor=N] [blocks=N]   a heap (blocks: new pages)
//	session NAME                          start or switch to a session
//	insert NAME [len=N] [n=N]             heap_insert (len: t_len, default 28)
//	delete NAME BLOCK OFFSET              heap_delete
//	vacuum NAME                           VACUUM
//	record NAME BLOCK AVAIL               RecordPageWithFreeSpace
//	get NAME NEEDED                       GetPageWithFreeSpace
//	recordget NAME BLOCK AVAIL NEEDED     RecordAndGetPageWithFreeSpace
//	fsmvacuum NAME                        FreeSpaceMapVacuum
//	free NAME BLOCK                       GetRecordedFreeSpace
//	tear NAME FSMBLOCK NODE VALUE         make a torn FSM page
//	tearheader NAME FSMBLOCK              tear an FSM page's header
//	trace                                 events from here on are printed
//	spawn NAME insert HEAP [len=N] [n=N]  queue inserts for session NAME
//	                                      (started if new) for the next run
//	spawn NAME hold HEAP waiters=N        queue HoldExtensionLock instead
//	run [seed=N] [first]                  run the queued sessions side by
//	                                      side under the scheduler: round
//	                                      robin, random from the seed, or
//	                                      first (the first awake in spawn
//	                                      order, each until it sleeps)
//
// get, recordget and free print their result into the output.
//
// Regenerate with: go test ./engine/fsm -run Golden -rewrite
func TestGolden(t *testing.T) {
	goldentest.Run(t, "testdata/*.txt", goldentest.Scripted(runGoldenCase, (*goldenRun).output))
}

type goldenRun struct {
	pool      *bufmgr.Pool
	store     *fsm.Store
	heaps     map[string]*fsm.Heap
	order     []*fsm.Heap
	sessions  map[string]*fsm.Session
	sorder    []*fsm.Session
	cur       *fsm.Session
	mark      int
	out       strings.Builder
	brief     bool            // the case asks for brief events
	sites     map[string]bool // the case prints only these sites' events
	noPicture bool
	// queued are the inserts spawn queued for the next run, by session
	// (in sorder's order).
	queued map[*fsm.Session][]queuedInsert
}

// queuedInsert is n inserts of ln bytes into h.
type queuedInsert struct {
	h     *fsm.Heap
	n, ln int
	hold  int // >= 0: HoldExtensionLock for that many steps instead
}

func (g *goldenRun) names(rel uint32) string {
	if h, ok := g.store.HeapOf(rel); ok {
		return h.Rel.Name
	}
	return fmt.Sprint(rel)
}

// goldenOptions reads a case's arguments: the store's options (variant,
// threshold), the pool's size (buffers, 32 by default) and brief. An
// unknown argument or variant is the error.
func goldenOptions(d *goldentest.Case) (opt fsm.Options, pc poolConf, brief bool, err error) {
	pc.buffers = 32
	for _, a := range d.CmdArgs {
		switch a.Key {
		case "pg":
			pc.version, _ = strconv.Atoi(a.Vals[0])
		case "nopicture":
			pc.noPicture = true
		case "sites":
			for _, v := range a.Vals {
				pc.sites = append(pc.sites, strings.Split(v, ",")...)
			}
		case "variant":
			v, ok := fsm.ParseVariant(a.Vals[0])
			if !ok {
				return opt, pc, brief, fmt.Errorf("unknown variant %q", a.Vals[0])
			}
			opt.Variant = v
		case "threshold":
			opt.Threshold, _ = strconv.Atoi(a.Vals[0])
		case "buffers":
			pc.buffers, _ = strconv.Atoi(a.Vals[0])
		case "brief":
			brief = true
		default:
			return opt, pc, brief, fmt.Errorf("unknown argument %q", a.Key)
		}
	}
	return opt, pc, brief, nil
}

// poolConf is a case's pool: its size and PostgreSQL version (0: 15);
// and the sites whose events it prints (all when empty).
type poolConf struct {
	buffers, version int
	sites            []string
	noPicture        bool // print the heaps' sizes, not their pictures
}

// runGoldenCase runs the case's script with the options its arguments
// give (an unknown one fails the test), and notes whether it asks for
// brief events.
func runGoldenCase(t *testing.T, d *goldentest.Case) (*goldenRun, error) {
	opt, pc, brief, err := goldenOptions(d)
	if err != nil {
		t.Fatalf("%s: %v", d.Pos, err)
	}
	g, err := runScript(d.Input, opt, pc)
	if g != nil {
		g.brief = brief
		g.noPicture = pc.noPicture
		if len(pc.sites) > 0 {
			g.sites = map[string]bool{}
			for _, s := range pc.sites {
				g.sites[s] = true
			}
		}
	}
	return g, err
}

// output is the output of events (withEvents) and picture: the script's
// printed results, the events (brief or not), each heap's picture and
// each session's counters; the script must leave no pin.
func (g *goldenRun) output(withEvents bool) (string, error) {
	if err := g.pool.CheckQuiescent(); err != nil {
		return "", fmt.Errorf("pins left after the script: %w", err)
	}
	var b strings.Builder
	b.WriteString(g.out.String())
	if withEvents {
		for _, e := range g.pool.Log().Events()[g.mark:] {
			if g.brief && !keepBrief(e) || g.sites != nil && !g.sites[e.Site.String()] {
				continue
			}
			b.WriteString(fsm.Describe(e, g.names))
			b.WriteByte('\n')
		}
	}
	for _, h := range g.order {
		if g.noPicture {
			inFSM := 0
			for blk := uint32(0); blk < h.NBlocks(); blk++ {
				if h.RecordedCat(blk) > 0 {
					inFSM++
				}
			}
			fmt.Fprintf(&b, "heap %s: %d blocks, %d with free space in the FSM\n", h.Rel.Name, h.NBlocks(), inFSM)
			continue
		}
		b.WriteString(fsm.Picture(h, g.names, g.sorder...))
	}
	for _, s := range g.sorder {
		st := s.Stats
		fmt.Fprintf(&b, "session %s: reads main %d fsm %d vm %d; extends main %d fsm %d vm %d; fsm skipped %d, searches %d, restarts %d, torn repairs %d, pages tried %d\n",
			s.Backend().Name, st.Reads[0], st.Reads[1], st.Reads[2], st.Extends[0], st.Extends[1], st.Extends[2],
			st.FSMSkipped, st.Searches, st.Restarts, st.TornRepairs, st.PagesTried)
	}
	return b.String(), nil
}

// keepBrief keeps this package's events and the buffer manager's
// read/release operations, hits and misses.
func keepBrief(e trace.Event) bool {
	if fsm.IsFSMEvent(e) {
		return true
	}
	switch e.Kind {
	case trace.KHit, trace.KMiss, trace.KError:
		return true
	case trace.KOp:
		s := e.Site.String()
		return s == "read.begin" || s == "release.begin"
	}
	return false
}

func runScript(script string, opt fsm.Options, pc poolConf) (*goldenRun, error) {
	pool, err := bufmgr.NewPoolWith(pc.buffers, trace.NewLog(), bufmgr.Options{Version: pc.version})
	if err != nil {
		return nil, err
	}
	st, err := fsm.NewStore(pool, opt)
	if err != nil {
		return nil, err
	}
	g := &goldenRun{pool: pool, store: st, heaps: map[string]*fsm.Heap{}, sessions: map[string]*fsm.Session{}, queued: map[*fsm.Session][]queuedInsert{}}
	for n, line := range strings.Split(script, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if err := g.do(f); err != nil {
			return g, fmt.Errorf("line %d: %s: %w", n+1, strings.Join(f, " "), err)
		}
	}
	return g, nil
}

func (g *goldenRun) do(f []string) error {
	kv := map[string]int{}
	var pos []string
	for _, w := range f[1:] {
		if k, v, ok := strings.Cut(w, "="); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("%s: want a number, found %q", k, v)
			}
			kv[k] = n
		} else {
			pos = append(pos, w)
		}
	}
	// nums reads the n numbers after the heap's name; any missing or not
	// a number is the error usage.
	nums := func(n int, usage string) ([]int, error) {
		v := make([]int, n)
		for i := range v {
			if i+1 >= len(pos) {
				return nil, errors.New(usage)
			}
			var err error
			if v[i], err = strconv.Atoi(pos[i+1]); err != nil {
				return nil, errors.New(usage)
			}
		}
		return v, nil
	}
	heap := func() (*fsm.Heap, error) {
		if len(pos) == 0 {
			return nil, fmt.Errorf("missing heap name")
		}
		h, ok := g.heaps[pos[0]]
		if !ok {
			return nil, fmt.Errorf("no heap %q", pos[0])
		}
		if g.cur == nil {
			return nil, fmt.Errorf("no session yet")
		}
		return h, nil
	}
	switch f[0] {
	case "trace":
		g.mark = g.pool.Log().Len()
		return nil
	case "heap":
		if len(pos) != 1 {
			return fmt.Errorf("heap NAME [fillfactor=N] [blocks=N]")
		}
		ff := 100
		if v, ok := kv["fillfactor"]; ok {
			ff = v
		}
		rel := &bufmgr.Relation{Name: pos[0], Number: bufmgr.FirstNormalObjectId + uint32(len(g.order)), Permanent: true}
		rel.NBlocks[bufmgr.MainForkNum] = uint32(kv["blocks"])
		h, err := g.store.NewHeap(rel, ff)
		if err != nil {
			return err
		}
		g.heaps[pos[0]] = h
		g.order = append(g.order, h)
		return nil
	case "run":
		return g.run(kv, len(pos) == 1 && pos[0] == "first")
	case "spawn":
		if len(pos) != 3 || pos[1] != "insert" && pos[1] != "hold" {
			return fmt.Errorf("spawn NAME insert HEAP [len=N] [n=N] | spawn NAME hold HEAP waiters=N")
		}
		h, ok := g.heaps[pos[2]]
		if !ok {
			return fmt.Errorf("no heap %q", pos[2])
		}
		cur := g.cur
		if err := g.do([]string{"session", pos[0]}); err != nil {
			return err
		}
		s := g.cur
		g.cur = cur
		if g.cur == nil {
			g.cur = s
		}
		q := queuedInsert{h: h, n: 1, ln: fsm.HeapTupleLen(4), hold: -1}
		if pos[1] == "hold" {
			q.hold = kv["waiters"]
		}
		if v, ok := kv["n"]; ok {
			q.n = v
		}
		if v, ok := kv["len"]; ok {
			q.ln = v
		}
		g.queued[s] = append(g.queued[s], q)
		return nil
	case "session":
		if len(pos) != 1 {
			return fmt.Errorf("session NAME")
		}
		if s, ok := g.sessions[pos[0]]; ok {
			g.cur = s
			return nil
		}
		b, err := g.pool.NewBackend(pos[0])
		if err != nil {
			return err
		}
		s, err := g.store.NewSession(b)
		if err != nil {
			return err
		}
		g.sessions[pos[0]] = s
		g.sorder = append(g.sorder, s)
		g.cur = s
		return nil
	}
	h, err := heap()
	if err != nil {
		return err
	}
	s := g.cur
	switch f[0] {
	case "insert":
		n, ln := 1, fsm.HeapTupleLen(4)
		if v, ok := kv["n"]; ok {
			n = v
		}
		if v, ok := kv["len"]; ok {
			ln = v
		}
		for i := 0; i < n; i++ {
			if _, err := s.HeapInsert(h, ln); err != nil {
				return err
			}
		}
	case "delete":
		a, err := nums(2, "delete NAME BLOCK OFFSET")
		if err != nil {
			return err
		}
		blk, off := a[0], a[1]
		return s.HeapDelete(h, fsm.TID{Block: uint32(blk), Offset: uint16(off)})
	case "vacuum":
		return s.Vacuum(h)
	case "fsmvacuum":
		return s.FreeSpaceMapVacuum(h)
	case "record":
		a, err := nums(2, "record NAME BLOCK AVAIL")
		if err != nil {
			return err
		}
		blk, avail := a[0], a[1]
		return s.RecordPageWithFreeSpace(h, uint32(blk), avail)
	case "get":
		a, err := nums(1, "get NAME NEEDED")
		if err != nil {
			return err
		}
		need := a[0]
		blk, err := s.GetPageWithFreeSpace(h, need)
		if err != nil {
			return err
		}
		fmt.Fprintf(&g.out, "get %s %d -> %s\n", pos[0], need, blkText(blk))
	case "recordget":
		a, err := nums(3, "recordget NAME BLOCK AVAIL NEEDED")
		if err != nil {
			return err
		}
		blk, avail, need := a[0], a[1], a[2]
		r, err := s.RecordAndGetPageWithFreeSpace(h, uint32(blk), avail, need)
		if err != nil {
			return err
		}
		fmt.Fprintf(&g.out, "recordget %s %d %d %d -> %s\n", pos[0], blk, avail, need, blkText(r))
	case "free":
		a, err := nums(1, "free NAME BLOCK")
		if err != nil {
			return err
		}
		blk := a[0]
		v, err := s.GetRecordedFreeSpace(h, uint32(blk))
		if err != nil {
			return err
		}
		fmt.Fprintf(&g.out, "free %s %d -> %d\n", pos[0], blk, v)
	case "tear":
		a, err := nums(3, "tear NAME FSMBLOCK NODE VALUE")
		if err != nil {
			return err
		}
		phys, node, v := a[0], a[1], a[2]
		return h.TearFSMNode(uint32(phys), node, uint8(v))
	case "tearheader":
		a, err := nums(1, "tearheader NAME FSMBLOCK")
		if err != nil {
			return err
		}
		phys := a[0]
		return h.TearFSMHeader(uint32(phys))
	default:
		return fmt.Errorf("unknown command %q", f[0])
	}
	return nil
}

func blkText(b uint32) string {
	if b == fsm.InvalidBlockNumber {
		return "InvalidBlockNumber"
	}
	return fmt.Sprint(b)
}

// run runs the queued inserts, each session's in its own backend under
// the scheduler (round robin, or Random from seed=), and clears the queue.
func (g *goldenRun) run(kv map[string]int, first bool) error {
	var p sched.Policy = &sched.RoundRobin{}
	if seed, ok := kv["seed"]; ok {
		p = sched.NewRandom(uint64(seed))
	}
	if first {
		p = firstAwake{}
	}
	sc := sched.New(p)
	for _, s := range g.sorder {
		qs := g.queued[s]
		if len(qs) == 0 {
			continue
		}
		b := s.Backend()
		b.Spawn(sc, func(sched.Yield) error {
			for _, q := range qs {
				if q.hold >= 0 {
					if err := s.HoldExtensionLock(q.h, q.hold); err != nil {
						return err
					}
					continue
				}
				for i := 0; i < q.n; i++ {
					if _, err := s.HeapInsert(q.h, q.ln); err != nil {
						return err
					}
				}
			}
			return nil
		})
	}
	clear(g.queued)
	if err := sc.Run(); err != nil {
		return err
	}
	for _, p := range sc.Procs() {
		if p.Err() != nil {
			return fmt.Errorf("%s: %w", p.Name, p.Err())
		}
	}
	return nil
}

// firstAwake is the policy of run first: the first backend, in spawn
// order, that is not asleep.
type firstAwake struct{}

func (firstAwake) Name() string                                { return "first" }
func (firstAwake) Pick(live []*sched.Proc, _ int) (int, error) { return 0, nil }
