// Package goldentest runs datadriven golden files
// (github.com/cockroachdb/datadriven) in the pebble style: a test names
// its directives in a table, each with a handler that turns one case into
// its output, and the files' expected outputs (below "----") are compared
// with what the handlers return.
//
//	goldentest.RunFile(t, "testdata/help.txt", goldentest.Directives{
//		"help":  help,
//		"error": goldentest.Fails(parse), // the output is the error's text
//	})
//
// Run takes a glob (one subtest a file), RunFile one file. A directive the
// table lacks, and a handler's error, fail the test at the case's
// file:line. Fails turns a handler into one for a directive that must
// fail. Scripted is the events, picture and error directives of files
// whose cases run a mechanism's script. Args, Int, Float and Size read
// the directive line's key=value arguments and fail at the case's
// position on a malformed value.
//
// It is for tests only: the engine's and the viz's golden runners share
// it, which is why it lives here and not under engine/internal (which viz
// may not import). The -rewrite flag that regenerates the files is
// datadriven's own.
package goldentest
