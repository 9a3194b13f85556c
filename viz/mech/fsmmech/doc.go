// Package fsmmech registers the free space map with viz/mech: its view
// (viz/fsmview) over a pane's events, its title, and its bench experiment
// and verify checks.
package fsmmech
