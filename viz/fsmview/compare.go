package fsmview

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"

	"bufferlab/engine/fsm"
	"bufferlab/engine/trace"
	"bufferlab/viz/viewkit"
)

// significantLanes is the number of lanes that take part in comparisons
// (viewkit.SignificantLanes).
func (v *View) significantLanes() int { return viewkit.SignificantLanes(&v.h, v.nInitial, v.lanes) }

// Diff describes how v and o differ (at most a dozen differences, one per
// line), or returns "" when they show the same state. History is not
// compared: a snapshot equals the view it was taken from. Targets are
// compared as RelationGetTargetBlock returns them, FSM pages by contents
// (a missing page and an all-zero one are the same).
func (v *View) Diff(o *View) string {
	var d viewkit.Diffs
	if v.variant != o.variant || v.threshold != o.threshold {
		d.Add("variant %s/%d vs %s/%d", v.variant, v.threshold, o.variant, o.threshold)
	}
	if len(v.heaps) != len(o.heaps) {
		d.Add("%d heaps vs %d", len(v.heaps), len(o.heaps))
	}
	for i := 0; i < min(len(v.heaps), len(o.heaps)) && !d.Full(); i++ {
		a, b := v.heaps[i], o.heaps[i]
		if s := heapDiff(a, b); s != "" {
			d.Add("heap %d (%d): %s", i, a.rel, s)
		}
	}
	lanes := func(a trace.Actor) string { return v.laneDiff(o, a) }
	viewkit.DiffTail(&d, max(v.significantLanes(), o.significantLanes()), lanes, v.counters, o.counters, &v.h, &o.h)
	return d.String()
}

func heapDiff(a, b *heapState) string {
	switch {
	case a.rel != b.rel || a.name != b.name || a.fillfactor != b.fillfactor:
		return fmt.Sprintf("relation %d %q ff %d vs %d %q ff %d", a.rel, a.name, a.fillfactor, b.rel, b.name, b.fillfactor)
	case a.forks != b.forks:
		return fmt.Sprintf("forks %#x vs %#x", a.forks, b.forks)
	case a.relpages != b.relpages || a.gen != b.gen:
		return fmt.Sprintf("relpages %d gen %d vs %d gen %d", a.relpages, a.gen, b.relpages, b.gen)
	}
	for blk := 0; blk < max(len(a.pages), len(b.pages)); blk++ {
		if x, y := a.page(uint32(blk)), b.page(uint32(blk)); x != y {
			return fmt.Sprintf("block %d: %+v vs %+v", blk, fsm.UnpackHeapWord(x), fsm.UnpackHeapWord(y))
		}
	}
	for phys := range a.fsm {
		p, q := a.fsmAt(uint32(phys)), b.fsmAt(uint32(phys))
		if p == q {
			continue
		}
		if p.next != q.next {
			return fmt.Sprintf("FSM block %d: fp_next_slot %d vs %d", phys, p.next, q.next)
		}
		if !bytes.Equal(p.nodes[:], q.nodes[:]) {
			for n := range p.nodes {
				if p.nodes[n] != q.nodes[n] {
					return fmt.Sprintf("FSM block %d node %d: %d vs %d", phys, n, p.nodes[n], q.nodes[n])
				}
			}
		}
	}
	return ""
}

func (v *View) laneDiff(o *View, a trace.Actor) string {
	x, y := v.Lane(a), o.Lane(a)
	if d := x.LaneHead.Diff(y.LaneHead); d != "" {
		return d
	}
	switch {
	case !viewkit.WordsEqual(x.Search, y.Search, searchWords):
		return fmt.Sprintf("search %+v vs %+v", x.Search, y.Search)
	case x.LocalMap.NBlocks != y.LocalMap.NBlocks || x.LocalMap.Rel != y.LocalMap.Rel || !bytes.Equal(x.LocalMap.Entries, y.LocalMap.Entries):
		return fmt.Sprintf("local map %+v vs %+v", x.LocalMap, y.LocalMap)
	}
	for _, h := range v.heaps {
		if t, u := v.TargetBlock(a, h.rel), o.TargetBlock(a, h.rel); t != u {
			return fmt.Sprintf("target block of %d: %s vs %s", h.rel, blockString(t), blockString(u))
		}
	}
	return ""
}

// searchWords encodes a search for Diff and Fingerprint: one word per
// field (a list as its length), then the lists' entries.
func searchWords(s Search, put func(uint64)) {
	b := viewkit.Bit
	for _, w := range []uint64{b(s.HasOp), uint64(s.Op), uint64(s.Rel), uint64(s.Phase), uint64(s.Depth),
		uint64(s.TupleLen), uint64(s.Want), uint64(s.MinCat), uint64(s.Cached), uint64(s.Found), uint64(s.Result),
		b(s.Extended), uint64(s.Restarts), b(s.HasPath), uint64(s.PathRel), uint64(s.PathPage), uint64(len(s.Path)),
		b(s.NextMoved), uint64(uint32(s.NextFrom)), uint64(uint32(s.NextTo)), uint64(s.VacBlock), uint64(s.SearchFrom),
		uint64(len(s.Visits)), uint64(len(s.Tries)), uint64(len(s.LocalChecks)), s.Reads[0]<<42 | s.Reads[1]<<21 | s.Reads[2],
		uint64(s.Skips), uint64(s.Dropped), s.Err, uint64(trailLen(s.Trail)), s.OpSeq, s.EndSeq} {
		put(w)
	}
	for t := s.Trail; t != nil; t = t.Prev {
		put(uint64(t.Rel)<<32 | uint64(t.Page))
		put(uint64(t.Node)<<1 | b(t.Write))
	}
	for _, st := range s.Path {
		put(uint64(st.Node)<<40 | uint64(st.Value)<<32 | uint64(st.Old)<<24 | uint64(st.Want)<<16 | b(st.Write)<<15 | uint64(st.Site)&0x7fff)
	}
	for _, vi := range s.Visits {
		put(uint64(vi.Phys)<<32 | b(vi.Skipped)<<31 | uint64(uint32(vi.Slot+2))&0x7fffffff)
	}
	for _, t := range s.Tries {
		put(uint64(t.Block)<<32 | uint64(uint32(t.Free)))
		put(uint64(t.Want)<<8 | uint64(t.Verdict)<<1 | b(t.Init))
	}
	for _, c := range s.LocalChecks {
		put(uint64(c.Block)<<1 | b(c.Avail))
	}
}

// trailLen is the length of a trail.
func trailLen(t *TrailNode) int {
	if t == nil {
		return 0
	}
	return t.N
}

// Equal reports whether v and o show the same state (Diff is empty).
func (v *View) Equal(o *View) bool { return viewkit.Equal(v, o) }

// Fingerprint is a 64-bit hash of a canonical encoding of everything Diff
// compares: equal views have equal fingerprints. FSM pages are hashed a
// word at a time.
func (v *View) Fingerprint() uint64 {
	h := viewkit.NewHasher()
	put := h.Put
	put(uint64(v.variant))
	put(uint64(v.threshold))
	for _, hs := range v.heaps {
		put(uint64(hs.rel))
		h.Write([]byte(hs.name))
		put(uint64(hs.fillfactor))
		for _, f := range hs.forks {
			put(f)
		}
		put(uint64(hs.relpages))
		put(hs.gen)
		last := len(hs.pages) - 1
		for last >= 0 && hs.pages[last] == 0 {
			last--
		}
		for _, w := range hs.pages[:last+1] {
			put(w)
		}
		put(uint64(len(hs.fsm)))
		for phys := range hs.fsm {
			p := hs.fsmAt(uint32(phys))
			put(uint64(uint32(p.next)))
			put(pageDigest(&p.nodes))
		}
	}
	viewkit.PutHistory(h, v.counters.fields(), &v.h)
	for a := 0; a < v.significantLanes(); a++ {
		l := v.Lane(trace.Actor(a))
		h.PutLane(l.Name, l.HasLast, l.Last, l.Stats.fields())
		searchWords(l.Search, put)
		put(uint64(l.LocalMap.NBlocks))
		put(uint64(l.LocalMap.Rel))
		h.Write(l.LocalMap.Entries)
		for _, hs := range v.heaps {
			put(uint64(v.TargetBlock(trace.Actor(a), hs.rel)))
		}
	}
	return h.Sum64()
}

// pageDigest mixes an FSM page's nodes eight at a time (FNV-1a's prime
// over 64-bit words): cheap enough to fingerprint views after every event.
func pageDigest(n *[fsm.NodesPerPage]uint8) uint64 {
	const prime = 1099511628211
	d := uint64(14695981039346656037)
	i := 0
	for ; i+8 <= len(n); i += 8 {
		d = (d ^ binary.LittleEndian.Uint64(n[i:])) * prime
	}
	for ; i < len(n); i++ {
		d = (d ^ uint64(n[i])) * prime
	}
	return d
}

// String draws the view as text: each heap with its pages (line pointers,
// free space, category, what the map records) and FSM pages (root,
// fp_next_slot, non-zero slots), then each backend's search.
func (v *View) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "fsm view (%s", v.variant)
	if v.variant == fsm.SmallSkip {
		fmt.Fprintf(&b, ", threshold %d", v.threshold)
	}
	fmt.Fprintf(&b, "): %d heaps, %d events applied\n", len(v.heaps), v.h.Applied())
	for _, hs := range v.heaps {
		hp := hs.show()
		fmt.Fprintf(&b, "heap %s: fillfactor %d, %d blocks, relpages %d, fsm %d blocks (exists %v), vm %d blocks\n",
			hp.Name, hp.FillFactor, hp.NBlocks, hp.RelPages, hp.FSMBlocks, hp.FSMExists, hp.VMBlocks)
		for blk := uint32(0); blk < min(hp.NBlocks, 16); blk++ {
			p := v.HeapPage(hs.rel, blk)
			if p.Info.IsNew() {
				fmt.Fprintf(&b, "  %4d  new page, map %d\n", blk, p.Recorded)
				continue
			}
			fmt.Fprintf(&b, "  %4d  lps %d (%d live, %d deleted), free %d, cat %d, map %d, all-visible %v\n", blk,
				p.Info.LinePointers(), p.Info.Live, p.Info.Deleted, p.Free, p.Category, p.Recorded, p.Info.AllVisible)
		}
		for _, fp := range v.FSMPages(hs.rel) {
			fmt.Fprintf(&b, "  fsm block %d (%s): root %d, fp_next_slot %d, slots", fp.Phys, fp.Addr, fp.Root, fp.NextSlot)
			n := 0
			for s := 0; s < fsm.SlotsPerFSMPage; s++ {
				if x := v.Slot(hs.rel, fp.Phys, s); x != 0 {
					if n < 12 {
						fmt.Fprintf(&b, " %d:%d", s, x)
					}
					n++
				}
			}
			if n == 0 {
				b.WriteString(" -")
			} else if n > 12 {
				fmt.Fprintf(&b, " … (%d non-zero)", n)
			}
			b.WriteByte('\n')
		}
	}
	for a := 1; a < len(v.lanes); a++ {
		l := v.Lane(trace.Actor(a))
		if !l.HasLast && l.LocalMap.NBlocks == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s: %s", l.Name, v.Text(l.Search))
		if l.LocalMap.NBlocks > 0 {
			fmt.Fprintf(&b, "; local map %v", l.LocalMap.Entries)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
