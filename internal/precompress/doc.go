// Package precompress makes and checks the compressed copies of the
// browser build that `bufferlab serve` sends: FILE.br (brotli level 11,
// with the largest standard window) and FILE.gz (gzip, best compression)
// beside FILE. `make wasm` writes them for web/bufferlab.wasm with
// cmd/precompress, since brotli level 11 takes a minute or two on the 24 MB WebAssembly binary; the server uses them only when
// they decompress to exactly the file beside them, and otherwise
// compresses the file itself, quicker and larger (CompressQuick, level
// 9).
package precompress
