// Package exptest holds what the experiments' testing.B twins share: the
// sizes they run at and the conversion of a size to buffers.
package exptest
