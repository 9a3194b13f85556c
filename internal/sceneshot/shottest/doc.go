// Package shottest runs a scene screenshot command (cmd/slrushot,
// cmd/fsmshot) in a real window under Xvfb and checks the PNGs it writes:
// what both commands' end-to-end tests share. It does not import
// Ebitengine (package sceneshot does), so a test binary that imports it
// starts without a display; without xvfb-run the tests skip (with CI set,
// they fail), as internal/xvfbtest decides.
package shottest
