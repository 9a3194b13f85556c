// Command desktop is BufferLab's native app: the lesson player in a window.
//
//	desktop [--lesson NAME] [--scenario FILE] [--step N] [--width W] [--height H]
//	        [--presentation] [--fast EXPERIMENT] [--screenshot FILE] [--measure N]
//	        [--progress-file FILE] [--reset-progress]
//
// With no flag it opens the lesson menu. --lesson opens a lesson (at step N
// with --step, counted from 1 as the screen's "Step N of M" and a link's
// step=N count); --scenario plays a scenario file instead of a lesson.
// --fast opens the fast-mode panel running an experiment (pool, limits).
// --screenshot renders the chosen state once (after the experiment, with
// --fast), writes it as a PNG and exits (the screenshot test runs it under
// Xvfb). --measure times the pool scene over N frames.
//
// Progress (answers, the furthest step, lessons done) is kept in
// bufferlab/progress.json under the user's configuration directory
// ($XDG_CONFIG_HOME, else ~/.config, on Linux), or in --progress-file;
// --reset-progress forgets it first. A --screenshot or --measure run keeps
// none unless --progress-file is given, so that its picture does not
// depend on the machine and it does not touch the user's progress.
//
// Flags are parsed and checked, and the display looked for, before the
// window library starts (package startup): --help needs no window, and
// with no display the app says so in one line and exits with status 1.
//
// It needs cgo and, on Linux, the X11 and OpenGL development headers (see
// the README).
package main
