// Package linediff compares two texts line by line: what verify reports
// when the engine and a server disagree, and what tests print when two
// runs' pictures differ.
package linediff
