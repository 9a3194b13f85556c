// Command wasmbuild makes the browser build for `make wasm`:
//
//	go run ./cmd/wasmbuild -o web/bufferlab.wasm
//
// It builds bufferlab/cmd/wasm for GOOS=js GOARCH=wasm in the workspace
// internal/wasmbuild prepares (Ebitengine with its built-in shaders
// expanded at build time, so that the page links no text/template), with
// -trimpath and without the symbol table. Run it from the module's root.
package main
