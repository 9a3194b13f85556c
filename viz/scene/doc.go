// Package scene draws BufferLab's scenes and panels from view models: the
// buffer pool (descriptor cells or, for large pools, a heat map that zooms
// down to single descriptors), the mapping table's partitions with their
// lock holders, the backends as lanes, the pseudo-code panel and the
// counters.
//
// A scene is drawn from its mechanism's view model alone (the pool's from
// a *poolview.Pool, the commit log's SLRU from a *slruview.View, the free
// space map from a *fsmview.View): it keeps only presentation state (zoom,
// the heat map texture) and never reads the engine. Every state is drawn
// with a label or shape as well as a colour.
//
// Each mechanism's scene is named Draw<Mechanism>Scene (DrawSLRUScene,
// DrawFSMScene), with Draw<Mechanism>Pane for one pane of several variants
// side by side; the app chooses scenes by what a lesson's config runs.
package scene
