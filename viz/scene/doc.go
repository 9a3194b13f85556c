// Package scene lays out BufferLab's scenes and panels from view models:
// the buffer pool (descriptor cells or, for large pools, a heat map that
// zooms down to single descriptors), the mapping table's partitions with
// their lock holders, the backends as lanes, the state word, the
// pseudo-code panel, the counters, the lesson's prose and questions, and
// the end of a lesson (LayoutLessonEnd: the score from lessons/progress,
// what the lesson covered, and the Next lesson, Replay and Menu buttons).
//
// Drawing is split in two. A scene's layout step, here, takes a view, a
// rectangle and a *layout.Theme and appends to a *layout.List: boxes, text
// runs with their fonts, marks and, for the heat map, an image item whose
// pixels it computes (with a Key that changes when they do), each with a
// role ("cell 3", "partition 57", "counter hits"). The paint step, package
// scenedraw, paints that list with Ebitengine (render.Paint) and decides
// nothing. Layout functions are named Layout<Thing> (LayoutLanes,
// LayoutStateWord; PoolScene.Layout, Prose.LayoutBlocks) and return what
// the app needs back: the rect inside a panel, the choice boxes to
// hit-test; PoolScene keeps the rects of its last layout for BufferAt.
//
// Layout imports no Ebitengine, so its golden tests (testdata/*_layout.txt,
// run with `go test ./viz/scene`, `-rewrite` to regenerate) need no
// display. Text that does not fit its box is recorded in the list's
// Overflows, never silently cut; the goldens list every overflow.
//
// A scene is laid out from its mechanism's view model alone (the pool's
// from a *poolview.Pool, the commit log's SLRU from a *slruview.View, the
// free space map from a *fsmview.View): it keeps only presentation state
// (zoom, the heat map's pixels) and never reads the engine. Every state is
// shown with a label or shape as well as a colour: the states a reader
// must tell apart are drawn from tables (SLRUEncodings, PoolEncodings,
// HeatEncodings in encodings.go: fill, outline colour, width and style,
// hatch, marks), which the tests check pair by pair as viewers with
// protanopia and deuteranopia see them, in both themes.
//
// Trails (the views' Trails, Lookup.Trail, Search.Trail) are drawn in the
// theme's Trail colours, the same way in every scene: what the operation
// shown went through is framed in yellow on a thin dark line (a
// descriptor a drop examined, a partition a lookup probed, an SLRU slot
// compared, an FSM node read or written), the clock hand's path is a
// yellow band along the bottom of each cell it passed (dark where it
// stopped), a scan's ring a dashed frame, a page thrown out crossed out;
// in the heat map, and in cells too small for shapes, a marked descriptor
// is a yellow (or dark) texel, framed as well when there are a handful.
//
// Legends say what a scene's numbers, badges, shades, frames and marks
// mean (PoolLegend, LayoutTrailLegend, LayoutPartitionsLegend,
// LayoutSLRULegend): each says the height it needs at a width, so the
// caller reserves it. Tooltips say
// what is under the pointer: PoolScene.BufferAt for the pool's cells, and
// the hit regions the partitions, SLRU slots and FSM tree nodes record in
// the list (layout.List.HitAt, TooltipText); Tooltip lays the text out
// beside the pointer.
//
// Each mechanism's scene is named Layout<Mechanism>Scene (LayoutSLRUScene,
// LayoutFSMScene), with Layout<Mechanism>Pane for one pane of several
// variants side by side; the app chooses scenes by what a lesson's config
// runs.
package scene
