// Package atomicfile writes a file so that a reader sees the old
// contents or the new, never a part: the bytes go to a temporary file in
// the same directory, which is then renamed over the path. precompress
// writes the wasm's compressed copies with it, and wasmbuild its
// generated files.
package atomicfile
