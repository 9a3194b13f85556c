//go:build !js

package main

import (
	"bufferlab/internal/wasmbuild"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"bufferlab/internal/xvfbtest"
)

// chromiumPath finds Debian's Chromium. Outside CI a missing browser skips
// the browser tests; with CI set it fails them (`make test` installs it).
// -short skips them: minutes of a real browser, nothing to scale down
// (`make test-native` runs them, `make test-short` and `make race` do not).
func chromiumPath(t *testing.T) string {
	t.Helper()
	return xvfbtest.Program(t, func() string {
		for _, p := range []string{os.Getenv("CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
			if p != "" {
				if _, err := os.Stat(p); err == nil {
					return p
				}
			}
		}
		return ""
	}, "the browser test: skipped by -short (`make test-native` runs it)",
		"Chromium is missing (apt-get install -y chromium); CI must run the browser tests",
		"Chromium is not installed; `make test` installs it (apt-get install -y chromium)")
}

// buildWeb builds the WebAssembly player and lays out the page beside it,
// as `make wasm` does, once for the test binary (a minute of linking the
// browser tests would otherwise pay each), in a directory TestMain
// removes. The tests only read it.
func buildWeb(t *testing.T) string {
	t.Helper()
	web.once.Do(func() { web.dir, web.err = layOutWeb() })
	if web.err != nil {
		t.Fatal(web.err)
	}
	return web.dir
}

// web is the page buildWeb laid out.
var web struct {
	once sync.Once
	dir  string
	err  error
}

func layOutWeb() (string, error) {
	dir, err := os.MkdirTemp("", "bufferlab-web-")
	if err != nil {
		return "", err
	}
	if err := wasmbuild.Build("../..", filepath.Join(dir, "bufferlab.wasm"), true); err != nil {
		return dir, fmt.Errorf("building the wasm: %v", err)
	}
	copyFile := func(src, dst string) error {
		b, err := os.ReadFile(src)
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, dst), b, 0o644)
		}
		return err
	}
	// The page's own files: every .html, .css and .js in web/ (wasm_exec.js,
	// Go's, is not the project's: it comes from GOROOT below).
	for _, pat := range []string{"*.html", "*.css", "*.js"} {
		files, _ := filepath.Glob(filepath.Join("../../web", pat))
		for _, f := range files {
			if filepath.Base(f) != "wasm_exec.js" {
				if err := copyFile(f, filepath.Base(f)); err != nil {
					return dir, err
				}
			}
		}
	}
	return dir, copyFile(filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js"), "wasm_exec.js")
}

// pageState is window.bufferlab.state() as JSON.
type pageState struct {
	Mode     string       `json:"mode"`
	Lesson   string       `json:"lesson"`
	Step     int          `json:"step"`
	Steps    int          `json:"steps"`
	Event    int          `json:"event"`
	Events   int          `json:"events"`
	Gated    bool         `json:"gated"`
	Playing  bool         `json:"playing"`
	Speed    string       `json:"speed"`
	AutoSlow bool         `json:"autoSlow"`
	Stop     *pageStop    `json:"stop"`
	End      bool         `json:"end"`
	FPS      float64      `json:"fps"`
	Counters pageCounters `json:"counters"`
	Pins     string       `json:"pins"`
	Theme    string       `json:"theme"`
	Panes    []struct {
		Variant  string       `json:"variant"`
		Counters pageCounters `json:"counters"`
		SLRU     *pageSLRU    `json:"slru"`
	} `json:"panes"`
}

// pageStop is state().stop: the key moment the player is stopped before.
type pageStop struct {
	Moment   string `json:"moment"`
	Title    string `json:"title"`
	Pane     int    `json:"pane"`
	Question bool   `json:"question"`
	Caption  string `json:"caption"`
}

type pageSLRU struct {
	Reads        uint64 `json:"reads"`
	Hits         uint64 `json:"hits"`
	SlotsScanned uint64 `json:"slotsScanned"`
	Probes       uint64 `json:"probes"`
	VictimScans  uint64 `json:"victimScans"`
	LockWaits    uint64 `json:"lockWaits"`
}

var updateShots = flag.Bool("update", false, "rewrite the browser's golden screenshots in testdata/")

// setViewport makes the page w×h CSS px (a phone's is a mobile
// viewport) and waits until the app has laid a frame out at that size.
func setViewport(t *testing.T, ctx context.Context, eval func(string, any), w, h int64) {
	t.Helper()
	if _, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: w, Height: h, DeviceScaleFactor: 1, Mobile: w < 600}); err != nil {
		t.Fatal(err)
	}
	for range 200 {
		if l := layoutAfterFrame(t, eval); l.Viewport == [2]int{int(w), int(h)} {
			return
		}
	}
	t.Fatalf("the app never laid out at %dx%d", w, h)
}

// layoutSweep opens every step of every lesson at the six viewports of
// issue 16 in both modes and checks window.bufferlab.layout() for each
// (layout() lays the frame out for the state it is asked in).
func layoutSweep(t *testing.T, ctx context.Context, eval func(string, any), lessons []struct{ Name string }) {
	t.Helper()
	type stepLayout struct {
		Step   int        `json:"step"`
		Layout pageLayout `json:"layout"`
	}
	frames := 0
	for _, vp := range [][2]int64{{390, 844}, {844, 390}, {1280, 720}, {1280, 800}, {1920, 1080}, {3840, 2160}} {
		setViewport(t, ctx, eval, vp[0], vp[1])
		for _, pres := range []bool{false, true} {
			eval(fmt.Sprintf("window.bufferlab.presentation(%v)", pres), nil)
			minText := 14.0
			if pres && vp[0] >= 1000 && vp[1] >= 600 {
				minText = 24
			}
			touch := vp[0] < 1000 || vp[1] < 600
			for _, l := range lessons {
				var got []stepLayout
				eval(fmt.Sprintf(`(() => { const b = window.bufferlab; b.open(%q); const out = [];
					for (let k = 0; k < b.state().steps; k++) { b.goto(k); out.push({step: k, layout: b.layout()}); }
					return out; })()`, l.Name), &got)
				for _, g := range got {
					frames++
					lay := g.Layout
					where := fmt.Sprintf("%s step %d at %dx%d (presentation %v, mode %s)", l.Name, g.Step+1, vp[0], vp[1], pres, lay.Mode)
					if lay.Overflow != 0 || lay.MinTextPx < minText-0.01 || touch && lay.MinTargetPx < 44-0.01 || lay.Viewport != [2]int{int(vp[0]), int(vp[1])} {
						t.Errorf("%s: layout() = %+v", where, lay)
					}
				}
			}
		}
	}
	if frames < 12*50 {
		t.Fatalf("the sweep laid out %d frames, want every step of every lesson at 12 settings", frames)
	}
	t.Logf("layout() held at %d step starts", frames)
}

// pageTarget is one of window.bufferlab.targets().
type pageTarget struct {
	Role, Label string
	X, Y, W, H  float64
}

// touchPlaythrough plays every lesson to its end screen on a phone
// (390×844) by touch alone, answering every question: it taps the first
// choice of an open question (the player stops for it at its moment),
// Continue at any other key moment the player stopped before, and play at
// a step's end, and waits while the player plays, until state().end says
// the lesson is complete. Every tap is a touchstart and touchend at the
// centre of a target that targets() reports, so what is tapped is what
// the screen shows. Before it, + (faster) is tapped up to 64× and
// auto-slow is turned off (autoslow(false): a phone has no button for it),
// so that playing through takes seconds, not minutes.

func touchPlaythrough(t *testing.T, ctx context.Context, eval func(string, any), lessons []struct{ Name string }) {
	t.Helper()
	setViewport(t, ctx, eval, 390, 844)
	eval("window.bufferlab.presentation(false)", nil)
	type playState struct {
		Step, Steps, Event int
		Gated, End         bool
		Playing            bool
		Stop               *pageStop
		Speed              string
		Frames             int
	}
	st := func() (s playState) { eval("window.bufferlab.state()", &s); return s }
	tap := func(role string) {
		t.Helper()
		var ts []pageTarget
		eval("window.bufferlab.targets()", &ts)
		for _, tg := range ts {
			if tg.Role != role {
				continue
			}
			x, y := tg.X+tg.W/2, tg.Y+tg.H/2
			before := st().Frames
			if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchStart, TouchPoints: []*input.TouchPoint{{X: x, Y: y}}}); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{}}); err != nil {
				t.Fatal(err)
			}
			// The app reads touches in its next update: wait two frames.
			for i := 0; i < 200 && st().Frames < before+2; i++ {
				time.Sleep(20 * time.Millisecond)
			}
			return
		}
		t.Fatalf("no target %q on screen (targets: %+v)", role, ts)
	}
	eval("window.bufferlab.autoslow(false)", nil)
	for _, l := range lessons {
		eval(fmt.Sprintf("window.bufferlab.open(%q)", l.Name), nil)
		for i := 0; st().Speed != "64×"; i++ {
			if i == 12 {
				t.Fatalf("%s: speed %s after 12 taps on +", l.Name, st().Speed)
			}
			tap("button faster")
		}
		taps, questions, stops := 0, 0, 0
		deadline := time.Now().Add(3 * time.Minute)
		for s := st(); !s.End; s = st() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: no end after 3 minutes: %+v", l.Name, s)
			}
			if s.Playing {
				time.Sleep(50 * time.Millisecond)
				continue
			}
			if taps++; taps > 400 {
				t.Fatalf("%s: no end after 400 taps: %+v", l.Name, s)
			}
			switch {
			case s.Gated:
				tap("choice")
				if st().Gated {
					t.Fatalf("%s step %d: tapping a choice did not answer it", l.Name, s.Step+1)
				}
				questions++
			case s.Stop != nil:
				tap("button Continue")
				if s2 := st(); s2.Event == s.Event {
					t.Fatalf("%s step %d: Continue at the stop before %s did not go on", l.Name, s.Step+1, s.Stop.Moment)
				}
				stops++
			default:
				tap("button play")
			}
		}
		t.Logf("%s: its end screen after %d taps (%d questions answered, %d stops gone on from)", l.Name, taps, questions, stops)
	}
	eval("window.bufferlab.autoslow(true)", nil)
}

// pageLayout is window.bufferlab.layout().
type pageLayout struct {
	Overflow    int     `json:"overflow"`
	MinTextPx   float64 `json:"min_text_px"`
	MinTargetPx float64 `json:"min_target_px"`
	Viewport    [2]int  `json:"viewport"`
	Mode        string  `json:"mode"`
}

// layoutAfterFrame waits until the page has drawn two more frames (the
// frame layout() describes is the last one drawn), then returns layout().
func layoutAfterFrame(t *testing.T, eval func(string, any)) pageLayout {
	t.Helper()
	var l pageLayout
	eval(`new Promise(done => {
		const n = window.bufferlab.state().frames;
		const wait = () => window.bufferlab.state().frames >= n + 2 ? done(window.bufferlab.layout()) : requestAnimationFrame(wait);
		wait();
	})`, &l)
	return l
}

type pageCounters struct {
	DescsTouched uint64 `json:"descsTouched"`
	DropLookups  uint64 `json:"dropLookups"`
	Invalidated  uint64 `json:"invalidated"`
	Hits         uint64 `json:"hits"`
	Misses       uint64 `json:"misses"`
	CASFailures  uint64 `json:"casFailures"`
	Spins        uint64 `json:"spins"`
}

// browserSession is a page of the browser build in headless Chromium:
// the wasm built as `make wasm` builds it (once per test binary: buildWeb),
// served as `bufferlab serve` serves it, and a Chromium of its own with a
// fresh profile. Every console error, exception, Content-Security-Policy
// report and request leaving the page's origin is kept for check.
type browserSession struct {
	t   *testing.T
	srv *httptest.Server
	// ctx is bounded (against a hung page); the browser's own context
	// has no deadline.
	ctx context.Context

	mu       sync.Mutex
	problems []string
	// hosts are the origins besides the app's that pages may load from
	// (a host page of another site that embeds the app).
	hosts  []string
	origin *url.URL // the app's
}

// allow lets pages load from another origin (its URL's host).
func (s *browserSession) allow(origin string) {
	u, _ := url.Parse(origin)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hosts = append(s.hosts, u.Host)
}

// newBrowserSession starts the page's server (with more handlers from
// extra, when not nil) and Chromium, and bounds the session's calls by
// bound. Everything stops when the test ends.
func newBrowserSession(t *testing.T, bound time.Duration, extra func(mux *http.ServeMux)) *browserSession {
	t.Helper()
	return newBrowserSessionWith(t, bound, webConfig{}, extra)
}

// newBrowserSessionWith is newBrowserSession with the web handler's
// configuration (its Content-Security-Policy: a class's adds img-src).
func newBrowserSessionWith(t *testing.T, bound time.Duration, cfg webConfig, extra func(mux *http.ServeMux)) *browserSession {
	t.Helper()
	chromium := chromiumPath(t)
	dir := buildWeb(t)
	h, err := newWarmWebHandler(dir, cfg) // as `bufferlab serve` does
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	mux := http.NewServeMux()
	mux.Handle("/", h)
	if extra != nil {
		extra(mux)
	}
	srv := httptest.NewServer(mux) // listens on 127.0.0.1
	t.Cleanup(srv.Close)
	origin, _ := url.Parse(srv.URL)

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium),
		chromedp.Headless, chromedp.NoSandbox, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		// WebGL without a GPU: Chromium's software rasteriser.
		chromedp.Flag("use-angle", "swiftshader"),
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 800),
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	bctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	// The first call starts the browser; its context must have no deadline.
	if _, err := chromedp.Call(bctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	ctx, cancel := context.WithTimeout(bctx, bound)
	t.Cleanup(cancel)
	s := &browserSession{t: t, srv: srv, ctx: ctx, origin: origin}
	s.watch(bctx)
	return s
}

// watch keeps the problems of the page in ctx's target (a tab, or a
// tab of another browser context) for check.
func (s *browserSession) watch(bctx context.Context) {
	origin := s.origin
	chromedp.Listen(bctx, func(ev any) {
		s.mu.Lock()
		defer s.mu.Unlock()
		switch ev := ev.(type) {
		case *cdpruntime.EventConsoleAPICalled:
			if ev.Type == cdpruntime.ConsoleAPICalledTypeError {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				s.problems = append(s.problems, "console error: "+strings.Join(args, " "))
			}
		case *cdplog.EventEntryAdded:
			// What the browser itself reports: a Content-Security-Policy
			// violation (the page's CSP comes from webHandler) is a
			// "security" error here, not a console call.
			if e := ev.Entry; e.Source == cdplog.EntrySourceSecurity || strings.Contains(e.Text, "Content Security Policy") {
				s.problems = append(s.problems, fmt.Sprintf("browser %s %s: %s %s", e.Source, e.Level, e.Text, e.URL))
			}
		case *cdpruntime.EventExceptionThrown:
			s.problems = append(s.problems, fmt.Sprintf("exception: %s %v", ev.ExceptionDetails.Text, ev.ExceptionDetails.Exception))
		case *network.EventRequestWillBeSent:
			u, err := url.Parse(ev.Request.URL)
			if err != nil || (u.Scheme != "data" && u.Scheme != "blob" && u.Host != origin.Host && !slices.Contains(s.hosts, u.Host)) {
				s.problems = append(s.problems, "request leaving the page's origin: "+ev.Request.URL)
			}
		}
	})
}

// check fails the test with the problems seen so far, if any.
func (s *browserSession) check(when string) {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.problems) > 0 {
		s.t.Fatalf("%s: %s", when, strings.Join(s.problems, "\n"))
	}
}

// eval evaluates a JavaScript expression (awaiting a promise) and
// decodes its JSON value into out (nil: ignore it).
func (s *browserSession) eval(expr string, out any) {
	s.t.Helper()
	evalIn(s.t, s.ctx, expr, out)
}

// evalIn is eval in the tab of ctx.
func evalIn(t *testing.T, ctx context.Context, expr string, out any) {
	t.Helper()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage]("Promise.resolve("+expr+").then(v => v === undefined ? null : v)", chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s: %v (%s)", expr, err, raw)
		}
	}
}

// open navigates to the page at path (from "/": "/#lesson=…") and waits
// until the app is ready.
func (s *browserSession) open(path string) {
	s.t.Helper()
	if err := chromedp.Do(s.ctx, chromedp.Navigate(s.srv.URL+path)); err != nil {
		s.t.Fatal(err)
	}
	s.eval("window.bufferlab.ready.then(() => true)", nil)
}

// embeddingPage embeds the app in an iframe that may not go fullscreen.
const embeddingPage = `<!doctype html><title>BufferLab embedded</title>` +
	`<iframe id="f" src="index.html#lesson=shared-buffers" allow="fullscreen 'none'" width="1000" height="700"></iframe>`

func TestBrowser(t *testing.T) {
	// The embedding page of the iframe test stands for a teacher's own page,
	// which has its own policy: it is served beside the app, not by it (the
	// app's CSP allows no frames in its own pages).
	// A bound against a hung page, not a time the test asserts: a loaded
	// machine draws a frame or two a second, and the page loads a dozen times.
	bs := newBrowserSession(t, 15*time.Minute, func(mux *http.ServeMux) {
		mux.HandleFunc("/frame.html", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, embeddingPage)
		})
	})
	srv, ctx, eval, check := bs.srv, bs.ctx, bs.eval, bs.check
	state := func() pageState {
		t.Helper()
		var s pageState
		eval("window.bufferlab.state()", &s)
		return s
	}
	navigate := func(u string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate(u)); err != nil {
			t.Fatal(err)
		}
	}
	// openPermalink navigates to the page's permalink #hash and waits until the
	// app is ready.
	// The address follows the app, so it may already say hash: the app
	// goes to the menu and the address is cleared first (no navigation),
	// so that the link opens its lesson anew, as a link pasted in a fresh
	// page does (a link to the lesson already open only moves within it,
	// keeping its answers: TestBrowserSandbox's Back and Forward).
	openPermalink := func(hash string) {
		t.Helper()
		eval(`(window.bufferlab && window.bufferlab.menu && window.bufferlab.menu(),
			location.protocol.startsWith("http") && history.replaceState(null, "", location.pathname + location.search), true)`, nil)
		navigate(srv.URL + "/#" + hash)
		eval("window.bufferlab.ready.then(() => true)", nil)
		// A link to the lesson already open moves within it at the app's
		// next update: wait for a frame.
		layoutAfterFrame(t, eval)
	}
	// screenshot lets the page draw for settle, then takes a screenshot
	// and fails the test when it is blank (keeping it in the temporary
	// directory as name, to look at).
	screenshot := func(settle time.Duration, name, what string) []byte {
		t.Helper()
		time.Sleep(settle)
		shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := checkNotBlank(shot); err != nil {
			os.WriteFile(filepath.Join(os.TempDir(), name), shot, 0o644)
			t.Fatalf("%s: %v", what, err)
		}
		return shot
	}
	// playOn moves on (step(n), which stops at each key moment) up to the
	// next open question, or the lesson's end.
	playOn := func() {
		t.Helper()
		eval(`(() => { const b = window.bufferlab;
			for (let i = 0; i < 10000; i++) {
				const s = b.state();
				if (s.gated) return true;
				const t = b.step(100000);
				if (t.event === s.event && t.step === s.step) return true;
			}
			return false; })()`, nil)
	}
	// answerAndPlay moves on to the current step's question (asked at its
	// moment), answers it with choice k and plays on up to the next
	// question (or the lesson's end).
	answerAndPlay := func(k int) {
		t.Helper()
		playOn()
		eval(fmt.Sprintf("window.bufferlab.answer(%d)", k), nil)
		playOn()
	}

	navigate(srv.URL + "/")
	var firstFrameMs float64
	eval("window.bufferlab.ready.then(() => window.bufferlab.firstFrameMs)", &firstFrameMs)
	var timings map[string]float64
	eval("window.bufferlab.timings", &timings)
	t.Logf("time from navigation to the first drawn frame: %.0f ms (ms since navigation: %v)", firstFrameMs, timings)
	check("loading")

	var lessons []struct{ Name string }
	eval("window.bufferlab.lessons()", &lessons)
	if len(lessons) == 0 || lessons[0].Name != "shared-buffers" {
		t.Fatalf("lessons() = %+v", lessons)
	}
	if s := state(); s.Mode != "menu" {
		t.Fatalf("before open: %+v", s)
	}
	eval("window.bufferlab.open('shared-buffers')", nil)
	s := state()
	if s.Mode != "lesson" || s.Lesson != "shared-buffers" || s.Step != 0 || s.Events < 1000 || s.Steps < 12 {
		t.Fatalf("after open: %+v", s)
	}
	var threw bool
	// Step 0 asks its question at its moment (the victim the freelist
	// gives): stepping stops there, just before the moment's event, and is
	// gated until the question is answered; the moment's words come then.
	if s.Gated || s.Stop != nil || !s.AutoSlow || s.Speed != "1×" {
		t.Fatalf("step 0 opens with its question still to come: %+v", s)
	}
	eval("window.bufferlab.step(1000)", nil)
	s = state()
	if !s.Gated || s.Event == 0 || s.Stop == nil || s.Stop.Moment != "victim" || !s.Stop.Question || s.Stop.Caption != "" || s.Stop.Title == "" {
		t.Fatalf("step(1000) should stop at step 0's question, before its victim: %+v %+v", s, s.Stop)
	}
	eval("window.bufferlab.step(3)", nil)
	if s2 := state(); s2.Event != s.Event {
		t.Fatalf("step moved past an unanswered question: %+v", s2)
	}
	eval("(() => { try { window.bufferlab.continue(); return false } catch (e) { return /answer the question first/.test(e.message) } })()", &threw)
	if !threw {
		t.Fatal("continue() went past an unanswered question")
	}
	eval("window.bufferlab.answer(1)", nil)
	if s2 := state(); s2.Gated || s2.Stop == nil || !strings.Contains(s2.Stop.Caption, "victim") {
		t.Fatalf("after the answer, at the stop: %+v %+v", s2, s2.Stop)
	}
	eval("window.bufferlab.step(5)", nil)
	if s2 := state(); s2.Event != s.Event+5 || s2.Gated || s2.Stop != nil {
		t.Fatalf("after answer and step(5): %+v (from %d)", s2, s.Event)
	}
	eval("(() => { try { window.bufferlab.continue(); return false } catch (e) { return /not stopped at a key moment/.test(e.message) } })()", &threw)
	if !threw {
		t.Fatal("continue() away from a stop did not throw a clear error")
	}
	var slowed pageState
	eval("window.bufferlab.autoslow(false)", &slowed)
	if slowed.AutoSlow || state().AutoSlow {
		t.Fatalf("autoslow(false): %+v", slowed)
	}
	eval("window.bufferlab.autoslow(true)", nil)
	eval("(() => { try { window.bufferlab.autoslow(1); return false } catch (e) { return /expected true or false/.test(e.message) } })()", &threw)
	if !threw || !state().AutoSlow {
		t.Fatal("autoslow(1) did not throw a clear error, or changed auto-slow")
	}
	eval("window.bufferlab.seek(400)", nil)
	if s2 := state(); s2.Event != 400 {
		t.Fatalf("after seek(400): %+v", s2)
	}
	// Bad arguments throw.
	eval("(() => { try { window.bufferlab.open('no-such-lesson'); return false } catch (e) { return /no such lesson/.test(e.message) } })()", &threw)
	if !threw {
		t.Fatal("open of an unknown lesson did not throw a clear error")
	}
	check("API calls")

	// Progress is kept in localStorage: the answer given above and the
	// furthest step are there, and still there after a reload; the end of
	// a lesson marks it completed (state().end); resetProgress() forgets
	// it all, for good.
	type pageProgress struct {
		Version int `json:"version"`
		Lessons map[string]struct {
			FurthestStep int  `json:"furthestStep"`
			Completed    bool `json:"completed"`
			Answers      []struct {
				Step, Choice int
				Right        bool
			} `json:"answers"`
		} `json:"lessons"`
	}
	progressNow := func() (p pageProgress) { eval("window.bufferlab.progress()", &p); return p }
	reload := func() {
		t.Helper()
		navigate(srv.URL + "/")
		eval("window.bufferlab.ready.then(() => true)", nil)
	}
	atStep := state().Step
	before := progressNow()
	if sb := before.Lessons["shared-buffers"]; before.Version != 1 || len(sb.Answers) != 1 || sb.Answers[0].Step != 0 || sb.Answers[0].Choice != 1 ||
		sb.FurthestStep != atStep || sb.Completed {
		t.Fatalf("progress after answering step 0 and moving to step %d: %+v", atStep, before)
	}
	reload()
	if after := progressNow(); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("progress after a reload: %+v, was %+v", after, before)
	}
	eval("window.bufferlab.open('small-table-skip', 3)", nil)
	eval("window.bufferlab.seek(window.bufferlab.state().events)", nil)
	if s := state(); !s.End {
		t.Fatalf("at the last event of lesson 6: %+v, want end", s)
	}
	reload()
	if p := progressNow(); !p.Lessons["small-table-skip"].Completed || p.Lessons["small-table-skip"].FurthestStep != 3 || len(p.Lessons["shared-buffers"].Answers) != 1 {
		t.Fatalf("progress after completing lesson 6 and a reload: %+v", p)
	}
	var reset pageProgress
	eval("window.bufferlab.resetProgress()", &reset)
	reload()
	if p := progressNow(); len(reset.Lessons) != 0 || reset.Version != 1 || len(p.Lessons) != 0 {
		t.Fatalf("resetProgress() returned %+v; after a reload: %+v", reset, p)
	}
	// A browser whose localStorage refuses to store (a full quota, some
	// private windows): the app carries on with progress in memory and
	// says so once, however many times it saves.
	added, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: `Storage.prototype.setItem = function () { throw new DOMException("the quota has been exceeded", "QuotaExceededError"); };`,
	})
	if err != nil {
		t.Fatal(err)
	}
	reload()
	eval("(() => { const b = window.bufferlab, n = b._notice; b.notices = []; b._notice = (m) => { b.notices.push(m); n(m); }; return true })()", nil)
	eval("window.bufferlab.open('pinning')", nil)
	answerAndPlay(1)
	answerAndPlay(1)
	var refused struct {
		Notices  []string
		Progress pageProgress
	}
	eval("({Notices: window.bufferlab.notices, Progress: window.bufferlab.progress()})", &refused)
	if len(refused.Notices) != 1 || !strings.Contains(refused.Notices[0], "QuotaExceededError") ||
		!strings.Contains(refused.Notices[0], "kept until this page is closed") || len(refused.Progress.Lessons["pinning"].Answers) != 2 {
		t.Fatalf("with localStorage refusing: notices %q, progress %+v; want one notice and the two answers kept in memory", refused.Notices, refused.Progress)
	}
	if _, err := chromedp.Call(ctx, page.RemoveScriptToEvaluateOnNewDocument, page.RemoveScriptToEvaluateOnNewDocumentParams{Identifier: added.Identifier}); err != nil {
		t.Fatal(err)
	}
	check("progress")

	// The theme: this Chromium prefers light, so the app starts light;
	// theme('dark') switches it, and an unknown name throws, naming the
	// themes. A page opened where prefers-color-scheme is dark starts dark,
	// the page around the canvas and the loader too (web/style.css; the
	// body's own background is Ebitengine's black once it runs).
	if s := state(); s.Theme != "light" {
		t.Fatalf("theme at start: %q, want light", s.Theme)
	}
	var themed pageState
	eval("window.bufferlab.theme('dark')", &themed)
	if themed.Theme != "dark" || state().Theme != "dark" {
		t.Fatalf("theme('dark'): %+v", themed)
	}
	eval(`(() => { try { window.bufferlab.theme('sepia'); return false } catch (e) { return e.message === 'no theme "sepia": the themes are light, dark' } })()`, &threw)
	if !threw || state().Theme != "dark" {
		t.Fatal("theme('sepia') did not throw a clear error, or changed the theme")
	}
	dark := emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}}
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, dark); err != nil {
		t.Fatal(err)
	}
	navigate(srv.URL + "/?prefers-dark")
	eval("window.bufferlab.ready.then(() => true)", nil)
	var bg []string
	eval("[document.documentElement, document.getElementById('loader')].map(e => getComputedStyle(e).backgroundColor)", &bg)
	if s := state(); s.Theme != "dark" || len(bg) != 2 || bg[0] != "rgb(21, 23, 27)" || bg[1] != "rgb(21, 23, 27)" {
		t.Fatalf("with prefers-color-scheme: dark, theme %q and page, loader backgrounds %v; want dark and rgb(21, 23, 27)", s.Theme, bg)
	}
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{}); err != nil {
		t.Fatal(err)
	}
	check("theme")

	// A permalink opens exactly that state.
	openPermalink("lesson=shared-buffers&step=4")
	if s := state(); s.Mode != "lesson" || s.Step != 3 {
		t.Fatalf("permalink step=4 (the fourth, index 3): %+v", s)
	}
	// Let it draw a few frames, then take a screenshot.
	shot := screenshot(1500*time.Millisecond, "bufferlab-browser.png", "screenshot")
	if out := os.Getenv("BUFFERLAB_SCREENSHOT"); out != "" {
		os.WriteFile(out, shot, 0o644)
	}
	t.Logf("frames per second: %.1f", state().FPS)
	check("permalink")

	// layout() describes the frame on screen (the window is 1280 wide; its
	// height is what the window leaves the page); presentation(true) makes
	// the next frame the presentation layout, with larger type.
	lay := layoutAfterFrame(t, eval)
	if lay.Viewport[0] != 1280 || lay.Mode != "desk" || lay.MinTextPx < 14 || lay.MinTargetPx < 24 {
		t.Fatalf("layout() at 1280x800: %+v", lay)
	}
	eval("window.bufferlab.presentation(true)", nil)
	if lay := layoutAfterFrame(t, eval); lay.Mode != "desk-presentation" || lay.MinTextPx < 24 {
		t.Fatalf("layout() in presentation mode: %+v", lay)
	}
	eval("window.bufferlab.presentation(false)", nil)
	eval("(() => { try { window.bufferlab.presentation('yes'); return false } catch (e) { return /expected true or false/.test(e.message) } })()", &threw)
	if !threw {
		t.Fatal("presentation('yes') did not throw a clear error")
	}
	check("layout")

	// Every step of every lesson at the six viewports, in both modes:
	// layout() reports no text that does not fit, text no smaller than the
	// mode's floor, and targets of 44 px at least on a phone or a
	// tablet. Then the golden screenshots of a phone, a projector in
	// presentation mode and a monitor.
	layoutSweep(t, ctx, eval, lessons)
	touchPlaythrough(t, ctx, eval, lessons)
	for _, g := range []struct {
		w, h         int64
		presentation bool
		open, golden string
	}{
		// A phone at a question (asked at its moment), a projector at the
		// race's question, a monitor at a key moment once its question is
		// answered: the stop box and Continue.
		{390, 844, false, "(() => { const b = window.bufferlab; b.open('shared-buffers', 7); b.step(1000); })()", "browser-390x844.png"},
		{1280, 720, true, "(() => { const b = window.bufferlab; b.open('dropping', 1); b.step(1000); })()", "browser-1280x720-presentation.png"},
		{1920, 1080, false, "(() => { const b = window.bufferlab; b.open('pinning', 3); b.step(1000); b.answer(1); })()", "browser-1920x1080.png"},
	} {
		setViewport(t, ctx, eval, g.w, g.h)
		eval(fmt.Sprintf("window.bufferlab.presentation(%v)", g.presentation), nil)
		eval(g.open, nil)
		layoutAfterFrame(t, eval)
		shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		xvfbtest.MatchGolden(t, shot, filepath.Join("testdata", g.golden), *updateShots)
	}
	eval("window.bufferlab.presentation(false)", nil)
	if _, err := chromedp.Call(ctx, emulation.ClearDeviceMetricsOverride, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	check("layout sweep")

	// Lesson 2 plays both pin variants side by side: after the step where
	// A is descheduled, the atomic pane has counted failed CAS and no spin,
	// the spinlock pane spins and no CAS (the numbers the lesson's own
	// expect statements check).
	openPermalink("lesson=pinning&step=4")
	playOn()
	s = state()
	if s.Mode != "lesson" || s.Lesson != "pinning" || s.Step != 3 || !s.Gated || s.Pins != "atomic" || len(s.Panes) != 2 || s.Panes[1].Variant != "pins=spinlock" ||
		s.Stop == nil || s.Stop.Moment != "spin" || s.Stop.Pane != 1 {
		t.Fatalf("permalink to lesson 2 step 3, on to its question (before B spins on the right): %+v %+v", s, s.Stop)
	}
	eval("window.bufferlab.answer(1)", nil)
	playOn()
	s = state()
	if alt := s.Panes[1].Counters; s.Step != 4 || s.Counters.CASFailures != 6 || s.Counters.Spins != 0 || alt.CASFailures != 0 || alt.Spins != 11 {
		t.Fatalf("lesson 2 after the descheduled-holder step: step %d, atomic %+v, spinlock %+v", s.Step, s.Counters, alt)
	}
	screenshot(500*time.Millisecond, "bufferlab-browser-lesson2.png", "lesson 2 screenshot")
	check("lesson 2")

	// Lesson 3 races the drop strategies in three panes: after the race
	// step, the scan has examined every descriptor, the lookup asked the
	// mapping table once per block, the dlist walked the relation's list;
	// each dropped the same three buffers.
	openPermalink("lesson=dropping&step=2")
	answerAndPlay(1)
	// The next step's question is asked at its stop, after a few of its
	// own events: the race's counts are those at the next step's start.
	eval("window.bufferlab.goto(2)", nil)
	s = state()
	if s.Lesson != "dropping" || s.Step != 2 || len(s.Panes) != 3 {
		t.Fatalf("lesson 3 after the race: %+v", s)
	}
	want := map[string][3]uint64{"drop=scan": {128, 0, 3}, "drop=lookup": {3, 3, 3}, "drop=dlist": {3, 0, 3}}
	for _, p := range s.Panes {
		c, w := p.Counters, want[p.Variant]
		if c.DescsTouched != w[0] || c.DropLookups != w[1] || c.Invalidated != w[2] {
			t.Errorf("lesson 3 pane %s: descriptors %d, lookups %d, dropped %d; want %v", p.Variant, c.DescsTouched, c.DropLookups, c.Invalidated, w)
		}
	}
	// Paced by the native times measured in the browser, the panes end the
	// step with the same counts.
	var paced struct {
		Pacing string `json:"pacing"`
		Step   int    `json:"step"`
	}
	eval("window.bufferlab.pace('time')", &paced)
	if paced.Pacing != "time" || paced.Step != 2 {
		t.Fatalf("pace('time'): %+v", paced)
	}
	eval("window.bufferlab.goto(1)", nil)
	playOn()
	eval("window.bufferlab.goto(2)", nil) // the end of the race, as above
	for _, p := range state().Panes {
		if c, w := p.Counters, want[p.Variant]; c.DescsTouched != w[0] || c.Invalidated != w[2] {
			t.Errorf("lesson 3 paced by time, pane %s: descriptors %d, dropped %d; want %v", p.Variant, c.DescsTouched, c.Invalidated, w)
		}
	}
	check("lesson 3")

	// Lesson 4 plays on the commit log's SLRU: after the linear search
	// step, 8 pages were read and 2 lookups hit; after the last step the
	// dirty page 3 was written as its slot went to page 33.
	openPermalink("lesson=slru-banks&step=3")
	var slruState struct {
		Lesson string `json:"lesson"`
		Step   int    `json:"step"`
		SLRU   *struct {
			Hits, Reads, Writes uint64
		} `json:"slru"`
	}
	answerAndPlay(1)
	eval("window.bufferlab.state()", &slruState)
	if slruState.Lesson != "slru-banks" || slruState.Step != 3 || slruState.SLRU == nil || slruState.SLRU.Reads != 8 || slruState.SLRU.Hits != 2 {
		t.Fatalf("lesson 4 after the search: %+v %+v", slruState, slruState.SLRU)
	}
	eval("window.bufferlab.goto(5)", nil)
	answerAndPlay(1)
	eval("window.bufferlab.state()", &slruState)
	if slruState.SLRU == nil || slruState.SLRU.Writes != 1 {
		t.Fatalf("lesson 4 after the victim: %+v", slruState.SLRU)
	}
	check("lesson 4")

	// Lesson 5 plays on a heap and its free space map: after B's 150
	// inserts, 152 rows went in (151 into t, one into u) and the FSM was
	// read 24 times: 20 for t (the numbers of the seed 002 scenario test)
	// and 4 by the VACUUM of u.
	openPermalink("lesson=free-space-map&step=4")
	var fsmState struct {
		Step int `json:"step"`
		FSM  *struct {
			FSMReads, HeapReads, Inserts uint64
		} `json:"fsm"`
	}
	answerAndPlay(1)
	eval("window.bufferlab.state()", &fsmState)
	if fsmState.FSM == nil || fsmState.FSM.Inserts != 152 || fsmState.FSM.FSMReads != 24 {
		t.Fatalf("lesson 5 after the inserts: step %d, %+v", fsmState.Step, fsmState.FSM)
	}
	check("lesson 5")

	// Lesson 6 runs the free space map both ways in two panes.
	openPermalink("lesson=small-table-skip&step=2")
	answerAndPlay(1)
	s = state()
	if s.Lesson != "small-table-skip" || len(s.Panes) != 2 || s.Panes[0].Variant != "fsm=always" || s.Panes[1].Variant != "fsm=small-skip" {
		t.Fatalf("lesson 6: %+v", s)
	}
	check("lesson 6")

	// Lesson 7 runs three SLRUs in three panes. Answering step 0's
	// question and stepping on plays steps 0 and 1 (which has no question)
	// up to step 2's, asked as its lookup begins: a miss, then every slot
	// filled. Each pane has searched as its variant does: all 32 slots, one
	// bank of 16, or the bank's hash table.
	openPermalink("lesson=slru-side-by-side&step=1")
	answerAndPlay(2)
	s = state()
	if s.Lesson != "slru-side-by-side" || s.Step != 2 || !s.Gated || len(s.Panes) != 3 || s.Panes[0].Variant != "slru=single" || s.Panes[2].Variant != "slru=banks+hash" {
		t.Fatalf("lesson 7: %+v", s)
	}
	for i, want := range []pageSLRU{
		{Reads: 32, Hits: 1, SlotsScanned: 2049, VictimScans: 528},
		{Reads: 32, Hits: 1, SlotsScanned: 1025, VictimScans: 272},
		{Reads: 32, Hits: 1, Probes: 65, VictimScans: 272},
	} {
		if got := s.Panes[i].SLRU; got == nil || *got != want {
			t.Errorf("lesson 7, pane %s at step 2: SLRU %+v, want %+v", s.Panes[i].Variant, got, want)
		}
	}
	check("lesson 7")

	// The fast-mode panel runs `bench pool --quick` as WebAssembly.
	eval("window.bufferlab.fast('pool')", nil)
	var fast struct {
		Running bool
		Done    int
		Total   int
		Timer   string
		Summary map[string]float64
		Error   string
	}
	deadline := time.Now().Add(150 * time.Second)
	for {
		var st struct {
			Mode string
			Fast *json.RawMessage
		}
		eval("window.bufferlab.state()", &st)
		if st.Mode != "fast" || st.Fast == nil {
			t.Fatalf("fast('pool'): state %+v", st)
		}
		if err := json.Unmarshal(*st.Fast, &fast); err != nil {
			t.Fatal(err)
		}
		if !fast.Running || time.Now().After(deadline) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	if fast.Running || fast.Error != "" {
		t.Fatalf("fast mode did not finish cleanly: %+v", fast)
	}
	for _, k := range []string{"hit_ns", "miss_ns", "step_event_ns"} {
		if !(fast.Summary[k] > 0) {
			t.Errorf("fast mode summary %s = %v", k, fast.Summary[k])
		}
	}
	t.Logf("fast mode in the browser (timer %s): %v", fast.Timer, fast.Summary)
	check("fast mode")

	// pageMessages reads, after a few frames, the notice and the error
	// panel of the page (in window w: "window" or an iframe's window).
	type messages struct{ Notice, Error string }
	pageMessages := func(w string) messages {
		t.Helper()
		var m messages
		eval("new Promise(r => setTimeout(() => { const d = "+w+".document; "+
			"r({Notice: d.getElementById('notice').hidden ? '' : d.getElementById('notice-text').textContent, "+
			"Error: d.getElementById('error').hidden ? '' : d.getElementById('error-text').textContent}) }, 300))", &m)
		return m
	}

	// A permalink asking for what a lesson does not have opens the nearest
	// thing, with a notice, not the "could not continue" panel: past the
	// last step, the last step; a negative or garbled step, the first; an
	// unknown lesson, the list.
	for _, c := range []struct {
		hash, mode, lesson string
		step               int
		notice             string
	}{
		{"lesson=shared-buffers&step=15", "lesson", "shared-buffers", 13,
			"The link asked for step 15, but lesson shared-buffers has 14 steps: showing the last one."},
		{"lesson=pinning&step=0", "lesson", "pinning", 0, `The link's step "0" is not a step number (steps count from 1): it was ignored.`},
		{"lesson=pinning&step=two", "lesson", "pinning", 0, `The link's step "two" is not a step number`},
		{"lesson=nope&step=2", "menu", "", 0, `The link asked for lesson "nope", which does not exist: choose one from the list (shared-buffers, `},
	} {
		openPermalink(c.hash)
		s := state()
		m := pageMessages("window")
		if s.Mode != c.mode || s.Lesson != c.lesson || s.Step != c.step || !strings.HasPrefix(m.Notice, c.notice) || m.Error != "" {
			t.Errorf("#%s: state %+v, notice %q, error panel %q; want %s %q step %d and the notice %q", c.hash, s, m.Notice, m.Error, c.mode, c.lesson, c.step, c.notice)
		}
	}
	check("permalinks past the lesson")

	// In an iframe that does not allow fullscreen, F gives a notice and the
	// app goes on (it used to stop on the rejected requestFullscreen:
	// "Disallowed by permissions policy"). A frame from another site is
	// refused fullscreen unless it says allow="fullscreen"; a frame from the
	// same origin is allowed it unless it says 'none', as this one does, so
	// that the test can reach into it.
	navigate(srv.URL + "/frame.html")
	const inFrame = "document.getElementById('f').contentWindow"
	deadline = time.Now().Add(60 * time.Second)
	for {
		var installed bool
		eval("!!("+inFrame+".bufferlab && "+inFrame+".bufferlab.state)", &installed)
		if installed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the page in the iframe did not start")
		}
		time.Sleep(200 * time.Millisecond)
	}
	eval(inFrame+".bufferlab.ready.then(() => true)", nil)
	var allowed bool
	eval(inFrame+".document.fullscreenEnabled", &allowed)
	if allowed {
		t.Fatal("fullscreen is enabled in an iframe with allow=\"fullscreen 'none'\": the test does not test the refusal")
	}
	// Keys go to the canvas (Ebitengine listens there), in a page that has
	// the focus (a headless browser's pages have none unless emulated).
	if _, err := chromedp.Call(ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	var focused string
	eval("(() => { const w = "+inFrame+"; w.focus(); w.document.querySelector('canvas').focus(); return w.document.activeElement.tagName })()", &focused)
	if focused != "CANVAS" {
		t.Fatalf("the iframe's canvas does not take the focus: the active element is %q", focused)
	}
	// Hold F down over a few frames: the app reads keys once a tick, and a
	// loaded machine draws about one frame a second.
	keyEvent(t, ctx, input.DispatchKeyEventTypeKeyDown, "f", "KeyF", 70)
	var fsNotice string
	for deadline := time.Now().Add(30 * time.Second); fsNotice == "" && time.Now().Before(deadline); {
		time.Sleep(250 * time.Millisecond)
		eval(inFrame+".bufferlab.state().notice || ''", &fsNotice)
	}
	keyEvent(t, ctx, input.DispatchKeyEventTypeKeyUp, "f", "KeyF", 70)
	var fs pageState
	m := pageMessages(inFrame)
	eval(inFrame+".bufferlab.state()", &fs)
	if fs.Mode != "lesson" || fs.Lesson != "shared-buffers" || !strings.HasPrefix(m.Notice, "Fullscreen is not allowed in this frame") ||
		fsNotice != m.Notice || m.Error != "" {
		t.Fatalf("F in an iframe without fullscreen: state %+v (notice %q), page notice %q, error panel %q", fs, fsNotice, m.Notice, m.Error)
	}
	// And it keeps running: it still steps.
	eval(inFrame+".bufferlab.answer(1)", nil)
	eval(inFrame+".bufferlab.step(3)", nil)
	var after pageState
	eval(inFrame+".bufferlab.state()", &after)
	if after.Event != fs.Event+3 {
		t.Fatalf("after F in the iframe, step(3) moved from event %d to %d", fs.Event, after.Event)
	}
	check("fullscreen refused in an iframe")
}

// checkNotBlank decodes a PNG and checks that it shows something: many
// colours and a good share of pixels away from the background.
func checkNotBlank(b []byte) error {
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return err
	}
	return notBlank(img)
}

func notBlank(img image.Image) error {
	bg := img.At(img.Bounds().Min.X+2, img.Bounds().Min.Y+2)
	br, bgc, bb, _ := bg.RGBA()
	colours := map[uint32]bool{}
	differ, total := 0, 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y += 2 {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x += 2 {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[(r>>8)<<16|(g>>8)<<8|b>>8] = true
			if r != br || g != bgc || b != bb {
				differ++
			}
			total++
		}
	}
	if len(colours) < 20 || differ*10 < total {
		return fmt.Errorf("looks blank: %d colours, %d of %d sampled pixels differ from the background", len(colours), differ, total)
	}
	return nil
}

// keyEvent sends the page one raw key event (a key going down or up, key
// and code as KeyboardEvent names them, vk its Windows virtual key code):
// unlike chromedp.KeyEvent, a key can be held over several frames, as the
// app reads keys once a tick.
func keyEvent(t *testing.T, ctx context.Context, typ input.DispatchKeyEventType, key, code string, vk int64) {
	t.Helper()
	ev := input.DispatchKeyEventParams{Type: typ, Key: key, Code: code, WindowsVirtualKeyCode: vk, NativeVirtualKeyCode: vk}
	if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, ev); err != nil {
		t.Fatal(err)
	}
}
