// Package narratetest holds the tests every engine package's captions
// share (bufmgr, slru, fsm): its moments against a table, every kind of
// event on its classes and sites in words, and every event of its golden
// files with a caption of its own. Each package's test gives its own
// tables, sites and runs; the checks are narrate's.
package narratetest
