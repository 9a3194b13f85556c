package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"bufferlab/internal/precompress"
)

const serveUsage = `usage: bufferlab serve [--addr 127.0.0.1:8080] [--dir web] [--frame-ancestors SOURCES]
       bufferlab serve --classroom [--lan] [--max-students 500] [--save FILE [--save-names]] [...]

Serves the browser build in --dir (index.html, style.css, boot.js,
sandbox.css, sandbox.js, and bufferlab.wasm and wasm_exec.js from 'make
wasm'), brotli or gzip
compressed, and prints its URL. Only regular files inside --dir are
served: no directory listings, no name with an element starting with a dot
(.git, .env), no symbolic link that leads out of the directory.

--addr :8080 or 0.0.0.0:8080 serves every network interface; serve then
prints a warning naming their addresses.

Every response carries
  Content-Security-Policy: ` + baseCSP + `
  X-Content-Type-Options: nosniff
  Referrer-Policy: no-referrer
Embedding in an iframe: the policy above has no frame-ancestors directive,
so any page may show BufferLab in an <iframe> (a course page, slides).
--frame-ancestors restricts that: --frame-ancestors "'self' https://course.example.org"
adds "frame-ancestors 'self' https://course.example.org" to the policy, and
--frame-ancestors "'none'" forbids embedding.

--classroom runs a class beside the lessons (docs/classroom.md): it prints
the teacher's link (with a secret token: keep it to yourself) and the
students' join link with its room code; the teacher's page shows the join
link and a QR code on the projector. --lan listens on this machine's
local-network address instead of 127.0.0.1, so that students' laptops
and phones on the same network can join, and says what that exposes.
--save FILE writes the answer counts per question and round when the
server stops; --save-names adds each student's answers by nickname.
Nothing else is kept.

Files are sent with Cache-Control: no-cache and an ETag made from their
content (one per encoding, with Vary: Accept-Encoding), so a reload gets
304 Not Modified, and a new build is never served stale. 'make wasm'
writes bufferlab.wasm.br and .gz; they are used when they decompress to
bufferlab.wasm, and otherwise serve compresses it at start-up (10–30 s).

flags:
`

// cmdServe serves the browser build: the page in web/, the WebAssembly
// binary built by `make wasm`, and wasm_exec.js, on 127.0.0.1:8080 unless
// --addr says otherwise. Files are served compressed, brotli to clients
// that accept it and gzip to the others, from the .br and .gz files
// `make wasm` writes or compressed at start-up, and kept in memory.
func cmdServe(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve", stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (host:port); a host of 0.0.0.0, :: or none serves every interface")
	dir := fs.String("dir", "web", "directory with index.html, bufferlab.wasm and wasm_exec.js")
	frameAnc := fs.String("frame-ancestors", "", "the pages that may embed BufferLab in an iframe, as CSP sources (e.g. \"'self' https://course.example.org\"; \"'none'\": no page); default: any page")
	co := addClassFlags(fs) // class.go
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), serveUsage)
		fs.PrintDefaults()
	}
	pos, err := parseFlags(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
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
	csp, err := contentSecurityPolicy(*frameAnc)
	if err != nil {
		fmt.Fprintf(stderr, "bufferlab serve: --frame-ancestors %q: %v\n", *frameAnc, err)
		return exitBadInput
	}
	if err := co.check(); err != nil {
		fmt.Fprintf(stderr, "bufferlab serve: %v\n", err)
		return exitBadInput
	}
	if co.on {
		csp += "; img-src 'self'" // the join link's QR code
	}
	if co.lan {
		ip, err := lanIP(localInterfaces())
		if err != nil {
			fmt.Fprintf(stderr, "bufferlab serve: %v\n", err)
			return exitBadInput
		}
		_, port, _ := net.SplitHostPort(*addr)
		*addr = net.JoinHostPort(ip.String(), port)
	}
	for _, f := range webFiles {
		if _, err := os.Stat(filepath.Join(*dir, f)); err != nil {
			fmt.Fprintf(stderr, "bufferlab serve: %s is missing in %s: build the browser version first with 'make wasm' (or run 'make run')\n", f, *dir)
			return exitBadInput
		}
	}
	h, err := newWarmWebHandler(*dir, webConfig{CSP: csp, Log: stdout})
	if err != nil {
		fmt.Fprintf(stderr, "bufferlab serve: %v\n", err)
		return exitBadInput
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "bufferlab serve: %v\n", err)
		return exitBadInput
	}
	bound := ln.Addr().(*net.TCPAddr)
	url := "http://" + ln.Addr().String() + "/"
	if bound.IP.IsUnspecified() {
		url = fmt.Sprintf("http://127.0.0.1:%d/", bound.Port)
	}
	var handler http.Handler = h
	var finish func() error
	if co.on {
		if handler, finish, err = serveClass(co, url, h, stdout); err != nil { // class.go
			ln.Close()
			fmt.Fprintf(stderr, "bufferlab serve: %v\n", err)
			return exitBadInput
		}
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "BufferLab lessons: %s  (Ctrl-C to stop)\n", url)
	if msg := exposureWarning(*addr, bound, localInterfaces(), *dir); msg != "" && !co.lan {
		fmt.Fprint(stderr, msg)
	}
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
	if finish != nil {
		if err := finish(); err != nil {
			fmt.Fprintf(stderr, "bufferlab serve: %v\n", err)
			return exitBadInput
		}
	}
	return exitOK
}

// baseCSP is the Content-Security-Policy of every response: the page may
// run its own scripts (wasm_exec.js, boot.js) and compile WebAssembly
// ('wasm-unsafe-eval'), use its own style sheet, and fetch from its own
// origin (bufferlab.wasm); nothing else: no inline script or style, no
// eval, no plugin, no frame, no form, no <base>. It has no
// frame-ancestors directive unless --frame-ancestors gives one, so that
// the page can be embedded in an iframe.
const baseCSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'"

// cspSource is one source expression of a frame-ancestors list: a scheme
// ("https:"), or a host with an optional scheme, port and path.
var cspSource = regexp.MustCompile(`^(\*|[A-Za-z][A-Za-z0-9+.-]*:|([A-Za-z][A-Za-z0-9+.-]*://)?(\*\.)?[A-Za-z0-9.-]+(:([0-9]+|\*))?(/[A-Za-z0-9._~%!$&()*+=:@/-]*)?)$`)

// contentSecurityPolicy returns the policy to send: baseCSP, and a
// frame-ancestors directive when frameAncestors is not empty.
func contentSecurityPolicy(frameAncestors string) (string, error) {
	srcs := strings.Fields(frameAncestors)
	if len(srcs) == 0 {
		if strings.TrimSpace(frameAncestors) != frameAncestors {
			return "", errors.New("expected CSP sources, e.g. \"'self' https://course.example.org\" or \"'none'\"")
		}
		return baseCSP, nil
	}
	for _, s := range srcs {
		switch {
		case s == "'none'" && len(srcs) > 1:
			return "", errors.New("'none' cannot be combined with other sources")
		case s == "'self'" || s == "'none'":
		case !cspSource.MatchString(s):
			return "", fmt.Errorf("%q is not a CSP source (expected 'self', 'none', a scheme such as https:, or a host such as https://course.example.org)", s)
		}
	}
	return baseCSP + "; frame-ancestors " + strings.Join(srcs, " "), nil
}

// ifaceAddrs are the addresses of one network interface.
type ifaceAddrs struct {
	Name string
	IPs  []net.IP
}

// localInterfaces lists the interfaces that are up, with their addresses.
func localInterfaces() []ifaceAddrs {
	ifs, err := net.Interfaces()
	if err != nil {
		return nil
	}
	var out []ifaceAddrs
	for _, ifc := range ifs {
		if ifc.Flags&net.FlagUp == 0 {
			continue
		}
		addrs, err := ifc.Addrs()
		if err != nil {
			continue
		}
		ia := ifaceAddrs{Name: ifc.Name}
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				ia.IPs = append(ia.IPs, n.IP)
			}
		}
		out = append(out, ia)
	}
	return out
}

// exposureWarning returns the warning to print when the server listens on
// more than the loopback interface: which addresses serve it (all of
// ifaces' for an unspecified address such as :8080 or 0.0.0.0:8080; IPv4
// ones only for 0.0.0.0) and what anyone reaching them can read. It
// returns "" for a loopback address.
func exposureWarning(addr string, bound *net.TCPAddr, ifaces []ifaceAddrs, dir string) string {
	if bound.IP.IsLoopback() {
		return ""
	}
	var b strings.Builder
	type exposed struct {
		ip    net.IP
		iface string
	}
	var list []exposed
	if bound.IP.IsUnspecified() {
		v4only := bound.IP.To4() != nil
		for _, ifc := range ifaces {
			for _, ip := range ifc.IPs {
				if ip.IsLoopback() || (v4only && ip.To4() == nil) {
					continue
				}
				list = append(list, exposed{ip, ifc.Name})
			}
		}
		fmt.Fprintf(&b, "bufferlab serve: warning: --addr %s listens on every network interface, not only this machine", addr)
	} else {
		name := "?"
		for _, ifc := range ifaces {
			for _, ip := range ifc.IPs {
				if ip.Equal(bound.IP) {
					name = ifc.Name
				}
			}
		}
		list = append(list, exposed{bound.IP, name})
		fmt.Fprintf(&b, "bufferlab serve: warning: --addr %s listens on a network interface, not only on this machine", addr)
	}
	if len(list) == 0 {
		b.WriteString(";\nno interface but the loopback has an address now, but any that comes up will serve it.\n")
	} else {
		b.WriteString(":\n")
		for _, e := range list {
			host := e.ip.String()
			if e.ip.To4() == nil {
				host = "[" + host + "]"
			}
			if e.ip.IsLinkLocalUnicast() && e.ip.To4() == nil {
				fmt.Fprintf(&b, "  %s (%s, link-local)\n", e.ip, e.iface)
				continue
			}
			fmt.Fprintf(&b, "  %s (%s): http://%s:%d/\n", e.ip, e.iface, host, bound.Port)
		}
	}
	fmt.Fprintf(&b, "Anyone who can reach these addresses can read every file under %s (the page, bufferlab.wasm and anything else put there;\n"+
		"not names starting with a dot, nor directory listings), with no password and no TLS.\n"+
		"Use --addr 127.0.0.1:%d to serve this machine only.\n", dir, bound.Port)
	return b.String()
}

// webConfig configures a webHandler.
type webConfig struct {
	// CSP is the Content-Security-Policy header (contentSecurityPolicy);
	// "" means baseCSP.
	CSP string
	// Log receives what the handler does that takes time: compressing a
	// large file, or using its precompressed copies. nil: io.Discard.
	Log io.Writer
}

// webHandler serves the regular files inside a directory, with the right
// MIME types (application/wasm for .wasm), brotli or gzip when the client
// accepts it, an ETag per encoding and the security headers.
type webHandler struct {
	root  *os.Root
	cfg   webConfig
	mu    sync.Mutex
	cache map[string]*webEntry
}

// webEntry is one file, loaded under its own lock, so that compressing a
// large file does not hold up requests for the others.
type webEntry struct {
	mu    sync.Mutex
	stamp [3]fileStamp // the file's, then its .br's and .gz's
	file  *webFile
}

// fileStamp is what tells that a file changed: its size and modification
// time, and whether it exists.
type fileStamp struct {
	ok   bool
	size int64
	mod  time.Time
}

// webFile is a file in each encoding.
type webFile struct {
	raw      variant
	variants []variant // in precompress.Encodings' order
}

type variant struct {
	body []byte
	etag string // strong: from the hash of body
}

func newVariant(body []byte) variant {
	sum := sha256.Sum256(body)
	return variant{body: body, etag: `"` + hex.EncodeToString(sum[:16]) + `"`}
}

// largeFile is the size from which compressing a file is worth a message.
const largeFile = 1 << 20

func newWebHandler(dir string, cfg webConfig) (*webHandler, error) {
	if cfg.CSP == "" {
		cfg.CSP = baseCSP
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &webHandler{root: root, cfg: cfg, cache: map[string]*webEntry{}}, nil
}

// webFiles are the files of the browser build.
var webFiles = []string{"index.html", "style.css", "boot.js", "sandbox.css", "sandbox.js", "classroom.css", "classroom.js", "bufferlab.wasm", "wasm_exec.js"}

// newWarmWebHandler returns a handler with every file of the browser build
// already read and compressed, so that no request waits for compression.
func newWarmWebHandler(dir string, cfg webConfig) (*webHandler, error) {
	h, err := newWebHandler(dir, cfg)
	if err != nil {
		return nil, err
	}
	for _, f := range webFiles {
		if _, err := h.load(f); err != nil {
			h.root.Close()
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, f), err)
		}
	}
	return h, nil
}

// Close releases the directory.
func (h *webHandler) Close() error { return h.root.Close() }

// servable returns the file name a URL path asks for, relative to the
// directory, or false when the path must not be served: any element
// starting with a dot (.git, .env, ..) is refused.
func servable(urlPath string) (string, bool) {
	name := strings.TrimPrefix(path.Clean("/"+urlPath), "/")
	if name == "" {
		return "index.html", true
	}
	for _, el := range strings.Split(urlPath, "/") {
		if strings.HasPrefix(el, ".") {
			return "", false
		}
	}
	for _, el := range strings.Split(name, "/") {
		if strings.HasPrefix(el, ".") {
			return "", false
		}
	}
	return name, true
}

func (h *webHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", h.cfg.CSP)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hd.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, ok := servable(r.URL.Path)
	if !ok {
		http.NotFound(w, r)
		return
	}
	f, err := h.load(name)
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
	hd.Set("Content-Type", ctype)
	// no-cache: the browser revalidates every time, and the ETag makes
	// that a 304 until the file changes. No Last-Modified: a rebuild can
	// carry an older time (a restored or copied file), the hash cannot.
	hd.Set("Cache-Control", "no-cache")
	hd.Set("Vary", "Accept-Encoding")
	hd.Set("X-Uncompressed-Length", fmt.Sprint(len(f.raw.body)))
	v := f.raw
	for i, enc := range precompress.Encodings {
		if accepts(r, enc.Name) {
			hd.Set("Content-Encoding", enc.Name)
			v = f.variants[i]
			break
		}
	}
	hd.Set("ETag", v.etag)
	if noneMatch(r.Header.Get("If-None-Match"), v.etag) {
		// The browser's copy is this one: 304 with the validators (ETag,
		// Cache-Control, Vary), no body and no body headers.
		hd.Del("Content-Type")
		hd.Del("Content-Encoding")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	hd.Set("Content-Length", fmt.Sprint(len(v.body)))
	if r.Method == http.MethodHead {
		return
	}
	w.Write(v.body)
}

// noneMatch reports whether an If-None-Match header lists etag (by the
// weak comparison RFC 9110 prescribes for it: a W/ prefix is ignored) or
// is "*".
func noneMatch(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
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

func (h *webHandler) stat(name string) fileStamp {
	st, err := h.root.Stat(name)
	if err != nil || !st.Mode().IsRegular() {
		return fileStamp{}
	}
	return fileStamp{ok: true, size: st.Size(), mod: st.ModTime()}
}

// load returns a regular file inside the directory (through symbolic
// links that stay inside it), read and compressed, reusing the cached copy
// while neither the file nor its .br and .gz copies changed.
func (h *webHandler) load(name string) (*webFile, error) {
	var stamp [3]fileStamp
	stamp[0] = h.stat(name)
	if !stamp[0].ok {
		return nil, os.ErrNotExist
	}
	for i, enc := range precompress.Encodings {
		stamp[1+i] = h.stat(name + enc.Ext)
	}
	h.mu.Lock()
	e := h.cache[name]
	if e == nil {
		e = &webEntry{}
		h.cache[name] = e
	}
	h.mu.Unlock()

	e.mu.Lock()
	defer e.mu.Unlock()
	if e.file != nil && e.stamp == stamp {
		return e.file, nil
	}
	raw, err := h.root.ReadFile(name)
	if err != nil {
		return nil, err
	}
	f := &webFile{raw: newVariant(raw), variants: make([]variant, len(precompress.Encodings))}
	// The precompressed copies, checked in parallel: decompressing the
	// wasm's takes a fraction of a second each.
	problem := make([]string, len(precompress.Encodings))
	var wg sync.WaitGroup
	for i, enc := range precompress.Encodings {
		wg.Go(func() {
			c, err := h.root.ReadFile(name + enc.Ext)
			switch {
			case err != nil:
				problem[i] = name + enc.Ext + " is missing"
			case !precompress.Matches(enc, c, raw):
				problem[i] = name + enc.Ext + " does not match " + name + " (left from another build)"
			default:
				f.variants[i] = newVariant(c)
			}
		})
	}
	wg.Wait()
	var missing []precompress.Encoding
	var why []string
	for i, enc := range precompress.Encodings {
		if problem[i] != "" {
			missing = append(missing, enc)
			why = append(why, problem[i])
		}
	}
	large := len(raw) >= largeFile
	if large && len(missing) < len(precompress.Encodings) {
		var used []string
		for i, enc := range precompress.Encodings {
			if f.variants[i].body != nil {
				used = append(used, fmt.Sprintf("%s (%s)", name+enc.Ext, precompress.MB(len(f.variants[i].body))))
			}
		}
		fmt.Fprintf(h.cfg.Log, "%s (%s): using %s from make wasm\n", name, precompress.MB(len(raw)), strings.Join(used, " and "))
	}
	if len(missing) > 0 {
		var start time.Time
		if large {
			var encs []string
			for _, enc := range missing {
				if enc.Name == "br" {
					encs = append(encs, fmt.Sprintf("brotli level %d", precompress.ServeBrotliLevel))
				} else {
					encs = append(encs, enc.Name)
				}
			}
			fmt.Fprintf(h.cfg.Log, "compressing %s (%s) with %s, which takes 10–30 s (more on a busy machine), because %s; 'make wasm' does this at build time\n",
				name, precompress.MB(len(raw)), strings.Join(encs, " and "), strings.Join(why, " and "))
			start = time.Now()
		}
		for i, enc := range precompress.Encodings {
			if f.variants[i].body == nil {
				wg.Go(func() { f.variants[i] = newVariant(precompress.CompressQuick(enc, raw)) })
			}
		}
		wg.Wait()
		if large {
			fmt.Fprintf(h.cfg.Log, "compressed %s in %.1f s\n", name, time.Since(start).Seconds())
		}
	}
	e.stamp, e.file = stamp, f
	return f, nil
}
