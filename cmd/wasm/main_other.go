//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main on other platforms explains where this command runs.
func main() {
	fmt.Fprintln(os.Stderr, "cmd/wasm is the browser build of BufferLab: build it with `make wasm` (GOOS=js GOARCH=wasm) and serve it with `make run`")
	os.Exit(2)
}
