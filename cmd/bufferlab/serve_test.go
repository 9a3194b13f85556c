//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"bufferlab/internal/precompress"
)

// serveDir lays out a small browser build in a temporary directory (the
// real page, a stand-in wasm) and returns it.
func serveDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"index.html", "style.css", "boot.js", "sandbox.css", "sandbox.js", "classroom.css", "classroom.js"} {
		b, err := os.ReadFile(filepath.Join("../../web", f))
		if err != nil {
			t.Fatal(err)
		}
		putFile(t, filepath.Join(dir, f), string(b))
	}
	putFile(t, filepath.Join(dir, "bufferlab.wasm"), "\x00asm"+strings.Repeat("wasm bytes ", 1000))
	putFile(t, filepath.Join(dir, "wasm_exec.js"), "// wasm_exec.js\n")
	return dir
}

func putFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func serveHandler(t *testing.T, dir string, cfg webConfig) *webHandler {
	t.Helper()
	h, err := newWarmWebHandler(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// get makes a request to h; header is "Name: value" pairs.
func get(h http.Handler, method, target string, header ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, nil)
	for _, kv := range header {
		k, v, _ := strings.Cut(kv, ": ")
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// Item 12: any path element starting with a dot is refused, not only the
// last one (web/.secret/key.txt, .git/config at a checkout).
func TestServeRefusesDotPaths(t *testing.T) {
	dir := serveDir(t)
	putFile(t, filepath.Join(dir, ".secret/key.txt"), "secret")
	putFile(t, filepath.Join(dir, ".git/config"), "[core]")
	putFile(t, filepath.Join(dir, "sub/.hidden/x.txt"), "hidden")
	putFile(t, filepath.Join(dir, ".env"), "TOKEN=1")
	putFile(t, filepath.Join(dir, "sub/ok.txt"), "ok")
	h := serveHandler(t, dir, webConfig{})
	for _, p := range []string{"/.secret/key.txt", "/.git/config", "/sub/.hidden/x.txt", "/.env", "/sub/../.git/config", "/%2egit/config", "/./.git/config"} {
		if w := get(h, "GET", p); w.Code != http.StatusNotFound || strings.Contains(w.Body.String(), "secret") || strings.Contains(w.Body.String(), "[core]") {
			t.Errorf("GET %s: %d %q, want 404", p, w.Code, w.Body.String())
		}
	}
	for _, p := range []string{"/", "/index.html", "/sub/ok.txt"} {
		if w := get(h, "GET", p); w.Code != http.StatusOK {
			t.Errorf("GET %s: %d, want 200", p, w.Code)
		}
	}
}

// Item 13: a symbolic link is followed only while it stays inside the
// served directory.
func TestServeRefusesSymlinksOut(t *testing.T) {
	dir := serveDir(t)
	outside := t.TempDir()
	putFile(t, filepath.Join(outside, "secret.txt"), "outside secret")
	links := map[string]string{
		"abs-file":    filepath.Join(outside, "secret.txt"),
		"rel-file":    filepath.Join("..", filepath.Base(outside), "secret.txt"),
		"abs-dir":     outside,
		"hostname":    "/etc/hostname",
		"inside.html": "index.html", // stays inside: served
		"sub/up.html": "../index.html",
	}
	for name, target := range links {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	// ../outside/secret.txt relative to dir needs dir and outside to share
	// a parent; t.TempDir gives both the test's own parent.
	if filepath.Dir(dir) != filepath.Dir(outside) {
		t.Fatalf("temporary directories %s and %s have different parents", dir, outside)
	}
	h := serveHandler(t, dir, webConfig{})
	for _, p := range []string{"/abs-file", "/rel-file", "/abs-dir/secret.txt", "/hostname"} {
		if w := get(h, "GET", p); w.Code != http.StatusNotFound || strings.Contains(w.Body.String(), "secret") {
			t.Errorf("GET %s: %d %q, want 404", p, w.Code, w.Body.String())
		}
	}
	for _, p := range []string{"/inside.html", "/sub/up.html"} {
		if w := get(h, "GET", p); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "<title>BufferLab") {
			t.Errorf("GET %s: %d, want 200 with the page", p, w.Code)
		}
	}
	// A build whose file leads out of the directory is refused at start.
	os.Remove(filepath.Join(dir, "boot.js"))
	os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "boot.js"))
	if h, err := newWarmWebHandler(dir, webConfig{}); err == nil {
		h.Close()
		t.Errorf("boot.js linking out of the directory: the handler started")
	}
}

// Item 14: --addr :PORT warns, naming the addresses and what is exposed.
func TestServeExposureWarning(t *testing.T) {
	ifaces := []ifaceAddrs{
		{"lo", []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("::1")}},
		{"eth0", []net.IP{net.ParseIP("192.168.1.20"), net.ParseIP("fe80::1")}},
		{"wlan0", []net.IP{net.ParseIP("10.0.0.7"), net.ParseIP("2001:db8::7")}},
	}
	if msg := exposureWarning("127.0.0.1:8080", &net.TCPAddr{IP: net.ParseIP("127.0.0.1"), Port: 8080}, ifaces, "web"); msg != "" {
		t.Errorf("loopback: %q, want no warning", msg)
	}
	if msg := exposureWarning("[::1]:8080", &net.TCPAddr{IP: net.ParseIP("::1"), Port: 8080}, ifaces, "web"); msg != "" {
		t.Errorf("IPv6 loopback: %q, want no warning", msg)
	}
	all := exposureWarning(":8080", &net.TCPAddr{IP: net.IPv6unspecified, Port: 8080}, ifaces, "web")
	for _, want := range []string{"warning", "every network interface", "192.168.1.20 (eth0): http://192.168.1.20:8080/",
		"10.0.0.7 (wlan0)", "2001:db8::7 (wlan0): http://[2001:db8::7]:8080/", "fe80::1 (eth0", "every file under web",
		"no password", "--addr 127.0.0.1:8080"} {
		if !strings.Contains(all, want) {
			t.Errorf(":8080: the warning lacks %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "127.0.0.1 (lo)") {
		t.Errorf(":8080: the loopback is listed as exposed:\n%s", all)
	}
	v4 := exposureWarning("0.0.0.0:9000", &net.TCPAddr{IP: net.IPv4zero, Port: 9000}, ifaces, "web")
	if !strings.Contains(v4, "192.168.1.20 (eth0): http://192.168.1.20:9000/") || strings.Contains(v4, "2001:db8::7") {
		t.Errorf("0.0.0.0:9000: want the IPv4 addresses only:\n%s", v4)
	}
	one := exposureWarning("192.168.1.20:8080", &net.TCPAddr{IP: net.ParseIP("192.168.1.20"), Port: 8080}, ifaces, "web")
	if !strings.Contains(one, "192.168.1.20 (eth0)") || strings.Contains(one, "10.0.0.7") {
		t.Errorf("192.168.1.20:8080: want that address only:\n%s", one)
	}
	none := exposureWarning(":8080", &net.TCPAddr{IP: net.IPv6unspecified, Port: 8080}, ifaces[:1], "web")
	if !strings.Contains(none, "warning") || !strings.Contains(none, "any that comes up") {
		t.Errorf("only a loopback: %q", none)
	}
}

// Item 15: the security headers, on every response; a CSP that allows
// what the page needs and nothing inline; iframes allowed unless
// --frame-ancestors says otherwise.
func TestServeSecurityHeaders(t *testing.T) {
	h := serveHandler(t, serveDir(t), webConfig{})
	for _, p := range []string{"/", "/bufferlab.wasm", "/boot.js", "/nope", "/.git/config"} {
		w := get(h, "GET", p)
		hd := w.Result().Header
		csp := hd.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'self' 'wasm-unsafe-eval'", "style-src 'self'", "connect-src 'self'", "base-uri 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("GET %s: Content-Security-Policy %q lacks %q", p, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "'unsafe-eval'") || strings.Contains(csp, "frame-ancestors") {
			t.Errorf("GET %s: Content-Security-Policy %q", p, csp)
		}
		if hd.Get("X-Content-Type-Options") != "nosniff" || hd.Get("Referrer-Policy") != "no-referrer" || hd.Get("X-Frame-Options") != "" {
			t.Errorf("GET %s: headers %v", p, hd)
		}
	}
	if w := get(h, "POST", "/"); w.Code != http.StatusMethodNotAllowed || w.Result().Header.Get("Content-Security-Policy") == "" {
		t.Errorf("POST: %d %v", w.Code, w.Result().Header)
	}

	csp, err := contentSecurityPolicy("'self' https://course.example.org")
	if err != nil || !strings.HasSuffix(csp, "; frame-ancestors 'self' https://course.example.org") {
		t.Errorf("--frame-ancestors: %q, %v", csp, err)
	}
	h2 := serveHandler(t, serveDir(t), webConfig{CSP: csp})
	if got := get(h2, "GET", "/").Result().Header.Get("Content-Security-Policy"); got != csp {
		t.Errorf("with --frame-ancestors the page sends %q", got)
	}
	for _, good := range []string{"'none'", "*", "https:", "http://localhost:8000", "https://*.example.org", "https://example.org/course/"} {
		if _, err := contentSecurityPolicy(good); err != nil {
			t.Errorf("--frame-ancestors %q: %v", good, err)
		}
	}
	for _, bad := range []string{"'self'; script-src *", "'none' 'self'", "https://a.org,https://b.org", "'unsafe-inline'", " ", "https://a.org;"} {
		if _, err := contentSecurityPolicy(bad); err == nil {
			t.Errorf("--frame-ancestors %q: accepted", bad)
		}
	}

	// The page itself keeps to the policy: no inline script or style, no
	// style attribute or event handler, nothing from another origin.
	page, err := os.ReadFile("../../web/index.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, re := range []string{`<script(\s[^>]*)?>\s*[^<\s]`, `<style`, `\sstyle\s*=`, `\son[a-z]+\s*=`, `(src|href)\s*=\s*"(https?:)?//`, `javascript:`} {
		if m := regexp.MustCompile(`(?i)` + re).Find(page); m != nil {
			t.Errorf("web/index.html has %q, which the Content-Security-Policy blocks", m)
		}
	}
}

// Items 16 and 17: a strong ETag per encoding, 304 on a reload, a new
// build served at once; the .br and .gz from `make wasm` used when they
// match the file, and otherwise the file compressed, with a message.
func TestServeConditional(t *testing.T) {
	dir := serveDir(t)
	h := serveHandler(t, dir, webConfig{})
	etags := map[string]string{}
	for _, ae := range []string{"br", "gzip", "identity"} {
		w := get(h, "GET", "/bufferlab.wasm", "Accept-Encoding: "+ae)
		hd := w.Result().Header
		etag := hd.Get("ETag")
		if w.Code != 200 || !regexp.MustCompile(`^"[0-9a-f]{32}"$`).MatchString(etag) || hd.Get("Cache-Control") != "no-cache" ||
			hd.Get("Vary") != "Accept-Encoding" || hd.Get("Content-Length") != fmt.Sprint(w.Body.Len()) {
			t.Fatalf("%s: %d %v", ae, w.Code, hd)
		}
		if hw := get(h, "HEAD", "/bufferlab.wasm", "Accept-Encoding: "+ae); hw.Code != 200 || hw.Body.Len() != 0 ||
			hw.Result().Header.Get("ETag") != etag || hw.Result().Header.Get("Content-Length") != hd.Get("Content-Length") {
			t.Errorf("%s HEAD: %d %v", ae, hw.Code, hw.Result().Header)
		}
		// If-None-Match as browsers and proxies write it: a list, W/.
		for _, inm := range []string{`"0123", ` + etag, "W/" + etag, "*"} {
			if w := get(h, "GET", "/bufferlab.wasm", "Accept-Encoding: "+ae, "If-None-Match: "+inm); w.Code != http.StatusNotModified {
				t.Errorf("%s, If-None-Match: %s: %d", ae, inm, w.Code)
			}
		}
		for other, e := range etags {
			if e == etag {
				t.Errorf("%s and %s share the ETag %s", ae, other, etag)
			}
		}
		etags[ae] = etag
		// The reload: 304, no body, the same validators.
		w2 := get(h, "GET", "/bufferlab.wasm", "Accept-Encoding: "+ae, "If-None-Match: "+etag)
		if w2.Code != http.StatusNotModified || w2.Body.Len() != 0 || w2.Result().Header.Get("ETag") != etag || w2.Result().Header.Get("Vary") != "Accept-Encoding" {
			t.Errorf("%s reload: %d, %d bytes, %v", ae, w2.Code, w2.Body.Len(), w2.Result().Header)
		}
		// Another encoding's ETag does not validate this one.
		if ae != "br" {
			if w3 := get(h, "GET", "/bufferlab.wasm", "Accept-Encoding: "+ae, "If-None-Match: "+etags["br"]); w3.Code != 200 {
				t.Errorf("%s with the br ETag: %d, want 200", ae, w3.Code)
			}
		}
	}
	if w := get(h, "GET", "/", "If-None-Match: "+get(h, "GET", "/").Result().Header.Get("ETag")); w.Code != http.StatusNotModified {
		t.Errorf("reloading the page: %d", w.Code)
	}

	// An upgrade: same size, a modification time in the past (a copied
	// file); the old ETag no longer matches and the new bytes are sent.
	p := filepath.Join(dir, "bufferlab.wasm")
	old, _ := os.ReadFile(p)
	upgraded := bytes.ToUpper(old)
	os.WriteFile(p, upgraded, 0o644)
	past := time.Now().Add(-48 * time.Hour)
	os.Chtimes(p, past, past)
	for _, ae := range []string{"br", "gzip", "identity"} {
		w := get(h, "GET", "/bufferlab.wasm", "Accept-Encoding: "+ae, "If-None-Match: "+etags[ae])
		if w.Code != 200 || w.Result().Header.Get("ETag") == etags[ae] || !bytes.Equal(decode(t, ae, w.Body.Bytes()), upgraded) {
			t.Errorf("%s after an upgrade: %d, ETag %s (was %s)", ae, w.Code, w.Result().Header.Get("ETag"), etags[ae])
		}
	}
}

func decode(t *testing.T, enc string, b []byte) []byte {
	t.Helper()
	var r io.Reader = bytes.NewReader(b)
	switch enc {
	case "br":
		r = brotli.NewReader(r)
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestServePrecompressed(t *testing.T) {
	dir := serveDir(t)
	p := filepath.Join(dir, "bufferlab.wasm")
	raw := make([]byte, largeFile+1000) // large enough to be worth a message
	for i := range raw {
		raw[i] = byte(i*7 + i/300)
	}
	os.WriteFile(p, raw, 0o644)

	// No .br or .gz: serve compresses, and says so.
	var log bytes.Buffer
	h := serveHandler(t, dir, webConfig{Log: &log})
	if !strings.Contains(log.String(), "compressing bufferlab.wasm") || !strings.Contains(log.String(), "bufferlab.wasm.br is missing") ||
		!strings.Contains(log.String(), "make wasm") || !strings.Contains(log.String(), "compressed bufferlab.wasm in") {
		t.Errorf("no .br, no .gz: the log says\n%s", log.String())
	}

	// The precompressed files: used as they are (a gzip level 1 file is
	// recognisable), not compressed again.
	var fast bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&fast, gzip.BestSpeed)
	zw.Write(raw)
	zw.Close()
	os.WriteFile(p+".gz", fast.Bytes(), 0o644)
	os.WriteFile(p+".br", precompress.Compress(precompress.Encodings[0], raw), 0o644)
	log.Reset()
	h = serveHandler(t, dir, webConfig{Log: &log})
	if strings.Contains(log.String(), "compressing") || !strings.Contains(log.String(), "using bufferlab.wasm.br") {
		t.Errorf("with .br and .gz: the log says\n%s", log.String())
	}
	if w := get(h, "GET", "/bufferlab.wasm", "Accept-Encoding: gzip"); !bytes.Equal(w.Body.Bytes(), fast.Bytes()) {
		t.Errorf("the .gz file was not served as it is")
	}

	// A rebuild leaves them stale: they are not used, and a request gets
	// the new file.
	raw[100]++
	os.WriteFile(p, raw, 0o644)
	log.Reset()
	for _, ae := range []string{"br", "gzip"} {
		w := get(h, "GET", "/bufferlab.wasm", "Accept-Encoding: "+ae)
		if !bytes.Equal(decode(t, ae, w.Body.Bytes()), raw) {
			t.Errorf("%s after a rebuild: a stale body", ae)
		}
	}
	if !strings.Contains(log.String(), "bufferlab.wasm.br does not match bufferlab.wasm") {
		t.Errorf("stale .br: the log says\n%s", log.String())
	}

	// cmd/precompress brings them up to date, and serve uses them again.
	var out bytes.Buffer
	if err := precompress.WriteFiles(p, &out); err != nil {
		t.Fatal(err)
	}
	log.Reset()
	if w := get(h, "GET", "/bufferlab.wasm", "Accept-Encoding: br"); !bytes.Equal(w.Body.Bytes(), mustRead(t, p+".br")) {
		t.Errorf("the new .br file is not served")
	}
	if !strings.Contains(log.String(), "using bufferlab.wasm.br") {
		t.Errorf("after precompress: the log says\n%s", log.String())
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Item 17: `make wasm` says what it builds and how long that takes, then
// writes the compressed copies, which git ignores.
func TestMakeWasmPrecompresses(t *testing.T) {
	mk, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	recipe := regexp.MustCompile(`(?m)^wasm:.*\n((?:\t.*\n)+)`).FindSubmatch(mk)
	if recipe == nil {
		t.Fatal("no wasm target in the Makefile")
	}
	lines := strings.Split(strings.TrimSpace(string(recipe[1])), "\n")
	if !strings.HasPrefix(strings.TrimSpace(lines[0]), "@echo") || !strings.Contains(lines[0], "minutes") {
		t.Errorf("make wasm does not first say what it builds and how long it takes: %q", lines[0])
	}
	if !strings.Contains(string(recipe[1]), "./cmd/precompress web/bufferlab.wasm") {
		t.Errorf("make wasm does not run cmd/precompress:\n%s", recipe[1])
	}
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is missing; CI clones the project with it and must run this check")
		}
		t.Skip("no git")
	}
	for _, f := range []string{"web/bufferlab.wasm.br", "web/bufferlab.wasm.gz"} {
		cmd := exec.Command("git", "check-ignore", "-q", f)
		cmd.Dir = "../.."
		if err := cmd.Run(); err != nil {
			t.Errorf("git does not ignore %s (%v)", f, err)
		}
	}
}

// serve's classroom flags: a flag without --classroom, a cap out of
// range, names without a file, a file in no folder: each a clear error,
// exit 2, before anything listens.
func TestServeClassFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--lan"}, "bufferlab serve: --lan, --max-students, --save and --save-names are classroom flags: add --classroom\n"},
		{[]string{"--save", "r.csv"}, "bufferlab serve: --lan, --max-students, --save and --save-names are classroom flags: add --classroom\n"},
		{[]string{"--classroom", "--max-students", "0"}, "bufferlab serve: --max-students 0: expected 1..5000\n"},
		{[]string{"--classroom", "--max-students", "5001"}, "bufferlab serve: --max-students 5001: expected 1..5000\n"},
		{[]string{"--classroom", "--save-names"}, "bufferlab serve: --save-names: expected --save FILE too (where the answers go)\n"},
		{[]string{"--classroom", "--save", "/no/such/folder/r.csv"}, "bufferlab serve: --save /no/such/folder/r.csv: the folder /no/such/folder does not exist\n"},
	} {
		code, out, errOut := cli(t, "", append([]string{"serve"}, c.args...)...)
		if code != exitBadInput || out != "" || errOut != c.want {
			t.Errorf("serve %v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errOut, c.want)
		}
	}
}

// --lan listens where students' devices reach this machine: a private
// IPv4 address first, never the loopback or a link-local one.
func TestLanIP(t *testing.T) {
	ips := func(ss ...string) []net.IP {
		var out []net.IP
		for _, s := range ss {
			out = append(out, net.ParseIP(s))
		}
		return out
	}
	for _, c := range []struct {
		ifaces []ifaceAddrs
		want   string
	}{
		{[]ifaceAddrs{{"lo", ips("127.0.0.1", "::1")}, {"eth0", ips("fe80::1", "203.0.113.7", "192.168.1.5")}}, "192.168.1.5"},
		{[]ifaceAddrs{{"lo", ips("127.0.0.1")}, {"wlan0", ips("169.254.3.3", "203.0.113.7")}}, "203.0.113.7"},
		{[]ifaceAddrs{{"lo", ips("127.0.0.1")}}, ""},
	} {
		ip, err := lanIP(c.ifaces)
		if c.want == "" {
			if err == nil || !strings.Contains(err.Error(), "no network address but the loopback") {
				t.Errorf("%v: %v, %v; want an error", c.ifaces, ip, err)
			}
			continue
		}
		if err != nil || ip.String() != c.want {
			t.Errorf("%v: %v, %v; want %s", c.ifaces, ip, err, c.want)
		}
	}
}

// What a class serves beside the lessons: the join link and its QR code,
// never the teacher's token; the banner says where each goes and what is
// exposed; --save writes the results when the server stops.
func TestClassServes(t *testing.T) {
	save := filepath.Join(t.TempDir(), "results.csv")
	o := &classOpts{on: true, max: 30, save: save}
	web := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "the lessons") })
	var banner bytes.Buffer
	h, finish, err := serveClass(o, "http://192.168.1.5:8080/", web, &banner)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	get := func(path string) (string, string) {
		t.Helper()
		res, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return string(b), res.Header.Get("Content-Type")
	}
	var info struct{ Room, Join string }
	body, _ := get("/class/info")
	if err := json.Unmarshal([]byte(body), &info); err != nil || len(info.Room) != 6 || info.Join != "http://192.168.1.5:8080/#join="+info.Room {
		t.Fatalf("/class/info: %s (%v)", body, err)
	}
	b := banner.String()
	token := b[strings.Index(b, "#teach=")+len("#teach=") : strings.Index(b, "#teach=")+len("#teach=")+32]
	if strings.Contains(body, token) {
		t.Fatal("/class/info gives the teacher's token away")
	}
	for _, want := range []string{"room " + info.Room, "Teacher (keep this link to yourself): http://192.168.1.5:8080/#teach=" + token,
		"Students join at:                     " + info.Join, "Only this machine can join: run with --lan", "go to " + save} {
		if !strings.Contains(b, want) {
			t.Errorf("the banner lacks %q:\n%s", want, b)
		}
	}
	if png, typ := get("/class/qr.png"); typ != "image/png" || !strings.HasPrefix(png, "\x89PNG") {
		t.Errorf("/class/qr.png: %s, %d bytes", typ, len(png))
	}
	if page, _ := get("/"); page != "the lessons" {
		t.Errorf("/ serves %q", page)
	}
	if err := finish(); err != nil {
		t.Fatal(err)
	}
	if csv, err := os.ReadFile(save); err != nil || !strings.HasPrefix(string(csv), "lesson,step,question,round,choice,count,right") {
		t.Fatalf("--save: %q, %v", csv, err)
	}
}
