// Command desktop is BufferLab's native app: the lesson player in a window.
//
//	desktop [--lesson NAME] [--scenario FILE] [--step N] [--width W] [--height H]
//	        [--presentation] [--screenshot FILE]
//
// With no flag it opens the lesson menu. --lesson opens a lesson (at step N
// with --step); --scenario plays a scenario file instead of a lesson.
// --screenshot renders the chosen state once, writes it as a PNG and exits
// (the screenshot test runs it under Xvfb).
//
// It needs cgo and, on Linux, the X11 and OpenGL development headers (see
// the README).
package main
