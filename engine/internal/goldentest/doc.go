// Package goldentest runs the engine packages' datadriven golden files
// (github.com/cockroachdb/datadriven): every file a glob matches, each as a
// subtest named by its base name. It is for tests only; the engine never
// imports it. The -rewrite flag that regenerates the files is
// datadriven's own.
package goldentest
