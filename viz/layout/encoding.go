package layout

import "image/color"

// An Encoding is how a scene draws one state of a thing (an SLRU slot
// that is EMPTY, a buffer that is pinned): its fill, its outline and the
// outline's style, a pattern over the fill, and the marks it adds. The
// scenes keep a table of them (viz/scene's SLRUEncodings, PoolEncodings,
// HeatEncodings), draw each state from its entry, and test each pair of
// states they must tell apart: by colour, as viewers with and without
// colour vision see it, or by a part that is not colour (style, width,
// pattern, marks).
type Encoding struct {
	// Fill is the state's fill; zero (transparent) when the state is
	// drawn over another's fill (pinned over the usage count).
	Fill color.RGBA
	// Edge, EdgeWidth and EdgeStyle are its outline; a zero width: none
	// of its own.
	Edge      color.RGBA
	EdgeWidth float64
	EdgeStyle EdgeStyle
	// Pattern is drawn over the fill, in PatternColor.
	Pattern      Pattern
	PatternColor color.RGBA
	// Marks are the shapes it adds beside fill and outline, in MarkColor.
	Marks     Mark
	MarkColor color.RGBA
}

// EdgeStyle is how an outline is drawn.
type EdgeStyle uint8

// Outline styles.
const (
	EdgeSolid  EdgeStyle = iota
	EdgeDashed           // dashes 3 widths long (4 px at least), gaps 2 widths (3 px at least)
	EdgeDotted           // dots a width long, a width and a half apart
	EdgeDouble           // two lines, each the width, a width apart
)

var edgeStyleNames = [...]string{EdgeSolid: "solid", EdgeDashed: "dashed", EdgeDotted: "dotted", EdgeDouble: "double"}

func (s EdgeStyle) String() string { return edgeStyleNames[s] }

// Pattern is a texture drawn over a fill.
type Pattern uint8

// Patterns.
const (
	PatternNone  Pattern = iota
	PatternHatch         // diagonal lines: HatchWidth wide, HatchSpacing apart
)

var patternNames = [...]string{PatternNone: "none", PatternHatch: "hatch"}

func (p Pattern) String() string { return patternNames[p] }

// The hatch's lines: thin enough that the text over them reads (at 1.5 px
// every 7 the lines crowded a cell's small type, seen under Xvfb), close
// enough that a cell of 30 px shows several.
const (
	HatchWidth   = 1.0
	HatchSpacing = 8.0
)

// Mark is a set of shapes an encoding adds.
type Mark uint8

// Marks.
const (
	MarkCorner Mark = 1 << iota // a folded corner: a triangle in a corner of the cell
	MarkBadge                   // a small labelled box along the cell's bottom edge
	MarkTab                     // a tab above the cell naming the backend that acts on it
	MarkBand                    // a band along the cell's bottom edge (a trail's passage: the clock hand's path)
	MarkCross                   // the cell crossed out, corner to corner (a trail's page thrown out)
)

// Outline adds e's outline of r in its style (nothing when e has none).
// A double outline's second line is inside the first.
func (l *List) Outline(role string, r Rect, e Encoding) {
	w := e.EdgeWidth
	if w <= 0 {
		return
	}
	switch e.EdgeStyle {
	case EdgeDashed:
		l.StrokeDashed(role, r, w, e.Edge, max(4, 3*w), max(3, 2*w))
	case EdgeDotted:
		l.StrokeDashed(role, r, w, e.Edge, w, 1.5*w)
	case EdgeDouble:
		l.Stroke(role, r, w, e.Edge)
		l.Stroke(role, r.Inset(2*w), w, e.Edge)
	default:
		l.Stroke(role, r, w, e.Edge)
	}
}

// PatternOver adds e's pattern over r (nothing for PatternNone).
func (l *List) PatternOver(role string, r Rect, e Encoding) {
	if e.Pattern == PatternHatch {
		l.Hatch(role, r, HatchWidth, HatchSpacing, e.PatternColor)
	}
}
