package wasmsize

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"bufferlab/internal/precompress"
	"bufferlab/internal/wasmbuild"
)

// TestBrowserBuild builds the wasm as `make wasm` does and reports its
// sizes, raw and as served, and its largest packages. It asserts one
// size, the budget as served with brotli (BudgetBrotli); the others move
// with every feature, and docs/wasm-size.md says what they were.
func TestBrowserBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the browser wasm and compresses it (10-20 s, minutes from a cold build cache)")
	}
	dir := t.TempDir()
	wasm := filepath.Join(dir, "bufferlab.wasm")
	if err := Build("../..", wasm, true); err != nil {
		t.Fatal(err)
	}
	s, err := Measure(wasm)
	if err != nil {
		t.Fatal(err)
	}
	if s.Raw == 0 || s.Brotli == 0 || s.Gzip == 0 || s.Brotli >= s.Raw || s.Gzip >= s.Raw {
		t.Fatalf("implausible sizes: %+v", s)
	}
	t.Logf("web/bufferlab.wasm as make wasm builds it: %v", s)
	if s.Brotli > BudgetBrotli {
		t.Errorf("the browser build is %d bytes as served with brotli, over the budget of %d (issue 20): docs/wasm-size.md lists what is left to cut; the largest packages are below", s.Brotli, BudgetBrotli)
	}

	named := filepath.Join(dir, "named.wasm")
	if err := Build("../..", named, false); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(named)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Analyze(raw, browserDeps(t).order)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, p := range b.Packages {
		sum += p.Bytes
	}
	if sum != b.Code-codeSectionOverhead(t, raw) {
		t.Errorf("the packages' code adds up to %d bytes, the bodies to %d", sum, b.Code-codeSectionOverhead(t, raw))
	}
	var out strings.Builder
	fmt.Fprintf(&out, "code section %d bytes (%d functions), data section %d bytes; the largest packages' code:\n", b.Code, b.Functions, b.Data)
	for i, p := range b.Packages {
		if i == 25 {
			break
		}
		fmt.Fprintf(&out, "%9d %5.1f%% %s\n", p.Bytes, 100*float64(p.Bytes)/float64(b.Code), p.Package)
	}
	t.Log(out.String())
}

// codeSectionOverhead is the code section's bytes that are no function's
// body: the count and each body's size.
func codeSectionOverhead(t *testing.T, wasm []byte) int64 {
	secs, err := sections(wasm)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secs {
		if s.id == secCode {
			bodies, _ := funcBodies(s.body)
			var n int64
			for _, b := range bodies {
				n += b
			}
			return int64(len(s.body)) - n
		}
	}
	return 0
}

// mustStayOut are packages the browser build must not link: each costs
// the page bytes for something a tab cannot use, or brings code that
// cannot work there. An entry ending in "/..." covers the package and
// every package under it.
var mustStayOut = []struct{ pkg, why string }{
	{"net", "sockets: the page talks to the server with fetch and WebSocket through syscall/js"},
	{"net/http/...", "an HTTP server or client (bufferlab serve's, the classroom's)"},
	{"os/exec", "processes"},
	{"database/sql", "databases"},
	{"testing", "the test framework"},
	{"github.com/jackc/pgx/...", "the PostgreSQL driver of bufferlab verify"},
	{"bufferlab/verify/...", "the checks against a real PostgreSQL"},
	{"bufferlab/internal/classroom/...", "the classroom's server and its Go client (the page's client is web/classroom.js)"},
	{"bufferlab/fastmode/exp/classroom", "the classroom benchmark, which runs the server"},
	{"github.com/coder/websocket/...", "the classroom server's WebSocket"},
	{"github.com/skip2/go-qrcode/...", "the classroom's QR code, drawn by the server"},
	{"bufferlab/internal/precompress", "the brotli encoder of bufferlab serve"},
	{"github.com/andybalholm/brotli/...", "the brotli encoder of bufferlab serve"},
	{"bufferlab/fastmode/chart", "bench's charts, drawn natively with gonum"},
	{"gonum.org/v1/plot/...", "bench's plots"},
	{"github.com/ebitengine/purego/...", "the desktop's native library loader"},
	{"github.com/yuin/goldmark", "goldmark's Markdown type, whose init builds the HTML renderer: lessons uses goldmark/parser alone"},
	{"github.com/yuin/goldmark/renderer/...", "goldmark's HTML renderer: lessons turns the AST into its own blocks"},
	{"github.com/chromedp/...", "the browser tests' driver"},
	{"github.com/cockroachdb/datadriven/...", "test data files"},
	{"pgregory.net/rapid/...", "property tests"},
	{"bufferlab/internal/xvfbtest", "test helpers"},
	{"bufferlab/internal/sceneshot/...", "test helpers"},
	{"bufferlab/internal/goldentest", "test helpers"},
	{"bufferlab/internal/testmem", "test helpers"},
	{"bufferlab/internal/wasmsize", "this package"},
	{"text/template", "Ebitengine's built-in shaders are expanded at build time (internal/wasmbuild): text/template's method lookup by name keeps every exported method in the binary, 4.45 MB"},
	{"bufferlab/internal/wasmbuild", "the build itself"},
}

// TestBrowserDeps fails when the browser build links a package of
// mustStayOut, naming the chain of imports that brings it in.
func TestBrowserDeps(t *testing.T) {
	g := browserDeps(t)
	if len(g.order) < 50 || g.imports[Package] == nil {
		t.Fatalf("go list found %d packages for %s: not the browser build", len(g.order), Package)
	}
	for _, v := range g.violations() {
		t.Errorf("the browser build links %s (%s): %s", v.pkg, v.why, strings.Join(v.chain, " -> "))
	}
	t.Logf("%s links %d packages under GOOS=js GOARCH=wasm", Package, len(g.order))
}

// TestViolations checks that the guard sees a forbidden package however
// deep it is imported, and only those.
func TestViolations(t *testing.T) {
	g := depGraph{
		order: []string{"fmt", "net", "net/http", "bufferlab/viz/app", "github.com/yuin/goldmark/parser", "github.com/yuin/goldmarkdown", Package},
		imports: map[string][]string{
			Package:             {"fmt", "bufferlab/viz/app", "github.com/yuin/goldmark/parser", "github.com/yuin/goldmarkdown"},
			"bufferlab/viz/app": {"net/http"},
			"net/http":          {"net"},
		},
	}
	var got []string
	for _, v := range g.violations() {
		got = append(got, v.pkg+": "+strings.Join(v.chain, " -> "))
	}
	want := []string{
		"net: bufferlab/cmd/wasm -> bufferlab/viz/app -> net/http -> net",
		"net/http: bufferlab/cmd/wasm -> bufferlab/viz/app -> net/http",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

type depGraph struct {
	order   []string            // every package linked, dependencies first
	imports map[string][]string // each package's direct imports
}

type violation struct {
	pkg, why string
	chain    []string
}

func (g depGraph) violations() []violation {
	var out []violation
	for _, p := range g.order {
		for _, r := range mustStayOut {
			base, tree := strings.CutSuffix(r.pkg, "/...")
			if p == base || tree && strings.HasPrefix(p, base+"/") {
				out = append(out, violation{p, r.why, g.chain(p)})
				break
			}
		}
	}
	return out
}

// chain is a shortest chain of imports from Package to p.
func (g depGraph) chain(p string) []string {
	from := map[string]string{Package: ""}
	queue := []string{Package}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		if q == p {
			var c []string
			for ; q != ""; q = from[q] {
				c = append([]string{q}, c...)
			}
			return c
		}
		for _, i := range g.imports[q] {
			if _, seen := from[i]; !seen {
				from[i] = q
				queue = append(queue, i)
			}
		}
	}
	return []string{p}
}

// browserDeps is the browser build's packages, as the go command resolves
// them for GOOS=js GOARCH=wasm (its build tags: a file marked !js is not
// in it).
func browserDeps(t *testing.T) depGraph {
	t.Helper()
	work, err := wasmbuild.Workspace("../..")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", Package)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOWORK="+work)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", Package, err)
	}
	g := depGraph{imports: map[string][]string{}}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		g.order = append(g.order, f[0])
		g.imports[f[0]] = f[1:]
	}
	return g
}

func TestWasmBrotliBytes(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.wasm")
	raw := bytes.Repeat([]byte("\x00asm BufferLab "), 20000)
	if err := os.WriteFile(p, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	want := int64(len(precompress.Compress(precompress.Encodings[0], raw)))
	// No copy beside the file: compressed now.
	if n, err := WasmBrotliBytes(p); err != nil || n != want {
		t.Fatalf("without a .br: %d, %v; want %d", n, err, want)
	}
	// An up-to-date copy is what is served, whatever its size: one made
	// at another level counts as it is.
	var fast bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&fast, gzip.BestSpeed)
	zw.Write(raw)
	zw.Close()
	other := fast.Bytes()
	if best := precompress.Compress(precompress.Encodings[1], raw); len(best) == len(other) {
		t.Fatalf("gzip's fastest and best levels give the same size (%d): the test cannot tell them apart", len(best))
	}
	if err := os.WriteFile(p+".gz", other, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Measure(p)
	if err != nil || s.Gzip != int64(len(other)) || s.Brotli != want || s.Raw != int64(len(raw)) {
		t.Fatalf("Measure with an up-to-date .gz: %+v, %v", s, err)
	}
	// A stale copy is not served, so not counted.
	if err := os.WriteFile(p+".br", []byte("stale"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n, err := WasmBrotliBytes(p); err != nil || n != want {
		t.Fatalf("with a stale .br: %d, %v; want %d", n, err, want)
	}
	if _, err := WasmBrotliBytes(filepath.Join(t.TempDir(), "missing.wasm")); err == nil {
		t.Fatal("a missing file measured")
	}
}

// TestAnalyze reads a small hand-made module: two imported functions,
// four bodies named after two packages, the command's main package and
// the linker's type functions.
func TestAnalyze(t *testing.T) {
	uleb := func(n int) []byte { return binary.AppendUvarint(nil, uint64(n)) }
	str := func(s string) []byte { return append(uleb(len(s)), s...) }
	sec := func(id byte, parts ...[]byte) []byte {
		body := bytes.Join(parts, nil)
		return append(append([]byte{id}, uleb(len(body))...), body...)
	}
	imports := sec(secImport, uleb(3),
		str("go"), str("debug"), []byte{0}, uleb(0),
		str("go"), str("mem"), []byte{2, 0}, uleb(1), // a memory: not a function
		str("go"), str("runtime.wasmExit"), []byte{0}, uleb(0))
	code := sec(secCode, uleb(4),
		uleb(5), make([]byte, 5),
		uleb(7), make([]byte, 7),
		uleb(2), make([]byte, 2),
		uleb(3), make([]byte, 3))
	data := sec(secData, make([]byte, 11))
	names := sec(1, uleb(6),
		uleb(0), str("go.debug"), uleb(1), str("runtime.wasmExit"),
		uleb(2), str("bufferlab_viz_app.__App_.Draw"),
		uleb(3), str("github.com_yuin_goldmark_parser.NewParser"),
		uleb(4), str("type_.eq.bufferlab_viz_app.App"),
		uleb(5), str("main.main"))
	custom := sec(secCustom, str("name"), names)
	wasm := bytes.Join([][]byte{wasmMagic, imports, code, data, custom}, nil)

	b, err := Analyze(wasm, []string{"github.com/yuin/goldmark", "github.com/yuin/goldmark/parser", "bufferlab/viz/app", "bufferlab/viz"})
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("code %d data %d functions %d %v", b.Code, b.Data, b.Functions, b.Packages)
	want := "code 22 data 11 functions 4 [{github.com/yuin/goldmark/parser 7 1} {bufferlab/viz/app 5 1} {main 3 1} {(no package) 2 1}]"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}

	if _, err := Analyze(bytes.Join([][]byte{wasmMagic, imports, code}, nil), nil); err == nil || !strings.Contains(err.Error(), "without -s") {
		t.Errorf("a stripped module: %v", err)
	}
	if _, err := Analyze([]byte("\x7fELF"), nil); err == nil {
		t.Error("an ELF file analysed")
	}
	if _, err := Analyze(wasm[:len(wasm)-3], nil); err == nil {
		t.Error("a truncated module analysed")
	}
}
