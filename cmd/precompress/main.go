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
