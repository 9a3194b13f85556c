// Package slrumech registers the commit log's SLRU with viz/mech: its
// view (viz/slruview) over a pane's events, its title, and its bench
// experiment and verify checks.
package slrumech
