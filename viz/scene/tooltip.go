package scene

import (
	"fmt"
	"image/color"
	"math/bits"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
	"bufferlab/viz/fsmview"
	"bufferlab/viz/layout"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/slruview"
)

// Tooltips: what is under the pointer, in words. The pool's cells answer
// through PoolScene.BufferAt; the mapping table's partitions, the SLRU's
// slots and the FSM tree's nodes record hit regions in the layout list as
// they are laid out (layout.List.AddHit), which List.HitAt finds again.
// Each text is a title line, then one line per fact; Tooltip lays a text
// out in a box beside the pointer.

// The kinds of hit region the scenes record.
const (
	HitPartition = "partition" // ID: the partition (LayoutPartitions)
	HitSLRUSlot  = "slru slot" // ID: the slot (LayoutSLRUScene, LayoutSLRUPane)
	HitFSMNode   = "fsm node"  // ID: the node; In: relation, FSM block (LayoutFSMTree)
)

// TooltipText is the tooltip of a hit region of the last layout, read
// from the view that layout was made from (a *poolview.Pool for a
// partition, a *slruview.View for a slot, a *fsmview.View for a node);
// false for a kind and view that do not go together.
func TooltipText(h layout.Hit, state any) (string, bool) {
	switch h.Kind {
	case HitPartition:
		if p, ok := state.(*view.Pool); ok {
			return PartitionTooltip(p, h.ID), true
		}
	case HitSLRUSlot:
		if v, ok := state.(*slruview.View); ok {
			return SLRUSlotTooltip(v, h.ID), true
		}
	case HitFSMNode:
		if v, ok := state.(*fsmview.View); ok {
			return FSMNodeTooltip(v, h.In[0], h.In[1], h.ID), true
		}
	}
	return "", false
}

// names lists actors by name: "A, B".
func names(as []trace.Actor, name func(trace.Actor) string) string {
	var s []string
	for _, a := range as {
		s = append(s, name(a))
	}
	return strings.Join(s, ", ")
}

// holderText says who holds a lock from its holder word: "held
// exclusively by A", "held shared by A, B", "free".
func holderText(excl trace.Actor, shared []trace.Actor, name func(trace.Actor) string) string {
	switch {
	case excl != 0:
		return "held exclusively by " + name(excl)
	case len(shared) > 0:
		return "held shared by " + names(shared, name)
	}
	return "free"
}

// BufferTooltip is the tooltip of buffer id: its id, the block it holds
// (and that tag's mapping partition), its state word decoded (refcount,
// usage count, each flag in words), who pins it and how often, its
// content lock, and whether it is on the freelist or under the clock
// hand.
func BufferTooltip(p *view.Pool, id int) string {
	b := p.Buffer(id)
	var out []string
	out = append(out, fmt.Sprintf("Buffer %d (buf_id %d)", id, id))
	switch {
	case b.TagValid():
		out = append(out, fmt.Sprintf("holds %s (mapping partition %d)", p.TagString(b.Tag), view.PartitionOf(b.Tag)))
	case b.OnFreelist():
		out = append(out, "free: on the freelist, holds no block")
	default:
		out = append(out, "holds no block and is not on the freelist")
	}
	out = append(out, fmt.Sprintf("state word 0x%08X: refcount %d, usage count %d (at most %d)", b.State, b.Refcount(), b.Usage(), bufmgr.BmMaxUsageCount))
	set := false
	for _, f := range flagLabels {
		if b.State&f.bit != 0 {
			out = append(out, flagName(f.bit)+": "+flagMeaning[f.bit])
			set = true
		}
	}
	if !set {
		out = append(out, "no flag set")
	}
	var pins []string
	for a := 1; a < p.NumLanes(); a++ {
		if n := p.PinCount(trace.Actor(a), id); n > 0 {
			s := p.Lane(trace.Actor(a)).Name
			if n > 1 {
				s += fmt.Sprintf(" (%d pins, counted once in the refcount)", n)
			}
			pins = append(pins, s)
		}
	}
	if len(pins) > 0 {
		out = append(out, "pinned by "+strings.Join(pins, ", "))
	}
	if b.Content != 0 {
		name := func(a trace.Actor) string { return p.Lane(a).Name }
		out = append(out, "content lock "+holderText(view.HolderExclusive(b.Content), view.HolderShared(b.Content), name))
	}
	if b.OnFreelist() {
		if b.FreeNext >= 0 {
			out = append(out, fmt.Sprintf("freelist: next is buffer %d", b.FreeNext))
		} else {
			out = append(out, "freelist: the last buffer on it")
		}
	}
	if p.Hand() == id {
		out = append(out, "the clock hand is here: the sweep looks at this buffer next")
	}
	if t := trailText(p, p.Trails().Cell(id), false); t != "" {
		out = append(out, t)
	}
	return strings.Join(out, "\n")
}

// times is " N times" for n above 1, else "".
func times(n int) string {
	if n > 1 {
		return fmt.Sprintf(" %d times", n)
	}
	return ""
}

// trailText says what the operation of a shown trail did with a
// descriptor (part false) or a mapping partition: "trail of S's drop t
// (full scan) (done): examined by the drop (its tag read), invalidated
// by the drop: its page thrown out"; "" when the trail shown does not
// mark it.
func trailText(p *view.Pool, m view.TrailMark, part bool) string {
	if m.Marks == 0 {
		return ""
	}
	var what []string
	add := func(mk view.Mark, s string) {
		if m.Marks&mk != 0 {
			what = append(what, s)
		}
	}
	if part {
		switch {
		case m.Marks&view.MarkProbed != 0 && m.Marks&view.MarkFound != 0:
			what = append(what, "a tag looked up and found")
		case m.Marks&view.MarkProbed != 0:
			what = append(what, "a tag looked up, not found")
		}
		add(view.MarkChanged, "an entry inserted or deleted")
		hops := "hops"
		if m.Count == 1 {
			hops = "hop"
		}
		what = append(what, fmt.Sprintf("%d %s in all", m.Count, hops))
	} else {
		add(view.MarkExamined, "examined by the drop (its tag read)"+times(m.Count))
		add(view.MarkSwept, "passed by the clock hand"+times(m.Count))
		add(view.MarkEvicted, "the sweep's victim: its page thrown out")
		add(view.MarkRing, "in the scan's ring (BULKREAD)")
		add(view.MarkDropped, "invalidated by the drop: its page thrown out")
	}
	op := p.TrailLabel(m.Actor)
	if op == "" {
		op = "operation"
	}
	return fmt.Sprintf("trail of %s's %s: %s", p.Lane(m.Actor).Name, op, strings.Join(what, ", "))
}

// partitionListMax is the most entries a partition's tooltip lists.
const partitionListMax = 6

// PartitionTooltip is the tooltip of mapping partition i: its number and
// place in the grid, its entries (tag → buffer), who holds its lock and
// who waits for it.
func PartitionTooltip(p *view.Pool, i int) string {
	name := func(a trace.Actor) string { return p.Lane(a).Name }
	var out []string
	out = append(out, fmt.Sprintf("Mapping partition %d of %d (row %d, column %d)", i, view.NumPartitions, i/partitionCols, i%partitionCols))
	es := p.PartitionEntries(i)
	switch len(es) {
	case 0:
		out = append(out, "no entries")
	default:
		var ts []string
		for k, e := range es {
			if k == partitionListMax {
				ts = append(ts, fmt.Sprintf("and %d more", len(es)-k))
				break
			}
			ts = append(ts, fmt.Sprintf("%s → buffer %d", p.TagString(e.Tag), e.Buf))
		}
		what := "entries"
		if len(es) == 1 {
			what = "entry"
		}
		out = append(out, fmt.Sprintf("%d %s: %s", len(es), what, strings.Join(ts, ", ")))
	}
	w := p.PartitionHolders(i)
	out = append(out, "lock "+holderText(view.HolderExclusive(w), view.HolderShared(w), name))
	var waits []string
	for a := 1; a < p.NumLanes(); a++ {
		ln := p.Lane(trace.Actor(a))
		if ln.Waiting && ln.Last.Kind == trace.KLWWait && ln.Last.Class == trace.OPartition && int(ln.Last.Obj) == i {
			mode := "shared"
			if ln.Last.Arg == uint64(bufmgr.LWExclusive) {
				mode = "exclusive"
			}
			waits = append(waits, fmt.Sprintf("%s (%s)", ln.Name, mode))
		}
	}
	if len(waits) > 0 {
		out = append(out, "waiting for the lock: "+strings.Join(waits, ", "))
	}
	if t := trailText(p, p.Trails().Partition(i), true); t != "" {
		out = append(out, t)
	}
	return strings.Join(out, "\n")
}

// SLRUSlotTooltip is the tooltip of SLRU slot i: its bank, the page it
// holds and its status, its LRU count and age, whether it holds the
// latest page, its buffer lock, who waits for its I/O, and the trails
// shown it is on.
func SLRUSlotTooltip(v *slruview.View, i int) string {
	s := v.Slot(i)
	g := v.Geometry()
	b := v.Bank(g.SlotBank(i))
	var out []string
	if g.Variant == slru.Single {
		out = append(out, fmt.Sprintf("Slot %d of %d (one ControlLock for all)", i, v.NumSlots()))
	} else {
		out = append(out, fmt.Sprintf("Slot %d of %d, in bank %d (slots %d–%d)", i, v.NumSlots(), b.ID, b.First, b.End-1))
	}
	if s.Empty() {
		out = append(out, "EMPTY: holds no page; the victim search takes an empty slot first")
	} else {
		dirty := "clean"
		if s.Dirty {
			dirty = "dirty: written out before the slot is reused"
			if s.Status == slru.PageWriteInProgress {
				dirty = "dirty again: changed while being written"
			}
		}
		out = append(out, fmt.Sprintf("page %d: %s, %s", s.Page, s.Status, dirty))
		out = append(out, fmt.Sprintf("page_lru_count %d, bank_cur_lru_count %d: age %d (the victim search takes the VALID slot of largest age)", s.LRUCount, b.CurCount, s.Age))
	}
	if s.Latest {
		out = append(out, "holds latest_page_number: never chosen as a victim")
	}
	if s.IOLock != 0 {
		excl, shared := slruview.Holders(s.IOLock)
		out = append(out, "buffer lock (its I/O) "+holderText(excl, shared, v.LaneName))
	}
	if ws := v.IOWaiters(i); len(ws) > 0 {
		var as []trace.Actor
		for _, w := range ws {
			as = append(as, w.Actor)
		}
		out = append(out, "waiting for its I/O: "+names(as, v.LaneName))
	}
	for a := 1; a < v.NumLanes(); a++ {
		ln := v.Lane(trace.Actor(a))
		if v.TrailShown(ln.Actor) && ln.Lookup.Compared(i) {
			done := ""
			if !slruLookupActive(ln.Lookup) {
				done = " (done)"
			}
			how := "its search compared the page sought with this slot's"
			if g.HasTable() {
				how = "its probe of the bank's table led here"
			}
			out = append(out, fmt.Sprintf("trail of %s's %s%s: %s", ln.Name, slruview.OpText(ln.Lookup.Op, ln.Lookup.Operand), done, how))
		}
	}
	return strings.Join(out, "\n")
}

// catText says what an FSM category stands for: the free space it
// records, rounded down to a multiple of 32 bytes (fsm_space_avail_to_cat).
func catText(c uint8) string {
	switch c {
	case 0:
		return fmt.Sprintf("less than %d bytes free, or nothing recorded", fsm.FSMCatStep)
	case 255:
		return fmt.Sprintf("at least %d bytes free (MaxFSMRequestSize: room for the largest tuple)", fsm.MaxFSMRequestSize)
	}
	return fmt.Sprintf("at least %d bytes free (category %d stands for %d–%d)", fsm.CatToAvail(c), c, fsm.CatToAvail(c), fsm.CatToAvail(c+1)-1)
}

// FSMNodeTooltip is the tooltip of node n of FSM block phys of relation
// rel: its page (level, logical page), its depth and index in the page's
// binary tree, and its value as a free space category, for a leaf the
// heap block (or child page) it records.
func FSMNodeTooltip(v *fsmview.View, rel, phys uint32, n int) string {
	a := fsm.AddressOf(phys)
	h, _ := v.Heap(rel)
	depth := bits.Len(uint(n+1)) - 1
	index := n - (1<<depth - 1)
	var out []string
	out = append(out, fmt.Sprintf("Node %d of FSM block %d (level %d, page %d) of %s", n, phys, a.Level, a.LogPageNo, h.Name))
	if n >= fsm.NodesPerPage {
		out = append(out, fmt.Sprintf("past the page's %d nodes: slot %d does not exist (a page has %d slots)", fsm.NodesPerPage, n-fsm.NonLeafNodesPerPage, fsm.SlotsPerFSMPage))
		return strings.Join(out, "\n")
	}
	val := v.Node(rel, phys, n)
	if n >= fsm.NonLeafNodesPerPage {
		slot := n - fsm.NonLeafNodesPerPage
		if a.Level == fsm.FSMBottomLevel {
			out = append(out, fmt.Sprintf("a leaf (depth %d), slot %d: heap block %d", depth, slot, fsm.HeapBlock(a, uint16(slot))))
			out = append(out, fmt.Sprintf("value %d: %s", val, catText(val)))
		} else {
			c := a.Child(uint16(slot))
			out = append(out, fmt.Sprintf("a leaf (depth %d), slot %d: FSM page (level %d, page %d), block %d", depth, slot, c.Level, c.LogPageNo, c.Physical()))
			out = append(out, fmt.Sprintf("value %d: the most that page recorded when this was updated: %s", val, catText(val)))
		}
	} else {
		what := "an inner node"
		if n == 0 {
			what = "the root"
		}
		out = append(out, fmt.Sprintf("%s, depth %d (index %d of its level): the larger of its two children, nodes %d and %d", what, depth, index, 2*n+1, 2*n+2))
		out = append(out, fmt.Sprintf("value %d: some slot below has %s", val, catText(val)))
	}
	if fp, ok := v.FSMPage(rel, phys); ok && n == fsm.NonLeafNodesPerPage+int(fp.NextSlot) {
		out = append(out, "fp_next_slot: the next search of this page starts here")
	}
	for k := 1; k < v.NumLanes(); k++ {
		ln := v.Lane(trace.Actor(k))
		on, written := ln.Search.OnTrail(rel, phys, n)
		if !on || !v.TrailShown(ln.Actor) {
			continue
		}
		what := "read by its search (fsm_search_avail)"
		if written {
			what = "written by it (fsm_set_avail, or a parent fixed)"
		}
		done := ""
		if !ln.Search.Active() {
			done = " (done)"
		}
		out = append(out, fmt.Sprintf("trail of %s's %s%s: %s", ln.Name, ln.Search.Op, done, what))
	}
	return strings.Join(out, "\n")
}

// tooltipShadow is the tooltip's shadow: black at a fifth.
var tooltipShadow = color.RGBA{0, 0, 0, 0x33}

// Tooltip lays out text in a box beside anchor (the pointer), inside
// bounds (role "tooltip"), and returns the box. The first line is the
// title, in bold; each line of text is wrapped to the box, at most 380
// px wide (scaled) or bounds' width. The box goes below and right of the
// anchor, and flips to the left or above where it would cross bounds'
// right or bottom edge; it is moved inside bounds where neither side has
// room. Lines that do not fit a box taller than bounds are left out and
// recorded as overflows, as is a word wider than the box.
func Tooltip(l *layout.List, anchor layout.Point, text string, bounds layout.Rect, th *layout.Theme) layout.Rect {
	face := th.Font(layout.Regular, 12)
	bold := th.Font(layout.Bold, 12)
	lh := layout.LineHeight(face)
	pad := th.Px(8)
	textW := min(th.Px(380), bounds.W-2*th.Px(4)) - 2*pad
	type line struct {
		s string
		f layout.Font
	}
	var lines []line
	widest := 0.0
	for i, para := range strings.Split(text, "\n") {
		f := face
		if i == 0 {
			f = bold
		}
		for _, s := range layout.Wrap(para, f, textW) {
			lines = append(lines, line{s, f})
			widest = max(widest, min(layout.Width(s, f), textW))
		}
	}
	box := layout.Rect{W: widest + 2*pad, H: float64(len(lines))*lh + 2*pad}
	off := th.Px(14)
	right, bottom := bounds.X+bounds.W, bounds.Y+bounds.H
	box.X = anchor.X + off
	if box.X+box.W > right {
		box.X = anchor.X - off - box.W // flip left
	}
	box.X = max(bounds.X, min(box.X, right-box.W))
	box.Y = anchor.Y + off
	if box.Y+box.H > bottom {
		box.Y = anchor.Y - off - box.H // flip up
	}
	box.Y = max(bounds.Y, min(box.Y, bottom-box.H))
	box.H = min(box.H, bottom-box.Y)
	l.Fill("tooltip", layout.Rect{X: box.X + th.Px(3), Y: box.Y + th.Px(3), W: box.W, H: box.H}, tooltipShadow)
	l.Fill("tooltip", box, th.Panel)
	l.Stroke("tooltip", box, th.Px(1.5), th.Text)
	for i, ln := range lines {
		y := box.Y + pad + float64(i)*lh
		if y+lh > box.Y+box.H+0.5 {
			for _, left := range lines[i:] {
				l.Overflows = append(l.Overflows, layout.Overflow{Role: "tooltip", Text: left.s, Axis: "h", Need: float64(len(lines))*lh + 2*pad, Have: box.H})
			}
			break
		}
		l.TextIn("tooltip", ln.s, ln.f, layout.Rect{X: box.X + pad, Y: y, W: textW, H: lh}, th.Text, layout.Left)
	}
	return box
}
