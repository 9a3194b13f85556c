// Command desktop is BufferLab's native app: the lesson player in a window.
//
//	desktop [--lesson NAME] [--scenario FILE] [--step N] [--width W] [--height H]
//	        [--presentation] [--fast EXPERIMENT] [--screenshot FILE] [--measure N]
//
// With no flag it opens the lesson menu. --lesson opens a lesson (at step N
// with --step); --scenario plays a scenario file instead of a lesson.
// --fast opens the fast-mode panel running an experiment (pool, limits).
// --screenshot renders the chosen state once (after the experiment, with
// --fast), writes it as a PNG and exits (the screenshot test runs it under
// Xvfb). --measure times the pool scene over N frames.
//
// Flags are parsed and checked, and the display looked for, before the
// window library starts (package startup): --help needs no window, and
// with no display the app says so in one line and exits with status 1.
//
// It needs cgo and, on Linux, the X11 and OpenGL development headers (see
// the README).
package main
