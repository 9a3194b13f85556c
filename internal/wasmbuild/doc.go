// Package wasmbuild makes the browser build, web/bufferlab.wasm, the one
// way every caller makes it: `make wasm` (through cmd/wasmbuild), the
// browser tests and the size report (internal/wasmsize).
//
// The build differs from a plain `GOOS=js GOARCH=wasm go build` in one
// file of a dependency. Ebitengine v2.8.8 makes its twelve built-in
// shaders' Kage sources at run time by executing a text/template
// (internal/builtinshader's ShaderSource, first called from
// internal/restorable's init). text/template looks methods up by name
// (reflect.Value.MethodByName), and once that is reachable Go's linker
// keeps every exported method of every type converted to an interface:
// 4.45 MB of the wasm's 25.2 MB, 0.54 MB of its 4.15 MB as served
// (docs/wasm-size.md). Expand executes the same template at build time,
// with Ebitengine's own template text read from the module cache, and
// writes shader.go with the twelve results as literals; Workspace builds
// against a copy of the pinned module holding that file, through a
// go.work that replaces the module (Go refuses -overlay for files in the
// module cache). Nothing of Ebitengine's is kept in this repository.
//
// Three checks keep the expansion honest. Expand refuses a shader.go
// whose SHA-256 is not the pinned file's, and Workspace an Ebitengine
// other than v2.8.8: a new version must be read again. The copy holds a
// test of the package itself, written by Expand, which executes the
// original template with Ebitengine's own Filter and Address types for
// each of the twelve choices and compares the text with the expanded
// ShaderSource byte for byte; TestExpandedShadersMatchTemplate runs it.
// And the browser tests draw every screen through the expanded shaders.
// The desktop build is untouched: it links Ebitengine as published.
package wasmbuild
