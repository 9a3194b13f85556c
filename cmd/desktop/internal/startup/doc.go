// Package startup parses the desktop app's flags and checks that there is a
// display, before the window library starts.
//
// Ebitengine opens GLFW in an init function of its internal/ui package and
// panics, with a stack trace, when GLFW cannot start (no DISPLAY). So that
// `desktop --help` needs no window, bad flags get exit 2 and a missing
// display one line and exit 1, this package does its work in its own init
// function, which runs before Ebitengine's: Go (1.21 on) initialises, at each
// step, the first package by import path whose imports are all initialised;
// every package this one imports is one that internal/ui imports too, and
// "bufferlab/…" sorts before "github.com/…". (TestNoDisplay in
// cmd/desktop/e2e runs the binary without a display.)
//
// Under `go test` the init does nothing: the test binary's arguments are
// test flags, and tests call Parse and CheckDisplay themselves.
package startup
