// Package e2e runs cmd/slrushot in a real window under Xvfb and checks the
// PNGs it writes: their size, and the colours the SLRU scene must show at
// the chosen events (a linear search's highlight and compared slots, a
// victim's outline). It is a package of its own so that the test binary
// does not link Ebitengine, which needs a display to initialise; without
// xvfb-run the tests skip (with CI set, they fail).
package e2e
