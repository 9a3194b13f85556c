package scene

import (
	"fmt"
	"image/color"

	"bufferlab/viz/layout"
)

// The encodings: how each scene draws the states a reader must tell apart,
// as data that the scenes read when they draw (and that the legends
// show), so that the tests judge what is drawn. A state is a base (the
// slot's or buffer's own fill and outline) or an overlay drawn over a base
// (pinned over the usage count, a lookup's outline over a slot): an
// overlay's zero fill or zero outline width leaves the base's.
//
// No pair is told apart by hue alone. Under protanopia and deuteranopia
// (colorcheck's simulation) the orange of "compared" and the vermilion of
// "victim" are olives a few units apart, the pale green of I/O is the grey
// of EMPTY, so those states differ in something else: the outline's style
// (dashed for an EMPTY slot, dotted for one compared and passed over,
// solid and thick for the one being compared, double for the victim), a
// hatch for I/O in progress, the folded corner for dirty. The usage ramp
// and the heat map's colours differ in lightness and chroma, which those
// viewers keep (TestEncodingsDistinguishable).

// NamedEncoding is one state of a table: its name, whether it is an
// overlay, and how it is drawn.
type NamedEncoding struct {
	State   string
	Overlay bool
	layout.Encoding
}

// SLRUStates is how the SLRU scene draws a slot: its state (EMPTY, VALID,
// READ or WRITE I/O in progress) as a base, then what lies over it (the
// DIRTY flag, a lookup's marks).
type SLRUStates struct {
	Empty, Valid, IO layout.Encoding
	// Dirty: the folded corner and the DIRTY badge.
	Dirty layout.Encoding
	// Compared: passed over by the scan in progress (SlruSelectLRUPage's
	// or the bank's search: not the page it looks for); its tint and a
	// dotted outline, and "≠".
	Compared layout.Encoding
	// Comparing: the slot a lookup is on (compares, probes, weighs): a
	// thick solid outline and a tab naming the backend.
	Comparing layout.Encoding
	// Victim: the slot the victim search chose: a double outline and the
	// VICTIM tab.
	Victim layout.Encoding
	// Trail: compared (or found by a probe) by the operation shown, in
	// any pass, kept until the next operation begins: a thick yellow
	// frame inside the slot, on a thin line in Trail.Edge.
	Trail layout.Encoding
}

// SLRUEncodings is the SLRU scene's table for a theme.
func SLRUEncodings(th *layout.Theme) SLRUStates {
	edge := func(fill layout.Encoding) layout.Encoding {
		fill.Edge, fill.EdgeWidth = th.PanelEdge, 1
		return fill
	}
	return SLRUStates{
		Empty:     layout.Encoding{Fill: th.Free, Edge: th.PanelEdge, EdgeWidth: 1, EdgeStyle: layout.EdgeDashed},
		Valid:     edge(layout.Encoding{Fill: th.SLRU.Valid}),
		IO:        edge(layout.Encoding{Fill: th.SLRU.IO, Pattern: layout.PatternHatch, PatternColor: th.IO}),
		Dirty:     layout.Encoding{Marks: layout.MarkCorner | layout.MarkBadge, MarkColor: th.Dirty},
		Compared:  layout.Encoding{Fill: th.SLRU.Compared, Edge: th.Highlight, EdgeWidth: 2, EdgeStyle: layout.EdgeDotted},
		Comparing: layout.Encoding{Edge: th.Highlight, EdgeWidth: 3, Marks: layout.MarkTab, MarkColor: th.Highlight},
		Victim:    layout.Encoding{Edge: th.Error, EdgeWidth: 2, EdgeStyle: layout.EdgeDouble, Marks: layout.MarkTab, MarkColor: th.Error},
		Trail:     layout.Encoding{Edge: th.Trail.Mark, EdgeWidth: trailFrame},
	}
}

// Named lists the table's states, bases first.
func (s SLRUStates) Named() []NamedEncoding {
	return []NamedEncoding{
		{"EMPTY", false, s.Empty}, {"VALID", false, s.Valid}, {"I/O in progress", false, s.IO},
		{"DIRTY", true, s.Dirty}, {"compared", true, s.Compared}, {"being compared", true, s.Comparing}, {"victim", true, s.Victim},
		{"trail", true, s.Trail},
	}
}

// slotTab is the outline and tab of a lookup's other marks (a hit, a
// read, a write, a wait for I/O) in colour c: thick and solid like
// Comparing's; the tab's words say which.
func slotTab(c color.RGBA) layout.Encoding {
	return layout.Encoding{Edge: c, EdgeWidth: 3, Marks: layout.MarkTab, MarkColor: c}
}

// PoolStates is how the pool scene draws a descriptor's cell: free or its
// usage count as a base, then its flags over it.
type PoolStates struct {
	Free  layout.Encoding
	Usage [6]layout.Encoding
	// Pinned: a thick outline and the PIN badge with the count.
	Pinned layout.Encoding
	// Dirty: the folded corner and the DIRTY badge.
	Dirty layout.Encoding
	// IO: BM_IO_IN_PROGRESS, the hatch and the IO badge.
	IO layout.Encoding
	// Locked: BM_LOCKED (the header spinlock), the LOCK badge.
	Locked layout.Encoding
	// The trail of the operation shown (poolview.Trails): a descriptor a
	// drop examined, a thick yellow frame inside the cell; a member of a
	// scan's ring, the frame dashed; one the clock hand passed, a yellow
	// band along the bottom (the hand's path); the sweep's victim, the
	// band dark (where the hand stopped); one a drop invalidated, crossed
	// out.
	TrailExamined, TrailRing, TrailSwept, TrailEvicted, TrailGone layout.Encoding
}

// PoolEncodings is the pool scene's table for a theme.
func PoolEncodings(th *layout.Theme) PoolStates {
	s := PoolStates{
		Free:   layout.Encoding{Fill: th.Free, Edge: th.PanelEdge, EdgeWidth: 1},
		Pinned: layout.Encoding{Edge: th.Pinned, EdgeWidth: 3, Marks: layout.MarkBadge, MarkColor: th.Pinned},
		Dirty:  layout.Encoding{Marks: layout.MarkCorner | layout.MarkBadge, MarkColor: th.Dirty},
		IO:     layout.Encoding{Pattern: layout.PatternHatch, PatternColor: th.IO, Marks: layout.MarkBadge, MarkColor: th.IO},
		Locked: layout.Encoding{Marks: layout.MarkBadge, MarkColor: th.Locked},

		TrailExamined: layout.Encoding{Edge: th.Trail.Mark, EdgeWidth: trailFrame},
		TrailRing:     layout.Encoding{Edge: th.Trail.Mark, EdgeWidth: trailFrame, EdgeStyle: layout.EdgeDashed},
		TrailSwept:    layout.Encoding{Marks: layout.MarkBand, MarkColor: th.Trail.Mark},
		TrailEvicted:  layout.Encoding{Marks: layout.MarkBand, MarkColor: th.Trail.Gone},
		TrailGone:     layout.Encoding{Marks: layout.MarkCross, MarkColor: th.Trail.Gone},
	}
	for u := range s.Usage {
		s.Usage[u] = layout.Encoding{Fill: th.UsageRamp[u], Edge: th.PanelEdge, EdgeWidth: 1}
	}
	return s
}

// Named lists the table's states, bases first.
func (s PoolStates) Named() []NamedEncoding {
	return append(usageNamed(s.Free, s.Usage), NamedEncoding{"pinned", true, s.Pinned}, NamedEncoding{"dirty", true, s.Dirty},
		NamedEncoding{"I/O in progress", true, s.IO}, NamedEncoding{"locked", true, s.Locked},
		NamedEncoding{"trail: examined", true, s.TrailExamined}, NamedEncoding{"trail: ring", true, s.TrailRing},
		NamedEncoding{"trail: swept", true, s.TrailSwept}, NamedEncoding{"trail: victim", true, s.TrailEvicted},
		NamedEncoding{"trail: invalidated", true, s.TrailGone})
}

// trailFrame is the width of a trail's frame inside a cell.
const trailFrame = 3

// HeatStates is how the heat map colours a descriptor: one texel each, so
// colour is all it has, and the pinned and dirty flags take the place of
// the usage count, and a trail's mark takes the place of them all (a
// descriptor the operation shown passed, one whose page it threw out).
type HeatStates struct {
	Free          layout.Encoding
	Usage         [6]layout.Encoding
	Pinned, Dirty layout.Encoding
	Trail, Gone   layout.Encoding
}

// HeatEncodings is the heat map's table for a theme.
func HeatEncodings(th *layout.Theme) HeatStates {
	s := HeatStates{Free: layout.Encoding{Fill: th.Free}, Pinned: layout.Encoding{Fill: th.Pinned}, Dirty: layout.Encoding{Fill: th.Dirty},
		Trail: layout.Encoding{Fill: th.Trail.Mark}, Gone: layout.Encoding{Fill: th.Trail.Gone}}
	for u := range s.Usage {
		s.Usage[u] = layout.Encoding{Fill: th.UsageRamp[u]}
	}
	return s
}

// Named lists the table's states (all bases: one colour a descriptor).
func (s HeatStates) Named() []NamedEncoding {
	return append(usageNamed(s.Free, s.Usage), NamedEncoding{"pinned", false, s.Pinned}, NamedEncoding{"dirty", false, s.Dirty},
		NamedEncoding{"trail", false, s.Trail}, NamedEncoding{"trail: thrown out", false, s.Gone})
}

// usageNamed lists the bases a descriptor's usage count chooses among:
// free, then each usage count.
func usageNamed(free layout.Encoding, usage [6]layout.Encoding) []NamedEncoding {
	out := []NamedEncoding{{"free", false, free}}
	for u, e := range usage {
		out = append(out, NamedEncoding{fmt.Sprintf("usage %d", u), false, e})
	}
	return out
}
