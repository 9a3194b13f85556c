// Command precompress writes FILE.br (brotli level 9) and FILE.gz (gzip)
// beside each FILE it is given, unless both already decompress to FILE.
// `make wasm` runs it on web/bufferlab.wasm, so that `bufferlab serve`
// starts at once instead of compressing the WebAssembly for 10–30 s.
//
//	go run ./cmd/precompress FILE...
package main
