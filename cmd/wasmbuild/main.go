package main

import (
	"flag"
	"fmt"
	"os"

	"bufferlab/internal/wasmbuild"
)

func main() {
	out := flag.String("o", "web/bufferlab.wasm", "where to write the wasm")
	names := flag.Bool("names", false, "keep the symbol names (the name section a size analysis reads)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./cmd/wasmbuild [-o FILE] [-names]  (from the module's root)")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintf(os.Stderr, "wasmbuild: unexpected argument %q\n", flag.Arg(0))
		flag.Usage()
		os.Exit(2)
	}
	if err := wasmbuild.Build(".", *out, !*names); err != nil {
		fmt.Fprintf(os.Stderr, "wasmbuild: %v\n", err)
		os.Exit(1)
	}
}
