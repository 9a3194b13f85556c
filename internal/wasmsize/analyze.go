package wasmsize

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Breakdown is where a wasm's bytes are.
type Breakdown struct {
	// Code and Data are the sizes of the code section (the functions'
	// bodies) and of the data section (read-only data, Go's function
	// tables, initialised variables, embedded files and fonts).
	Code, Data int64
	// Functions is the number of function bodies.
	Functions int
	// Packages is the code section by Go package, largest first: each
	// function's body counted in the package that defines it (a generic
	// function's instances in the generic's package). Go's linker names no
	// data symbols in a wasm, so data is not split.
	Packages []PackageBytes
}

// PackageBytes is one package's share of the code section.
type PackageBytes struct {
	Package   string
	Bytes     int64
	Functions int
}

// Other groups the functions that belong to no package: the linker's
// type equality and hash functions ("type:"), the runtime's assembly
// entry points and the exports of wasm_exec.js's interface.
const Other = "(no package)"

// nameUnsafe is what Go's linker replaces with '_' in a wasm's function
// names (cmd/link/internal/wasm: `[^\w.]`), so "bufferlab/viz/app.(*App).Draw"
// is written "bufferlab_viz_app.__App_.Draw".
var nameUnsafe = regexp.MustCompile(`[^\w.]`)

// Analyze splits wasm, a Go wasm binary built without -s (Build(modDir, dst,
// false)), into its sections and its code by package. packages are the
// import paths linked in (`go list -deps`); a function is counted in the
// longest of them that its name starts with. The command's own package
// is named "main" in the binary and counted as "main".
func Analyze(wasm []byte, packages []string) (Breakdown, error) {
	var b Breakdown
	secs, err := sections(wasm)
	if err != nil {
		return b, err
	}
	var imported int
	var bodies []int64
	var names map[int]string
	for _, s := range secs {
		switch s.id {
		case secImport:
			if imported, err = countFuncImports(s.body); err != nil {
				return b, err
			}
		case secCode:
			b.Code = int64(len(s.body))
			if bodies, err = funcBodies(s.body); err != nil {
				return b, err
			}
		case secData:
			b.Data = int64(len(s.body))
		case secCustom:
			if n, rest, ok := readName(s.body); ok && n == "name" {
				if names, err = funcNames(rest); err != nil {
					return b, err
				}
			}
		}
	}
	if names == nil {
		return b, errors.New("the wasm has no name section: build it without -s (Build(modDir, dst, false))")
	}
	b.Functions = len(bodies)

	// Sanitized package paths, longest first, so that a package is found
	// before a package whose path is a prefix of its own.
	type pkg struct{ path, prefix string }
	ps := []pkg{{"main", "main."}}
	for _, p := range packages {
		ps = append(ps, pkg{p, nameUnsafe.ReplaceAllString(p, "_") + "."})
	}
	sort.Slice(ps, func(i, j int) bool { return len(ps[i].prefix) > len(ps[j].prefix) })
	by := map[string]*PackageBytes{}
	for i, n := range bodies {
		owner := Other
		name := names[imported+i]
		for _, p := range ps {
			if strings.HasPrefix(name, p.prefix) {
				owner = p.path
				break
			}
		}
		pb := by[owner]
		if pb == nil {
			pb = &PackageBytes{Package: owner}
			by[owner] = pb
		}
		pb.Bytes += n
		pb.Functions++
	}
	for _, pb := range by {
		b.Packages = append(b.Packages, *pb)
	}
	sort.Slice(b.Packages, func(i, j int) bool {
		if b.Packages[i].Bytes != b.Packages[j].Bytes {
			return b.Packages[i].Bytes > b.Packages[j].Bytes
		}
		return b.Packages[i].Package < b.Packages[j].Package
	})
	return b, nil
}

// The wasm section ids read here.
const (
	secCustom = 0
	secImport = 2
	secCode   = 10
	secData   = 11
)

type section struct {
	id   byte
	body []byte
}

var wasmMagic = []byte{0, 'a', 's', 'm', 1, 0, 0, 0}

func sections(wasm []byte) ([]section, error) {
	if !bytes.HasPrefix(wasm, wasmMagic) {
		return nil, errors.New("not a WebAssembly 1.0 binary")
	}
	var out []section
	r := reader{b: wasm[len(wasmMagic):]}
	for !r.done() {
		id := r.byte()
		n := r.uleb()
		body := r.bytes(n)
		if r.err != nil {
			return nil, fmt.Errorf("section %d: %w", id, r.err)
		}
		out = append(out, section{id, body})
	}
	return out, nil
}

// countFuncImports is the number of imported functions, which come before
// the module's own in the function index space.
func countFuncImports(body []byte) (int, error) {
	r := reader{b: body}
	n, funcs := r.uleb(), 0
	for i := uint64(0); i < n && r.err == nil; i++ {
		r.bytes(r.uleb()) // module
		r.bytes(r.uleb()) // name
		switch kind := r.byte(); kind {
		case 0: // function: its type index
			r.uleb()
			funcs++
		case 1: // table: element type, limits
			r.byte()
			r.limits()
		case 2: // memory: limits
			r.limits()
		case 3: // global: value type, mutability
			r.byte()
			r.byte()
		default:
			return 0, fmt.Errorf("import of unknown kind %d", kind)
		}
	}
	return funcs, r.err
}

func funcBodies(body []byte) ([]int64, error) {
	r := reader{b: body}
	n := r.uleb()
	out := make([]int64, 0, n)
	for i := uint64(0); i < n && r.err == nil; i++ {
		size := r.uleb()
		r.bytes(size)
		out = append(out, int64(size))
	}
	return out, r.err
}

func readName(b []byte) (string, []byte, bool) {
	r := reader{b: b}
	s := r.bytes(r.uleb())
	return string(s), r.b, r.err == nil
}

// funcNames reads the function names subsection (1) of a name section.
func funcNames(body []byte) (map[int]string, error) {
	r := reader{b: body}
	for !r.done() && r.err == nil {
		id := r.byte()
		sub := reader{b: r.bytes(r.uleb())}
		if id != 1 {
			continue
		}
		n := sub.uleb()
		names := make(map[int]string, n)
		for i := uint64(0); i < n && sub.err == nil; i++ {
			idx := sub.uleb()
			names[int(idx)] = string(sub.bytes(sub.uleb()))
		}
		return names, sub.err
	}
	if r.err != nil {
		return nil, r.err
	}
	return nil, errors.New("the name section has no function names")
}

// reader reads a wasm binary's LEB128 integers and byte strings; the
// first error sticks and later reads return zeros.
type reader struct {
	b   []byte
	err error
}

var errShort = errors.New("truncated")

func (r *reader) done() bool { return len(r.b) == 0 }

func (r *reader) byte() byte {
	if r.err != nil || len(r.b) == 0 {
		r.err = errShort
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *reader) uleb() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errShort
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) bytes(n uint64) []byte {
	if r.err != nil || n > uint64(len(r.b)) {
		r.err = errShort
		return nil
	}
	s := r.b[:n]
	r.b = r.b[n:]
	return s
}

func (r *reader) limits() {
	if flags := r.byte(); flags&1 != 0 {
		r.uleb()
		r.uleb()
		return
	}
	r.uleb()
}
