package wasmbuild

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"bufferlab/internal/atomicfile"
)

// Package is the import path of the browser build.
const Package = "bufferlab/cmd/wasm"

// Flags are the go build flags of the browser build besides -o: no file
// paths of this machine in the binary, no symbol table or DWARF (the
// wasm's name section, about 0.6 MB, which a size analysis keeps by
// building with strip false), and no inlining in the packages of
// ColdPackages.
func Flags(strip bool) []string {
	f := []string{"-trimpath", "-ldflags="}
	if strip {
		f[1] = "-ldflags=-s -w"
	}
	for _, p := range ColdPackages {
		f = append(f, "-gcflags="+p.Pattern+"=-l")
	}
	return f
}

// ColdPackages are the packages the browser build compiles without
// inlining (-gcflags=PATTERN=-l): code that runs once, at start-up or
// when a file is opened, or whose calls are few beside what they do.
// Inlining copies a small function's body into each caller; without it
// the wasm is 0.11 MB smaller as served (docs/wasm-size.md), and the
// engine, the views, the scenes and Ebitengine's per-frame code keep it.
// A package compiled with -l also offers no inlinable bodies to the
// packages that call it.
var ColdPackages = []struct{ Pattern, Why string }{
	{"go/...", "Ebitengine's Kage shader compiler parses the built-in shaders once, at start-up"},
	{"math/big", "constant arithmetic of the shader compiler"},
	{"github.com/hajimehoshi/ebiten/v2/internal/shader...", "the shader compiler and its GLSL writer, once per shader"},
	{"text/...", "text/tabwriter, for fast mode's tables"},
	{"github.com/yuin/goldmark/...", "the lessons' Markdown, parsed once (or when a file is dropped)"},
	{"bufferlab/lessons/...", "the lessons' parser and saved progress, at start-up and per answer"},
	{"regexp/...", "regular expressions, compiled at start-up by goldmark and the shader compiler"},
	{"encoding/...", "JSON of the page's API and saved progress; base64 and hex of links"},
	{"net/url", "the page's address, read once"},
	{"compress/...", "DEFLATE of shared links"},
	{"archive/...", "linked by Ebitengine, unused in a browser"},
	{"image/...", "image decoders registered by the font stack, unused"},
	{"golang.org/x/image/...", "the fonts are parsed once; each glyph is rasterised once into Ebitengine's cache"},
	{"github.com/go-text/...", "linked by Ebitengine's text package; BufferLab's faces do not use it"},
	{"golang.org/x/text/...", "language tables of the font stack"},
	{"unicode/...", "UTF-16 and UTF-8 helpers: single calls"},
	{"hash/...", "checksums of links and progress"},
	{"bufio", "readers of the parsers"},
	{"fmt", "formatting of captions and descriptions: large functions that inline little"},
	{"time", "dates of saved progress; the frame clock is Ebitengine's"},
}

// Workspace prepares the workspace the browser build is made in and
// returns its go.work: the module at modDir, with Ebitengine replaced
// by a copy of the pinned module whose internal/builtinshader/shader.go
// is Expand's (and which holds Expand's equivalence test). The copy is
// made once per expansion under the user's cache directory (about 8 MB,
// Ebitengine's examples and tests left out) and shared by every
// checkout; the go.work is per checkout. Go refuses -overlay for files
// in the module cache, hence the copy.
func Workspace(modDir string) (string, error) {
	modDir, err := filepath.Abs(modDir)
	if err != nil {
		return "", err
	}
	orig, err := moduleDir(modDir)
	if err != nil {
		return "", err
	}
	src, err := os.ReadFile(filepath.Join(orig, "internal", "builtinshader", fileName))
	if err != nil {
		return "", err
	}
	files, err := Expand(src)
	if err != nil {
		return "", err
	}
	cache, err := cacheDir()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(append(append([]byte{}, files.Shader...), files.EquivalenceTest...))
	copyDir := filepath.Join(cache, "ebiten-"+Version+"-"+hex.EncodeToString(sum[:6]))
	if err := copyPatched(orig, copyDir, files); err != nil {
		return "", err
	}
	ws := sha256.Sum256([]byte(modDir))
	work := filepath.Join(cache, "work-"+hex.EncodeToString(ws[:6]), "go.work")
	if err := os.MkdirAll(filepath.Dir(work), 0o755); err != nil {
		return "", err
	}
	goVersion, err := goDirective(filepath.Join(modDir, "go.mod"))
	if err != nil {
		return "", err
	}
	text := fmt.Sprintf("// Written by bufferlab/internal/wasmbuild for the browser build of %s.\n\ngo %s\n\nuse %q\n\nreplace %s %s => %q\n",
		modDir, goVersion, modDir, Module, Version, copyDir)
	if err := atomicfile.WriteIfChanged(work, []byte(text)); err != nil {
		return "", err
	}
	return work, nil
}

// Command is the go build of the browser build into dst, run from
// modDir in the workspace Workspace prepares (GOOS=js GOARCH=wasm).
func Command(modDir, dst string, strip bool) (*exec.Cmd, error) {
	work, err := Workspace(modDir)
	if err != nil {
		return nil, err
	}
	args := append([]string{"build"}, Flags(strip)...)
	args = append(args, "-o", dst, Package)
	cmd := exec.Command("go", args...)
	cmd.Dir = modDir
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOWORK="+work)
	return cmd, nil
}

// Build makes the browser build at dst, as `make wasm` does: a few
// seconds from a warm build cache, minutes from a cold one.
func Build(modDir, dst string, strip bool) error {
	cmd, err := Command(modDir, dst, strip)
	if err != nil {
		return err
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building %s: %v\n%s", Package, err, out)
	}
	return nil
}

// moduleDir is the pinned Ebitengine in the module cache, found with
// `go list -m` from modDir (which downloads it when the cache lacks it).
// It must be Version: the expansion was read against that one.
func moduleDir(modDir string) (string, error) {
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Version}} {{.Dir}}", Module)
	cmd.Dir = modDir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		return "", fmt.Errorf("go list -m %s: %v\n%s", Module, err, stderr)
	}
	version, dir, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	if version != Version {
		return "", fmt.Errorf("go.mod requires %s %s; internal/wasmbuild's expansion of its built-in shaders was written for %s: read the new internal/builtinshader/shader.go and update Version and OriginalSHA256", Module, version, Version)
	}
	if dir == "" {
		return "", fmt.Errorf("go list -m %s: the module is not in the module cache (go mod download)", Module)
	}
	return dir, nil
}

func cacheDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "bufferlab", "wasmbuild")
	return dir, os.MkdirAll(dir, 0o755)
}

// goDirective is the go line of a go.mod.
func goDirective(goMod string) (string, error) {
	b, err := os.ReadFile(goMod)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "go "); ok {
			return strings.TrimSpace(v), nil
		}
	}
	return "", fmt.Errorf("%s: no go directive", goMod)
}

// copyPatched copies the module at orig to dst (once: an existing dst is
// complete, since it is renamed into place only when written), leaving
// out examples and tests, with the expanded shader.go and its test.
func copyPatched(orig, dst string, files Files) error {
	if _, err := os.Stat(filepath.Join(dst, "go.mod")); err == nil {
		return nil
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dst), filepath.Base(dst)+".tmp")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	err = filepath.WalkDir(orig, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(orig, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel == "examples" || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(tmp, rel), 0o755)
		}
		if strings.HasSuffix(d.Name(), "_test.go") || !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(tmp, rel), b, 0o644)
	})
	if err != nil {
		return err
	}
	pkg := filepath.Join(tmp, "internal", "builtinshader")
	if err := os.WriteFile(filepath.Join(pkg, fileName), files.Shader, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(pkg, "bufferlab_expansion_test.go"), files.EquivalenceTest, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, dst); err != nil {
		// Another build renamed its copy into place first: the same bytes.
		if _, statErr := os.Stat(filepath.Join(dst, "go.mod")); statErr == nil {
			return nil
		}
		return err
	}
	return nil
}
