// Command precompress writes FILE.br (brotli level 9) and FILE.gz (gzip)
// beside each FILE it is given, unless both already decompress to FILE.
// `make wasm` runs it on web/bufferlab.wasm, so that `bufferlab serve`
// starts at once instead of compressing the WebAssembly for 10–30 s.
//
//	go run ./cmd/precompress FILE...
package main

import (
	"fmt"
	"os"

	"bufferlab/internal/precompress"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: precompress FILE...  (writes FILE.br and FILE.gz)")
		os.Exit(2)
	}
	for _, p := range os.Args[1:] {
		if err := precompress.WriteFiles(p, os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "precompress: %v\n", err)
			os.Exit(1)
		}
	}
}
