// Package framecheck lays out the start of every step of every lesson at
// a viewport, as viz/frame draws them (each tab of a frame that has
// tabs), and reports how the frames hold: the text runs that do not fit,
// by role, the smallest text and the smallest target. viz/frame's tests
// and `bufferlab lessons layout` use it. It is pure: no display.
package framecheck
