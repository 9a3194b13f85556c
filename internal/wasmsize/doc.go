// Package wasmsize measures the browser build, web/bufferlab.wasm: its
// size raw and as `bufferlab serve` sends it (brotli, the copy
// cmd/precompress writes; gzip for the browsers without brotli), and
// where its bytes go (the code section by Go package, read from the
// wasm's name section).
//
// WasmBrotliBytes is what a report of the page's weight calls (`bufferlab
// bench step` reports it as wasm_br_bytes): the bytes a browser that
// accepts brotli downloads. It reads the .br copy beside the file when
// that copy is up to date, which costs a decompression (about a second);
// otherwise it compresses the file in memory with precompress's settings
// (brotli level 11, window 2^24: one to two minutes on this project's
// machine for the 17 MB build).
//
// Build makes the wasm as `make wasm` does (internal/wasmbuild), so that a
// test measures what is served; Analyze splits a build made with
// Build(modDir, dst, false) (the name section kept) into code bytes by package.
// The package's tests report the sizes (t.Log, never asserted: they
// change with every feature) and guard the browser build's imports: a
// package that must stay out of the page (a server, a database driver,
// the desktop's windowing, the HTML renderer of the Markdown library)
// fails TestBrowserDeps when a change links it in. docs/wasm-size.md
// says what the bytes are and what was cut.
package wasmsize
