// Package scene draws BufferLab's scenes and panels from view models: the
// buffer pool (descriptor cells or, for large pools, a heat map that zooms
// down to single descriptors), the mapping table's partitions with their
// lock holders, the backends as lanes, the pseudo-code panel and the
// counters.
//
// A scene is drawn from a *view.Pool alone; it keeps only presentation
// state (zoom, the heat map texture) and never reads the engine. Every state
// is drawn with a label or shape as well as a colour.
//
// Adding a scene for another mechanism means a new type with
// Draw(dst, rect, pool-or-other-view, theme) and, if it is interactive,
// HitTest; the app chooses scenes by what a lesson's events touch.
package scene
