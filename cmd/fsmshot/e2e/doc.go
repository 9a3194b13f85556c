// Package e2e runs cmd/fsmshot in a real window under Xvfb and checks the
// PNGs it writes: their size, and the colours the FSM scene must show at
// the chosen events (the pages a search read and the path it lit, a page
// tried and found full, the local map's AVAIL entries, the FSM pages not
// read). It is a package of its own so that the test binary does not link
// Ebitengine, which needs a display to initialise; without xvfb-run the
// tests skip (with CI set, they fail).
package e2e
