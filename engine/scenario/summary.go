package scenario

import (
	"fmt"
	"iter"
	"slices"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
)

// opSummary accumulates one backend's events between two results.
type opSummary struct {
	decrements, skipped, casFails, spins, waits int
	// a drop in progress: its begin event and what it did so far
	drop                                        *trace.Event
	descs, lookups, hops, invalidated, pinWaits int
	victim                                      string
	written                                     []string
	// a clog operation in progress (SLRU events)
	slru slruSummary
	// a heap operation in progress (insert, delete, vacuum: FSM events)
	heap heapSummary
}

// heapSummary is what one heap operation of the free space map model did
// so far: the pages it read by fork, the pages it found too full, the
// relation's growth.
type heapSummary struct {
	depth          int        // nesting of FSM operations (an insert calls the FSM's)
	op             trace.Site // the site of the outermost operation's begin event
	reads          [bufmgr.MaxForkNum + 1]int
	full, extended int
	extWaits       int // times it queued for the extension lock (PG 16+)
	fsmCreated     bool
}

// opWord names the outermost operation for an error line: "insert ".
func (h *heapSummary) opWord() string {
	switch h.op {
	case siteHeapInsBegin:
		return "insert "
	case siteHeapDelBegin:
		return "delete "
	case siteVacuumBegin:
		return "vacuum "
	}
	return ""
}

// line is the summary of a finished heap operation (its KOpDone event).
func (h *heapSummary) line(name string, done trace.Event, rel string) string {
	what := ""
	switch done.Site {
	case siteHeapInsDone:
		what = fmt.Sprintf("insert %s -> %s", rel, fsm.UnpackTID(done.After))
	case siteHeapDelDone:
		_, blk, off := fsm.UnpackAddr(done.Arg)
		what = fmt.Sprintf("delete %s (%d,%d)", rel, blk, off)
	case siteVacuumDone:
		what = fmt.Sprintf("vacuum %s: %d -> %d pages", rel, done.Before, done.After)
	default:
		return ""
	}
	var parts []string
	count := func(n int, one, many string) {
		if n == 1 {
			parts = append(parts, "1 "+one)
		} else if n > 1 {
			parts = append(parts, fmt.Sprintf("%d %s", n, many))
		}
	}
	count(h.reads[bufmgr.MainForkNum], "heap page read", "heap page reads")
	count(h.reads[bufmgr.FSMForkNum], "FSM page read", "FSM page reads")
	count(h.reads[bufmgr.VMForkNum], "visibility map read", "visibility map reads")
	count(h.full, "page found too full", "pages found too full")
	count(h.extWaits, "wait for the extension lock", "waits for the extension lock")
	count(h.extended, "page added", "pages added")
	if h.fsmCreated {
		parts = append(parts, "FSM fork created")
	}
	out := "  " + name + " " + what
	if len(parts) > 0 {
		out += ": " + strings.Join(parts, ", ")
	}
	return out + "\n"
}

// slruSummary is what one clog operation did so far.
type slruSummary struct {
	found                          string // "page 3 hit in slot 16", "page 3 miss"
	compared, probes, waits, wrote int
	victim                         string
}

// line is the summary of a finished clog operation (its KOpDone event).
func (s *slruSummary) line(name string, done trace.Event) string {
	var parts []string
	if s.found != "" {
		parts = append(parts, s.found)
	}
	if s.victim != "" {
		parts = append(parts, s.victim)
	}
	count := func(n int, one, many string) {
		if n == 1 {
			parts = append(parts, "1 "+one)
		} else if n > 1 {
			parts = append(parts, fmt.Sprintf("%d %s", n, many))
		}
	}
	count(s.compared, "slot compared", "slots compared")
	count(s.probes, "hash probe", "hash probes")
	count(s.wrote, "dirty page written", "dirty pages written")
	count(s.waits, "wait", "waits")
	out := fmt.Sprintf("  %s clog %s", name, slru.Result(done))
	if len(parts) > 0 {
		out += ": " + strings.Join(parts, ", ")
	}
	return out + "\n"
}

// add counts an SLRU event into the summary.
func (s *slruSummary) add(e trace.Event) {
	switch e.Kind {
	case trace.KSlotScan:
		s.compared++
	case trace.KMapLookup:
		s.probes++
	case trace.KLWWait, trace.KIOWait:
		s.waits++
	case trace.KIOWrite:
		s.wrote++
	case trace.KHit:
		s.found = fmt.Sprintf("page %d hit in slot %d", e.Arg, e.Obj)
	case trace.KMiss:
		s.found = fmt.Sprintf("page %d miss", e.Arg)
	case trace.KVictim:
		s.victim = fmt.Sprintf("slot %d taken", e.Obj)
	}
}

// Summarize condenses events into one line per finished read (hit or miss),
// per dirty-victim write and per error: what a person wants to see first,
// before the individual shared-memory operations.
func (r *Runner) Summarize(events []trace.Event) string {
	return r.summarize(slices.Values(events))
}

// SummarizeLog is Summarize of the runner's events from event from on,
// read from its log in order (however the log keeps them).
func (r *Runner) SummarizeLog(from int) string {
	return r.summarize(r.log.Range(from, r.log.Len()))
}

func (r *Runner) summarize(events iter.Seq[trace.Event]) string {
	var b strings.Builder
	acc := map[trace.Actor]*opSummary{}
	get := func(a trace.Actor) *opSummary {
		if acc[a] == nil {
			acc[a] = &opSummary{}
		}
		return acc[a]
	}
	name := func(a trace.Actor) string {
		names := r.BackendNames()
		if int(a) < len(names) {
			return names[a]
		}
		return trace.ActorName(a)
	}
	for e := range events {
		s := get(e.Actor)
		if e.Class.IsSLRU() {
			// The commit log's SLRU: one line per finished clog
			// operation, never mixed with the buffer pool's reads.
			if e.Kind == trace.KOpDone {
				b.WriteString(s.slru.line(name(e.Actor), e))
				s.slru = slruSummary{}
			} else if e.Kind == trace.KError {
				// The operation ends here, with no done event.
				fmt.Fprintf(&b, "  %s clog ERROR: %s\n", name(e.Actor), ErrorText(e))
				s.slru = slruSummary{}
			} else {
				s.slru.add(e)
			}
			continue
		}
		if e.Class.IsFSM() || s.heap.depth > 0 {
			// The free space map model: one line per finished insert,
			// delete or VACUUM, with the buffer reads it made by fork.
			switch {
			case e.Class.IsFSM() && e.Kind == trace.KOp:
				if s.heap.depth == 0 {
					s.heap = heapSummary{op: e.Site}
				}
				s.heap.depth++
			case e.Class.IsFSM() && e.Kind == trace.KError:
				// An ERROR ends the operation (no done event follows);
				// package fsm describes its own error codes.
				fmt.Fprintf(&b, "  %s %s%s ERROR: %s\n", name(e.Actor), s.heap.opWord(), r.RelName(e.Obj), ErrorText(e))
				s.heap = heapSummary{}
			case e.Class.IsFSM() && e.Kind == trace.KOpDone:
				s.heap.depth--
				if s.heap.depth == 0 {
					b.WriteString(s.heap.line(name(e.Actor), e, r.RelName(e.Obj)))
				}
			case e.Kind == trace.KHit || e.Kind == trace.KMiss:
				s.heap.reads[bufmgr.UnpackTag(e.Arg).ForkNum]++
			case e.Kind == trace.KPageTried && e.Site == siteHioFull:
				s.heap.full++
			case e.Kind == trace.KForkSize && e.Site == siteHioExtend:
				s.heap.extended++
			case e.Kind == trace.KForkSize && e.Site == siteExtendFork:
				_, b := fsm.UnpackForkWord(e.Before)
				_, a := fsm.UnpackForkWord(e.After)
				s.heap.extended += int(a - b)
			case e.Site == siteExtLockWait:
				s.heap.extWaits++
			case e.Kind == trace.KForkSize && e.Site == siteFSMCreate:
				s.heap.fsmCreated = true
			}
			continue
		}
		if s.drop != nil {
			switch {
			case e.Kind == trace.KLoad && (e.Site == siteDropPrecheck || e.Site == siteDropAllLinear || e.Site == siteDropAllBSearch):
				s.descs++
			case e.Kind == trace.KMapLookup:
				s.lookups++
			case e.Kind == trace.KLoad && (e.Site == siteDListHead || e.Site == siteDListNext):
				s.hops++
			case e.Kind == trace.KMapDelete:
				s.invalidated++
			case e.Kind == trace.KIOWait:
				s.pinWaits++
			case e.Kind == trace.KOpDone:
				d := s.drop
				what := r.RelName(uint32(d.Obj))
				if d.Site == siteDropAllBegin && d.Class == trace.ONone {
					what = fmt.Sprintf("%d relations", d.Obj)
				}
				// drop.begin is DropRelFileNodeBuffers, which only
				// `truncate` calls (smgrtruncate); dropall.begin is `drop`.
				verb := "drop"
				if d.Site == siteDropBegin {
					verb = "truncate"
				}
				fmt.Fprintf(&b, "  %s %s %-12s %s", name(e.Actor), verb, what, bufmgr.DropStrategy(d.After))
				if req := bufmgr.DropStrategy(d.Before); req == bufmgr.DropAuto {
					fmt.Fprintf(&b, " (auto)")
				}
				parts := appendCount(nil, "%d descriptors checked", s.descs)
				parts = appendCount(parts, "%d mapping lookups", s.lookups)
				parts = appendCount(parts, "%d list hops", s.hops)
				parts = append(parts, fmt.Sprintf("%d buffers invalidated", s.invalidated))
				parts = appendCount(parts, "waited %d times for a pin", s.pinWaits)
				fmt.Fprintf(&b, ": %s\n", strings.Join(parts, ", "))
				acc[e.Actor] = nil
				continue
			}
		}
		if e.Kind == trace.KOp && (e.Site == siteDropBegin || e.Site == siteDropAllBegin) {
			ev := e
			s.drop = &ev
			continue
		}
		switch e.Kind {
		case trace.KUsageDown:
			s.decrements++
		case trace.KSkipPinned:
			s.skipped++
		case trace.KCASFail:
			s.casFails++
		case trace.KSpin:
			s.spins++
		case trace.KLWWait, trace.KIOWait:
			s.waits++
		case trace.KVictim:
			src := map[uint64]string{bufmgr.VictimFreelist: "the freelist", bufmgr.VictimSweep: "the clock sweep", bufmgr.VictimRing: "the ring"}[e.Arg]
			s.victim = fmt.Sprintf("buffer %d from %s", e.Obj, src)
		case trace.KIOWrite:
			s.written = append(s.written, bufmgr.TagString(bufmgr.UnpackTag(e.Arg), r.relName))
		case trace.KHit, trace.KMiss:
			tag := bufmgr.TagString(bufmgr.UnpackTag(e.Arg), r.relName)
			if e.Kind == trace.KHit {
				fmt.Fprintf(&b, "  %s read %-12s hit   in buffer %d", name(e.Actor), tag, e.Obj)
			} else {
				fmt.Fprintf(&b, "  %s read %-12s miss  -> %s", name(e.Actor), tag, s.victim)
			}
			extra := appendCount(nil, "%d usage decrements", s.decrements)
			extra = appendCount(extra, "%d pinned skipped", s.skipped)
			for _, w := range s.written {
				extra = append(extra, "wrote dirty "+w)
			}
			extra = appendCount(extra, "%d failed CAS", s.casFails)
			extra = appendCount(extra, "%d spins", s.spins)
			extra = appendCount(extra, "%d waits", s.waits)
			if len(extra) > 0 {
				fmt.Fprintf(&b, " (%s)", strings.Join(extra, ", "))
			}
			b.WriteByte('\n')
			acc[e.Actor] = nil
		case trace.KError:
			fmt.Fprintf(&b, "  %s ERROR: %s", name(e.Actor), ErrorText(e))
			if s.skipped > 0 {
				fmt.Fprintf(&b, " (the sweep passed %d pinned buffers)", s.skipped)
			}
			b.WriteByte('\n')
			acc[e.Actor] = nil
		}
	}
	return b.String()
}

// appendCount appends the count n in format (one %d) to parts unless it
// is zero: a summary line names only what happened.
func appendCount(parts []string, format string, n int) []string {
	if n > 0 {
		parts = append(parts, fmt.Sprintf(format, n))
	}
	return parts
}

var (
	siteHeapInsDone, siteHeapDelDone, siteVacuumDone    = trace.SiteOf("heapins.done"), trace.SiteOf("heapdel.done"), trace.SiteOf("vacuum.done")
	siteHeapInsBegin, siteHeapDelBegin, siteVacuumBegin = trace.SiteOf("heapins.begin"), trace.SiteOf("heapdel.begin"), trace.SiteOf("vacuum.begin")
	siteHioFull, siteHioExtend, siteFSMCreate           = trace.SiteOf("hio.full"), trace.SiteOf("hio.extend"), trace.SiteOf("fsmext.create")
	siteExtendFork, siteExtLockWait                     = trace.SiteOf("extend.fork"), trace.SiteOf("extlock.wait")

	siteDropBegin, siteDropAllBegin     = trace.SiteOf("drop.begin"), trace.SiteOf("dropall.begin")
	siteDropPrecheck, siteDropAllLinear = trace.SiteOf("drop.precheck"), trace.SiteOf("dropall.precheck-linear")
	siteDropAllBSearch                  = trace.SiteOf("dropall.precheck-bsearch")
	siteDListHead, siteDListNext        = trace.SiteOf("dlist.head"), trace.SiteOf("dlist.next")
)
