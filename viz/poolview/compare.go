package poolview

import (
	"fmt"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
	"bufferlab/viz/viewkit"
)

// significantLanes is the number of lanes that take part in comparisons
// (viewkit.SignificantLanes).
func (p *Pool) significantLanes() int { return viewkit.SignificantLanes(&p.h, p.nInitial, p.lanes) }

func laneDiff(a, b Lane) string {
	switch {
	case a.Name != b.Name:
		return fmt.Sprintf("name %q vs %q", a.Name, b.Name)
	case fmt.Sprint(a.Pins) != fmt.Sprint(b.Pins):
		return fmt.Sprintf("pins %v vs %v", a.Pins, b.Pins)
	case a.HasLast != b.HasLast || a.Last != b.Last:
		return fmt.Sprintf("last event %v vs %v", a.Last, b.Last)
	case a.Waiting != b.Waiting:
		return fmt.Sprintf("waiting %v vs %v", a.Waiting, b.Waiting)
	case a.HasOp != b.HasOp || a.Op != b.Op || a.OpDone != b.OpDone || a.Ops != b.Ops:
		return fmt.Sprintf("operation %v (done %v, %d ops) vs %v (done %v, %d ops)", a.Op, a.OpDone, a.Ops, b.Op, b.OpDone, b.Ops)
	case a.HasScan != b.HasScan || a.Scan != b.Scan:
		return fmt.Sprintf("scan %v/%v vs %v/%v", a.HasScan, a.Scan, b.HasScan, b.Scan)
	case a.HasErr != b.HasErr || a.Err != b.Err || a.Errors != b.Errors:
		return fmt.Sprintf("error %v (%d) vs %v (%d)", a.Err, a.Errors, b.Err, b.Errors)
	case a.Trail != b.Trail:
		return fmt.Sprintf("trail %+v vs %+v", a.Trail, b.Trail)
	}
	return ""
}

// Diff describes how p and o differ (at most a dozen differences, one per
// line), or returns "" when they show the same state. History is not
// compared: a snapshot equals the pool it was taken from.
func (p *Pool) Diff(o *Pool) string {
	if p.n != o.n {
		return fmt.Sprintf("NBuffers %d vs %d", p.n, o.n)
	}
	var d viewkit.Diffs
	// Blocks and chunks that are the same pointer (shared since a clone)
	// are equal: a Diff of a pool with its recent snapshot reads what
	// changed since.
	for bi := range p.blocks {
		ba, bb := p.blocks[bi], o.blocks[bi]
		if ba == bb {
			continue
		}
		for ci := range ba.chunks {
			a, b := ba.chunks[ci], bb.chunks[ci]
			if a == b {
				continue
			}
			c := bi<<blockBits + ci
			for j := 0; j < chunkSize && c*chunkSize+j < p.n && !d.Full(); j++ {
				i := c*chunkSize + j
				if a.state[j] != b.state[j] {
					d.Add("buffer %d state %s vs %s", i, bufmgr.StateString(a.state[j]), bufmgr.StateString(b.state[j]))
				}
				if a.tag[j] != b.tag[j] {
					d.Add("buffer %d tag %s vs %s", i, p.TagString(a.tag[j]), p.TagString(b.tag[j]))
				}
				if a.freeNext[j] != b.freeNext[j] {
					d.Add("buffer %d freeNext %d vs %d", i, a.freeNext[j], b.freeNext[j])
				}
				if a.content[j] != b.content[j] {
					d.Add("buffer %d content lock %s vs %s", i, HoldersString(a.content[j]), HoldersString(b.content[j]))
				}
				if a.mark[j] != b.mark[j] {
					d.Add("buffer %d trail %s vs %s", i, markDiff(a.mark[j], cellMarkNames[:]), markDiff(b.mark[j], cellMarkNames[:]))
				}
			}
		}
	}
	if p.firstFree != o.firstFree {
		d.Add("firstFreeBuffer %d vs %d", p.firstFree, o.firstFree)
	}
	if p.counter != o.counter {
		d.Add("nextVictimBuffer %d vs %d", p.counter, o.counter)
	}
	if p.passes != o.passes {
		d.Add("completePasses %d vs %d", p.passes, o.passes)
	}
	if p.allocs != o.allocs {
		d.Add("numBufferAllocs %d vs %d", p.allocs, o.allocs)
	}
	if p.strategyHolder != o.strategyHolder {
		d.Add("buffer_strategy_lock holder %s vs %s", trace.ActorName(p.strategyHolder), trace.ActorName(o.strategyHolder))
	}
	for i := 0; i < NumPartitions && !d.Full(); i++ {
		ga, j := p.group(i)
		gb, _ := o.group(i)
		if ga == gb {
			continue
		}
		if ga.holders[j] != gb.holders[j] {
			d.Add("partition %d lock %s vs %s", i, HoldersString(ga.holders[j]), HoldersString(gb.holders[j]))
		}
		if ga.mark[j] != gb.mark[j] {
			d.Add("partition %d trail %s vs %s", i, markDiff(ga.mark[j], partMarkNames[:]), markDiff(gb.mark[j], partMarkNames[:]))
		}
		if ga.entries[j] == gb.entries[j] {
			continue
		}
		if a, b := fmt.Sprint(p.PartitionEntries(i)), fmt.Sprint(o.PartitionEntries(i)); a != b {
			d.Add("partition %d entries %s vs %s", i, a, b)
		}
	}
	lanes := func(a trace.Actor) string { return laneDiff(p.Lane(a), o.Lane(a)) }
	viewkit.DiffTail(&d, max(p.significantLanes(), o.significantLanes()), lanes, p.counters, o.counters, &p.h, &o.h)
	return d.String()
}

// Equal reports whether p and o show the same state (Diff is empty).
func (p *Pool) Equal(o *Pool) bool { return viewkit.Equal(p, o) }

// Fingerprint is a 64-bit FNV-1a hash of a canonical encoding of everything
// Diff compares: equal views have equal fingerprints.
func (p *Pool) Fingerprint() uint64 {
	h := viewkit.NewHasher()
	w := h.Put
	ev := func(e trace.Event, ok bool) {
		if !ok {
			w(0)
			return
		}
		w(1)
		w(e.Seq)
		w(e.Before)
		w(e.After)
		w(e.Arg)
		w(uint64(e.Obj))
		w(uint64(e.Site)<<32 | uint64(e.Actor)<<16 | uint64(e.Kind)<<8 | uint64(e.Class))
	}
	w(uint64(p.n))
	for i := 0; i < p.n; i++ {
		c, j := p.chunkOf(i), i&chunkMask
		w(uint64(c.state[j])<<32 | uint64(uint32(c.freeNext[j])))
		w(c.tag[j])
		w(c.content[j])
		w(c.mark[j])
	}
	w(uint64(uint32(p.firstFree)))
	w(uint64(p.counter)<<32 | uint64(p.passes))
	w(uint64(p.allocs)<<16 | uint64(p.strategyHolder))
	for i := 0; i < NumPartitions; i++ {
		g, j := p.group(i)
		w(g.holders[j])
		w(g.mark[j])
		es := g.entries[j].sorted()
		w(uint64(len(es)))
		for _, e := range es {
			w(e.key)
			w(uint64(uint32(e.val)))
		}
	}
	nl := p.significantLanes()
	w(uint64(nl))
	for a := 0; a < nl; a++ {
		l := p.Lane(trace.Actor(a))
		h.Write([]byte(l.Name))
		w(uint64(len(l.Pins)))
		for _, pin := range l.Pins {
			w(uint64(uint32(pin.Buf))<<32 | uint64(uint32(pin.Count)))
		}
		ev(l.Last, l.HasLast)
		ev(l.Op, l.HasOp)
		ev(l.Scan, l.HasScan)
		ev(l.Err, l.HasErr)
		var flags uint64
		if l.Waiting {
			flags |= 1
		}
		if l.OpDone {
			flags |= 2
		}
		if l.Trail.Has {
			flags |= 4
		}
		if l.Trail.Done {
			flags |= 8
		}
		if l.Trail.InScan {
			flags |= 16
		}
		w(flags)
		w(uint64(l.Ops)<<32 | uint64(l.Errors))
		ev(l.Trail.Op, l.Trail.Has)
		w(l.Trail.End)
	}
	for _, c := range p.counters.fields() {
		w(c)
	}
	w(uint64(p.h.Applied()))
	ev(p.Current())
	return h.Sum64()
}

// HoldersString prints a lock holder word: "none", "A(X)", "A,C".
func HoldersString(w uint64) string {
	var out []string
	if x := HolderExclusive(w); x != 0 {
		out = append(out, trace.ActorName(x)+"(X)")
	}
	for _, a := range HolderShared(w) {
		out = append(out, trace.ActorName(a))
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ",")
}

// stringRowsMax is the most descriptors String lists one per line.
const stringRowsMax = 64

// String is a compact text picture of the view, for debugging and test
// failures: a header (position, clock, freelist), the descriptors (all of
// them up to 64 buffers; otherwise only the interesting ones), the held
// locks and mapping summary, each lane, and the counters.
func (p *Pool) String() string {
	var b strings.Builder
	cur := "none"
	if e, ok := p.Current(); ok {
		cur = e.String()
	}
	fmt.Fprintf(&b, "view: %d buffers, %d events applied, current %s\n", p.n, p.h.Applied(), cur)
	free := p.Freelist()
	fl := "empty"
	if len(free) > 0 {
		fl = fmt.Sprintf("%d, head %d", len(free), free[0])
	}
	holder := "free"
	if p.strategyHolder != 0 {
		holder = "held by " + trace.ActorName(p.strategyHolder)
	}
	fmt.Fprintf(&b, "clock %d (hand %d), passes %d, allocs %d, freelist %s, strategy lock %s\n",
		p.counter, p.Hand(), p.passes, p.allocs, fl, holder)
	hand := p.Hand()
	shown := 0
	for i := 0; i < p.n; i++ {
		bf := p.Buffer(i)
		if p.n > stringRowsMax && bf.Refcount() == 0 && bf.State&(bufmgr.BmLocked|bufmgr.BmIOInProgress) == 0 && bf.Content == 0 && i != hand {
			continue
		}
		if shown == stringRowsMax {
			b.WriteString("  …\n")
			break
		}
		shown++
		tag := "-"
		if bf.Tag != NoTag {
			tag = p.TagString(bf.Tag)
		}
		fmt.Fprintf(&b, "  %4d %-12s %s", i, tag, bufmgr.StateString(bf.State))
		if bf.Content != 0 {
			fmt.Fprintf(&b, " content=%s", HoldersString(bf.Content))
		}
		if bf.FreeNext != bufmgr.FreeNextNotInList {
			fmt.Fprintf(&b, " next=%d", bf.FreeNext)
		}
		if i == hand {
			b.WriteString(" <-hand")
		}
		b.WriteByte('\n')
	}
	var locked []string
	for i := 0; i < NumPartitions; i++ {
		if h := p.PartitionHolders(i); h != 0 {
			locked = append(locked, fmt.Sprintf("%d:%s", i, HoldersString(h)))
		}
	}
	fmt.Fprintf(&b, "mapping: %d entries", p.MappingLen())
	if len(locked) > 0 {
		fmt.Fprintf(&b, ", partition locks %s", strings.Join(locked, " "))
	}
	b.WriteByte('\n')
	for a := 0; a < p.significantLanes(); a++ {
		l := p.Lane(trace.Actor(a))
		if !l.HasLast && len(l.Pins) == 0 {
			continue
		}
		fmt.Fprintf(&b, "  lane %s:", l.Name)
		if op := p.OpLabel(trace.Actor(a)); op != "" {
			fmt.Fprintf(&b, " %s;", op)
		}
		if l.HasLast {
			fmt.Fprintf(&b, " at %s", l.Last.Site)
		}
		if l.Waiting {
			b.WriteString(" (waiting)")
		}
		for _, pin := range l.Pins {
			fmt.Fprintf(&b, " pin %d x%d", pin.Buf, pin.Count)
		}
		if l.HasErr {
			fmt.Fprintf(&b, " error %d", l.ErrCode())
		}
		b.WriteByte('\n')
	}
	c := p.counters
	fmt.Fprintf(&b, "hits %d misses %d writes %d ticks %d decrements %d part-locks %d waits %d cas %d/%d spins %d errors %d\n",
		c.Hits, c.Misses, c.Writes, c.ClockTicks, c.UsageDecrements, c.PartitionLocks, c.LockWaits,
		c.CASAttempts, c.CASFailures, c.Spins, c.Errors)
	return b.String()
}
