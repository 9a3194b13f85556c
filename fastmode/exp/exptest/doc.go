// Package exptest holds what the experiments' tests share: for the
// testing.B twins, the sizes they run at, the conversion of a size to
// buffers and the timing of a batch; for the checks against the threads,
// the shared seed files.
package exptest
