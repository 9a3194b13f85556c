package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
)

// cmdServe serves the browser build: the page in web/, the WebAssembly
// binary built by `make wasm`, and wasm_exec.js, on 127.0.0.1:8080 unless
// --addr says otherwise. Files are served compressed, brotli to clients
// that accept it and gzip to the others, compressed once at start-up and
// kept in memory.
func cmdServe(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve", stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (host:port)")
	dir := fs.String("dir", "web", "directory with index.html, bufferlab.wasm and wasm_exec.js")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return exitBadInput
	}
	if len(pos) != 0 {
		fmt.Fprintf(stderr, "bufferlab serve: expected no arguments, found %q\n", pos)
		return exitBadInput
	}
	if _, _, err := net.SplitHostPort(*addr); err != nil {
		fmt.Fprintf(stderr, "bufferlab serve: --addr %q: expected host:port, e.g. 127.0.0.1:8080 (%v)\n", *addr, err)
		return exitBadInput
	}
	for _, f := range webFiles {
		if _, err := os.Stat(filepath.Join(*dir, f)); err != nil {
			fmt.Fprintf(stderr, "bufferlab serve: %s is missing in %s: build the browser version first with 'make wasm' (or run 'make run')\n", f, *dir)
			return exitBadInput
		}
	}
	h, err := newWarmWebHandler(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "bufferlab serve: %v\n", err)
		return exitBadInput
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "bufferlab serve: %v\n", err)
		return exitBadInput
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "BufferLab lessons: http://%s/  (Ctrl-C to stop)\n", ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "bufferlab serve: %v\n", err)
		return exitBadInput
	}
	return exitOK
}

// webHandler serves files from a directory, with the right MIME types
// (application/wasm for .wasm) and gzip when the client accepts it.
type webHandler struct {
	dir   string
	mu    sync.Mutex
	cache map[string]cachedFile
}

type cachedFile struct {
	mod    time.Time
	raw    []byte
	gzip   []byte
	brotli []byte
}

func newWebHandler(dir string) *webHandler {
	return &webHandler{dir: dir, cache: map[string]cachedFile{}}
}

// webFiles are the files of the browser build.
var webFiles = []string{"index.html", "boot.js", "bufferlab.wasm", "wasm_exec.js"}

// newWarmWebHandler returns a handler with every file of the browser build
// already read and compressed, so that no request waits for compression.
func newWarmWebHandler(dir string) (*webHandler, error) {
	h := newWebHandler(dir)
	for _, f := range webFiles {
		if _, err := h.load(filepath.Join(dir, f)); err != nil {
			return nil, err
		}
	}
	return h, nil
}

func (h *webHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name := path.Clean("/" + r.URL.Path)
	if name == "/" {
		name = "/index.html"
	}
	if strings.Contains(name, "..") || strings.HasPrefix(path.Base(name), ".") {
		http.NotFound(w, r)
		return
	}
	f, err := h.load(filepath.Join(h.dir, filepath.FromSlash(name)))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	ctype := mime.TypeByExtension(path.Ext(name))
	switch path.Ext(name) {
	case ".wasm":
		ctype = "application/wasm"
	case "":
		ctype = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Vary", "Accept-Encoding")
	w.Header().Set("X-Uncompressed-Length", fmt.Sprint(len(f.raw)))
	body := f.raw
	switch {
	case accepts(r, "br"):
		w.Header().Set("Content-Encoding", "br")
		body = f.brotli
	case accepts(r, "gzip"):
		w.Header().Set("Content-Encoding", "gzip")
		body = f.gzip
	}
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	w.Write(body)
}

// accepts reports whether the request's Accept-Encoding lists enc (with a
// non-zero q value).
func accepts(r *http.Request, enc string) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(part, ";")
		if strings.TrimSpace(name) != enc {
			continue
		}
		params = strings.ReplaceAll(params, " ", "")
		return params != "q=0" && params != "q=0.0" && params != "q=0.00" && params != "q=0.000"
	}
	return false
}

// load reads and compresses a file, reusing the cached copy while the
// file's modification time is unchanged.
func (h *webHandler) load(p string) (cachedFile, error) {
	st, err := os.Stat(p)
	if err != nil || st.IsDir() {
		return cachedFile{}, os.ErrNotExist
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if c, ok := h.cache[p]; ok && c.mod.Equal(st.ModTime()) {
		return c, nil
	}
	raw, err := os.ReadFile(p)
	if err != nil {
		return cachedFile{}, err
	}
	var gz, br bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(raw)
	zw.Close()
	// Brotli level 9: about 20% smaller than gzip for the WebAssembly, in
	// a couple of seconds (level 11 takes close to a minute).
	bw := brotli.NewWriterLevel(&br, 9)
	bw.Write(raw)
	bw.Close()
	c := cachedFile{mod: st.ModTime(), raw: raw, gzip: gz.Bytes(), brotli: br.Bytes()}
	h.cache[p] = c
	return c, nil
}
