// Command precompress writes FILE.br (brotli level 11, window 2^24) and
// FILE.gz (gzip) beside each FILE it is given, unless both already
// decompress to FILE. `make wasm` runs it on web/bufferlab.wasm, so that
// `bufferlab serve` starts at once and sends the smallest brotli a
// browser decodes (internal/precompress): a minute or two for the wasm,
// once per build that changes it.
//
//	go run ./cmd/precompress FILE...
package main
