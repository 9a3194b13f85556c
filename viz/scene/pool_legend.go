package scene

import (
	"fmt"
	"image/color"
	"math/bits"

	"bufferlab/engine/bufmgr"
	"bufferlab/viz/layout"
	view "bufferlab/viz/poolview"
)

// The legends of the pool scenes (lessons 1–3) and of the mapping table
// panel: what every number, badge, shade, frame and mark of PoolScene,
// LayoutStateWord and LayoutPartitions means, in words true of PostgreSQL
// 15. The numbers in them (bit ranges, BM_MAX_USAGE_COUNT, the partitions)
// come from the engine's constants and the badges from the tables the
// scenes draw with, so the legend cannot say what the scene does not do.

// PoolLegend says which parts of the pool legend a caller shows: the
// cells' part, or the heat map's instead when the pool scene draws one
// (Heat: PoolScene.HeatShown; zoomed in to cells, the cells' part is
// back), and the state word's when LayoutStateWord is on screen.
type PoolLegend struct {
	Heat      bool
	StateWord bool
}

// Height is the height Layout needs at width w: the caller reserves it
// (r.SplitTop(pl.Height(w, th))), and Layout in a rect that tall records
// no overflow.
func (pl PoolLegend) Height(w float64, th *layout.Theme) float64 {
	return legendHeight(pl.sections(th), w, th)
}

// Layout lays the legend out in r (roles "pool legend cells", "pool
// legend heat", "pool legend word", each with its " title" and " key")
// and returns the height it used. In a rect shorter than Height, the rows
// that do not fit are left out and recorded as overflows.
func (pl PoolLegend) Layout(l *layout.List, r layout.Rect, th *layout.Theme) float64 {
	return layoutLegend(l, "pool legend", r, pl.sections(th), th)
}

// TrailLegendHeight is the height LayoutTrailLegend needs at width w.
func TrailLegendHeight(w float64, th *layout.Theme) float64 {
	return legendHeight(trailLegend(th), w, th)
}

// LayoutTrailLegend lays out the legend of the trails (roles "trail
// legend trail", with " title" and " key"), in the pool's cells, its heat
// map and the mapping table, and returns the height it used; as
// PoolLegend.Layout, it records what a short rect cuts.
func LayoutTrailLegend(l *layout.List, r layout.Rect, th *layout.Theme) float64 {
	return layoutLegend(l, "trail legend", r, trailLegend(th), th)
}

// PartitionsLegendHeight is the height LayoutPartitionsLegend needs at
// width w.
func PartitionsLegendHeight(w float64, th *layout.Theme) float64 {
	return legendHeight(partitionsLegend(th), w, th)
}

// LayoutPartitionsLegend lays out the mapping table's legend in r (roles
// "partitions legend parts", with " title" and " key") and returns the
// height it used; as PoolLegend.Layout, it records what a short rect cuts.
func LayoutPartitionsLegend(l *layout.List, r layout.Rect, th *layout.Theme) float64 {
	return layoutLegend(l, "partitions legend", r, partitionsLegend(th), th)
}

// Bit ranges of the state word, from the engine's masks.
var (
	refcountBits = bitRange(bufmgr.BufRefcountMask)
	usageBits    = bitRange(bufmgr.BufUsagecountMask)
	flagBits     = bitRange(bufmgr.BufFlagMask)
)

// bitRange is "lo–hi", the bits a contiguous mask covers.
func bitRange(mask uint32) string {
	lo := bits.TrailingZeros32(mask)
	return fmt.Sprintf("%d–%d", lo, lo+bits.OnesCount32(mask)-1)
}

// flagMeaning says what each flag of the state word means, in PostgreSQL
// 15's terms (buf_internals.h, bufmgr.c): the pool legend's state-word
// section and the cell tooltips read it.
var flagMeaning = map[uint32]string{
	bufmgr.BmLocked:           "the header's spinlock is held; others spin",
	bufmgr.BmDirty:            "changed since last written",
	bufmgr.BmValid:            "the page's contents are valid (read in)",
	bufmgr.BmTagValid:         "a block is assigned (the tag is valid)",
	bufmgr.BmIOInProgress:     "a read or write is under way; others wait",
	bufmgr.BmIOError:          "the last I/O failed (AbortBufferIO)",
	bufmgr.BmJustDirtied:      "dirtied again during its write: it stays dirty",
	bufmgr.BmPinCountWaiter:   "a backend waits to be the only pin (LockBufferForCleanup: VACUUM)",
	bufmgr.BmCheckpointNeeded: "the checkpoint in progress must write it (BufferSync)",
	bufmgr.BmPermanent:        "a WAL-logged relation's page or an init fork's; an ordinary checkpoint writes only these",
}

// flagName is a flag's PostgreSQL name: "BM_PIN_COUNT_WAITER".
func flagName(bit uint32) string {
	if ns := bufmgr.FlagNames(bit); len(ns) == 1 {
		return "BM_" + ns[0]
	}
	return fmt.Sprintf("bit %d", bits.TrailingZeros32(bit))
}

// cellLike is the fill of a sample cell in a key (a buffer with usage 1).
func cellLike(th *layout.Theme) color.RGBA { return th.UsageRamp[1] }

// chip is a key of one box: label in f on fill, framed by edge.
func chip(label string, f layout.Font, fill, edge color.RGBA, edgeW float64, th *layout.Theme) legendKey {
	return legendKey{h: layout.LineHeight(f) + th.Px(2), parts: []keyPart{{
		w: layout.Width(label, f) + th.Px(10), fill: fill, edge: edge, edgeW: edgeW,
		label: label, labelFont: f, labelColour: layout.TextOn(fill)}}}
}

// swatches is a key of boxes side by side, each a fill and a label.
func swatches(fills []color.RGBA, labels []string, f layout.Font, th *layout.Theme) legendKey {
	k := legendKey{h: layout.LineHeight(f) + th.Px(2)}
	for i, c := range fills {
		w := max(th.Px(16), layout.Width(labels[i], f)+th.Px(6))
		k.parts = append(k.parts, keyPart{w: w, fill: c, edge: th.PanelEdge, edgeW: 1, label: labels[i], labelFont: f, labelColour: layout.TextOn(c)})
	}
	return k
}

// sampleCell is a key of one cell-like box w wide (scaled), with the marks
// set in p.
func sampleCell(p keyPart, w float64, th *layout.Theme) legendKey {
	p.w = th.Px(w)
	if p.fill.A == 0 {
		p.fill = cellLike(th)
	}
	return legendKey{h: layout.LineHeight(th.Font(layout.Regular, 12)) + th.Px(6), parts: []keyPart{p}}
}

// sections are the pool legend's sections for the parts pl shows.
func (pl PoolLegend) sections(th *layout.Theme) []legendSection {
	small := th.Font(layout.Regular, 11)
	bold := th.Font(layout.Bold, 11)
	badgeF := th.Font(layout.Bold, 9)
	badge := func(label string, c color.RGBA) legendKey {
		return chip(label, badgeF, c, c, 0, th)
	}
	ramp := func() legendKey {
		fills := []color.RGBA{th.Free}
		labels := []string{"free"}
		for u := 0; u <= bufmgr.BmMaxUsageCount; u++ {
			fills = append(fills, th.UsageRamp[min(u, len(th.UsageRamp)-1)])
			labels = append(labels, fmt.Sprint(u))
		}
		return swatches(fills, labels, small, th)
	}
	cells := legendSection{id: "cells", title: "Each cell is a buffer descriptor (BufferDesc): the block it holds and its state word", entries: []legendEntry{
		{chip("#3", bold, cellLike(th), th.PanelEdge, 1, th), "buffer id", "(buf_id): the descriptor's index in the pool, from 0."},
		{chip("orders/2", small, cellLike(th), th.PanelEdge, 1, th), "tag:", "the block it holds, relation/block (relation/fork/block outside the main fork). free: on the freelist; -: neither, for a moment (off the freelist, not yet tagged)."},
		{chip("rc 1", small, cellLike(th), th.PanelEdge, 1, th), "rc, the refcount", fmt.Sprintf("(state word bits %s): how many backends pin it (a backend's repeated pins count once here). A pinned buffer is never evicted.", refcountBits)},
		{chip("u 2", small, cellLike(th), th.PanelEdge, 1, th), "u, the usage count", fmt.Sprintf("(bits %s, at most BM_MAX_USAGE_COUNT = %d; u2 beside the id in a short cell): 1 when read in, +1 per later pin (a ring's pin only lifts 0 to 1). The clock sweep takes 1 off each unpinned buffer it passes and evicts the first at 0.", usageBits, bufmgr.BmMaxUsageCount)},
		{ramp(), "fill:", fmt.Sprintf("the usage count again, light (0) to dark (%d); free: no block.", bufmgr.BmMaxUsageCount)},
		{sampleCell(keyPart{edge: th.Pinned, edgeW: 3, badge: "PIN 2", badgeFill: th.Pinned}, 54, th), "PIN n, thick frame:", "pinned by n backends (the refcount)."},
		{sampleCell(keyPart{corner: true, edge: th.PanelEdge, edgeW: 1, badge: cellBadgeDirty, badgeFill: th.Dirty}, 54, th), "DIRTY, folded corner", "(BM_DIRTY): changed since last written; written out before the buffer is reused."},
		{badge(cellBadgeLock, th.Locked), cellBadgeLock, "(BM_LOCKED): the header's spinlock is held, for a few instructions; others spin (not the content lock)."},
		{badge(cellBadgeIO, th.IO), cellBadgeIO, "(BM_IO_IN_PROGRESS): being read in or written out; others wait for it."},
		{badge(cellBadgeInvalid, th.Error), cellBadgeInvalid + ":", "tagged (BM_TAG_VALID) but not BM_VALID: its read has not begun, or failed."},
		{sampleCell(keyPart{edge: th.Highlight, edgeW: 3}, 40, th), "orange frame:", "the buffer the current event changed."},
		{sampleCell(keyPart{hand: true, edge: th.PanelEdge, edgeW: 1}, 40, th), "clock hand:", "nextVictimBuffer mod NBuffers, the buffer the sweep looks at next; complete passes counts its wraps to buffer 0."},
	}}
	secs := []legendSection{cells}
	if pl.Heat {
		secs = nil
		sq := func(c color.RGBA, edge color.RGBA, w float64) legendKey {
			return legendKey{h: th.Px(14), parts: []keyPart{{w: th.Px(14), fill: c, edge: edge, edgeW: w}}}
		}
		secs = append(secs, legendSection{id: "heat", title: fmt.Sprintf("Heat map: more than %d buffers in view are a square each (the mouse wheel zooms in to cells)", DetailMax), entries: []legendEntry{
			{ramp(), "usage count", fmt.Sprintf("0 to %d, light to dark; free: no block.", bufmgr.BmMaxUsageCount)},
			{sq(th.Pinned, th.PanelEdge, 1), "pinned", "(refcount above 0), whatever its usage count."},
			{sq(th.Dirty, th.PanelEdge, 1), "dirty", "and not pinned."},
			{sq(th.Free, th.Text, 2), "black outline:", "the clock hand."},
			{sq(th.Free, th.Highlight, 2), "orange outline:", "the buffer the current event changed."},
		}})
	}
	if pl.StateWord {
		f := th.Font(layout.Regular, 10)
		var es []legendEntry
		for _, fl := range flagLabels {
			k := chip(fl.label, f, th.Accent, th.Accent, 0, th)
			if fl.short != fl.label {
				k.parts = append(k.parts, chip(fl.short, f, th.Accent, th.Accent, 0, th).parts...)
			}
			if fl.letter != fl.short {
				k.parts = append(k.parts, chip(fl.letter, f, th.Accent, th.Accent, 0, th).parts...)
			}
			es = append(es, legendEntry{k, flagName(fl.bit) + ":", flagMeaning[fl.bit] + "."})
		}
		secs = append(secs, legendSection{id: "word", title: fmt.Sprintf("State word (one atomic 32-bit integer): flags %s (filled when set, grey when clear), usage count %s, refcount %s", flagBits, usageBits, refcountBits), entries: es})
	}
	return secs
}

// trailLegend is the legend of the trails, each key drawn by the code
// that draws the trail in the scene (layoutCellTrail, layoutCellTrailUnder,
// layoutPartitionTrail) and the heat map's colours.
func trailLegend(th *layout.Theme) []legendSection {
	small := th.Font(layout.Regular, 9)
	h := layout.LineHeight(th.Font(layout.Regular, 12)) + th.Px(6)
	cells := func(w float64, fill color.RGBA, marks ...view.Mark) legendKey {
		k := legendKey{h: h}
		for _, m := range marks {
			k.parts = append(k.parts, keyPart{w: th.Px(w), fill: fill, edge: th.PanelEdge, edgeW: 1, trail: m})
		}
		return k
	}
	parts := legendKey{h: layout.LineHeight(small) + th.Px(6), parts: []keyPart{
		{w: th.Px(30), fill: th.Free, edge: th.PanelEdge, edgeW: 1, partTrail: view.MarkProbed},
		{w: th.Px(30), fill: th.Free, edge: th.PanelEdge, edgeW: 1, partTrail: view.MarkChanged}}}
	sq := func(c color.RGBA) keyPart { return keyPart{w: th.Px(14), fill: c, edge: th.PanelEdge, edgeW: 1} }
	return []legendSection{{id: "trail", title: "The trail (yellow): what the last operation to begin went through, drawn until the next one begins; one still running keeps its own", entries: []legendEntry{
		{cells(30, cellLike(th), view.MarkExamined, view.MarkExamined|view.MarkDropped), "Frame:", "a descriptor the drop examined (every one in the full scan, a handful by lookup or by the relation's list); crossed out: it invalidated the buffer, whose page is gone."},
		{cells(30, cellLike(th), view.MarkSwept, view.MarkEvicted), "Band:", "the clock hand's path: a buffer the sweep passed; dark where the hand stopped, the victim whose page it threw out."},
		{cells(40, cellLike(th), view.MarkRing), "Dashed frame, " + cellBadgeRing + ":", "in the ring of the scan (BULKREAD): the few buffers a big sequential scan reads every page through."},
		{legendKey{h: th.Px(14), parts: []keyPart{sq(th.Trail.Mark), sq(th.Trail.Gone)}}, "Heat map:", "yellow, a buffer the operation passed (framed too when 64 or fewer); dark, one whose page it threw out."},
		{parts, "Mapping table:", "a yellow frame where it looked a tag up (the lookup's hops), a dark corner where it inserted or deleted an entry."},
	}}}
}

// partitionsLegend is the mapping table's legend.
func partitionsLegend(th *layout.Theme) []legendSection {
	f := th.Font(layout.Regular, 9) // as LayoutPartitions writes its cells
	small := th.Font(layout.Regular, 11)
	cell := func(label string, fill, edge color.RGBA, edgeW float64) legendKey {
		return legendKey{h: layout.LineHeight(f) + th.Px(6), parts: []keyPart{{w: max(th.Px(30), layout.Width(label, f)+th.Px(8)), fill: fill, edge: edge, edgeW: edgeW, label: label, labelFont: f, labelColour: layout.TextOn(fill)}}}
	}
	// The shades, at the first count of each step of partitionFill.
	var fills []color.RGBA
	var labels []string
	for _, st := range partitionShades() {
		fills = append(fills, partitionFill(st.lo, th))
		labels = append(labels, st.label)
	}
	last := view.NumPartitions - 1
	return []legendSection{{id: "parts", title: fmt.Sprintf("Mapping table: the shared hash table from a tag to its buffer (buf_table.c), split into %d partitions (NUM_BUFFER_PARTITIONS), each under its own lock", view.NumPartitions), entries: []legendEntry{
		{chip(fmt.Sprintf("0 … %d", last), small, th.Panel, th.PanelEdge, 1, th), "place:", fmt.Sprintf("partition %d × row + column, 0 at the top left, %d at the bottom right. A tag's partition is the hash of its 20 bytes (hash_bytes) mod %d.", partitionCols, last, view.NumPartitions)},
		{cell("3", partitionFill(3, th), th.PanelEdge, 1), "number:", "the partition's entries, the tags that hash to it and are mapped to a buffer (blank: none)."},
		{swatches(fills, labels, small, th), "fill:", "darker with more entries."},
		{cell("X:A", partitionFill(1, th), th.Locked, 3), "X:A and a thick black frame:", "backend A holds the partition's lock exclusively, to insert or delete an entry (BufferAlloc, InvalidateBuffer); its number is hidden meanwhile."},
		{cell("S:AB", partitionFill(1, th), th.Accent, 2), "S:AB and a blue frame:", "A and B hold it shared, to look a tag up (BufTableLookup)."},
		{cell("", th.Free, th.Highlight, 2), "orange frame:", "the partition the current event touched."},
		{chip("[WAITING]", small, th.Panel, th.PanelEdge, 1, th), "A backend waiting", "for a partition's lock says WAITING in its lane."},
	}}}
}
