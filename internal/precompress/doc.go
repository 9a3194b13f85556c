// Package precompress makes and checks the compressed copies of the
// browser build that `bufferlab serve` sends: FILE.br (brotli level 9) and
// FILE.gz (gzip, best compression) beside FILE. `make wasm` writes them
// for web/bufferlab.wasm with cmd/precompress, since brotli level 9 takes
// 10–30 s on the 24 MB WebAssembly binary; the server uses them only when
// they decompress to exactly the file beside them, and otherwise
// compresses the file itself.
package precompress
